# SPDX-License-Identifier: GPL-2.0
#
# bench-compare's tests of reading and judging (run.sh): the unit tests,
# golden output, options, grouping into loads, environments, precision,
# the regression gate, alpha, the level and statistics of a load.

t_unit() {
	"$UNIT" >"$tmp/unit" 2>&1
	unit_rc=$?
	sed 's/^/    /' "$tmp/unit"
	grep -q '^# totals: [0-9]* passed, 0 failed$' "$tmp/unit" &&
		[ "$unit_rc" -eq 0 ]
	ok_if $? "unit tests (compare_test) pass"
}

t_golden() {
	ok=0
	for f in txt md org; do
		case "$f" in
		txt) fmt=text ;;
		md) fmt=markdown ;;
		*) fmt=org ;;
		esac
		bc -f "$fmt" "$AB" "$AA"
		same_as "expected/ab.$f" || ok=1
		bc -f "$fmt" "$B2" "$A2"
		same_as "expected/f2.$f" || ok=1
	done
	ok_if "$ok" "text, markdown and org output equal expected/{ab,f2}.*"
}

t_option_forms() {
	ok=0
	bc "$AB" "$AA" --format=org
	same_as expected/ab.org || ok=1
	bc -fmarkdown "$AB" "$AA"
	same_as expected/ab.md || ok=1
	bc "$AB" - <"$AA"
	same_as expected/ab.txt || ok=1
	bc "$AB" -- "$AA"
	same_as expected/ab.txt || ok=1
	ok_if "$ok" "--format=X after the files, -fX, - for stdin, one file per side with --"
}

t_text_header() {
	bc "$AB" "$AA"
	head -n 1 "$tmp/out" | grep -q '^test  *cycles before  *cycles after  *cycles diff  *ns before  *ns after  *ns diff  *% change  *cycles diff 95% CI  *loads  *p (Holm)  *verdict$'
	ok_if $? "text: header names the twelve columns"
}

t_org_valid() {
	bc -f org "$AB" "$AA"
	# the table and its formula: from the header to the first empty line
	awk 'BEGIN { t = 0 }
	     /^\| test / { t = 1 }
	     t && /^$/ { exit }
	     t { print }' "$tmp/out" >"$tmp/table"
	ok=0
	[ "$(wc -l <"$tmp/table")" -eq 6 ] || { diag "table of $(wc -l <"$tmp/table") lines, want 6"; ok=1; }
	head -n 5 "$tmp/table" | grep -qv '^|.*|$' && { diag "a table line not in |...|"; ok=1; }
	sed -n 2p "$tmp/table" | grep -q '^|-*\(+-*\)\{11\}|$' ||
		{ diag "rule: $(sed -n 2p "$tmp/table")"; ok=1; }
	[ "$(sed -n 2p "$tmp/table" | wc -c)" -eq "$(sed -n 1p "$tmp/table" | wc -c)" ] ||
		{ diag "rule and header differ in width"; ok=1; }
	[ "$(sed -n 6p "$tmp/table")" = '#+TBLFM: $8=(($7/$5)*100);%.1f' ] ||
		{ diag "formula: $(sed -n 6p "$tmp/table")"; ok=1; }
	ok_if "$ok" "org: every table line is |...|, a |---+...| rule under the header, the % formula under the table"
}

t_md_rule() {
	bc -f markdown "$AB" "$AA"
	sed -n 2p "$tmp/out" | grep -q '^| :-* \(| -*: \)\{10\}| :-* |$'
	ok_if $? "markdown: rule row, text columns left, numbers right"
}

t_loads_results() {
	bc "$AB" "$AA"
	row_is "$FAST" "100.350 110.350 38.735 42.595 6/6 change" &&
		hasx out "loads: before 6, after 6; one value per test and load: the cheapest repetition (--load-stat min)"
	ok_if $? "results files: each of 6 format: blocks is one load (6/6)"
}

t_loads_dmesg_overhead() {
	bc "$DO" "$DO"
	row_is dm_A "20.500 20.500 8.200 8.200 3/3 -" &&
		row_is dm_B "50.750 50.750 20.300 20.300 3/3 -" &&
		has out "^verdict: none: .* that takes 5 loads per side$" &&
		hasx out "loads: before 4, after 4; one value per test and load: the cheapest repetition (--load-stat min)"
	ok_if $? "dmesg: each overhead: line starts a load, even one that repeats no test (4 loads)"
}

