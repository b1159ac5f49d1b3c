# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# KTAP: the codes, counters, header, plan and totals of the framework's
# ktap_helpers.sh (KTAP_HELPERS), and printers of data, which those echo
# unquoted: text escaped, figures after a result ("ok 5 check return
# code # rcode=0"), a skip reason, a plan that may come last.  POSIX sh.

if [ -r "${KTAP_HELPERS:-}" ]; then
	# shellcheck source=/dev/null
	. "$KTAP_HELPERS"
# out of tree: the project's tests have no kernel tree around them
else
	KSFT_PASS=0
	KSFT_FAIL=1
	KSFT_SKIP=4
	KTAP_TESTNO=1
	KTAP_CNT_PASS=0
	KTAP_CNT_FAIL=0
	KTAP_CNT_XFAIL=0
	KTAP_CNT_SKIP=0

	ktap_print_header() {
		printf '%s\n' "TAP version 13"
	}

	ktap_set_plan() {
		KSFT_NUM_TESTS=$1
		printf '1..%s\n' "$KSFT_NUM_TESTS"
	}

	ktap_print_totals() {
		printf '# Totals: pass:%s fail:%s xfail:%s xpass:0' \
			"$KTAP_CNT_PASS" "$KTAP_CNT_FAIL" "$KTAP_CNT_XFAIL"
		printf ' skip:%s error:0\n' "$KTAP_CNT_SKIP"
	}
# end of out of tree
fi
# No plan yet: ktap_finished prints it from what ran.
KSFT_NUM_TESTS=

# Text goes out as one line of printable ASCII: a backslash, "#" (but
# in diagnostics), a control or non-ASCII byte, a newline, as \xNN.
# shellcheck disable=SC2016 # awk's own $fields
__KTAP_ESCAPE='
BEGIN {
	for (i = 1; i < 256; i++)
		ord[sprintf("%c", i)] = i
}
function escaped(s,   out, n, i, c) {
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (c ~ /[ -~]/ && c != "\\" &&
		    (c != "#" || ENVIRON["KTAP_LINES"]))
			out = out c
		else
			out = out sprintf("\\x%02x", ord[c])
	}
	return out
}
{
	# most lines are plain: one match instead of a loop per character
	if ($0 !~ /[^ -~]|\\/ && (ENVIRON["KTAP_LINES"] || index($0, "#") == 0))
		out = $0
	else
		out = escaped($0)
	if (ENVIRON["KTAP_LINES"])
		print "# " out
	else
		printf "%s%s", (NR > 1 ? "\\x0a" : ""), out
}
'

# Text of these characters needs no escape and no process (listed, as
# no range a locale could widen, and quoted in the pattern).
__KTAP_PLAIN='abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
__KTAP_PLAIN=$__KTAP_PLAIN' _.,:;=()/+%<>'\''"@*?!-'
__ktap_text() {	# text
	case $1 in
	*[!"$__KTAP_PLAIN"]*)
		printf '%s' "$1" |
			LC_ALL=C KTAP_LINES='' awk "$__KTAP_ESCAPE" ;;
	*)
		printf '%s' "$1" ;;
	esac
}

ktap_print_msg() {
	printf '%s\n' "$*" | LC_ALL=C KTAP_LINES=1 awk "$__KTAP_ESCAPE"
}

# Every line of standard input as a diagnostic line.
ktap_print_lines() {
	LC_ALL=C KTAP_LINES=1 awk "$__KTAP_ESCAPE"
}

ktap_skip_all() {
	printf '1..0 # SKIP %s\n' "$(__ktap_text "$*")"
}

__ktap_test() {	# result description [directive]
	set -- "$1" "$2" "${3:-}"
	case $2$3 in
	*[!"$__KTAP_PLAIN"]*)
		# a process each only where text needs escaping
		set -- "$1" "$(__ktap_text "$2")" "$(__ktap_text "$3")" ;;
	esac
	if [ -n "$3" ]; then
		printf '%s %s %s # %s\n' "$1" "$KTAP_TESTNO" "$2" "$3"
	else
		printf '%s %s %s\n' "$1" "$KTAP_TESTNO" "$2"
	fi
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
}

# A result, and its data after " # " when given: key=value words.
ktap_test_pass() {	# description [data]
	__ktap_test ok "$1" "${2:-}"
	KTAP_CNT_PASS=$((KTAP_CNT_PASS + 1))
}

ktap_test_fail() {	# description [data]
	__ktap_test "not ok" "$1" "${2:-}"
	KTAP_CNT_FAIL=$((KTAP_CNT_FAIL + 1))
}

ktap_test_skip() {	# description [reason]
	__ktap_test ok "$1" "SKIP${2:+ $2}"
	KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1))
}

# out of tree: what the project's own tests use besides
ktap_test_result() {	# description command...
	ktap_desc=$1
	shift
	if "$@"; then
		ktap_test_pass "$ktap_desc"
	else
		ktap_test_fail "$ktap_desc"
	fi
}

ktap_exit_fail_msg() {
	printf 'Bail out! %s\n' "$(__ktap_text "$*")"
	ktap_print_totals
	exit "$KSFT_FAIL"
}
# end of out of tree

# Ends the test: without a plan yet, prints it now (TAP allows the plan
# last); with one, fails unless exactly that many tests ran.
ktap_finished() {
	ktap_ran=$((KTAP_TESTNO - 1))
	if [ -z "$KSFT_NUM_TESTS" ]; then
		ktap_set_plan "$ktap_ran"
	elif [ "$ktap_ran" != "$KSFT_NUM_TESTS" ]; then
		printf '# planned %s tests, ran %s\n' "$KSFT_NUM_TESTS" \
			"$ktap_ran"
		ktap_print_totals
		exit "$KSFT_FAIL"
	fi
	ktap_print_totals
	[ "$KTAP_CNT_FAIL" = 0 ] || exit "$KSFT_FAIL"
	if [ "$KTAP_CNT_PASS" = 0 ] && [ "$KTAP_CNT_SKIP" != 0 ]; then
		exit "$KSFT_SKIP"
	fi
	exit "$KSFT_PASS"
}
