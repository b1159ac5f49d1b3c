#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host-side tests of test_bench_page_pool.sh's exits that need no module:
# usage errors, and the kselftest skips.  Prints KTAP.
#
# The wrapper runs from a copy in a fresh folder that every user may
# enter, as the kselftest install would be: the checkout itself may sit
# where other users cannot (a 0700 home, a mktemp -d folder), and the
# "not root" case runs it as nobody.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/ktap_lib.sh"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
for f in test_bench_page_pool.sh ktap_lib.sh splat_patterns; do
	cp "$TOP/$f" "$dir/" && chmod 644 "$dir/$f" || exit 1
done
WRAPPER=$dir/test_bench_page_pool.sh
out=$dir/out

expect() {	# description status pattern command...
	desc=$1 want=$2 pattern=$3
	shift 3
	"$@" >"$out" 2>&1
	got=$?
	if [ "$got" = "$want" ] && grep -Eq -- "$pattern" "$out"; then
		ktap_test_pass "$desc"
	else
		ktap_print_msg "exit $got, want $want; output:"
		sed 's/^/#   /' "$out"
		ktap_test_fail "$desc"
	fi
}

ktap_print_header
ktap_set_plan 8
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
