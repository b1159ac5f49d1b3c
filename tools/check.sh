#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make check": static checks and the host-side tests (bench-compare's
# unit, parser and fuzz tests, the kselftest wrapper's exits, the docs
# rendered, make track's bad input, make ab's guest order, the reason
# KVM cannot run a guest), the builds against each kernel (Debian 12's
# 6.12, 6.1 and 6.1-rt headers, a tree prepared for unstable's 7.2:
# W=1, sparse, install, modinfo, Kconfig), then the guests.
#
# Two lines share the machine: the main line runs, per kernel, the whole
# guest suite with QEMU's "max" CPU model timing cycles (kselftest, bad
# parameters, page leaks, the endless load, perf), on the first kernel
# the kselftest and the legacy lines with "qemu64" too, and 6.12's guest
# counting instructions (QEMU -icount, one vCPU) for what needs their
# precision (relations, twins, -n/-o, the regression gate, a CPU hog);
# with the first kernel, the host tools' own tests (variables checked
# early, a checkout path with spaces, signals, the accelerator, the
# A/B of the small kernel and its three instructions); the end-to-end scenarios and their faults; PREEMPT_RT's
# hog and the guest runner's contract.  Beside it runs what times
# nothing: the debug kernel (lockdep, KASAN, kmemleak, DMA API
# debugging, page_pool stats, built from Debian's linux-source-6.12
# with this project in its tree: its in-tree modules run the guest suite
# with fail_page_alloc runs and a kmemleak scan, and the kselftest
# install of the tree runs through run_kselftest.sh), the profile's
# check, 7.2's and 6.1's guests counting instructions, the series in
# 7.2's tree (make series, checkpatch per patch, the kselftest build,
# install and run_kselftest.sh in a 7.2 guest), make track and make
# bisect of tests/track's series, and the e2e construction.  Then
# bench-compare on what each kernel's guests wrote, and doc/tests.rst's
# table against 6.12's module.  Then, alone on the machine, what times
# cycles: the cross-CPU test on three vCPUs, and an A/B "make ab"
# timing cycles whose untouched rows are an A/A.  Last, the host's boot
# must be as it was.  Prints KTAP, one line per step with its duration,
# and the table of where the time went (build/check/timing.txt).
#
# KERNELS and CPUS narrow it down, e.g. KERNELS=6.12 CPUS=qemu64
# (default: KERNELS="6.12 7.2 6.1", CPUS="max qemu64");
# DEBUG_KERNEL=0 leaves out the debug kernel, AB=0 the make ab runs,
# ICOUNT=0 the guests counting instructions; ONLY=REGEX runs only the
# steps whose description matches (grep -E; the builds they need run
# anyway).  Guests run under TCG; the accelerator step probes KVM.
#
# TIER=quick ("make check-quick", for the edit loop): the host's checks
# and tests, the builds against the first kernel and its one guest
# counting instructions (every test, every check of the kselftest, a
# CPU hog beside it); logs in build/check-quick.
set -u
. "$(dirname "$0")/lib.sh"
. "$BENCH_TOP/tools/check-tools.sh"
. "$BENCH_TOP/results_lib.sh"

TIER=${TIER:-full}
check_choice TIER "$TIER" full quick
if [ "$TIER" = quick ]; then
	set -- ${KERNELS:-6.12}
	KERNELS=$1 CPUS=${CPUS:-max} DEBUG_KERNEL=0 AB=0
fi
KERNELS=${KERNELS:-"6.12 7.2 6.1"}
CPUS=${CPUS:-"max qemu64"}
DEBUG_KERNEL=${DEBUG_KERNEL:-1}
AB=${AB:-1}
ONLY=${ONLY:-}
SUITE_ICOUNT=${ICOUNT:-1}
check_choice ICOUNT "$SUITE_ICOUNT" 0 1
# The commands run here read these from the environment; each step says
# what it wants.
unset ICOUNT ACCEL KERNEL KDIR ARGS CPU VCPUS TIMEOUT RESULTS LOADS ALPHA \
	FAIL_ABOVE OUT TEST BEFORE AFTER BEFORE_KDIR AFTER_KDIR BEFORE_ARGS \
	AFTER_ARGS BEFORE_APPEND AFTER_APPEND MAKEFLAGS MAKELEVEL
check_choice DEBUG_KERNEL "$DEBUG_KERNEL" 0 1
check_choice AB "$AB" 0 1
for k in $KERNELS; do
	check_choice KERNELS "$k" 6.12 7.2 6.1
done
[ -n "$KERNELS" ] || usage_die "KERNELS is empty: accepted: 6.12, 7.2, 6.1 or several"
for cpu in $CPUS; do
	check_cpu_model CPUS "$cpu"
done
[ -n "$CPUS" ] || usage_die "CPUS is empty: accepted: QEMU CPU models"
LOGDIR=$BENCH_TOP/build/check
[ "$TIER" = full ] || LOGDIR=$LOGDIR-$TIER
failures=
. "$BENCH_TOP/ktap_lib.sh"

# Where make check's time goes: a line a step, "SECONDS LANE RESULT
# CACHE DESCRIPTION" with tabs, in the order they ran.  CACHE is "-",
# or what the step had to fetch or build (tools/lib.sh's cache_miss,
# through the file BENCH_BUILT).
STEPS=$LOGDIR/steps.tsv

step_record() {	# seconds lane result built-file description
	r_cache=-
	if [ -s "$4" ]; then
		r_cache="built: $(tr '\n' ';' <"$4" | sed 's/;$//; s/;/; /g')"
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$r_cache" "$5" \
		| tr -d '\r' >>"$STEPS"
}

# Runs one step; its own output goes to stderr, its KTAP line to stdout.
# With ONLY, a step it does not match is skipped.
step() {	# description command...
	if [ -n "$ONLY" ] && ! printf '%s\n' "$1" | grep -Eq -- "$ONLY"; then
		ktap_test_skip "$1" "not in ONLY=$ONLY"
		step_record 0 main skip /dev/null "$1"
		return 0
	fi
	needed_step "$@"
}

# A step whose work later steps need: it runs whatever ONLY says.
needed_step() {	# description command...
	desc=$1
	shift
	say "=== $desc"
	t0=$(date +%s)
	BENCH_BUILT=$LOGDIR/built.main
	: >"$BENCH_BUILT"
	export BENCH_BUILT
	"$@" >&2
	rc=$?
	secs=$(($(date +%s) - t0))
	step_record "$secs" main "$([ $rc = 0 ] && echo pass || echo fail)" \
		"$LOGDIR/built.main" "$desc"
	if [ $rc = 0 ]; then
		ktap_test_pass "$desc (${secs}s)"
	else
		failures="$failures
#   $desc"
		ktap_test_fail "$desc (${secs}s)"
		return 1
	fi
}

# A lane: steps that run one after the other beside the main line, in a
# child of their own, each with its output kept; lane_join waits for it
# and then reports its steps, in order, as step() would have.  Only what
# times nothing runs in a lane: the two lines share the machine's cores.
lane_start() {	# name function
	l_dir=$LOGDIR/lane-$1
	rm -rf "$l_dir"
	mkdir -p "$l_dir"
	(
		trap 'bench_signal 129' HUP
		trap 'bench_signal 130' INT
		trap 'bench_signal 143' TERM
		LANE_DIR=$l_dir
		LANE_STEPS=0
		"$2"
	) >"$l_dir/lane.log" 2>&1 &
	bench_lanes="$bench_lanes $!"
	eval "lane_pid_$1=\$!"
}

lane_step() {	# description command...
	LANE_STEPS=$((LANE_STEPS + 1))
	l_step=$LANE_DIR/$LANE_STEPS
	printf '%s\n' "$1" >"$l_step.desc"
	shift
	if [ -n "$ONLY" ] && ! grep -Eq -- "$ONLY" "$l_step.desc"; then
		echo skip >"$l_step.rc"
		return 0
	fi
	t0=$(date +%s)
	BENCH_BUILT=$l_step.built
	: >"$BENCH_BUILT"
	export BENCH_BUILT
	"$@" >"$l_step.log" 2>&1
	l_rc=$?
	printf '%s\n' "$l_rc $(($(date +%s) - t0))" >"$l_step.rc"
	return $l_rc
}

lane_join() {	# name
	eval "l_pid=\$lane_pid_$1"
	wait "$l_pid"
	bench_lanes=$(printf '%s\n' $bench_lanes | grep -vx "$l_pid" | tr '\n' ' ')
	l_dir=$LOGDIR/lane-$1
	cat "$l_dir/lane.log" >&2
	n=1
	while [ -f "$l_dir/$n.desc" ]; do
		desc=$(cat "$l_dir/$n.desc")
		say "=== $desc (beside the main line)"
		cat "$l_dir/$n.log" >&2 2>/dev/null
		read -r rc secs <"$l_dir/$n.rc" 2>/dev/null || rc=ended secs=0
		case $rc in
		skip) ktap_test_skip "$desc" "not in ONLY=$ONLY"
		      secs=0 result=skip ;;
		0) ktap_test_pass "$desc (${secs}s)"
		   result=pass ;;
		*) failures="$failures
#   $desc"
		   ktap_test_fail "$desc (${secs}s)"
		   result=fail ;;
		esac
		step_record "$secs" "$1" "$result" "$l_dir/$n.built" "$desc"
		n=$((n + 1))
	done
}

# Runs a build command; any compiler or sparse diagnostic fails it.
quiet_build() {	# log command...
	log=$1
	shift
	"$@" >"$log" 2>&1
	rc=$?
	if [ $rc != 0 ] || grep -E -q '(warning|error):' "$log"; then
		grep -E '(warning|error):' "$log" >&2 || tail -n 30 "$log" >&2
		return 1
	fi
}

# One compile from clean: the compiler's W=1 warnings and sparse's
# (C=2 checks every file it compiles) in one log.  A tree whose kbuild
# finds the host's sparse too old for its headers (7.2's, which use
# __typeof_unqual__, against Debian 12's 0.6.4) skips sparse with one
# line: sparse_runs says so beforehand, and a skip not announced fails.
build_w1_sparse() {
	make -C "$1" KDIR="$KDIR" clean >/dev/null 2>&1
	quiet_build "$LOGDIR/w1-sparse-$KERNEL_RELEASE.log" \
		make -C "$1" -j"$(nproc)" KDIR="$KDIR" W=1 C=2 modules || return 1
	! grep -q 'C=2 specified, but sparse is not available' \
		"$LOGDIR/w1-sparse-$KERNEL_RELEASE.log" || ! sparse_runs ||
		{ say "kbuild did not run sparse"; return 1; }
}

sparse_runs() {
	[ ! -x "$KDIR/scripts/checker-valid.sh" ] ||
		[ "$("$KDIR/scripts/checker-valid.sh" sparse 2>/dev/null)" = 1 ]
}

build_w1() {
	make -C "$1" KDIR="$KDIR" clean >/dev/null 2>&1
	quiet_build "$LOGDIR/w1-$KERNEL_RELEASE.log" \
		make -C "$1" -j"$(nproc)" KDIR="$KDIR" W=1 modules
}

