# SPDX-License-Identifier: GPL-2.0
#
# bench-compare's tests of the boot as the unit (run.sh): loads
# of a side that share a boot_id are one sample, the median of theirs;
# the spread between boots and within one; a side of one boot; the
# PMU's figures (--figure).  The data, data/boots_*.txt, are
# tests/wrapper_data/tcg.results cut to two tests, one repetition a
# load, its values set: 3 boots x 4 loads a side, boot b's loads
# 100 + 10b + 2l cycles (l = 0..3) on the fast path before, 30 more
# after; 200 + 10b + 2l on ptr_ring on both sides; ns half the cycles;
# core cycles 80 + b (90 + b after) and 78 (81 after) instructions on
# the fast path; boots_one.txt is boots_before.txt with one boot_id,
# boots_tcg_before.txt without the PMU's figures, ab_boots_*.txt
# data/ab_*.txt with a boot_id of its own for each load.

BB=data/boots_before.txt
BA=data/boots_after.txt

# Per boot: before {103, 113, 123}, after {133, 143, 153}, whose 3 a
# side can never reach p < 0.05 / 2 (2/C(6,3) = 0.1): n/a, need 5 boots
# (2/C(10,5) = 0.0079).  Counted as loads (--unit load) the same files
# are 12 samples a side and read "change" at p 1e-6: one boot's offset
# would do as much.  At --alpha 0.25 the boots decide: fast path
# change (p 0.1, Holm 0.2), ptr_ring noise.
t_boots_verdict() {
	ok=0
	bc "$BB" "$BA"
	rc_is 0 || ok=1
	row_is_quiet=$(row "$FAST")
	[ "$row_is_quiet" = "113.000 143.000 56.500 71.500 12/12 -" ] ||
		{ diag "fast path row: $row_is_quiet"; ok=1; }
	hasx out "boots: before 3, after 3 (boot_id: lines); the boot is the unit (--unit boot): one value per test and boot, the median of its loads' values" ||
		ok=1
	hasx out "before, after: medians over boots; diff: Hodges-Lehmann shift after - before; % change: ns diff in % of ns before" ||
		ok=1
	hasx out "verdict: none: with these boots no row can reach p < alpha / 2 (two-sided Mann-Whitney U of the per-boot cycles/elem, Holm-Bonferroni, family-wise alpha 0.05); that takes 5 boots per side" ||
		ok=1
	bc --alpha 0.25 "$BB" "$BA"
	rc_is 0 || ok=1
	has out "^$FAST  *113\.000  *143\.000  *+30\.000  *56\.500  *71\.500  *+15\.000  *+26\.55%  *+20\.000\.\.+40\.000  *12/12  *3/3  *9\.916  *2\.582  *0\.2  *change$" ||
		ok=1
	has out "^tasklet_page_pool02_ptr_ring  *213\.000  *213\.000  *+0\.000 .* -10\.000\.\.+10\.000  *12/12  *3/3  *9\.916  *2\.582  *1  *noise$" ||
		ok=1
	bc --unit load "$BB" "$BA"
	rc_is 0 || ok=1
	has out "^$FAST .* 12/12  *9\.916  *2\.582  *[0-9.e-]*  *change$" || ok=1
	hasx out "unit: the load (--unit load): loads of one boot are taken as independent samples, their boot's offset left out of the noise" ||
		ok=1
	ok_if "$ok" "boots as the unit: 3 boots x 4 loads a side is 3 samples (n/a, need 5 boots; change and noise at alpha 0.25), counted as loads 12 (change)"
}

# The spread of the fast path's per-load values, by hand: within each
# boot a, a+2, a+4, a+6 about a+3, 20 a boot, 120 over 24 - 6 loads:
# sd sqrt(20/3) = 2.582; boots' means 10 apart about their side's,
# 4 x 200 a side, 1600 over 2 + 2: MSB 400; n0 = 4: between
# sqrt((400 - 20/3) / 4) = 9.916, a share of 0.9365 of the variance.
t_boots_split() {
	ok=0
	bc -f json --alpha 0.25 "$BB" "$BA"
	rc_is 0 || ok=1
	jq_is settings '.settings.unit == "boot" and .settings.figure == "tsc" and .loads == {"before": 12, "after": 12} and .boots == {"before": 3, "after": 3, "without_id": {"before": 0, "after": 0}}' ||
		ok=1
	jq_is "fast path" ".rows[0].test == \"$FAST\" and .rows[0].samples == {\"before\": 3, \"after\": 3} and .rows[0].spread == {\"sd_between_boots\": 9.916, \"sd_within_boots\": 2.582, \"between_share\": 0.9365} and .rows[0].cycles == {\"before\": 113, \"after\": 143, \"diff\": 30, \"ci\": [20, 40]} and .rows[0].p_raw == 0.1 and .rows[0].verdict == \"change\"" ||
		ok=1
	bc "$BB" "$BA"
	head -n 1 "$tmp/out" | grep -q '  cycles sd between boots  cycles sd within boots$' ||
		{ diag "header: $(head -n 1 "$tmp/out")"; ok=1; }
	hasx out "sd between boots, within boots: of the per-load cycles/elem, one-way random effects, each side about its own mean; - where the loads cannot tell (within needs a boot of two loads, between also two boots on a side)" ||
		ok=1
	ok_if "$ok" "between and within boots: sd 9.916 and 2.582 cycles, share 0.9365, as computed by hand (text and -f json)"
}

