# SPDX-License-Identifier: GPL-2.0
#
# make check's steps that build and check the module on the host,
# sourced by tools/check/check.sh: the kernels and their headers, W=1 and
# sparse, checkpatch, the unit tests, make install, modinfo, Kconfig,
# the debug kernel and its kselftest install, the host tools.

# One compile from clean: the compiler's W=1 warnings and sparse's
# (C=2 checks every file it compiles) in one log.  A tree whose kbuild
# finds the host's sparse too old for its headers (7.2's, which use
# __typeof_unqual__, against Debian 12's 0.6.4) skips sparse with one
# line: sparse_runs says so beforehand, and a skip not announced fails.
# In a folder of its own, so that the modules the guests load, and
# make install's, are not built again with other flags.
build_w1_sparse() {
	w1_copy || return 1
	quiet_build "$LOGDIR/w1-sparse-$KERNEL_RELEASE.log" \
		make -C "$W1_DIR" -j"$(nproc)" KDIR="$KDIR" W=1 C=2 modules ||
		return 1
	! grep -q 'C=2 specified, but sparse is not available' \
		"$LOGDIR/w1-sparse-$KERNEL_RELEASE.log" || ! sparse_runs ||
		{ say "kbuild did not run sparse"; return 1; }
}

sparse_runs() {
	[ ! -x "$KDIR/scripts/checker-valid.sh" ] ||
		[ "$("$KDIR/scripts/checker-valid.sh" sparse 2>/dev/null)" = 1 ]
}

build_w1() {
	w1_copy &&
		quiet_build "$LOGDIR/w1-$KERNEL_RELEASE.log" \
			make -C "$W1_DIR" -j"$(nproc)" KDIR="$KDIR" W=1 modules
}

# A fresh copy of the module's files for a build from clean.
w1_copy() {
	W1_DIR=$LOGDIR/w1-$KERNEL_RELEASE.build
	rm -rf "$W1_DIR" && (copy_files "$W1_DIR" module)
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

# The writers without a guest, built from their sources on the host and
# run on made-up loads and runs: the module's
# (tests/results_writer_test.c) and bench-e2e's (tests/e2e_rows_test.c,
# tools/e2e/rows.c).  A field or line the schema declares and neither
# writes is either dead or untested: it fails.
writers_check() {
	make -s -C "$BENCH_TOP/tests" check-writers &&
		python3 "$BENCH_TOP/tools/results/schema.py" coverage \
			"$BENCH_TOP"/tests/build/results-writer/out/*.results
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

build_host_tools() {
	make -s -C "$BENCH_TOP/tools/compare" &&
		make -s -C "$BENCH_TOP/tests" || return 1
	[ "$TIER" = full ] || return 0
	make -s -C "$BENCH_TOP/tools/e2e" &&
		{ [ "$SUITE_ICOUNT" = 0 ] || make -s -C "$BENCH_TOP/tools/profile"; }
}

debug_kernel() {
	KDIR=$(sh "$BENCH_TOP/tools/kernel/debug-kernel.sh") || return 1
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

unpack_source() {
	SRC=$(kernel_source)
}

# A kernel of KERNELS: Debian's packages fetched and unpacked (7.2's
# tree prepared), the modules built; kept by series for later steps.
kernel_build() {	# series
	select_kernel "$1"
	MODS=$(build_modules) || return 1
	eval "image_${1%.*}_${1#*.}=\$KERNEL_IMAGE"
	eval "release_${1%.*}_${1#*.}=\$KERNEL_RELEASE kdir_${1%.*}_${1#*.}=\$KDIR"
	eval "mods_${1%.*}_${1#*.}=\$MODS"
}

rt_build() {
	select_kernel 6.1-rt
	RT_MODS=$(build_modules) || return 1
	RT_IMAGE=$KERNEL_IMAGE RT_RELEASE=$KERNEL_RELEASE
}

use_kernel() {	# series
	eval "KERNEL_IMAGE=\$image_${1%.*}_${1#*.}"
	eval "KERNEL_RELEASE=\$release_${1%.*}_${1#*.} KDIR=\$kdir_${1%.*}_${1#*.}"
	eval "MODS=\$mods_${1%.*}_${1#*.}"
}
