#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make check": builds and static checks against Debian's 6.1 and 6.12
# headers, the unit tests, and the guest suite (kselftest wrapper, bad
# parameters, page leaks, endless loops) on both kernels with QEMU's
# "max" and "qemu64" CPU models.  Ends with "N passed, N failed".
#
# Then the same guest suite, plus fail_page_alloc runs and a kmemleak
# scan, on a debug kernel (lockdep, KASAN, kmemleak, page_pool stats)
# built from Debian's linux-source-6.12 by tools/debug-kernel.sh.
#
# KERNELS and CPUS narrow it down, e.g. KERNELS=6.12 CPUS=qemu64;
# DEBUG_KERNEL=0 leaves out the debug kernel.
set -u
. "$(dirname "$0")/lib.sh"

KERNELS=${KERNELS:-"6.12 6.1"}
CPUS=${CPUS:-"max qemu64"}
DEBUG_KERNEL=${DEBUG_KERNEL:-1}
LOGDIR=$BENCH_TOP/build/check
passed=0
failed=0
failures=

step() {	# description command...
	desc=$1
	shift
	say "=== $desc"
	if "$@"; then
		passed=$((passed + 1))
		say "PASS: $desc"
	else
		failed=$((failed + 1))
		failures="$failures
  $desc"
		say "FAIL: $desc"
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

guest_suite() {	# cpu long-seconds [debug]
	mkdir -p "$LOGDIR/$KERNEL_RELEASE-$1"
	conf=$LOGDIR/$KERNEL_RELEASE-$1/suite.conf
	printf 'LONG_SECONDS=%s\n' "$2" >"$conf"
	# KASAN's quarantine and lockdep's tables grow with every load: about
	# 12 pages a run measured.  perf cannot resolve module symbols there.
	[ "${3:-0}" = 1 ] &&
		printf 'DEBUG=1\nLEAK_LIMIT=30\nPERF=0\n' >>"$conf"
	sh "$BENCH_TOP/tools/guest.sh" -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" \
		-m "$MODS" -c "$1" -t 1500 -p "$BENCH_TOP/tests/guest/suite.sh" \
		-l "$LOGDIR/console-$KERNEL_RELEASE-$1.log" \
		-f "$BENCH_TOP/test_bench_page_pool.sh" \
		-f "$BENCH_TOP/splat_patterns" -f "$conf" \
		-b "$(command -v perf)" >"$LOGDIR/$KERNEL_RELEASE-$1/suite.out"
	rc=$?
	cat "$LOGDIR/$KERNEL_RELEASE-$1/suite.out" >&2
	return $rc
}

# bench-compare on what the guests of one kernel produced: the results
# file of each CPU model, and the dmesg lines of the same runs.
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
	for pair in "results.txt" "dmesg.log"; do
		"$BENCH_TOP/tools/compare/bench-compare" -f markdown \
			"$a/$pair" "$b/$pair" >"$a/compare-$pair.md" || return 1
		cat "$a/compare-$pair.md" >&2
		[ "$(grep -c '^| [a-z]' "$a/compare-$pair.md")" = 10 ] ||
			{ say "expected a header and 9 test rows"; return 1; }
	done
}

# modinfo must describe every parameter.
describes_params() {
	info=$(modinfo -F parm "$1/bench_page_pool_simple.ko") || return 1
	printf '%s\n' "$info" >&2
	for p in loops run_flags time_ms reps; do
		printf '%s\n' "$info" | grep -q "^$p:[A-Z].* (uint)$" ||
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

need_packages make gcc libc6-dev sparse dwarves qemu-system-x86 \
	busybox-static cpio gzip kmod linux-perf
rm -rf "$LOGDIR"
mkdir -p "$LOGDIR"
SRC=$(kernel_source) || exit 1
cd "$BENCH_TOP" || exit 1

step "checkpatch --strict on the sources" checkpatch \
	time_bench.c time_bench.h bench_page_pool_simple.c \
	bench_page_pool_compat.h Kconfig Makefile tests/time_bench_test.c \
	tests/include/linux/types.h tests/include/linux/math64.h \
	tools/compare/bench_compare.c tools/compare/tests/compare_test.c
step "unit tests of time_bench arithmetic" unit_tests
step "bench-compare: unit and parser tests" make -s -C tools/compare check
step "kselftest wrapper: usage errors and skips" sh tests/wrapper_test.sh

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
	long=30
	for cpu in $CPUS; do
		step "$KERNEL_RELEASE, -cpu $cpu: guest suite" guest_suite "$cpu" $long
		long=0
	done
	step "$KERNEL_RELEASE: bench-compare reads the guests' results and dmesg" \
		compare_guests
done

debug_kernel() {
	KDIR=$(sh "$BENCH_TOP/tools/debug-kernel.sh") || return 1
	select_kernel "$KDIR/arch/x86/boot/bzImage"
	MODS=$(build_modules)
}

if [ "$DEBUG_KERNEL" = 1 ]; then
	step "debug kernel from linux-source-6.12 builds (cached)" debug_kernel &&
	step "$KERNEL_RELEASE: make W=1 without warnings" build_w1 "$MODS" &&
	step "$KERNEL_RELEASE debug kernel: guest suite, fail_page_alloc, kmemleak" \
		guest_suite max 30 1
fi

[ -z "$failures" ] || say "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
