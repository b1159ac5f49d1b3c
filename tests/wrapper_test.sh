#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host-side tests that need no module: results_lib.sh's readers and its
# whole-file check, on results files written by hand in format 3
# (tests/wrapper_data); test_bench_page_pool.sh's usage errors and
# skips.  Prints KTAP.
#
# The wrapper runs from a copy in a fresh folder that every user may
# enter, as the kselftest install would be: the checkout itself may sit
# where other users cannot (a 0700 home, a mktemp -d folder), and the
# "not root" case runs it as nobody.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
DATA=$TOP/tests/wrapper_data
. "$TOP/ktap_lib.sh"
. "$TOP/results_lib.sh"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM
chmod 755 "$dir"
for f in test_bench_page_pool.sh ktap_lib.sh results_lib.sh splat_patterns; do
	cp "$TOP/$f" "$dir/" && chmod 644 "$dir/$f" || exit 1
done
WRAPPER=$dir/test_bench_page_pool.sh
ICOUNT=$DATA/icount.results	# QEMU -icount: clock instructions
TCG=$DATA/tcg.results		# TCG without -icount: emulated cycles
out=$dir/out

show() {	# why
	ktap_print_msg "$1; output:"
	sed 's/^/#   /' "$out"
}

# The command exits with STATUS and prints a line matching PATTERN.
expect() {	# description status pattern command...
	desc=$1 want=$2 pattern=$3
	shift 3
	"$@" >"$out" 2>&1
	got=$?
	if [ "$got" = "$want" ] && grep -Eq -- "$pattern" "$out"; then
		ktap_test_pass "$desc"
	else
		show "exit $got, want $want and a line matching '$pattern'"
		ktap_test_fail "$desc"
	fi
}

# The wrapper's KTAP: exit STATUS, exactly NOT_OK failed lines, one line
# matching PATTERN (empty: any), and a plan that agrees with what ran.
expect_ktap() {	# description status not_ok pattern wrapper-args...
	desc=$1 want=$2 not_ok=$3 pattern=$4
	shift 4
	sh "$WRAPPER" "$@" >"$out" 2>&1
	got=$?
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out")
	ran=$(grep -Ec '^(not )?ok [0-9]+ ' "$out")
	failed=$(grep -c '^not ok ' "$out")
	if [ "$got" = "$want" ] && [ "$failed" = "$not_ok" ] &&
	   [ "$plan" = "$ran" ] &&
	   { [ -z "$pattern" ] || grep -Eq -- "$pattern" "$out"; }; then
		ktap_test_pass "$desc"
	else
		show "exit $got (want $want), $failed not ok (want $not_ok), plan ${plan:-none} for $ran, pattern '$pattern'"
		ktap_test_fail "$desc"
	fi
}

# A copy of a results file with a sed script applied: a hand-made fault.
variant() {	# name sed-script [source]
	sed "$2" "${3:-$ICOUNT}" >"$dir/$1" || exit 1
	cmp -s "$dir/$1" "${3:-$ICOUNT}" &&
		{ echo "variant $1: the edit changed nothing" >&2; exit 1; }
	echo "$dir/$1"
}

# Text file under the test folder.
file() {	# name lines...
	f=$dir/$1
	shift
	printf '%s\n' "$@" >"$f"
	echo "$f"
}

is() {	# description expected command...
	desc=$1 want=$2
	shift 2
	got=$("$@" 2>&1)
	if [ "$got" = "$want" ]; then
		ktap_test_pass "$desc"
	else
		ktap_print_msg "got '$got', want '$want'"
		ktap_test_fail "$desc"
	fi
}

ktap_print_header

# --- results_lib.sh -----------------------------------------------------

two=$(file two.results "format: bench_page_pool_simple 3" \
	"kernel:   6.12 x" "clock: instructions" \
	"selected: a.b,c-d" \
	"test: name=a.b cycles=1 cycles_min=2.50 path=ring" \
	"skip: name=c-d run_flags_bit=3 wanted_context=napi reason=needs 2 online CPUs, 1 online" \
	"cpu: name=a.b cpu=0 role=alloc invoke_count=7" \
	"cpu: name=a.b cpu=1 role=return" \
	"format: bench_page_pool_simple 3" "kernel: second" \
	"test: name=x cycles=9")
printf 'format: bench_page_pool_simple 2\r\nkernel: crlf\r\n' >"$dir/crlf.results"
is "results_header: a KEY: line's value, leading blanks dropped" "6.12 x" \
	results_header "$two" kernel
is "results_header: CR of CRLF files dropped" "crlf" \
	results_header "$dir/crlf.results" kernel
is "results_header: a missing key is empty" "" results_header "$two" accel
is "results_tests: the selected: names, one a line" "a.b
c-d" results_tests "$two"
is "results_field: a test: line's field, not one it prefixes" "1" \
	results_field "$two" a.b cycles
is "results_field: names are strings, not patterns (a.b is not axb)" "" \
	results_field "$two" axb cycles
