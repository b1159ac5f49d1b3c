# SPDX-License-Identifier: GPL-2.0
# Shared helpers of the host tools; sourced, not run.  POSIX sh.

BENCH_TOP=$(cd "$(dirname "$0")/.." && pwd)
# As README.rst says: root caches in /var/cache, every other user in
# ~/.cache; BENCH_CACHE overrides both.
if [ -z "${BENCH_CACHE:-}" ]; then
	if [ "$(id -u)" = 0 ]; then
		BENCH_CACHE=/var/cache/bench_page_pool
	else
		BENCH_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/bench_page_pool
	fi
fi
nl='
'

say() {
	printf '%s\n' "$*" >&2
}

die() {
	say "error: $*"
	exit 1
}

# Installs the Debian packages named that are not installed yet.
need_packages() {
	missing=
	for pkg in "$@"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
			grep -q 'ok installed' || missing="$missing $pkg"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] ||
		die "missing Debian packages; as root, run:
  apt-get install --no-install-recommends$missing"
	say "installing:$missing"
	if [ ! -f "$BENCH_CACHE/.apt-updated" ] ||
	   [ -n "$(find "$BENCH_CACHE/.apt-updated" -mmin +720)" ]; then
		apt-get update -q >&2 || die "apt-get update failed"
		mkdir -p "$BENCH_CACHE" && touch "$BENCH_CACHE/.apt-updated"
	fi
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $missing >&2 ||
		die "apt-get install$missing failed"
}

# Debian meta package of a kernel series, for "image" or "headers".
kernel_meta_package() {
	case "$1" in
	6.12) echo "linux-$2-6.12-amd64" ;;
	6.1) echo "linux-$2-amd64" ;;
	*) die "KERNEL=$1: accepted: 6.12, 6.1, or a path to a kernel image" ;;
	esac
}

# The versioned kernel package a meta package depends on, if apt knows.
meta_dependency() {
	apt-cache depends "$1" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-[a-z]*-[0-9].*\)$/\1/p' | head -n 1
}

# The versioned package a meta package currently depends on.
resolve_meta() {
	pkg=$(meta_dependency "$1")
	if [ -z "$pkg" ]; then
		apt-get update -q >&2
		pkg=$(meta_dependency "$1")
	fi
	[ -n "$pkg" ] || die "cannot resolve Debian package $1"
	echo "$pkg"
}

# The candidate version apt would fetch of a package.
package_version() {
	apt-cache show --no-all-versions "$1" 2>/dev/null |
		sed -n 's/^Version: //p' | head -n 1
}

