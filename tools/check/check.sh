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
# early, a checkout path with spaces, signals, the accelerator); the
# end-to-end scenarios' faults; PREEMPT_RT's hog and the guest runner's
# contract.  Beside it runs what times nothing, in lanes: from the
# start, the host's checks and the fuzzing, and the debug kernel
# (lockdep, KASAN, kmemleak, DMA API debugging, page_pool stats, built
# from Debian's linux-source-6.12 with this project in its tree: its
# in-tree modules run the guest suite with fail_page_alloc runs and a
# kmemleak scan, and the kselftest install of the tree runs through
# run_kselftest.sh); after the kernels' builds, the second line: the
# profile's check, 7.2's and 6.1's guests counting instructions, the
# series in 7.2's tree (make series, checkpatch per patch, the kselftest
# build, install and run_kselftest.sh in a 7.2 guest), the end-to-end
# scenarios, make box against a box in QEMU, make track's small kernels (built in the host lane), the
# A/B of the first and its three instructions, make track and make
# bisect of tests/track's series, and the e2e construction.  Then bench-compare on what each
# kernel's guests wrote, and doc/tests.rst's table against 6.12's
# module.  Then, alone on the machine, what times cycles: the cross-CPU
# test on three vCPUs, and an A/B "make ab" timing cycles whose
# untouched rows are an A/A.  Last, the host's boot must be as it was.
# Prints KTAP, one line per step with its duration, and the table of
# where the time went (build/check/timing.txt).
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
# TIER=host ("make check-host", for an edit of a parser, a writer or a
# shell tool): the host's checks and tests alone, as any user, no
# guest, no package installed; logs in build/check-host.
set -u
. "$(dirname "$0")/../lib.sh"
bench_lib guest e2e check
# the steps' bodies by area (doc/house.rst)
for c_area in builds guests ab track series e2e profile box tools; do
	. "$BENCH_TOP/tools/check/steps/$c_area.sh"
done
. "$BENCH_TOP/results_lib.sh"

TIER=${TIER:-full}
check_choice TIER "$TIER" full quick host
SUITE_ICOUNT=${ICOUNT:-1}
check_choice ICOUNT "$SUITE_ICOUNT" 0 1
# The commands run here read these from the environment; each step says
# what it wants.
unset ICOUNT NOAPICTIMER ACCEL KERNEL KDIR ARGS CPU VCPUS TIMEOUT RESULTS LOADS ALPHA \
	FAIL_ABOVE OUT TEST BEFORE AFTER BEFORE_KDIR AFTER_KDIR BEFORE_ARGS \
	AFTER_ARGS BEFORE_APPEND AFTER_APPEND MAKEFLAGS MAKELEVEL
ONLY=${ONLY:-}
LOGDIR=$BENCH_TOP/build/check
[ "$TIER" = full ] || LOGDIR=$LOGDIR-$TIER
failures=
. "$BENCH_TOP/ktap_lib.sh"

# Where make check's time goes: a line a step, "SECONDS CPU-SECONDS
# LANE RESULT CACHE DESCRIPTION" with tabs, in the order they ran.
# CACHE is "-", or what the step had to fetch or build (tools/lib.sh's
# cache_miss, through the file BENCH_BUILT).
STEPS=$LOGDIR/steps.tsv

