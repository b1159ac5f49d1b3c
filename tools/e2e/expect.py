#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# Checks the end-to-end scenarios against a change known by
# construction (doc/e2e.rst): INSNS instructions more each time a page
# is recycled into page_pool's cache.
#
#   e2e/expect.py [--within LO..HI] [--near D] AB_JSON AA_JSON|- INSNS RESULTS...
#   e2e/expect.py --share D:D2 [...] AB_JSON AA_JSON|- INSNS BEFORE... -- AFTER...
#
# AB_JSON and AA_JSON are bench-compare -f json of the change against
# its base and of the base against itself (- for none), RESULTS the
# results files of their loads (formats 3 and 4, read through
# tools/results/results.py, which refuses a bad line).  A scenario's path is what its rows in
# RESULTS say (every load the same).  The cache scenarios recycle a page
# per packet: their row must say "change", its shift be nearer INSNS per
# packet than INSNS/2 and its interval narrower than INSNS: +INSNS, told
# apart from none and from a second recycle a packet (a timer tick that
# lands in a repetition or not moves a figure by a few instructions a
# packet, and the pools' warm-up adds hundredths); every other
# scenario's, "noise", or a shift within INSNS/4 of none: those are
# not exact (doc/e2e.rst): the ring scenario's count moves with the
# kernel and the boot by up to 0.93 a packet (shifts of -0.08 to -0.93
# in seven runs with INSNS 6 on the small 6.12 kernels), and a guest's
# two loads share its offset, so its rank test said "change" in one
# run of seven; +INSNS stays far outside.  In the A/A, every row
# "noise".  --within LO..HI
# takes instead any shift whose interval lies in LO..HI, for a scenario
# whose count moves by boot: on the small 6.12 kernels, a load's
# cheapest repetition of generic_xdp_drop ranged from 6409.77 to 6412.64
# instructions a packet over six boots of one kernel (0.9 a packet for
# each timer tick more in it).  --near D: and the shift itself within D
# of INSNS.  --share D:D2: and, from the loads' exact profiles (format
# 4, PROFILE=1), the instructions a packet in page_pool's own functions
# (kernel symbols page_pool_* and __page_pool_*, where the six run):
# after's median less before's within D of INSNS on a cache scenario,
# within D2 of none on any other.  Counting instructions that share
# holds no tick and no other task (they run none of page_pool's code),
# so it is the same on every boot; RESULTS are then the before side's
# files, "--", the after side's.  Both kinds must be there: a check of
# nothing fails.
# Prints a line per scenario; exit 1 when one fails, 2 on bad usage or
# input.
import json
import os
import re
import statistics
import sys

# tools/results/results.py, the one reader of results files, beside this file
sys.dont_write_bytecode = True	# no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'results'))
import results  # noqa: E402


def usage(msg):
    print("e2e/expect.py: %s" % msg, file=sys.stderr)
    sys.exit(2)


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        return {row["test"]: row for row in doc["rows"]}
    except (OSError, ValueError, KeyError, TypeError) as err:
        usage("%s: not bench-compare's JSON (%s)" % (path, err))


def read_blocks(files):
    """The loads of FILES, or exit 2 with the first bad line."""
    try:
        return results.read_files(files)
    except results.ResultsError as err:
        usage(str(err))


def scenario_paths(blocks):
    """Each scenario's paths over the loads: {name: {path, ...}}."""
    paths = {}
    for block in blocks:
        for fields in block.rows["test"]:
            if fields.get("wanted_context") == "e2e":
                paths.setdefault(fields["name"], set()).add(fields["path"])
    return paths


# page_pool's own functions as the profile names them: a kernel symbol,
# never a module's (those carry "[module]")
PP_FUNCTION = re.compile(r"_*page_pool_[A-Za-z0-9_.]*$")


def pp_shares(blocks):
    """Per scenario, each load's instructions a packet in page_pool's
    functions, None for a load without a profile: {name: [share]}."""
    shares = {}
    for block in blocks:
        profiled = {f["name"] for f in block.rows["prof"]}
        for fields in block.rows["test"]:
            name = fields["name"]
            if fields.get("wanted_context") != "e2e":
                continue
            share = None
            if name in profiled:
                share = sum(float(f["insns"]) for f in block.rows["prof_fn"]
                            if f["name"] == name and
                            PP_FUNCTION.match(f["fn"]))
            shares.setdefault(name, []).append(share)
    return shares


