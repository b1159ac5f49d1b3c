# SPDX-License-Identifier: GPL-2.0
#
# bench-compare's tests of what machines read (run.sh): JSON, KCIDB and
# --check, escaping, profiles (format 4), line limits, read errors, ns
# figures in some loads only.

# jq_is WHAT EXPR: jq -e EXPR holds on the JSON of the last run
jq_is() {
	jq -e "$2" "$tmp/out" >/dev/null 2>"$tmp/jq" && return 0
	diag "$1: jq -e '$2' is false ($(head -n 1 "$tmp/jq"))"
	return 1
}

# -f json, read back with jq.
t_json() {
	if ! command -v jq >/dev/null 2>&1; then
		ktap_test_fail "-f json parses with jq (jq not installed: make check needs it)"
		return
	fi
	ok=0
	bc -f json "$AB" "$AA"
	rc_is 0 || ok=1
	jq_is settings '.format == "bench-compare 1" and .settings == {"clock": "cycles", "load_stat": "min", "alpha": 0.05, "interval_level_percent": 95, "pct_change_of": "ns", "figure": "tsc", "unit": "load"} and .loads == {"before": 6, "after": 6} and .boots == {"before": 6, "after": 6, "without_id": {"before": 6, "after": 6}} and .environment_differences == [] and .only_in == {"before": [], "after": []}' ||
		ok=1
	jq_is "change row" ".rows | length == 3 and .[0] == {\"test\": \"$FAST\", \"cycles\": {\"before\": 100.35, \"after\": 110.35, \"diff\": 10, \"ci\": [9.7, 10.3]}, \"ns\": {\"before\": 38.735, \"after\": 42.595, \"diff\": 3.86}, \"ns_loads\": {\"before\": 6, \"after\": 6}, \"pct_change\": 9.97, \"null_reason\": null, \"loads\": {\"before\": 6, \"after\": 6}, \"samples\": {\"before\": 6, \"after\": 6}, \"spread\": {\"sd_between_boots\": null, \"sd_within_boots\": null, \"between_share\": null}, \"p_raw\": 0.00216450, \"p_holm\": 0.00649351, \"verdict\": \"change\", \"need_loads\": null, \"need_boots\": null}" ||
		ok=1
	jq_is "noise row" '.rows[1].verdict == "noise" and .rows[2].ns.before == 155.8475' || ok=1
	bc -f json "$B2" "$A2"
	jq_is "n/a rows" '(.rows | length == 4 and all(.verdict == "n/a" and .need_loads == 5 and .p_holm == null and .cycles.ci == null)) and .only_in == {"before": ["for_loop"], "after": ["atomic_inc"]}' ||
		ok=1
	jq_is environment '.environment_differences == [{"key": "kernel", "before": [{"value": "6.12.117+deb12-amd64", "loads": 1}], "after": [{"value": "6.12.117+deb12-amd64-patched", "loads": 1}]}]' ||
		ok=1
	bc -f json data/icount_before.txt data/icount_after.txt
	jq_is instructions '.settings.clock == "instructions" and .settings.pct_change_of == "instructions" and (.rows[0] | has("ns") | not) and .rows[0].instructions.diff == 3 and .rows[0].instructions.ci == [2.99, 3]' ||
		ok=1
	bc -f json data/dmesg_ts.log data/dmesg_plain.log
	jq_is "loads of a row" '.environment_differences == [] and .loads == {"before": 3, "after": 3} and .rows[0].test == "for_loop" and .rows[0].loads == {"before": 3, "after": 1}' ||
		ok=1
	bc -f json data/precision.txt data/dmesg_plain.log
	jq_is "unknown environment, no row" '(.environment_differences | length == 21 and all(.after == [{"value": null, "loads": 3}])) and .rows == [] and .only_in.before == ["precise"]' ||
		ok=1
	ok_if "$ok" "-f json: settings, loads, environment differences and every column of every row, read back by jq"
}

