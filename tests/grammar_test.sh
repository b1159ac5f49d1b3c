#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One grammar for results files: every reader gives the same verdict on
# the same file.  A corpus of files, each a hand-written results file of
# tests/wrapper_data with one change (e2e.results: make run E2E=1
# ICOUNT=1 of 6.12, with the end-to-end scenarios' rows), goes through
# bench-compare, and
# under each shell the tests run in (sh, which is dash on Debian, bash,
# and busybox with its own awk, as in a guest) through the whole-file
# check of results_lib.sh (results_check) and the kselftest wrapper's
# -c: a bad file is refused by all, bench-compare and every
# results_check naming the same FILE:LINE; a good one is read by all.
# Prints KTAP.  One difference is left: bench-compare reads any
# printable test name (its tests feed it hostile ones), the kselftest
# only the module's (letters, digits, "_" and "-"), as it runs tests by
# name.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
DATA=$TOP/tests/wrapper_data
COMPARE=$TOP/tools/compare/bench-compare
. "$TOP/ktap_lib.sh"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM
[ -x "$COMPARE" ] || make -s -C "$TOP/tools/compare" >&2 || exit 1
SHELLS="sh bash"
if command -v busybox >/dev/null; then
	SHELLS="$SHELLS busybox"
	mkdir "$dir/busybox" || exit 1
	for tool in sh awk sed grep tr cat wc mktemp rm mkdir cp env; do
		ln -s "$(command -v busybox)" "$dir/busybox/$tool" || exit 1
	done
fi

# COMMAND under shell UNDER; busybox with its own tools first in PATH.
under() {	# shell command...
	u_sh=$1
	shift
	case $u_sh in
	busybox) PATH=$dir/busybox:$PATH busybox sh "$@" ;;
	*) "$u_sh" "$@" ;;
	esac
}

# The cases: NAME, the data file, and an awk program that writes the
# changed file (FIRST is true on the first test: line).
CASES='
bad	duplicate-test	icount	FIRST { print } { print }
bad	duplicate-test	format2	FIRST { print } { print }
bad	duplicate-key	icount	FIRST { print $0 " cycles=1"; next } { print }
bad	duplicate-key	format2	FIRST { print $0 " cycles=1"; next } { print }
bad	indented-test	icount	FIRST { print "  " $0; next } { print }
bad	indented-test	format2	FIRST { print "  " $0; next } { print }
bad	indented-header	icount	NR == 2 { print "\t" $0; next } { print }
bad	text-in-block	icount	FIRST { print "hello world" } { print }
bad	text-in-block	format2	FIRST { print "hello world" } { print }
bad	log-line-in-block	icount	FIRST { print "[    1.0] time_bench: Type:for_loop Per elem: 3 cycles(tsc) 1.0 ns (step:0)" } { print }
bad	line-after-end	icount	{ print } END { print "kernel: x" }
bad	test-line-lost	icount	FIRST { next } { print }
bad	not-a-field	icount	FIRST { print $0 " novalue"; next } { print }
bad	c1-control	icount	NR == 2 { print $0 "\302\233"; next } { print }
bad	not-utf8	icount	NR == 2 { print $0 "\377"; next } { print }
bad	control-char	icount	NR == 2 { print $0 "\033[2J"; next } { print }
bad	bidi-override	icount	NR == 2 { print $0 "\342\200\256"; next } { print }
bad	line-separator	icount	NR == 3 { print $0 "\342\200\250x"; next } { print }
bad	bidi-isolate	format2	NR == 2 { print $0 "\342\201\246"; next } { print }
bad	byte-order-mark	icount	NR == 2 { print $0 "\357\273\277"; next } { print }
bad	arabic-letter-mark	icount	NR == 2 { print $0 "\330\234"; next } { print }
good	as-written	e2e	{ print }
good	failed-scenario	e2e	/^end: / { print "failed: name=pktgen_veth_drop reason=the XDP program counted 0 of 5000 packets sent" } { print }
bad	duplicate-scenario	e2e	/^test: name=xdp_live_drop / { print } { print }
bad	scenario-cut	e2e	/^test: name=generic_xdp_drop / { print substr($0, 1, 200); next } { print }
good	utf8-text	icount	NR == 2 { print $0 " caf\303\251 \342\200\224 \344\270\255"; next } { print }
good	as-written	icount	{ print }
good	as-written	format2	{ print }
good	blank-lines	icount	FIRST { print ""; print "   " } { print }
good	unknown-key	icount	NR == 2 { print "later_key: a header line of a later version" } { print }
good	crlf	icount	{ print $0 "\r" }
'

# FILE:LINE of the first line a reader said, or nothing.
where() {	# file
	sed -n '1s/^\(bench-compare: \)\{0,1\}\([^ ]*:[0-9]*\):.*/\2/p' "$1"
}

check_case() {	# verdict name data program
	f=$dir/$2-$3.results
	LC_ALL=C awk "BEGIN { first = 1 } { FIRST = 0 }
		/^test: / && first { FIRST = 1; first = 0 }
		$4" "$DATA/$3.results" >"$f"
	"$COMPARE" "$f" "$f" </dev/null >/dev/null 2>"$dir/compare.err"
	c_rc=$?
	c_at=$(where "$dir/compare.err")
	c_ok=0
	if [ "$1" = bad ]; then
		[ $c_rc = 2 ] && [ -n "$c_at" ] || c_ok=1
	else
		[ $c_rc = 0 ] || c_ok=1
	fi
	said="bench-compare exit $c_rc ${c_at:-}"
	for u in $SHELLS; do
		under "$u" -c '. "$1/results_lib.sh" && results_check "$2"' \
			sh "$TOP" "$f" </dev/null >"$dir/check.err" 2>&1
		r_rc=$?
		# a good file passes every check the wrapper has (a minute
		# of them under three shells): sh's run says it is read
		w_rc=-
		: >"$dir/wrapper.out"
		if [ "$1" = bad ] || [ "$u" = sh ]; then
			under "$u" "$TOP/test_bench_page_pool.sh" -c "$f" \
				</dev/null >"$dir/wrapper.out" 2>&1
			w_rc=$?
		fi
		r_at=$(where "$dir/check.err")
		whole=0
		grep -q '^not ok [0-9]* results file is whole' "$dir/wrapper.out" ||
			whole=1
		said="$said; $u: results_check $r_rc ${r_at:-}, -c $w_rc"
		if [ "$1" = bad ]; then
			[ $r_rc = 1 ] && [ $w_rc = 1 ] && [ "$c_at" = "$r_at" ] &&
				[ $whole = 0 ] || c_ok=1
		else
			# the wrapper's checks may fail on a file written for
			# them to (format2's): it must not refuse the file
			[ $r_rc = 0 ] && [ $whole = 1 ] || c_ok=1
		fi
	done
	ktap_print_msg "$2 ($3): $said"
	return $c_ok
}

ktap_print_header
ktap_set_plan "$(printf '%s' "$CASES" | grep -c .)"
tab=$(printf '\t')
printf '%s' "$CASES" >"$dir/cases"
while IFS=$tab read -r verdict name data program; do
	[ -n "$verdict" ] || continue
	what="refused by every reader at the same line"
	[ "$verdict" = good ] && what="read by every reader"
	check_case "$verdict" "$name" "$data" "$program"
	ktap_test_result "$name ($data): $what" test $? = 0
done <"$dir/cases"
ktap_finished
