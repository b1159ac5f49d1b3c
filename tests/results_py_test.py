#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tools/results/results.py, the Python tools' reader of results files: every
good fixture of the project reads, with its blocks, rows and profile
lines; hostile files are refused at the right FILE:LINE (bench-compare --check
reads each first: the reasons are its words), and the tools
that read through it turn a refusal into their exit 2.  Prints KTAP;
exit 1 when a case fails."""
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True	# no __pycache__ in the source tree
sys.path.insert(0, os.path.join(TOP, "tools", "results"))
import results  # noqa: E402

DATA = os.path.join(TOP, "tools", "compare", "tests", "data")
WRAPPER_DATA = os.path.join(TOP, "tests", "wrapper_data")
# The good format 3 and 4 files the project keeps: {path: (blocks,
# test: rows, skip: rows, prof: rows) over the file}.
GOOD = {
    os.path.join(WRAPPER_DATA, "e2e.results"): (1, 28, 2, 0),
    os.path.join(WRAPPER_DATA, "icount.results"): (1, 20, 1, 0),
    os.path.join(WRAPPER_DATA, "tcg.results"): (1, 21, 0, 0),
    os.path.join(DATA, "f3_after.txt"): (3, 6, 3, 0),
    os.path.join(DATA, "f3_before.txt"): (3, 6, 3, 0),
    os.path.join(DATA, "f3_env.txt"): (3, 6, 3, 0),
    os.path.join(DATA, "f4_aa.txt"): (3, 6, 0, 6),
    os.path.join(DATA, "f4_after.txt"): (3, 6, 0, 6),
    os.path.join(DATA, "f4_before.txt"): (3, 6, 0, 6),
    os.path.join(DATA, "f4_one.txt"): (1, 2, 0, 2),
    os.path.join(DATA, "icount_after.txt"): (6, 12, 6, 0),
    os.path.join(DATA, "icount_before.txt"): (6, 12, 6, 0),
    os.path.join(DATA, "boots_before.txt"): (12, 24, 0, 0),
    os.path.join(DATA, "boots_after.txt"): (12, 24, 0, 0),
    os.path.join(DATA, "dir_before", "load-1.results"): (1, 2, 1, 0),
    os.path.join(DATA, "dir_before", "load-2.results"): (1, 2, 1, 0),
    os.path.join(DATA, "dir_before", "load-3.results"): (1, 2, 1, 0),
}
BASE = os.path.join(WRAPPER_DATA, "icount.results")
FIRST_TEST = 16		# BASE's first test: line
END = 37		# and its end: line

cases = []


def case(fn):
    cases.append(fn)
    return fn


def counts(blocks):
    return (len(blocks),
            sum(len(b.rows["test"]) for b in blocks),
            sum(len(b.rows["skip"]) for b in blocks),
            sum(len(b.rows["prof"]) for b in blocks))


def good_case(path, want):
    def run():
        got = counts(results.read_file(path))
        return got == want, f"blocks, test:, skip: and prof: rows {got}, want {want}"
    run.__doc__ = f"reads {os.path.relpath(path, TOP)}"
    return run


for path, want in GOOD.items():
    cases.append(good_case(path, want))


@case
def header_and_rows():
    """a block's header in order, its rows with their line and fields"""
    block = results.read_file(BASE)[0]
    keys = list(block.header)
    first = block.rows["test"][0]
    skip = block.rows["skip"][0]
    ok = (keys[:2] == ["format", "kernel"] and keys[-1] == "end" and
          block.format == 3 and block.where == f"{BASE}:1" and
          first.where == f"{BASE}:{FIRST_TEST}" and first["name"] == "for_loop" and
          first.get("cycles_min") is not None and first.get("ipc") is None and
          skip["reason"].startswith("counting instructions") and
          block.profile is None)
    return ok, f"header {keys}, first row {first.where} {dict(list(first.items())[:2])}"


@case
def profile_lines():
    """format 4: the profile: line and the prof: and prof_fn: rows"""
    block = results.read_file(os.path.join(DATA, "f4_one.txt"))[0]
    fns = block.rows["prof_fn"]
    ok = (block.format == 4 and block.profile.startswith("l1i=") and
          len(fns) == 6 and fns[0]["fn"] == "bench_pp_fast[bench_page_pool_simple]")
    return ok, f"profile {block.profile!r}, {len(fns)} prof_fn: rows"


