#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make check": static checks, the host-side tests, then per Debian kernel
# (6.12 and 6.1) the builds against its headers and the guest suite
# (kselftest wrapper, bad parameters, page leaks, endless loops) with
# QEMU's "max" and "qemu64" CPU models, the cross-CPU test on three
# vCPUs, and an A/A and an A/B "make ab" on 6.12.
#
# Then the debug kernel (lockdep, KASAN, kmemleak, DMA API debugging,
# page_pool stats) built from Debian's linux-source-6.12 with this
# project in its tree: its in-tree modules run the guest suite, plus
# fail_page_alloc runs and a kmemleak scan, and the kselftest install of
# the same tree runs through run_kselftest.sh.  Last, the host's boot
# must be as it was.  Prints KTAP, one line per step with its duration.
#
# KERNELS and CPUS narrow it down, e.g. KERNELS=6.12 CPUS=qemu64;
# DEBUG_KERNEL=0 leaves out the debug kernel, AB=0 the make ab runs.
set -u
. "$(dirname "$0")/lib.sh"

KERNELS=${KERNELS:-"6.12 6.1"}
CPUS=${CPUS:-"max qemu64"}
DEBUG_KERNEL=${DEBUG_KERNEL:-1}
AB=${AB:-1}
LOGDIR=$BENCH_TOP/build/check
failures=
. "$BENCH_TOP/ktap_lib.sh"

