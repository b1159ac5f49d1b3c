#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kselftest for bench_page_pool_simple: loads the module with the given
# parameters, reads this run's results file and checks that every
# selected test reported, ran in its context and took its path, that the
# relations between the paths hold, optional per-test limits, and that
# the kernel printed no warning meanwhile.  Prints KTAP.
# Exit status: 0 all passed, 1 a check failed, 4 skipped.
#
# POSIX sh on purpose: it also runs in busybox-only guests.

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

MODULE=bench_page_pool_simple
HERE=$(cd "$(dirname "$0")" && pwd)
RESULTS=/sys/kernel/debug/$MODULE/results

usage() {
	cat <<EOF
usage: $0 [-d DIR] [-r FILE] [-t FILE] [-k] [PARAM=VALUE]...
Loads $MODULE with the module parameters given (loops=, run_flags=,
time_ms=, reps=), checks its results and prints KTAP.
  -d DIR   insmod time_bench.ko and $MODULE.ko from DIR (a build
           tree) instead of modprobe
  -r FILE  relations to check instead of the built-in ones, lines
           "CHEAPER_TEST DEARER_TEST"; also \$BENCH_PAGE_POOL_RELATIONS
  -t FILE  per-test upper limits, lines "TEST_NAME MAX_CYCLES_PER_ELEM";
           also taken from \$BENCH_PAGE_POOL_THRESHOLDS
  -k       keep the module loaded afterwards (default: remove it); if
           a relation was re-measured, that last load stays
  -h       this help
Exit status: 0 all checks passed, 1 a check failed, 4 skipped.
EOF
}

# Name, run_flags bit, context, expected path of each test, in the
# module's order.
TESTS="for_loop:0:process:-
atomic_inc:0:process:-
lock:0:process:-
no-softirq-page_pool01:1:process:any
no-softirq-page_pool02:2:process:ring
no-softirq-page_pool03:3:process:allocator
tasklet_page_pool01_fast_path:4:softirq:cache
tasklet_page_pool02_ptr_ring:5:softirq:ring
tasklet_page_pool03_slow:6:softirq:allocator"

# Pairs "cheaper dearer" that hold on any machine.
RELATIONS="tasklet_page_pool01_fast_path tasklet_page_pool02_ptr_ring
tasklet_page_pool02_ptr_ring tasklet_page_pool03_slow
no-softirq-page_pool02 no-softirq-page_pool03"

ktap_count=0
ktap_pass=0
ktap_fail=0
ktap_skip=0

ktap_result() {	# ok|fail|skip description [reason]
	ktap_count=$((ktap_count + 1))
	case $1 in
	ok)
		ktap_pass=$((ktap_pass + 1))
		echo "ok $ktap_count $2"
		;;
	skip)
		ktap_skip=$((ktap_skip + 1))
		echo "ok $ktap_count $2 # SKIP $3"
		;;
	*)
		ktap_fail=$((ktap_fail + 1))
		echo "not ok $ktap_count $2"
		;;
	esac
}

check() {	# description command...
	desc=$1
	shift
	if "$@"; then
		ktap_result ok "$desc"
	else
		ktap_result fail "$desc"
	fi
}

skip_all() {
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit $KSFT_SKIP
}

moddir=
relations=${BENCH_PAGE_POOL_RELATIONS:-}
thresholds=${BENCH_PAGE_POOL_THRESHOLDS:-}
keep=
while getopts d:r:t:kh opt; do
	case $opt in
	d) moddir=$OPTARG ;;
	r) relations=$OPTARG ;;
	t) thresholds=$OPTARG ;;
	k) keep=1 ;;
	h) usage; exit $KSFT_PASS ;;
	*) usage >&2; exit $KSFT_FAIL ;;
	esac
done
shift $((OPTIND - 1))

