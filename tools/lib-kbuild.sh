# SPDX-License-Identifier: GPL-2.0
#
# Kernel trees and the module's builds, for the host tools; sourced
# through bench_lib (tools/lib.sh), not run.  POSIX sh.  Owns: the
# kernel a command's KERNEL/KDIR name (select_kernel, prepare_tree for
# a tree of unstable's source), the project's files copied into a tree
# (copy_to_tree), the module built out of tree (build_modules), the
# module parameters a command passes (check_module_args), and the small
# kernels of make track and make check (kernel_source, tiny_config).
bench_lib debian

# Unpacks linux-source-SERIES into TREE and prepares it for module
# builds as KERNEL_RELEASE with the headers' config and Module.symvers.
prepare_tree() {	# tree series headers key
	u_tarball=$(ls "$dir/source/usr/src/linux-source-$2".tar.* 2>/dev/null |
		head -n 1)
	[ -n "$u_tarball" ] ||
		die "linux-source-$2 has no tarball in $dir/source/usr/src"
	cache_miss "preparing a $KERNEL_RELEASE tree for module builds in $1 (about 2 minutes)"
	rm -rf "$1"
	mkdir -p "$1" && tar -C "$1" -xf "$u_tarball" ||
		die "cannot unpack $u_tarball"
	u_log=$1/prepare.log
	{
		cp "$3/.config" "$KDIR/.config" &&
		make -C "$KDIR" olddefconfig &&
		make -C "$KDIR" -j"$(nproc)" KERNELRELEASE="$KERNEL_RELEASE" \
			modules_prepare &&
		cp "$3/Module.symvers" "$KDIR/Module.symvers"
	} >"$u_log" 2>&1 || {
		tail -n 20 "$u_log" >&2
		die "preparing $KDIR failed (log: $u_log)"
	}
	[ "$(cat "$KDIR/include/config/kernel.release")" = "$KERNEL_RELEASE" ] ||
		die "$KDIR was prepared as $(cat "$KDIR/include/config/kernel.release"), not $KERNEL_RELEASE"
	printf '%s' "$4" >"$1/.prepared"
}

# Sets KERNEL_IMAGE, KERNEL_RELEASE and KDIR from KERNEL: a Debian series
# or the path to a bzImage, then with KDIR naming its prepared tree.
# VARIABLE names them in messages (default: KERNEL and KDIR).
select_kernel() {	# kernel [variable]
	s_var=${2:-KERNEL}
	s_kdir=KDIR
	[ $# -ge 2 ] && s_kdir=${2}_KDIR
	case "$1" in
	6.12 | 6.1 | 6.1-rt)
		debian_kernel "$1" "$s_var"
		;;
	7.2 | newest)
		unstable_kernel "$1" "$s_var"
		;;
	*)
		[ -f "$1" ] || usage_die "$s_var=$1: no such kernel image; accepted: $KERNEL_CHOICES, or a path to a kernel image"
		uts=${KDIR:-}/include/generated/utsrelease.h
		[ -n "${KDIR:-}" ] && [ -f "$uts" ] ||
			usage_die "$s_var=$1 needs $s_kdir=<its prepared build tree>"
		KERNEL_IMAGE=$1
		KERNEL_RELEASE=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$uts")
		;;
	esac
}

# The project's files, one name a line: "module" (what a kernel tree
# needs to build the modules) or "kselftest" (that, and the kselftest).
# The Makefile holds the lists.
project_files() {	# module|kselftest
	make -s --no-print-directory -C "$BENCH_TOP" print-files FILES="$1"
}

# Copies the project's files of a list into DIR, leaving unchanged ones
# alone so that make rebuilds only what changed; C_LIST holds their
# names after it.
copy_files() {	# dir module|kselftest
	c_dir=$1
	C_LIST=$(project_files "$2") && [ -n "$C_LIST" ] ||
		die "cannot get the list of $2 files from $BENCH_TOP/Makefile"
	mkdir -p "$c_dir" || die "cannot create $c_dir"
	for c_f in $C_LIST; do
		cmp -s "$BENCH_TOP/$c_f" "$c_dir/$c_f" ||
			cp "$BENCH_TOP/$c_f" "$c_dir/$c_f" ||
			die "cannot copy $c_f to $c_dir"
	done
}

