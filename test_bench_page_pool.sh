#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kselftest for bench_page_pool_simple: loads the module with the given
# parameters, reads this run's results file and checks that every test
# the module selected reported (or said why this kernel cannot run it),
# ran in its context and took its path, that the relations between the
# paths hold, optional per-test limits, and that the kernel printed no
# warning meanwhile.  Prints KTAP.
# Exit status: 0 all passed, 1 a check failed, 4 skipped.
#
# POSIX sh on purpose: it also runs in busybox-only guests.

MODULE=bench_page_pool_simple
HERE=$(cd "$(dirname "$0")" && pwd)
RESULTS=/sys/kernel/debug/$MODULE/results

if [ ! -r "$HERE/ktap_lib.sh" ]; then
	echo "$0: $HERE/ktap_lib.sh is missing" >&2
	exit 1
fi
. "$HERE/ktap_lib.sh"

usage() {
	cat <<EOF
usage: $0 [-d DIR] [-r FILE] [-t FILE] [-k] [PARAM=VALUE]...
Loads $MODULE with the module parameters given (see modinfo), checks
its results and prints KTAP.  The modules come from -d DIR, else from
the time_bench.ko and $MODULE.ko beside this script (the kselftest
install layout), else from modprobe; a diagnostic line says which.
  -d DIR   insmod time_bench.ko and $MODULE.ko from DIR (a build tree)
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

# What each test must do: the path its pages take (see the module's
# probe): cache, ring, allocator, "any" (cache or ring: the kernel's
# choice), "frag" (the probe sees the cache; the pool reuses its
# fragment page in place once both halves are back, so page_pool's
# counters show one fast allocation per fragment and no recycling),
# "xcpu" (ring, and the pool may take from the page allocator what the
# queues to the returning CPUs hold in flight) or "-" (no page_pool).  Names, bits and contexts come from the
# results file; a test without a line here fails its path check.
EXPECTED_PATHS="for_loop -
atomic_inc -
lock -
no-softirq-page_pool01 any
no-softirq-page_pool02 ring
no-softirq-page_pool03 allocator
tasklet_page_pool01_fast_path cache
tasklet_page_pool02_ptr_ring ring
tasklet_page_pool03_slow allocator
tasklet_page_pool04_dma_fast_path cache
tasklet_page_pool05_dma_ptr_ring ring
tasklet_page_pool06_dma_slow allocator
tasklet_page_pool07_frag frag
tasklet_page_pool08_bulk ring
tasklet_page_pool09_netmem cache
napi_page_pool01_fast_path cache
napi_page_pool02_ptr_ring ring
napi_page_pool03_skb_bound cache
napi_page_pool04_skb_unbound ring
cross_cpu_page_pool01_return xcpu"

# Pairs "cheaper dearer" measured to hold on any machine (README.rst).
RELATIONS="tasklet_page_pool01_fast_path tasklet_page_pool02_ptr_ring
tasklet_page_pool02_ptr_ring tasklet_page_pool03_slow
no-softirq-page_pool02 no-softirq-page_pool03
tasklet_page_pool04_dma_fast_path tasklet_page_pool05_dma_ptr_ring
tasklet_page_pool05_dma_ptr_ring tasklet_page_pool06_dma_slow
tasklet_page_pool08_bulk tasklet_page_pool02_ptr_ring
napi_page_pool01_fast_path napi_page_pool02_ptr_ring"

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
	h) usage; exit "$KSFT_PASS" ;;
	*) usage >&2; exit "$KSFT_FAIL" ;;
	esac
done
shift $((OPTIND - 1))

loops=
reps=
other_params=
for param in "$@"; do
	case $param in
	run_flags=* | tests=*) ;;
	reps=*) reps=${param#reps=} ;;
	*=*) other_params="$other_params $param"
	     case $param in loops=*) loops=${param#loops=} ;; esac ;;
	*) echo "$0: not a module parameter: $param" >&2
	   usage >&2; exit "$KSFT_FAIL" ;;
	esac
