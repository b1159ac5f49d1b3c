# SPDX-License-Identifier: GPL-2.0
#
# Guest payload of "make check": runs in a throw-away guest as root,
# from /bench, with the modules in /lib/modules/$(uname -r)/extra.
# Prints KTAP, one line per check, and exits 1 if any failed.
# It names no test: a first load of every test (the reference) says
# which tests there are and what each must do, and the checks below take
# their tests from it, so a new test needs no edit here.
# /bench/suite.conf may set LONG_SECONDS (run loops=4294967295 that long
# and kill it), LEAK_RUNS (load/unload cycles of the leak check) and
# LEAK_ARGS (their parameters), LEAK_LIMIT (pages a load may lose),
# HOG_ONLY=1 (only the CPU hog beside the module, see hog_check),
# IRQ_ONLY=1 (only the timer interrupts beside it, see irq_check; with
# HOG_ONLY=1, both),
# PERF=0 (no perf check), QUICK=1 (a second CPU model: the kselftest
# and the legacy lines only), PRECISE=1 (a guest counting instructions,
# QEMU -icount: only what needs their precision: -n/-o with every
# check, the relations included, an inverted relation and the
# regression gate; GATE=0 leaves the gate to the first kernel's guest:
# it is the wrapper's arithmetic, the same on every kernel), KSFT_ARGS (module parameters of the first kselftest
# run; with the kselftest install, of run_kselftest.sh's, given in
# $BENCH_PAGE_POOL_PARAMS) and DEBUG=1 (debug kernel: kmemleak,
# fail_page_alloc, DMA API debugging, the kselftest install in
# /bench/kselftest, no timing-bound checks).

MODULE=bench_page_pool
# its messages' prefix and its debugfs folder: the benchmark's name
BENCH=bench_page_pool_simple
MODDIR=/lib/modules/$(uname -r)/extra
LONG_SECONDS=0
LEAK_RUNS=10
LEAK_ARGS=loops=20000
# Measured without a leak: about one page per run on Debian's kernels
# (slab growth).  One run cycles 20000 pages through each test, so a
# leak of one page in 2000 iterations, or of one pool's cache (64 pages),
# loses ten or more per run.
LEAK_LIMIT=10
# five standard deviations of a reading's own spread (below)
LEAK_SPREAD=170
PERF=1
QUICK=0
PRECISE=0
HOG_ONLY=0
IRQ_ONLY=0
GATE=1
KSFT_ARGS=
DEBUG=0
[ -r ./suite.conf ] && . ./suite.conf
# the wrapper's -c and -b read saved results through bench-compare
BENCH_COMPARE=/bench/bench-compare
export BENCH_COMPARE
KMEMLEAK=/sys/kernel/debug/kmemleak
FAIL_PAGE_ALLOC=/sys/kernel/debug/fail_page_alloc

# kmemleak scans on demand only, after a clean slate: its periodic scan
# would report boot-time objects on the console at a random moment.
if [ "$DEBUG" = 1 ] && [ -w $KMEMLEAK ]; then
	echo scan=off >$KMEMLEAK
	echo scan >$KMEMLEAK
	echo clear >$KMEMLEAK
fi

. ./ktap_lib.sh
. ./results_lib.sh
. ./checks.sh
ktap_print_header

# time_bench is linked into the module, as upstream links it: no module
# of its own for modprobe to resolve.
if deps=$(modinfo -F depends $MODULE); then
	echo "#   $MODULE depends on: ${deps:-nothing}"
	case ",$deps," in
	*,time_bench,*) false ;;
	esac
else
	echo "#   modinfo $MODULE failed"
	false
fi
report $? "time_bench is linked into $MODULE, no module of its own"

