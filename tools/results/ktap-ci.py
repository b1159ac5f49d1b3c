#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The kselftest's KTAP as CI systems read it (doc/ci.rst).

  ktap-ci.py json FILE             each result line as JSON: the one
                                   regex of doc/ci.rst, and its
                                   key=value figures
  ktap-ci.py nipa FILE EXIT        the run and its subtests as netdev's
                                   NIPA judges them: its rules (contest
                                   remote/lib/results.py), written here
                                   from their description
  ktap-ci.py names FILE...         every file has the same set of check
                                   names (a load's "load K: " aside)
  ktap-ci.py figures FILE RESULTS...  each test's figure equals the
                                   cycles_min of its results file's
                                   test: line, and every test has one

FILE is the wrapper's KTAP, as it printed it or nested ("# " before
each line) by the kselftest runner, RESULTS a results file of format
3 or 4 (read through tools/results/results.py, which runs bench-compare
--check on it first: $BENCH_COMPARE, else tools/compare/bench-compare,
built by make -C tools/compare).  Exit status: 0; 1 when a
check fails, with one line per finding; 2 on bad usage or a results
file refused (FILE:LINE: why).
"""
import json
import os
import re
import sys

# tools/results/results.py, the one reader of results files, beside this file
sys.dont_write_bytecode = True	# no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results  # noqa: E402

# A result line: "ok N DESC" or "not ok N DESC", then " # DATA".
RESULT_RE = re.compile(r"^(not )?ok (\d+) ([^#]*[^# ])(?: # (.*))?$")
# DATA: SKIP and a reason, or key=value words.
PAIR_RE = re.compile(r"([a-z][a-z0-9_+]*)=(\S+)")
LOAD_RE = re.compile(r"^load \d+: ")


def result_lines(text):
    """(ok, description, data) of each result line, nested or not."""
    lines = text.split("\n")
    nested = any(line.startswith("# TAP version ") for line in lines)
    for line in lines:
        if nested:
            if not line.startswith("# "):
                continue
            line = line[2:]
        m = RESULT_RE.match(line)
        if m:
            yield m.group(1) is None, m.group(3), m.group(4) or ""


def figures_of(data):
    """{key: value} of DATA, None when it is a skip."""
    if data.startswith("SKIP"):
        return None
    return dict(PAIR_RE.findall(data))


def cmd_json(path):
    for ok, desc, data in result_lines(read(path)):
        figures = figures_of(data)
        print(json.dumps({"name": desc,
                          "result": "skip" if figures is None else
                          "pass" if ok else "fail",
                          "figures": figures or {}}))
    return 0


# netdev's NIPA, as its results.py describes judging a run: markers in
# the output, the exit status, and the nested KTAP's subtests.
def nipa_indicators(out):
    return {
        "fail": any(s in out for s in ("[FAIL]", "[fail]", " FAIL:",
                                       "\n# not ok 1")) or
                re.search(r"\nnot ok \d+( \d+)? selftests: ", out) is not None,
        "skip": any(s in out for s in ("[SKIP]", "[skip]", " # SKIP",
                                       "SKIP:")),
        "pass": any(s in out for s in ("[OKAY]", "[PASS]", "[ OK ]", "[OK]",
                                       "[ ok ]", "[pass]", "PASSED all ")) or
                re.search(r"\nok \d+( \d+)? selftests: ", out) is not None or
                re.search(r"# Totals: pass:[1-9]\d* fail:0 (xfail:0 )?"
                          r"(xpass:0 )?skip:0 error:0", out) is not None,
    }


def nipa_result(exit_status, ind):
    result = "pass"
    if ind["skip"] or not ind["pass"]:
        result = "skip"
    if exit_status == 4:
        result = "skip"
    elif exit_status:
        result = "fail"
    if ind["fail"]:
        result = "fail"
    return result


def namify(what):
    if not what:
        return "no-name"
    name = re.sub(r"[^0-9a-zA-Z]+", "-", what)
    return name[:-1] if name.endswith("-") else name


def nipa_subtests(out):
    """[(name, result)] of the nested KTAP after "# TAP version"."""
    tests, nested = [], False
    line_re = re.compile(r"(not )?ok (\d+)( \d+)?( -)? ([^#]*[^ ])( +# +)?"
                         r"([^ ].*)?$")
    for line in out.split("\n"):
        if nested:
            if line.startswith("# "):
                line = line[2:]
            else:
                nested = False
        elif line.startswith("# TAP version "):
            nested = True
            continue
        if not nested or not line.startswith(("ok ", "not ok ")):
            continue
        m = line_re.match(line)
        if not m:
            continue
        result = "fail" if line.startswith("not ") else "pass"
        if m.group(6) and m.group(7) and \
           m.group(7).lower().startswith("skip"):
            result = "skip"
        tests.append((namify(m.group(5)), result))
    return tests


def cmd_nipa(path, exit_status):
    out = read(path)
    ind = nipa_indicators(out)
    print("run", nipa_result(exit_status, ind))
    for name, result in nipa_subtests(out):
        print("subtest", name, result)
    return 0


def cmd_names(paths):
    sets = {}
    for path in paths:
        names = [LOAD_RE.sub("", d) for _, d, _ in result_lines(read(path))]
        sets[path] = set(names)
        if len(names) != len(set(names)) and not \
           any(LOAD_RE.match(d) for _, d, _ in result_lines(read(path))):
            print(f"{path}: a check name given twice")
            return 1
    first = paths[0]
    bad = 0
    for path in paths[1:]:
        for name in sorted(sets[first] - sets[path]):
            print(f"{path}: no check \"{name}\" (in {first})")
            bad = 1
        for name in sorted(sets[path] - sets[first]):
            print(f"{path}: check \"{name}\" not in {first}")
            bad = 1
    if not bad:
        print(f"{len(sets[first])} check names, the same in {len(paths)} runs")
    return bad


def results_tests(paths):
    """{test: cycles_min or None for a skip} of the results files, a
    later block's line of a test taking its place."""
    tests = {}
    for block in results.read_files(paths):
        for row in block.rows["test"]:
            tests[row["name"]] = row.get("cycles_min")
        for row in block.rows["skip"]:
            tests[row["name"]] = None
    return tests


def cmd_figures(path, results):
    want = results_tests(results)
    got = {}
    for ok, desc, data in result_lines(read(path)):
        desc = LOAD_RE.sub("", desc)
        if desc in want:
            got[desc] = figures_of(data)
    bad = 0
    for test, value in sorted(want.items()):
        if test not in got:
            print(f"{path}: no line of test {test}")
            bad = 1
        elif value is None and got[test] is not None:
            print(f"{path}: {test} skipped, its line is not a skip")
            bad = 1
        elif value is not None and (got[test] or {}).get("value") != value:
            print(f"{path}: {test}: value={(got[test] or {}).get('value')}, "
                  f"its results file's cycles_min={value}")
            bad = 1
    if not bad:
        skips = sum(value is None for value in want.values())
        print(f"{len(want)} tests, {skips} of them skips: each figure is "
              f"its results file's")
    return bad


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    try:
        if cmd == "json" and len(argv) == 3:
            return cmd_json(argv[2])
        if cmd == "nipa" and len(argv) == 4:
            return cmd_nipa(argv[2], int(argv[3]))
        if cmd == "names" and len(argv) >= 4:
            return cmd_names(argv[2:])
        if cmd == "figures" and len(argv) >= 4:
            return cmd_figures(argv[2], argv[3:])
    except (OSError, ValueError, results.ResultsError) as e:
        print(f"ktap-ci.py: {e}", file=sys.stderr)
        return 2
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