# Puts the project into a Linux source tree: the modules as
# lib/bench_page_pool, with the line lib/Kconfig.debug and the line
# lib/Makefile need (added once), and the kselftest as
# tools/testing/selftests/net/bench_page_pool.
copy_to_tree() {	# tree
	[ -f "$1/lib/Kconfig.debug" ] && [ -f "$1/lib/Makefile" ] &&
		[ -d "$1/tools/testing/selftests/net" ] ||
		die "$1: not a Linux source tree (no lib/Kconfig.debug, lib/Makefile or tools/testing/selftests/net)"
	copy_files "$1/lib/bench_page_pool" module
	grep -qF 'source "lib/bench_page_pool/Kconfig"' "$1/lib/Kconfig.debug" ||
		echo 'source "lib/bench_page_pool/Kconfig"' >>"$1/lib/Kconfig.debug" ||
		die "cannot extend $1/lib/Kconfig.debug"
	grep -qF 'obj-$(CONFIG_BENCH_PAGE_POOL_SIMPLE) += bench_page_pool/' \
		"$1/lib/Makefile" ||
		echo 'obj-$(CONFIG_BENCH_PAGE_POOL_SIMPLE) += bench_page_pool/' \
			>>"$1/lib/Makefile" || die "cannot extend $1/lib/Makefile"
	copy_files "$1/tools/testing/selftests/net/bench_page_pool" kselftest
}

# kbuild takes a path (M=, a kernel tree) only as one word without ':'
# or '%'.
kbuild_path() {	# path
	case $1 in
	*[[:space:]:%]*) return 1 ;;
	esac
}

# Where the modules of a build (a kernel release, a side of make ab) are
# built: build/NAME of the checkout, or, when kbuild cannot take the
# checkout's path, a folder of the cache named after it.
module_build_dir() {	# name
	if kbuild_path "$BENCH_TOP"; then
		printf '%s\n' "$BENCH_TOP/build/$1"
		return
	fi
	kbuild_path "$BENCH_CACHE" ||
		die "kbuild cannot build in $BENCH_TOP nor in BENCH_CACHE=$BENCH_CACHE (spaces, ':' or '%'); set BENCH_CACHE to a path without them"
	printf '%s\n' "$BENCH_CACHE/build/$(printf '%s' "$BENCH_TOP" | md5sum | cut -c1-12)/$1"
}

# Builds the modules for KDIR in a build directory of their own (the
# first argument, default: that of the kernel release), so that builds
# for several kernels do not overwrite each other.  Prints the directory.
build_modules() {
	out=${1:-$(module_build_dir "$KERNEL_RELEASE")} || exit 1
	kbuild_path "$KDIR" ||
		die "KDIR=$KDIR: kbuild cannot use a kernel tree whose path has spaces, ':' or '%'"
	mkdir -p "$out" || die "cannot create $out"
	# One build at a time in a folder: make check runs commands side
	# by side, and so may a user.
	(
		flock 9 || exit 1
		copy_files "$out" module
		# a folder of an older checkout may hold modules of other
		# names (guests take every .ko) and files of other names
		rm -f "$out/time_bench.ko" "$out/bench_page_pool_simple.ko" \
			"$out/bench_page_pool_tests.c" "$out/time_bench_core.c"
		b_key=$(build_key "$out" "$C_LIST")
		if [ -f "$out/bench_page_pool.ko" ] &&
		   [ "$(cat "$out/.bench-built" 2>/dev/null)" = "$b_key" ]; then
			exit 0
		fi
		rm -f "$out/.bench-built"
		make -s -C "$out" -j"$(nproc)" KDIR="$KDIR" modules >&2 &&
			printf '%s\n' "$b_key" >"$out/.bench-built"
	) 9>"$out/.lock" || die "module build against $KDIR failed"
	printf '%s\n' "$out"
}