# -f kcidb: a document KCIDB's rules accept (../../results/kcidb-check.py), one
# checkout, build and test per test of six loads; the value the median
# of the loads' cheapest repetitions, the same loads the same ids; the
# test no load ran a SKIP with its reason; loads of two kernels refused.
t_kcidb() {
	ok=0
	hash=0123456789abcdef0123456789abcdef01234567
	bc -f kcidb --origin ci_lab --commit "$hash" \
		--commit-name 'page_pool: a "quoted" subject\' \
		data/icount_before.txt
	rc_is 0 || ok=1
	cp "$tmp/out" "$tmp/kcidb.json"
	python3 ../../results/kcidb-check.py "$tmp/kcidb.json" >"$tmp/check" 2>&1 ||
		{ ok=1; diag "kcidb-check.py: $(head -n 1 "$tmp/check")"; }
	jq_is checkout ".checkouts == [{\"id\": \"ci_lab:$hash\", \"origin\": \"ci_lab\", \"git_commit_hash\": \"$hash\", \"git_commit_name\": \"page_pool: a \\\"quoted\\\" subject\\\\\", \"misc\": {\"kernel\": \"6.12.117+deb12-amd64\"}}]" ||
		ok=1
	jq_is "one build of the checkout" '(.builds | length == 1) and .builds[0].checkout_id == .checkouts[0].id and .builds[0].misc.config.kasan == "n"' ||
		ok=1
	jq_is "a test a row, its median of six loads in instructions" ".tests | map(select(.status == \"DONE\")) | length == 2 and .[0].path == \"net.bench.page_pool.$FAST\" and .[0].number.unit == \"instructions\" and .[0].misc.instrument == \"icount\" and .[0].misc.loads == 6 and (.[0].misc.per_load | length == 6)" ||
		ok=1
	jq_is "the skipped test, with its reason" '.builds[0].id as $b | .tests | map(select(.status == "SKIP")) | length == 1 and (.[0] | del(.id) == {"origin": "ci_lab", "build_id": $b, "path": "net.bench.page_pool.tasklet_page_pool09_netmem", "status": "SKIP", "comment": "kernel without netmem"} and (.id | startswith($b + ":tasklet_page_pool09_netmem:")))' ||
		ok=1
	# the checker finds what KCIDB would refuse
	jq '.tests[0].status = "BOGUS" | .tests[1].colour = 1 |
		.builds[0].checkout_id = "ci_lab:x"' "$tmp/kcidb.json" \
		>"$tmp/bad.json"
	python3 ../../results/kcidb-check.py "$tmp/bad.json" >"$tmp/check" 2>&1
	[ $? = 1 ] && [ "$(cat "$tmp/check")" = "$tmp/bad.json: tests[0].status: not a valid status
$tmp/bad.json: tests[1]: property 'colour' is not in the schema
$tmp/bad.json: builds[0].checkout_id: not in this document's checkouts" ] ||
		{ ok=1; diag "kcidb-check.py on a bad document: $(head -n 1 "$tmp/check")"; }
	bc -f kcidb --origin ci_lab --commit "$hash" \
		--commit-name 'page_pool: a "quoted" subject\' \
		data/icount_before.txt
	cmp -s "$tmp/out" "$tmp/kcidb.json" ||
		{ ok=1; diag "a second run of the same loads differs"; }
	sed '21s/6\.12\.117/6.12.118/' data/icount_before.txt >"$tmp/kernels.txt"
	bc -f kcidb "$tmp/kernels.txt"
	rc_is 2 || ok=1
	has err "^bench-compare: -f kcidb: the loads are not of one build: $tmp/kernels.txt:1 and $tmp/kernels.txt:20 differ in kernel$" ||
		ok=1
	ok_if "$ok" "-f kcidb: a KCIDB v5.3 document (tools/results/kcidb-check.py, which finds a bad status, property and link), a test a row with the median of the loads, the skipped one a SKIP with its reason, the same ids again; two kernels refused"
}

# --check: nothing and exit 0 for whole files, the first complaint as
# FILE:LINE and exit 2 for the first that is not.
t_check() {
	ok=0
	bc --check data/f3_before.txt data/icount_before.txt
	rc_is 0 || ok=1
	[ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] ||
		{ ok=1; diag "--check of whole files printed something"; }
	bc --check data/f3_before.txt data/f3_noend.txt data/f3_nofield.txt
	rc_is 2 || ok=1
	[ "$(wc -l <"$tmp/err")" = 1 ] ||
		{ ok=1; diag "--check said more than one line"; }
	has err "^bench-compare: data/f3_noend.txt:[0-9]*: " || ok=1
	ok_if "$ok" "--check: whole files pass silently; the first complaint of the first bad file, FILE:LINE, exit 2"
}

# Escapes that two names cannot share: a|b and a\vert{}b gave one org
# cell, a\|b broke its markdown row ("a\\|b" ends the cell at "|").
# Test names are now letters, digits, _ and - (the unit tests check
# escape_cell() itself): such names are refused, each at its line.
t_cell_escape() {
	printf 'format: bench_page_pool_simple 1\ntest: name=a|b cycles_per_elem=1\ntest: name=a\\vert{}b cycles_per_elem=2\ntest: name=a\\|b cycles_per_elem=3\n' \
		>"$tmp/esc.txt"
	ok=0
	bc -f org "$tmp/esc.txt" "$tmp/esc.txt"
	rc_is 2 || ok=1
	for l in 2:0x7c 3:0x5c 4:0x5c; do
		hasx err "bench-compare: $tmp/esc.txt:${l%:*}: test name holds the byte ${l#*:}: a test name is letters, digits, _ and -" ||
			ok=1
	done
	[ ! -s "$tmp/out" ] || { diag "a table of refused names"; ok=1; }
	ok_if "$ok" "org and markdown: names holding '|' or a backslash are refused, never a cell"
}

t_json_hostile() {
	if ! command -v jq >/dev/null 2>&1; then
		ktap_test_fail "-f json escapes names (jq not installed: make check needs it)"
		return
	fi
	hostile_inputs 'a-b_C9'
	printf 'format: bench_page_pool_simple 1\nkernel: caf\303\251 "x\\y"\ntest: name=a-b_C9 cycles_per_elem=2\n' >"$tmp/hostile_u.txt"
	bc -f json "$tmp/hostile_b.txt" "$tmp/hostile_u.txt"
	ok=0
	rc_is 0 || ok=1
	jq_is names '.rows[0].test == "a-b_C9" and .environment_differences[0].after[0].value == "caf\u00e9 \"x\\y\""' ||
		ok=1
	ok_if "$ok" "-f json: quotes, backslashes and UTF-8 in values come back as they were"
}

t_format4() {
	bc data/f4_before.txt data/f4_after.txt
	row_is "$FAST" "79.150 82.150 - - - -" &&
		row_is tasklet_page_pool02_ptr_ring "165.716 165.716 - - - -" &&
		has out '^loads: before 3, after 3;' &&
		! grep -q '^environment differs' "$tmp/out"
	ok_if $? "format 4: three profiled blocks a side, one load each; profile: is no environment"
}

# The exact profile (format 4), 3 loads a side: after, the fast path's
# page_pool_put_unrefed_page runs 3 more instructions per element; its
# other functions, the ptr_ring test and interrupt work (about 0.02 per
# element, in one load or another) do not move.
t_profile_ab() {
	ok=0
	for f in txt md org; do
		case "$f" in
		txt) fmt=text ;;
		md) fmt=markdown ;;
		*) fmt=org ;;
		esac
		bc -f "$fmt" data/f4_before.txt data/f4_after.txt
		same_as "expected/f4.$f" || ok=1
	done
	bc data/f4_before.txt data/f4_after.txt
	sed -n '/^profile: /,$p' "$tmp/out" >"$tmp/prof"
	grep -q ptr_ring "$tmp/prof" && { diag "the ptr_ring test in the profile"; ok=1; }
	grep -q '\<cycles\>' "$tmp/prof" && { diag "cycles in the profile"; ok=1; }
	grep -qxF "$FAST (3/3 profiled loads): instructions 78.002 -> 81.002" "$tmp/prof" ||
		{ diag "no heading of $FAST"; ok=1; }
	# the functions: from the header line to the blank line
	awk '/^function / { t = 1; next } t && /^$/ { exit } t' "$tmp/prof" >"$tmp/fns"
	[ "$(wc -l <"$tmp/fns")" -eq 1 ] || { diag "$(wc -l <"$tmp/fns") function rows, want 1"; ok=1; }
	grep -q '^page_pool_put_unrefed_page  *34\.002  *37\.002  *+3\.000\(  *+0\.000\)\{6\}$' "$tmp/fns" ||
		{ diag "function row: $(cat "$tmp/fns")"; ok=1; }
	ok_if "$ok" "profile A/B: page_pool_put_unrefed_page +3.000 instructions, nothing else moved, in text, markdown and org"
}

