# SPDX-License-Identifier: GPL-2.0
#
# KTAP output for the project's shell tests, sourced by them: the names
# and meaning of the kselftest framework's ktap_helpers.sh, so a test
# reads the same in and out of a kernel tree, plus an optional skip
# reason and a plan that may be set once the number of tests is known.
# ktap_finished checks the plan against what ran and exits with the
# kselftest code the totals give.  POSIX sh; runs under busybox.

KSFT_PASS=0
KSFT_FAIL=1
KSFT_XFAIL=2
KSFT_XPASS=3
KSFT_SKIP=4

KTAP_TESTNO=1
KTAP_CNT_PASS=0
KTAP_CNT_FAIL=0
KTAP_CNT_SKIP=0
KSFT_NUM_TESTS=

ktap_print_header() {
	echo "TAP version 13"
}

ktap_print_msg() {
	echo "# $*"
}

ktap_set_plan() {
	KSFT_NUM_TESTS=$1
	echo "1..$KSFT_NUM_TESTS"
}

ktap_skip_all() {
	echo "1..0 # SKIP $*"
}

__ktap_test() {	# result description [directive]
	echo "$1 $KTAP_TESTNO $2${3:+ # $3}"
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

ktap_print_totals() {
	echo "# Totals: pass:$KTAP_CNT_PASS fail:$KTAP_CNT_FAIL xfail:0 xpass:0 skip:$KTAP_CNT_SKIP error:0"
}

ktap_exit_fail_msg() {
	echo "Bail out! $*"
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
		echo "# planned $KSFT_NUM_TESTS tests, ran $ktap_ran"
		ktap_print_totals
		exit "$KSFT_FAIL"
	fi
	ktap_print_totals
	[ "$KTAP_CNT_FAIL" = 0 ] || exit "$KSFT_FAIL"
	[ "$KTAP_CNT_PASS" = 0 ] && [ "$KTAP_CNT_SKIP" != 0 ] && exit "$KSFT_SKIP"
	exit "$KSFT_PASS"
}