# The host's checks and tests: nothing boots, nothing times.  STEP is
# step or lane_step.  Two halves of about the same time (about 45 s each
# here), which the host and quick tiers run side by side.
host_checks() {	# step
	"$1" "unit tests of time_bench arithmetic" unit_tests
	"$1" "results.schema: the module's writer and bench-e2e's, built from their sources and run on the host, follow it; every field it declares is written by one of them" \
		writers_check
	"$1" "README.rst and doc/*.rst render with docutils, no warning or error" \
		/usr/bin/python3 tools/check/docs.py README.rst doc/*.rst
	"$1" "doc/house.rst names every tracked file at the top and every entry of tools/ and tests/" \
		house_map
	"$1" "no comment cites an issue number of a tracker outside the repository" \
		no_issue_numbers
	"$1" "one grammar: bench-compare, tools/results/results.py, results_check under sh, bash and busybox and the wrapper's -c refuse each bad results file at the same line, read each good one" \
		sh tests/grammar_test.sh
	"$1" "make track and make bisect: bad input refused in one line with exit 2, nothing built, the developer's tree untouched" \
		sh tests/track_test.sh
	"$1" "make ab: the guest order keeps host drift off both sides" \
		ab_order_balanced
	"$1" "ACCEL: the reason KVM cannot run the guest, one line from QEMU's recorded words, PVM first" \
		accel_reason
}
host_checks_beside() {	# step
	"$1" "bench-compare: unit and parser tests" make -s -C tools/compare check
	"$1" "kselftest wrapper: usage errors and skips, from a copy every user can read" \
		sh tests/wrapper_test.sh
	"$1" "results.schema: results_lib.sh's block and bench-compare's fields and types generated from it, doc/output.rst's format block in its order, every field and line the readers name declared; the tool's own tests" \
		schema_sources
	"$1" "tools/results/results.py, the Python tools' one reader: every saved results file read, hostile ones refused at FILE:LINE" \
		python3 tests/results_py_test.py
	"$1" "the e2e construction's judge: page_pool's own functions' share of a profiled load moves by the constructed count on the cache path within 0.05, by none elsewhere within 0.1; a caller's, a module's or an unprofiled load's never passes" \
		python3 tests/e2e_expect_test.py
	"$1" "make series: every peel of upstream/series/ parses; a header line of another kind, or a path out of net/bench, refused at FILE:LINE with exit 2" \
		sh tests/series_test.sh
	"$1" "the host's packet source: a request answered with its frames to its sender, every other frame ignored, a second connection served" \
		python3 tests/net_source_test.py
	"$1" "make box: bad variables and a box that cannot serve refused in one line before anything on it changes" \
		sh tests/box_test.sh
}
host_lane() {
	host_checks_beside lane_step
}

# The host tier: the shell tests beside the rest, then done.
if [ "$TIER" = host ]; then
	for h_tool in make gcc python3 awk git jq; do
		command -v "$h_tool" >/dev/null ||
			die "make check-host needs $h_tool (make check installs what it needs)"
	done
	/usr/bin/python3 -c 'import docutils' 2>/dev/null ||
		die "make check-host needs Debian's python3-docutils (make check installs what it needs)"
	rm -rf "$LOGDIR"
	mkdir -p "$LOGDIR"
	use_debian_python
	cd "$BENCH_TOP" || exit 1
	start=$(date +%s)
	ktap_print_header
	needed_step "bench-compare and the unit tests build" build_host_tools
	lane_start host host_lane
	host_checks step
	lane_join host
	check_finished "make check-host" "(make check-quick adds a guest, make check everything)"
fi
if [ "$TIER" = quick ]; then
	set -- ${KERNELS:-6.12}
	KERNELS=$1 CPUS=${CPUS:-max} DEBUG_KERNEL=0 AB=0
fi
KERNELS=${KERNELS:-"6.12 7.2 6.1"}
CPUS=${CPUS:-"max qemu64"}
DEBUG_KERNEL=${DEBUG_KERNEL:-1}
AB=${AB:-1}
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

need_packages make gcc libc6-dev sparse dwarves qemu-system-x86 \
	busybox-static cpio gzip kmod linux-perf gnuplot-nox rsync jq python3 \
	python3-ply python3-git python3-docutils shellcheck codespell \
	ruby ruby-rspec ruby-tty-command ruby-git ruby-colorize \
	ruby-term-ansicolor ruby-activesupport dropbear-bin e2fsprogs xz-utils \
	openssh-client qemu-utils
rm -rf "$LOGDIR"
mkdir -p "$LOGDIR"
use_debian_python
boot_state >"$LOGDIR/boot.before"
cd "$BENCH_TOP" || exit 1
start=$(date +%s)
ktap_print_header

needed_step "linux-source-6.12 unpacked: checkpatch, the debug kernel and the small kernels (cached)" \
	unpack_source || exit 1

# The second line, beside the main line once the kernels are built,
# what times nothing: the profile's check, the guests of 7.2 and 6.1
# counting instructions, the series, the end-to-end scenarios, then the
# make track, ab and bisect runs that count instructions, which no load
# of the machine moves.
side_lane() {
	case " $KERNELS " in
	*" 6.12 "*)
		[ "$SUITE_ICOUNT" = 1 ] &&
			lane_step "PROFILE=1 on 6.12, two boots: each test's profile agrees with its TSC instructions within 0.05 per element and 8 a window, warm fast path without L1D misses, the slow path with many; make perf PROFILE=1 on the second boot gives the fast path's functions of the first" \
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
	# make box against a box in QEMU counting instructions: one boot
	# of the box serves every check of it
	case " $KERNELS " in
	*" 6.12 "*)
		[ "$SUITE_ICOUNT" = 1 ] &&
			lane_step "make box against a QEMU box counting instructions (ssh, kexec): bad input refused before the box changes; init_on_alloc=0 vs 1 changes the slow rows only, the recycling rows an A/A of boots at +0.000; BOX_TUNE=1 in every boot; the box given back, Ctrl-C included" \
				box_check
		;;
	esac
	small_kernels_wanted || return 0
	lane_needed_step "make track's small kernels, once the host lane has them: their images and build tree" \
		small_kernels_wait || return 0
	lane_step "make ab counting instructions, the small kernel against its three instructions: the fast path changes, ptr_ring and bulk noise (false alarm <= 1%)" \
		ab_ab_icount
	lane_step "make track PROFILE=1 of tests/track/'s series on a git tree of linux-source-6.12, the developer's HEAD, index, edit and bisect untouched, the base's first guest panicked once and booted again" \
		track_run
	lane_step "make track's table of the series and its kcidb.json (KCIDB's rules, a checkout per commit): noise with intervals under one instruction at the comment; change at the three instructions (+3), the cold load (+3, a load, an L1D miss), the atomic (+10: gcc stops inlining, ptr_ring +1 in the shared caller) and the revert (-3), with their functions; noise elsewhere; FAIL_ABOVE=2 names the three instructions" \
		track_table_check
	lane_step "make ab ICOUNT=1 PROFILE=1 E2E, the series' base against its cold load: page_pool's functions count +6 instructions a packet within 0.05 where pages recycle into the cache, none within 0.1 on the ring and fragment paths; the scenarios' figures change there, noise elsewhere" \
		e2e_construction
	lane_step "make bisect of the fast path over the series names the three instructions, the developer's tree untouched" \
		track_bisect
	return 0
}

# What every lane's commands use, built first.
if [ "$TIER" = full ]; then
	needed_step "bench-compare, bench-e2e and the profile plugin build" build_host_tools
else
	needed_step "bench-compare builds" build_host_tools
fi

# The debug kernel's guest suite (lockdep and KASAN, no timing checks)
# in a lane of its own from the start: the longest step there is.
debug_lane() {
	lane_step "$KERNEL_RELEASE debug kernel: in-tree modules, guest suite, fail_page_alloc, kmemleak, run_kselftest.sh" \
		guest_suite debug LONG_SECONDS=15 DEBUG=1 LEAK_LIMIT=80 \
		LEAK_RUNS=5 LEAK_ARGS=loops=2000 PERF=0 KSFT_ARGS=time_ms=50 \
		-- -c max -D "$KSFT_INSTALL"
}
if [ "$TIER" = full ] && [ "$DEBUG_KERNEL" = 1 ]; then
	needed_step "debug kernel from linux-source-6.12 with the project in lib/bench_page_pool: make modules builds it (cached)" \
		debug_kernel &&
	step "$KERNEL_RELEASE: make W=1 without warnings" build_w1 &&
	needed_step "$KERNEL_RELEASE: kselftest build and install from tools/testing/selftests" \
		kselftest_install &&
	lane_start debug debug_lane || DEBUG_KERNEL=0
fi

# The host's checks and the fuzz step, in a lane from the start too,
# beside the kernels' builds: none of them times anything.  400
# mutations (make fuzz's default is 1500) keep the fuzz step to about a
# minute of one core (700 took 127 s in a whole make check).  Then
# make track's small kernels (small_kernels_build).  In the quick tier,
# half the host's checks beside the main line (its only other work is
# one guest), the other half on it.
full_host_lane() {
	lane_step "bench-compare: fuzzed under ASan and UBSan" \
		make -s -C tools/compare fuzz FUZZ_CASES=400
	host_checks lane_step
	host_checks_beside lane_step
	! small_kernels_wanted ||
		lane_needed_step "small kernels of tests/track/'s series on a git tree of linux-source-6.12, as make track builds them (cached)" \
			small_kernels_build
	# last: the second line waits for the small kernels, not for this
	lane_step "make lkp into a clone of lkp-tests: LKP's stats spec accepts the fixtures, parse reads every file as bench-compare does, LKP's __get_changed_stats flags the rows that changed and no others" \
		sh tests/lkp_test.sh
}
if [ "$TIER" = full ]; then
	lane_start host full_host_lane
else
	lane_start host host_lane
fi

for k in $KERNELS; do
	needed_step "$k: Debian's kernel and headers (cached), the modules built" \
		kernel_build "$k" || exit 1
	if sparse_runs; then
		s_desc="make W=1 C=2: no compiler warning, sparse clean"
	else
		s_desc="make W=1 C=2: no compiler warning (the host's sparse, $(sparse --version 2>/dev/null), is too old for this tree: kbuild runs none)"
	fi
	step "$KERNEL_RELEASE: $s_desc" build_w1_sparse
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
case " $KERNELS " in
*" 6.1 "*)
	needed_step "6.1-rt: Debian's PREEMPT_RT kernel and headers (cached), the modules built" \
		rt_build || exit 1
	;;
esac

# The second line, once what its commands need is built.
[ "$TIER" = full ] && lane_start side side_lane

# shellcheck disable=SC2046
step "checkpatch --strict on the sources" checkpatch \
	$(project_files module) tests/time_bench_test.c \
	tests/include/ktap_test.h tests/include/linux/*.h \
	tools/compare/*.c tools/compare/*.h tools/compare/tests/*.c \
	tools/profile/*.c tools/profile/*.h tools/e2e/*.c tools/e2e/*.h \
	tests/results_writer_test.c tests/e2e_rows_test.c \
	tests/include/asm/*.h
[ "$TIER" = quick ] && host_checks step

# The quick tier: the first kernel's guest counting instructions, alone.
if [ "$TIER" = quick ]; then
	use_kernel "$KERNELS"
	step "$KERNEL_RELEASE, -cpu $(first_cpu), counting instructions: every test, every check of the kselftest, -n/-o, the regression gate, a CPU hog beside it" \
		icount_suite "$KERNELS"
	step "results.schema: every block the guests wrote, its lines and their fields, follows it" \
		schema_written
	step "the host's /boot and its linux-image packages are unchanged" \
		boot_untouched
	lane_join host
	check_finished "make check-quick" "(make check runs everything)"
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
lane_join host
[ "$DEBUG_KERNEL" = 0 ] || lane_join debug
lane_join side

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
		step "make ab timing cycles, A/B init_on_alloc=0 vs 1: slow paths change, the recycling paths (an A/A) noise (false alarm <= 0.1%)" \
			ab_ab
	fi
	;;
esac

step "results.schema: every block the guests wrote, the module's, env_collect's and bench-e2e's lines and their fields, follows it" \
	schema_written
step "the host's /boot and its linux-image packages are unchanged" \
	boot_untouched

check_finished "make check"
