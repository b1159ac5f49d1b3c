# SPDX-License-Identifier: GPL-2.0
#
# The checks of the guest suite (suite.sh, which sources this from
# /bench and calls them in its order): each prints its figures as KTAP
# diagnostics and returns 0 when it holds; report() prints the result.
# POSIX sh; runs under busybox.

report() {	# status description
	if [ "$1" = 0 ]; then
		ktap_test_pass "$2"
	else
		ktap_test_fail "$2"
	fi
}

kselftest() {	# description params...
	desc=$1
	shift
	sh ./test_bench_page_pool.sh -d "$MODDIR" "$@" >/tmp/ksft.out 2>&1
	rc=$?
	sed 's/^/#   /' /tmp/ksft.out
	report $rc "$desc"
}

loaded() {
	lsmod | grep -q "^$MODULE "
}

# Each bad value must fail the load and leave a dmesg line naming the
# parameter and the value.
bad_param() {	# param=value expected-text
	mark="bad-param-check $KTAP_TESTNO"
	printf '%s\n' "$mark" >/dev/kmsg
	modprobe $MODULE "$1" 2>/dev/null
	rc=$?
	# the kernel's parameter parsing names the module, the checks after
	# it the benchmark
	line=$(dmesg | sed -n "/$mark/,\$p" | grep -E "($BENCH|$MODULE): $2" |
		head -n 1)
	echo "#   $1: modprobe exit $rc; dmesg: ${line#*] }"
	! loaded && [ $rc != 0 ] && [ -n "$line" ]
	report $? "load with $1 fails with a clear dmesg line"
	loaded && rmmod $MODULE
}