# A CPU hog beside the module, on the guest's one vCPU: the process
# context's windows must hold the tests' own work only.  Every kernel
# but PREEMPT_RT runs them with preemption off: none is preemptible,
# none measured again, the baselines read their loops' instructions
# (3 and 4) and the twins agree.  Under PREEMPT_RT the hog is switched
# in: such chunks are measured again, and the kselftest passes, or
# fails the window check naming the hog among the tasks that ran.
HOG_TESTS=for_loop,atomic_inc,no-softirq-page_pool01,tasklet_page_pool01_fast_path
if [ "$HOG_ONLY" = 1 ] || [ "$IRQ_ONLY" = 1 ]; then
	if [ "$HOG_ONLY" = 1 ]; then
		hog_check
		report $? "a CPU hog beside the module (one vCPU, $(uname -v | grep -o 'PREEMPT[A-Z_]*' | head -n 1)): process windows hold the tests' own work, or the kselftest fails naming it"
	fi
	if [ "$IRQ_ONLY" = 1 ]; then
		irq_check
		report $? "timer interrupts beside the module (one vCPU): each test reads its quiet figure, or the kselftest fails it naming what entered"
	fi
	ktap_finished
fi

# The reference: one load of every test, loops=1000.  With DMA API
# debugging (debug kernel) it is also the DMA check's load: what stays
# mapped on the module's device once it is gone, and the new errors.
REFERENCE=/tmp/reference.results
DMA_API=/sys/kernel/debug/dma-api
reference_load
report $? "a reference load of every test (loops=1000), which the checks below take their tests from"
CLOCK=$(results_header $REFERENCE clock)
CLOCK=${CLOCK:-cycles}
ACCEL=$(results_header $REFERENCE accel)
echo "#   reference: $(results_tests $REFERENCE | wc -l) tests selected, $(reference_rows | wc -l) ran; clock: $CLOCK, accel: ${ACCEL:-unknown}"
# The first softirq test, the last test, and the first softirq test
# that returns its pages through the ptr_ring.
# shellcheck disable=SC2046 # two words: the name and the bit
set -- $(reference_rows wanted_context run_flags_bit |
	 awk '$2 == "softirq" { print $1, $3; exit }')
SOFTIRQ_TEST=${1:-none}
SOFTIRQ_FLAGS=0
valid_bit "${2:-}" && SOFTIRQ_FLAGS=$(printf '0x%x' $((1 << $2)))
LAST_TEST=$(reference_rows | tail -n 1)
RING_TEST=$(reference_rows wanted_context expect_path |
	    awk '$2 == "softirq" && $3 == "ring" { print $1; exit }')
# The run_flags bits of the tests that run on one CPU (no cpu: lines).
ONE_CPU_FLAGS=0
cpu_tests=" $(results_cpu_tests $REFERENCE | tr '\n' ' ')"
reference_rows run_flags_bit >/tmp/bits
while read -r t bit; do
	case $cpu_tests in
	*" $t "*) continue ;;
	esac
	valid_bit "$bit" && ONE_CPU_FLAGS=$((ONE_CPU_FLAGS | (1 << bit)))
done </tmp/bits
ONE_CPU_FLAGS=$(printf '0x%x' $ONE_CPU_FLAGS)

# Counting instructions, the default run is the -n 2 -o one below; with
# the kselftest framework's install, its runner's run (further down).
# shellcheck disable=SC2086 # words, never patterns
if [ "$PRECISE" = 0 ] && [ ! -x /bench/kselftest/run_kselftest.sh ]; then
	kselftest "kselftest, ${KSFT_ARGS:-default parameters (sized by time_ms)}" $KSFT_ARGS
	# its KTAP, whose check names the host compares across guests
	cp /tmp/ksft.out "${BENCH_OUT:-/tmp}/ksft-default.ktap"
fi
# Under KASAN and lockdep a fixed loops is minutes: the debug kernel
# runs only the time-sized load (the install's run below).
if [ "$DEBUG" = 0 ] && [ "$QUICK" = 0 ] && [ "$PRECISE" = 0 ]; then
	kselftest "kselftest, explicit loops=20000" loops=20000
	kselftest "kselftest, tests by name: tests=legacy,napi*,$LAST_TEST" \
		loops=20000 "tests=legacy,napi*,$LAST_TEST"