run_flags=0x7f
loops=
reps=
other_params=
for param in "$@"; do
	case $param in
	run_flags=*) run_flags=${param#run_flags=} ;;
	reps=*) reps=${param#reps=} ;;
	loops=*) loops=${param#loops=}; other_params="$other_params $param" ;;
	*=*) other_params="$other_params $param" ;;
	*) echo "$0: not a module parameter: $param" >&2
	   usage >&2; exit $KSFT_FAIL ;;
	esac
done
# The module validates parameters; here they only select the checks,
# and a mask that is no number selects none (the load then fails).
# Base 0 like the kernel's kstrtouint(): 0x hex, leading 0 octal.
if echo "$run_flags" | grep -Eq '^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$'; then
	selected=$((run_flags))
else
	selected=0
fi

need_readable() {	# what file
	if [ -n "$2" ] && [ ! -r "$2" ]; then
		echo "$0: cannot read $1 file $2" >&2
		exit $KSFT_FAIL
	fi
}
need_readable relations "$relations"
need_readable thresholds "$thresholds"
[ -r "$HERE/splat_patterns" ] ||
	{ echo "$0: $HERE/splat_patterns is missing" >&2; exit $KSFT_FAIL; }

[ "$(id -u)" = 0 ] || skip_all "must be run as root"
grep -qw page_pool_create /proc/kallsyms 2>/dev/null ||
	skip_all "kernel has no page_pool (CONFIG_PAGE_POOL)"
if [ -n "$moddir" ]; then
	[ -f "$moddir/time_bench.ko" ] && [ -f "$moddir/$MODULE.ko" ] ||
		skip_all "no time_bench.ko and $MODULE.ko in $moddir"
else
	modprobe -n -q $MODULE 2>/dev/null ||
		skip_all "module $MODULE not found (build it, or use -d DIR)"
fi
grep -qs ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null ||
	skip_all "debugfs is not mounted and cannot be"

# Test lines this run selects, one "name:bit:context:path" each.
selected_tests() {
	echo "$TESTS" | while IFS=: read -r name bit ctx path; do
		[ $(( (selected >> bit) & 1 )) = 1 ] && echo "$name:$bit:$ctx:$path"
	done
}

is_selected() {
	selected_tests | grep -q "^$1:"
}

pairs_in() {	# file: its "NAME VALUE" lines, comments and blanks left out
	grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$1"
}

threshold_lines() {
	[ -n "$thresholds" ] || return 0
	pairs_in "$thresholds" | while read -r name limit; do
		is_selected "$name" && echo "$name $limit"
	done
}

relation_lines() {
	if [ -n "$relations" ]; then
		pairs_in "$relations"
	else
		echo "$RELATIONS"
	fi | while read -r a b; do
		is_selected "$a" && is_selected "$b" && echo "$a $b"
	done
}

# Lock debugging makes every spinlock cost thousands of cycles: relations
# between paths that take different locks do not hold there.
debug_kernel=
[ -e /proc/lockdep ] && debug_kernel="lockdep"

ntests=$(selected_tests | wc -l)
npool=$(selected_tests | grep -vc ':-$')
nrel=$(relation_lines | wc -l)
nthr=$(threshold_lines | wc -l)
# load, per test (reported, context, path), per page_pool test (stats),
# relations, limits, no splat
plan=$((1 + 3 * ntests + npool + nrel + nthr + 1))

echo "TAP version 13"
echo "1..$plan"

lsmod | grep -q "^$MODULE " && rmmod $MODULE
marker="$MODULE kselftest $$ $(date +%s)"
echo "$marker" >/dev/kmsg

load_module() {	# params...
	if [ -n "$moddir" ]; then
		{ lsmod | grep -q '^time_bench ' ||
			insmod "$moddir/time_bench.ko"; } &&
			insmod "$moddir/$MODULE.ko" "$@"
	else
		modprobe $MODULE "$@"
	fi
}

load_module "$@"
load_rc=$?

kernel_log_since_marker() {
	dmesg | sed -n "/$marker/,\$p" | sed 1d
}