# Free pages in the buddy allocator plus those parked on per-CPU lists,
# which come and go with allocations elsewhere.  Every slab cache is
# shrunk first: that frees its empty slabs and, under KASAN, the freed
# objects it keeps in quarantine, which otherwise grows to 1/32 of
# memory (over five runs the debug kernel lost 225 and 580 pages
# without, -57 with: its free pages rose by 6000, the quarantine).
free_pages() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	for shrink in /sys/kernel/slab/*/shrink; do
		[ -w "$shrink" ] && echo 1 >"$shrink"
	done
	# nr_free_pages leaves each CPU's recent changes in its own buckets
	# (up to the stat threshold, tens of pages per CPU and zone) until a
	# refresh folds them
	cat /proc/sys/vm/stat_refresh >/dev/null 2>&1
	buddy=$(awk '$1 == "nr_free_pages" { print $2 }' /proc/vmstat)
	pcp=$(awk '$1 == "count:" { n += $2 } END { print n + 0 }' /proc/zoneinfo)
	echo $((buddy + pcp))
}

# With allocations failing now and then, every load must either succeed
# or fail with its message, and no page may be lost.
fail_alloc_runs() {
	echo 0 >$FAIL_PAGE_ALLOC/min-order
	echo 1 >$FAIL_PAGE_ALLOC/interval
	echo -1 >$FAIL_PAGE_ALLOC/times
	echo 0 >$FAIL_PAGE_ALLOC/space
	echo 0 >$FAIL_PAGE_ALLOC/verbose
	# shellcheck disable=SC2086
	modprobe $MODULE $LEAK_ARGS && rmmod $MODULE
	before=$(free_pages)
	# One test a load, each test of the page_pool: a load that fails
	# leaves the tests after it in the same load untried.  Tests whose
	# pages come from the page allocator in each iteration must fail;
	# the others allocate while warming up, or when a batch or a queue
	# runs dry: they succeed or fail with the line.  One repetition of
	# 20000: what counts is every path taken, not a timing (the skb
	# tests took 24 s each with 100000 under KASAN).
	reference_rows expect_path >/tmp/fail_alloc.tests
	while read -r tests path; do
		[ "$path" = - ] && continue
		mark="fail-alloc-check $tests"
		printf '%s\n' "$mark" >/dev/kmsg
		echo 5 >$FAIL_PAGE_ALLOC/probability
		modprobe $MODULE loops=20000 reps=1 "tests=$tests"
		rc=$?
		echo 0 >$FAIL_PAGE_ALLOC/probability
		line=$(dmesg | sed -n "/$mark/,\$p" |
		       grep "$BENCH: .*page allocation failed")
		echo "#   tests=$tests (expect_path=$path) with 5% of page allocations failing: modprobe exit $rc; dmesg: ${line#*] }"
		case $path in
		allocator)
			! loaded && [ $rc != 0 ] && [ -n "$line" ] ;;
		*)
			{ loaded && [ $rc = 0 ]; } ||
				{ ! loaded && [ -n "$line" ]; } ;;
		esac
		report $? "tests=$tests under fail_page_alloc ends cleanly"
		loaded && rmmod $MODULE
	done </tmp/fail_alloc.tests
	after=$(free_pages)
	# busybox modprobe retries a failed finit_module() with
	# init_module(): up to eight loads.
	echo "#   free pages (buddy + per-CPU lists) before $before after $after, limit $((8 * LEAK_LIMIT))"
	[ $((before - after)) -lt $((8 * LEAK_LIMIT)) ]
	report $? "no pages lost by the failing runs"
}

hog_check() {
	rm -rf /tmp/hog
	(while :; do :; done) &
	hog=$!
	sh ./test_bench_page_pool.sh -d "$MODDIR" -o /tmp/hog \
		"tests=$HOG_TESTS" >/tmp/ksft.out 2>&1
	rc=$?
	kill $hog
	wait $hog 2>/dev/null
	sed 's/^/#   /' /tmp/ksft.out
	f=/tmp/hog/load-01.results
	results_whole $f || return 1
	# shellcheck disable=SC2046 # three counts
	set -- $(results_rows $f wanted_context preemptible_chunks \
		 retried_chunks perturbed_chunks | awk '$2 == "process" {
			p += $3; r += $4; k += $5 }
		END { print p + 0, r + 0, k + 0 }')
	echo "#   process windows beside the hog (pid $hog): $1 preemptible, $2 measured again, $3 perturbed; exit $rc"
	baselines=$(results_rows $f cycles_min | awk '$1 == "for_loop" ||
		$1 == "atomic_inc" { printf "%s%s=%s", sep, $1, $2; sep = " " }')
	echo "#   cheapest repetitions: $baselines"
	if [ "$CLOCK" = instructions ]; then
		[ "$baselines" = "for_loop=3.00 atomic_inc=4.00" ] || return 1
	fi
	case $(uname -v) in
	*PREEMPT_RT*)
		[ "$2" -gt 0 ] &&
			{ { [ $rc = 0 ] && [ "$3" = 0 ]; } ||
			  { [ $rc = 1 ] &&
			    grep -q "^# .*: [0-9]* of [0-9]* timed chunks in its figure held other work on each try: .*switch" /tmp/ksft.out &&
			    grep -q "^#   .* (pid $hog): " /tmp/ksft.out; }; } ;;
	*)
		# interrupts (the tick) may make a chunk run again; the
		# hog never does
		[ $rc = 0 ] && [ "$1" = 0 ] && [ "$3" = 0 ] &&
			! results_rows $f retried_entered | grep -q switch ;;
	esac
}

# A source of timer interrupts beside the module, on the guest's one
# vCPU: a task that sleeps 1 ms at a time, woken each time by a timer
# interrupt (process context), besides the tick and its softirqs.  A
# test reads its quiet figure (counting instructions: its median within
# 0.002 per element plus 0.1% of a quiet load's cheapest repetition),
# its chunks measured again until none held an interrupt, or the
# kselftest fails its window check naming what entered the figure.
irq_check() {
	rm -rf /tmp/quiet /tmp/irq
	sh ./test_bench_page_pool.sh -d "$MODDIR" -o /tmp/quiet \
		"tests=$HOG_TESTS" >/dev/null 2>&1
	(while :; do usleep 1000; done) &
	ticker=$!
	sh ./test_bench_page_pool.sh -d "$MODDIR" -o /tmp/irq \
		"tests=$HOG_TESTS" >/tmp/ksft.out 2>&1
	rc=$?
	kill $ticker
	wait $ticker 2>/dev/null
	sed 's/^/#   /' /tmp/ksft.out
	q=/tmp/quiet/load-01.results
	f=/tmp/irq/load-01.results
	results_whole $q && results_whole $f || return 1
	results_rows $q cycles_min >/tmp/quiet.rows
	i_ok=0 i_kept=0 i_retried=0
	while read -r t median kept retried entered; do
		quiet=$(awk -v t="$t" '$1 == t { print $2 }' /tmp/quiet.rows)
		[ "$retried" = - ] || i_retried=$((i_retried + 1))
		if [ "$kept" != 0 ]; then
			i_kept=$((i_kept + 1))
			grep -q "^not ok [0-9]* $t windows unperturbed " \
				/tmp/ksft.out &&
			grep -q "^# $t: $kept of [0-9]* timed chunks in its figure held other work on each try: $entered\$" \
				/tmp/ksft.out || i_ok=1
			printf "#   %s: %s chunks kept with %s, failed by name\n" "$t" "$kept" "$entered"
			continue
		fi
		printf "#   %s: median %s, quiet %s, measured again: %s\n" "$t" "$median" "$quiet" "$retried"
		[ "$(results_header $q clock)" = instructions ] || continue
		within "$median" "$quiet" \
			"$(awk -v q="$quiet" 'BEGIN { print 0.002 + q / 1000 }')" ||
			i_ok=1
	done <<EOF2
$(results_rows $f cycles_median perturbed_chunks retried_entered perturbed_entered)
EOF2
	printf "#   beside the timer task (pid %s): %s tests measured chunks again, %s kept some; exit %s\n" "$ticker" "$i_retried" "$i_kept" "$rc"
	# a timer that entered no window proved nothing
	[ $i_retried -gt 0 ] || [ $i_kept -gt 0 ] || i_ok=1
	[ $i_kept -gt 0 ] || [ $rc = 0 ] || i_ok=1
	[ $i_kept = 0 ] || [ $rc = 1 ] || i_ok=1
	[ $i_ok = 0 ]
}

# Two decimals at most MARGIN apart.
within() {	# a b margin
	awk -v a="$1" -v b="$2" -v m="$3" \
		'BEGIN { exit !(a != "" && b != "" && a - b <= m && b - a <= m) }'
}

reference_load() {
	[ -r $DMA_API/dump ] && dma_errors=$(cat $DMA_API/error_count)
	modprobe $MODULE loops=1000 || return 1
	cat /sys/kernel/debug/$BENCH/results >$REFERENCE
	rmmod $MODULE
	if [ -r $DMA_API/dump ]; then
		dma_mapped=$(grep -c "$MODULE" $DMA_API/dump)
		dma_errors=$(($(cat $DMA_API/error_count) - dma_errors))
	fi
	why=$(results_whole $REFERENCE) || { echo "#   $why"; return 1; }
	[ -n "$(results_tests $REFERENCE)" ]
}

# Per test of the reference that ran: its name and the fields asked,
# "?" for one it lacks.
reference_rows() {	# field...
	results_rows $REFERENCE "$@"
}

# run_flags is a u32: a test's bit is below 32.
valid_bit() {
	case $1 in
	'' | *[!0-9]*) return 1 ;;
	esac
	[ "$1" -lt 32 ]
}

# The relation check must be able to fail.  The relation of the
# reference with the widest gap, inverted ("B cheaper than A"), must
# fail: at once on instruction counts, which do not move; on a CPU's
# cycles only after a load of its own re-measured it.  On emulated
# cycles the wrapper checks no relation and must say why.
inverted_relation() {
	reference_rows cycles_min cheaper_than | awk '
	{ min[$1] = $2; cheaper[$1] = $3; order[NR] = $1 }
	END {
		for (i = 1; i <= NR; i++) {
			a = order[i]
			n = split(cheaper[a], dearer, ",")
			for (j = 1; j <= n; j++) {
				b = dearer[j]
				if (!(b in min) || min[a] <= 0)
					continue
				if (min[b] / min[a] > widest) {
					widest = min[b] / min[a]
					pair = b " " a
				}
			}
		}
		if (pair != "")
			print pair
	}'
}

inverted_relation_check() {
	# shellcheck disable=SC2046 # two words: B and A
	set -- $(inverted_relation)
	[ $# = 2 ] || { echo "#   the reference gives no relation"; return 1; }
	printf '%s\n' "$1 $2" >/tmp/inverted
	sh ./test_bench_page_pool.sh -d "$MODDIR" -r /tmp/inverted \
		loops=20000 "tests=$1,$2" >/tmp/ksft.out 2>&1
	rc=$?
	sed 's/^/#   /' /tmp/ksft.out
	failed=$(grep -c '^not ok' /tmp/ksft.out)
	case $CLOCK/$ACCEL in
	instructions/*)
		[ $rc = 1 ] && [ "$failed" = 1 ] &&
			grep -Eq "^not ok [0-9]+ $1 cheaper than $2 # cheaper=[0-9.]+ dearer=[0-9.]+ unit=instructions stat=min\$" \
				/tmp/ksft.out ;;
	cycles/tcg)
		[ $rc = 0 ] && [ "$failed" = 0 ] &&
			grep -Eq "^ok [0-9]+ $1 cheaper than $2 # SKIP emulated cycles do not rank paths\$" \
				/tmp/ksft.out ;;
	*)
		[ $rc = 1 ] && [ "$failed" = 1 ] &&
			grep -Eq "^not ok [0-9]+ $1 cheaper than $2 # cheaper=[0-9.]+ dearer=[0-9.]+ unit=cycles stat=min remeasured_reps=5 remeasured_cheaper=[0-9.]+ remeasured_dearer=[0-9.]+\$" \
				/tmp/ksft.out ;;
	esac
}

ksft_gate() {	# wrapper-args...: runs the wrapper, keeps its output
	# shellcheck disable=SC2086
	sh ./test_bench_page_pool.sh -d "$MODDIR" "$@" $GATE_ARGS \
		>/tmp/ksft.out 2>&1
	rc=$?
	sed 's/^/#   /' /tmp/ksft.out
	return $rc
}

collect_check() {
	rm -rf $LOADS
	ksft_gate -n 2 -o $LOADS || return 1
	plan=$(sed -n 's/^1\.\.//p' /tmp/ksft.out)
	one=$(grep -c '^ok [0-9]* load 1: ' /tmp/ksft.out)
	two=$(grep -c '^ok [0-9]* load 2: ' /tmp/ksft.out)
	echo "#   plan $plan: $one checks of load 1 and $two of load 2 passed, then the kernel log's"
	[ "$one" -gt 1 ] && [ "$one" = "$two" ] &&
		[ "$plan" = $((one + two + 1)) ] &&
		results_whole $LOADS/load-01.results &&
		results_whole $LOADS/load-02.results &&
		[ -s $LOADS/load-02.dmesg ] && [ ! -e $LOADS/load-03.results ] &&
		env_added $LOADS/load-01.results
}

# The module reads no files: its own results (the reference's plain
# copy) lack what user space reads, which the wrapper added after
# runtime: as it kept FILE, the command line as /proc/cmdline has it.
env_added() {	# file
	e_raw=$(grep -Ec '^(platform|mitigations|cmdline):' $REFERENCE)
	e_kept=$(sed -n '/^runtime: /{n;s/: .*//p;n;s/: .*//p;n;s/: .*//p;}' "$1" |
		tr '\n' ' ')
	e_cmdline=$(results_header "$1" cmdline)
	echo "#   the module's file: $e_raw environment lines; kept after runtime: $e_kept; cmdline: $e_cmdline"
	# /proc/cmdline may end in a blank before its newline
	e_proc=$(sed 's/[[:space:]]*$//' /proc/cmdline)
	[ "$e_cmdline" = "$e_proc" ] ||
		echo "#   /proc/cmdline has '$e_proc'"
	# one NAME=STATE per file of the vulnerabilities folder
	e_vulns=$(ls /sys/devices/system/cpu/vulnerabilities | wc -l)
	e_words=$(results_header "$1" mitigations | wc -w)
	echo "#   mitigations: $e_words, files of cpu/vulnerabilities: $e_vulns"
	[ "$e_raw" = 0 ] && [ "$e_kept" = "platform mitigations cmdline " ] &&
		[ "$e_cmdline" = "$e_proc" ] && [ "$e_vulns" -gt 0 ] &&
		[ "$e_words" = "$e_vulns" ]
}