# checkpatch --strict of the files given; a set of files it found clean
# before (their contents and names, checkpatch and its spelling list)
# is not checked again.
checkpatch() {
	c_key=$({
		for f in "$@"; do printf '%s\n' "$f"; cat "$f"; done
		cat "$SRC/scripts/checkpatch.pl" "$SRC/scripts/spelling.txt"
	} | md5sum | cut -c1-16)
	c_ok=$BENCH_CACHE/checkpatch/$c_key.ok
	if [ -f "$c_ok" ]; then
		say "checkpatch found these $# files clean before (cached)"
		return 0
	fi
	out=$("$SRC/scripts/checkpatch.pl" --strict --no-tree --terse \
		--show-types -f "$@" 2>&1)
	rc=$?
	[ -z "$out" ] || printf '%s\n' "$out" >&2
	[ $rc != 0 ] || { mkdir -p "${c_ok%/*}" && : >"$c_ok"; }
	return $rc
}

unit_tests() {
	make -s -C "$BENCH_TOP/tests" check
}

# The files a guest of the kselftest needs in /bench: what the kselftest
# installs, but for the modules (the guest has them) and its settings;
# as guest.sh options, one a line.
guest_kselftest_files() {
	for f in $(project_files installed); do
		case $f in
		*.ko | config | settings) ;;
		*) printf '%s\n' "-f" "$BENCH_TOP/$f" ;;
		esac
	done
}