fi
[ "$QUICK" = 0 ] && [ "$PRECISE" = 0 ] &&
	kselftest "kselftest, one softirq test alone: run_flags=$SOFTIRQ_FLAGS ($SOFTIRQ_TEST)" \
		loops=100000 run_flags=$SOFTIRQ_FLAGS

if [ "$DEBUG" = 0 ] && [ "$QUICK" = 0 ]; then
	case $CLOCK/$ACCEL in
	instructions/*) what="fails at once on instruction counts" ;;
	cycles/tcg) what="is skipped on emulated cycles, with the reason" ;;
	*) what="fails after re-measuring it" ;;
	esac
	inverted_relation_check
	report $? "kselftest: an inverted relation of the reference $what"
fi

# A test box collects loads: -n 2 -o DIR keeps both results files and
# checks each load, the relations on instruction counts included; the
# regression gate passes on an earlier load of the same kernel and fails
# on a baseline made cheaper.  Instruction counts (QEMU -icount, one
# vCPU) make a tight gate possible: with the default parameters the
# cheapest repetition of a recycling test agreed across boots to 0.17
# instruction, of an allocator path to 13 in 5600 (0.23%); GATE_PCT is
# more than eight times that, and the cheaper baseline (every
# cycles_min divided by 1.1, a rise of 10%) is 5 times GATE_PCT.  A
# 3-instruction change of the 78-instruction fast path (+3.8%) still
# fails it.  The loads run the tests of one CPU: under -icount the
# vCPUs take turns, and the cross-CPU test skips itself there anyway.
GATE_ARGS="run_flags=$ONE_CPU_FLAGS"
GATE_PCT=2
# Kept for the host (make check compares them with the other guests').
LOADS=${BENCH_OUT:-/tmp}/loads

# Instruction counts (PRECISE=1) check -n/-o and the gate; the whole
# suite the file errors, which need no precision.
if [ "$DEBUG" = 0 ] && [ "$QUICK" = 0 ] && [ "$PRECISE" = 0 ]; then
	bad_thresholds_check
	report $? "kselftest: a bad thresholds line is a usage error naming FILE:LINE"
fi
if [ "$PRECISE" = 1 ]; then
	collect_check
	report $? "kselftest -n 2 -o DIR, default parameters: two loads kept with the environment user space read, every check on each ($GATE_ARGS)"
	hog_check
	report $? "a CPU hog beside the module (one vCPU): process windows hold the tests' own work, for_loop 3.00 and atomic_inc 4.00 instructions, the twins agree"
	irq_check
	report $? "timer interrupts beside the module (one vCPU): each test reads its quiet figure, or the kselftest fails it naming what entered"
	if [ "$CLOCK" = instructions ] && [ "$GATE" = 1 ]; then
		gate_passes
		report $? "kselftest -b -p $GATE_PCT: an earlier load of the same kernel passes the gate"
		gate_fails
		report $? "kselftest -c -b -p $GATE_PCT: a baseline 10% cheaper fails every test of load 2"
	else
		for what in "-b -p $GATE_PCT: an earlier load of the same kernel passes the gate" \
			    "-c -b -p $GATE_PCT: a baseline 10% cheaper fails every test of load 2"; do
			why="a tight gate needs instruction counts (QEMU -icount), this is clock: $CLOCK"
			[ "$GATE" = 1 ] ||
				why="the gate is the wrapper's, the same on every kernel: checked on the first"
			ktap_test_skip "kselftest $what" "$why"
		done
	fi
	ktap_finished
fi

if [ "$QUICK" = 0 ]; then

# The first run_flags bit past the table's last one.
modprobe $MODULE loops=1000 run_flags=1 && {
	last=$(modinfo -F parm $MODULE | grep '^run_flags:' | tr ' ' '\n' |
	       sed -n 's/^\([0-9]*\)=.*/\1/p' | sort -n | tail -n 1)
	rmmod $MODULE
}
next_bit=$(printf '0x%x' $((1 << (${last:-30} + 1))))
bad_param loops=0 "loops=0 invalid"
bad_param loops=999 "loops=999 invalid"
bad_param loops=abc "loops=abc invalid"
bad_param loops=4294967296 "loops=4294967296 invalid"
bad_param run_flags=0 "run_flags=0x0 invalid"
bad_param run_flags=$next_bit "run_flags=$next_bit invalid: unknown bits"
bad_param run_flags=0xffffffff "run_flags=0xffffffff invalid"
bad_param time_ms=0 "time_ms=0 invalid"
bad_param time_ms=60001 "time_ms=60001 invalid"
bad_param tests=nosuch "tests=nosuch invalid: 'nosuch' names no test"
bad_param tests=legacy,,lock "tests=legacy,,lock invalid: '' names no test"
bad_param return_cpus=0 "return_cpus=0 invalid"
bad_param return_cpus=$(grep -c ^processor /proc/cpuinfo) \
	"return_cpus=$(grep -c ^processor /proc/cpuinfo) invalid"

