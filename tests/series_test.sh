#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The peels of upstream/series/ (tools/series/lib.sh): every stored one
# parses, with one message per peel; a header line that is neither
# "removes:", "base:" nor a comment, and a path that leaves net/bench or
# is no plain path, are refused at FILE:LINE with exit 2, and nothing
# after them is read.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/ktap_lib.sh"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM

# series-lib.sh's functions, as the tools source them.
parse() {	# peel prefix
	(
		BENCH_TOP=$TOP
		die() { printf 'error: %s\n' "$*" >&2; exit 1; }
		. "$TOP/tools/series/lib.sh"
		peel_parse "$1" "$2"
	)
}

expect_refused() {	# description line-number pattern peel-text
	printf '%s' "$4" >"$dir/bad.peel"
	parse "$dir/bad.peel" "$dir/bad" >"$dir/out" 2>&1
	rc=$?
	if [ $rc = 2 ] && grep -Eq "^$dir/bad\\.peel:$2: $3" "$dir/out"; then
		ktap_test_pass "$1"
	else
		ktap_print_msg "exit $rc; output:"
		sed 's/^/#   /' "$dir/out"
		ktap_test_fail "$1"
	fi
}

names=$(cd "$TOP/upstream/series" && ls ./*.msg | sed 's|^\./||; s|\.msg$||')
n=$(printf '%s\n' "$names" | grep -c .)
ktap_print_header
ktap_set_plan $((n + 6))

for name in $names; do
	if [ -f "$TOP/upstream/series/$name.peel" ] &&
	   parse "$TOP/upstream/series/$name.peel" "$dir/p" 2>"$dir/out" &&
	   { [ -s "$dir/p.removes" ] || [ -s "$dir/p.base" ] || [ -s "$dir/p.diff" ]; }; then
		ktap_test_pass "$name.peel parses: $(grep -c . "$dir/p.removes") removed, $(grep -c . "$dir/p.base") from the base, $(grep -c '^diff --git ' "$dir/p.diff") changed"
	else
		sed 's/^/#   /' "$dir/out"
		ktap_test_fail "$name.peel parses and undoes something"
	fi
done

printf '%s\n' '# a comment' 'removes: page_pool/a.c' 'base: Makefile' \
	'diff --git a/x b/x' '--- a/x' '+++ b/x' '@@ -1 +1 @@' '-a' '+b' \
	>"$dir/good.peel"
parse "$dir/good.peel" "$dir/g" >"$dir/out" 2>&1
if [ "$(cat "$dir/g.removes")" = page_pool/a.c ] &&
   [ "$(cat "$dir/g.base")" = Makefile ] &&
   [ "$(head -n 1 "$dir/g.diff")" = 'diff --git a/x b/x' ] &&
   [ "$(wc -l <"$dir/g.diff")" -eq 6 ]; then
	ktap_test_pass "a peel's header and diff read apart"
else
	ktap_test_fail "a peel's header and diff read apart"
fi
expect_refused "a header line of another kind is refused at its line" 2 \
	'expected "removes: PATH"' '# c
remove: page_pool/a.c
'
expect_refused "a path out of net/bench is refused" 1 \
	'"\.\./MAINTAINERS" is no path inside net/bench' 'removes: ../MAINTAINERS
'
expect_refused "a path through .. inside it is refused" 1 \
	'"page_pool/\.\./x" is no path inside net/bench' 'base: page_pool/../x
'
expect_refused "a path with shell in it is refused" 2 \
	'"\$\(reboot\)" is no path inside net/bench' 'removes: a.c
base: $(reboot)
'
expect_refused "an absolute path is refused" 1 \
	'"/etc/passwd" is no path inside net/bench' 'removes: /etc/passwd
'
ktap_finished
