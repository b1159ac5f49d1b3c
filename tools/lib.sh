# SPDX-License-Identifier: GPL-2.0
# Shared helpers of the host tools; sourced, not run.  POSIX sh.

BENCH_TOP=$(cd "$(dirname "$0")/.." && pwd)
BENCH_CACHE=${BENCH_CACHE:-/var/cache/bench_page_pool}

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
	[ "$(id -u)" = 0 ] || die "need root to install:$missing"
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

# Sets KERNEL_IMAGE, KERNEL_RELEASE and KDIR for a Debian series (6.12,
# 6.1): headers installed with apt, the image unpacked into the cache.
debian_kernel() {
	image_pkg=$(resolve_meta "$(kernel_meta_package "$1" image)")
	headers_pkg=$(resolve_meta "$(kernel_meta_package "$1" headers)")
	KERNEL_RELEASE=${image_pkg#linux-image-}
	need_packages "$headers_pkg"
	KDIR=/usr/src/linux-headers-$KERNEL_RELEASE
	dir=$BENCH_CACHE/kernels/$KERNEL_RELEASE
	KERNEL_IMAGE=$dir/boot/vmlinuz-$KERNEL_RELEASE
	if [ ! -f "$KERNEL_IMAGE" ]; then
		say "fetching $image_pkg"
		tmp=$(mktemp -d) && chmod 755 "$tmp"
		(cd "$tmp" && apt-get download -q "$image_pkg" >&2) ||
			die "apt-get download $image_pkg failed"
		mkdir -p "$dir"
		dpkg-deb -x "$tmp"/*.deb "$dir" || die "cannot unpack $image_pkg"
		rm -rf "$tmp"
	fi
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

# Builds the modules for KDIR in a build directory of their own, so that
# builds for several kernels do not overwrite each other.  Extra make
# arguments follow.  Prints the directory.
build_modules() {
	out=$BENCH_TOP/build/$KERNEL_RELEASE
	mkdir -p "$out"
	for f in Makefile Kconfig time_bench.c time_bench.h \
		 bench_page_pool_simple.c bench_page_pool_compat.h; do
		cmp -s "$BENCH_TOP/$f" "$out/$f" || cp "$BENCH_TOP/$f" "$out/$f"
	done
	make -s -C "$out" KDIR="$KDIR" "$@" modules >&2 ||
		die "module build against $KDIR failed"
	echo "$out"
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