# A side whose 12 loads all come from one boot (the old "one boot,
# -n 8" recipe) is one sample: n/a, a line naming the boot, exit 0; a
# gate (--fail-above) that judges nothing fails.
t_boots_one() {
	ok=0
	bc data/boots_one.txt "$BA"
	rc_is 0 || ok=1
	has out "^$FAST .* 12/12  *1/3 " || ok=1
	hasx out "before: its 12 loads all come from one boot (1b4e28ba-2fa1-11d2-883f-0016d3cca427): one sample, not 12; boot again between loads (kexec, make box) to judge" ||
		ok=1
	has out "that takes 5 boots per side$" || ok=1
	bc --fail-above 5 data/boots_one.txt "$BA"
	rc_is 1 || ok=1
	hasx err "bench-compare: --fail-above 5: no row could be judged (every row n/a: too few boots)" ||
		ok=1
	bc -f json data/boots_one.txt "$BA"
	jq_is "n/a rows" 'all(.rows[]; .verdict == "n/a" and .need_boots == 5 and .need_loads == null and .samples == {"before": 1, "after": 3})' ||
		ok=1
	ok_if "$ok" "one boot a side: its loads are one sample, n/a (need 5 boots) with a line naming the boot; --fail-above exits 1"
}

# Every load a boot of its own (make ab timing cycles, a guest a load):
# the table is the one without boot_id lines, byte for byte.
t_boots_each_own() {
	ok=0
	bc data/ab_boots_before.txt data/ab_boots_after.txt
	rc_is 0 || ok=1
	same_as expected/ab.txt || ok=1
	bc -f org data/ab_boots_before.txt data/ab_boots_after.txt
	same_as expected/ab.org || ok=1
	ok_if "$ok" "a boot each load: the text and org tables are those of the same loads without boot_id lines"
}

# Counting instructions the load stays the unit (auto): make ab counts
# three loads a guest, every boot counting the same.  The table shows
# the split and says why; --unit boot counts the boots.
t_boots_instructions() {
	ok=0
	for s in before after; do
		awk '{ print } /^cmdline:/ { n++; printf "boot_id: 0000000%d-0000-4000-8000-00000000000%d\n", (n + 2) / 3, s }' \
			s=$([ $s = before ] && echo 1 || echo 2) \
			"data/icount_$s.txt" >"$tmp/icount_$s.txt" || ok=1
	done
	bc "$tmp/icount_before.txt" "$tmp/icount_after.txt"
	rc_is 0 || ok=1
	has out "^$FAST  *79\.065  *82\.060  *+3\.000  *+3\.79%  *+2\.990\.\.+3\.000  *6/6 .* 0\.00433  *change$" ||
		ok=1
	hasx out "unit: the load: counting instructions, the boot does not move the count, so loads of one boot are samples of their own (--unit boot counts boots)" ||
		ok=1
	bc --unit boot "$tmp/icount_before.txt" "$tmp/icount_after.txt"
	rc_is 0 || ok=1
	has out "that takes 5 boots per side$" || ok=1
	has out "^boots: before 2, after 2 " || ok=1
	ok_if "$ok" "counting instructions the load stays the unit (make ab's three loads a guest), said under the table; --unit boot counts boots"
}

# --figure: the verdict of the PMU's core cycles or instructions, each
# column with its unit; % change of that figure; -f json names it.
t_figure() {
	ok=0
	bc --alpha 0.25 --figure core-cycles "$BB" "$BA"
	rc_is 0 || ok=1
	head -n 1 "$tmp/out" | grep -q '^test  *core-cycles before  *core-cycles after  *core-cycles diff  *ns before' ||
		{ diag "header: $(head -n 1 "$tmp/out")"; ok=1; }
	has out "^$FAST  *81\.00  *91\.00  *+10\.00  *56\.500  *71\.500  *+15\.000  *+12\.35%  *+9\.00\.\.+11\.00  *12/12  *3/3  *1\.00  *0\.00  *0\.2  *change$" ||
		ok=1
	has out "% change: core-cycles diff in % of core-cycles before" || ok=1
	bc -f json --alpha 0.25 --figure instructions "$BB" "$BA"
	rc_is 0 || ok=1
	jq_is instructions ".settings.figure == \"instructions\" and .settings.pct_change_of == \"pmu_instructions\" and .rows[0].pmu_instructions == {\"before\": 78, \"after\": 81, \"diff\": 3, \"ci\": [3, 3]} and .rows[0].cycles.diff == 30 and .rows[0].core_cycles.diff == 10 and .rows[0].verdict == \"change\" and .rows[1].verdict == \"noise\"" ||
		ok=1
	bc "$BB" "$BA"
	grep -q 'core-cycles\|pmu-instructions' "$tmp/out" &&
		{ diag "a PMU figure without --figure"; ok=1; }
	ok_if "$ok" "--figure core-cycles and instructions: the PMU's figures judged per boot, each column with its unit"
}