is "results_field: the first block only" "" results_field "$two" x cycles
is "results_field: a skip: line's reason keeps its spaces" \
	"needs 2 online CPUs, 1 online" results_field "$two" c-d reason
is "results_field: a missing field is empty" "" results_field "$two" a.b ns
is "results_fields: several, one a line, an empty line when missing" "2.50

ring" results_fields "$two" a.b cycles_min nosuch path
is "results_skip_reason: the rest of the line" \
	"needs 2 online CPUs, 1 online" results_skip_reason "$two" c-d
is "results_skip_reason: empty for a test that ran" "" \
	results_skip_reason "$two" a.b
is "results_ran: a test: line, not a skip: line" "yes no" \
	sh -c '. "$1"; results_ran "$2" a.b && a=yes || a=no
		results_ran "$2" c-d && b=yes || b=no; echo "$a $b"' sh \
	"$TOP/results_lib.sh" "$two"
is "results_cpu_field: per cpu: line, - when missing" "alloc 7
return -" results_cpu_field "$two" a.b role invoke_count
numbers=
for v in 12 79.06 0 1e9 1e9x -5 .5 5. 1.2.3 "" "1 2" 0x10; do
	results_is_number "$v" && numbers="$numbers $v"
done
is "results_is_number: plain decimals only" " 12 79.06 0" echo "$numbers"
is "results_check: a whole format-3 file" "" results_check "$ICOUNT" cycles_min
is "results_check: a format-2 file has no end: line to check" "" \
	results_check "$DATA/format2.results"
cut=$(variant cut.results '/^end:/d')
is "results_check: format 3 without end: is cut" \
	"$cut:37: no end: line: the block is cut" results_check "$cut"
short=$(variant short.results '/name=lock /d')
is "results_check: end: counts that disagree" \
	"$short:37: end: says tests=20 skips=0, the block has tests=19 skips=0: lines are missing" \
	results_check "$short"
cat "$ICOUNT" "$ICOUNT" >"$dir/twice.results"
is "results_check: one block per file" \
	"$dir/twice.results:39: a second results block: give one load per file" \
	results_check "$dir/twice.results"
printf 'format: bench_page_pool_simple 3\nkernel: a\000b\n' >"$dir/nul.results"
is "results_check: a NUL byte" \
	"$dir/nul.results:2: control character in the line" \
	results_check "$dir/nul.results"
esc=$(variant esc.results "s/^kernel: .*/kernel: $(printf '\033')[2J/")
is "results_check: a control character" \
	"$esc:2: control character in the line" results_check "$esc"
is "results_check: not a results file" \
	"$TOP/README.rst:1: not a results file of bench_page_pool_simple (expected \"format: bench_page_pool_simple N\")" \
	results_check "$TOP/README.rst"
noname=$(variant noname.results 's/^test: name=lock /test: lock /')
is "results_check: a test: line without name= first" \
	"$noname:18: test: line without name=TEST first" results_check "$noname"
badkv=$(variant badkv.results '/name=lock /s/ chunks=2 / chunks /')
is "results_check: a word that is no key=value" \
	"$badkv:18: \"chunks\" is not a key=value field" results_check "$badkv"
badnum=$(variant badnum.results '/name=lock /s/ cycles_min=22.00 / cycles_min=22e0 /')
is "results_check FIELD: the field must be a plain number" \
	"$badnum:18: test: lock has no cycles_min=NUMBER" \
	results_check "$badnum" cycles_min
badclock=$(variant badclock.results 's/^clock: .*/clock: ticks/')
is "results_check: clock: instructions or cycles" \
	"$badclock:4: clock: must be instructions or cycles" \
	results_check "$badclock"

# --- usage errors and skips ---------------------------------------------

expect "-h prints usage, exit 0" 0 '^usage: ' sh "$WRAPPER" -h
expect "unknown option: usage, exit 1" 1 '^usage: ' sh "$WRAPPER" -x
expect "a word that is no parameter: usage, exit 1" 1 \
	'not a module parameter: loops' sh "$WRAPPER" loops
expect "unreadable thresholds file: exit 1" 1 'cannot read thresholds' \
	sh "$WRAPPER" -t /nonexistent/thresholds
expect "unreadable relations file: exit 1" 1 'cannot read relations' \
	sh "$WRAPPER" -r /nonexistent/relations
expect "not root: KTAP skip, exit 4" 4 '^1\.\.0 # SKIP must be run as root' \
	setpriv --reuid=65534 --regid=65534 --clear-groups sh "$WRAPPER"
expect "no modules in -d DIR: KTAP skip, exit 4" 4 \
	'^1\.\.0 # SKIP (no time_bench.ko|kernel has no page_pool)' \
	sh "$WRAPPER" -d /nonexistent
rm "$dir/splat_patterns"
expect "splat_patterns missing beside it: exit 1 with the reason" 1 \
	'splat_patterns is missing' sh "$WRAPPER"
ktap_finished