# Pages: the free page count must come back after many full runs.  The
# first run is not counted: it allocates the module's own memory.  The
# count moves by itself between two readings: over five cycles, Debian's
# 7.2 read from 54 pages gained to 64 lost (14 readings, standard
# deviation 34; as much with a test that takes no page), so LEAK_SPREAD
# is allowed beside LEAK_LIMIT a run.  The pages a test gives back to
# the page allocator, by page_pool's own tracepoint, are checked exactly
# where the test table gives them (expect_released, the kselftest's
# checks); this checks everything else.
# shellcheck disable=SC2086
modprobe $MODULE $LEAK_ARGS && rmmod $MODULE
before=$(free_pages)
i=0
ok=0
while [ $i -lt "$LEAK_RUNS" ]; do
	# shellcheck disable=SC2086
	modprobe $MODULE $LEAK_ARGS && rmmod $MODULE || ok=1
	i=$((i + 1))
done
after=$(free_pages)
lost=$((before - after))
limit=$((LEAK_RUNS * LEAK_LIMIT + LEAK_SPREAD))
echo "#   free pages (buddy + per-CPU lists) before $before after $after: $lost lost over $LEAK_RUNS runs, limit $limit"
[ $ok = 0 ] && [ $lost -lt $limit ]
report $? "no pages lost over $LEAK_RUNS load/run/unload cycles ($LEAK_ARGS)"

fi

if [ "$DEBUG" = 0 ] && [ "$QUICK" = 0 ]; then
	UNIT=$CLOCK spread_check "$RING_TEST"
	report $? "the median of 9 repetitions spreads less than one repetition ($RING_TEST)"
fi

# DMA API debugging (debug kernel): the DMA tests, among all the tests,
# leave nothing mapped on the module's device once their pools are
# gone, and no error.
if [ -r $DMA_API/dump ]; then
	echo "#   DMA tests, in the reference load: mappings left on the device: ${dma_mapped:-?}; new DMA-API errors: ${dma_errors:-?}"
	[ "${dma_mapped:-}" = 0 ] && [ "${dma_errors:-}" = 0 ]
	report $? "DMA tests leave no mapping and no DMA-API error"
else
	ktap_test_skip "DMA tests leave no mapping and no DMA-API error" \
		"kernel without CONFIG_DMA_API_DEBUG"
fi