gated() {	# ok|"not ok": the gate's lines that say so
	grep -c "^$1 [0-9]* [^ ]* within the gate # .* margin_pct=$GATE_PCT " \
		/tmp/ksft.out
}

gate_passes() {
	ksft_gate -b $LOADS/load-01.results -p $GATE_PCT || return 1
	tests=$(results_ran_tests $LOADS/load-01.results | wc -l)
	echo "#   $(gated ok) of $tests tests within +$GATE_PCT% of load 1"
	[ "$(gated ok)" = "$tests" ]
}

# Load 2 against load 1 made cheaper, checked as saved results (-c).
gate_fails() {
	awk '$1 == "test:" {
		for (i = 2; i <= NF; i++)
			if ($i ~ /^cycles_min=/)
				$i = sprintf("cycles_min=%.2f", substr($i, 12) / 1.1)
	} 1' $LOADS/load-01.results >/tmp/cheaper.results
	sh ./test_bench_page_pool.sh -c -b /tmp/cheaper.results -p $GATE_PCT \
		$LOADS/load-02.results >/tmp/ksft.out 2>&1
	rc=$?
	sed 's/^/#   /' /tmp/ksft.out
	tests=$(results_ran_tests /tmp/cheaper.results | wc -l)
	echo "#   $(gated "not ok") of $tests tests above +$GATE_PCT% of a baseline 10% cheaper"
	[ $rc = 1 ] && [ "$(gated "not ok")" = "$tests" ] &&
		[ "$(grep -c '^not ok' /tmp/ksft.out)" = "$tests" ]
}

