#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host-side tests of test_bench_page_pool.sh's exits that need no module:
# usage errors, and the kselftest skips.  Prints "N passed, N failed".
set -u
WRAPPER=$(cd "$(dirname "$0")/.." && pwd)/test_bench_page_pool.sh
out=$(mktemp)
trap 'rm -f "$out"' EXIT
passed=0
failed=0

expect() {	# description status pattern command...
	desc=$1 want=$2 pattern=$3
	shift 3
	"$@" >"$out" 2>&1
	got=$?
	if [ "$got" = "$want" ] && grep -Eq -- "$pattern" "$out"; then
		passed=$((passed + 1))
		echo "ok - $desc"
	else
		failed=$((failed + 1))
		echo "not ok - $desc (exit $got, want $want)"
		sed 's/^/#   /' "$out"
	fi
}

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

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
