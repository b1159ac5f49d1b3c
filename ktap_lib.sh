# SPDX-License-Identifier: GPL-2.0
#
# KTAP output for the project's shell tests, sourced by them: the names
# and meaning of the kselftest framework's ktap_helpers.sh, so a test
# reads the same in and out of a kernel tree, plus an optional skip
# reason and a plan that may be set once the number of tests is known.
# ktap_finished checks the plan against what ran and exits with the
# kselftest code the totals give.  POSIX sh; runs under busybox.
#
# When KTAP_HELPERS names a readable file (a kernel tree's
# tools/testing/selftests/kselftest/ktap_helpers.sh), its codes,
# counters, header, plan and totals are used.  Its functions that print
# a description or a message echo their arguments unquoted, which would
# glob, split and (under dash) unescape data; those, the skip reason,
# the late plan and the exit codes are this file's.

if [ -n "${KTAP_HELPERS:-}" ] && [ -r "$KTAP_HELPERS" ]; then
	. "$KTAP_HELPERS"
else
	KSFT_PASS=0
	KSFT_FAIL=1
	KSFT_XFAIL=2
	KSFT_XPASS=3
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
		printf '# Totals: pass:%s fail:%s xfail:%s xpass:0 skip:%s error:0\n' \
			"$KTAP_CNT_PASS" "$KTAP_CNT_FAIL" "$KTAP_CNT_XFAIL" \
			"$KTAP_CNT_SKIP"
	}
fi
# No plan yet: ktap_finished prints it from what ran.
KSFT_NUM_TESTS=

# Text for a KTAP line is data: it may hold anything a results file, a
# path or a kernel message held.  __ktap_text writes it as one line of
# printable ASCII: a backslash, a control or non-ASCII byte, a newline
# included, becomes \xNN, and so does "#", which would start a
# directive.  __ktap_lines writes each line of its input as a "# "
# line, escaped the same way but for "#".
__KTAP_ESCAPE='
BEGIN {
	for (i = 1; i < 256; i++)
		ord[sprintf("%c", i)] = i
}
function escaped(s,   out, n, i, c) {
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (c ~ /[ -~]/ && c != "\\" && (c != "#" || ENVIRON["KTAP_LINES"]))
			out = out c
		else
			out = out sprintf("\\x%02x", ord[c])
	}
	return out
}
{
	# One match finds most lines plain: the loop over each character
	# cost a guest more than the test its line reported.
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

# Most text needs no escape: the characters listed (no range, so no
# locale widens it; quoted in the pattern, so each is itself) go out as
# they are, without a process.
__KTAP_PLAIN='abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
__KTAP_PLAIN=$__KTAP_PLAIN' _.,:;=()/+%<>'\''"@*?!-'
__ktap_text() {	# text
	case $1 in
	*[!"$__KTAP_PLAIN"]*)
		printf '%s' "$1" | LC_ALL=C KTAP_LINES='' awk "$__KTAP_ESCAPE" ;;
	*)
		printf '%s' "$1" ;;
	esac
}

__ktap_lines() {
	LC_ALL=C KTAP_LINES=1 awk "$__KTAP_ESCAPE"
}

ktap_print_msg() {
	printf '%s\n' "$*" | __ktap_lines
}

# Every line of standard input as a diagnostic line.
ktap_print_lines() {
	__ktap_lines
}

ktap_skip_all() {
	printf '1..0 # SKIP %s\n' "$(__ktap_text "$*")"
}

__ktap_test() {	# result description [directive]
	printf '%s %s %s%s\n' "$1" "$KTAP_TESTNO" "$(__ktap_text "$2")" \
		"${3:+ # $(__ktap_text "$3")}"
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
}

ktap_test_pass() {
	__ktap_test ok "$1"
	KTAP_CNT_PASS=$((KTAP_CNT_PASS + 1))
}

ktap_test_skip() {	# description [reason]
	__ktap_test ok "$1" "SKIP${2:+ $2}"
	KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1))
}

ktap_test_fail() {
	__ktap_test "not ok" "$1"
	KTAP_CNT_FAIL=$((KTAP_CNT_FAIL + 1))
}

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

# Ends the test: without a plan yet, prints it now (TAP allows the plan
# last); with one, fails unless exactly that many tests ran.
ktap_finished() {
	ktap_ran=$((KTAP_TESTNO - 1))
	if [ -z "$KSFT_NUM_TESTS" ]; then
		ktap_set_plan "$ktap_ran"
	elif [ "$ktap_ran" != "$KSFT_NUM_TESTS" ]; then
		printf '# planned %s tests, ran %s\n' "$KSFT_NUM_TESTS" "$ktap_ran"
		ktap_print_totals
		exit "$KSFT_FAIL"
	fi
	ktap_print_totals
	[ "$KTAP_CNT_FAIL" = 0 ] || exit "$KSFT_FAIL"
	[ "$KTAP_CNT_PASS" = 0 ] && [ "$KTAP_CNT_SKIP" != 0 ] && exit "$KSFT_SKIP"
	exit "$KSFT_PASS"
}