t_loads_dmesg_repeat() {
	bc data/dmesg_ts.log data/dmesg_plain.log
	row_is "$FAST" "157.245 150.000 60.572 57.714 3/3 -" &&
		row_is for_loop "2.432 2.432 0.937 0.937 3/1 -" &&
		has out '^loads: before 3, after 3;'
	ok_if $? "dmesg without overhead: lines: a repeated test starts a load"
}

t_loads_files() {
	bc "$B1" "$B1" "$B1" "$B1" -- "$A1" "$A1" "$A1" "$A1"
	row_is "$FAST" "157.245 150.000 60.572 57.714 - -" &&
		has out '^loads: before 4, after 4;'
	ok_if $? "several files per side with --: one load each, 4/4 of 2 rows need 5"
}

t_loads_mixed() {
	bc "$B1" data/dmesg_ts.log -- "$A1"
	row_is "$FAST" "157.245 150.000 60.572 57.714 4/1 -" &&
		has out '^loads: before 4, after 1;' &&
		hasx out "environment differs: kernel: before unknown (3 loads), 6.12.117+deb12-amd64 (1 load), after 6.12.117+deb12-amd64"
	ok_if $? "results file and dmesg log on one side: 1 + 3 loads, dmesg environment unknown"
}

t_ignored_lines() {
	bc "$AB" "$AA"
	ok=0
	rc_is 0 || ok=1
	[ -s "$tmp/err" ] && { diag "stderr not empty"; ok=1; }
	grep -q '^tasklet_page_pool09_netmem' "$tmp/out" &&
		{ diag "a row for a skipped test"; ok=1; }
	bc "$DO" data/dmesg_ts.log
	has out '^only in before: dm_A$' || ok=1
	grep -q '999' "$tmp/out" && { diag "a CPU(N) or Sum value was read"; ok=1; }
	ok_if "$ok" "skip:, cpu:, selected:, overhead: lines of results files, CPU(N) and Sum Type: lines ignored"
}

t_need_loads() {
	bc "$B2" "$A2"
	ok=0
	[ "$(grep -c '^[a-z].* [-+0-9.]*%$' "$tmp/out")" -eq 4 ] ||
		{ diag "not 4 rows of the reviewers' eight columns"; ok=1; }
	hasx out "verdict: none: with these loads no row can reach p < alpha / 4 (two-sided Mann-Whitney U of the per-load cycles/elem, Holm-Bonferroni, family-wise alpha 0.05); that takes 5 loads per side" ||
		ok=1
	bc data/precision.txt data/precision.txt
	row_is precise "18.1 18.1 12.345 12.345 - -" || ok=1
	has out "^verdict: none: .* p < alpha / 1 .* that takes 4 loads per side$" || ok=1
	bc --alpha 0.005 "$AB" "$AA"
	row_is "$FAST" "100.350 110.350 38.735 42.595 - -" || ok=1
	has out "^verdict: none: .* p < alpha / 3 .* that takes 7 loads per side$" || ok=1
	ok_if "$ok" "no verdict possible: 1/1 of 4 rows need 5 loads, of 1 row 4; 6/6 at alpha/3 = 0.00167 need 7"
}

t_change_noise() {
	bc "$AB" "$AA"
	row_is "$FAST" "100.350 110.350 38.735 42.595 6/6 change" &&
		row_is tasklet_page_pool02_ptr_ring "201.000 201.200 77.586 77.663 6/6 noise" &&
		row_is tasklet_page_pool03_slow "403.750 303.750 155.8475 117.2475 6/6 change" &&
		has out '^tasklet_page_pool01_fast_path .* +10.000 .* +9.97%  *+9.700..+10.300  *6/6  *0.00649  change$'
	ok_if $? "6 vs 6 separated loads: change (p = 3 * 2/924); interleaved: noise"
}

t_env() {
	bc data/precision.txt data/env_kasan.txt
	ok=0
	rc_is 0 || ok=1
	[ "$(sed -n 1p "$tmp/out")" = "environment differs: config.kasan: before n, after y" ] ||
		{ diag "line 1: $(sed -n 1p "$tmp/out")"; ok=1; }
	[ "$(sed -n 2p "$tmp/out")" = "environment differs: runtime.init_on_alloc: before 1, after 0" ] ||
		{ diag "line 2: $(sed -n 2p "$tmp/out")"; ok=1; }
	[ "$(grep -c '^environment differs' "$tmp/out")" -eq 2 ] || ok=1
	bc "$AB" "$AA"
	grep -q '^environment differs' "$tmp/out" &&
		{ diag "environment differs for equal ones"; ok=1; }
	ok_if "$ok" "environment differs: KEY: before X, after Y, first; none if equal"
}