# Runs tests/guest/suite.sh in a guest of KERNEL_IMAGE with MODS, into
# LOGDIR/RELEASE-NAME.  Its suite.conf (see suite.sh) gets the
# KEY=VALUE arguments before "--"; guest.sh gets the options after it.
guest_suite() {	# name [KEY=VALUE]... [-- guest.sh-option...]
	dir=$LOGDIR/$KERNEL_RELEASE-$1
	shift
	rm -rf "$dir" "$dir.conf"
	mkdir -p "$dir.conf"
	: >"$dir.conf/suite.conf"
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		printf '%s\n' "$1" >>"$dir.conf/suite.conf"
		shift
	done
	[ $# -gt 0 ] && shift
	files=$(guest_kselftest_files)
	set -f
	IFS=$nl
	# shellcheck disable=SC2086
	set -- $files "$@"
	unset IFS
	set +f
	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -m "$MODS" \
		-t 1500 -p "$BENCH_TOP/tests/guest/suite.sh" -o "$dir" \
		-f "$dir.conf/suite.conf" -b "$(command -v perf)" \
		-b "$BENCH_COMPARE" -f "$BENCH_COMPARE" "$@"
	rc=$?
	sed 's/^/# /' "$dir/output.txt" >&2
	return $rc
}

# The cross-CPU test with two returning CPUs, on three vCPUs: the
# kselftest checks its path and that every page came back.  It needs
# vCPUs that run at once: never under -icount.
cross_cpu() {
	dir=$LOGDIR/$KERNEL_RELEASE-xcpu
	rm -rf "$dir" "$dir.payload"
	mkdir -p "$dir.payload"
	printf '%s\n' 'sh ./test_bench_page_pool.sh -d "/lib/modules/$(uname -r)/extra" tests=cross_cpu_page_pool01_return return_cpus=2' \
		>"$dir.payload/payload.sh"
	files=$(guest_kselftest_files)
	set -f
	IFS=$nl
	# shellcheck disable=SC2086
	set -- $files
	unset IFS
	set +f
	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -m "$MODS" \
		-s 3 -t 600 -p "$dir.payload/payload.sh" -o "$dir" "$@"
	rc=$?
	sed 's/^/# /' "$dir/output.txt" >&2
	[ $rc = 0 ] && grep -q '^ok .*cross_cpu_page_pool01_return' "$dir/output.txt"
}

# bench-compare on what the guests of one kernel produced: the run the
# guest suite keeps for it (bench-compare.results and .dmesg in its
# folder).  Per CPU model, the results file against the kernel messages
# of the same load (one row per test); across two models, the same
# where their clocks agree, and a refusal where one counted
# instructions and the other cycles.
compare_guests() {	# cpu-model...
	ok=0
	for cpu in "$@"; do
		dir=$LOGDIR/$KERNEL_RELEASE-$cpu
		want=$(results_ran_tests "$dir/bench-compare.results" |
			sort -u | wc -l)
		compared "$cpu: results file against dmesg" "$want" \
			"$dir/bench-compare.results" "$dir/bench-compare.dmesg" || ok=1
		# as KernelCI's KCIDB takes it: its schema's rules, a test
		# object a test, the skipped ones too
		"$BENCH_TOP/tools/compare/bench-compare" -f kcidb \
			"$dir/bench-compare.results" >"$dir/kcidb.json" &&
			python3 "$BENCH_TOP/tools/kcidb-check.py" "$dir/kcidb.json" >&2 &&
			[ "$(jq '.tests | length' "$dir/kcidb.json")" = \
			  "$(results_tests "$dir/bench-compare.results" | sort -u | wc -l)" ] ||
			{ say "$cpu: bench-compare -f kcidb of the results file is no KCIDB document of every test"; ok=1; }
	done
	# The -o folder of the guest that counted instructions: two loads
	# of one kernel, read as a side; against a cycles load, refused.
	loads=$LOGDIR/$KERNEL_RELEASE-$1-icount/loads
	if [ -d "$loads" ]; then
		"$BENCH_TOP/tools/compare/bench-compare" "$loads" "$loads" \
			>"$LOGDIR/compare-loads.out" 2>&1 &&
			grep -q '^loads: before 2, after 2;' "$LOGDIR/compare-loads.out" &&
			grep -q '^test  *instructions before ' "$LOGDIR/compare-loads.out" ||
			{ say "the -o folder as a side:"; cat "$LOGDIR/compare-loads.out" >&2; ok=1; }
		"$BENCH_TOP/tools/compare/bench-compare" "$loads" \
			"$LOGDIR/$KERNEL_RELEASE-$1/bench-compare.results" \
			>"$LOGDIR/compare-clocks.out" 2>&1
		rc=$?
		say "instructions (-o folder) against cycles: exit $rc: $(head -n 1 "$LOGDIR/compare-clocks.out")"
		[ $rc = 2 ] && [ "$(grep -c . "$LOGDIR/compare-clocks.out")" = 1 ] || ok=1
	fi
	[ $# -ge 2 ] || return $ok
	a=$LOGDIR/$KERNEL_RELEASE-$1/bench-compare.results
	b=$LOGDIR/$KERNEL_RELEASE-$2/bench-compare.results
	ca=$(results_header "$a" clock)
	cb=$(results_header "$b" clock)
	if [ "${ca:-cycles}" = "${cb:-cycles}" ]; then
		compared "$1 against $2" "$want" "$a" "$b" || ok=1
	else
		"$BENCH_TOP/tools/compare/bench-compare" "$a" "$b" \
			>"$LOGDIR/compare-clocks.out" 2>&1
		rc=$?
		say "$1 ($ca) against $2 ($cb): exit $rc: $(head -n 1 "$LOGDIR/compare-clocks.out")"
		[ $rc = 2 ] && [ "$(grep -c . "$LOGDIR/compare-clocks.out")" = 1 ] || ok=1
	fi
	return $ok
}

# The test table of doc/tests.rst against a results file of every test:
# each row's bit, context and path as the module says them, and no test
# missing on either side.  The page's kinds name the probe's paths:
# any is cache or ring, frag the cache, xcpu the ring.
doc_tests_table() {	# results-file
	awk '/^[0-9]+ +``[^`]+`` +[a-z]+ +[^ ]+/ {
		gsub(/`/, "")
		path = $4 == "any" ? "cache,ring" : $4 == "frag" ? "cache" : \
		       $4 == "xcpu" ? "ring" : $4
		print $2, $1, $3, path
	}' "$BENCH_TOP/doc/tests.rst" | sort >"$LOGDIR/doc-tests"
	for t in $(results_tests "$1"); do
		printf '%s %s\n' "$t" "$(results_fields "$1" "$t" run_flags_bit \
			wanted_context expect_path | tr '\n' ' ')"
	done | awk '{ $1 = $1; print }' | sort >"$LOGDIR/module-tests"
	say "doc/tests.rst: $(wc -l <"$LOGDIR/doc-tests") rows, the module: $(wc -l <"$LOGDIR/module-tests") tests"
	# a test the kernel skipped has no expect_path: its row's path is
	# not compared
	awk 'NR == FNR { doc[$1] = $0; next }
	     { want = $0; got = doc[$1]
	       if (NF == 3) { split(got, g, " "); got = g[1] " " g[2] " " g[3] }
	       if (got != want) { print "module: " want; print "doc:    " got; bad = 1 }
	       seen[$1] = 1 }
	     END { for (t in doc) if (!(t in seen)) { print "doc only: " t; bad = 1 }
		   exit bad }' "$LOGDIR/doc-tests" "$LOGDIR/module-tests" >&2
}

# bench-compare's table of two inputs must have WANT rows.
compared() {	# what want before after
	out=$LOGDIR/compare-$(printf '%s' "$1" | tr -c 'a-zA-Z0-9' -).md
	[ "$2" -gt 0 ] || { say "$1: no test: lines from the guest"; return 1; }
	"$BENCH_TOP/tools/compare/bench-compare" -f markdown "$3" "$4" \
		>"$out" || return 1
	sed 's/^/# /' "$out" >&2
	rows=$(($(grep -c '^| [a-z]' "$out") - 1))
	say "$1: $rows rows, $2 tests"
	[ "$rows" = "$2" ]
}

# modinfo must describe every parameter.
describes_params() {
	info=$(modinfo -F parm "$1/bench_page_pool.ko") || return 1
	printf '%s\n' "$info" | sed 's/^/# /' >&2
	for p in loops run_flags time_ms reps return_cpus tests; do
		type=uint
		[ $p = tests ] && type=string
		printf '%s\n' "$info" | grep -q "^$p:[A-Z].* ($type)$" ||
			{ say "no description of $p"; return 1; }
	done
}

# The Kconfig entry, parsed by the tree's own kconfig: a module whenever
# PAGE_POOL is there (never built in), absent without it.
kconfig_entry() {
	conf=$KDIR/scripts/kconfig/conf
	dir=$LOGDIR/kconfig
	mkdir -p "$dir"
	for pp in y n; do
		prompt=
		[ $pp = y ] && prompt='"page_pool"'
		printf 'config MODULES\n\tbool "modules"\n\tdefault y\n\tmodules\nconfig PAGE_POOL\n\tbool %s\n\tdefault %s\nsource "%s/Kconfig"\n' \
			"$prompt" $pp "$BENCH_TOP" >"$dir/Kconfig.$pp"
		for target in allmodconfig allyesconfig; do
			cfg=$dir/config.$pp.$target
			(cd "$dir" && KCONFIG_CONFIG=$cfg srctree=$dir \
				"$conf" --$target "Kconfig.$pp" >/dev/null) || return 1
			got=$(sed -n 's/^CONFIG_BENCH_PAGE_POOL_SIMPLE=//p' "$cfg")
			want=m
			[ $pp = y ] || want=
			say "PAGE_POOL=$pp, $target: BENCH_PAGE_POOL_SIMPLE=${got:-unset}"
			[ "$got" = "$want" ] || return 1
		done
	done
}

# "make install" into a staging root gives modprobe the one module,
# time_bench linked into it: no dependency of ours, no time_bench.ko.
install_staged() {
	stage=$LOGDIR/install-$KERNEL_RELEASE
	rm -rf "$stage"
	make -s -C "$1" -j"$(nproc)" KDIR="$KDIR" INSTALL_MOD_PATH="$stage" install \
		>"$LOGDIR/install-$KERNEL_RELEASE.log" 2>&1 ||
		{ cat "$LOGDIR/install-$KERNEL_RELEASE.log" >&2; return 1; }
	dep=$(grep '/bench_page_pool\.ko[.a-z]*:' \
		"$stage/lib/modules/$KERNEL_RELEASE/modules.dep")
	say "modules.dep: $dep"
	# the line ends at its colon: no module it depends on
	case $dep in
	*/bench_page_pool.ko:|*/bench_page_pool.ko.[a-z]*:) ;;
	*) return 1 ;;
	esac
	[ -z "$(find "$stage" -name 'time_bench.ko*')" ]
}

# make ab's guest order gives both sides the same mean position for any
# even LOADS, and differs by at most one guest for odd LOADS.
ab_order_balanced() {
	for n in 1 2 3 4 5 8 9; do
		d=$(ab_order $n | awk '{ s += ($1 == "before" ? NR : -NR) }
			END { print s < 0 ? -s : s }')
		c=$(ab_order $n | grep -c before)
		say "LOADS=$n: $c before, position sums differ by $d"
		[ "$c" = $n ] || return 1
		if [ $((n % 2)) = 0 ]; then
			[ "$d" = 0 ] || return 1
		else
			[ "$d" -le 1 ] || return 1
		fi
	done
}

# make ab, with its output kept in LOGDIR/ab-NAME.
make_ab() {	# name make-ab-variable...
	name=$1
	shift
	rm -rf "$LOGDIR/ab-$name"
	run_child env "$@" OUT="$LOGDIR/ab-$name" sh "$BENCH_TOP/tools/ab.sh" \
		>"$LOGDIR/ab-$name.out" 2>&1
	rc=$?
	sed 's/^/# /' "$LOGDIR/ab-$name.out" >&2
	[ $rc = 0 ] && [ -s "$LOGDIR/ab-$name/plot.svg" ] &&
		[ -s "$LOGDIR/ab-$name/plot.png" ]
}

# A row of a make ab table: its verdict, or the width of its interval.
# The row is a test's first line (a profile's lines name it again).
verdict() {	# name test
	awk -v t="$2" '$1 == t { print $NF; exit }' "$LOGDIR/ab-$1/table.txt"
}

interval_width() {	# name test
	awk -v t="$2" '$1 == t {
		for (i = 2; i <= NF; i++)
			if ($i ~ /^[-+]?[0-9.]+\.\.[-+]?[0-9.]+$/) {
				split($i, ci, /\.\./)
				printf "%.3f\n", ci[2] - ci[1]
			}
		exit
	}' "$LOGDIR/ab-$1/table.txt"
}

# Timing cycles: both slow paths, which init_on_alloc changes, and the
# softirq fast path and ptr_ring, which it does not, in short runs.  4
# rows at alpha 0.01 with Holm need 6 loads a side (2/C(12,6) = 0.0022
# < 0.01/4); a false "change" on the two recycling rows, which are an
# A/A comparison, has a chance of at most alpha: 1 run in 100.
AB_CYCLES="ICOUNT=0 ACCEL=tcg LOADS=6 ALPHA=0.01"
AB_CYCLES_ARGS="tests=no-softirq-page_pool03,tasklet_page_pool01_fast_path,tasklet_page_pool02_ptr_ring,tasklet_page_pool03_slow time_ms=100"

# One kernel, two command lines: init_on_alloc=1 zeroes every page the
# allocator hands out, which only the slow paths take; the recycling
# paths never see it.
ab_ab() {
	# shellcheck disable=SC2086
	make_ab ab BEFORE=6.12 AFTER=6.12 BEFORE_APPEND=init_on_alloc=0 \
		AFTER_APPEND=init_on_alloc=1 $AB_CYCLES \
		ARGS="$AB_CYCLES_ARGS" || return 1
	grep -q '^environment differs: runtime.init_on_alloc: before 0, after 1$' \
		"$LOGDIR/ab-ab/table.txt" || return 1
	for t in no-softirq-page_pool03 tasklet_page_pool03_slow; do
		[ "$(verdict ab $t)" = change ] || return 1
	done
	for t in tasklet_page_pool01_fast_path tasklet_page_pool02_ptr_ring; do
		[ "$(verdict ab $t)" = noise ] || return 1
	done
}

# Counting instructions: three recycling paths in short runs, make ab's
# defaults otherwise (1 vCPU).  3 rows at alpha 0.01 with Holm need 6
# loads a side (2/C(12,6) = 0.0022 < 0.01/3); a false "change" in an
# A/A run, or on a row a change does not touch, has a chance of at most
# 1 in 100.  All loads of a side in one guest: with one vCPU every boot
# counts the same.
AB_ICOUNT="ICOUNT=1 LOADS=6 LOADS_PER_GUEST=6 ALPHA=0.01"
AB_ICOUNT_TESTS="tasklet_page_pool01_fast_path tasklet_page_pool02_ptr_ring tasklet_page_pool09_bulk"
AB_ICOUNT_ARGS="tests=$(echo $AB_ICOUNT_TESTS | tr ' ' ,) time_ms=20"

# The small kernels' comparisons, with exact profiles: the fast path
# recycles into page_pool's cache, which the constructed changes touch
# (tests/track/*.patch); ptr_ring and the slow path never do.
AB_CACHE_TEST=tasklet_page_pool01_fast_path
AB_OTHER_TESTS=tasklet_page_pool02_ptr_ring,tasklet_page_pool03_slow
AB_PROFILE_ARGS="tests=$AB_CACHE_TEST,$AB_OTHER_TESTS time_ms=5"

build_host_tools() {
	make -s -C "$BENCH_TOP/tools/compare" || return 1
	[ "$TIER" = full ] || return 0
	make -s -C "$BENCH_TOP/tools/e2e" &&
		{ [ "$SUITE_ICOUNT" = 0 ] || make -s -C "$BENCH_TOP/tools/profile"; }
}

# The constructed series of tests/track/ (a comment, three instructions,
# a cold load, an atomic, the revert of the three) committed on Debian's
# linux-source-6.12 in a git tree of the cache, tagged track-base and
# track-head: cached by the source and the patches.  The git tree takes
# hard links of the unpacked source; the file the series changes and
# the one the developer's edit appends to get copies of their own first.
TRACK_CHECK=$BENCH_CACHE/track-check
track_check_tree() {
	t_key=$({ ls -l --time-style=+%s /usr/src/linux-source-6.12.tar.* 2>/dev/null
		  cat "$BENCH_TOP"/tests/track/*.patch; } | md5sum | cut -c1-12)
	TRACK_TREE=$TRACK_CHECK/linux
	[ -f "$TRACK_CHECK/.key" ] && [ "$(cat "$TRACK_CHECK/.key")" = "$t_key" ] &&
		return 0
	cache_miss "committing linux-source-6.12 and tests/track/*.patch into $TRACK_TREE"
	rm -rf "$TRACK_CHECK"
	mkdir -p "$TRACK_CHECK" && cp -al "$SRC" "$TRACK_TREE" || return 1
	(
		cd "$TRACK_TREE" || exit 1
		rm -f .unpacked .gitignore net/core/page_pool.c README &&
		cp "$SRC/net/core/page_pool.c" net/core/page_pool.c &&
		cp "$SRC/README" README &&
		# Debian's packaging lines ignore every top-level path
		grep -vx -e '/\*' -e '!/debian/' "$SRC/.gitignore" >.gitignore &&
		git init -q && git add -A &&
		git -c user.name=Debian -c user.email=debian@example.org \
			commit -q -m "Linux 6.12 as Debian's linux-source-6.12 ships it" &&
		git tag track-base &&
		git -c user.name=Bench -c user.email=bench@example.org \
			am -q "$BENCH_TOP"/tests/track/*.patch &&
		git tag track-head
	) >"$TRACK_CHECK/git.log" 2>&1 ||
		{ tail -n 20 "$TRACK_CHECK/git.log" >&2; return 1; }
	printf '%s\n' "$t_key" >"$TRACK_CHECK/.key"
}

# Every commit's kernel of that tree, as make track builds them; the
# base's and the cold load's images (three instructions and three more a
# cached page), and the build tree, for the make ab comparisons below
# (the series changes one .c file: the modules built against the tree
# load in every one).
track_kernels() {
	track_check_tree || return 1
	(
		. "$BENCH_TOP/tools/track-lib.sh"
		track_repo "$TRACK_TREE"
		for c in $(git -C "$TRACK_TREE" rev-parse track-base) \
			 $(git -C "$TRACK_TREE" rev-list --reverse track-base..track-head); do
			track_kernel "$c" || { say "$c: $TK_WHY"; exit 1; }
			printf '%s %s\n' "$(git -C "$TRACK_TREE" log -1 --format=%h "$c")" "$TK_IMAGE"
		done
		printf 'kdir %s\n' "$TRACK_BUILD"
	) >"$LOGDIR/track-kernels" || return 1
	cat "$LOGDIR/track-kernels" >&2
	set -- $(sed -n '1p; 3p; 4p; $p' "$LOGDIR/track-kernels")
	# a build tree for make ab's module builds, even where every kernel
	# came from the cache (the series changes no header)
	if [ $# = 8 ] && [ ! -f "$8/include/generated/utsrelease.h" ]; then
		(
			. "$BENCH_TOP/tools/track-lib.sh"
			track_repo "$TRACK_TREE"
			track_build "$(git -C "$TRACK_TREE" rev-parse track-head)" \
				"$LOGDIR/track-head-build.log"
		) || { tail -n 20 "$LOGDIR/track-head-build.log" >&2; return 1; }
	fi
	[ $# = 8 ] || return 1
	AB_BASE=$2 AB_THREE=$4 AB_SIX=$6 AB_KDIR=$8
}

# The developer's state of a tree, as make track and make bisect must
# leave it: HEAD, branch, index, status, an edit's content and a bisect
# under way.
tree_state() {	# tree
	git -C "$1" rev-parse HEAD
	git -C "$1" symbolic-ref -q HEAD || printf 'detached\n'
	# after git status, which may refresh the index's stat data
	git -C "$1" status --porcelain
	md5sum <"$1/.git/index"
	md5sum <"$1/README"
	git -C "$1" bisect log 2>&1
}

# COMMAND on the series' tree with a developer's state around it (a
# bisect of theirs under way, an edit, an untracked file), its output
# in LOGDIR/NAME.out and its status in DEV_RC; 1 when that state did
# not stay as it was.
with_developer_state() {	# name command...
	d_name=$1
	shift
	g=$TRACK_TREE
	git -C "$g" bisect start track-head track-base >/dev/null 2>&1 &&
		printf '\nan edit of the developer\n' >>"$g/README" &&
		: >"$g/untracked-of-the-developer" || return 1
	tree_state "$g" >"$LOGDIR/$d_name-state.before"
	"$@" >"$LOGDIR/$d_name.out" 2>&1
	DEV_RC=$?
	tree_state "$g" >"$LOGDIR/$d_name-state.after"
	git -C "$g" bisect reset >/dev/null 2>&1
	git -C "$g" checkout -q -- README
	rm -f "$g/untracked-of-the-developer"
	sed 's/^/# /' "$LOGDIR/$d_name.out" >&2
	diff "$LOGDIR/$d_name-state.before" "$LOGDIR/$d_name-state.after" >&2 ||
		{ say "the developer's tree changed"; return 1; }
}

# make track PROFILE=1 of the series, with the developer's state around
# it; one guest made to panic once, booted again.
TRACK_ARGS="tests=$AB_CACHE_TEST,$AB_OTHER_TESTS time_ms=5"
track_run() {
	fail_once_runner "$LOGDIR/fail-once-runner.sh"
	rm -rf "$LOGDIR/track" "$LOGDIR/fail-once.record" \
		"$LOGDIR/fail-once.record.failed"
	with_developer_state track \
		run_child env BENCH_GUEST_RUNNER="$LOGDIR/fail-once-runner.sh" \
		REAL_RUNNER="$BENCH_TOP/tools/guest.sh" FAIL_GUEST=guest-1 \
		RECORD="$LOGDIR/fail-once.record" \
		TREE="$TRACK_TREE" RANGE=track-base..track-head PROFILE=1 \
		LOADS=6 ALPHA=0.01 FAIL_ABOVE=2 ARGS="$TRACK_ARGS" \
		OUT="$LOGDIR/track" sh "$BENCH_TOP/tools/track.sh" || return 1
	say "make track: exit $DEV_RC (FAIL_ABOVE=2 must name a commit: 1)"
	[ $DEV_RC = 1 ]
}

# Commit INDEX of the track: TEST's verdict, and its profile as
# EXPECTATION says (tools/profile-expect.py), or untouched.
track_expect() {	# index test verdict [expectation...]
	e_json=$LOGDIR/track-$1.json
	jq --argjson i "$1" '{rows: [.commits[] | select(.index == $i) | .rows[]]}' \
		"$LOGDIR/track/track.json" >"$e_json" || return 1
	e_got=$(jq -r --arg t "$2" '.rows[] | select(.test == $t) | .verdict' "$e_json")
	say "[$1] $2: $e_got (want $3)"
	[ "$e_got" = "$3" ] || return 1
	e_i=$1 e_t=$2
	shift 2
	if [ "$1" = change ]; then
		shift
		python3 "$BENCH_TOP/tools/profile-expect.py" "$e_json" \
			--changed "$e_t" "$@" >&2
	else
		python3 "$BENCH_TOP/tools/profile-expect.py" "$e_json" \
			--untouched "$e_t" >&2
	fi
}

# What the table of the series must say: "change" at the constructed
# commits with the constructed counts and functions, "noise" and no
# function moved elsewhere.  gcc 12 inlines page_pool_recycle_in_cache()
# into its caller until the atomic: then it stops (+17 instructions in
# it, -7 in the caller, +10 in all), and ptr_ring moves by about one
# instruction in page_pool_put_unrefed_netmem(), which it shares, for
# no call of the changed function: what the profile is for.
track_table_check() {
	ok=0
	for t in $AB_CACHE_TEST $(echo $AB_OTHER_TESTS | tr , ' '); do
		track_expect 1 $t noise || ok=1
		w=$(jq -r --arg t "$t" '.rows[] | select(.test == $t) | .instructions.ci | .[1] - .[0]' \
			"$LOGDIR/track-1.json")
		say "[1] $t: interval $w wide (under one instruction)"
		awk -v w="$w" 'BEGIN { exit !(w < 1) }' || ok=1
	done
	track_expect 2 $AB_CACHE_TEST change insns=3 || ok=1
	track_expect 3 $AB_CACHE_TEST change insns=3 loads=1 l1d_miss=1 || ok=1
	track_expect 4 $AB_CACHE_TEST change insns=10 loads=2 stores=2 atomics=1 || ok=1
	track_expect 4 tasklet_page_pool02_ptr_ring change --tolerance 0.1 insns=1 || ok=1
	track_expect 5 $AB_CACHE_TEST change insns=-3 || ok=1
	for i in 2 3 5; do
		for t in $(echo $AB_OTHER_TESTS | tr , ' '); do
			track_expect $i $t noise || ok=1
		done
	done
	track_expect 4 tasklet_page_pool03_slow noise || ok=1
	# kcidb.json: KCIDB's rules, one checkout a commit that built and
	# booted, each with the fast path's count in instructions
	python3 "$BENCH_TOP/tools/kcidb-check.py" "$LOGDIR/track/kcidb.json" >&2 ||
		ok=1
	jq -e --slurpfile t "$LOGDIR/track/track.json" --arg f "$AB_CACHE_TEST" '
		([.checkouts[].git_commit_hash] | sort) ==
		([$t[0].base.id] + [$t[0].commits[] | select(.status == "ok") | .id] |
		 sort) and
		([.tests[] | select(.path == "net.bench.page_pool." + $f and
			.number.unit == "instructions")] | length) ==
		(.checkouts | length)' "$LOGDIR/track/kcidb.json" >/dev/null ||
		{ say "kcidb.json: not one checkout per commit measured, each with $AB_CACHE_TEST"; ok=1; }
	# the gate names the three instructions, the first commit over 2%
	grep -q "^\[2\] [0-9a-f]\{12\} page_pool: three instructions more on the direct-recycle path: $AB_CACHE_TEST 3.6[0-9]% (82.0[0-9]* -> 85.0[0-9]* instructions)$" \
		"$LOGDIR/track.out" || { say "FAIL_ABOVE=2 did not name [2]"; ok=1; }
	# the panicked guest was booted again and its loads kept
	boots=$(grep -c '/00-[0-9a-f]*/guest-1$' "$LOGDIR/fail-once.record")
	say "the base's first guest booted $boots times"
	[ "$boots" = 2 ] && grep -q 'the guest failed (log: .*); booting it again (2 of 3)$' \
		"$LOGDIR/track.out" || ok=1
	return $ok
}

# make bisect of the fast path over the series names the three
# instructions, with the developer's state around it.
track_bisect() {
	rm -rf "$LOGDIR/bisect"
	with_developer_state bisect \
		run_child env TREE="$TRACK_TREE" GOOD=track-base BAD=track-head \
		TEST=$AB_CACHE_TEST ARGS=time_ms=2 OUT="$LOGDIR/bisect" \
		sh "$BENCH_TOP/tools/bisect.sh" || return 1
	want=$(git -C "$TRACK_TREE" rev-list --reverse track-base..track-head | sed -n 2p)
	[ $DEV_RC = 0 ] &&
		grep -q "^first commit whose $AB_CACHE_TEST moved: $want page_pool: three instructions more on the direct-recycle path$" \
			"$LOGDIR/bisect.out"
}

# Counting instructions, a difference known by construction: the small
# kernel against its commit of three instructions more on the
# direct-recycle path (tests/track/), whose fast path reads +3 and whose
# ptr_ring and bulk returns never take that path.
ab_ab_icount() {
	# shellcheck disable=SC2086
	make_ab ab-icount BEFORE="$AB_BASE" BEFORE_KDIR="$AB_KDIR" \
		AFTER="$AB_THREE" AFTER_KDIR="$AB_KDIR" $AB_ICOUNT \
		ARGS="$AB_ICOUNT_ARGS" || return 1
	[ "$(verdict ab-icount tasklet_page_pool01_fast_path)" = change ] ||
		return 1
	for t in tasklet_page_pool02_ptr_ring tasklet_page_pool09_bulk; do
		[ "$(verdict ab-icount $t)" = noise ] || return 1
	done
}

# The end-to-end scenarios by construction (doc/e2e.rst): make ab
# ICOUNT=1 E2E of the series' base kernel against its cold load, whose
# three instructions and the three of the commit before run once per
# page recycled into page_pool's cache.  A scenario whose checked path is
# the cache (a page a packet) reads a change of about +6 per packet, any
# other noise.  About: a load's cheapest repetition of 5000 packets holds
# a boot's share of timer work, 0.9 instructions a packet for each tick
# more, and the boots of one kernel spread by up to 2.9 a packet on
# generic_xdp_drop (per-load values 6409.77 to 6412.64 on the base);
# three instructions were told from none in one run of two, six keep
# every load of the change above every load of the base (the "change"),
# and its interval must lie within 3..13 (+6, and a boot's offset of up
# to 3 on either side, and the interval's own width).  One scenario a
# path (cache, ring, fragment): all eight and an A/A take 540 s, which
# make check cannot hold (doc/e2e.rst has that run).  4 rows (for_loop,
# the shortest load of the module, and 3 scenarios) at alpha 0.01 with
# Holm need 6 loads a side (2/C(12,6) = 0.0022 < 0.01/4): a false
# "change" has a chance of at most 1 in 100.  Two loads a guest, where
# make ab boots one a load with E2E: a guest's fixed cost is half of a
# one-load guest's 16 s, and these scenarios' first and second loads in
# a guest agree within 0.1 instructions a packet (the third does not on
# xdp_redirect_veth_drop: +10.7, doc/e2e.rst).  The 1% treats the loads
# as independent, which a guest's two are not quite: approximate.
AB_E2E="ICOUNT=1 LOADS=6 LOADS_PER_GUEST=2 ALPHA=0.01 E2E=generic_xdp_drop,xdp_redirect_veth_drop,pktgen_veth_drop"
AB_E2E_ARGS="tests=for_loop time_ms=1"

e2e_construction() {
	# shellcheck disable=SC2086
	make_ab e2e-six-insns BEFORE="$AB_BASE" \
		BEFORE_KDIR="$AB_KDIR" AFTER="$AB_SIX" \
		AFTER_KDIR="$AB_KDIR" $AB_E2E ARGS="$AB_E2E_ARGS" || return 1
	"$BENCH_TOP/tools/compare/bench-compare" -f json "$LOGDIR"/ab-e2e-six-insns/before-*.results -- \
		"$LOGDIR"/ab-e2e-six-insns/after-*.results >"$LOGDIR/ab-e2e-six-insns.json" &&
	python3 "$BENCH_TOP/tools/e2e-expect.py" --within 3..13 \
		"$LOGDIR/ab-e2e-six-insns.json" - 6 \
		"$LOGDIR"/ab-e2e-six-insns/*.results >&2
}

# make series in Debian's 7.2 tree, which has upstream's net/bench: on a
# copy of the prepared tree (hard links; net/bench, MAINTAINERS and
# .gitignore are files of its own, and the series writes new files, so
# the cached tree never changes), in a git repository of those files.
# Each patch adds at most SERIES_MAX_ADDED lines (git's count) and
# passes netdev's per-patch checks as its robot runs them
# (tools/netdev-checks.py: checkpatch --strict --codespell at 80
# columns with NIPA's ignore list, the selftest layout, inline, the
# shell and kernel-doc checks, sign-off), deprecated_api's module_param
# finding allowed where the message says why; every commit whose
# page_pool/ differs from the one before builds with W=1
# (the tree's sparse wants a newer one than Debian 12's); make
# series-export of the tree gives upstream/series/ again; and
# run_kselftest.sh runs, in one 7.2 guest, the kselftest of the
# SERIES_SAMPLES patches and of the last: upstream's script (bash) up to
# the wrapper, on the module's defaults, then the wrapper on the
# out-of-tree original's seven bits (upstream's four and the softirq
# three), briefly.
SERIES_PARAMS="tests=legacy time_ms=20"
SERIES_MAX_ADDED=1000
# the engine with upstream's tests; the results file; every test
# before the wrapper (the last patch, the wrapper, is run too)
SERIES_SAMPLES="2 6 11"
# upstream's tests (bits 0-3), which "legacy" selects with bits 4-6
SERIES_UPSTREAM_TESTS="for_loop atomic_inc lock no-softirq-page_pool01 no-softirq-page_pool02 no-softirq-page_pool03"
SERIES_REL=tools/testing/selftests/net/bench

# make series' fix of kselftest's ktap_helpers.sh (for linux-kselftest):
# under dash, a description with a glob, two blanks and a backslash
# printed as given by the patched file, not by the tree's own.
ktap_fix_prints() {	# tree patch
	k_dir=$(mktemp -d) || return 1
	k_rel=tools/testing/selftests/kselftest/ktap_helpers.sh
	mkdir -p "$k_dir/${k_rel%/*}" && cp "$1/$k_rel" "$k_dir/$k_rel" &&
		cp "$1/$k_rel" "$k_dir/unpatched.sh" &&
		git -C "$k_dir" apply "$2" || { rm -rf "$k_dir"; return 1; }
	# shellcheck disable=SC2016 # expanded by dash
	k_prog='. "$1"; ktap_test_pass "a *  b \c"; ktap_test_skip "x  y"'
	k_want='ok 1 a *  b \c
ok 2 x  y # SKIP'
	k_new=$(cd "$k_dir" && dash -c "$k_prog" dash "$k_dir/$k_rel")
	k_old=$(cd "$k_dir" && dash -c "$k_prog" dash "$k_dir/unpatched.sh")
	rm -rf "$k_dir"
	say "ktap_helpers.sh patched: $(printf '%s' "$k_new" | tr '\n' '|'); the tree's: $(printf '%s' "$k_old" | tr '\n' '|')"
	[ "$k_new" = "$k_want" ] && [ "$k_old" != "$k_want" ]
}

# tools/netdev-checks.py on BASE..HEAD of TREE into OUT, its exit
# status; kept in the cache by what it reads (each commit's author,
# message and diff, the tree's checkpatch, spelling list and
# kernel-doc, codespell's and shellcheck's versions and the script), so
# that a series that did not change is not checked again (a minute of
# checkpatch with --codespell).
netdev_checks() {	# tree base head out
	n_key=$({
		git -C "$1" log -p --format='%an <%ae>%n%B' "$2..$3"
		cat "$1/scripts/checkpatch.pl" "$1/scripts/spelling.txt" \
			"$1/scripts/kernel-doc" "$BENCH_TOP/tools/netdev-checks.py"
		codespell --version 2>/dev/null
		shellcheck --version
	} | md5sum | cut -c1-16) || return 1
	n_file=$BENCH_CACHE/netdev-checks/$n_key
	if [ -f "$n_file.rc" ] && cp "$n_file.out" "$4" 2>/dev/null; then
		say "netdev's checks of this series: cached ($n_file.out)"
		return "$(cat "$n_file.rc")"
	fi
	python3 "$BENCH_TOP/tools/netdev-checks.py" "$1" "$2" "$3" >"$4" 2>&1
	n_rc=$?
	mkdir -p "${n_file%/*}" && cp "$4" "$n_file.out" &&
		printf '%s\n' "$n_rc" >"$n_file.rc"
	return $n_rc
}

# A commit's page_pool/ built with W=1 against KDIR; a folder that
# built clean before (its tree id, the kernel tree, the compiler) is
# not built again.
series_build() {	# tree commit log
	b_key=$({
		git -C "$1" rev-parse "$2:$SERIES_REL/page_pool"
		printf '%s\n' "$KDIR"
		cat "$KDIR/include/config/kernel.release" 2>/dev/null
		gcc --version
	} | md5sum | cut -c1-16) || return 1
	b_ok=$BENCH_CACHE/series-builds/$b_key.ok
	if [ -f "$b_ok" ]; then
		say "$(git -C "$1" log -1 --format=%h "$2"): page_pool/ built clean before (cached)"
		return 0
	fi
	quiet_build "$3" make -C "$1/$SERIES_REL/page_pool" -j"$(nproc)" \
		KDIR="$KDIR" W=1 || return 1
	mkdir -p "${b_ok%/*}" && : >"$b_ok"
}

series_tree() {
	s_dir=$LOGDIR/series-$KERNEL_RELEASE
	s_tree=$s_dir/linux
	rm -rf "$s_dir"
	mkdir -p "$s_dir" && cp -al "$KDIR" "$s_tree" || return 1
	(
		cd "$s_tree" || exit 1
		rm -rf "$SERIES_REL" MAINTAINERS .gitignore &&
		cp -R "$KDIR/$SERIES_REL" "$SERIES_REL" &&
		cp "$KDIR/MAINTAINERS" MAINTAINERS &&
		# Debian's packaging ignores every top-level path
		grep -vx -e '/\*' -e '!/debian/' "$KDIR/.gitignore" >.gitignore &&
		git init -q && git add "$SERIES_REL" MAINTAINERS LICENSES &&
		git -c user.name=Debian -c user.email=debian@example.org \
			commit -q -m "linux-source-7.2 as Debian ships it"
	) || return 1
	s_t=$(date +%s)
	s_base=$(git -C "$s_tree" rev-parse HEAD) || return 1
	# upstream's module, for the cover letter's "before"
	mkdir -p "$s_dir/upstream" &&
		quiet_build "$s_dir/build-upstream.log" \
			make -C "$s_tree/$SERIES_REL/page_pool" KDIR="$KDIR" &&
		cp "$s_tree/$SERIES_REL/page_pool/bench_page_pool.ko" \
			"$s_dir/upstream/" || return 1
	make -s -C "$s_tree/$SERIES_REL/page_pool" KDIR="$KDIR" clean
	TREE=$s_tree SERIES_OUT=$s_dir/patches \
		sh "$BENCH_TOP/tools/series.sh" || return 1
	ktap_fix_prints "$s_tree" "$s_dir/patches"/ksft-*.patch || return 1
	ok=0
	# the peels, written again from the tree, are the ones stored
	TREE=$s_tree EXPORT_DIR=$s_dir/export \
		sh "$BENCH_TOP/tools/series-export.sh" 2>/dev/null &&
		diff -r "$BENCH_TOP/upstream/series" "$s_dir/export" >&2 ||
		{ say "make series-export of the series' tree differs from upstream/series"; ok=1; }
	# netdev's per-patch checks beside the builds: they read the
	# commits, never the work tree the builds check out
	netdev_checks "$s_tree" "$s_base" "$(git -C "$s_tree" rev-parse HEAD)" \
		"$s_dir/netdev-checks.txt" &
	s_checkpatch=$!
	say "copy, series and export: $(($(date +%s) - s_t)) s"
	s_t=$(date +%s)
	s_n=$(git -C "$s_tree" rev-list --count "$s_base..HEAD")
	s_built=0 s_k=0 s_prev=$s_base
	mkdir -p "$s_dir/ksft"
	for c in $(git -C "$s_tree" rev-list --reverse "$s_base..HEAD"); do
		s_k=$((s_k + 1))
		s_added=$(git -C "$s_tree" diff --numstat "$c~1" "$c" |
			awk '{ n += $1 } END { print n + 0 }')
		[ "$s_added" -le "$SERIES_MAX_ADDED" ] ||
			{ say "patch $s_k adds $s_added lines, more than $SERIES_MAX_ADDED"; ok=1; }
		git -C "$s_tree" checkout -q "$c" || return 1
		# kbuild rebuilds what the checkout changed (fixdep tracks
		# the headers); a sampled patch's install builds its module
		# (with W=1)
		case " $SERIES_SAMPLES $s_n " in
		*" $s_k "*)
			quiet_build "$s_dir/kselftest-$s_k.log" make -C "$s_tree/tools/testing/selftests" \
				-j"$(nproc)" TARGETS=net/bench KDIR="$KDIR" W=1 install \
				INSTALL_PATH="$s_dir/ksft/$s_k" ||
				{ say "patch $s_k: the kselftest build or install failed"; ok=1; }
			s_built=$((s_built + 1)) s_prev=$c ;;
		*)
			git -C "$s_tree" diff --quiet "$s_prev" "$c" -- "$SERIES_REL/page_pool" || {
				series_build "$s_tree" "$c" "$s_dir/build-$s_k.log" ||
					{ say "patch $s_k does not build with W=1"; ok=1; }
				s_built=$((s_built + 1)) s_prev=$c
			} ;;
		esac
		say "patch $s_k: $s_added lines added"
	done
	make -s -C "$s_tree/$SERIES_REL/page_pool" KDIR="$KDIR" clean
	git -C "$s_tree" checkout -q - 2>/dev/null || git -C "$s_tree" checkout -q master
	wait "$s_checkpatch" ||
		{ say "netdev's checks are not OKAY (deprecated_api aside)"; ok=1; }
	cat "$s_dir/netdev-checks.txt" >&2
	# the PAGE POOL entry covers net/bench, whose files the series adds
	awk -v bench="$SERIES_REL/" '$0 == "PAGE POOL" { e = 1 } e && $0 == "" { exit }
		e && $0 == "F:\t" bench { f = 1 } END { exit !f }' "$s_tree/MAINTAINERS" ||
		{ say "MAINTAINERS: PAGE POOL does not cover $SERIES_REL"; ok=1; }
	say "$s_n patches, $s_built builds and netdev's checks: $(($(date +%s) - s_t)) s"
	[ $ok = 0 ] || return 1
	s_t=$(date +%s)
	{
		printf '%s\n' ': >/tmp/runner.out'
		for k in $SERIES_SAMPLES $s_n; do
			printf '%s\n' "printf '%s\\n' '=== patch $k' >>/tmp/runner.out" \
				"(cd /bench/$k && BENCH_PAGE_POOL_PARAMS='$SERIES_PARAMS' ./run_kselftest.sh) >>/tmp/runner.out 2>&1" \
				"printf '%s\\n' \"=== patch $k: exit \$?\" >>/tmp/runner.out"
		done
		printf '%s\n' 'cat /tmp/runner.out'
	} >"$s_dir/payload.sh"
	set --
	for k in $SERIES_SAMPLES $s_n; do
		set -- "$@" -D "$s_dir/ksft/$k"
	done
	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -t 600 -b /bin/bash \
		-p "$s_dir/payload.sh" -o "$s_dir/guest" "$@" || ok=1
	say "guest: $(($(date +%s) - s_t)) s"
	s_out=$s_dir/guest/output.txt
	sed 's/^/# /' "$s_out" >&2
	for k in $SERIES_SAMPLES $s_n; do
		series_sample_check "$s_out" "$k" || ok=1
	done
	[ $ok = 0 ] || return 1
	series_cover "$s_base"
}

# The kselftest of patch K in the guest's output: it passed, upstream's
# script printing the three lines it greps for, or the wrapper checking
# every test of the results it loaded with the parameters given.
series_sample_check() {	# output k
	sed -n "/^=== patch $2\$/,/^=== patch $2: exit /p" "$1" >"$1.$2"
	grep -qx "=== patch $2: exit 0" "$1.$2" &&
		grep -qx 'ok 1 selftests: net/bench: test_bench_page_pool.sh' "$1.$2" &&
		! grep -q '^# not ok' "$1.$2" ||
		{ say "patch $2: run_kselftest.sh did not pass"; return 1; }
	if ! grep -q '^# # modules: ' "$1.$2"; then
		for t in no-softirq-page_pool01 no-softirq-page_pool02 no-softirq-page_pool03; do
			grep -Eq "^# $t Per elem: [0-9]+ cycles\(tsc\) [0-9]+\.[0-9]+ ns\$" "$1.$2" ||
				{ say "patch $2: upstream's script printed no line of $t"; return 1; }
		done
		say "patch $2: upstream's script passed, its three lines printed"
		return 0
	fi
	grep -qxF "# # modules: insmod from /bench/$2/net/bench/page_pool" "$1.$2" &&
	grep -qxF "# # parameters: $SERIES_PARAMS (from \$BENCH_PAGE_POOL_PARAMS)" "$1.$2" ||
		{ say "patch $2: the wrapper did not load the kselftest's module with the parameters"; return 1; }
	# the tree's ktap_helpers.sh printed the totals: only its
	# ktap_print_totals counts the skips (the relations, on TCG) so
	grep -q '^# # [0-9]* skipped test(s) detected\.' "$1.$2" ||
		{ say "patch $2: the wrapper did not use the tree's ktap_helpers.sh"; return 1; }
	# every test of the results passed its own check, its figures
	# after " # ", and upstream's are among them
	s_tests=$(sed -n 's/^# # test: name=\([^ ]*\) .*/\1/p' "$1.$2")
	for t in $s_tests; do
		grep -q "^# ok [0-9]* $t # value=[0-9.]* unit=cycles instrument=tcg " "$1.$2" ||
			{ say "patch $2: $t has no passed check with its figures"; return 1; }
	done
	for t in $SERIES_UPSTREAM_TESTS; do
		printf '%s\n' "$s_tests" | grep -qxF "$t" ||
			{ say "patch $2: upstream's $t did not run"; return 1; }
	done
	say "patch $2: the wrapper passed, $(printf '%s\n' "$s_tests" | grep -c .) tests run and reported"
}

# The last patch's kselftest run as NIPA's contest runs it (the
# install's run_kselftest.sh nests its output as "make run_tests" does;
# the guest has no make; a pipe, as there: its runner reopens
# /dev/stdout, which would truncate a file), counting instructions, read with NIPA's rules
# (tools/ktap-ci.py nipa): with the default parameters a skip, the
# cross-CPU test's checks the only skipped subtests (vCPUs take turns
# under -icount); without that test a pass, every check judged; with a
# limit below the fast path's cost a fail, that check's subtest the one
# not ok.
SERIES_NIPA_JUDGED="tests=for_loop,atomic_inc,lock,no-softirq*,tasklet*,napi*"
SERIES_NIPA_LIMIT="tasklet_page_pool01_fast_path 10"
series_nipa() {	# guest-output-dir
	n_ok=0
	for run in default judged limit; do
		n_rc=$(cat "$1/nipa-$run.rc" 2>/dev/null)
		python3 "$BENCH_TOP/tools/ktap-ci.py" nipa "$1/nipa-$run.out" \
			"${n_rc:-1}" >"$1/nipa-$run.txt" || n_ok=1
		n_run=$(sed -n 's/^run //p' "$1/nipa-$run.txt")
		n_sub=$(grep -c '^subtest ' "$1/nipa-$run.txt")
		say "NIPA, $run: exit ${n_rc:-none}, run $n_run, $n_sub subtests: $(sed -n 's/^subtest [^ ]* //p' "$1/nipa-$run.txt" | sort | uniq -c | tr -s ' \n' ' ')"
		grep '^subtest .* \(fail\|skip\)$' "$1/nipa-$run.txt" |
			sed 's/^/#   /' >&2
		case $run/$n_rc/$n_run in
		default/0/skip | judged/0/pass | limit/1/fail) ;;
		*) n_ok=1 ;;
		esac
		[ "$n_sub" -gt 100 ] || n_ok=1
	done
	# default: only the cross-CPU test's checks skipped, none failed
	grep '^subtest .* skip$' "$1/nipa-default.txt" |
		grep -qv '^subtest cross-cpu-page-pool01-return' && n_ok=1
	grep -q '^subtest cross-cpu-page-pool01-return-cpus skip$' \
		"$1/nipa-default.txt" || n_ok=1
	! grep -q '^subtest .* fail$' "$1/nipa-default.txt" || n_ok=1
	# judged: nothing skipped or failed; limit: one check failed
	! grep -q '^subtest .* \(skip\|fail\)$' "$1/nipa-judged.txt" || n_ok=1
	[ "$(grep '^subtest .* fail$' "$1/nipa-limit.txt")" = \
	  "subtest tasklet-page-pool01-fast-path-median-within-limit fail" ] ||
		n_ok=1
	return $n_ok
}

# The cover letter's numbers, measured: upstream's tests by upstream's
# module and by the series' (the last patch's kselftest install), one load each
# in a guest counting instructions; then make series again from the
# base with them as NUMBERS, and the cover letter must carry them.
SERIES_LOOPS=100000
series_cover() {	# base
	c_dir=$s_dir/numbers
	rm -rf "$c_dir" "$c_dir.payload"
	mkdir -p "$c_dir.payload"
	printf '%s\n' 'mark() { printf "%s\n" "$1" >/dev/kmsg; }' \
		'mark series-upstream' \
		"insmod /bench/upstream/bench_page_pool.ko loops=$SERIES_LOOPS && rmmod bench_page_pool || exit 1" \
		'mark series-after' \
		"insmod /bench/$s_n/net/bench/page_pool/bench_page_pool.ko tests=$(printf '%s' "$SERIES_UPSTREAM_TESTS" | tr ' ' ,) loops=$SERIES_LOOPS reps=1 && rmmod bench_page_pool || exit 1" \
		'dmesg >"$BENCH_OUT/numbers.dmesg"' \
		'nipa() { { (cd /bench/'"$s_n"' && ./run_kselftest.sh) 2>&1; echo $? >"$BENCH_OUT/nipa-$1.rc"; } | cat >"$BENCH_OUT/nipa-$1.out"; }' \
		'nipa default' \
		"(export BENCH_PAGE_POOL_PARAMS='$SERIES_NIPA_JUDGED'; nipa judged)" \
		"printf '%s\\n' '$SERIES_NIPA_LIMIT' >/tmp/limit" \
		'(export BENCH_PAGE_POOL_THRESHOLDS=/tmp/limit; nipa limit)' \
		>"$c_dir.payload/payload.sh"
	run_guest -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" -i -s 1 -t 300 \
		-p "$c_dir.payload/payload.sh" -o "$c_dir" \
		-D "$s_dir/ksft/$s_n" -D "$s_dir/upstream" || return 1
	# "PREFIX: Type:NAME Per elem: ... (invoke count:K tsc_interval:Z)"
	# per module: Z/K, counted instructions per element
	awk -v tests="$SERIES_UPSTREAM_TESTS" -v loops=$SERIES_LOOPS \
		-v release="$KERNEL_RELEASE" '
	/ series-upstream$/ { side = "before"; next }
	/ series-after$/ { side = "after"; next }
	side != "" && / Type:[^ ]+ Per elem: / &&
	match($0, /\(invoke count:[0-9]+ tsc_interval:[0-9]+\)$/) {
		name = $0
		sub(/.* Type:/, "", name)
		sub(/ .*/, "", name)
		split(substr($0, RSTART + 14), w, /[ :)]/)
		if (!((side, name) in value))
			value[side, name] = sprintf("%.2f", w[3] / w[1])
	}
	END {
		print "Upstream'"'"'s tests before the series (its module) and after it,"
		print "instructions per element: QEMU -icount, Debian'"'"'s " release ","
		print "one load of each module, loops=" loops ":"
		print ""
		printf "  %-24s %10s %10s\n", "test", "before", "after"
		n = split(tests, t, " ")
		for (i = 1; i <= n; i++) {
			if (!(("before", t[i]) in value) || !(("after", t[i]) in value))
				exit 1
			printf "  %-24s %10s %10s\n", t[i], value["before", t[i]],
			       value["after", t[i]]
		}
	}' "$c_dir/numbers.dmesg" >"$c_dir/numbers.txt" ||
		{ say "not every upstream test printed its line in both loads"; return 1; }
	sed 's/^/# /' "$c_dir/numbers.txt" >&2
	series_nipa "$c_dir" || return 1
	git -C "$s_tree" reset -q --hard "$1" || return 1
	# a table that is no text is refused in one line, nothing committed
	printf 'before\001after\n' >"$c_dir/bad.txt"
	c_out=$(TREE=$s_tree NUMBERS=$c_dir/bad.txt \
		sh "$BENCH_TOP/tools/series.sh" 2>&1)
	c_rc=$?
	say "NUMBERS with a control character: exit $c_rc, $c_out"
	[ $c_rc = 2 ] && [ "$(git -C "$s_tree" rev-parse HEAD)" = "$1" ] &&
		[ "$c_out" = "error: $c_dir/bad.txt:1: accepted: 1 to 60 lines of printable ASCII, each 200 bytes or less" ] ||
		return 1
	# a folder that holds patches is refused, a new one used
	TREE=$s_tree SERIES_OUT=$s_dir/patches NUMBERS=$c_dir/numbers.txt \
		sh "$BENCH_TOP/tools/series.sh" 2>&1 |
		grep -q ": holds patches already" || return 1
	TREE=$s_tree SERIES_OUT=$c_dir/patches NUMBERS=$c_dir/numbers.txt \
		sh "$BENCH_TOP/tools/series.sh" >/dev/null || return 1
	c_letter=$c_dir/patches/0000-cover-letter.patch
	grep -q "^Subject: \\[PATCH net-next 0*0/$s_n\\] selftests: net: page_pool: " "$c_letter" &&
		grep -qxF "$(sed -n 5p "$c_dir/numbers.txt")" "$c_letter" &&
		grep -q '^  selftests: net: page_pool: check each test in' "$c_letter" &&
		grep -q '^  selftests: net: page_pool: add time_bench.s loop driver' "$c_letter" ||
		{ say "$c_letter: no subject, numbers or shortlog of the series"; return 1; }
	say "cover letter: $c_letter"
}

# results.schema's generated parts, the documentation and the readers
# agree with it, and the tool finds what it must on copies
# (tests/schema_test.sh).
schema_sources() {
	/usr/bin/python3 "$BENCH_TOP/tools/results-schema.py" check-sources &&
		sh "$BENCH_TOP/tests/schema_test.sh"
}

# Every block the module, its collectors and bench-e2e wrote in this
# run's guests follows results.schema (the copies of the checkout
# in "with space" are the project's own test data, not guests' output).
schema_written() {
	w_list=$LOGDIR/schema-files.txt
	find "$LOGDIR" -name '*.results' ! -path "$LOGDIR/with space/*" \
		>"$w_list" || return 1
	[ -s "$w_list" ] || { say "no results file in $LOGDIR"; return 1; }
	# one name a line, never split on blanks
	tr '\n' '\0' <"$w_list" |
		xargs -0 /usr/bin/python3 "$BENCH_TOP/tools/results-schema.py" check
}

# Where the time went: each line's total, the steps in the order they
# ran (lane: main, side, or fuzz; cache: what a step had to fetch or
# build, "-" for nothing) and the slowest five.
timing_table() {	# wall-seconds
	awk -F '\t' -v wall="$1" '
	{
		n++
		secs[n] = $1; lane[n] = $2; res[n] = $3; cache[n] = $4
		desc[n] = $5
		total[$2] += $1
		if (!($2 in seen)) {
			seen[$2] = 1
			lanes[++nl] = $2
		}
	}
	END {
		line = "where make check'"'"'s time went: wall " wall " s;"
		for (i = 1; i <= nl; i++)
			line = line " " lanes[i] " " total[lanes[i]] " s" \
			       (i < nl ? "," : "")
		print line
		printf "%5s  %-4s  %-6s  %s\n", "secs", "lane", "result", \
		       "step (what it built)"
		for (i = 1; i <= n; i++)
			printf "%5d  %-4s  %-6s  %s%s\n", secs[i], lane[i], res[i],
			       desc[i], cache[i] == "-" ? "" : " (" cache[i] ")"
		# the slowest five, by a selection: n is small
		print "slowest:"
		for (k = 1; k <= 5 && k <= n; k++) {
			best = 0
			for (i = 1; i <= n; i++)
				if (!(i in taken) && (!best || secs[i] + 0 > secs[best] + 0))
					best = i
			taken[best] = 1
			printf "%5d  %-4s  %s\n", secs[best], lane[best], desc[best]
		}
	}' "$STEPS"
}

# What the host has in /boot and which kernel images dpkg installed.
boot_state() {
	{
		ls -lA --time-style=+%s /boot 2>&1
		dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' \
			'linux-image-*' 2>/dev/null | grep '^ii'
	} | sort
}

boot_untouched() {
	boot_state >"$LOGDIR/boot.after"
	diff "$LOGDIR/boot.before" "$LOGDIR/boot.after" >&2
}

debug_kernel() {
	KDIR=$(sh "$BENCH_TOP/tools/debug-kernel.sh") || return 1
	select_kernel "$KDIR/arch/x86/boot/bzImage"
	# the modules the kernel's own "make modules" built in its tree
	MODS=$KDIR/lib/bench_page_pool
}

# The kselftest framework's build and install of the project copied into
# the debug kernel's tree, as tools/testing/selftests/net/bench_page_pool.
kselftest_install() {
	# debug-kernel.sh put the project into the tree (copy_to_tree)
	KSFT_INSTALL=$LOGDIR/kselftest
	rm -rf "$KSFT_INSTALL"
	make -C "$SRC/tools/testing/selftests" O="$KDIR" \
		TARGETS=net/bench_page_pool >"$LOGDIR/kselftest-build.log" 2>&1 &&
	make -C "$SRC/tools/testing/selftests" O="$KDIR" \
		TARGETS=net/bench_page_pool install INSTALL_PATH="$KSFT_INSTALL" \
		>>"$LOGDIR/kselftest-build.log" 2>&1 ||
		{ tail -n 30 "$LOGDIR/kselftest-build.log" >&2; return 1; }
	for f in run_kselftest.sh kselftest-list.txt \
		 $(project_files installed | sed 's|^|net/bench_page_pool/|'); do
		[ -f "$KSFT_INSTALL/$f" ] || { say "not installed: $f"; return 1; }
	done
	# built against the debug kernel, not the host's
	vermagic=$(modinfo -F vermagic \
		"$KSFT_INSTALL/net/bench_page_pool/bench_page_pool.ko")
	say "kselftest module vermagic: $vermagic"
	case $vermagic in
	"$KERNEL_RELEASE "*) ;;
	*) return 1 ;;
	esac
}

need_packages make gcc libc6-dev sparse dwarves qemu-system-x86 \
	busybox-static cpio gzip kmod linux-perf gnuplot-nox rsync jq python3 \
	python3-ply python3-git python3-docutils shellcheck codespell
rm -rf "$LOGDIR"
mkdir -p "$LOGDIR"
boot_state >"$LOGDIR/boot.before"
cd "$BENCH_TOP" || exit 1
start=$(date +%s)
ktap_print_header

unpack_source() {
	SRC=$(kernel_source)
}
needed_step "linux-source-6.12 unpacked: checkpatch, the debug kernel and the small kernels (cached)" \
	unpack_source || exit 1

# A kernel of KERNELS: Debian's packages fetched and unpacked (7.2's
# tree prepared), the modules built; kept by series for later steps.
kernel_build() {	# series
	select_kernel "$1"
	MODS=$(build_modules) || return 1
	eval "image_${1%.*}_${1#*.}=\$KERNEL_IMAGE"
	eval "release_${1%.*}_${1#*.}=\$KERNEL_RELEASE kdir_${1%.*}_${1#*.}=\$KDIR"
	eval "mods_${1%.*}_${1#*.}=\$MODS"
}

for k in $KERNELS; do
	needed_step "$k: Debian's kernel and headers (cached), the modules built" \
		kernel_build "$k" || exit 1
	if sparse_runs; then
		s_desc="make W=1 C=2: no compiler warning, sparse clean"
	else
		s_desc="make W=1 C=2: no compiler warning (the host's sparse, $(sparse --version 2>/dev/null), is too old for this tree: kbuild runs none)"
	fi
	step "$KERNEL_RELEASE: $s_desc" build_w1_sparse "$MODS"
	step "$KERNEL_RELEASE: make install sets up modprobe" install_staged "$MODS"
	step "$KERNEL_RELEASE: modinfo describes every parameter" \
		describes_params "$MODS"
	step "$KERNEL_RELEASE: Kconfig gives a module, only with PAGE_POOL" \
		kconfig_entry
done

# PREEMPT_RT, with 6.1: Debian 12's 6.1-rt is the one kernel whose
# process-context windows stay preemptible (its spinlocks sleep), where
# the engine's switch count is what keeps another task's work out.
RT_IMAGE=
rt_build() {
	select_kernel 6.1-rt
	RT_MODS=$(build_modules) || return 1
	RT_IMAGE=$KERNEL_IMAGE RT_RELEASE=$KERNEL_RELEASE
}
case " $KERNELS " in
*" 6.1 "*)
	needed_step "6.1-rt: Debian's PREEMPT_RT kernel and headers (cached), the modules built" \
		rt_build || exit 1
	;;
esac

# A CPU hog beside the module on PREEMPT_RT, counting instructions on
# one vCPU (tests/guest/suite.sh, hog_check).
rt_hog() {
	KERNEL_IMAGE=$RT_IMAGE KERNEL_RELEASE=$RT_RELEASE MODS=$RT_MODS
	guest_suite hog HOG_ONLY=1 -- -c "$(first_cpu)" -i -s 1
}

# The CPU models a kernel's guest suites run with: all of CPUS on the
# first kernel, the first model on the others.  A second model (qemu64:
# no RDTSCP) tests the engine's cycle counter, which no kernel changes.
kernel_cpus() {	# series
	k_series=$1
	set -- $KERNELS
	k_first=$1
	set -- $CPUS
	[ "$k_series" = "$k_first" ] || set -- "$1"
	printf '%s\n' "$@"
}

first_cpu() {
	set -- $CPUS
	printf '%s\n' "$1"
}

# Counting instructions, what needs their precision, in one vCPU: a
# second one's work would count into the first's tests.  The regression
# gate on the first kernel only.
icount_suite() {	# series
	set -- "$1" $KERNELS
	i_gate=0
	[ "$1" = "$2" ] && i_gate=1
	guest_suite "$(first_cpu)-icount" PRECISE=1 GATE=$i_gate -- \
		-c "$(first_cpu)" -i -s 1
}

# Whether a kernel's instruction-counting suite runs in the second line:
# 7.2's and 6.1's do, which the first line could not also hold within
# make check's time (no load of the machine moves an instruction count).
icount_beside() {	# series
	case $1 in 7.2 | 6.1) ;; *) return 1 ;; esac
	[ "$SUITE_ICOUNT" = 1 ] &&
		case " $KERNELS " in *" $1 "*) true ;; *) false ;; esac
}

use_kernel() {	# series
	eval "KERNEL_IMAGE=\$image_${1%.*}_${1#*.}"
	eval "KERNEL_RELEASE=\$release_${1%.*}_${1#*.} KDIR=\$kdir_${1%.*}_${1#*.}"
	eval "MODS=\$mods_${1%.*}_${1#*.}"
}

# Beside the main line, what times nothing: the debug kernel's guest
# suite (lockdep and KASAN, no timing checks), the profile's check, then
# the make ab runs that count instructions, which no load of the
# machine moves.
side_lane() {
	if [ "$DEBUG_KERNEL" = 1 ]; then
		lane_step "$KERNEL_RELEASE debug kernel: in-tree modules, guest suite, fail_page_alloc, kmemleak, run_kselftest.sh" \
			guest_suite debug LONG_SECONDS=15 DEBUG=1 LEAK_LIMIT=80 \
			LEAK_RUNS=5 LEAK_ARGS=loops=2000 PERF=0 KSFT_ARGS=time_ms=50 \
			-- -c max -D "$KSFT_INSTALL"
	fi
	case " $KERNELS " in
	*" 6.12 "*)
		[ "$SUITE_ICOUNT" = 1 ] &&
			lane_step "PROFILE=1 on 6.12, two boots: each test's profile agrees with its TSC instructions within 0.05 per element, warm fast path without L1D misses, the slow path with many; make perf PROFILE=1 on the second boot gives the fast path's functions of the first" \
				profile_check 6.12
		;;
	esac
	for k in 7.2 6.1; do
		icount_beside $k || continue
		use_kernel $k
		lane_step "$KERNEL_RELEASE, -cpu $(first_cpu), counting instructions: relations, -n/-o (the regression gate on the first kernel)" \
			icount_suite $k
	done
	case " $KERNELS " in
	*" 7.2 "*)
		use_kernel 7.2
		lane_step "$KERNEL_RELEASE: make series into its tree's net/bench, netdev's per-patch checks OKAY (deprecated_api where the message says why), each commit builds, the kselftest build and install, run_kselftest.sh in a guest, NIPA's reading of the last patch's run counting instructions, the cover letter with upstream's tests counted before and after" \
			series_tree
		;;
	esac
	# The end-to-end scenarios, counting instructions: nothing they
	# count moves with the main line's load.  The newest first: it has
	# every piece a scenario needs.
	e_kernels=
	for k in 7.2 6.12 6.1; do
		case " $KERNELS " in *" $k "*) e_kernels="$e_kernels $k" ;; esac
	done
	# shellcheck disable=SC2086 # kernel series
	[ "$SUITE_ICOUNT" = 1 ] && [ -n "$e_kernels" ] &&
		lane_step "make run E2E=1 counting instructions on$e_kernels: every end-to-end scenario counted every packet and took its kernel's path, or said why it cannot run" \
			e2e_check $e_kernels
	[ -n "$AB_KDIR" ] || return 0
	lane_step "make track PROFILE=1 of tests/track/'s series on a git tree of linux-source-6.12, the developer's HEAD, index, edit and bisect untouched, the base's first guest panicked once and booted again" \
		track_run
	lane_step "make track's table of the series and its kcidb.json (KCIDB's rules, a checkout per commit): noise with intervals under one instruction at the comment; change at the three instructions (+3), the cold load (+3, a load, an L1D miss), the atomic (+10: gcc stops inlining, ptr_ring +1 in the shared caller) and the revert (-3), with their functions; noise elsewhere; FAIL_ABOVE=2 names the three instructions" \
		track_table_check
	lane_step "make ab ICOUNT=1 E2E, the series' base against its cold load: the scenario whose pages recycle into the cache reads +6 instructions per packet, the ring and fragment ones noise" \
		e2e_construction
	lane_step "make bisect of the fast path over the series names the three instructions, the developer's tree untouched" \
		track_bisect
	return 0
}

if [ "$DEBUG_KERNEL" = 1 ]; then
	needed_step "debug kernel from linux-source-6.12 with the project in lib/bench_page_pool: make modules builds it (cached)" \
		debug_kernel &&
	step "$KERNEL_RELEASE: make W=1 without warnings" build_w1 \
		"$(build_modules)" &&
	needed_step "$KERNEL_RELEASE: kselftest build and install from tools/testing/selftests" \
		kselftest_install || DEBUG_KERNEL=0
fi
AB_KDIR=
if [ "$AB" = 1 ] && [ "$SUITE_ICOUNT" = 1 ]; then
	needed_step "small kernels of tests/track/'s series on a git tree of linux-source-6.12, as make track builds them (cached)" \
		track_kernels
fi
# What the second line's commands build, built once before it starts.
if [ "$TIER" = full ]; then
	needed_step "bench-compare, bench-e2e and the profile plugin build" build_host_tools
	lane_start side side_lane
else
	needed_step "bench-compare builds" build_host_tools
fi

# The host's checks, the fuzz step beside them, while the second line
# runs its first guests: none of them times anything.  400 mutations
# (make fuzz's default is 1500) keep the fuzz step to about a minute of
# one core (700 took 127 s in a whole make check).
fuzz_lane() {
	lane_step "bench-compare: fuzzed under ASan and UBSan" \
		make -s -C tools/compare fuzz FUZZ_CASES=400
}
# The shell tests of the wrapper and of the one grammar: in the quick
# tier beside the main line (its only other work is one guest), in the
# full one on it, where the fuzz step takes the second core.
shell_tests() {	# step|lane_step
	"$1" "kselftest wrapper: usage errors and skips, from a copy every user can read" \
		sh tests/wrapper_test.sh
	"$1" "one grammar: bench-compare, and results_check and the wrapper's -c under sh, bash and busybox, refuse each bad results file at the same line, read each good one" \
		sh tests/grammar_test.sh
}
shell_lane() {
	shell_tests lane_step
}
if [ "$TIER" = quick ]; then
	lane_start shell shell_lane
else
	lane_start fuzz fuzz_lane
fi
# shellcheck disable=SC2046
step "checkpatch --strict on the sources" checkpatch \
	$(project_files module) tests/time_bench_test.c \
	tests/include/ktap_test.h tests/include/linux/*.h \
	tools/compare/*.c tools/compare/*.h tools/compare/tests/*.c \
	tools/profile/*.c tools/e2e/*.c tools/e2e/*.h
step "unit tests of time_bench arithmetic" unit_tests
step "README.rst and doc/*.rst render with docutils, no warning or error" \
	/usr/bin/python3 tools/check-docs.py README.rst doc/*.rst
step "results.schema: results_lib.sh's block and bench-compare's fields generated from it, doc/output.rst's format block in its order, every field and line the readers name declared; the tool's own tests" \
	schema_sources
step "bench-compare: unit and parser tests" make -s -C tools/compare check
step "make series: every peel of upstream/series/ parses; a header line of another kind, or a path out of net/bench, refused at FILE:LINE with exit 2" \
	sh tests/series_test.sh
step "the host's packet source: a request answered with its frames to its sender, every other frame ignored, a second connection served" \
	python3 tests/net_source_test.py
[ "$TIER" = quick ] || shell_tests step
step "make track and make bisect: bad input refused in one line with exit 2, nothing built, the developer's tree untouched" \
	sh tests/track_test.sh
step "make ab: the guest order keeps host drift off both sides" \
	ab_order_balanced
step "ACCEL: the reason KVM cannot run the guest, one line from QEMU's recorded words, PVM first" \
	accel_reason
[ "$TIER" = quick ] || lane_join fuzz

# The quick tier: the first kernel's guest counting instructions, alone.
if [ "$TIER" = quick ]; then
	use_kernel "$KERNELS"
	step "$KERNEL_RELEASE, -cpu $(first_cpu), counting instructions: every test, every check of the kselftest, -n/-o, the regression gate, a CPU hog beside it" \
		icount_suite "$KERNELS"
	step "results.schema: every block the guests wrote, its lines and their fields, follows it" \
		schema_written
	step "the host's /boot and its linux-image packages are unchanged" \
		boot_untouched
	lane_join shell
	wall=$(($(date +%s) - start))
	timing_table "$wall" >"$LOGDIR/timing.txt"
	sed 's/^/# /' "$LOGDIR/timing.txt"
	say "make check-quick took $wall s (make check runs everything)"
	[ -z "$failures" ] || ktap_print_msg "failed:$failures"
	ktap_finished
fi

# The main line: per kernel, the whole suite timing cycles with the
# first CPU model (the endless load included), the kselftest and the
# legacy lines with the others, and, counting instructions (one vCPU: a
# second one's work would count into the first's tests), what needs
# their precision: relations, -n/-o and the regression gate.
first=1
for k in $KERNELS; do
	use_kernel "$k"
	main=1
	for cpu in $(kernel_cpus "$k"); do
		if [ $main = 1 ] && [ $first = 1 ]; then
			step "$KERNEL_RELEASE, -cpu $cpu: guest suite, endless load" \
				guest_suite "$cpu" LONG_SECONDS=15 -- -c "$cpu"
		elif [ $main = 1 ]; then
			# the endless load's chunking is the engine's, the
			# same on every kernel: the first kernel's run shows
			# it; five leak runs (a leak of a page in 2000
			# iterations loses ten a run) keep it within time
			step "$KERNEL_RELEASE, -cpu $cpu: guest suite" \
				guest_suite "$cpu" LEAK_RUNS=5 -- -c "$cpu"
		else
			step "$KERNEL_RELEASE, -cpu $cpu: guest suite (kselftest, legacy lines)" \
				guest_suite "$cpu" QUICK=1 -- -c "$cpu"
		fi
		main=0
	done
	if [ "$SUITE_ICOUNT" = 1 ] && ! icount_beside "$k"; then
		step "$KERNEL_RELEASE, -cpu $(first_cpu), counting instructions: relations, -n/-o (the regression gate on the first kernel)" \
			icount_suite "$k"
	fi
	if [ $first = 1 ]; then
		step "make run, ab, perf: every variable checked before the first guest" \
			early_errors "$k"
		step "a checkout path with spaces: make refuses in one line, make tools and make run work" \
			path_with_spaces "$k"
		step "SIGTERM to make run, SIGINT to make ab's process group: no QEMU, no temporary folder left" \
			signals_clean "$k"
		step "ACCEL: auto probes KVM, says which and why, falls back to TCG; kvm fails at once where KVM cannot" \
			accel_choice "$k"
		[ -n "$AB_KDIR" ] &&
			step "make ab counting instructions, the small kernel against its three instructions: the fast path changes, ptr_ring and bulk noise (false alarm <= 1%)" \
				ab_ab_icount
	fi
	first=0
done
# One guest of 7.2 with the host's packet source for every fault: it has
# every piece the scenarios need.  Without 7.2, 6.12's faults of veth
# and pktgen.
case " $KERNELS " in
*" 7.2 "*)
	[ "$SUITE_ICOUNT" = 1 ] &&
		step "bench-e2e on 7.2 with the host's packet source: an XDP program not attached, a pktgen that sends nothing, a veth down before XDP, a source never asked each fail their scenarios with the reason, never a row; without -V virtio_net_rx_drop skips" \
			e2e_faults 7.2 -N \
			attach@pktgen_veth_drop,virtio_net_rx_drop:BPF_LINK_CREATE \
			silent-pktgen@pktgen_veth_drop:'pktgen sent 0 of' \
			peer-down@xdp_redirect_veth_drop:'counted 0 of' \
			silent-source@virtio_net_rx_drop:'counted 0 of 500 packets asked'
	;;
*" 6.12 "*)
	[ "$SUITE_ICOUNT" = 1 ] &&
		step "bench-e2e on 6.12: an XDP program not attached, a pktgen that sends nothing, a veth down before XDP each fail their scenarios with the reason, never a row" \
			e2e_faults 6.12 - attach@pktgen_veth_drop:BPF_LINK_CREATE \
			silent-pktgen@pktgen_veth_drop:'pktgen sent 0 of' \
			peer-down@xdp_redirect_veth_drop:'counted 0 of'
	;;
esac
# What times nothing but fits here: the two lines end together.
[ -z "$RT_IMAGE" ] || [ "$SUITE_ICOUNT" = 0 ] ||
	step "$RT_RELEASE (PREEMPT_RT), a CPU hog beside the module on one vCPU: windows it entered are measured again, the kselftest passes or fails naming it" \
		rt_hog
# shellcheck disable=SC2086 # kernel series
set -- $KERNELS
use_kernel "$1"
step "guest runner: files intact beside a busy console, payload status, a panic and a hang fail the guest, a failing or silent boot and an emulated int3 are retried" \
	runner_contract
lane_join side

# The kselftest's check names, kept by CI: the same in every guest's
# default run, whatever the kernel, the CPU model or the instrument
# (the series' in-tree run counting instructions among them).
ktap_names() {
	set --
	for f in "$LOGDIR"/*/ksft-default.ktap "$LOGDIR"/series-*/numbers/nipa-default.out; do
		[ ! -f "$f" ] || set -- "$@" "$f"
	done
	say "default runs: $*"
	[ $# -ge 2 ] && python3 "$BENCH_TOP/tools/ktap-ci.py" names "$@" >&2
}
step "KTAP: the kselftest's default run has the same check names in every guest, on every kernel, CPU model and instrument, in and out of tree" \
	ktap_names

# What the guests of each kernel wrote, once all of them have run.
for k in $KERNELS; do
	use_kernel "$k"
	step "$KERNEL_RELEASE: bench-compare reads the guests' results, dmesg and -o folders, and writes them as KCIDB documents that pass its schema's rules" \
		compare_guests $(kernel_cpus "$k")
	[ "$k" = 6.12 ] &&
		step "doc/tests.rst gives every test of the module with its bit, context and path" \
			doc_tests_table "$LOGDIR/$KERNEL_RELEASE-$(first_cpu)/bench-compare.results"
done

# Alone on the machine: what times cycles and compares them.
case " $KERNELS " in
*" 6.12 "*)
	use_kernel 6.12
	step "$KERNEL_RELEASE, 3 vCPUs: cross-CPU return with return_cpus=2" \
		cross_cpu
	if [ "$AB" = 1 ]; then
		step "make ab timing cycles, A/B init_on_alloc=0 vs 1: slow paths change, the recycling paths (an A/A) noise (false alarm <= 1%)" \
			ab_ab
	fi
	;;
esac

step "results.schema: every block the guests wrote, the module's, env_collect's and bench-e2e's lines and their fields, follows it" \
	schema_written
step "the host's /boot and its linux-image packages are unchanged" \
	boot_untouched

wall=$(($(date +%s) - start))
timing_table "$wall" >"$LOGDIR/timing.txt"
sed 's/^/# /' "$LOGDIR/timing.txt"
say "make check took $wall s"
[ -z "$failures" ] || ktap_print_msg "failed:$failures"
ktap_finished