def check_share(name, path, insns, bounds, before, after):
    """Whether a scenario's page_pool share moved as its path says."""
    want = insns if path == "cache" else 0.0
    bound = bounds[0] if path == "cache" else bounds[1]
    head = "%s: page_pool's functions, wants %+g within %g" % (
        name, want, bound)
    if (not before or not after or None in before or None in after):
        print("%s: a load without a profile  <- wrong" % head)
        return False
    diff = statistics.median(after) - statistics.median(before)
    good = abs(diff - want) <= bound
    print("%s: %+.3f (before %.3f..%.3f, after %.3f..%.3f)%s" %
          (head, diff, min(before), max(before), min(after), max(after),
           "" if good else "  <- wrong"))
    return good


def shift(row):
    """The row's shift per packet and its interval, or None, None."""
    clock = row.get("instructions")
    if (not isinstance(clock, dict) or not clock.get("ci") or
            not isinstance(clock.get("diff"), (int, float))):
        return None, None
    return clock["diff"], clock["ci"]


def main(argv):
    within = None
    near = None
    share = None
    while argv[:1] in (["--within"], ["--near"], ["--share"]):
        if argv[0] == "--share":
            try:
                share = tuple(float(v) for v in argv[1].split(":"))
            except (IndexError, ValueError):
                share = ()
            if len(share) != 2 or not all(v > 0 for v in share):
                usage("--share needs D:D2, two numbers above 0")
        elif argv[0] == "--within":
            try:
                lo, hi = (float(v) for v in argv[1].split("..", 1))
            except (IndexError, ValueError):
                usage("--within needs LO..HI, two numbers")
            within = (lo, hi)
        else:
            try:
                near = float(argv[1])
            except (IndexError, ValueError):
                usage("--near needs a number of instructions")
            if not near > 0:
                usage("--near needs a number above 0")
        argv = argv[2:]
    if len(argv) < 4:
        usage("usage: e2e/expect.py AB_JSON AA_JSON INSNS RESULTS...")
    ab = load_json(argv[0])
    aa = load_json(argv[1]) if argv[1] != "-" else None
    try:
        insns = float(argv[2])
    except ValueError:
        usage("%s: not a number of instructions" % argv[2])
    files = argv[3:]
    if share is not None:
        if files.count("--") != 1 or files[0] == "--" or files[-1] == "--":
            usage("--share needs BEFORE... -- AFTER...")
        cut = files.index("--")
        before_blocks = read_blocks(files[:cut])
        after_blocks = read_blocks(files[cut + 1:])
        before, after = pp_shares(before_blocks), pp_shares(after_blocks)
        blocks = before_blocks + after_blocks
    else:
        blocks = read_blocks(files)
    paths = scenario_paths(blocks)
    ok = True
    kinds = set()
    for name in sorted(paths):
        seen = paths[name]
        row = ab.get(name)
        aa_row = aa.get(name) if aa is not None else {"verdict": "noise"}
        if len(seen) != 1 or row is None or aa_row is None:
            print("%s: paths %s over the loads, %s in the A/B, %s in the A/A"
                  % (name, ",".join(sorted(seen)),
                     "a row" if row else "no row",
                     "a row" if aa_row else "no row"))
            ok = False
            continue
        path = seen.pop()
        diff, ci = shift(row)
        if path == "cache" and within:
            want = "change, +%g per packet (an interval in %g..%g)" % (
                insns, within[0], within[1])
            good = (row["verdict"] == "change" and ci is not None and
                    within[0] <= ci[0] and ci[1] <= within[1])
            if near is not None:
                want += ", the shift within %g of it" % near
                good = good and abs(diff - insns) <= near
        elif path == "cache":
            want = "change, +%g per packet" % insns
            good = (row["verdict"] == "change" and ci is not None and
                    abs(diff - insns) < insns / 2 and ci[1] - ci[0] < insns)
        else:
            bound = insns / 4
            want = "noise, or a shift within +-%g per packet" % bound
            good = row["verdict"] == "noise" or (
                diff is not None and abs(diff) <= bound)
        good = good and aa_row["verdict"] == "noise"
        kinds.add(path == "cache")
        print("%s: path %s, its figure (%s) wants %s: %s, %s%s%s" %
              (name, path, "not exact: doc/e2e.rst, where the scatter "
               "comes from" if share is not None else "per packet",
               want, row["verdict"],
               "%+g (%s..%s)" % (diff, ci[0], ci[1]) if ci else "no shift",
               "; A/A " + aa_row["verdict"] if aa is not None else "",
               "" if good else "  <- wrong"))
        ok = ok and good
        if share is not None:
            ok = check_share(name, path, insns, share, before.get(name),
                             after.get(name)) and ok
    for name, row in sorted((aa or {}).items()):
        if name not in paths and row["verdict"] != "noise":
            print("%s: A/A %s  <- wrong" % (name, row["verdict"]))
            ok = False
    if kinds != {True, False}:
        print("no %s scenario ran: nothing tells the paths apart" %
              ("cache" if True not in kinds else "other"))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