t_env_many() {
	i=0
	while [ $i -lt 12 ]; do
		printf 'format: bench_page_pool_simple 1\nkernel: k%d\nparams: loops=x loops=%d\ntest: name=t cycles_per_elem=1\n' "$i" "$i"
		i=$((i + 1))
	done >"$tmp/kernels.txt"
	bc "$tmp/kernels.txt" "$tmp/kernels.txt"
	ok=0
	rc_is 0 || ok=1
	hasx out "environment differs: kernel: before k0 (1 load), k1 (1 load), k2 (1 load), k3 (1 load), k4 (1 load), k5 (1 load), k6 (1 load), k7 (1 load) and 4 more values (4 loads), after k0 (1 load), k1 (1 load), k2 (1 load), k3 (1 load), k4 (1 load), k5 (1 load), k6 (1 load), k7 (1 load) and 4 more values (4 loads)" ||
		ok=1
	has out "^environment differs: params.loops: before 0 (1 load), 1 (1 load), 2 (1 load)" || ok=1
	ok_if "$ok" "environment: eight values a side listed, the rest summed; the last of a repeated key holds"
}

t_precision() {
	ok=0
	for f in text markdown org; do
		bc -f "$f" data/precision.txt data/precision.txt
		if [ "$(grep -c '12\.345' "$tmp/out")" -ne 1 ] ||
		   ! grep -q '[ |]12\.345 .*[ |]12\.345 ' "$tmp/out"; then
			diag "$f: no 12.345 before and after"
			ok=1
		fi
		grep -q ' 18\.1 ' "$tmp/out" || { diag "$f: no 18.1"; ok=1; }
	done
	ok_if "$ok" "input decimals kept: 12.345 and 18.1 in text, markdown and org"
}

t_fail_above() {
	ok=0
	bc --fail-above 5 "$AB" "$AA"
	rc_is 1 || ok=1
	hasx err "bench-compare: regression above 5%: $FAST ns/elem +9.97% (p=0.00649 after Holm)" ||
		ok=1
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || { diag "not one stderr line"; ok=1; }
	has out "^$FAST " || ok=1
	ok_if "$ok" "--fail-above 5: a +9.97% change: exit 1, listed on stderr, table printed"
}

t_fail_above_within() {
	ok=0
	bc --fail-above 10 "$AB" "$AA"
	rc_is 0 || ok=1
	bc "$AB" "$AA"
	rc_is 0 || ok=1
	bc --fail-above=30 "$AA" "$AB"
	rc_is 1 || ok=1
	has err 'regression above 30%: tasklet_page_pool03_slow ns/elem +32.92%' ||
		ok=1
	ok_if "$ok" "--fail-above: exit 0 within it and without it; sides swapped the -25% is +32.92%"
}

# A gate that judged nothing fails.
t_gate_nothing() {
	ok=0
	bc --fail-above 5 data/gate_before.txt data/per_elem_f1.txt
	rc_is 1 || ok=1
	hasx err "bench-compare: --fail-above 5: no row could be judged (no test present on both sides)" ||
		ok=1
	has out '^no test present on both sides$' || ok=1
	bc --fail-above 0 "$B2" "$A2"
	rc_is 1 || ok=1
	hasx err "bench-compare: --fail-above 0: no row could be judged (every row n/a: too few loads)" ||
		ok=1
	bc --fail-above 50 "$AB" data/precision.txt -- "$AA" data/precision.txt
	rc_is 0 || ok=1
	hasx err "bench-compare: --fail-above 50: 1 of 4 rows not judged (n/a)" || ok=1
	ok_if "$ok" "--fail-above that judges no row: exit 1 and says why; n/a rows beside judged ones counted"
}

# What a table prints agrees with what it computed.
t_half_units() {
	bc data/half_before.txt -- data/half_after.txt data/half_after.txt
	ok=0
	row_is whole "103.5 110.0 103.5 110.0 - -" || ok=1
	has out '^whole  *103\.5  *110\.0  *+6\.5  *103\.5  *110\.0  *+6\.5  *+6\.28%$' || ok=1
	ok_if "$ok" "integer input: a median of 103.5 and a shift of 6.5 keep their half (+6.28% agrees)"
}