# What a module build in DIR depends on, hashed: the module's files
# there, the kernel tree's build state (its configuration, which names
# its compiler, its symbols and release, which a rebuild of the tree
# rewrites) and kbuild's variables a user may give (make run W=1), as
# kbuild itself would see a change.  kbuild's own look at an unchanged
# build costs 2.4 s of CPU (its Makefiles and a few dozen compiler
# probes); make check asks for the same builds some seventy times.
build_key() {	# dir "file..."
	{
		printf '%s\n' "$KDIR" "${KCFLAGS:-}" "${KCPPFLAGS:-}" \
			"${LLVM:-}" "${CC:-}"
		# make's command-line variables, which reach kbuild; not
		# make run's own (ARGS, KERNEL, ...)
		printf '%s\n' "${MAKEFLAGS:-}" | tr ' ' '\n' |
			grep -E '^(W|C|CC|LLVM|KCFLAGS|KCPPFLAGS|KBUILD_[A-Z_]+)='
		for b_f in $2; do
			printf '%s\n' "$b_f"
			cat "$1/$b_f" 2>&1
		done
		for b_f in .config Module.symvers Makefile \
			   include/generated/utsrelease.h \
			   include/generated/autoconf.h; do
			printf '%s %s\n' "$b_f" \
				"$(stat -L -c '%s %Y' "$KDIR/$b_f" 2>&1)"
		done
	} | md5sum | cut -c1-32
}

# Fails unless every word of ARGS-like STRING is NAME=VALUE with NAME a
# parameter of the module built in MODDIR; VAR names the variable the
# string came from.  Words are split, never globbed (tests=napi_*).
check_module_args() {	# VAR MODDIR STRING
	params=$(modinfo -F parm "$2/bench_page_pool.ko" |
		 sed -n 's/^\([a-z_0-9]*\):.*/\1/p' | tr '\n' ' ')
	set -f
	for arg in $3; do
		case " $params" in
		*" ${arg%%=*} "*)
			case $arg in
			*=?*) continue ;;
			esac
			;;
		esac
		set +f
		usage_die "$1: '$arg' is not a module parameter setting; accepted: NAME=VALUE with NAME one of: $params(see modinfo bench_page_pool)"
	done
	set +f
}

# The words of an ARGS-like string, each quoted for sh, with a space
# before each: module parameters reach a payload as data.
quote_words() {	# string
	set -f
	for q_w in $1; do
		printf ' %s' "$(sh_quote "$q_w")"
	done
	set +f
}

# Unpacks Debian's linux-source-6.12 once; prints the tree's path.  It
# gives checkpatch.pl and the debug kernel's sources.
kernel_source() {
	need_packages linux-source-6.12 xz-utils
	src=$BENCH_CACHE/src
	tree=$src/linux-source-6.12
	tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)
	[ -n "$tarball" ] || die "linux-source-6.12 has no tarball in /usr/src"
	if [ ! -f "$tree/.unpacked" ] || [ "$tarball" -nt "$tree/.unpacked" ]; then
		cache_miss "unpacking $tarball"
		rm -rf "$tree" && mkdir -p "$src" &&
			tar -C "$src" -xf "$tarball" ||
			die "cannot unpack $tarball"
		touch "$tree/.unpacked"
	fi
	printf '%s\n' "$tree"
}

# Configures a small kernel in OUT from the source SRC: make tinyconfig,
# then FRAGMENT merged in.  Every option the fragment sets must survive
# olddefconfig: tiny_config dies otherwise, naming those lost;
# tiny_config_try returns 1 with the reason in TINY_WHY (and the log).
tiny_config_try() {	# src out fragment log
	TINY_WHY=
	{
		make -C "$1" O="$2" tinyconfig &&
		"$1/scripts/kconfig/merge_config.sh" -m -O "$2" \
			"$2/.config" "$3" &&
		make -C "$1" O="$2" olddefconfig
	} >"$4" 2>&1 || { TINY_WHY="configuring failed (log: $4)"; return 1; }
	t_lost=$(grep -E '^(CONFIG_[A-Z0-9_]+=.*|# CONFIG_[A-Z0-9_]+ is not set)$' \
		  "$3" | while read -r line; do
			grep -qxF "$line" "$2/.config" || printf '%s\n' "$line"
		  done)
	[ -z "$t_lost" ] && return 0
	TINY_WHY="$(basename "$3") options lost by olddefconfig: $(printf '%s' "$t_lost" | tr '\n' ' ')"
	printf '%s\n' "$TINY_WHY" >>"$4"
	return 1
}

tiny_config() {	# src out fragment log
	tiny_config_try "$@" && return 0
	tail -n 30 "$4" >&2
	die "$TINY_WHY"
}