if [ $load_rc = 0 ] && [ -r "$RESULTS" ]; then
	results=$(cat "$RESULTS")
	ktap_result ok "$MODULE loads with: ${*:-defaults}"
else
	results=
	ktap_result fail "$MODULE loads with: ${*:-defaults}"
	kernel_log_since_marker | sed 's/^/# /'
fi

results_field() {	# results test field
	echo "$1" | awk -v t="$2" -v f="$3" '
		$1 == "test:" && $2 == "name=" t {
			for (i = 3; i <= NF; i++)
				if (index($i, f "=") == 1) {
					print substr($i, length(f) + 2)
					exit
				}
		}'
}

field() {	# test field, from this run's results
	results_field "$results" "$1" "$2"
}

compare() {	# a op b: numeric comparison; false if either is missing
	awk -v a="$1" -v op="$2" -v b="$3" 'BEGIN {
		if (a == "" || b == "")
			exit 1
		exit !(op == "<" ? a + 0 < b + 0 : a + 0 <= b + 0)
	}'
}

# page_pool's own counters over the timed loop, where the kernel keeps
# them (CONFIG_PAGE_POOL_STATS): every iteration recycled the test's way.
check_pp_stats() {	# name path total_invoke_count
	desc="$1 page_pool stats agree with path $(echo "$2" | sed "s/^any$/cache or ring/")"
	if ! echo "$results" | grep -qx 'page_pool_stats: yes'; then
		ktap_result skip "$desc" "kernel without CONFIG_PAGE_POOL_STATS"
		return
	fi
	cached=$(field "$1" recycle_cached)
	ring=$(field "$1" recycle_ring)
	refcnt=$(field "$1" recycle_released_refcnt)
	desc="$desc (cached=$cached ring=$ring released_refcnt=$refcnt of $3)"
	case $2 in
	cache) check "$desc" test "$cached" = "$3" -a "$ring" = 0 -a "$refcnt" = 0 ;;
	ring) check "$desc" test "$ring" = "$3" -a "$cached" = 0 -a "$refcnt" = 0 ;;
	allocator) check "$desc" test "$refcnt" = "$3" -a "$cached" = 0 -a "$ring" = 0 ;;
	*) check "$desc" test $((cached + ring)) = "$3" -a "$refcnt" = 0 ;;
	esac
}

# Test-wide diagnostics for the log.
echo "$results" | sed -n 's/^\(kernel\|cpu_model\|params\|page_pool_stats\): /# &/p'

while IFS=: read -r name bit ctx path; do
	[ -n "$name" ] || continue
	if [ -z "$results" ]; then
		ktap_result skip "$name reported" "module did not load"
		ktap_result skip "$name ran in $ctx context" "module did not load"
		ktap_result skip "$name took its path" "module did not load"
		[ "$path" = - ] ||
			ktap_result skip "$name page_pool stats" "module did not load"
		continue
	fi
	invoke=$(field "$name" invoke_count)
	nreps=$(field "$name" reps)
	total=$(field "$name" total_invoke_count)
	ran=$(field "$name" loops)
	want=${loops:-$ran}
	echo "$results" | grep "^test: name=$name " | sed 's/^/# /'
	check "$name reported, invoke count $invoke == loops ${want:-?} in each of ${nreps:-?} reps" \
		test -n "$invoke" -a "$invoke" != 0 -a "$invoke" = "$want" \
		-a "$total" = "$((invoke * ${nreps:-0}))"
	check "$name ran in $ctx context" test "$(field "$name" context)" = "$ctx"

	got=$(field "$name" path)
	allocated=$(field "$name" pages_allocated)
	released=$(field "$name" pages_released)
	case $path in
	-)
		check "$name uses no page_pool" test "$got" = "-"
		;;
	any)
		# Direct recycling outside softirq is a kernel's choice: 6.1
		# falls back to the ring, 6.12 uses the cache.
		check "$name recycles ($got), no page from the allocator" \
			test "$allocated" = 0 -a \( "$got" = cache -o "$got" = ring \)
		;;
	allocator)
		check "$name returns every page to the allocator ($got, released $released)" \
			test "$got" = allocator -a "$released" = "$total"
		;;
	*)
		check "$name recycles through the $path ($got), no page from the allocator ($allocated)" \
			test "$got" = "$path" -a "$allocated" = 0
		;;
	esac
	[ "$path" = - ] || check_pp_stats "$name" "$path" "$total"
