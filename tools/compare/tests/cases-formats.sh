# SPDX-License-Identifier: GPL-2.0
#
# bench-compare's tests of its inputs and text outputs (run.sh): plots,
# hostile input, the results formats and the legacy lines, upstream's
# dmesg, instructions, folders, org tables and their formulas.

t_plot() {
	if ! command -v gnuplot >/dev/null 2>&1; then
		ktap_test_skip "--plot draws SVG and PNG" "gnuplot not installed"
		return
	fi
	ok=0
	bc --plot "$tmp/x.svg" "$AB" "$AA"
	rc_is 0 || ok=1
	if ! [ -s "$tmp/x.svg" ] || ! grep -q '<svg' "$tmp/x.svg"; then
		diag "no SVG drawn"
		ok=1
	fi
	bc --plot "$tmp/x.png" "$AB" "$AA"
	rc_is 0 || ok=1
	magic=$(od -An -tx1 -N8 "$tmp/x.png" 2>/dev/null | tr -d ' \n')
	[ "$magic" = 89504e470d0a1a0a ] || { diag "PNG magic: '$magic'"; ok=1; }
	same_as expected/ab.txt || ok=1
	ok_if "$ok" "--plot draws an SVG and a PNG, the table unchanged"
}

# The name in a results file and in a dmesg line, both sides.
hostile_inputs() {	# name
	for side in b a; do
		printf 'format: bench_page_pool_simple 1\ntest: name=%s cycles=1000 ns=500 invoke_count=10\n' \
			"$1" >"$tmp/hostile_$side.txt"
		printf 'time_bench: Type:%s Per elem: 100 cycles(tsc) 50.000 ns (step:0) - (measurement period time:0.000000500 sec time_interval:500) - (invoke count:10 tsc_interval:1000)\n' \
			"$1" >"$tmp/hostile_$side.log"
	done
}