done

need_readable() {	# what file
	if [ -n "$2" ] && [ ! -r "$2" ]; then
		echo "$0: cannot read $1 file $2" >&2
		exit "$KSFT_FAIL"
	fi
}
need_readable relations "$relations"
need_readable thresholds "$thresholds"
[ -r "$HERE/splat_patterns" ] ||
	{ echo "$0: $HERE/splat_patterns is missing" >&2; exit "$KSFT_FAIL"; }

skip_all() {
	ktap_print_header
	ktap_skip_all "$*"
	exit "$KSFT_SKIP"
}

[ "$(id -u)" = 0 ] || skip_all "must be run as root"
grep -qw page_pool_create /proc/kallsyms 2>/dev/null ||
	skip_all "kernel has no page_pool (CONFIG_PAGE_POOL)"
if [ -n "$moddir" ]; then
	[ -f "$moddir/time_bench.ko" ] && [ -f "$moddir/$MODULE.ko" ] ||
		skip_all "no time_bench.ko and $MODULE.ko in $moddir"
	source_desc="insmod from $moddir"
elif [ -f "$HERE/time_bench.ko" ] && [ -f "$HERE/$MODULE.ko" ]; then
	moddir=$HERE
	source_desc="insmod from $HERE (beside this script)"
else
	modprobe -n -q $MODULE 2>/dev/null ||
		skip_all "module $MODULE not found (no .ko beside this script, none installed; build it, or use -d DIR)"
	source_desc="modprobe $MODULE"
fi
grep -qs ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null ||
	skip_all "debugfs is not mounted and cannot be"

ktap_print_header
ktap_print_msg "modules: $source_desc"

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

kernel_log_since_marker() {
	dmesg | sed -n "/$marker/,\$p" | sed 1d
}

results=
load_module "$@" && [ -r "$RESULTS" ] && results=$(cat "$RESULTS")