# Unpacks the packages named (not their dependencies) into DIR, once per
# version: DIR/.unpacked lists what it holds.
unpack_packages() {	# dir package...
	u_dir=$1
	shift
	u_want=
	for u_pkg in "$@"; do
		u_want="$u_want${u_want:+ }$u_pkg=$(package_version "$u_pkg")"
	done
	[ -f "$u_dir/.unpacked" ] &&
		[ "$(cat "$u_dir/.unpacked")" = "$u_want" ] && return 0
	say "fetching and unpacking into $u_dir:$(printf ' %s' "$@")"
	rm -rf "$u_dir"
	mkdir -p "$u_dir"
	u_tmp=$(mktemp -d) || die "mktemp failed"
	# As root, apt downloads as _apt, who cannot write to a private
	# folder: download as root there instead.
	u_sandbox=
	[ "$(id -u)" = 0 ] && u_sandbox="-o APT::Sandbox::User=root"
	# shellcheck disable=SC2086
	(cd "$u_tmp" && apt-get download -q $u_sandbox "$@" >&2) ||
		die "apt-get download$(printf ' %s' "$@") failed"
	for u_deb in "$u_tmp"/*.deb; do
		dpkg-deb -x "$u_deb" "$u_dir" || die "cannot unpack $u_deb"
	done
	rm -rf "$u_tmp"
	printf '%s' "$u_want" >"$u_dir/.unpacked"
}

# The Depends of a package, alternatives included, one name a line.
package_depends() {
	apt-cache depends "$1" 2>/dev/null |
		sed -n 's/^ *|\{0,1\}Depends: \([^<>]*\)$/\1/p'
}

# Sets KERNEL_IMAGE, KERNEL_RELEASE and KDIR for a Debian series (6.12,
# 6.1).  The image and the header tree are unpacked into the cache, never
# installed: Debian's 6.12 headers depend on their image, and installing
# that would put a kernel into the host's /boot.  What the headers need
# to build with (compiler, pahole, libraries) is installed.
debian_kernel() {
	image_pkg=$(resolve_meta "$(kernel_meta_package "$1" image)")
	headers_pkg=$(resolve_meta "$(kernel_meta_package "$1" headers)")
	KERNEL_RELEASE=${image_pkg#linux-image-}
	dir=$BENCH_CACHE/kernels/$KERNEL_RELEASE

	tree=$headers_pkg queue=$headers_pkg tools=
	while [ -n "$queue" ]; do
		set -- $queue
		queue=
		for pkg in "$@"; do
			for dep in $(package_depends "$pkg"); do
				case $dep in
				linux-image-* | linux-base) ;;
				linux-headers-* | linux-kbuild-*)
					case " $tree " in
					*" $dep "*) ;;
					*) tree="$tree $dep" queue="$queue $dep" ;;
					esac
					;;
				*) tools="$tools $dep" ;;
				esac
			done
		done
	done
	# shellcheck disable=SC2086
	need_packages $tools
	# shellcheck disable=SC2086
	unpack_packages "$dir/headers" $tree
	KDIR=$dir/headers/usr/src/linux-headers-$KERNEL_RELEASE
	# The arch part includes the common part by its installed path.
	sed -i "s|^include /usr/src/|include $dir/headers/usr/src/|" \
		"$KDIR/Makefile"
	[ -f "$KDIR/include/generated/utsrelease.h" ] ||
		die "$headers_pkg has no usable tree in $KDIR"

	unpack_packages "$dir/image" "$image_pkg"
	KERNEL_IMAGE=$dir/image/boot/vmlinuz-$KERNEL_RELEASE
	[ -f "$KERNEL_IMAGE" ] || die "$image_pkg has no $KERNEL_IMAGE"
}

# Sets KERNEL_IMAGE, KERNEL_RELEASE and KDIR from KERNEL: a Debian series
# or the path to a bzImage, then with KDIR naming its prepared tree.
select_kernel() {
	case "$1" in
	6.12 | 6.1)
		debian_kernel "$1"
		;;
	*)
		[ -f "$1" ] || die "KERNEL=$1: no such kernel image; accepted: 6.12, 6.1, or a path to a kernel image"
		uts=${KDIR:-}/include/generated/utsrelease.h
		[ -n "${KDIR:-}" ] && [ -f "$uts" ] ||
			die "KERNEL=$1 needs KDIR=<its prepared build tree>"
		KERNEL_IMAGE=$1
		KERNEL_RELEASE=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$uts")
		;;
	esac
}

# What a kernel tree needs of the project: to build the modules (in tree
# or not), and to run them as a kselftest.
BENCH_MODULE_FILES="Makefile Kconfig time_bench.c time_bench.h
	bench_page_pool_simple.c bench_page_pool_compat.h"
BENCH_KSELFTEST_FILES="$BENCH_MODULE_FILES test_bench_page_pool.sh
	ktap_lib.sh config settings splat_patterns"

# Copies project files into DIR, leaving unchanged ones alone so that
# make rebuilds only what changed.
copy_files() {	# dir file...
	c_dir=$1
	shift
	mkdir -p "$c_dir" || die "cannot create $c_dir"
	for c_f in "$@"; do
		cmp -s "$BENCH_TOP/$c_f" "$c_dir/$c_f" ||
			cp "$BENCH_TOP/$c_f" "$c_dir/$c_f" ||
			die "cannot copy $c_f to $c_dir"
	done
}

# Builds the modules for KDIR in a build directory of their own (the
# first argument, default build/RELEASE), so that builds for several
# kernels do not overwrite each other.  Prints the directory.
build_modules() {
	out=${1:-$BENCH_TOP/build/$KERNEL_RELEASE}
	# shellcheck disable=SC2086
	copy_files "$out" $BENCH_MODULE_FILES
	make -s -C "$out" KDIR="$KDIR" modules >&2 ||
		die "module build against $KDIR failed"
	echo "$out"
}

# Fails unless every word is NAME=VALUE with NAME a parameter of the
# module built in MODDIR; VAR names the variable the words came from.
check_module_args() {	# VAR MODDIR words...
	var=$1
	params=$(modinfo -F parm "$2/bench_page_pool_simple.ko" |
		 sed -n 's/^\([a-z_0-9]*\):.*/\1/p' | tr '\n' ' ')
	shift 2
	for arg in "$@"; do
		case " $params" in
		*" ${arg%%=*} "*)
			case $arg in
			*=?*) continue ;;
			esac
			;;
		esac
		die "$var: '$arg' is not a module parameter setting; accepted: NAME=VALUE with NAME one of: $params(see modinfo bench_page_pool_simple)"
	done
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
		say "unpacking $tarball"
		rm -rf "$tree" && mkdir -p "$src" &&
			tar -C "$src" -xf "$tarball" ||
			die "cannot unpack $tarball"
		touch "$tree/.unpacked"
	fi
	echo "$tree"
}

# ab_order N: the side of each of 2N guests, one per line.  Blocks of
# "before after after before" put both sides at the same mean position,
# so a linear drift of the host cannot favour one; a last half block,
# when N is odd, leaves one guest's worth of imbalance.
ab_order() {
	i=0
	while [ $i -lt "$1" ]; do
		if [ $((i % 2)) = 0 ]; then
			printf 'before\nafter\n'
		else
			printf 'after\nbefore\n'
		fi
		i=$((i + 1))
	done
}
