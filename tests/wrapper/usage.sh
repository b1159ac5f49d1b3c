# SPDX-License-Identifier: GPL-2.0
#
# wrapper_test.sh's part on the wrapper's usage errors, file errors
# (FILE:LINE, before anything is loaded) and skips, sourced by it.

expect "-h prints usage, exit 0" 0 '^usage: ' sh "$WRAPPER" -h
expect "unknown option: usage, exit 1" 1 '^usage: ' sh "$WRAPPER" -x
expect "a word that is no parameter: usage, exit 1" 1 \
	'not a module parameter: loops' sh "$WRAPPER" loops
expect "\$BENCH_PAGE_POOL_PARAMS: checked like arguments, exit 1" 1 \
	'not a module parameter: \*' \
	env BENCH_PAGE_POOL_PARAMS='time_ms=50 *' sh "$WRAPPER"
expect "\$BENCH_PAGE_POOL_PARAMS: arguments given win" 1 \
	'not a module parameter: loops' \
	env BENCH_PAGE_POOL_PARAMS='*' sh "$WRAPPER" loops
expect "-n 0: exit 1" 1 '-n 0: the number of loads' sh "$WRAPPER" -n 0
expect "-n x: exit 1" 1 '-n x: the number of loads' sh "$WRAPPER" -n x
expect "-b without -p: exit 1" 1 '-b needs -p PCT' \
	sh "$WRAPPER" -b "$ICOUNT"
expect "-p without -b: exit 1" 1 '-p needs -b FILE' sh "$WRAPPER" -p 5
expect "-p abc: exit 1" 1 '-p abc: the margin is a decimal number' \
	sh "$WRAPPER" -b "$ICOUNT" -p abc
expect "-c with a load option: exit 1" 1 '-n is for loading the module' \
	sh "$WRAPPER" -c -n 2 "$ICOUNT"
expect "-c without files: exit 1" 1 '-c needs the results files' \
	sh "$WRAPPER" -c
expect "-c with an unreadable file: exit 1" 1 \
	'cannot read results file /nonexistent' sh "$WRAPPER" -c /nonexistent
expect "-c without bench-compare: exit 1 naming what it needs" 1 \
	'-c reads saved results with bench-compare --check' \
	env BENCH_COMPARE=/nonexistent PATH=/usr/bin:/bin sh "$WRAPPER" -c "$ICOUNT"
# make check-host runs these as any user: as root, the wrapper runs as
# nobody for the first; as another user, it is that user already, and
# the two after it, which need the wrapper past its check of root, skip.
if [ "$(id -u)" = 0 ]; then
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	as_user=
fi
# shellcheck disable=SC2086 # a command or nothing
expect "not root: KTAP skip, exit 4" 4 '^1\.\.0 # SKIP must be run as root' \
	$as_user sh "$WRAPPER"
if [ -n "$as_user" ]; then
	expect "no module in -d DIR: KTAP skip, exit 4" 4 \
		'^1\.\.0 # SKIP (no bench_page_pool.ko in /nonexistent|kernel has no page_pool)' \
		sh "$WRAPPER" -d /nonexistent
else
	ktap_test_skip "no module in -d DIR: KTAP skip, exit 4" "needs root: run as $(id -un)"
fi
mkdir "$dir/old" && : >"$dir/old/bench_page_pool_simple.ko" || exit 1
if [ -z "$as_user" ]; then
	ktap_test_skip "the module's old name in -d DIR" "needs root: run as $(id -un)"
elif grep -qw page_pool_create /proc/kallsyms 2>/dev/null; then
	expect "the module's old name in -d DIR: one line with the new one, exit 1" \
		1 "bench_page_pool_simple.ko: the module's old name; it is bench_page_pool.ko now" \
		sh "$WRAPPER" -d "$dir/old"
else
	ktap_test_skip "the module's old name in -d DIR" "no page_pool in this kernel"
fi

# Files are read before anything is loaded: with -d /nonexistent the
# wrapper would skip (exit 4) if it had come that far.
bad_file() {	# description option pattern lines...
	desc=$1 opt=$2 pattern=$3
	shift 3
	f=$(file bad "$@")
	expect "$desc: usage error naming FILE:LINE, exit 1" 1 \
		"^$WRAPPER: $f:$pattern" sh "$WRAPPER" -d /nonexistent "$opt" "$f"
}
expect "unreadable thresholds file: exit 1" 1 \
	'cannot read threshold file /nonexistent/thresholds' \
	sh "$WRAPPER" -d /nonexistent -t /nonexistent/thresholds
expect "unreadable relations file: exit 1" 1 \
	'cannot read relation file /nonexistent/relations' \
	sh "$WRAPPER" -d /nonexistent -r /nonexistent/relations
bad_file "threshold limit abc" -t '2: limit "abc" is not a number' \
	"# limits" "tasklet_page_pool01_fast_path abc"
bad_file "threshold limit 1e9x" -t '1: limit "1e9x" is not a number' \
	"tasklet_page_pool01_fast_path 1e9x"
