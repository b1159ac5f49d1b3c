#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# Checks a profiled comparison (bench-compare -f json of two sides with
# exact profiles) against what a constructed change must do:
#
#   profile/expect.py JSON --changed TEST,... --untouched TEST,...
#                     [--tolerance T] [COUNT=VALUE | COUNT=LO..HI]...
#
# On each changed test the profile's totals move as the expectations
# say (VALUE: within T, by default 0.05, per element; a count not named
# must not move), some function moved, and the moved functions'
# instructions add up to the test's, within T; on each untouched test
# no function moved.  A wider T serves a test whose windows take
# interrupt work of their own (ptr_ring: 0.08 of an instruction).
# COUNT is one of bench-compare's: insns, loads, stores, atomics,
# l1i_miss, l1d_miss, llc_miss.  Prints a line per test; exit 1 when
# one fails, 2 on bad usage or input.
import json
import sys

COUNTS = ("insns", "loads", "stores", "atomics", "l1i_miss", "l1d_miss",
          "llc_miss")
# Code moves counts by whole events per element; interrupt work that
# lands in a window moves them by hundredths.
TOLERANCE = 0.05


def usage(msg):
    print("profile/expect.py: %s" % msg, file=sys.stderr)
    sys.exit(2)


def parse_expectation(arg, tolerance):
    key, sep, val = arg.partition("=")
    if not sep or key not in COUNTS:
        usage("%s: not COUNT=VALUE or COUNT=LO..HI (counts: %s)" %
              (arg, ", ".join(COUNTS)))
    try:
        if ".." in val:
            lo, hi = (float(v) for v in val.split("..", 1))
        else:
            lo = hi = float(val)
    except ValueError:
        usage("%s: not a number" % arg)
    if lo == hi:
        lo, hi = lo - tolerance, hi + tolerance
    return key, (lo, hi)


def parse_args(argv):
    tests = {"--changed": [], "--untouched": []}
    want = []
    tolerance = TOLERANCE
    it = iter(argv)
    path = next(it, None)
    if path is None:
        usage("no JSON file given")
    for arg in it:
        if arg in tests:
            val = next(it, None)
            if not val:
                usage("%s needs TEST,..." % arg)
            tests[arg] += val.split(",")
        elif arg == "--tolerance":
            try:
                tolerance = float(next(it, ""))
            except ValueError:
                usage("--tolerance needs a number")
            if not 0 < tolerance < 1:
                usage("--tolerance: between 0 and 1")
        else:
            want.append(arg)
    if not tests["--changed"] and not tests["--untouched"]:
        usage("no test to check")
    want = dict(parse_expectation(arg, tolerance) for arg in want)
    return path, tests["--changed"], tests["--untouched"], want, tolerance


def profiles(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        usage("%s: %s" % (path, e))
    return {r["test"]: r.get("profile") for r in doc.get("rows", [])}


def moved_names(prof):
    return ", ".join("%s %+.3f" % (m["function"], m["counts"]["insns"]["diff"])
                     for m in prof["moved"]) or "none"


def check_changed(name, prof, want, tolerance):
    bad = []
    totals = prof["totals"]
    for key in COUNTS:
        diff = totals[key]["diff"]
        lo, hi = want.get(key, (-tolerance, tolerance))
        if not lo <= diff <= hi:
            bad.append("%s %+.3f not in %.3f..%.3f" % (key, diff, lo, hi))
    if not prof["moved"]:
        bad.append("no function moved")
    moved = sum(m["counts"]["insns"]["diff"] for m in prof["moved"])
    if abs(moved - totals["insns"]["diff"]) > tolerance:
        bad.append("the moved functions add %+.3f instructions, the test %+.3f"
                   % (moved, totals["insns"]["diff"]))
    print("%s: %s; moved: %s%s" %
          (name, ", ".join("%s %+.3f" % (k, totals[k]["diff"]) for k in COUNTS),
           moved_names(prof), "; " + "; ".join(bad) if bad else ""))
    return not bad


def check_untouched(name, prof):
    print("%s: moved: %s" % (name, moved_names(prof)))
    return not prof["moved"]


def main():
    path, changed, untouched, want, tolerance = parse_args(sys.argv[1:])
    rows = profiles(path)
    ok = True
    for name in changed + untouched:
        prof = rows.get(name)
        if prof is None:
            print("%s: no profile on both sides" % name)
            ok = False
        elif name in changed:
            ok = check_changed(name, prof, want, tolerance) and ok
        else:
            ok = check_untouched(name, prof) and ok
    sys.exit(0 if ok else 1)


main()