t_profile_aa() {
	ok=0
	for after in data/f4_aa.txt data/f4_before.txt; do
		bc data/f4_before.txt "$after"
		rc_is 0 || ok=1
		hasx out "profile: no function moved (2 tests profiled on both sides)" || ok=1
		[ "$(grep -c '^profile' "$tmp/out")" -eq 1 ] ||
			{ diag "more than one profile line against $after"; ok=1; }
	done
	ok_if "$ok" "profile A/A (interrupt work of 0.02 in other loads, or the same loads): one line, no function moved"
}

# A side without profiles: said in one line; and the profile: line is no
# environment (format 3 loads have none).
t_profile_one_side() {
	ok=0
	sed -e '/^profile: /d' -e '/^prof: /d' -e '/^prof_fn: /d' \
		-e 's/^format: bench_page_pool_simple 4$/format: bench_page_pool_simple 3/' \
		data/f4_before.txt >"$tmp/f3.txt"
	bc "$tmp/f3.txt" data/f4_after.txt
	rc_is 0 || ok=1
	hasx out "profile: only after has an exact profile (QEMU -icount, tools/profile), in 3 loads: nothing to compare" ||
		ok=1
	grep -q '^environment differs' "$tmp/out" && { diag "$(grep '^environment' "$tmp/out")"; ok=1; }
	has out "^$FAST  *79\.150  *82\.150  *+3\.000 " || ok=1
	bc data/f4_one.txt "$tmp/f3.txt"
	hasx out "profile: only before has an exact profile (QEMU -icount, tools/profile), in 1 load: nothing to compare" ||
		ok=1
	bc -f json "$tmp/f3.txt" data/f4_after.txt
	jq_is "no profile" 'all(.rows[]; has("profile") | not)' || ok=1
	ok_if "$ok" "profile on one side only: one line, no environment difference, no JSON profile"
}

