#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of bench-compare, printing KTAP (../../../ktap_lib.sh): its unit
# tests as a subtest, then end-to-end cases on the inputs in data/
# (grouping into loads, parsers, verdicts, output formats, exit status).
#
#   sh tests/run.sh BENCH_COMPARE UNIT_TEST FUZZ
#
# The plan is counted before anything runs: every function named in
# TESTS reports exactly one result, and so does every line of
# error_cases; ktap_finished fails if that count was wrong.

# The test functions are called through $TESTS and error_cases' $1.
# shellcheck disable=SC2317

[ $# -eq 3 ] || { echo "usage: $0 BENCH_COMPARE UNIT_TEST FUZZ" >&2; exit 2; }
abspath() {
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s\n' "$(pwd)/$1" ;;
	esac
}
BIN=$(abspath "$1")
UNIT=$(abspath "$2")
FUZZ=$(abspath "$3")
cd "$(dirname "$0")" || exit 2
# shellcheck source=../../../ktap_lib.sh
. ../../../ktap_lib.sh
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

B1=data/before_f1.txt
A1=data/after_f1.txt
B2=data/before_f2.txt
A2=data/after_f2.txt
AB=data/ab_before.txt
AA=data/ab_after.txt
DO=data/dmesg_overhead.log
E=data/legacy_err.log
R=data/results_err.txt
FAST=tasklet_page_pool01_fast_path

diag() {
	ktap_print_msg "  $*"
}

# bc ARGS...: runs bench-compare; sets $rc, output in $tmp/out and $tmp/err
bc() {
	"$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

show_err() {
	head -n 5 "$tmp/err" | while IFS= read -r l; do diag "stderr: $l"; done
}

# ok_if DESC: passes if the last command (a list of checks) succeeded
ok_if() {
	if [ "$1" -eq 0 ]; then
		ktap_test_pass "$2"
	else
		ktap_test_fail "$2"
	fi
}

# rc_is N: the last bench-compare exited with N
rc_is() {
	[ "$rc" -eq "$1" ] && return 0
	diag "exit status $rc, want $1"
	show_err
	return 1
}

# has WHERE PATTERN: grep -q -e PATTERN on $tmp/WHERE, with a diagnostic
has() {
	grep -q -e "$2" "$tmp/$1" && return 0
	diag "no '$2' in $1"
	return 1
}

# hasx WHERE LINE: the whole line LINE is in $tmp/WHERE
hasx() {
	grep -qxF -e "$2" "$tmp/$1" && return 0
	diag "no line '$2' in $1"
	show_err
	return 1
}

# row TEST: "BEFORE AFTER NS-BEFORE NS-AFTER LOADS VERDICT" of TEST in
# the text table of the last run, found by the headers (cells are
# separated by two blanks or more); "-" for a column the table leaves
# out (ns under instructions; loads, p and verdict when they add
# nothing: the footer then says why).
row() {
	awk -v t="$1" 'BEGIN { FS = "  +" }
	function cell(i) { return i ? $i : "-" }
	!hdr && $1 == "test" {
		for (i = 1; i <= NF; i++) {
			if ($i ~ / before$/ && $i != "ns before")
				cb = i
			if ($i ~ / after$/ && $i != "ns after")
				ca = i
			col[$i] = i
		}
		hdr = 1
		next
	}
	hdr && $1 == t {
		print cell(cb), cell(ca), cell(col["ns before"]),
		      cell(col["ns after"]), cell(col["loads"]),
		      cell(col["verdict"])
		exit
	}' "$tmp/out"
}

# row_is TEST WANT: row(TEST) is WANT and the run exited with 0
row_is() {
	got=$(row "$1")
	rc_is 0 || return 1
	[ "$got" = "$2" ] && return 0
	diag "row $1: '$got'"
	diag "want:   '$2'"
	return 1
}

# expect_row DESC TEST WANT ARGS...
expect_row() {
	desc=$1 test=$2 want=$3
	shift 3
	bc "$@"
	row_is "$test" "$want"
	ok_if $? "$desc"
}

# same_as FILE: stdout is FILE, nothing on stderr, exit 0
same_as() {
	rc_is 0 || return 1
	if [ -s "$tmp/err" ]; then
		diag "stderr not empty"
		show_err
		return 1
	fi
	diff -u "$1" "$tmp/out" >"$tmp/diff" && return 0
	while IFS= read -r l; do diag "$l"; done <"$tmp/diff"
	return 1
}

# expect_error DESC RC LINE ARGS...: exit status RC, LINE (whole) on
# stderr, nothing on stdout
expect_error() {
	desc=$1 want_rc=$2 line=$3
	shift 3
	bc "$@"
	ok=0
	rc_is "$want_rc" || ok=1
	hasx err "$line" || ok=1
	if [ -s "$tmp/out" ]; then
		diag "output on stdout despite the error"
		ok=1
	fi
	ok_if "$ok" "$desc"
}

# error_cases CALLBACK: CALLBACK DESC RC STDERR-LINE ARGS... per case
error_cases() {
	$1 "legacy cut after Type:" 2 \
		"bench-compare: $E:2: truncated legacy line: no test name" "$E" "$A1"
	$1 "legacy cut after the name" 2 \
		"bench-compare: $E:3: truncated legacy line: no cycles" "$E" "$A1"
	$1 "legacy cut in Per elem:" 2 \
		"bench-compare: $E:4: truncated legacy line: no cycles" "$E" "$A1"
	$1 "legacy cut after the cycles value" 2 \
		"bench-compare: $E:5: truncated legacy line: no cycles" "$E" "$A1"
	$1 "legacy cut in cycles(tsc)" 2 \
		"bench-compare: $E:6: truncated legacy line: no cycles" "$E" "$A1"
	$1 "legacy cut after cycles(tsc)" 2 \
		"bench-compare: $E:7: truncated legacy line: no ns" "$E" "$A1"
	$1 "legacy cut in the ns value" 2 \
		"bench-compare: $E:8: truncated legacy line: no ns" "$E" "$A1"
	$1 "legacy cut in the ns unit" 2 \
		"bench-compare: $E:9: truncated legacy line: no ns" "$E" "$A1"
	$1 "legacy line with non-numeric cycles" 2 \
		"bench-compare: $E:10: malformed legacy line: non-numeric cycles" \
		"$E" "$A1"
	$1 "legacy line without Per elem:" 2 \
		"bench-compare: $E:11: malformed legacy line: expected \"Per elem: C cycles(tsc) N ns\" after the test name" \
		"$E" "$A1"
	$1 "legacy line with invoke count 0" 2 \
		"bench-compare: $E:12: legacy line with invoke count 0" "$E" "$A1"
	$1 "legacy line with non-numeric invoke count" 2 \
		"bench-compare: $E:13: malformed legacy line: non-numeric invoke count" \
		"$E" "$A1"
	$1 "legacy line with an empty name" 2 \
		"bench-compare: $E:14: malformed legacy line: no test name after Type:" \
		"$E" "$A1"
	$1 "a single cut legacy line" 2 \
		"bench-compare: data/legacy_one_err.log:1: truncated legacy line: no cycles" \
		"$B1" data/legacy_one_err.log
	$1 "test: line without name=" 2 \
		"bench-compare: $R:3: test: line without name=TEST first" "$R" "$A1"
	$1 "test: line without cycles" 2 \
		"bench-compare: $R:4: test no_cycles: no cycles (need cycles= and invoke_count=, or cycles_per_elem=)" \
		"$R" "$A1"
	$1 "non-numeric integer field" 2 \
		"bench-compare: $R:5: test bad_int: bad number in cycles=12x" "$R" "$A1"
	$1 "non-numeric decimal field" 2 \
		"bench-compare: $R:6: test bad_double: bad number in cycles_per_elem=1.5.3" \
		"$R" "$A1"
	$1 "samples count differs from reps" 2 \
		"bench-compare: $R:7: test bad_reps: cycles_samples has 4 values, reps=5" \
		"$R" "$A1"
	$1 "invoke_count=0" 2 \
		"bench-compare: $R:8: test zero_invokes: invoke_count=0" "$R" "$A1"
	$1 "empty value in a samples list" 2 \
		"bench-compare: $R:9: test empty_item: bad number in cycles_samples=1,,2" \
		"$R" "$A1"
	$1 "negative value" 2 \
		"bench-compare: $R:10: test negative: bad number in cycles_per_elem=-5" \
		"$R" "$A1"
	$1 "nan is no number" 2 \
		"bench-compare: $R:11: test not_a_number: bad number in cycles_per_elem=nan" \
		"$R" "$A1"
	$1 "field without =" 2 \
		"bench-compare: $R:12: malformed field 'bogus': expected key=value (a key of a-z, 0-9 and _, a value)" \
		"$R" "$A1"
	$1 "ns_samples count differs from reps" 2 \
		"bench-compare: $R:13: test ns_reps: ns_samples has 3 values, reps=2" \
		"$R" "$A1"
	$1 "exponent in an integer field" 2 \
		"bench-compare: $R:14: test bad_ns: bad number in ns=1e5" "$R" "$A1"
	$1 "unknown format number" 2 \
		"bench-compare: data/format5.txt:1: unsupported results format version 5 (supported: 1 to 4)" \
		"$B1" data/format5.txt
	$1 "format line without version" 2 \
		"bench-compare: data/format_noversion.txt:1: bad format line: expected \"format: bench_page_pool_simple N\"" \
		data/format_noversion.txt "$A1"
	$1 "format line of another benchmark" 2 \
		"bench-compare: data/format_other.txt:1: bad format line: expected \"format: bench_page_pool_simple N\"" \
		data/format_other.txt "$A1"
	$1 "test: line before the format: line" 2 \
		"bench-compare: data/test_first.txt:1: test: line before any format: line" \
		data/test_first.txt "$A1"
	$1 "empty file" 2 \
		"bench-compare: no benchmark results in data/empty.txt" \
		data/empty.txt "$A1"
	$1 "file with no results, only dmesg noise" 2 \
		"bench-compare: no benchmark results in data/noise.log" \
		"$B1" data/noise.log
	$1 "missing file" 2 \
		"bench-compare: data/missing.txt: cannot open: No such file or directory" \
		data/missing.txt "$A1"
	$1 "a directory without results files" 2 \
		"bench-compare: data: no *.results file in the directory" data "$A1"
	$1 "all bad files reported, the good one read" 2 \
		"bench-compare: no benchmark results in data/noise.log" \
		data/empty.txt "$B1" -- data/noise.log
	strict_cases "$1"
	words_cases "$1"
	clock_cases "$1"
	profile_cases "$1"
	U=data/upstream_err.txt
	$1 "upstream's trimmed line cut short" 2 \
		"bench-compare: $U:1: truncated legacy line: no ns" "$U" "$A1"
	$1 "upstream's trimmed line with more after it" 2 \
		"bench-compare: $U:2: malformed legacy line: expected \"Per elem: C cycles(tsc) N ns\" after the test name" \
		"$U" "$A1"
	$1 "upstream's dmesg line cut after its ns" 2 \
		"bench-compare: $U:3: truncated legacy line: no step" "$U" "$A1"
	$1 "upstream's trimmed line with non-numeric cycles" 2 \
		"bench-compare: $U:4: malformed legacy line: expected \"Per elem: C cycles(tsc) N ns\" after the test name" \
		"$U" "$A1"
	$1 "usage: no arguments" 2 \
		"bench-compare: need a BEFORE and an AFTER file"
	$1 "usage: one file" 2 \
		"bench-compare: need a BEFORE and an AFTER file" "$B1"
	$1 "usage: three files without --" 2 \
		"bench-compare: more than two files: separate BEFORE... and AFTER... with --" \
		"$B1" "$A1" "$A1"
	$1 "usage: nothing after --" 2 \
		"bench-compare: no AFTER file after --" "$B1" --
	$1 "usage: nothing before --" 2 \
		"bench-compare: no BEFORE file before --" -- "$A1"
	$1 "usage: unknown format" 2 \
		"bench-compare: unknown format 'html' (text, markdown, org, json or kcidb)" \
		-f html "$B1" "$A1"
	$1 "usage: --alpha 0" 2 \
		"bench-compare: bad --alpha '0': need 0 < A < 1" --alpha 0 "$B1" "$A1"
	$1 "usage: --alpha=1" 2 \
		"bench-compare: bad --alpha '1': need 0 < A < 1" --alpha=1 "$B1" "$A1"
	$1 "usage: --alpha below the smallest accepted (alpha / rows underflowed)" 2 \
		"bench-compare: bad --alpha '5e-324': the smallest accepted is 1e-12" \
		--alpha 5e-324 "$B1" "$A1"
	$1 "usage: --alpha not a number" 2 \
		"bench-compare: bad --alpha '5%': need 0 < A < 1" --alpha 5% "$B1" "$A1"
	$1 "usage: negative --fail-above" 2 \
		"bench-compare: bad --fail-above '-1': need a percentage >= 0" \
		--fail-above -1 "$B1" "$A1"
	$1 "usage: bad --load-stat" 2 \
		"bench-compare: bad --load-stat 'mean': min or median" \
		--load-stat mean "$B1" "$A1"
	$1 "usage: --plot with a bad suffix" 2 \
		"bench-compare: bad --plot 'x.pdf': the name must end in .svg or .png" \
		--plot x.pdf "$B1" "$A1"
	$1 "usage: unknown option" 2 \
		"bench-compare: unknown option '--bogus'" --bogus "$B1" "$A1"
	$1 "usage: option without its value" 2 \
		"bench-compare: option '--alpha' needs a value" "$B1" "$A1" --alpha
}

# Issue 15: one strictness for every parser. Cut lines, numbers beyond
# what a u64 per element can be, NUL bytes and control characters are
# errors naming FILE:LINE, exit 2, no table.
strict_cases() {
	S=data/strict_err.txt
	L=data/legacy_strict.log
	$1 "cycles_per_elem=1e999 is out of range" 2 \
		"bench-compare: $S:2: test big: number out of range in cycles_per_elem=1e999" \
		"$S" "$A1"
	$1 "a value beyond a u64 per element is out of range" 2 \
		"bench-compare: $S:3: test huge: number out of range in cycles_per_elem=18446744073709551617000" \
		"$S" "$A1"
	$1 "an integer field beyond a u64 is out of range" 2 \
		"bench-compare: $S:4: test over_int: number out of range in cycles=99999999999999999999999" \
		"$S" "$A1"
	$1 "cycles_per_elem must agree with cycles/invoke_count" 2 \
		"bench-compare: $S:5: test disagree: cycles_per_elem=99.000 disagrees with cycles/invoke_count = 100.000000" \
		"$S" "$A1"
	$1 "a field given twice" 2 \
		"bench-compare: $S:6: field cycles_per_elem= given twice" "$S" "$A1"
	$1 "a repetition out of range" 2 \
		"bench-compare: $S:7: test bad_sample: number out of range in cycles_samples=1,1e400" \
		"$S" "$A1"
	$1 "a test name that is not ASCII" 2 \
		"bench-compare: $S:8: test name holds the byte 0xc3: a test name is letters, digits, _ and -" \
		"$S" "$A1"
	$1 "an escape sequence in a results line" 2 \
		"bench-compare: $S:9: test: line holds a control or non-printable byte 0x1b at column 13" \
		"$S" "$A1"
	FC=data/format_ctrl.txt
	$1 "U+202E (right-to-left override) in an environment value" 2 \
		"bench-compare: $FC:2: results line holds a Unicode format control U+202E (bidi, invisible or line break) at column 13" \
		"$FC" "$A1"
	$1 "U+2028 (line separator) in an environment value" 2 \
		"bench-compare: $FC:3: results line holds a Unicode format control U+2028 (bidi, invisible or line break) at column 16" \
		"$FC" "$A1"
	$1 "U+FEFF (byte order mark) in an environment value" 2 \
		"bench-compare: $FC:4: results line holds a Unicode format control U+FEFF (bidi, invisible or line break) at column 10" \
		"$FC" "$A1"
	$1 "U+2066 (left-to-right isolate) in an environment value" 2 \
		"bench-compare: $FC:5: results line holds a Unicode format control U+2066 (bidi, invisible or line break) at column 12" \
		"$FC" "$A1"
	$1 "U+061C (Arabic letter mark) in an environment value" 2 \
		"bench-compare: $FC:6: results line holds a Unicode format control U+061C (bidi, invisible or line break) at column 16" \
		"$FC" "$A1"
	$1 "U+200F (right-to-left mark) in an environment value" 2 \
		"bench-compare: $FC:7: results line holds a Unicode format control U+200F (bidi, invisible or line break) at column 13" \
		"$FC" "$A1"
	$1 "a NUL byte in a results line" 2 \
		"bench-compare: $S:10: NUL byte in the line" "$S" "$A1"
	V=data/value_err.txt
	$1 "1e-400 underflows: out of range, as 1e400 is" 2 \
		"bench-compare: $V:2: test under: number out of range in cycles_per_elem=1e-400" \
		"$V" "$A1"
	$1 "a value below one count over a u64 of elements is out of range" 2 \
		"bench-compare: $V:3: test tiny: number out of range in cycles_per_elem=0.00000000000000000001e-10" \
		"$V" "$A1"
	$1 "u64 max is no double: refused, not shown as ...616" 2 \
		"bench-compare: $V:4: test u64max: number a double cannot hold as written (too many digits) in cycles_per_elem=18446744073709551615" \
		"$V" "$A1"
	$1 "a value with more digits than a double holds" 2 \
		"bench-compare: $V:5: test digits: number a double cannot hold as written (too many digits) in ns_per_elem=1.00000000000000001" \
		"$V" "$A1"
	$1 "a legacy ns with more digits than a double holds" 2 \
		"bench-compare: data/legacy_inexact.log:1: malformed legacy line: ns has more digits than a double holds" \
		"$A1" data/legacy_inexact.log
	$1 "1e999 ns in a legacy line is out of range" 2 \
		"bench-compare: $L:1: malformed legacy line: ns out of range" \
		"$A1" "$L"
	$1 "a legacy line's cycles must be floor(tsc_interval/invoke count)" 2 \
		"bench-compare: $L:2: legacy line: 20 cycles(tsc) is not tsc_interval/invoke count = 19" \
		"$A1" "$L"
	$1 "an escape sequence in a legacy test name" 2 \
		"bench-compare: $L:3: legacy line holds a control or non-printable byte 0x1b at column 36" \
		"$A1" "$L"
	$1 "a NUL byte in a legacy line" 2 \
		"bench-compare: $L:4: NUL byte in the line" "$A1" "$L"
	$1 "legacy cycles beyond a u64" 2 \
		"bench-compare: $L:5: malformed legacy line: cycles out of range" \
		"$A1" "$L"
	$1 "a legacy line without its final newline" 2 \
		"bench-compare: data/legacy_eofcut.log:2: legacy line cut short: no newline at its end" \
		"$A1" data/legacy_eofcut.log
	$1 "a results line without its final newline (cut after cycles=5222)" 2 \
		"bench-compare: data/f3_eofcut.txt:16: test: line cut short: no newline at its end" \
		data/f3_eofcut.txt data/f3_after.txt
	$1 "format 3: a test: line without a field the module always writes" 2 \
		"bench-compare: data/f3_nofield.txt:16: test tasklet_page_pool01_fast_path: no ns= (format 3 always has it: cut short?)" \
		data/f3_nofield.txt data/f3_after.txt
	$1 "format 3: a block without its end: line" 2 \
		"bench-compare: data/f3_noend.txt:1: results block cut short: no end: line" \
		data/f3_before.txt -- data/f3_noend.txt
	$1 "format 3: end: counts that disagree" 2 \
		"bench-compare: data/f3_count.txt:19: end: line says tests=3, the block has 2 test: lines (cut short?)" \
		data/f3_count.txt data/f3_after.txt
}

# Issue 21: one grammar with results_lib.sh's results_check. Test names
# are 1 to 64 letters, digits, _ and -; the words of test:, skip:, cpu:
# (and prof:) lines are name=TEST, then key=value, a key of a-z, 0-9
# and _, a value, no key twice; every line of a block is KEY: text.
words_cases() {
	W=data/words_err.txt
	for c in "3|a '.' in a test name|test name holds the byte 0x2e: a test name is letters, digits, _ and -" \
		"4|a test name of 65 bytes|test name of 65 bytes: at most 64" \
		"5|a key with a capital|malformed field 'Foo=1': expected key=value (a key of a-z, 0-9 and _, a value)" \
		"6|an empty value|malformed field 'foo=': expected key=value (a key of a-z, 0-9 and _, a value)" \
		"7|an unknown key twice|field foo= given twice" \
		"8|name= twice|field name= given twice" \
		"9|a skip: line without its reason|skip: line without reason=" \
		"10|a skip: line of a name that is none|test name holds the byte 0x2e: a test name is letters, digits, _ and -" \
		"11|a key twice in a cpu: line|field cpu= given twice" \
		"12|a selected: name that is none|test name holds the byte 0x2f: a test name is letters, digits, _ and -" \
		"13|a control character in a line of an unknown key|results line holds a control or non-printable byte 0x01 at column 13" \
		"14|KEY: without its blank|expected a \"KEY: value\" line in a results block" \
		"16|an empty reason=|malformed field 'reason=': expected key=value (a key of a-z, 0-9 and _, a value)" \
		"17|a key starting with a digit|malformed field '9a=1': expected key=value (a key of a-z, 0-9 and _, a value)"; do
		line=${c%%|*} rest=${c#*|}
		$1 "grammar: ${rest%%|*}" 2 "bench-compare: $W:$line: ${rest#*|}" \
			"$W" "$A1"
	done
	W=data/f3_words_err.txt
	for c in "3|an accel: of no accelerator|unknown accel 'qemu': none, kvm, tcg or other" \
		"7|a format 3 block without accel:|format 3 block without an accel: line" \
		"11|an end: line with a word more|expected \"end: tests=N skips=N\"" \
		"12|format version 03|unsupported results format version 03 (supported: 1 to 4)"; do
		line=${c%%|*} rest=${c#*|}
		$1 "grammar: ${rest%%|*}" 2 "bench-compare: $W:$line: ${rest#*|}" \
			"$W" data/f3_after.txt
	done
}

# The exact profile of format 4: each malformed or misplaced line of
# data/f4_err.txt and data/f4_err2.txt is refused on its own, FILE:LINE.
profile_cases() {
	P=data/f4_err.txt
	Q=data/f4_err2.txt
	$1 "profile: a function given twice for a test in one load" 2 \
		"bench-compare: $P:13: prof_fn: test pa: function f1 given twice in this block (also at line 12)" \
		"$P" data/f4_one.txt
	$1 "profile: a prof: line given twice for a test in one load" 2 \
		"bench-compare: $P:14: prof: test pa given twice in this block (also at line 11)" \
		"$P" data/f4_one.txt
	$1 "profile: a prof: line of a test without a test: line" 2 \
		"bench-compare: $P:15: prof: test nosuch has no test: line in this block" \
		"$P" data/f4_one.txt
	$1 "profile: a count without its three decimals" 2 \
		"bench-compare: $P:16: prof: test pb: bad number in insns=1.5 (a count per element has 3 decimals)" \
		"$P" data/f4_one.txt
	$1 "profile: a count out of range" 2 \
		"bench-compare: $P:17: prof: test pb: number out of range in insns=99999999999999999.000" \
		"$P" data/f4_one.txt
	$1 "profile: a prof: line without one of its counts" 2 \
		"bench-compare: $P:18: prof: test pc: no llc_miss= (format 4 always has it: cut short?)" \
		"$P" data/f4_one.txt
	$1 "profile: a test profiled in no window" 2 \
		"bench-compare: $P:19: prof: test pd: windows=0 (a profiled test ran in a window)" \
		"$P" data/f4_one.txt
	$1 "profile: functions that do not add up to the test (a prof_fn: line lost)" 2 \
		"bench-compare: $P:20: prof: test pe: its functions' insns add up to 4.000, not 10.000 (a prof_fn: line lost?)" \
		"$P" data/f4_one.txt
	$1 "profile: a function that is no kernel symbol" 2 \
		"bench-compare: $P:23: prof_fn: test pg: fn=bad/name is no function (a kernel symbol, [module] after it, or ?)" \
		"$P" data/f4_one.txt
	$1 "profile: a prof_fn: line away from its test's prof: line" 2 \
		"bench-compare: $P:24: prof_fn: test pa after other tests' prof: lines (its prof_fn: lines follow its prof: line)" \
		"$P" data/f4_one.txt
	$1 "profile: a test: line after the prof: lines" 2 \
		"bench-compare: $P:25: test: line after the block's prof: lines (format 4 profiles follow every test: line)" \
		"$P" data/f4_one.txt
	$1 "profile: a second profile: line in one load" 2 \
		"bench-compare: $P:26: profile: line given twice in its block" \
		"$P" data/f4_one.txt
	$1 "profile: a test of a format 4 load without its prof: line" 2 \
		"bench-compare: $Q:9: test qb has no prof: line (format 4 profiles every test of its block)" \
		"$Q" data/f4_one.txt
	$1 "profile: a prof_fn: line before its test's prof: line" 2 \
		"bench-compare: $Q:14: prof_fn: test ra before its prof: line" \
		"$Q" data/f4_one.txt
	$1 "profile: a prof: line of a test of another load only" 2 \
		"bench-compare: $Q:17: prof: test qa has no test: line in this block" \
		"$Q" data/f4_one.txt
	$1 "profile: a format 4 load without its profile: line" 2 \
		"bench-compare: $Q:18: format 4 block without a profile: line" \
		"$Q" data/f4_one.txt
	$1 "profile: a prof: line in a format 3 block" 2 \
		"bench-compare: $Q:23: prof: line in a format 3 block (profiles come with format 4)" \
		"$Q" data/f4_one.txt
	$1 "profile: a prof_fn: line after the end: line" 2 \
		"bench-compare: $Q:25: a line after the end: line" \
		"$Q" data/f4_one.txt
	$1 "profile: the profile: line after the prof: lines" 2 \
		"bench-compare: $Q:32: profile: line after the block's prof: lines" \
		"$Q" data/f4_one.txt
	$1 "profile: a malformed profile: line" 2 \
		"bench-compare: $Q:38: bad profile: line: expected \"profile: l1i=SIZE:WAYS l1d=SIZE:WAYS llc=SIZE:WAYS line=BYTES\"" \
		"$Q" data/f4_one.txt
}

# Issue 14: numbers of two clocks are never compared.
clock_cases() {
	$1 "results files of two clocks" 2 \
		"bench-compare: loads of different clocks cannot be compared: data/f3_before.txt:1 counts cycles, data/icount_after.txt:1 instructions" \
		data/f3_before.txt data/icount_after.txt
	$1 "a dmesg log without instrument lines against one with them" 2 \
		"bench-compare: loads of different clocks cannot be compared: data/dmesg_ts.log:5 counts cycles, data/dmesg_instrument.log:1 instructions" \
		data/dmesg_ts.log data/dmesg_instrument.log
	$1 "an instrument line with an unknown clock" 2 \
		"bench-compare: data/instrument_err.log:1: malformed instrument line: expected \"instrument: clock=instructions|cycles accel=WORD\"" \
		data/instrument_err.log data/icount_after.txt
	$1 "an instrument line without accel=" 2 \
		"bench-compare: data/instrument_err.log:2: malformed instrument line: expected \"instrument: clock=instructions|cycles accel=WORD\"" \
		data/instrument_err.log data/icount_after.txt
	$1 "format 3: a block without its clock: line" 2 \
		"bench-compare: data/f3_noclock.txt:18: format 3 block without a clock: line" \
		data/f3_noclock.txt data/f3_after.txt
}

# --- tests reporting one result each ----------------------------------------

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

# Issue 15 item 3: a gate that judged nothing fails.
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

# Issue 15 item 2: what a table prints agrees with what it computed.
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
		hang) body='sleep 5' ;;
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

# Issue 16: upstream's lines, exactly as its module and test script
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

# jq_is WHAT EXPR: jq -e EXPR holds on the JSON of the last run
jq_is() {
	jq -e "$2" "$tmp/out" >/dev/null 2>"$tmp/jq" && return 0
	diag "$1: jq -e '$2' is false ($(head -n 1 "$tmp/jq"))"
	return 1
}

# Issue 16 item 3: -f json, read back with jq.
t_json() {
	if ! command -v jq >/dev/null 2>&1; then
		ktap_test_fail "-f json parses with jq (jq not installed: make check needs it)"
		return
	fi
	ok=0
	bc -f json "$AB" "$AA"
	rc_is 0 || ok=1
	jq_is settings '.format == "bench-compare 1" and .settings == {"clock": "cycles", "load_stat": "min", "alpha": 0.05, "interval_level_percent": 95, "pct_change_of": "ns"} and .loads == {"before": 6, "after": 6} and .environment_differences == [] and .only_in == {"before": [], "after": []}' ||
		ok=1
	jq_is "change row" ".rows | length == 3 and .[0] == {\"test\": \"$FAST\", \"cycles\": {\"before\": 100.35, \"after\": 110.35, \"diff\": 10, \"ci\": [9.7, 10.3]}, \"ns\": {\"before\": 38.735, \"after\": 42.595, \"diff\": 3.86}, \"ns_loads\": {\"before\": 6, \"after\": 6}, \"pct_change\": 9.97, \"null_reason\": null, \"loads\": {\"before\": 6, \"after\": 6}, \"p_raw\": 0.00216450, \"p_holm\": 0.00649351, \"verdict\": \"change\", \"need_loads\": null}" ||
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

# -f kcidb: a document KCIDB's rules accept (../../kcidb-check.py), one
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
	python3 ../../kcidb-check.py "$tmp/kcidb.json" >"$tmp/check" 2>&1 ||
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
	python3 ../../kcidb-check.py "$tmp/bad.json" >"$tmp/check" 2>&1
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
	ok_if "$ok" "-f kcidb: a KCIDB v5.3 document (tools/kcidb-check.py, which finds a bad status, property and link), a test a row with the median of the loads, the skipped one a SKIP with its reason, the same ids again; two kernels refused"
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

TESTS="t_unit t_golden t_option_forms t_text_header t_org_valid t_md_rule
t_loads_results t_loads_dmesg_overhead t_loads_dmesg_repeat t_loads_files
t_loads_mixed t_ignored_lines t_need_loads t_change_noise t_env t_env_many
t_precision
t_fail_above t_fail_above_within t_gate_nothing t_half_units t_no_overflow
t_level t_alpha_edges t_load_stat t_plot t_plot_hostile
t_plot_cannot t_plot_many t_formats_1 t_legacy_cut t_format3
t_all_legacy_errors t_format3_quiet t_many_errors t_binary t_stdin_twice
t_empty_stdin t_help t_nothing_common t_fuzz_detects t_instructions
t_plot_instructions t_dir_side t_env_new_lines t_upstream_dmesg
t_upstream_script t_seed_org t_org_formula t_json t_cell_escape t_json_hostile
t_format4 t_profile_ignored t_profile_ab t_profile_aa t_profile_one_side
t_profile_json t_line_limit t_dev_zero t_read_error t_ns_some_loads
t_ns_some_loads_gate t_ns_some_loads_json t_kcidb t_check"

nr_errors=0
count_case() {
	nr_errors=$((nr_errors + 1))
}
error_cases count_case
nr_tests=0
for t in $TESTS; do
	nr_tests=$((nr_tests + 1))
done

ktap_print_header
ktap_set_plan $((nr_tests + nr_errors))
for t in $TESTS; do
	"$t"
done
error_cases expect_error
ktap_finished