results_field() {	# results test field
	echo "$1" | awk -v t="$2" -v f="$3" '
		($1 == "test:" || $1 == "skip:") && $2 == "name=" t {
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

selected() {	# the tests the module selected, one a line
	echo "$results" | sed -n 's/^selected: //p' | tr ',' '\n'
}

skip_reason() {	# test: why the module did not run it, if it said so
	echo "$results" | sed -n "s/^skip: name=$1 .* reason=//p"
}

expected_path() {
	echo "$EXPECTED_PATHS" | awk -v t="$1" '$1 == t { print $2 }'
}

is_run() {	# test: selected and run in this load
	selected | grep -qx "$1" && [ -z "$(skip_reason "$1")" ]
}

compare() {	# a op b: numeric comparison; false if either is missing
	awk -v a="$1" -v op="$2" -v b="$3" 'BEGIN {
		if (a == "" || b == "")
			exit 1
		exit !(op == "<" ? a + 0 < b + 0 : a + 0 <= b + 0)
	}'
}

pairs_in() {	# file: its "NAME VALUE" lines, comments and blanks left out
	grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$1"
}

relation_lines() {
	if [ -n "$relations" ]; then
		pairs_in "$relations"
	else
		echo "$RELATIONS"
	fi | while read -r a b; do
		is_run "$a" && is_run "$b" && echo "$a $b"
	done
}

threshold_lines() {
	[ -n "$thresholds" ] || return 0
	pairs_in "$thresholds" | while read -r name limit; do
		is_run "$name" && echo "$name $limit"
	done
}

# The plan, now that the results say what ran: the load; per test run,
# reported, context and path, plus page_pool stats for page_pool tests;
# one line per test the kernel cannot run; relations; limits; no splat.
if [ -n "$results" ]; then
	plan=2
	for name in $(selected); do
		if [ -n "$(skip_reason "$name")" ]; then
			plan=$((plan + 1))
		elif [ "$(field "$name" path)" = - ]; then
			plan=$((plan + 3))
		else
			plan=$((plan + 4))
		fi
	done
	plan=$((plan + $(relation_lines | wc -l) + $(threshold_lines | wc -l)))
	ktap_set_plan $plan
	ktap_test_pass "$MODULE loads with: ${*:-defaults}"
else
	ktap_set_plan 2
	ktap_test_fail "$MODULE loads with: ${*:-defaults}"
	kernel_log_since_marker | sed 's/^/# /'
fi

# page_pool's own counters over the timed loop, where the kernel keeps
# them (CONFIG_PAGE_POOL_STATS): every iteration recycled the test's way.
check_pp_stats() {	# name path total_invoke_count
	# Returned from other CPUs, the pages take the ring (or, when it is
	# full, go back to the page allocator).
	[ "$2" = xcpu ] && set -- "$1" ring "$3"
	desc="$1 page_pool stats agree with path $(echo "$2" | sed "s/^any$/cache or ring/")"
	if ! echo "$results" | grep -qx 'page_pool_stats: yes'; then
		ktap_test_skip "$desc" "kernel without CONFIG_PAGE_POOL_STATS"
		return
	fi
	cached=$(field "$1" recycle_cached)
	ring=$(field "$1" recycle_ring)
	ring_full=$(field "$1" recycle_ring_full)
	refcnt=$(field "$1" recycle_released_refcnt)
	fast=$(field "$1" alloc_fast)
	desc="$desc (cached=$cached ring=$ring ring_full=$ring_full released_refcnt=$refcnt of $3)"
	case $2 in
	# Two fragments per page: the module's BENCH_FRAG_SIZE is half a page.
	frag) ktap_test_result "$desc, alloc_fast=$fast" test "$fast" = $((2 * $3)) -a "$cached" = 0 -a "$ring" = 0 -a "$refcnt" = 0 ;;
	cache) ktap_test_result "$desc" test "$cached" = "$3" -a "$ring" = 0 -a "$refcnt" = 0 ;;
	# A full ring gives the page back to the page allocator instead.
	ring) ktap_test_result "$desc" test $((ring + ring_full)) = "$3" -a "$cached" = 0 -a "$refcnt" = 0 ;;
	allocator) ktap_test_result "$desc" test "$refcnt" = "$3" -a "$cached" = 0 -a "$ring" = 0 ;;
	*) ktap_test_result "$desc" test $((cached + ring)) = "$3" -a "$refcnt" = 0 ;;
	esac
}

# Test-wide diagnostics for the log.
echo "$results" | sed -n 's/^\(kernel\|cpu_model\|config\|runtime\|params\|page_pool_stats\): /# &/p'