# The largest value: 18446744073709549568, the largest double under a
# u64 (u64 max itself was shown as 18446744073709551616 and is refused
# now); the median of 2^63 and 2^64 - 4096 is a double too.
t_no_overflow() {
	bc data/huge.txt data/huge.txt
	ok=0
	rc_is 0 || ok=1
	grep -qi 'inf\|nan' "$tmp/out" && { diag "inf or nan in the table"; ok=1; }
	has out '^huge  *18446744073709549568 ' || ok=1
	has out '^over_half  *13835058055282161664 ' || ok=1
	bc data/huge_err.txt data/huge_err.txt
	rc_is 2 || ok=1
	hasx err "bench-compare: data/huge_err.txt:2: test huge: number out of range in cycles_per_elem=1.5e308" ||
		ok=1
	ok_if "$ok" "values up to the largest double under a u64 per element stay finite and exact; two loads of 1.5e308 are refused"
}

# --alpha at its edges: 1e-12 over 2000 rows in bounded time (5e-324
# took a million steps a row: 50 s); JSON prints alpha and the level
# with the digits that read back (was "alpha": 1, and 100 for 1e-17).
t_alpha_edges() {
	ok=0
	for s in b a; do
		o=100
		[ $s = a ] && o=200
		{
			echo 'format: bench_page_pool_simple 1'
			awk -v o=$o 'BEGIN {
				for (i = 0; i < 2000; i++)
					printf "test: name=t%d cycles_per_elem=%d\n", i, o + i
			}'
		} >"$tmp/rows_$s.txt"
	done
	"$BIN" --alpha 1e-12 "$tmp/rows_b.txt" "$tmp/rows_a.txt" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill "$pid"
		diag "2000 rows at --alpha 1e-12 took over 10 s"
		ok=1
	fi
	wait "$pid"
	rc=$?
	rc_is 0 || ok=1
	has out 'that takes 45 loads per side$' || ok=1
	bc -f json --alpha 0.9999999999999999 "$AB" "$AA"
	has out '"alpha": 0\.9999999999999999, "interval_level_percent": 1\.11e-14,' ||
		ok=1
	bc -f json --alpha 1e-12 "$AB" "$AA"
	has out '"alpha": 1e-12, "interval_level_percent": 99\.9999999999,' ||
		ok=1
	ok_if "$ok" "--alpha 1e-12 over 2000 rows in bounded time; JSON alpha and level never rounded to 1 or 100"
}

t_level() {
	i=0
	while [ $i -lt 50 ]; do
		printf 'format: bench_page_pool_simple 1\ntest: name=t cycles_per_elem=%d ns_per_elem=%d\n' \
			$((100 + i)) $((100 + i)) >>"$tmp/lvl_b.txt"
		printf 'format: bench_page_pool_simple 1\ntest: name=t cycles_per_elem=%d ns_per_elem=%d\n' \
			$((200 + i)) $((200 + i)) >>"$tmp/lvl_a.txt"
		i=$((i + 1))
	done
	bc --alpha 1e-12 "$tmp/lvl_b.txt" "$tmp/lvl_a.txt"
	ok=0
	rc_is 0 || ok=1
	has out '^test .* cycles diff 99\.9999999999% CI ' || ok=1
	has out 'distribution-free 99\.9999999999% interval' || ok=1
	grep -q '100% CI\|100% interval' "$tmp/out" && { diag "a level of 100%"; ok=1; }
	ok_if "$ok" "--alpha 1e-12 (50 loads a side): the interval's label says 99.9999999999%, never 100%"
}

t_load_stat() {
	ok=0
	bc data/load_stat.txt data/load_stat.txt
	row_is spread "10.0 10.0 4.0 4.0 - -" || ok=1
	has out '(--load-stat min)$' || ok=1
	bc --load-stat median data/load_stat.txt data/load_stat.txt
	row_is spread "12.0 12.0 5.0 5.0 - -" || ok=1
	has out '(--load-stat median)$' || ok=1
	bc --load-stat=median "$AB" "$AA"
	row_is "$FAST" "100.650 110.650 38.851 42.711 6/6 change" || ok=1
	ok_if "$ok" "--load-stat: min (default) vs median of the repetitions"
}