# Formats 1 and 2 have no end: line: a log may follow them, so the
# profile's lines there, as in a dmesg log, are not read (as before).
t_profile_ignored() {
	printf 'format: bench_page_pool_simple 1\ntest: name=x cycles_per_elem=2\nprof: name=x bogus\nprof_fn: ?\nprofile: anything\n' \
		>"$tmp/f1prof.txt"
	printf 'profile: kernel profiling enabled\nprof: x\ntime_bench: Type:x Per elem: 100 cycles(tsc) 50.000 ns (step:0) - (measurement period time:0.000000500 sec time_interval:500) - (invoke count:10 tsc_interval:1000)\n' \
		>"$tmp/prof.log"
	bc "$tmp/f1prof.txt" -- "$tmp/f1prof.txt" "$tmp/prof.log"
	ok=0
	rc_is 0 || ok=1
	[ -s "$tmp/err" ] && { diag "stderr not empty"; ok=1; }
	grep -q '^profile' "$tmp/out" && { diag "a profile from format 1"; ok=1; }
	ok_if "$ok" "profile lines in format 1 blocks and in logs: not read, no error"
}

t_profile_json() {
	if ! command -v jq >/dev/null 2>&1; then
		ktap_test_fail "-f json profiles parse with jq (jq not installed: make check needs it)"
		return
	fi
	ok=0
	bc -f json data/f4_before.txt data/f4_after.txt
	rc_is 0 || ok=1
	jq_is "profiled loads" 'all(.rows[]; .profile.profiled_loads == {"before": 3, "after": 3})' || ok=1
	jq_is totals '.rows[0].profile.totals.insns == {"before": 78.002, "after": 81.002, "diff": 3} and ([.rows[0].profile.totals[] | .diff] == [3, 0, 0, 0, 0, 0, 0]) and (.rows[0].profile.totals | keys_unsorted) == ["insns", "loads", "stores", "atomics", "l1i_miss", "l1d_miss", "llc_miss"]' ||
		ok=1
	jq_is moved '.rows[0].profile.moved | length == 1 and .[0].function == "page_pool_put_unrefed_page" and .[0].counts.insns == {"before": 34.002, "after": 37.002, "diff": 3} and ([.[0].counts[] | .diff] == [3, 0, 0, 0, 0, 0, 0])' ||
		ok=1
	jq_is "ptr_ring" '.rows[1].test == "tasklet_page_pool02_ptr_ring" and .rows[1].profile.moved == [] and .rows[1].profile.totals.insns.diff == 0' ||
		ok=1
	bc -f json data/f4_before.txt data/f4_aa.txt
	jq_is "A/A" 'all(.rows[]; .profile.moved == [])' || ok=1
	ok_if "$ok" "-f json: per row a profile of totals and moved functions, read back by jq"
}