@case
def undeclared_field_asked():
    """asking a row for a field results.schema lacks is a KeyError"""
    row = results.read_file(BASE)[0].rows["test"][0]
    try:
        row.get("colour")
    except KeyError as e:
        return "not a field of test: lines" in str(e), str(e)
    return False, "no KeyError"


def base_lines():
    with open(BASE, "rb") as f:
        return f.read().split(b"\n")


def replaced(n, line):
    """BASE with its line N replaced by LINE (bytes)."""
    lines = base_lines()
    lines[n - 1] = line
    return b"\n".join(lines)


def inserted(n, line):
    """BASE with LINE (bytes) inserted as its line N."""
    lines = base_lines()
    lines.insert(n - 1, line)
    return b"\n".join(lines)


def test_line(n=FIRST_TEST):
    return base_lines()[n - 1]


# A hostile file: (description, its bytes, the line refused at, words
# of the reason).
HOSTILE = [
    ("a NUL byte",
     replaced(FIRST_TEST, test_line().replace(b"row=0", b"row=\0")),
     FIRST_TEST, "NUL byte"),
    ("a byte that is not UTF-8",
     replaced(3, b"cpu_model: QEMU \xff CPU"), 3, "non-printable byte 0xff"),
    ("a bidi override",
     replaced(2, "kernel: 6.1\u202e".encode()), 2, "U+202E"),
    ("a line that does not parse",
     inserted(END, b"a stray line"), END, "expected a \"KEY: value\" line"),
    ("a line of a kind this reader does not know, without its blank",
     inserted(6, b"colour:red"), 6, "expected a \"KEY: value\" line"),
    ("a field this reader does not know, without its value",
     replaced(FIRST_TEST, test_line() + b" colour="),
     FIRST_TEST, "malformed field 'colour='"),
    ("a key given twice in a line",
     replaced(FIRST_TEST, test_line() + b" row=0"), FIRST_TEST, "row= given twice"),
    ("a header line given twice",
     inserted(5, b"clock: cycles"), 5, "given twice in the block"),
    ("a test given twice in a block",
     inserted(FIRST_TEST + 1, test_line()), FIRST_TEST + 1, "appears twice in one results block"),
    ("a value not of its type",
     replaced(FIRST_TEST, test_line().replace(b"cpu_moves=0", b"cpu_moves=x")),
     FIRST_TEST, "test for_loop: cpu_moves=x is not a whole number"),
    ("a required field missing",
     replaced(FIRST_TEST, test_line().replace(b" reps=1 ", b" ")), FIRST_TEST, "no reps="),
    ("a row without name= first",
     replaced(FIRST_TEST, test_line().replace(b"test: name=for_loop ", b"test: ")),
     FIRST_TEST, "without name=TEST first"),
    ("a block without its end: line",
     replaced(END, b""), 1, "no end: line"),
    ("end: counts that are not the block's",
     replaced(END, b"end: tests=21 skips=1"), END, "cut short"),
    ("a line after the end: line",
     inserted(END + 1, b"kernel: x"), END + 1, "after the end: line"),
    ("a profile line in a format 3 block",
     inserted(END, b"prof: name=for_loop windows=1"), END, "prof: line in a format 3 block"),
    ("a boot_id that is not the kernel's",
     inserted(12, b"boot_id: 2B5E0F8C-6F2E-4C61-9A3E-7D1B4F0C9E21"), 12, "bad boot_id"),
    ("a boot_id given twice",
     inserted(12, b"boot_id: unavailable\nboot_id: unavailable"), 13,
     "boot_id: line given twice"),
    ("format 2",
     replaced(1, b"format: bench_page_pool_simple 2"), 1, "format 2: the Python tools"),
    ("a line before the first format: line",
     b"kernel: x\n" + b"\n".join(base_lines()), 1, "before the first format: line"),
    ("the second block's bad line, at its own line",
     b"\n".join(base_lines()[:END]) + b"\n" + replaced(FIRST_TEST, b"test: name=x"),
     END + FIRST_TEST, "no run_flags_bit="),
]


@case
def later_lines_and_fields():
    """a line and a field added after this reader: read, and ignored"""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "later.results")
        with open(path, "wb") as f:
            f.write(inserted(6, b"colour: red").replace(
                test_line(), test_line() + b" colour=red", 1))
        block = results.read_file(path)[0]
        return "colour" not in block.header and \
            "colour" not in dict.keys(block.rows["test"][0]), "read"


