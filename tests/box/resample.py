#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A/A resampling of make box's boots: the old recipe against the boot
as the unit.

    /usr/bin/python3 resample.py [-d DIR] [-b BENCH_COMPARE] [-s SEED]
                                 [-n SPLITS] [-k BOOTS_A_SIDE] [-j JOBS]
                                 [-o OUT.json]

DIR holds make box's before-BB-LL.results and after-BB-LL.results (each
with a boot_id: line).  Every figure comes from bench-compare -f json;
this script only groups files, counts verdicts and prints a table.

1. spread: bench-compare on all boots (before -- after), and per side
   (the side's files on both sides of "--": the one-way random-effects
   sd's are computed about each side's own mean, so a side against
   itself gives that side's figures).
2. old recipe: every unordered pair of two different boots of all of
   DIR (an A/A: both sides the same kernel), the loads of boot i
   against those of boot j, --unit load.
3. boots as the unit: SPLITS random splits (fixed seed) of K boots a
   side, drawn without overlap from all boots, all their loads,
   --unit boot.
4. (extra) the same splits with --unit load: the loads of K boots a
   side counted as independent samples.
"""
import argparse
import collections
import concurrent.futures
import itertools
import json
import math
import os
import random
import re
import subprocess
import sys

# tools/results/results.py, the one reader of results files
sys.dont_write_bytecode = True	# no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))), "tools", "results"))
import results  # noqa: E402

NAME_RE = re.compile(r"^(before|after)-([0-9]{2})-([0-9]{2})\.results$")
BOOT_ID_RE = re.compile(
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def die(msg):
    sys.stderr.write("resample.py: %s\n" % msg)
    sys.exit(2)


def no_const(name):
    raise ValueError("bench-compare printed %s" % name)


def bench_compare(bc, before, after, unit):
    cmd = [bc, "-f", "json", "--unit", unit] + list(before) + ["--"] + list(after)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        die("%s: exit %d: %s" % (" ".join(cmd[:6]) + " ...", p.returncode,
                                 p.stderr.strip().splitlines()[:1]))
    j = json.loads(p.stdout, parse_constant=no_const)
    if j.get("format") != "bench-compare 1":
        die("unexpected bench-compare format: %r" % j.get("format"))
    if j["settings"]["unit"] != unit:
        die("bench-compare counted %s, asked %s" % (j["settings"]["unit"], unit))
    return j


def read_boots(d):
    """{(side, BB): [files]}, each file's boot_id read by
    tools/results/results.py, the Python tools' one reader."""
    boots = collections.OrderedDict()
    ids = {}
    for name in sorted(os.listdir(d)):
        m = NAME_RE.match(name)
        if not m:
            continue
        path = os.path.join(d, name)
        try:
            blocks = results.read_file(path)
        except results.ResultsError as err:
            die(str(err))
        found = {b.header.get("boot_id") for b in blocks}
        if len(found) != 1 or not BOOT_ID_RE.match(found.copy().pop() or ""):
            die("%s: not one boot_id of a boot: %s" % (path, sorted(map(str, found))))
        boot_id = found.pop()
        key = (m.group(1), m.group(2))
        if key in ids and ids[key] != boot_id:
            die("%s: boot_id %s, its boot's others %s" % (path, boot_id, ids[key]))
        ids[key] = boot_id
        boots.setdefault(key, []).append(path)
    if len(set(ids.values())) != len(ids):
        die("two boots share a boot_id")
    return boots, ids


def wilson(k, n, z=1.959963984540054):
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, c - h), min(1.0, c + h))