# The kselftest framework's install of the project (make check copies
# it to /bench/kselftest): its runner, which passes no arguments (the
# module parameters go in the environment), and the wrapper loading the
# .ko file beside it, not the installed one.
KSFT_DIR=/bench/kselftest/net/bench_page_pool
if [ -x /bench/kselftest/run_kselftest.sh ]; then
	# The runner appends the wrapper's output to /dev/stdout, a second
	# open of the file: both must append, or its own lines overwrite
	# the wrapper's.
	: >/tmp/runner.out
	(cd /bench/kselftest &&
		BENCH_PAGE_POOL_PARAMS="$KSFT_ARGS" ./run_kselftest.sh) \
		>>/tmp/runner.out 2>&1
	rc=$?
	sed 's/^/#   /' /tmp/runner.out
	[ $rc = 0 ] &&
		grep -qx 'ok 1 selftests: net/bench_page_pool: test_bench_page_pool.sh' \
			/tmp/runner.out &&
		{ [ -z "$KSFT_ARGS" ] ||
		  grep -qxF "# # parameters: $KSFT_ARGS (from \$BENCH_PAGE_POOL_PARAMS)" \
			/tmp/runner.out; }
	rc=$?
	if [ -n "$KSFT_ARGS" ]; then
		report $rc "run_kselftest.sh runs the installed kselftest, $KSFT_ARGS from \$BENCH_PAGE_POOL_PARAMS"
	else
		report $rc "run_kselftest.sh runs the installed kselftest, default parameters"
	fi
	grep -qxF "# # modules: insmod from $KSFT_DIR" \
		/tmp/runner.out
	report $? "the installed wrapper loads the .ko file beside it"
	loaded && rmmod $MODULE
fi

if [ "$DEBUG" = 1 ]; then
	if [ -d $FAIL_PAGE_ALLOC ]; then
		fail_alloc_runs
	else
		report 1 "fail_page_alloc is available (CONFIG_FAIL_PAGE_ALLOC)"
	fi
	if [ -w $KMEMLEAK ]; then
		# Objects must be older than kmemleak's minimum age (5 s)
		# before a scan reports them.
		sleep 6
		echo scan >$KMEMLEAK
		echo scan >$KMEMLEAK
		sed 's/^/#   /' $KMEMLEAK
		[ ! -s $KMEMLEAK ]
		report $? "kmemleak finds no leak after all runs"
	else
		report 1 "kmemleak is available (CONFIG_DEBUG_KMEMLEAK)"
	fi
fi

if [ "$PERF" = 1 ] && [ "$QUICK" = 0 ] && command -v perf >/dev/null; then
	# The documented profiling recipe: one softirq test, recorded through
	# modprobe; its samples must show the loop inside the tasklet.
	perf record -q -e cpu-clock -g -o /tmp/perf.data \
		modprobe $MODULE loops=2000000 run_flags=$SOFTIRQ_FLAGS >/dev/null 2>&1
	rc=$?
	perf report -q -i /tmp/perf.data --stdio --no-children --sort sym \
		>/tmp/perf.txt 2>&1
	top=$(grep -m1 '%' /tmp/perf.txt)
	echo "#   perf record exit $rc; hottest: $top"
	[ $rc = 0 ] && grep -q 'bench_pp_fast_path' /tmp/perf.txt &&
		grep -q 'tasklet_action' /tmp/perf.txt
	report $? "perf record -g modprobe ... run_flags=$SOFTIRQ_FLAGS samples the loop in the tasklet"
	loaded && rmmod $MODULE
fi

if [ "$LONG_SECONDS" -gt 0 ]; then
	# A huge loops value must neither stall RCU nor trip the soft
	# lockup detector, and a fatal signal must end the load.  Both
	# detectors are made quicker for the run (after about 20 s by
	# default): RCU after 8 s, the soft lockup one after 10 s (twice
	# watchdog_thresh), so LONG_SECONDS=15 is past both.
	watchdog=/proc/sys/kernel/watchdog_thresh
	stall=/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
	watchdog_was=$(cat $watchdog 2>/dev/null)
	stall_was=$(cat $stall 2>/dev/null)
	[ -n "$watchdog_was" ] && echo 5 >$watchdog
	[ -n "$stall_was" ] && echo 8 >$stall
	soft_limit=$((2 * $(cat $watchdog 2>/dev/null || echo 0)))
	stall_limit=$(cat $stall 2>/dev/null || echo 0)
	echo "#   limits: soft lockup after ${soft_limit}s, RCU stall after ${stall_limit}s (0: no detector)"
	mark="long-run-check"
	printf '%s\n' "$mark" >/dev/kmsg
	modprobe $MODULE loops=4294967295 run_flags=$SOFTIRQ_FLAGS &
	pid=$!
	sleep "$LONG_SECONDS"
	kill -9 $pid
	wait $pid
	rc=$?
	sleep 1
	line=$(dmesg | sed -n "/$mark/,\$p" | grep "$BENCH: .*interrupted")
	echo "#   after ${LONG_SECONDS}s: modprobe exit $rc; dmesg: ${line#*] }"
	# both detectors there, and due before the run ends
	! loaded && [ $rc != 0 ] && [ -n "$line" ] &&
		[ "$soft_limit" -gt 0 ] && [ "$soft_limit" -lt "$LONG_SECONDS" ] &&
		[ "$stall_limit" -gt 0 ] && [ "$stall_limit" -lt "$LONG_SECONDS" ]
	report $? "loops=4294967295 runs ${LONG_SECONDS}s without stall, ends on SIGKILL"
	[ -n "$watchdog_was" ] && printf '%s\n' "$watchdog_was" >$watchdog
	[ -n "$stall_was" ] && printf '%s\n' "$stall_was" >$stall