BOOT_ID = "2b5e0f8c-6f2e-4c61-9a3e-7d1b4f0c9e21"


@case
def boot_id_read():
    """boot_id: the boot of a block, in its header; unavailable too"""
    with tempfile.TemporaryDirectory() as tmp:
        got = []
        for value in (BOOT_ID, "unavailable"):
            path = os.path.join(tmp, "boot.results")
            with open(path, "wb") as f:
                f.write(inserted(12, f"boot_id: {value}".encode()))
            got.append(results.read_file(path)[0].header.get("boot_id"))
        return got == [BOOT_ID, "unavailable"], f"read {got}"


@case
def boot_id_own_grammar():
    """its own grammar, bench-compare aside: a boot_id not of its type refused"""
    fields = results.default_schema()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "boot.results")
        with open(path, "wb") as f:
            f.write(inserted(12, f"boot_id: {BOOT_ID[:-1]}".encode()))
        try:
            results.Reader(path, fields).read()
        except results.ResultsError as e:
            return str(e) == f"{path}:12: boot_id: {BOOT_ID[:-1]} is no uuid_or_unavailable", str(e)
        return False, "read, not refused"


def hostile_case(tmp, n, desc, data, line, reason):
    path = os.path.join(tmp, f"hostile{n}.results")
    with open(path, "wb") as f:
        f.write(data)

    def run():
        try:
            results.read_file(path)
        except results.ResultsError as e:
            return str(e).startswith(f"{path}:{line}: ") and reason in str(e), str(e)
        return False, "read, not refused"
    run.__doc__ = f"refused at its line: {desc}"
    return run


def schema_case(tmp):
    path = os.path.join(tmp, "results.schema")
    with open(path, "w", encoding="utf-8") as f:
        f.write("line\tformat\tformat\trequired\ntest\tname\tname\tsometimes\n")

    def run():
        try:
            results.read_schema(path)
        except results.ResultsError as e:
            return str(e).startswith(f"{path}:2: presence sometimes"), str(e)
        return False, "read, not refused"
    run.__doc__ = "a schema line that does not parse: refused at its line"
    return run


def tool_case(tmp, tool, args, prefix):
    """TOOL on the first hostile file exits 2 with PREFIX and its line."""
    bad = os.path.join(tmp, "hostile1.results")

    def run():
        argv = [sys.executable, os.path.join(TOP, "tools", *tool.split("/"))] + \
            [a.replace("BAD", bad) for a in args]
        p = subprocess.run(argv, capture_output=True, text=True, check=False)
        want = f"{prefix}: {bad}:{FIRST_TEST}: "
        return p.returncode == 2 and p.stderr.startswith(want), \
            f"exit {p.returncode}, stderr {p.stderr.strip()!r}"
    run.__doc__ = f"{prefix} refuses a hostile results file: exit 2, FILE:LINE"
    return run


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for n, (desc, data, line, reason) in enumerate(HOSTILE, 1):
            cases.append(hostile_case(tmp, n, desc, data, line, reason))
        cases.append(schema_case(tmp))
        ktap = os.path.join(tmp, "empty.ktap")
        open(ktap, "w", encoding="utf-8").close()
        aa_json = os.path.join(tmp, "aa.json")
        with open(aa_json, "w", encoding="utf-8") as f:
            f.write('{"rows": []}\n')
        cases.append(tool_case(tmp, "results/ktap-ci.py", ["figures", ktap, "BAD"],
                               "ktap-ci.py"))
        cases.append(tool_case(tmp, "e2e/expect.py", [aa_json, "-", "6", "BAD"],
                               "e2e/expect.py"))
        print("TAP version 13")
        print(f"1..{len(cases)}")
        failed = 0
        for n, run in enumerate(cases, 1):
            try:
                ok, why = run()
            except (results.ResultsError, OSError, KeyError) as e:
                ok, why = False, f"{type(e).__name__}: {e}"
            if not ok:
                print(f"# {why}")
                failed += 1
            print(f"{'ok' if ok else 'not ok'} {n} {run.__doc__}")
        print(f"# Totals: pass:{len(cases) - failed} fail:{failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