def tally(results):
    """results: list of bench-compare json objects of one recipe."""
    runs = len(results)
    rows = judged = change = na = run_change = 0
    per_test = collections.OrderedDict()
    for j in results:
        any_change = False
        for r in j["rows"]:
            t = per_test.setdefault(r["test"], [0, 0, 0])  # judged, change, n/a
            rows += 1
            v = r["verdict"]
            if v == "change":
                change += 1
                judged += 1
                t[0] += 1
                t[1] += 1
                any_change = True
            elif v == "noise":
                judged += 1
                t[0] += 1
            else:
                na += 1
                t[2] += 1
        run_change += any_change
    return dict(runs=runs, rows=rows, judged=judged, change=change, na=na,
                run_change=run_change, per_test=per_test)


def med(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


def mad(v):
    m = med(v)
    return 1.4826 * med([abs(x - m) for x in v])


def ranks(v):
    idx = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(idx):
        j = i
        while j + 1 < len(idx) and v[idx[j + 1]] == v[idx[i]]:
            j += 1
        for m in range(i, j + 1):
            r[idx[m]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else float("nan")


def boot_order(d, keys):
    """{(side, BB): position} from boots.txt's "boot: SIDE-BB ..." lines."""
    path = os.path.join(d, "boots.txt")
    if not os.path.exists(path):
        return {}
    order = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^boot: (before|after)-([0-9]{2}) ", line)
            if m and (m.group(1), m.group(2)) in keys:
                order[(m.group(1), m.group(2))] = len(order)
    return order


def main():
    top = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    ap = argparse.ArgumentParser()
    ap.add_argument("-d", required=True)
    ap.add_argument("-b", default=os.path.join(top, "tools", "compare",
                                               "bench-compare"))
    ap.add_argument("-s", type=int, default=20261207)
    ap.add_argument("-n", type=int, default=400)
    ap.add_argument("-k", type=int, default=6)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("-o", default=None)
    a = ap.parse_args()

    boots, ids = read_boots(a.d)
    keys = list(boots)
    side_n = collections.Counter(k[0] for k in keys)
    loads_n = collections.Counter(len(v) for v in boots.values())
    print("# %s: %d boots (before %d, after %d), loads a boot: %s"
          % (a.d, len(keys), side_n["before"], side_n["after"],
             ", ".join("%d x %d" % (n, c) for n, c in sorted(loads_n.items()))))
    if len(keys) < 2 * a.k:
        die("need %d boots for %d a side" % (2 * a.k, a.k))

    bc = a.b
    out = {"dir": a.d, "seed": a.s, "boots": {"%s-%s" % k: ids[k] for k in keys}}

    # 1. spread
    bef = [f for k in keys if k[0] == "before" for f in boots[k]]
    aft = [f for k in keys if k[0] == "after" for f in boots[k]]
    spread = collections.OrderedDict()
    spread["all"] = bench_compare(bc, bef, aft, "boot")
    spread["before"] = bench_compare(bc, bef, bef, "boot")
    spread["after"] = bench_compare(bc, aft, aft, "boot")
    out["spread"] = spread
    print()
    print("## spread of the per-load cycles/elem (one-way random effects, bench-compare)")
    print("%-30s %-7s %6s %6s %12s %12s %9s" % (
        "test", "which", "boots", "loads", "sd_between", "sd_within", "between%"))
    tests = [r["test"] for r in spread["all"]["rows"]]
    for t in tests:
        for w, j in spread.items():
            r = [x for x in j["rows"] if x["test"] == t][0]
            s = r["spread"]
            nb = j["boots"]["before"] + (j["boots"]["after"] if w == "all" else 0)
            nl = j["loads"]["before"] + (j["loads"]["after"] if w == "all" else 0)
            print("%-30s %-7s %6d %6d %12s %12s %9s" % (
                t, w, nb, nl, s["sd_between_boots"], s["sd_within_boots"],
                "-" if s["between_share"] is None else "%.1f" % (100 * s["between_share"])))
    print()
    print("## the full A/A (%d boots a side, --unit boot)" % side_n["before"])
    for r in spread["all"]["rows"]:
        c = r["cycles"]
        print("%-30s before %s after %s diff %s ci %s p_holm %s %s" % (
            r["test"], c["before"], c["after"], c["diff"], c["ci"],
            r["p_holm"], r["verdict"]))

    # boot medians (bench-compare: one boot a side, its median of loads)
    medians = {}

    jobs = []
    # 2. old recipe: all unordered pairs
    pairs = list(itertools.combinations(range(len(keys)), 2))
    for i, jj in pairs:
        jobs.append(("old", (i, jj), boots[keys[i]], boots[keys[jj]], "load"))
    # 3. and 4.: random splits
    rng = random.Random(a.s)
    splits = []
    for _ in range(a.n):
        pick = rng.sample(range(len(keys)), 2 * a.k)
        splits.append((sorted(pick[:a.k]), sorted(pick[a.k:])))
    for s in splits:
        fa = [f for i in s[0] for f in boots[keys[i]]]
        fb = [f for i in s[1] for f in boots[keys[i]]]
        jobs.append(("boot", s, fa, fb, "boot"))
        jobs.append(("pooled", s, fa, fb, "load"))

    # 5. control: 8 loads drawn at random from all loads (any boot), two
    # disjoint sets, --unit load: the old recipe's test with the boot
    # taken out of the loads' grouping.
    allfiles = [f for k in keys for f in boots[k]]
    per = min(len(v) for v in boots.values())
    for _ in range(a.n):
        pick = rng.sample(allfiles, 2 * per)
        jobs.append(("shuffled", None, pick[:per], pick[per:], "load"))
    # per-load values: each file alone on both sides (bench-compare's
    # "before" is then that load's value)
    for f in allfiles:
        jobs.append(("one", f, [f], [f], "load"))

    res = collections.defaultdict(list)
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
        futs = [ex.submit(bench_compare, bc, j[2], j[3], j[4]) for j in jobs]
        for job, fut in zip(jobs, futs):
            j = fut.result()
            res[job[0]].append((job[1], j))
            if job[0] == "old":
                for r in j["rows"]:
                    medians.setdefault(keys[job[1][0]], {})[r["test"]] = r["cycles"]["before"]
                    medians.setdefault(keys[job[1][1]], {})[r["test"]] = r["cycles"]["after"]

    # checks: what bench-compare counted is what was meant
    for s, j in res["old"]:
        assert j["boots"]["before"] == 1 and j["boots"]["after"] == 1
        for r in j["rows"]:
            assert r["samples"]["before"] == len(boots[keys[s[0]]])
    for s, j in res["boot"]:
        assert j["boots"]["before"] == a.k and j["boots"]["after"] == a.k
        for r in j["rows"]:
            assert r["samples"]["before"] == a.k and r["samples"]["after"] == a.k

    alpha = spread["all"]["settings"]["alpha"]
    labels = collections.OrderedDict([
        ("old", "old: 1 boot a side, its loads as samples (--unit load)"),
        ("boot", "boots as unit: %d boots a side (--unit boot)" % a.k),
        ("pooled", "%d boots a side, loads as samples (--unit load)" % a.k),
        ("shuffled", "control: %d loads of any boots a side (--unit load)" % per),
    ])
    print()
    print("## A/A false alarms (nominal: alpha %s family-wise over the %d rows, Holm)"
          % (alpha, len(tests)))
    print("%-58s %6s %18s %22s" % ("recipe", "runs", "rows change", "runs with a change"))
    table = collections.OrderedDict()
    for key, label in labels.items():
        t = tally([j for _, j in res[key]])
        table[key] = t
        lo, hi = wilson(t["run_change"], t["runs"])
        print("%-58s %6d %6d/%-5d %5.1f%% %6d/%-5d %5.1f%% [%.1f..%.1f]%s" % (
            label, t["runs"], t["change"], t["judged"],
            100.0 * t["change"] / max(1, t["judged"]),
            t["run_change"], t["runs"], 100.0 * t["run_change"] / t["runs"],
            100 * lo, 100 * hi, "" if not t["na"] else "  (n/a rows %d)" % t["na"]))
    print()
    print("## per test: rows 'change' / rows judged")
    for key, label in labels.items():
        print(label)
        for t, (jd, ch, na) in table[key]["per_test"].items():
            print("  %-30s %5d/%-5d %5.1f%%%s" % (t, ch, jd, 100.0 * ch / max(1, jd),
                                               "" if not na else "  n/a %d" % na))
    print()
    print("## boot medians of the per-load cycles/elem (bench-compare, one boot a side)")
    for t in tests:
        v = sorted(medians[k][t] for k in keys)
        mid = v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2
        print("  %-30s min %.3f  median of boots %.3f  max %.3f  (max/min %.3f)" % (
            t, v[0], mid, v[-1], v[-1] / v[0]))
    # robust view of the spread, from the per-load values
    loadval = {}
    for f, j in res["one"]:
        assert j["loads"]["before"] == 1
        loadval[f] = {r["test"]: r["cycles"]["before"] for r in j["rows"]}
    print()
    print("## robust spread: 1.4826*MAD of the boot medians (observed) against the same")
    print("## with the loads shuffled across boots of a side (mean of 200 shuffles, seed %d)" % a.s)
    prng = random.Random(a.s + 1)
    robust = {}
    for t in tests:
        within = med([mad([loadval[f][t] for f in boots[k]]) for k in keys])
        obs = mad([med([loadval[f][t] for f in boots[k]]) for k in keys])
        sh = []
        for _ in range(200):
            meds = []
            for side in ("before", "after"):
                ks = [k for k in keys if k[0] == side]
                vals = [loadval[f][t] for k in ks for f in boots[k]]
                prng.shuffle(vals)
                i = 0
                for k in ks:
                    n = len(boots[k])
                    meds.append(med(vals[i:i + n]))
                    i += n
            sh.append(mad(meds))
        exp = sum(sh) / len(sh)
        robust[t] = dict(within_mad_median=within, boot_median_mad=obs, shuffled_mad=exp)
        # boots' own part of the medians' spread, and its share beside
        # the loads' (rough: squares of robust scales as variances)
        b2 = max(0.0, obs * obs - exp * exp)
        share = b2 / (b2 + within * within) if b2 + within * within else float("nan")
        robust[t]["between_robust"] = math.sqrt(b2)
        robust[t]["between_share_robust"] = share
        print("  %-30s within a boot %.3f   boot medians %.3f   shuffled %.3f   ratio %.2f"
              "   boots' part sqrt(obs^2-shuf^2) %.3f   share %.0f%%" % (
                  t, within, obs, exp, obs / exp, math.sqrt(b2), 100 * share))
    out["robust"] = robust

    order = boot_order(a.d, keys)
    if order:
        print()
        print("## drift: Spearman rank correlation of the boot medians with the boots' order (boots.txt)")
        for t in tests:
            xs = [order[k] for k in keys if k in order]
            ys = [medians[k][t] for k in keys if k in order]
            print("  %-30s rho %+.3f over %d boots" % (t, spearman(xs, ys), len(xs)))
        out["boot_order"] = {"%s-%s" % k: v for k, v in order.items()}
    print()
    print("# Wilson 95% intervals treat runs as independent; they are not "
          "(pairs and splits share boots), so read them as rough.")

    out["alpha"] = alpha
    out["tally"] = {k: dict(v, per_test=dict(v["per_test"])) for k, v in table.items()}
    out["boot_medians"] = {"%s-%s" % k: v for k, v in medians.items()}
    out["splits"] = [[["%s-%s" % keys[i] for i in s[0]], ["%s-%s" % keys[i] for i in s[1]]]
                     for s in splits]
    out["old_pairs_change"] = [["%s-%s" % keys[s[0]], "%s-%s" % keys[s[1]],
                                [r["verdict"] for r in j["rows"]]] for s, j in res["old"]]
    if a.o:
        with open(a.o, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