# gnuplot runs what backquotes hold in its commands: names and paths
# must reach it as data, or not at all.
t_plot_hostile() {
	if ! command -v gnuplot >/dev/null 2>&1; then
		ktap_test_skip "--plot runs nothing that names or paths hold" \
			"gnuplot not installed"
		return
	fi
	ok=0
	mkdir "$tmp/plots"
	# a name that could hold a command is no test name: refused, no plot
	hostile_inputs "a\`touch\${IFS}$tmp/pwned1\`b"
	bc --plot "$tmp/plots/r.svg" "$tmp/hostile_b.txt" "$tmp/hostile_a.txt"
	rc_is 2 || ok=1
	hasx err "bench-compare: $tmp/hostile_b.txt:2: test name holds the byte 0x60: a test name is letters, digits, _ and -" ||
		ok=1
	[ ! -e "$tmp/plots/r.svg" ] || { diag "a plot of a refused name"; ok=1; }
	hostile_inputs "t\`id>$tmp/pwned2\`"
	bc --plot "$tmp/plots/d.svg" "$tmp/hostile_b.log" "$tmp/hostile_a.log"
	rc_is 2 || ok=1
	hasx err "bench-compare: $tmp/hostile_b.log:1: test name holds the byte 0x60: a test name is letters, digits, _ and -" ||
		ok=1
	# relative paths: the commands would run in the current directory
	ab=$(pwd)/$AB aa=$(pwd)/$AA
	(cd "$tmp/plots" && bc --plot 'x
!touch pwned3
.svg' "$ab" "$aa" && printf '%s\n' "$rc" >rc)
	rc=$(cat "$tmp/plots/rc")
	rc_is 0 || ok=1
	[ -s "$tmp/plots/x
!touch pwned3
.svg" ] || { diag "no SVG under the path with a newline"; ok=1; }
	(cd "$tmp/plots" && bc --plot 'q"`touch pwned4`".svg' "$ab" "$aa" &&
		printf '%s\n' "$rc" >rc)
	rc=$(cat "$tmp/plots/rc")
	rc_is 0 || ok=1
	[ -s "$tmp/plots/q\"\`touch pwned4\`\".svg" ] || { diag "no SVG under the path with quotes"; ok=1; }
	for n in 1 2 3 4; do
		[ ! -e "$tmp/pwned$n" ] && [ ! -e "$tmp/plots/pwned$n" ] ||
			{ diag "reproduction $n ran a command"; ok=1; }
	done
	ok_if "$ok" "--plot runs nothing that test names or the path hold (such names are refused)"
}

# A picture that cannot be drawn leaves nothing: no table, no file, no
# SVG on stdout, and a directory in its way stays.
t_plot_cannot() {
	if ! command -v gnuplot >/dev/null 2>&1; then
		ktap_test_skip "--plot that cannot draw leaves nothing" \
			"gnuplot not installed"
		return
	fi
	ok=0
	bc --plot "$tmp/nosuchdir/x.svg" "$AB" "$AA"
	rc_is 2 || ok=1
	diff expected/ab.txt "$tmp/out" >/dev/null || { diag "not the table on stdout"; ok=1; }
	has err "^bench-compare: --plot $tmp/nosuchdir/x.svg: cannot create a file there: No such file or directory$" || ok=1
	mkdir "$tmp/dir.svg"
	bc --plot "$tmp/dir.svg" "$AB" "$AA"
	rc_is 2 || ok=1
	[ -d "$tmp/dir.svg" ] || { diag "the directory was replaced"; ok=1; }
	diff expected/ab.txt "$tmp/out" >/dev/null || { diag "not the table on stdout"; ok=1; }
	left=$(find "$tmp" -name '.bench-compare-plot.*' | wc -l)
	[ "$left" = 0 ] || { diag "$left temporary files left"; ok=1; }
	ok_if "$ok" "--plot that cannot draw: exit 2, the table printed first, no file, a directory in its way kept"
}

# plot_rows N FILE: a load of N tests t0.. of 100.. cycles
plot_rows() {
	{
		echo 'format: bench_page_pool_simple 1'
		awk -v n="$1" 'BEGIN {
			for (i = 0; i < n; i++)
				printf "test: name=t%d cycles_per_elem=%d\n", i, 100 + i
		}'
	} >"$2"
}

# 467 rows made the PNG wider than cairo draws: gnuplot failed and no
# table was printed. Now the table comes first, the rows get narrower
# (a smaller font) down to a bound, and beyond it one line says why.
t_plot_many() {
	if ! command -v gnuplot >/dev/null 2>&1; then
		ktap_test_skip "--plot of many rows" "gnuplot not installed"
		return
	fi
	ok=0
	plot_rows 467 "$tmp/r467.txt"
	bc --plot "$tmp/many.png" "$tmp/r467.txt" "$tmp/r467.txt"
	rc_is 0 || ok=1
	magic=$(od -An -tx1 -N8 "$tmp/many.png" 2>/dev/null | tr -d ' \n')
	[ "$magic" = 89504e470d0a1a0a ] || { diag "PNG magic: '$magic'"; ok=1; }
	has out '^t466  *566  *566 ' || ok=1
	plot_rows 4056 "$tmp/r4056.txt"
	bc --plot "$tmp/toomany.png" "$tmp/r4056.txt" "$tmp/r4056.txt"
	rc_is 2 || ok=1
	head -n 1 "$tmp/out" | grep -q '^test  *cycles before ' || { diag "no table first"; ok=1; }
	has out '^t4055  *4155  *4155 ' || ok=1
	hasx err "bench-compare: --plot $tmp/toomany.png: 4056 rows do not fit in one picture (at most 4055: 8 pixels a row, 32767 wide)" ||
		ok=1
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || { diag "not one line on stderr"; ok=1; }
	[ ! -e "$tmp/toomany.png" ] || { diag "a file was left"; ok=1; }
	ok_if "$ok" "--plot: 467 rows drawn narrower, the table first; 4056 rows: the table, then one line why not, exit 2"
}

t_formats_1() {
	ok=0
	bc "$B1" "$A1"
	row_is "$FAST" "157.245 150.000 60.572 57.714 - -" || ok=1
	row_is no-softirq-page_pool01 "166.808 183.494 64.256 70.682 - -" || ok=1
	bc data/per_elem_f1.txt data/per_elem_f1.txt
	row_is cycles_only "12.5 12.5 - - - -" || ok=1
	bc data/results_crlf.txt data/results_crlf.txt
	row_is crlf_per_elem "12.500 12.500 4.800 4.800 - -" || ok=1
	bc data/dmesg_crlf.log data/dmesg_crlf.log
	row_is crlf_full "12.500 12.500 4.800 4.800 - -" || ok=1
	ok_if "$ok" "format 1 quotients (3 decimals), per_elem only, no ns, CRLF files"
}

t_legacy_cut() {
	L=data/legacy_cut.log
	bc "$L" "$A1"
	ok=0
	rc_is 2 || ok=1
	[ ! -s "$tmp/out" ] || { diag "a table despite cut lines"; ok=1; }
	for n in 2 3 4 5 6 7 8 9; do
		has err "^bench-compare: $L:$n: truncated legacy line: no " || ok=1
	done
	grep -q "$L:1:" "$tmp/err" && { diag "the complete line 1 refused"; ok=1; }
	ok_if "$ok" "legacy lines cut anywhere before their closing ): each an error, no fallback to C and N"
}

t_format3() {
	bc data/f3_before.txt data/f3_after.txt
	row_is "$FAST" "151.479 155.095 72.271 73.996 - -" &&
		row_is tasklet_page_pool02_ptr_ring "334.494 335.653 159.587 160.140 - -" &&
		has out '^loads: before 3, after 3;'
	ok_if $? "format 3: three complete blocks a side, one load each"
}

t_all_legacy_errors() {
	bc "$A1" "$E"
	[ "$rc" -eq 2 ] && [ "$(grep -c "^bench-compare: $E:" "$tmp/err")" -eq 13 ] &&
		! grep -q ":1:\|:15:" "$tmp/err" && [ ! -s "$tmp/out" ]
	ok_if $? "every bad legacy line reported (13), in an AFTER file too"
}

t_format3_quiet() {
	bc "$B1" data/format5.txt
	[ "$(wc -l <"$tmp/err")" -eq 1 ]
	ok_if $? "test: lines under an unsupported format: no further errors"
}

t_many_errors() {
	i=0
	while [ "$i" -lt 25 ]; do
		echo "time_bench: Type:t$i Per elem: x"
		i=$((i + 1))
	done >"$tmp/many.log"
	bc "$tmp/many.log" "$A1"
	[ "$rc" -eq 2 ] && [ "$(grep -c 'malformed legacy line' "$tmp/err")" -eq 20 ] &&
		grep -q "many.log: too many errors, skipping the rest$" "$tmp/err"
	ok_if $? "at most 20 errors per file, then 'too many errors'"
}

t_binary() {
	bc "$BIN" "$A1"
	[ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ]
	ok_if $? "a binary file is rejected (exit 2), no crash"
}

t_stdin_twice() {
	bc - -- - </dev/null
	[ "$rc" -eq 2 ] && hasx err "bench-compare: standard input ('-') given twice" &&
		has err "^Try 'bench-compare --help' for more.\$"
	ok_if $? "usage errors point to --help (standard input twice)"
}

t_empty_stdin() {
	bc "$B1" - </dev/null
	[ "$rc" -eq 2 ] && hasx err "bench-compare: no benchmark results in <stdin>"
	ok_if $? "empty standard input is an error"
}

t_help() {
	bc --help
	ok=0
	rc_is 0 || ok=1
	[ -s "$tmp/err" ] && ok=1
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS INPUT OUTPUT "EXIT STATUS" EXAMPLES; do
		has out "^$s\$" || ok=1
	done
	bc -h
	has out '^SYNOPSIS$' || ok=1
	ok_if "$ok" "--help and -h: man page sections on stdout, exit 0"
}

# The fuzz driver (make fuzz) must see what it looks for: programs that
# print inf, exit 3, crash, hang or report a sanitizer error in place
# of bench-compare are findings; one that exits 2 cleanly is none.
t_fuzz_detects() {
	ok=0
	for kind in inf status crash hang sanitizer json clean; do
		n=2
		case $kind in
		inf) body='echo "| t | inf | -nan |"' ;;
		status) body='exit 3' ;;
		crash) body='kill -SEGV $$' ;;
		hang) body='sleep 5'; n=1 ;;	# each case waits out -t 1
		sanitizer) body='echo "x.c:1:2: runtime error: overflow" >&2; exit 2' ;;
		json) body='echo "{\"a\": [1,"'; n=12 ;;	# one case in 4 is json
		clean) body='echo "bench-compare: bad" >&2; exit 2' ;;
		esac
		printf '#!/bin/sh\n%s\n' "$body" >"$tmp/fake-$kind"
		chmod +x "$tmp/fake-$kind"
		(cd "$tmp" && "$FUZZ" -b "$tmp/fake-$kind" -n $n -s 7 -t 1 \
			-o "$tmp/findings-$kind" "$OLDPWD"/data/* >"$tmp/fuzz-$kind")
		frc=$?
		if [ $kind = clean ]; then
			[ $frc -eq 0 ] || { diag "clean: exit $frc"; ok=1; }
		elif [ $frc -ne 1 ] || ! grep -q '^not ok 1 ' "$tmp/fuzz-$kind" ||
		     [ "$(ls "$tmp/findings-$kind" | wc -l)" -lt 1 ]; then
			diag "$kind: exit $frc, not reported or its cases not kept"
			ok=1
		fi
	done
	ok_if "$ok" "the fuzz driver finds inf/nan, a bad exit status, a crash, a hang, a sanitizer report, bad JSON"
}

t_instructions() {
	bc data/icount_before.txt data/icount_after.txt
	ok=0
	rc_is 0 || ok=1
	head -n 1 "$tmp/out" | grep -q '^test  *instructions before  *instructions after  *instructions diff  *% change  *instructions diff 95% CI  *loads  *p (Holm)  *verdict$' ||
		{ diag "header: $(head -n 1 "$tmp/out")"; ok=1; }
	has out "^$FAST  *79\.065  *82\.060  *+3\.000  *+3\.79%  *+2\.990\.\.+3\.000  *6/6  *0\.00433  *change$" || ok=1
	has out "^tasklet_page_pool02_ptr_ring .* +0\.000\.\.+0\.010  *6/6  *1  *noise$" || ok=1
	grep -q '\<cycles\>\|\<ns\>' "$tmp/out" && { diag "cycles or ns in the table"; ok=1; }
	bc data/dmesg_instrument.log data/icount_after.txt
	rc_is 0 || ok=1
	has out "^$FAST  *79\.065  *82\.060 " || ok=1
	has out '^loads: before 2, after 6;' || ok=1
	grep -q '\<cycles\>\|\<ns\>' "$tmp/out" && { diag "cycles or ns in the table"; ok=1; }
	ok_if "$ok" "instructions (icount): every label says instructions, no ns columns, from results and dmesg instrument lines"
}

t_plot_instructions() {
	if ! command -v gnuplot >/dev/null 2>&1; then
		ktap_test_skip "--plot of instructions says so" "gnuplot not installed"
		return
	fi
	bc --plot "$tmp/i.svg" data/icount_before.txt data/icount_after.txt
	rc_is 0 && grep -q 'instructions/elem of each load' "$tmp/i.svg" &&
		! grep -q 'cycles' "$tmp/i.svg"
	ok_if $? "--plot of instructions: its title says instructions, never cycles"
}

t_dir_side() {
	ok=0
	bc data/dir_before data/f3_after.txt
	row_is "$FAST" "151.479 155.095 72.271 73.996 - -" || ok=1
	has out '^loads: before 3, after 3;' || ok=1
	mkdir -p "$tmp/d_two" "$tmp/d_sub/x.results" "$tmp/d_dmesg" "$tmp/d_empty"
	# a file of several blocks: each a load, as on the command line
	cat data/f3_before.txt >"$tmp/d_two/a.results"
	bc "$tmp/d_two" data/f3_after.txt
	rc_is 0 || ok=1
	row_is "$FAST" "151.479 155.095 72.271 73.996 - -" || ok=1
	has out '^loads: before 3, after 3;' || ok=1
	bc "$tmp/d_sub" data/f3_after.txt
	hasx err "bench-compare: $tmp/d_sub/x.results: not a regular file" || ok=1
	cp data/dmesg_plain.log "$tmp/d_dmesg/x.results"
	bc "$tmp/d_dmesg" data/f3_after.txt
	hasx err "bench-compare: $tmp/d_dmesg/x.results: a kernel log, not a results file: a directory holds results files" || ok=1
	bc "$tmp/d_empty" data/f3_after.txt
	hasx err "bench-compare: $tmp/d_empty: no *.results file in the directory" || ok=1
	[ ! -s "$tmp/out" ] || { diag "a table despite a bad directory"; ok=1; }
	ok_if "$ok" "a directory side: each *.results file's blocks its loads, by name; other names not read; bad entries refused"
}

t_env_new_lines() {
	bc data/f3_before.txt data/f3_env.txt
	ok=0
	rc_is 0 || ok=1
	hasx out "environment differs: accel: before tcg, after kvm" || ok=1
	hasx out "environment differs: platform.smt: before notsupported, after on" || ok=1
	hasx out "environment differs: mitigations.spectre_v2: before Mitigation:_Retpolines, after Vulnerable" || ok=1
	[ "$(grep -c '^environment differs' "$tmp/out")" -eq 3 ] || { diag "not 3 differences"; ok=1; }
	ok_if "$ok" "environment: accel:, platform: and mitigations: differences shown like config:"
}

# Upstream's lines, exactly as its module and test script
# print them.
t_upstream_dmesg() {
	bc data/upstream_a.log data/upstream_b.log
	ok=0
	row_is no-softirq-page_pool01 "11.030 11.333 4.376 4.497 - -" || ok=1
	row_is for_loop "0.728 0.748 0.269 0.276 - -" || ok=1
	has out '^no-softirq-page_pool03  *130\.617  *135\.217  *+4\.600  *51\.423  *53\.235  *+1\.812  *+3\.52%$' || ok=1
	has out '^loads: before 3, after 3;' || ok=1
	[ -s "$tmp/err" ] && { diag "stderr: $(head -n 1 "$tmp/err")"; ok=1; }
	ok_if "$ok" "upstream's dmesg (bench_page_pool: Type:...): a load per run, other drivers' \"Type: 5\" ignored"
}

t_upstream_script() {
	bc data/upstream_ksft.log data/upstream_trimmed.txt
	ok=0
	rc_is 0 || ok=1
	has out '^loads: before 1, after 2;' || ok=1
	row_is no-softirq-page_pool01 "11.012 11.500 4.3690 4.3715 - -" || ok=1
	row_is no-softirq-page_pool03 "130.744 131.000 51.4730 51.5615 - -" || ok=1
	has out '^only in before: for_loop$' || ok=1
	ok_if "$ok" "upstream's test script: under the kselftest runner (its trimmed lines echo the load) and by hand (two runs)"
}

# The seed's table: the same eight columns, % change from ns as its
# #+TBLFM computes it, one decimal; nothing else for one load a side.
t_seed_org() {
	bc -f org data/seed_before.txt data/seed_after.txt
	same_as expected/seed.org
	ok_if $? "org, one load a side: the seed's eight columns, % change 1.7, 5.0, 19.3 and its #+TBLFM"
}

# org_formula_holds FILE: every row's % cell is what the #+TBLFM under
# the table computes from its cells (as org-mode would: checked by
# hand with Emacs 28's org-table-recalculate, which changed nothing).
org_formula_holds() {
	awk -F '|' '
	/^#\+TBLFM: / {
		split($0, f, /[$=\/()*]+/)
		p = f[2] + 1; d = f[3] + 1; b = f[4] + 1
		for (i = 1; i <= n; i++) {
			split(row[i], c, "|")
			want = c[b] + 0 ? sprintf("%.1f", c[d] / c[b] * 100) : "-"
			got = c[p]
			gsub(/ /, "", got)
			if (got != want) {
				print "row " i ": % " got ", formula " want
				bad = 1
			}
		}
		found = 1
	}
	/^\| / && !/^\| test / { row[++n] = $0 }
	END { exit bad || !found }' "$1"
}

t_org_formula() {
	ok=0
	for args in "$AB $AA" "$B2 $A2" "data/seed_before.txt data/seed_after.txt" \
		    "data/icount_before.txt data/icount_after.txt" \
		    "data/upstream_a.log data/upstream_b.log"; do
		# shellcheck disable=SC2086
		bc -f org $args
		org_formula_holds "$tmp/out" >"$tmp/formula" ||
			{ diag "$args: $(head -n 1 "$tmp/formula")"; ok=1; }
	done
	ok_if "$ok" "org: every % change cell is what its #+TBLFM computes from the printed cells"
}