for name in $(selected); do
	reason=$(skip_reason "$name")
	if [ -n "$reason" ]; then
		ktap_test_skip "$name" "$reason"
		continue
	fi
	echo "$results" | grep -E "^(test|cpu): name=$name " | sed 's/^/# /'
	invoke=$(field "$name" invoke_count)
	nreps=$(field "$name" reps)
	total=$(field "$name" total_invoke_count)
	ran=$(field "$name" loops)
	want=${loops:-$ran}
	ktap_test_result "$name reported, invoke count $invoke == loops ${want:-?} in each of ${nreps:-?} reps" \
		test -n "$invoke" -a "$invoke" != 0 -a "$invoke" = "$want" \
		-a "$total" = "$((invoke * ${nreps:-0}))"
	ctx=$(field "$name" context)
	wanted=$(field "$name" wanted_context)
	ktap_test_result "$name ran in $wanted context ($ctx)" \
		test -n "$ctx" -a "$ctx" = "$wanted"

	path=$(expected_path "$name")
	got=$(field "$name" path)
	allocated=$(field "$name" pages_allocated)
	released=$(field "$name" pages_released)
	case $path in
	'')
		ktap_test_fail "$name has an expected path in $0 (took $got)"
		;;
	-)
		ktap_test_result "$name uses no page_pool" test "$got" = "-"
		;;
	any)
		# Direct recycling outside softirq is a kernel's choice: 6.1
		# falls back to the ring, 6.12 uses the cache.
		ktap_test_result "$name recycles ($got), no page from the allocator" \
			test "$allocated" = 0 -a \( "$got" = cache -o "$got" = ring \)
		;;
	xcpu)
		# Pages in flight to the returning CPUs are out of the pool:
		# up to a queue of 256 each, and page_pool refills from the
		# page allocator 64 at a time.
		returners=$(echo "$results" | grep -c "^cpu: name=$name .* role=return ")
		most=$((256 * returners + 64))
		ktap_test_result "$name recycles through the ring ($got), from the allocator at most what $returners returning CPU(s) hold in flight ($allocated <= $most)" \
			test "$got" = ring -a "$returners" -gt 0 -a "$allocated" -le "$most"
		;;
	frag)
		ktap_test_result "$name reuses its fragment page in place (probe: $got), no page from the allocator ($allocated)" \
			test "$got" = cache -a "$allocated" = 0
		;;
	allocator)
		ktap_test_result "$name returns every page to the allocator ($got, released $released)" \
			test "$got" = allocator -a "$released" = "$total"
		;;
	*)
		ktap_test_result "$name recycles through the $path ($got), no page from the allocator ($allocated)" \
			test "$got" = "$path" -a "$allocated" = 0
		;;
	esac
	[ "$got" = - ] || check_pp_stats "$name" "${path:-unknown}" "$total"
done

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
	lsmod | grep -q "^$MODULE " && rmmod $MODULE
	set -f	# the parameters are words, never patterns
	# shellcheck disable=SC2086
	load_module $other_params "tests=$1,$2" "reps=$remeasure_reps" \
		</dev/null >/dev/null 2>&1 && cat "$RESULTS"
	rc=$?
	set +f
	return $rc
}

# Lock debugging makes every spinlock cost thousands of cycles: relations
# between paths that take different locks do not hold there.
debug_kernel=
[ -e /proc/lockdep ] && debug_kernel="lockdep"

# Noise on a busy or emulated machine (the host taking the CPU away from
# the guest, an interrupt) only ever adds cycles: compare the cheapest
# repetition of each test.  A short run can still be disturbed as a
# whole, so a relation that fails is measured once more in a load of its
# own with several repetitions, and fails the check only if it fails
# again.
while read -r a b; do
	[ -n "$a" ] && [ -n "$results" ] || continue
	ca=$(field "$a" cycles_min)
	cb=$(field "$b" cycles_min)
	desc="$a cheaper than $b (min $ca < $cb cycles"
	if [ -n "$debug_kernel" ]; then
		ktap_test_skip "$desc)" "$debug_kernel distorts relative costs"
		continue
	fi
	if compare "$ca" "<" "$cb"; then
		ktap_test_pass "$desc)"
		continue
	fi
	again=$(remeasure "$a" "$b")
	ra=$(results_field "$again" "$a" cycles_min)
	rb=$(results_field "$again" "$b" cycles_min)
	ktap_test_result "$desc; re-measured over $remeasure_reps reps: ${ra:-none} < ${rb:-none})" \
		compare "$ra" "<" "$rb"
done <<EOF
$(relation_lines)
EOF

while read -r name limit; do
	[ -n "$name" ] && [ -n "$results" ] || continue
	c=$(field "$name" cycles_median)
	ktap_test_result "$name within $limit cycles ($c)" compare "$c" "<=" "$limit"
done <<EOF
$(threshold_lines)
EOF

splats=$(kernel_log_since_marker | grep -E -f "$HERE/splat_patterns")
if [ -z "$splats" ]; then
	ktap_test_pass "no kernel warning during the run"
else
	ktap_test_fail "no kernel warning during the run"
	kernel_log_since_marker | sed 's/^/# /'
fi

[ -z "$keep" ] && lsmod | grep -q "^$MODULE " && rmmod $MODULE

ktap_finished