bad_file "threshold \"150 extra\"" -t '1: "tasklet_page_pool01_fast_path 150 extra": expected TEST_NAME LIMIT$' \
	"tasklet_page_pool01_fast_path 150 extra"
bad_file "threshold without its limit" -t '2: "lock": expected TEST_NAME LIMIT$' \
	"" "lock"
bad_file "negative threshold" -t '1: limit "-5" is not a number' "lock -5"
bad_file "threshold for a name no test can have" -t \
	'1: "lock;rm" is not a test name' "lock;rm 5"
bad_file "two limits for one test" -t '2: "lock" already on line 1' \
	"lock 5" "lock 6 # again"
bad_file "relation with one name" -r \
	'1: "lock": expected CHEAPER_TEST DEARER_TEST$' "lock"
bad_file "relation with three names" -r \
	'1: "a b c": expected CHEAPER_TEST DEARER_TEST$' "a b c"
bad_file "relation of a test with itself" -r \
	'1: lock cannot be cheaper than itself' "lock lock"
printf 'lock 5\nfor_loop 1\000\n' >"$dir/nul"
expect "a NUL byte in a thresholds file: usage error, exit 1" 1 \
	"$dir/nul:2: control character or byte that is not ASCII in the line" \
	sh "$WRAPPER" -d /nonexistent -t "$dir/nul"
expect "a baseline that cannot be read: exit 1" 1 \
	'cannot read baseline file /nonexistent' \
	sh "$WRAPPER" -d /nonexistent -b /nonexistent -p 5
expect "a baseline cut short: usage error naming FILE:LINE, exit 1" 1 \
	"baseline $cut:1: results block cut short: no end: line" \
	sh "$WRAPPER" -d /nonexistent -b "$cut" -p 5
expect "a baseline of two loads: usage error naming the second's format: line, exit 1" 1 \
	"baseline $dir/twice.results:38: a second results block: one load is read here" \
	sh "$WRAPPER" -d /nonexistent -b "$dir/twice.results" -p 5
badnum=$(variant badnum.results '/name=lock /s/ cycles=441629 / cycles=44x /')
expect "a baseline with a bad number: usage error naming FILE:LINE, exit 1" 1 \
	"baseline $badnum:18: test lock: cycles=44x is not a whole number" \
	sh "$WRAPPER" -d /nonexistent -b "$badnum" -p 5
expect "a baseline of another instrument: usage error, exit 1" 1 \
	"the baseline $TCG counts with tcg, the results of $ICOUNT count with icount" \
	sh "$WRAPPER" -c -b "$TCG" -p 5 "$ICOUNT"
rm "$dir/splat_patterns"
expect "splat_patterns missing beside it: exit 1 with the reason" 1 \
	'splat_patterns is missing' sh "$WRAPPER"
cp "$TOP/splat_patterns" "$dir/"

# The wrapper as a kernel tree has it (make series): its out-of-tree
# parts left out, the usage errors of what it keeps the same, and no
# option of what it lacks.
# Where a tree's selftests install kselftest/ktap_helpers.sh, two levels
# up: the kernel source's own, which make check unpacks.
helpers=$(ls "${BENCH_CACHE:-/var/cache/bench_page_pool}"/src/linux-source-6.12/tools/testing/selftests/kselftest/ktap_helpers.sh 2>/dev/null)
intree=$dir/tree/net/bench
mkdir -p "$intree" "$dir/tree/kselftest" || exit 1
[ -z "$helpers" ] || cp "$helpers" "$dir/tree/kselftest/" || exit 1
for f in test_bench_page_pool.sh \
	$(make -s --no-print-directory -C "$TOP" print-files FILES=libraries); do
	sed -e '/^[[:space:]]*# out of tree/,/^[[:space:]]*# end of out of tree$/d' \
		"$TOP/$f" >"$intree/$f" || exit 1
done
if [ -z "$helpers" ]; then
	for what in "-h names no out-of-tree option" "no -c, -b, -r or -e in its usage" \
		"-c is an unknown option" "a bad thresholds line is a usage error"; do
		ktap_test_skip "in a kernel tree: $what" "no kernel source unpacked (make check unpacks linux-source-6.12)"
	done
else
expect "in a kernel tree: -h names no out-of-tree option" 0 \
	'^  -t FILE  limits on a test' sh "$intree/test_bench_page_pool.sh" -h
! grep -q -- '-c FILE\|-b FILE\|-e PROG' "$out"
ktap_test_result "in a kernel tree: no -c, -b, -r or -e in its usage" test $? = 0
expect "in a kernel tree: -c is an unknown option, exit 1" 1 '^usage: ' \
	sh "$intree/test_bench_page_pool.sh" -c "$ICOUNT"
f=$(file bad "lock 1e9x")
expect "in a kernel tree: a bad thresholds line is a usage error naming FILE:LINE" \
	1 "$f:1: limit \"1e9x\" is not a number" \
	sh "$intree/test_bench_page_pool.sh" -d /nonexistent -t "$f"
fi