# The wrapper's file errors under busybox (no /dev/stderr there): one
# line naming FILE:LINE, exit 1, nothing loaded.
bad_thresholds_check() {
	printf 'lock 1e9x\n' >/tmp/bad.thresholds
	sh ./test_bench_page_pool.sh -d "$MODDIR" -t /tmp/bad.thresholds \
		>/tmp/ksft.out 2>&1
	rc=$?
	sed 's/^/#   /' /tmp/ksft.out
	[ $rc = 1 ] && [ "$(wc -l </tmp/ksft.out)" = 1 ] &&
		grep -q ': /tmp/bad.thresholds:1: limit "1e9x" is not a number' \
			/tmp/ksft.out
}

# Repetitions pay: within one load of 90 repetitions, medians of 9
# repetitions spread over the run (every tenth one) vary less than
# single repetitions.  Across loads they need not: under emulation each
# load has its own offset, which no repetition removes.  Interleaving
# keeps slow drift, common to all groups, out of the comparison.
# Measured variance ratios: 0.02 to 0.17.
spread_check() {	# test
	modprobe $MODULE "tests=$1" loops=5000 reps=90 || return 1
	results_field /sys/kernel/debug/$BENCH/results "$1" cycles_samples |
		tr ',' '\n' >/tmp/samples
	rmmod $MODULE
	awk '
	function variance(a, n,   i, s, q, m) {
		for (i = 1; i <= n; i++) {
			s += a[i]
			q += a[i] * a[i]
		}
		m = s / n
		return (q - n * m * m) / (n - 1)
	}
	function median9(g,   i, j, t, b) {	# samples g, g+10, ..., g+80
		for (i = 0; i < 9; i++) {
			t = x[g + 10 * i]
			for (j = i; j > 0 && b[j - 1] > t; j--)
				b[j] = b[j - 1]
			b[j] = t
		}
		return b[4]
	}
	{ x[NR] = $1 }
	END {
		if (NR != 90)
			exit 1
		for (g = 1; g <= 10; g++)
			med[g] = median9(g)
		one = variance(x, 90)
		nine = variance(med, 10)
		printf "#   %s per element, variance: single reps %.4f, medians of 9 %.4f\n", ENVIRON["UNIT"], one, nine
		exit !(nine < one)
	}' /tmp/samples
}
