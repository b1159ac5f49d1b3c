#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of bench-compare: its unit tests (the statistics), then end-to-end
# cases on the inputs in data/ (parsers, output formats, exit status).
#
#   sh tests/run.sh BENCH_COMPARE UNIT_TEST
#
# Prints "ok N - what" or "not ok N - what" per check and "#" diagnostics;
# the last line is "P passed, F failed". Exit status 1 if a check failed.

[ $# -eq 2 ] || { echo "usage: $0 BENCH_COMPARE UNIT_TEST" >&2; exit 2; }
abspath() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$(pwd)/$1" ;;
	esac
}
BIN=$(abspath "$1")
UNIT=$(abspath "$2")
cd "$(dirname "$0")" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

passed=0
failed=0

diag() {
	echo "#   $*"
}

# result OK WHAT: counts and prints one check
result() {
	if [ "$1" = 1 ]; then
		passed=$((passed + 1))
		echo "ok $((passed + failed)) - $2"
	else
		failed=$((failed + 1))
		echo "not ok $((passed + failed)) - $2"
	fi
}

# bc ARGS...: runs bench-compare; sets $rc, output in $tmp/out and $tmp/err
bc() {
	"$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

show_err() {
	sed 's/^/#     stderr: /' "$tmp/err" | head -n 5
}

# expect_error WHAT RC LINE ARGS...: exit status RC, LINE (whole) on
# stderr, nothing on stdout
expect_error() {
	what=$1 want_rc=$2 line=$3
	shift 3
	bc "$@"
	ok=1
	if [ "$rc" -ne "$want_rc" ]; then
		diag "exit status $rc, want $want_rc"
		ok=0
	fi
	if ! grep -qxF -e "$line" "$tmp/err"; then
		diag "no stderr line: $line"
		show_err
		ok=0
	fi
	if [ -s "$tmp/out" ]; then
		diag "output on stdout despite the error"
		ok=0
	fi
	result $ok "$what"
}

# row TEST: "cycles-before cycles-after ns-before ns-after n verdict" of
# TEST in the text table of the last run
row() {
	awk -v t="$1" '$1 == t {
		v = $11
		for (i = 12; i <= NF; i++)
			v = v " " $i
		print $2, $3, $6, $7, $10, v
	}' "$tmp/out"
}

# expect_row WHAT TEST WANT ARGS...: exit status 0, row(TEST) = WANT
expect_row() {
	what=$1 test=$2 want=$3
	shift 3
	bc "$@"
	got=$(row "$test")
	ok=1
	if [ "$rc" -ne 0 ]; then
		diag "exit status $rc, want 0"
		show_err
		ok=0
	fi
	if [ "$got" != "$want" ]; then
		diag "row $test: '$got'"
		diag "want:    '$want'"
		ok=0
	fi
	result $ok "$what"
}

# expect_output WHAT FILE ARGS...: exit status 0, stdout equal to FILE,
# nothing on stderr
expect_output() {
	what=$1 file=$2
	shift 2
	bc "$@"
	ok=1
	if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
		diag "exit status $rc, want 0 and no stderr"
		show_err
		ok=0
	fi
	if ! diff -u "$file" "$tmp/out" >"$tmp/diff"; then
		sed 's/^/#   /' "$tmp/diff"
		ok=0
	fi
	result $ok "$what"
}

# has WHERE PATTERN: grep -q -e PATTERN on $tmp/WHERE, with a diagnostic
has() {
	grep -q -e "$2" "$tmp/$1" && return 0
	diag "no '$2' in $1"
	return 1
}

# --- unit tests of the statistics -----------------------------------------

