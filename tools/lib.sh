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

# Whatever ends a script, it leaves no child and no temporary path
# behind: the EXIT trap cleans up after a normal end, and since dash runs
# no EXIT trap on a signal, each signal has a trap of its own.  A long
# child runs through run_child, in the background and waited for: a trap
# runs only once the foreground command ends, but it interrupts a wait.
bench_child=
bench_temps=

bench_cleanup() {
	if [ -n "$bench_child" ]; then
		kill -TERM "$bench_child" 2>/dev/null
		wait "$bench_child" 2>/dev/null
		bench_child=
	fi
	IFS=$nl
	for b_tmp in $bench_temps; do
		rm -rf "$b_tmp"
	done
	unset IFS
	bench_temps=
}

bench_signal() {	# exit-status
	trap '' HUP INT TERM
	bench_cleanup
	trap - EXIT
	exit "$1"
}

trap bench_cleanup EXIT
trap 'bench_signal 129' HUP
trap 'bench_signal 130' INT
trap 'bench_signal 143' TERM

# Runs a command as the script's child: the traps above stop it (SIGTERM)
# and wait for it.  Returns its exit status.
run_child() {	# command...
	"$@" &
	bench_child=$!
	wait "$bench_child"
	r_rc=$?
	bench_child=
	return $r_rc
}

# Creates a temporary folder, removed when the script ends, and stores
# its path in the variable named.
temp_dir() {	# variable
	t_dir=$(mktemp -d "${TMPDIR:-/tmp}/bench_page_pool.XXXXXX") ||
		die "cannot create a temporary folder in ${TMPDIR:-/tmp}"
	bench_temps="$bench_temps$t_dir$nl"
	eval "$1=\$t_dir"
}

# Quotes a word for sh: what it says reaches a payload as data, never as
# code.
sh_quote() {	# word
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
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
	temp_dir u_tmp
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

# The project's files, one name a line: "module" (what a kernel tree
# needs to build the modules) or "kselftest" (that, and the kselftest).
# The Makefile holds the lists.
project_files() {	# module|kselftest
	make -s --no-print-directory -C "$BENCH_TOP" print-files FILES="$1"
}

# Copies the project's files of a list into DIR, leaving unchanged ones
# alone so that make rebuilds only what changed.
copy_files() {	# dir module|kselftest
	c_dir=$1
	c_list=$(project_files "$2") && [ -n "$c_list" ] ||
		die "cannot get the list of $2 files from $BENCH_TOP/Makefile"
	mkdir -p "$c_dir" || die "cannot create $c_dir"
	for c_f in $c_list; do
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
		echo "$BENCH_TOP/build/$1"
		return
	fi
	kbuild_path "$BENCH_CACHE" ||
		die "kbuild cannot build in $BENCH_TOP nor in BENCH_CACHE=$BENCH_CACHE (spaces, ':' or '%'); set BENCH_CACHE to a path without them"
	echo "$BENCH_CACHE/build/$(printf '%s' "$BENCH_TOP" | md5sum | cut -c1-12)/$1"
}

# Builds the modules for KDIR in a build directory of their own (the
# first argument, default: that of the kernel release), so that builds
# for several kernels do not overwrite each other.  Prints the directory.
build_modules() {
	out=${1:-$(module_build_dir "$KERNEL_RELEASE")} || exit 1
	kbuild_path "$KDIR" ||
		die "KDIR=$KDIR: kbuild cannot use a kernel tree whose path has spaces, ':' or '%'"
	copy_files "$out" module
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