# Runs one step; its own output goes to stderr, its KTAP line to stdout.
step() {	# description command...
	desc=$1
	shift
	say "=== $desc"
	t0=$(date +%s)
	"$@" >&2
	rc=$?
	secs=$(($(date +%s) - t0))
	if [ $rc = 0 ]; then
		ktap_test_pass "$desc (${secs}s)"
	else
		failures="$failures
#   $desc"
		ktap_test_fail "$desc (${secs}s)"
		return 1
	fi
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

build_w1() {
	make -C "$1" KDIR="$KDIR" clean >/dev/null 2>&1
	quiet_build "$LOGDIR/w1-$KERNEL_RELEASE.log" make -C "$1" KDIR="$KDIR" W=1 modules
}

build_sparse() {
	quiet_build "$LOGDIR/sparse-$KERNEL_RELEASE.log" \
		make -C "$1" KDIR="$KDIR" C=2 modules
}

checkpatch() {
	out=$("$SRC/scripts/checkpatch.pl" --strict --no-tree --terse \
		--show-types -f "$@" 2>&1)
	rc=$?
	[ -z "$out" ] || echo "$out" >&2
	return $rc
}

unit_tests() {
	make -s -C "$BENCH_TOP/tests" check
}

guest_suite() {	# cpu long-seconds [0|1 (debug)|quick [guest.sh args...]]
	cpu=$1 long=$2 debug=${3:-0}
	shift 2
	[ $# -gt 0 ] && shift
	dir=$LOGDIR/$KERNEL_RELEASE-$cpu
	mkdir -p "$dir"
	conf=$dir/suite.conf
	printf 'LONG_SECONDS=%s\n' "$long" >"$conf"
	# perf cannot resolve module symbols on the debug kernel.
	# KASAN's quarantine and lockdep's tables grow with every load of
	# all tests: 39 pages a run measured; a fixed loops=20000 there is
	# minutes.  kmemleak is the leak check there.
	[ "$debug" = 1 ] &&
		printf 'DEBUG=1\nLEAK_LIMIT=80\nLEAK_RUNS=5\nLEAK_ARGS=loops=2000\nPERF=0\n' >>"$conf"
	[ "$debug" = quick ] && printf 'QUICK=1\n' >>"$conf"
	sh "$BENCH_TOP/tools/guest.sh" -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" \
		-m "$MODS" -c "$cpu" -t 1500 -p "$BENCH_TOP/tests/guest/suite.sh" \
		-l "$LOGDIR/console-$KERNEL_RELEASE-$cpu.log" \
		-f "$BENCH_TOP/test_bench_page_pool.sh" \
		-f "$BENCH_TOP/ktap_lib.sh" \
		-f "$BENCH_TOP/splat_patterns" -f "$conf" \
		-b "$(command -v perf)" "$@" >"$dir/suite.out"
	rc=$?
	sed 's/^/# /' "$dir/suite.out" >&2
	return $rc
}

# The cross-CPU test with two returning CPUs, on three vCPUs: the
# kselftest checks its path and that every page came back.
cross_cpu() {
	dir=$LOGDIR/$KERNEL_RELEASE-xcpu
	mkdir -p "$dir"
	printf '%s\n' 'sh ./test_bench_page_pool.sh -d "/lib/modules/$(uname -r)/extra" tests=cross_cpu_page_pool01_return return_cpus=2' \
		>"$dir/payload.sh"
	sh "$BENCH_TOP/tools/guest.sh" -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" \
		-m "$MODS" -s 3 -t 600 -p "$dir/payload.sh" \
		-l "$dir/console.log" \
		-f "$BENCH_TOP/test_bench_page_pool.sh" \
		-f "$BENCH_TOP/ktap_lib.sh" \
		-f "$BENCH_TOP/splat_patterns" >"$dir/out"
	rc=$?
	sed 's/^/# /' "$dir/out" >&2
	[ $rc = 0 ] && grep -q '^ok .*cross_cpu_page_pool01_return' "$dir/out"
}

# bench-compare on what the guests of one kernel produced: the results
# file of each CPU model, and the dmesg lines of the same runs.  One row
# per test that both ran.
compare_guests() {
	set -- $CPUS
	[ $# -ge 2 ] || { say "needs two CPU models"; return 1; }
	for cpu in "$1" "$2"; do
		dir=$LOGDIR/$KERNEL_RELEASE-$cpu
		sed -n 's/^results| //p' "$dir/suite.out" >"$dir/results.txt"
		sed -n 's/^dmesg| //p' "$dir/suite.out" >"$dir/dmesg.log"
	done
	a=$LOGDIR/$KERNEL_RELEASE-$1
	b=$LOGDIR/$KERNEL_RELEASE-$2
	want=$(sed -n 's/^test: name=\([^ ]*\) .*/\1/p' "$a/results.txt" |
	       sort -u | wc -l)
	[ "$want" -gt 0 ] || { say "no test: lines from the guests"; return 1; }
	for pair in "results.txt" "dmesg.log"; do
		"$BENCH_TOP/tools/compare/bench-compare" -f markdown \
			"$a/$pair" "$b/$pair" >"$a/compare-$pair.md" || return 1
		sed 's/^/# /' "$a/compare-$pair.md" >&2
		rows=$(($(grep -c '^| [a-z]' "$a/compare-$pair.md") - 1))
		say "$pair: $rows rows, $want tests"
		[ "$rows" = "$want" ] || return 1
	done
}

# modinfo must describe every parameter.
describes_params() {
	info=$(modinfo -F parm "$1/bench_page_pool_simple.ko") || return 1
	printf '%s\n' "$info" | sed 's/^/# /' >&2
	for p in loops run_flags time_ms reps bulk return_cpus tests; do
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

# "make install" into a staging root must give modprobe its dependency.
install_staged() {
	stage=$LOGDIR/install-$KERNEL_RELEASE
	rm -rf "$stage"
	make -s -C "$1" KDIR="$KDIR" INSTALL_MOD_PATH="$stage" install \
		>"$LOGDIR/install-$KERNEL_RELEASE.log" 2>&1 ||
		{ cat "$LOGDIR/install-$KERNEL_RELEASE.log" >&2; return 1; }
	dep=$(grep '/bench_page_pool_simple\.ko[.a-z]*:' \
		"$stage/lib/modules/$KERNEL_RELEASE/modules.dep")
	say "modules.dep: $dep"
	case $dep in
	*/bench_page_pool_simple.ko*:*/time_bench.ko*) ;;
	*) return 1 ;;
	esac
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

# The tests make ab compares here, in short runs: both slow paths, which
# init_on_alloc changes, and the softirq fast path and ptr_ring, which
# it does not.  4 rows at alpha 0.01 with Holm need 6 loads a side
# (2/C(12,6) = 0.0022 < 0.01/4); the bound on any false "change" in an
# A/A run, or on the two recycling rows of the A/B, is then alpha: 1 run
# in 100.
AB_CHECK_ARGS="tests=no-softirq-page_pool03,tasklet_page_pool01_fast_path,tasklet_page_pool02_ptr_ring,tasklet_page_pool03_slow time_ms=100"

make_ab() {	# name make-ab-variables...
	name=$1
	shift
	env "$@" OUT="$LOGDIR/ab-$name" LOADS=6 ALPHA=0.01 \
		ARGS="$AB_CHECK_ARGS" sh "$BENCH_TOP/tools/ab.sh" \
		>"$LOGDIR/ab-$name.out" 2>&1
	rc=$?
	sed 's/^/# /' "$LOGDIR/ab-$name.out" >&2
	[ $rc = 0 ] && [ -s "$LOGDIR/ab-$name/plot.svg" ] &&
		[ -s "$LOGDIR/ab-$name/plot.png" ]
}

verdict() {	# name test
	awk -v t="$2" '$1 == t { print $NF }' "$LOGDIR/ab-$1/table.txt"
}

# Same kernel, same everything: no row may say "change".
ab_aa() {
	make_ab aa BEFORE=6.12 AFTER=6.12 || return 1
	! grep -q ' change$' "$LOGDIR/ab-aa/table.txt"
}

# One kernel, two command lines: init_on_alloc=1 zeroes every page the
# allocator hands out, which only the slow paths take; the recycling
# paths never see it.
ab_ab() {
	make_ab ab BEFORE=6.12 AFTER=6.12 BEFORE_APPEND=init_on_alloc=0 \
		AFTER_APPEND=init_on_alloc=1 || return 1
	grep -q '^environment differs: runtime.init_on_alloc: before 0, after 1$' \
		"$LOGDIR/ab-ab/table.txt" || return 1
	for t in no-softirq-page_pool03 tasklet_page_pool03_slow; do
		[ "$(verdict ab $t)" = change ] || return 1
	done
	for t in tasklet_page_pool01_fast_path tasklet_page_pool02_ptr_ring; do
		[ "$(verdict ab $t)" = noise ] || return 1
	done
}

# What the host has in /boot and which kernel images dpkg installed.
boot_state() {
	{
		ls -la --time-style=+%s /boot 2>&1
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
		"$KSFT_INSTALL/net/bench_page_pool/bench_page_pool_simple.ko")
	say "kselftest module vermagic: $vermagic"
	case $vermagic in
	"$KERNEL_RELEASE "*) ;;
	*) return 1 ;;
	esac
}

need_packages make gcc libc6-dev sparse dwarves qemu-system-x86 \
	busybox-static cpio gzip kmod linux-perf gnuplot-nox rsync
rm -rf "$LOGDIR"
mkdir -p "$LOGDIR"
boot_state >"$LOGDIR/boot.before"
SRC=$(kernel_source) || exit 1
cd "$BENCH_TOP" || exit 1
start=$(date +%s)
ktap_print_header

# shellcheck disable=SC2046
step "checkpatch --strict on the sources" checkpatch \
	$(project_files module) tests/time_bench_test.c \
	tests/include/ktap_test.h \
	tests/include/linux/types.h tests/include/linux/math64.h \
	tools/compare/*.c tools/compare/*.h tools/compare/tests/compare_test.c
step "unit tests of time_bench arithmetic" unit_tests
step "bench-compare: unit and parser tests" make -s -C tools/compare check
step "kselftest wrapper: usage errors and skips, from a copy every user can read" \
	sh tests/wrapper_test.sh
step "make ab: the guest order keeps host drift off both sides" \
	ab_order_balanced

for k in $KERNELS; do
	select_kernel "$k"
	MODS=$(build_modules) || exit 1
	step "$KERNEL_RELEASE: make W=1 without warnings" build_w1 "$MODS"
	step "$KERNEL_RELEASE: make C=2 (sparse) clean" build_sparse "$MODS"
	step "$KERNEL_RELEASE: make install sets up modprobe" install_staged "$MODS"
	step "$KERNEL_RELEASE: modinfo describes every parameter" \
		describes_params "$MODS"
	step "$KERNEL_RELEASE: Kconfig gives a module, only with PAGE_POOL" \
		kconfig_entry
	# The first CPU model runs the whole suite, the others the kselftest
	# and the lines bench-compare reads.
	long=30 mode=0 what=
	for cpu in $CPUS; do
		step "$KERNEL_RELEASE, -cpu $cpu: guest suite$what" \
			guest_suite "$cpu" $long $mode
		long=0 mode=quick what=" (kselftest, legacy lines)"
	done
	step "$KERNEL_RELEASE: bench-compare reads the guests' results and dmesg" \
		compare_guests
	if [ "$k" = 6.12 ]; then
		step "$KERNEL_RELEASE, 3 vCPUs: cross-CPU return with return_cpus=2" \
			cross_cpu
	fi
done

case " $KERNELS " in
*" 6.12 "*)
	if [ "$AB" = 1 ]; then
		step "make ab, A/A on 6.12: no row says change (false alarm <= 1%)" \
			ab_aa
		step "make ab, A/B init_on_alloc=0 vs 1: slow paths change, recycling paths noise" \
			ab_ab
	fi
	;;
esac

if [ "$DEBUG_KERNEL" = 1 ]; then
	step "debug kernel from linux-source-6.12 with the project in lib/bench_page_pool: make modules builds it (cached)" \
		debug_kernel &&
	step "$KERNEL_RELEASE: make W=1 without warnings" build_w1 \
		"$(build_modules)" &&
	step "$KERNEL_RELEASE: kselftest build and install from tools/testing/selftests" \
		kselftest_install &&
	step "$KERNEL_RELEASE debug kernel: in-tree modules, guest suite, fail_page_alloc, kmemleak, run_kselftest.sh" \
		guest_suite max 30 1 -D "$KSFT_INSTALL"
fi

step "the host's /boot and its linux-image packages are unchanged" \
	boot_untouched

say "make check took $(($(date +%s) - start)) s"
[ -z "$failures" ] || ktap_print_msg "failed:$failures"
ktap_finished