"$UNIT" >"$tmp/unit" 2>&1
unit_rc=$?
grep -v '^[0-9]* passed, [0-9]* failed$' "$tmp/unit"
passed=$(grep -c '^ok ' "$tmp/unit")
failed=$(grep -c '^not ok ' "$tmp/unit")
if [ "$unit_rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
	result 0 "unit tests exit with status 0 (got $unit_rc)"
fi

# --- output formats ---------------------------------------------------------

B2="data/before_f2.txt"
A2="data/after_f2.txt"
expect_output "text table of format 2 files" expected/f2.txt "$B2" "$A2"
expect_output "markdown table of format 2 files" expected/f2.md \
	-f markdown "$B2" "$A2"
expect_output "org table of format 2 files" expected/f2.org \
	--format org "$B2" "$A2"
expect_output "--format=org and options after the files" expected/f2.org \
	"$B2" "$A2" --format=org
expect_output "-fmarkdown" expected/f2.md -fmarkdown "$B2" "$A2"
expect_output "-f text is the default" expected/f2.txt -f text "$B2" "$A2"
expect_output "BEFORE from standard input (-)" expected/f2.txt - "$A2" <"$B2"
expect_output "one file per side with --" expected/f2.txt "$B2" -- "$A2"

bc "$B2" "$A2"
ok=1
head -n 1 "$tmp/out" | grep -q '^test  *cycles before  *cycles after  *cycles diff  *cycles %  *ns before  *ns after  *ns diff  *ns %  *n  *verdict$' ||
	{ diag "text header"; ok=0; }
has out '^only in before: for_loop$' || ok=0
has out '^only in after: atomic_inc$' || ok=0
[ "$(tail -n 1 "$tmp/out")" = "verdict: two-sided Mann-Whitney U on cycles/elem samples, alpha 0.05" ] ||
	{ diag "last line: $(tail -n 1 "$tmp/out")"; ok=0; }
result $ok "text: header, only-in lines, verdict footer last"

for f in markdown org; do
	bc -f $f "$B2" "$A2"
	ok=1
	has out '^| test  *| cycles before | cycles after | cycles diff | cycles % | ns before | ns after | ns diff |  *ns % |  *n | verdict  *|$' ||
		ok=0
	has out 'verdict: two-sided Mann-Whitney U on cycles/elem samples, alpha 0.05' ||
		ok=0
	result $ok "$f: same columns and verdict footer"
done
bc -f markdown "$B2" "$A2"
sed -n 2p "$tmp/out" | grep -q '^| :-*- | -*: | -*: | -*: | -*: | -*: | -*: | -*: | -*: | -*: | :-* |$'
result $((! $?)) "markdown: header separator row aligns numbers right"
bc -f org "$B2" "$A2"
sed -n 2p "$tmp/out" | grep -q '^|-*+-*+-*+-*+-*+-*+-*+-*+-*+-*+-*|$'
result $((! $?)) "org: |- rule under the header"

bc --alpha 0.01 "$B2" "$A2"
ok=1
[ "$(row tasklet_page_pool01_fast_path)" = "157.90 150.60 60.82 58.01 5/5 change" ] ||
	{ diag "$(row tasklet_page_pool01_fast_path)"; ok=0; }
has out 'alpha 0.01$' || ok=0
result $ok "--alpha 0.01: 5 vs 5 separated (p = 2/252) is still a change"
expect_row "--alpha 0.005: 5 vs 5 cannot reach it, need 6" \
	tasklet_page_pool01_fast_path \
	"157.90 150.60 60.82 58.01 5/5 n/a (need 6 samples)" \
	--alpha=0.005 "$B2" "$A2"

# --- results files ----------------------------------------------------------

B1="data/before_f1.txt"
A1="data/after_f1.txt"
expect_row "format 1: cycles/invoke_count, ns/invoke_count, one sample" \
	tasklet_page_pool01_fast_path "157.24 150.00 60.57 57.71 1/1 n/a (need 4 samples)" \
	"$B1" "$A1"
expect_row "format 1: unknown fields (page_pool stats, new ones) ignored" \
	no-softirq-page_pool01 "166.81 183.49 64.26 70.68 1/1 n/a (need 4 samples)" \
	"$B1" "$A1"
expect_row "samples add up across files of a side" \
	tasklet_page_pool01_fast_path "157.24 150.00 60.57 57.71 4/4 change" \
	"$B1" "$B1" "$B1" "$B1" -- "$A1" "$A1" "$A1" "$A1"
expect_row "format 1 with cycles_per_elem only" \
	tasklet_page_pool01_fast_path "157.25 157.25 60.57 60.57 1/1 n/a (need 4 samples)" \
	data/per_elem_f1.txt data/per_elem_f1.txt
expect_row "no ns at all: ns columns are -" \
	cycles_only "12.50 12.50 - - 1/1 n/a (need 4 samples)" \
	data/per_elem_f1.txt data/per_elem_f1.txt
expect_row "format 2: one sample per listed value" \
	no-softirq-page_pool01 "166.80 183.60 64.25 70.72 5/5 change" "$B2" "$A2"
expect_row "format 2: a line without samples lists is one sample" \
	tasklet_page_pool03_slow "18765.58 17001.25 7228.65 6549.02 1/1 n/a (need 4 samples)" \
	"$B2" "$A2"
expect_row "results file with CRLF line ends and no final newline" \
	crlf_per_elem "12.50 12.50 4.80 4.80 1/1 n/a (need 4 samples)" \
	data/results_crlf.txt data/results_crlf.txt
expect_row "results files and dmesg logs mixed on one side" \
	tasklet_page_pool01_fast_path "157.24 150.00 60.57 57.71 4/1 n/a (need 4 samples)" \
	"$B1" data/dmesg_ts.log -- "$A1"

bc "$B1" data/other_cpu.txt
ok=1
[ "$rc" -eq 0 ] || { diag "exit status $rc"; ok=0; }
has err "^bench-compare: warning: inputs from different CPU models: 'QEMU TCG CPU version 2.5+' and 'Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz'\$" ||
	ok=0
result $ok "different cpu_model: a warning on stderr, still exit 0"

# --- dmesg logs ---------------------------------------------------------------

expect_row "dmesg with timestamps: tsc_interval / invoke count, 3 runs" \
	tasklet_page_pool01_fast_path "157.24 157.24 60.57 60.57 3/3 n/a (need 4 samples)" \
	data/dmesg_ts.log data/dmesg_ts.log
expect_row "dmesg: time_interval / invoke count, Spread over lines ignored" \
	for_loop "2.43 2.43 0.94 0.94 3/3 n/a (need 4 samples)" \
	data/dmesg_ts.log data/dmesg_ts.log
expect_row "dmesg without timestamps, syslog and <6> prefixes" \
	tasklet_page_pool01_fast_path "157.24 150.00 60.57 57.71 3/3 n/a (need 4 samples)" \
	data/dmesg_ts.log data/dmesg_plain.log
expect_row "dmesg with CRLF line ends and no final newline" \
	tasklet_page_pool01_fast_path "157.24 157.24 60.57 60.57 1/1 n/a (need 4 samples)" \
	data/dmesg_crlf.log data/results_crlf.txt
bc data/dmesg_crlf.log data/dmesg_crlf.log
[ "$(row crlf_fallback)" = "12.00 12.00 4.80 4.80 1/1 n/a (need 4 samples)" ]
result $((! $?)) "dmesg: CRLF on a line cut after the printed ns"

L=data/legacy_cut.log
expect_row "legacy line complete: 1977272238 / 100000000 cycles" \
	cut_none "19.77 19.77 5.49 5.49 1/1 n/a (need 4 samples)" $L $L
for t in cut_after_ns cut_in_step cut_in_period cut_after_time_interval \
	 cut_in_invoke_count cut_in_tsc_interval cut_before_paren; do
	expect_row "legacy line $t: printed 19 cycles, 5.492 ns" \
		$t "19.00 19.00 5.49 5.49 1/1 n/a (need 4 samples)" $L $L
done
expect_row "legacy line with integer ns" \
	integer_ns "19.00 19.00 5.00 5.00 1/1 n/a (need 4 samples)" $L $L

# --- bad input: FILE:LINE: what, nothing on stdout, exit 2 ---------------------

E=data/legacy_err.log
expect_error "legacy cut after Type:" 2 \
	"bench-compare: $E:2: truncated legacy line: no test name" $E "$A1"
expect_error "legacy cut after the name" 2 \
	"bench-compare: $E:3: truncated legacy line: no cycles" $E "$A1"
expect_error "legacy cut in Per elem:" 2 \
	"bench-compare: $E:4: truncated legacy line: no cycles" $E "$A1"
expect_error "legacy cut after the cycles value" 2 \
	"bench-compare: $E:5: truncated legacy line: no cycles" $E "$A1"
expect_error "legacy cut in cycles(tsc)" 2 \
	"bench-compare: $E:6: truncated legacy line: no cycles" $E "$A1"
expect_error "legacy cut after cycles(tsc)" 2 \
	"bench-compare: $E:7: truncated legacy line: no ns" $E "$A1"
expect_error "legacy cut in the ns value" 2 \
	"bench-compare: $E:8: truncated legacy line: no ns" $E "$A1"
expect_error "legacy cut in the ns unit" 2 \
	"bench-compare: $E:9: truncated legacy line: no ns" $E "$A1"
expect_error "legacy line with non-numeric cycles" 2 \
	"bench-compare: $E:10: malformed legacy line: non-numeric cycles" $E "$A1"
expect_error "legacy line without Per elem:" 2 \
	"bench-compare: $E:11: malformed legacy line: expected \"Per elem: C cycles(tsc) N ns\" after the test name" \
	$E "$A1"
expect_error "legacy line with invoke count 0" 2 \
	"bench-compare: $E:12: legacy line with invoke count 0" $E "$A1"
expect_error "legacy line with non-numeric invoke count" 2 \
	"bench-compare: $E:13: malformed legacy line: non-numeric value after \"invoke count:\"" \
	$E "$A1"
expect_error "legacy line with an empty name" 2 \
	"bench-compare: $E:14: malformed legacy line: no test name after Type:" \
	$E "$A1"
bc "$A1" $E
[ "$rc" -eq 2 ] && [ "$(grep -c "^bench-compare: $E:" "$tmp/err")" -eq 13 ] &&
	! grep -q ":1:\|:15:" "$tmp/err" && [ ! -s "$tmp/out" ]
result $((! $?)) "every bad legacy line reported (13), in an AFTER file too"
expect_error "a single cut legacy line" 2 \
	"bench-compare: data/legacy_one_err.log:1: truncated legacy line: no cycles" \
	"$B1" data/legacy_one_err.log

R=data/results_err.txt
expect_error "test: line without name=" 2 \
	"bench-compare: $R:3: test: line without name=" $R "$A1"
expect_error "test: line without cycles" 2 \
	"bench-compare: $R:4: test no_cycles: no cycles (need cycles= and invoke_count=, or cycles_per_elem=)" \
	$R "$A1"
expect_error "non-numeric integer field" 2 \
	"bench-compare: $R:5: test bad_int: bad number in cycles=12x" $R "$A1"
expect_error "non-numeric decimal field" 2 \
	"bench-compare: $R:6: test bad_double: bad number in cycles_per_elem=1.5.3" \
	$R "$A1"
expect_error "samples count differs from reps" 2 \
	"bench-compare: $R:7: test bad_reps: cycles_samples has 4 values, reps=5" \
	$R "$A1"
expect_error "invoke_count=0" 2 \
	"bench-compare: $R:8: test zero_invokes: invoke_count=0" $R "$A1"
expect_error "empty value in a samples list" 2 \
	"bench-compare: $R:9: test empty_item: bad number in cycles_samples=1,,2" \
	$R "$A1"
expect_error "negative value" 2 \
	"bench-compare: $R:10: test negative: bad number in cycles_per_elem=-5" \
	$R "$A1"
expect_error "nan is no number" 2 \
	"bench-compare: $R:11: test not_a_number: bad number in cycles_per_elem=nan" \
	$R "$A1"
expect_error "field without =" 2 \
	"bench-compare: $R:12: malformed field 'bogus': expected key=value" $R "$A1"
expect_error "ns_samples count differs from reps" 2 \
	"bench-compare: $R:13: test ns_reps: ns_samples has 3 values, reps=2" \
	$R "$A1"
expect_error "exponent in an integer field" 2 \
	"bench-compare: $R:14: test bad_ns: bad number in ns=1e5" $R "$A1"
expect_error "unknown format number" 2 \
	"bench-compare: data/format3.txt:1: unsupported results format version 3 (supported: 1, 2)" \
	"$B1" data/format3.txt
bc "$B1" data/format3.txt
[ "$(wc -l <"$tmp/err")" -eq 1 ]
result $((! $?)) "test: lines under an unsupported format: no further errors"
expect_error "format line without version" 2 \
	"bench-compare: data/format_noversion.txt:1: bad format line: expected \"format: bench_page_pool_simple N\"" \
	data/format_noversion.txt "$A1"
expect_error "format line of another benchmark" 2 \
	"bench-compare: data/format_other.txt:1: bad format line: expected \"format: bench_page_pool_simple N\"" \
	data/format_other.txt "$A1"
expect_error "test: line before the format: line" 2 \
	"bench-compare: data/test_first.txt:1: test: line before any format: line" \
	data/test_first.txt "$A1"
expect_error "empty file" 2 \
	"bench-compare: no benchmark results in data/empty.txt" data/empty.txt "$A1"
expect_error "file with no results, only dmesg noise" 2 \
	"bench-compare: no benchmark results in data/noise.log" "$B1" data/noise.log
expect_error "empty standard input" 2 \
	"bench-compare: no benchmark results in <stdin>" "$B1" - </dev/null
expect_error "missing file" 2 \
	"bench-compare: data/missing.txt: cannot open: No such file or directory" \
	data/missing.txt "$A1"
expect_error "a directory" 2 \
	"bench-compare: data: read error: Is a directory" data "$A1"
expect_error "all bad files reported, the good one read" 2 \
	"bench-compare: no benchmark results in data/noise.log" \
	data/empty.txt "$B1" -- data/noise.log

for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25; do
	echo "time_bench: Type:t$i Per elem: x"
done >"$tmp/many.log"
bc "$tmp/many.log" "$A1"
[ "$rc" -eq 2 ] && [ "$(grep -c 'malformed legacy line' "$tmp/err")" -eq 20 ] &&
	grep -q "many.log: too many errors, skipping the rest$" "$tmp/err"
result $((! $?)) "at most 20 errors per file, then 'too many errors'"

bc "$BIN" "$A1"
[ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ]
result $((! $?)) "a binary file is rejected (exit 2), no crash"

# --- the --fail-above gate ------------------------------------------------------

GB=data/gate_before.txt
GA=data/gate_after.txt
bc --fail-above 5 $GB $GA
ok=1
[ "$rc" -eq 1 ] || { diag "exit status $rc, want 1"; ok=0; }
has err '^bench-compare: regression above 5%: slower_sig cycles/elem +10.50% (p=0.00794)$' ||
	ok=0
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { diag "more on stderr"; show_err; ok=0; }
has out '^slower_sig .* change$' || ok=0
result $ok "--fail-above 5: exit 1, only the significant +10.5% listed"
bc --fail-above 11 $GB $GA
[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]
result $((! $?)) "--fail-above 11: +10.5% is within, noise +30% and n/a +100% ignored"
bc $GB $GA
[ "$rc" -eq 0 ]
result $((! $?)) "no --fail-above: exit 0 despite regressions"
bc --fail-above 5 --alpha 0.005 $GB $GA
[ "$rc" -eq 0 ] && has out '^slower_sig .* n/a (need 6 samples)$'
result $((! $?)) "--fail-above with a regression that cannot be significant: exit 0"
bc --fail-above=20 $GA $GB
[ "$rc" -eq 1 ] && has err 'regression above 20%: faster_sig cycles/elem +33.33%' &&
	[ "$(wc -l <"$tmp/err")" -eq 1 ]
result $((! $?)) "--fail-above 20, sides swapped: the -25% becomes +33.33%, exit 1"
bc --fail-above 0 $GB $GB
[ "$rc" -eq 0 ]
result $((! $?)) "--fail-above 0 on identical runs: exit 0"

# --- command line -----------------------------------------------------------------

bc --help
ok=1
[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] || { diag "exit status $rc"; ok=0; }
for s in NAME SYNOPSIS DESCRIPTION OPTIONS INPUT OUTPUT "EXIT STATUS" EXAMPLES; do
	has out "^$s\$" || ok=0
done
result $ok "--help: man page sections on stdout, exit 0"
bc -h
[ "$rc" -eq 0 ] && has out '^SYNOPSIS$'
result $((! $?)) "-h is --help"

expect_error "no arguments" 2 "bench-compare: need a BEFORE and an AFTER file"
has err "^Try 'bench-compare --help' for more.\$"
result $((! $?)) "usage errors point to --help"
expect_error "one file" 2 "bench-compare: need a BEFORE and an AFTER file" "$B1"
expect_error "three files without --" 2 \
	"bench-compare: more than two files: separate BEFORE... and AFTER... with --" \
	"$B1" "$A1" "$A1"
expect_error "nothing after --" 2 "bench-compare: no AFTER file after --" \
	"$B1" --
expect_error "nothing before --" 2 "bench-compare: no BEFORE file before --" \
	-- "$A1"
expect_error "unknown format" 2 \
	"bench-compare: unknown format 'html' (text, markdown or org)" \
	-f html "$B1" "$A1"
expect_error "alpha 0" 2 "bench-compare: bad --alpha '0': need 0 < A < 1" \
	--alpha 0 "$B1" "$A1"
expect_error "alpha 1" 2 "bench-compare: bad --alpha '1': need 0 < A < 1" \
	--alpha=1 "$B1" "$A1"
expect_error "alpha not a number" 2 \
	"bench-compare: bad --alpha '5%': need 0 < A < 1" --alpha 5% "$B1" "$A1"
expect_error "negative --fail-above" 2 \
	"bench-compare: bad --fail-above '-1': need a percentage >= 0" \
	--fail-above -1 "$B1" "$A1"
expect_error "unknown option" 2 "bench-compare: unknown option '--bogus'" \
	--bogus "$B1" "$A1"
expect_error "option without its value" 2 \
	"bench-compare: option '--alpha' needs a value" "$B1" "$A1" --alpha
expect_error "standard input twice" 2 \
	"bench-compare: standard input ('-') given twice" - -- - </dev/null
bc data/gate_before.txt data/per_elem_f1.txt
[ "$rc" -eq 0 ] && has out '^no test present on both sides$' &&
	has out '^only in before: slower_sig$' &&
	has out '^only in after: cycles_only$'
result $((! $?)) "no test in common: said so, exit 0"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
