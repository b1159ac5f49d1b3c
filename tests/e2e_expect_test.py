#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tools/e2e/expect.py --share, make check's judge of the end-to-end
construction, on made-up profiled loads: page_pool's share of a cache
scenario must move by the constructed count within the bound, every
other scenario's by none within its bound; only page_pool's own kernel
functions count; a load without a profile, or bad usage, fails.  The
loads are tests/wrapper_data/e2e.results made format 4, its profile
lines written as profile_merge writes them.  Prints KTAP; exit 1 when
a case fails."""
import json
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPECT = os.path.join(TOP, "tools", "e2e", "expect.py")
LOAD = os.path.join(TOP, "tests", "wrapper_data", "e2e.results")
COUNTS = ("insns", "loads", "stores", "atomics", "l1i_miss", "l1d_miss",
          "llc_miss")
# each scenario's functions in a load of the base, instructions a packet
BASE = {"page_pool_put_unrefed_netmem": 40.0, "__page_pool_get_cached": 9.0,
        "napi_pp_put_page": 30.0, "veth_xmit": 700.0,
        "page_pool_ring[veth]": 5.0}


def fields(line):
    return dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)


def profiled(text, moves):
    """The module's file TEXT as format 4, each test's functions BASE
    moved by MOVES: {test: {function: instructions a packet more}}."""
    lines = text.splitlines()
    tests = [fields(line)["name"] for line in lines
             if line.startswith("test: ")]
    out = [line.replace("format: bench_page_pool_simple 3",
                        "format: bench_page_pool_simple 4")
           for line in lines if not line.startswith("end: ")]
    out.append("profile: l1i=32768:8 l1d=49152:12 llc=1310720:20 line=64")
    for name in tests:
        fns = dict(BASE)
        for fn, more in moves.get(name, {}).items():
            fns[fn] = fns.get(fn, 0.0) + more
        zero = " ".join("%s=0.000" % c for c in COUNTS[1:])
        out.append("prof: name=%s windows=20 insns=%.3f %s" %
                   (name, sum(fns.values()), zero))
        out.extend("prof_fn: name=%s fn=%s insns=%.3f %s" %
                   (name, fn, v, zero) for fn, v in sorted(fns.items()))
    out.extend(line for line in lines if line.startswith("end: "))
    return "\n".join(out) + "\n"


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def main():
    with open(LOAD, encoding="utf-8") as f:
        text = f.read()
    cache = "generic_xdp_drop"
    ring = "xdp_redirect_veth_drop"
    rows = []
    for line in text.splitlines():
        got = fields(line) if line.startswith("test: ") else {}
        if got.get("wanted_context") != "e2e":
            continue
        change = got["name"] == cache
        rows.append({"test": got["name"],
                     "verdict": "change" if change else "noise",
                     "instructions": {"diff": 6.0 if change else 0.0,
                                      "ci": [5.5, 6.5] if change
                                      else [-0.5, 0.5]}})
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        ab = write(os.path.join(tmp, "ab.json"), json.dumps({"rows": rows}))
        base = [write(os.path.join(tmp, "before-%d.results" % i),
                      profiled(text, {})) for i in (1, 2)]

        def side(name, moves):
            return [write(os.path.join(tmp, "%s-%d.results" % (name, i)),
                          profiled(text, moves)) for i in (1, 2)]

        def case(desc, want, after, share="0.05:0.1", files=None,
                 says=None):
            argv = [sys.executable, EXPECT, "--share", share, ab, "-", "6"]
            argv += files if files is not None else base + ["--"] + after

            def run():
                p = subprocess.run(argv, capture_output=True, text=True,
                                   check=False)
                ok = p.returncode == want and (
                    says is None or says in p.stdout + p.stderr)
                return ok, "exit %d: %s%s" % (p.returncode, p.stdout,
                                              p.stderr)
            run.__doc__ = desc
            cases.append(run)

        six = {cache: {"page_pool_put_unrefed_netmem": 6.0}}
        case("the cache scenario's page_pool share +6.000, the rest none: passes",
             0, side("six", six),
             says="%s: page_pool's functions, wants +6 within 0.05: +6.000"
             % cache)
        case("the share +5.940 on the cache scenario: fails",
             1, side("short", {cache: {"page_pool_put_unrefed_netmem": 5.94}}),
             says="+5.940")
        case("the six split over two of page_pool's functions, one of them __page_pool_*: passes",
             0, side("split", {cache: {"page_pool_put_unrefed_netmem": 2.0,
                                       "__page_pool_get_cached": 4.0}}))
        case("the six in a caller, not in page_pool: fails",
             1, side("caller", {cache: {"napi_pp_put_page": 6.0}}),
             says="+0.000 (before")
        case("the six in a module's page_pool_* function: fails",
             1, side("module", {cache: {"page_pool_ring[veth]": 6.0}}),
             says="+0.000 (before")
        case("the ring scenario's share +0.200: fails",
             1, side("ring", dict(six, **{ring: {
                 "page_pool_put_unrefed_netmem": 0.2}})),
             says="%s: page_pool's functions, wants +0 within 0.1: +0.200"
             % ring)
        case("a load without a profile: fails",
             1, side("six2", six)[:1] + [LOAD], says="a load without a profile")
        case("--share with one bound: exit 2", 2, side("six3", six),
             share="0.05")
        case("--share without the sides' '--': exit 2", 2, None,
             files=base + side("six4", six))
        print("TAP version 13")
        print("1..%d" % len(cases))
        failed = 0
        for n, run in enumerate(cases, 1):
            ok, why = run()
            if not ok:
                print("# " + why.replace("\n", "\n# "))
                failed += 1
            print("%s %d %s" % ("ok" if ok else "not ok", n, run.__doc__))
        print("# Totals: pass:%d fail:%d" % (len(cases) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