done <<EOF
$(selected_tests)
EOF

test_bit() {	# name: its run_flags bit
	echo "$TESTS" | awk -F: -v t="$1" '$1 == t { print $2 }'
}

# A re-measurement takes the cheapest of at least this many repetitions.
# Measured in a guest of a host busy building a kernel, loops=20000:
# the fast path cost more than the ptr_ring in 4 of 40 single runs, and
# in none of 40 loads of five repetitions (at most 162 against at least
# 190 cycles).
REMEASURE_REPS=5
remeasure_reps=$REMEASURE_REPS
[ "${reps:-0}" -gt $REMEASURE_REPS ] 2>/dev/null && remeasure_reps=$reps

# Prints the results of a fresh load that runs only tests a and b, with
# the parameters this run was given otherwise.
remeasure() {	# a b
	mask=$(( (1 << $(test_bit "$1")) | (1 << $(test_bit "$2")) ))
	lsmod | grep -q "^$MODULE " && rmmod $MODULE
	set -f	# the parameters are words, never patterns
	# shellcheck disable=SC2086
	load_module $other_params "run_flags=$(printf '0x%x' $mask)" \
		"reps=$remeasure_reps" </dev/null >/dev/null 2>&1 &&
		cat "$RESULTS"
	rc=$?
	set +f
	return $rc
}

# Noise on a busy or emulated machine (the host taking the CPU away from
# the guest, an interrupt) only ever adds cycles: compare the cheapest
# repetition of each test.  A short run can still be disturbed as a
# whole, so a relation that fails is measured once more in a load of its
# own with several repetitions, and fails the check only if it fails
# again.
while read -r a b; do
	[ -n "$a" ] || continue
	if [ -z "$results" ]; then
		ktap_result skip "$a cheaper than $b" "module did not load"
		continue
	fi
	ca=$(field "$a" cycles_min)
	cb=$(field "$b" cycles_min)
	desc="$a cheaper than $b (min $ca < $cb cycles"
	if [ -n "$debug_kernel" ]; then
		ktap_result skip "$desc)" "$debug_kernel distorts relative costs"
		continue
	fi
	if compare "$ca" "<" "$cb"; then
		ktap_result ok "$desc)"
		continue
	fi
	again=$(remeasure "$a" "$b")
	ra=$(results_field "$again" "$a" cycles_min)
	rb=$(results_field "$again" "$b" cycles_min)
	check "$desc; re-measured over $remeasure_reps reps: ${ra:-none} < ${rb:-none})" \
		compare "$ra" "<" "$rb"
done <<EOF
$(relation_lines)
EOF

while read -r name limit; do
	[ -n "$name" ] || continue
	if [ -z "$results" ]; then
		ktap_result skip "$name within $limit cycles" "module did not load"
		continue
	fi
	c=$(field "$name" cycles_median)
	check "$name within $limit cycles ($c)" compare "$c" "<=" "$limit"
done <<EOF
$(threshold_lines)
EOF

splats=$(kernel_log_since_marker | grep -E -f "$HERE/splat_patterns")
if [ -z "$splats" ]; then
	ktap_result ok "no kernel warning during the run"
else
	ktap_result fail "no kernel warning during the run"
	kernel_log_since_marker | sed 's/^/# /'
fi

[ -z "$keep" ] && lsmod | grep -q "^$MODULE " && rmmod $MODULE

echo "# Totals: pass:$ktap_pass fail:$ktap_fail xfail:0 xpass:0 skip:$ktap_skip error:0"
[ $ktap_fail = 0 ] || exit $KSFT_FAIL
exit $KSFT_PASS