fi

# A run whose results file and kernel messages reach the host (as
# bench-compare.results and .dmesg), which feeds them to bench-compare.
if [ "$DEBUG" = 0 ]; then
	. ./guest-lib.sh
	echo "pmu-check" >/dev/kmsg
	bench_modprobe bench-compare reps=3 time_ms=100
	report $? "a run for bench-compare"
	results=$BENCH_OUT/bench-compare.results

	# Without a PMU (emulation has none) the module says so once, marks
	# every test and carries on; with one, every test has its counts.
	pmu=$(results_header $results pmu)
	said=$(dmesg | sed -n '/pmu-check/,$p' | grep -c 'PMU counters unavailable')
	tests=0 marked=0 counted=0
	for t in $(results_tests $results); do
		results_ran $results "$t" || continue
		tests=$((tests + 1))
		results_fields $results "$t" pmu ipc >/tmp/pmu.fields
		{ read -r mark; read -r ipc; } </tmp/pmu.fields
		[ "$mark" = - ] && marked=$((marked + 1))
		[ -n "$ipc" ] && counted=$((counted + 1))
	done
	echo "#   pmu: $pmu; said unavailable $said time(s); of $tests tests $marked marked pmu=-, $counted with ipc="
	case $pmu in
	unavailable*)
		[ "$said" = 1 ] && [ "$marked" = "$tests" ] ;;
	*)
		[ "$said" = 0 ] && [ "$counted" = "$tests" ] ;;
	esac
	report $? "PMU counts, or one clear line that there are none"

	# The legacy line, byte for byte as users grep it, with per-element
	# figures that are the truncated quotients of its own totals.
	dmesg | sed -n '/pmu-check/,$p' | grep 'time_bench: Type:.* Per elem:' |
		sed 's/^\[[^]]*\] //' >/tmp/legacy
	bad=$(grep -Evc '^time_bench: Type:[^ ]+ Per elem: [0-9]+ cycles\(tsc\) [0-9]+\.[0-9]{3} ns \(step:[0-9]+\) - \(measurement period time:[0-9]+\.[0-9]{9} sec time_interval:[0-9]+\) - \(invoke count:[0-9]+ tsc_interval:[0-9]+\)$' /tmp/legacy)
	wrong=$(sed 's/[():]/ /g' /tmp/legacy | awk '{
		cyc = $6; ns = $9; sec = $17; t_ns = $20; inv = $24; tsc = $26
		if (cyc != int(tsc / inv) || ns != sprintf("%.3f", int(t_ns * 1000 / inv) / 1000) ||
		    sec != sprintf("%d.%09d", int(t_ns / 1e9), t_ns % 1e9))
			n++
	} END { print n + 0 }')
	echo "#   $(wc -l </tmp/legacy) legacy lines: $bad malformed, $wrong inconsistent"
	[ "$(wc -l </tmp/legacy)" = "$tests" ] && [ "$bad" = 0 ] && [ "$wrong" = 0 ]
	report $? "one legacy line per test, in the exact legacy format"
	rmmod $MODULE
fi

ktap_finished