# padded_line FILE BYTES HEAD TAIL: appends to FILE a line of BYTES
# bytes (its newline not counted), HEAD, then "x" to fill, then TAIL
padded_line() {
	printf '%s' "$3" >>"$1"
	head -c $(($2 - ${#3} - ${#4})) /dev/zero | tr '\0' x >>"$1"
	printf '%s\n' "$4" >>"$1"
}

# A line holds at most 65536 bytes: one of exactly that is read whole
# (its value at its end), one byte more is refused with FILE:LINE.
t_line_limit() {
	ok=0
	for n in 65536 65537; do
		f=$tmp/line_$n.txt
		printf 'format: bench_page_pool_simple 1\n' >"$f"
		padded_line "$f" $n 'test: name=t pad=' ' cycles_per_elem=7.5'
		printf 'test: name=u cycles_per_elem=3\n' >>"$f"
	done
	[ "$(sed -n 2p "$tmp/line_65536.txt" | tr -d '\n' | wc -c)" -eq 65536 ] ||
		{ diag "line 2 not 65536 bytes"; ok=1; }
	bc "$tmp/line_65536.txt" "$tmp/line_65536.txt"
	row_is t "7.5 7.5 - - - -" || ok=1
	row_is u "3 3 - - - -" || ok=1
	bc "$tmp/line_65536.txt" "$tmp/line_65537.txt"
	rc_is 2 || ok=1
	hasx err "bench-compare: $tmp/line_65537.txt:2: line longer than the limit of 65536 bytes: the rest of the file is not read" ||
		ok=1
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || { diag "not one error"; ok=1; }
	[ ! -s "$tmp/out" ] || { diag "a table despite the long line"; ok=1; }
	ok_if "$ok" "a line of 65536 bytes is read whole, one of 65537 refused (FILE:LINE, exit 2)"
}

# /dev/zero is one line without end: refused at its 65537th byte, in a
# memory limit far below what reading it whole would take.
t_dev_zero() {
	ok=0
	(
		ulimit -v 100000 2>/dev/null
		exec timeout 20 "$BIN" /dev/zero "$A1"
	) >"$tmp/out" 2>"$tmp/err"
	rc=$?
	rc_is 2 || ok=1
	hasx err "bench-compare: /dev/zero:1: line longer than the limit of 65536 bytes: the rest of the file is not read" ||
		ok=1
	ok_if "$ok" "/dev/zero refused at once, within 100 MB of memory: line longer than the limit"
}

# A read that fails is an error at the line it cut, never an end of
# file (a directory as standard input fails with EISDIR; the unit tests
# fail a stream in the middle of a file).
t_read_error() {
	ok=0
	bc "$A1" - <data
	rc_is 2 || ok=1
	hasx err "bench-compare: <stdin>:1: read error: Is a directory" || ok=1
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || { diag "not one error"; ok=1; }
	[ ! -s "$tmp/out" ] || { diag "a table despite the read error"; ok=1; }
	ok_if "$ok" "a read error (a directory as standard input): FILE:LINE: read error, exit 2"
}

# ns_some_loads: 5 loads a side of tests t (ns in one before load of
# five), u (ns in every load, +10 ns) and v (ns in no before load)
ns_some_loads() {
	for side in b a; do
		i=1
		while [ $i -le 5 ]; do
			tns=
			[ $i -eq 1 ] && tns=' ns_per_elem=10.000'
			if [ $side = b ]; then
				printf 'format: bench_page_pool_simple 1\ntest: name=t cycles_per_elem=%d%s\ntest: name=u cycles_per_elem=%d ns_per_elem=%d.000\ntest: name=v cycles_per_elem=%d\n' \
					$((100 + i)) "$tns" $((200 + i)) $((100 + i)) $((300 + i))
			else
				printf 'format: bench_page_pool_simple 1\ntest: name=t cycles_per_elem=%d ns_per_elem=%d.000\ntest: name=u cycles_per_elem=%d ns_per_elem=%d.000\ntest: name=v cycles_per_elem=%d ns_per_elem=%d.000\n' \
					$((110 + i)) $((102 + i)) $((220 + i)) $((110 + i)) $((300 + i)) $((150 + i))
			fi
			i=$((i + 1))
		done >"$tmp/ns_$side.txt"
	done
}

NS_T="t: ns/elem in 1 of 5 loads before, 5 of 5 after: no ns or % change shown (a row's figures come from all the loads it counts)"
NS_V="v: ns/elem in 0 of 5 loads before, 5 of 5 after: no ns or % change shown (a row's figures come from all the loads it counts)"

# A row's figures come from the loads it counts: ns that only some of
# them carried are not shown, nor % change of them, and a line says so
# (before, one load's 10 ns gave ns before 10.000 and +950% in 5/5).
t_ns_some_loads() {
	ns_some_loads
	ok=0
	bc "$tmp/ns_b.txt" "$tmp/ns_a.txt"
	row_is t "103 113 - - 5/5 change" || ok=1
	row_is u "203 223 103.000 113.000 5/5 change" || ok=1
	row_is v "303 303 - - 5/5 noise" || ok=1
	has out '^t  *103  *113  *+10  *-  *-  *-  *-  ' || ok=1
	hasx out "$NS_T" || ok=1
	hasx out "$NS_V" || ok=1
	[ "$(grep -c 'no ns or % change shown' "$tmp/out")" -eq 2 ] ||
		{ diag "not two notes"; ok=1; }
	bc -f markdown "$tmp/ns_b.txt" "$tmp/ns_a.txt"
	rc_is 0 || ok=1
	has out '^| t  *| *103 | *113 | *+10 | *- | *- | *- | *- |' || ok=1
	hasx out "$NS_T" || ok=1
	bc -f org "$tmp/ns_b.txt" "$tmp/ns_a.txt"
	rc_is 0 || ok=1
	has out '^| t  *| *103 | *113 | *10 | *- | *- | *- | *- |' || ok=1
	hasx out "$NS_V" || ok=1
	org_formula_holds "$tmp/out" >"$tmp/formula" ||
		{ diag "org: $(head -n 1 "$tmp/formula")"; ok=1; }
	ok_if "$ok" "ns in only some loads of a row: '-', no % change, a line under the table (text, markdown, org)"
}

# --fail-above never judges a figure of fewer loads than its row counts.
t_ns_some_loads_gate() {
	ns_some_loads
	ok=0
	bc --fail-above 50 "$tmp/ns_b.txt" "$tmp/ns_a.txt"
	rc_is 0 || ok=1
	hasx err "bench-compare: --fail-above 50: t not judged: no % change (ns/elem in 1 of 5 loads before, 5 of 5 after)" ||
		ok=1
	hasx err "bench-compare: --fail-above 50: v not judged: no % change (ns/elem in 0 of 5 loads before, 5 of 5 after)" ||
		ok=1
	[ "$(wc -l <"$tmp/err")" -eq 2 ] || { diag "not two stderr lines"; ok=1; }
	bc --fail-above 5 "$tmp/ns_b.txt" "$tmp/ns_a.txt"
	rc_is 1 || ok=1
	hasx err "bench-compare: regression above 5%: u ns/elem +9.71% (p=0.0238 after Holm)" ||
		ok=1
	grep -q 'regression above 5%: t ' "$tmp/err" && { diag "t judged"; ok=1; }
	head -n 3 "$tmp/ns_b.txt" | sed 's/ ns_per_elem=[0-9.]*//' >"$tmp/ns_t_b.txt"
	for i in 1 2 3 4; do cat "$tmp/ns_t_b.txt"; done >"$tmp/ns_t_b4.txt"
	printf 'format: bench_page_pool_simple 1\ntest: name=t cycles_per_elem=101 ns_per_elem=10.000\ntest: name=u cycles_per_elem=201 ns_per_elem=10.000\n' >>"$tmp/ns_t_b4.txt"
	bc --fail-above 5 "$tmp/ns_t_b4.txt" "$tmp/ns_a.txt"
	rc_is 1 || ok=1
	hasx err "bench-compare: --fail-above 5: no row could be judged (no row with a verdict has a % change)" ||
		ok=1
	ok_if "$ok" "--fail-above judges no % change of ns that only some loads carried, says so, and fails when that leaves no row"
}

# -f json: null where the table shows "-", with the loads and the reason.
t_ns_some_loads_json() {
	if ! command -v jq >/dev/null 2>&1; then
		ktap_test_fail "-f json of ns in some loads (jq not installed: make check needs it)"
		return
	fi
	ns_some_loads
	ok=0
	bc -f json "$tmp/ns_b.txt" "$tmp/ns_a.txt"
	rc_is 0 || ok=1
	jq_is t '.rows[0] | .test == "t" and .ns == null and .pct_change == null and .ns_loads == {"before": 1, "after": 5} and .loads == {"before": 5, "after": 5} and .null_reason == "ns/elem in 1 of 5 loads before, 5 of 5 after" and .verdict == "change"' ||
		ok=1
	jq_is u '.rows[1] | .ns == {"before": 103, "after": 113, "diff": 10} and .ns_loads == {"before": 5, "after": 5} and .pct_change == 9.71 and .null_reason == null' ||
		ok=1
	jq_is v '.rows[2] | .ns == null and .ns_loads == {"before": 0, "after": 5} and .null_reason == "ns/elem in 0 of 5 loads before, 5 of 5 after"' ||
		ok=1
	ok_if "$ok" "-f json: ns and pct_change null with ns_loads and the reason when only some loads carried ns"
}

t_nothing_common() {
	bc data/gate_before.txt data/per_elem_f1.txt
	rc_is 0 && has out '^no test present on both sides$' &&
		has out '^only in before: slower_sig$' &&
		has out '^only in after: cycles_only$'
	ok_if $? "no test in common: said so, exit 0"
}
