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
# the tools change folder (git bisect run, kbuild): one path for all
case $BENCH_CACHE in
/*) ;;
*) BENCH_CACHE=$PWD/$BENCH_CACHE ;;
esac
nl='
'
# bench-compare, the strict reader of results files: results_check and
# results_check_load (results_lib.sh) read through it.
BENCH_COMPARE=$BENCH_TOP/tools/compare/bench-compare
export BENCH_COMPARE

# A cache miss: says what is being made, and notes it for make check's
# table of where its time went (in the file BENCH_BUILT, when set).
cache_miss() {	# what
	say "$*"
	[ -z "${BENCH_BUILT:-}" ] || printf '%s\n' "$*" >>"$BENCH_BUILT"
}

say() {
	printf '%s\n' "$*" >&2
}

die() {
	say "error: $*"
	exit 1
}

# Builds bench-compare when it is missing or stale.
need_bench_compare() {
	make -s -C "$BENCH_TOP/tools/compare" bench-compare >&2 ||
		die "cannot build bench-compare (tools/compare)"
}

# A bad variable or option: one line saying what is accepted, exit 2.
usage_die() {
	say "error: $*"
	exit 2
}

# Whatever ends a script, it leaves no child and no temporary path
# behind: the EXIT trap cleans up after a normal end, and since dash runs
# no EXIT trap on a signal, each signal has a trap of its own.  A long
# child runs through run_child, in the background and waited for: a trap
# runs only once the foreground command ends, but it interrupts a wait.
# bench_lanes: children that run beside the script (make check's lanes).
bench_child=
bench_lanes=
bench_temps=

bench_cleanup() {
	for b_pid in $bench_child $bench_lanes; do
		kill -TERM "$b_pid" 2>/dev/null
		wait "$b_pid" 2>/dev/null
	done
	bench_child=
	bench_lanes=
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

# Runs tools/guest.sh as the script's child.
# BENCH_GUEST_RUNNER may name another runner taking the same options:
# make check puts one there that injects a failure, or records a boot.
run_guest() {	# guest.sh option...
	run_child sh "${BENCH_GUEST_RUNNER:-$BENCH_TOP/tools/guest.sh}" "$@"
}

# Creates a temporary folder, removed when the script ends, and stores
# its path in the variable named.
temp_dir() {	# variable
	# The list of what to remove is one path a line: a path with a
	# newline would be cut in two, and the wrong folder removed.
	case ${TMPDIR:-/tmp} in
	*"$nl"*) die "TMPDIR holds a newline: give a folder whose path has none" ;;
	esac
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

# The kernels KERNEL (and BEFORE, AFTER) name: Debian 12's two series,
# and from Debian unstable "7.2" and "newest", whatever series its
# linux-image-amd64 depends on when fetched.
KERNEL_CHOICES="6.12, 6.1, 6.1-rt, 7.2, newest"

# Debian meta package of a kernel series, for "image" or "headers".
kernel_meta_package() {	# series image|headers [variable]
	case "$1" in
	6.12) printf '%s\n' "linux-$2-6.12-amd64" ;;
	6.1) printf '%s\n' "linux-$2-amd64" ;;
	6.1-rt) printf '%s\n' "linux-$2-rt-amd64" ;;
	*) usage_die "${3:-KERNEL}=$1: accepted: $KERNEL_CHOICES, or a path to a kernel image" ;;
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
	printf '%s\n' "$pkg"
}

# The candidate version apt would fetch of a package.
package_version() {
	${APT_TOOL:-} apt-cache show --no-all-versions "$1" 2>/dev/null |
		sed -n 's/^Version: //p' | head -n 1
}

# Unpacks the packages named (not their dependencies) into DIR, once per
# version: DIR/.unpacked lists what it holds.  APT_TOOL=unstable_apt
# fetches from Debian unstable.
unpack_packages() {	# dir package...
	u_dir=$1
	shift
	u_want=
	for u_pkg in "$@"; do
		u_want="$u_want${u_want:+ }$u_pkg=$(package_version "$u_pkg")"
	done
	[ -f "$u_dir/.unpacked" ] &&
		[ "$(cat "$u_dir/.unpacked")" = "$u_want" ] && return 0
	cache_miss "fetching and unpacking into $u_dir:$(printf ' %s' "$@")"
	rm -rf "$u_dir"
	mkdir -p "$u_dir"
	temp_dir u_tmp
	# As root, apt downloads as _apt, who cannot write to a private
	# folder: download as root there instead.
	u_sandbox=
	[ "$(id -u)" = 0 ] && u_sandbox="-o APT::Sandbox::User=root"
	# shellcheck disable=SC2086
	(cd "$u_tmp" && ${APT_TOOL:-} apt-get download -q $u_sandbox "$@" >&2) ||
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
debian_kernel() {	# series variable
	kernel_meta_package "$1" image "$2" >/dev/null
	# apt-cache takes seconds a call, a dozen calls here: what they
	# said is kept until apt's package lists change.
	memo=$BENCH_CACHE/kernels/$1.resolved
	stamp=$(ls -lL --time-style=+%s /var/lib/apt/lists 2>/dev/null | md5sum)
	if [ -f "$memo" ] && [ "$(sed -n 1p "$memo")" = "$stamp" ]; then
		KERNEL_RELEASE=$(sed -n 2p "$memo")
		tools=$(sed -n 3p "$memo")
		dir=$BENCH_CACHE/kernels/$KERNEL_RELEASE
		KDIR=$dir/headers/usr/src/linux-headers-$KERNEL_RELEASE
		KERNEL_IMAGE=$dir/image/boot/vmlinuz-$KERNEL_RELEASE
		if [ "$(sed -n 4p "$memo")" = "$(cat "$dir/headers/.unpacked" 2>/dev/null)" ] &&
		   [ "$(sed -n 5p "$memo")" = "$(cat "$dir/image/.unpacked" 2>/dev/null)" ] &&
		   [ -f "$KDIR/include/generated/utsrelease.h" ] &&
		   [ -f "$KERNEL_IMAGE" ]; then
			# shellcheck disable=SC2086
			need_packages $tools
			return 0
		fi
	fi
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
	printf '%s\n' "$stamp" "$KERNEL_RELEASE" "$tools" \
		"$(cat "$dir/headers/.unpacked")" "$(cat "$dir/image/.unpacked")" \
		>"$memo.tmp" && mv "$memo.tmp" "$memo"
}

# Debian unstable, read through an apt list of the project's own in the
# cache: the host's sources, lists and packages are never touched.  Its
# mirror is the one the host's apt uses for Debian.
UNSTABLE_APT=$BENCH_CACHE/apt-unstable

unstable_apt() {	# apt-get|apt-cache argument...
	u_tool=$1
	shift
	"$u_tool" -o Dir::Etc::SourceList="$UNSTABLE_APT/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$UNSTABLE_APT/lists" \
		-o Dir::Cache="$UNSTABLE_APT/cache" "$@"
}

# Fetches unstable's package lists when they are missing or older than
# 12 hours.
unstable_update() {
	[ -f "$UNSTABLE_APT/.updated" ] &&
		[ -z "$(find "$UNSTABLE_APT/.updated" -mmin +720)" ] && return 0
	mirror=$(apt-cache policy 2>/dev/null | awk '
		$2 ~ /^https?:\/\// && $2 !~ /security/ && $3 ~ /\/main$/ {
			print $2
			exit
		}')
	[ -n "$mirror" ] ||
		die "Debian unstable: the host's apt names no Debian mirror to fetch it from (apt-cache policy)"
	mkdir -p "$UNSTABLE_APT/lists/partial" \
		"$UNSTABLE_APT/cache/archives/partial" ||
		die "cannot create $UNSTABLE_APT"
	printf 'deb %s unstable main\n' "$mirror" >"$UNSTABLE_APT/sources.list"
	cache_miss "fetching Debian unstable's package lists into $UNSTABLE_APT"
	unstable_apt apt-get update -q >&2 ||
		die "Debian unstable: apt-get update of $UNSTABLE_APT failed"
	touch "$UNSTABLE_APT/.updated"
}

# The kernel release of unstable's image for "newest" or a series such
# as "7.2", e.g. 7.2.13+deb14-amd64.
unstable_release() {	# newest|series variable
	if [ "$1" = newest ]; then
		u_rel=$(unstable_apt apt-cache depends linux-image-amd64 2>/dev/null |
			sed -n 's/^ *Depends: linux-image-\([0-9].*-amd64\)$/\1/p' |
			head -n 1)
	else
		u_rel=$(unstable_apt apt-cache pkgnames "linux-binary-$1." 2>/dev/null |
			grep -E "^linux-binary-$(printf '%s' "$1" | sed 's/\./\\./g')\.[0-9]+\+[a-z0-9.]+-amd64\$" |
			sed 's/^linux-binary-//' | sort -V | tail -n 1)
	fi
	[ -n "$u_rel" ] ||
		die "$2=$1: Debian unstable has no such kernel now (its linux-image-amd64 and linux-binary-* packages name none)"
	printf '%s\n' "$u_rel"
}

# Sets KERNEL_IMAGE, KERNEL_RELEASE and KDIR for a kernel of Debian
# unstable.  Its kbuild programs need a newer C library than Debian
# 12's, so the modules are built against a tree prepared here from its
# linux-source: Debian's config (from the headers package), olddefconfig
# with this machine's compiler, modules_prepare as that exact release,
# and the headers' Module.symvers.  Cached, keyed by the packages'
# versions and the compiler; the image comes from linux-binary-*.
unstable_kernel() {	# newest|series variable
	need_packages make gcc libc6-dev flex bison bc libelf-dev libssl-dev \
		xz-utils
	unstable_update
	# apt-cache takes seconds a call: what it said is kept until the
	# lists change.
	u_memo=$BENCH_CACHE/kernels/unstable-$1.resolved
	u_stamp=$({ ls -lL --time-style=+%s "$UNSTABLE_APT/lists"
		gcc --version | head -n 1; } | md5sum)
	if [ -f "$u_memo" ] && [ "$(sed -n 1p "$u_memo")" = "$u_stamp" ]; then
		KERNEL_RELEASE=$(sed -n 2p "$u_memo")
		dir=$BENCH_CACHE/kernels/$KERNEL_RELEASE
		KERNEL_IMAGE=$dir/image/usr/lib/modules/$KERNEL_RELEASE/vmlinuz
		KDIR=$(sed -n 3p "$u_memo")
		[ "$(sed -n 4p "$u_memo")" = "$(cat "$dir/tree/.prepared" 2>/dev/null)" ] &&
			[ -f "$KERNEL_IMAGE" ] && [ -f "$KDIR/Module.symvers" ] &&
			return 0
	fi
	KERNEL_RELEASE=$(unstable_release "$1" "$2") || exit 1
	u_series=$(printf '%s' "$KERNEL_RELEASE" | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
	dir=$BENCH_CACHE/kernels/$KERNEL_RELEASE
	APT_TOOL=unstable_apt
	unpack_packages "$dir/image" "linux-binary-$KERNEL_RELEASE"
	unpack_packages "$dir/headers" "linux-headers-$KERNEL_RELEASE"
	unpack_packages "$dir/source" "linux-source-$u_series"
	APT_TOOL=
	KERNEL_IMAGE=$dir/image/usr/lib/modules/$KERNEL_RELEASE/vmlinuz
	[ -f "$KERNEL_IMAGE" ] ||
		die "linux-binary-$KERNEL_RELEASE has no $KERNEL_IMAGE"
	u_headers=$dir/headers/usr/src/linux-headers-$KERNEL_RELEASE
	KDIR=$dir/tree/linux-source-$u_series
	u_key=$(cat "$dir/headers/.unpacked" "$dir/source/.unpacked"
		gcc --version | head -n 1)
	if [ ! -f "$dir/tree/.prepared" ] ||
	   [ "$(cat "$dir/tree/.prepared")" != "$u_key" ] ||
	   [ ! -f "$KDIR/Module.symvers" ]; then
		prepare_tree "$dir/tree" "$u_series" "$u_headers" "$u_key"
	fi
	printf '%s\n' "$u_stamp" "$KERNEL_RELEASE" "$KDIR" "$u_key" \
		>"$u_memo.tmp" && mv "$u_memo.tmp" "$u_memo"
}

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
		make -s -C "$out" -j"$(nproc)" KDIR="$KDIR" modules >&2
	) 9>"$out/.lock" || die "module build against $KDIR failed"
	printf '%s\n' "$out"
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

# Checks of the variables a command takes, made before anything runs:
# one line naming the variable and what it accepts, exit 2.
check_whole() {	# variable value minimum
	case $2 in
	'' | *[!0-9]* | 0?*) ;;
	*) [ "$2" -ge "$3" ] && return 0 ;;
	esac
	usage_die "$1=$2: accepted: a whole number, $3 or more"
}

check_choice() {	# variable value choice...
	c_var=$1 c_val=$2
	shift 2
	for c_ok in "$@"; do
		[ "$c_val" = "$c_ok" ] && return 0
	done
	usage_die "$c_var=$c_val: accepted: $*"
}

# A QEMU CPU model, with or without ",feature" settings.
check_cpu_model() {	# variable value
	need_packages qemu-system-x86
	case ${2%%,*} in
	'' | *[!A-Za-z0-9._-]*) ;;
	*) qemu-system-x86_64 -cpu help |
		grep -q "^x86 \{1,\}${2%%,*}\( \|\$\)" && return 0 ;;
	esac
	usage_die "$1=$2: not a CPU model of qemu-system-x86_64 (see qemu-system-x86_64 -cpu help)"
}

# The instrument of a command's guests (doc/guests.rst).  ICOUNT=1
# counts instructions (QEMU -icount shift=0,sleep=off, TCG only);
# PROFILE=1 adds the exact profile (tools/profile, doc/profile.rst),
# which needs ICOUNT=1 (and sets it when unset).
# ACCEL=auto uses KVM when /dev/kvm can really run the guest, else TCG;
# ACCEL=kvm fails at once where KVM cannot; ACCEL=tcg emulates.
#
# check_instrument DEFAULT-ICOUNT: checks ACCEL and ICOUNT before
# anything runs (ICOUNT unset: DEFAULT-ICOUNT, but 0 with ACCEL=kvm).
check_instrument() {	# default-icount
	ACCEL=${ACCEL:-auto}
	check_choice ACCEL "$ACCEL" auto kvm tcg
	PROFILE=${PROFILE:-0}
	check_choice PROFILE "$PROFILE" 0 1
	PROFILE_ARGS=${PROFILE_ARGS:-}
	if [ -n "$PROFILE_ARGS" ]; then
		[ "$PROFILE" = 1 ] ||
			usage_die "PROFILE_ARGS=$PROFILE_ARGS sets the profile's caches: it needs PROFILE=1"
		case $PROFILE_ARGS in
		*[!A-Za-z0-9=:,]* | *out=* | ,* | *, | *,,*)
			usage_die "PROFILE_ARGS=$PROFILE_ARGS: expected KEY=VALUE[,KEY=VALUE...] of l1i=, l1d=, llc=SIZE:WAYS and line=BYTES (doc/profile.rst)" ;;
		esac
	fi
	if [ "$PROFILE" = 1 ]; then
		[ "${ICOUNT:-1}" = 1 ] ||
			usage_die "PROFILE=1 profiles a guest counting instructions: it needs ICOUNT=1 (ICOUNT=$ICOUNT given)"
		ICOUNT=1
	fi
	if [ -z "${ICOUNT:-}" ]; then
		ICOUNT=$1
		[ "$ACCEL" = kvm ] && ICOUNT=0
	fi
	check_choice ICOUNT "$ICOUNT" 0 1
	[ "$ICOUNT" = 1 ] && [ "$ACCEL" = kvm ] &&
		usage_die "ICOUNT=1 counts instructions under TCG: it cannot run with ACCEL=kvm (ICOUNT=0 for KVM)"
	if [ "$ACCEL" = kvm ] && ! kvm_device; then
		say "error: ACCEL=kvm: $kvm_why"
		exit 1
	fi
	[ -z "${CPU:-}" ] || check_cpu_model CPU "$CPU"
}

# Builds the profile plugin (tools/profile) against the installed QEMU's
# plugin header; prints the .so's path, in a folder kbuild-safe like the
# modules' (guest.sh takes no blank in it).
profile_plugin() {
	p_dir=$(module_build_dir profile) || exit 1
	mkdir -p "$p_dir" || die "cannot create $p_dir"
	make -s -C "$BENCH_TOP/tools/profile" >&2 ||
		die "cannot build the profile plugin (tools/profile)"
	# Replaced whole, never written over: a QEMU of another command
	# (make check runs them side by side) has the file mapped, and
	# dies of SIGBUS when it changes under it.
	p_so=$p_dir/bench_profile.so
	cmp -s "$BENCH_TOP/tools/profile/bench_profile.so" "$p_so" || {
		cp "$BENCH_TOP/tools/profile/bench_profile.so" "$p_so.$$" &&
			mv -f "$p_so.$$" "$p_so"
	} || die "cannot copy the profile plugin to $p_dir"
	profile_args_check "$p_so"
	printf '%s\n' "$p_so"
}

# PROFILE_ARGS as the plugin judges them, before any guest boots: QEMU
# loads it with them, and stops at once either way (there is no
# machine to run); the plugin says what it refuses in one line.
profile_args_check() {	# plugin.so
	[ -n "${PROFILE_ARGS:-}" ] || return 0
	p_said=$(qemu-system-x86_64 -M none -display none -nodefaults \
		-monitor none -serial none -kernel /nonexistent \
		-plugin "file=$1,out=/dev/null,$PROFILE_ARGS" 2>&1 </dev/null |
		sed -n 's/^bench_profile: //p' | head -n 1)
	[ -z "$p_said" ] || usage_die "PROFILE_ARGS: $p_said"
}

# Why KVM cannot run a guest, where the host says so plainly: each
# reason has one wording, whoever finds it (kvm_device, kvm_reason).
kvm_no_dev="no /dev/kvm on this host"
kvm_no_perm="/dev/kvm is there, but this user may not use it"
kvm_no_qemu="this qemu-system-x86_64 was built without KVM"
kvm_is_pvm="this /dev/kvm is PVM (kvm_pvm), which runs only PVM guest kernels"

# Whether this user can open /dev/kvm; kvm_why says why not.
kvm_device() {
	if [ ! -e /dev/kvm ]; then
		kvm_why=$kvm_no_dev
	elif [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		kvm_why=$kvm_no_perm
	else
		return 0
	fi
	return 1
}

# kvm_reason FILE STATUS: why the KVM probe's guest failed, in one
# line, from its stderr FILE (guest.sh's, or QEMU's alone) and guest.sh's
# exit STATUS.  QEMU's first error may come after guest.sh's lines and
# its own warnings.  An internal error's kind is taken from its number:
# the "emulation failure" line may come after the extra data lines that
# guest.sh's five cut off.  A plain reason comes first: one in QEMU's
# words (no /dev/kvm, no permission, no KVM in QEMU), else a PVM host,
# whose KVM cannot run Debian's kernels (BENCH_SYSFS, default /sys, lets
# the tests fake it).  Never empty; the text is printed, never
# interpreted.
kvm_reason() {	# file status
	kr_out=$(awk '
		{ sub(/\r$/, ""); gsub(/[[:cntrl:]]/, " "); l[++n] = $0 }
		/^guest FAILED: QEMU .* could not run it:$/ && !hdr { hdr = n }
		/^guest FAILED: / && fail == "" { fail = $0 }
		END {
			# QEMU speaks after the line of guest.sh saying it failed;
			# a file without guest.sh lines is all from QEMU.
			s = hdr ? hdr + 1 : (fail == "" ? 1 : n + 1)
			for (i = s; i <= n; i++) {
				if (l[i] ~ /^[ \t]*$/)
					continue
				if (l[i] ~ /^qemu-system[^ :]*: warning: /) {
					if (warn == "")
						warn = l[i]
					continue
				}
				line = l[i]
				break
			}
			if (line == "")
				line = warn
			if (line ~ /^KVM internal error/) {
				kind = ""
				if (match(line, /Suberror: [0-9]+/)) {
					# KVM_INTERNAL_ERROR_* of the uapi
					e = substr(line, RSTART + 10, RLENGTH - 10) + 0
					kind = e == 1 ? "emulation failure" : \
						e == 2 ? "simultaneous exceptions" : \
						e == 3 ? "exit while delivering an event" : \
						e == 4 ? "unexpected exit reason" : \
						"suberror " e
				} else {
					for (j = i + 1; j <= n; j++)
						if (l[j] == "emulation failure")
							kind = l[j]
				}
				line = "KVM internal error" (kind == "" ? "" : ", " kind)
			}
			if (line == "" && fail != "") {
				line = fail
				sub(/ \(console log: [^)]*\)/, "", line)
				sub(/; last .*:$/, "", line)
				sub(/:$/, "", line)
			}
			tag = "-"
			for (j = s; j <= n && tag == "-"; j++) {
				if (l[j] ~ /invalid accelerator kvm|[Aa]ccelerator .?kvm.? (not found|does not exist)|KVM not supported for this target/)
					tag = "qemu"
				else if (l[j] ~ /(Could not access KVM kernel module|failed to initialize kvm): No such file or directory/)
					tag = "dev"
				else if (l[j] ~ /(Could not access KVM kernel module|failed to initialize kvm): Permission denied/)
					tag = "perm"
			}
			print tag, line
		}' "$1" 2>/dev/null)
	kr_line=${kr_out#* }
	[ -n "$kr_line" ] ||
		kr_line="the probe's guest failed, and neither QEMU nor guest.sh said why (guest.sh exit $2)"
	case ${kr_out%% *} in
	qemu) kr_first=$kvm_no_qemu ;;
	dev) kr_first=$kvm_no_dev ;;
	perm) kr_first=$kvm_no_perm ;;
	*)
		kr_first=
		# the guest ran, under a KVM that cannot run it
		[ ! -d "${BENCH_SYSFS:-/sys}/module/kvm_pvm" ] || kr_first=$kvm_is_pvm ;;
	esac
	if [ -n "$kr_first" ]; then
		printf '%s; %s\n' "$kr_first" "$kr_line"
	else
		printf '%s\n' "$kr_line"
	fi
}

# Whether KVM can really run a guest of this kernel: a guest with an
# empty payload must start.  Here /dev/kvm exists, but QEMU fails
# ("failed to set MSR 0x10a"; elsewhere "KVM internal error", QEMU then
# paused).  The answer is kept per host boot, QEMU binary and image;
# kvm_why says why not (kvm_reason), or where the answer came from.
kvm_probe() {	# image release
	kvm_device || return 1
	k_qemu=$(command -v qemu-system-x86_64) || die "no qemu-system-x86_64"
	# "reason 2": answers worded before kvm_reason are asked again
	k_key=$(printf 'reason 2\n'
		cat /proc/sys/kernel/random/boot_id
		ls -lLn --time-style=+%s "$k_qemu" "$1")
	k_cache=$BENCH_CACHE/accel/$(printf '%s\n' "$k_key" | md5sum | cut -c1-32)
	k_how="answer cached for this boot in $k_cache"
	if [ ! -f "$k_cache" ]; then
		k_how="answer now cached for this boot in $k_cache"
		temp_dir k_dir
		printf 'true\n' >"$k_dir/probe.sh"
		k_t0=$(date +%s)
		run_child sh "$BENCH_TOP/tools/guest.sh" -A kvm -k "$1" -r "$2" \
			-p "$k_dir/probe.sh" -o "$k_dir/out" -t 120 \
			2>"$k_dir/err" >/dev/null
		k_rc=$?
		k_secs=$(($(date +%s) - k_t0))
		if [ $k_rc = 0 ]; then
			k_ans="kvm /dev/kvm ran a guest of this kernel (probe: ${k_secs}s)"
		elif [ $k_rc != 125 ]; then
			cat "$k_dir/err" >&2
			die "the KVM probe could not run (guest.sh exit $k_rc)"
		else
			k_msg=$(kvm_reason "$k_dir/err" $k_rc)
			k_ans="tcg KVM cannot run this guest: $k_msg (probe: ${k_secs}s)"
		fi
		mkdir -p "$BENCH_CACHE/accel" &&
			printf '%s\n' "$k_ans" >"$k_cache.tmp" &&
			mv "$k_cache.tmp" "$k_cache" ||
			die "cannot write $k_cache"
	fi
	k_ans=$(cat "$k_cache")
	kvm_why="${k_ans#* }; $k_how"
	[ "${k_ans%% *}" = kvm ]
}

# choose_accel IMAGE RELEASE [IMAGE RELEASE]...: after check_instrument,
# the accelerator all these guests run under (one instrument for all),
# said in one line.  Sets GUEST_ARGS, the guest.sh options to use.
choose_accel() {
	if [ "$ICOUNT" = 1 ]; then
		GUEST_ACCEL=tcg
		a_why="ICOUNT=1 counts instructions, which needs TCG"
	elif [ "$ACCEL" = tcg ]; then
		GUEST_ACCEL=tcg
		a_why="ACCEL=tcg"
	else
		GUEST_ACCEL=kvm
		while [ $# -ge 2 ]; do
			if ! kvm_probe "$1" "$2"; then
				GUEST_ACCEL=tcg
				break
			fi
			shift 2
		done
		a_why=$kvm_why
		if [ "$GUEST_ACCEL" = tcg ] && [ "$ACCEL" = kvm ]; then
			say "error: ACCEL=kvm: $kvm_why"
			exit 1
		fi
	fi
	GUEST_CPU=${CPU:-}
	[ -n "$GUEST_CPU" ] || { [ $GUEST_ACCEL = kvm ] && GUEST_CPU=host || GUEST_CPU=max; }
	GUEST_ARGS="-A $GUEST_ACCEL -c $GUEST_CPU"
	[ "$ICOUNT" = 1 ] && GUEST_ARGS="$GUEST_ARGS -i"
	if [ "$PROFILE" = 1 ]; then
		a_plugin=$(profile_plugin) || exit $?
		GUEST_ARGS="$GUEST_ARGS -P $a_plugin${PROFILE_ARGS:+,$PROFILE_ARGS}"
		a_why="$a_why; PROFILE=1: $a_plugin"
	fi
	a_clock=cycles
	[ "$ICOUNT" = 1 ] && a_clock=instructions
	say "accel: $GUEST_ACCEL, -cpu $GUEST_CPU, clock $a_clock: $a_why"
}

# The preamble of the commands that boot guests of the module (make run,
# perf, ab), one function a step, called in this order: guest_vars,
# guest_packages, guest_kernel (or select_kernel and choose_accel per
# kernel), guest_modules; then guest_boot for each guest, guest_failed
# for one that failed.  Every variable is thus checked before the first
# guest boots; a command's own checks go between the steps.

# What those commands need: the module's build, QEMU, the initramfs.
GUEST_PACKAGES="make gcc libc6-dev dwarves qemu-system-x86 busybox-static \
cpio gzip kmod"

# The variables every such command takes, with their defaults: ARGS,
# TIMEOUT, VCPUS and the instrument's (check_instrument).  Counting
# instructions, vCPUs run one at a time and each one's work counts into
# the other's tests: one vCPU (the cross-CPU test says it needs two and
# is skipped); timing cycles, two.
guest_vars() {	# default-icount
	ARGS=${ARGS:-}
	TIMEOUT=${TIMEOUT:-900}
	VCPUS=${VCPUS:-}
	[ -z "$VCPUS" ] || check_whole VCPUS "$VCPUS" 1
	check_whole TIMEOUT "$TIMEOUT" 1
	check_instrument "$1"
	[ -n "$VCPUS" ] || { [ "$ICOUNT" = 1 ] && VCPUS=1 || VCPUS=2; }
}

# A folder a command fills (OUT): new or empty, so that what it holds
# afterwards is this run's alone.
check_new_folder() {	# variable path
	[ ! -e "$2" ] || { [ -d "$2" ] && [ -z "$(ls -A "$2")" ]; } ||
		usage_die "$1=$2: not an empty folder"
}

guest_packages() {	# the command's own package...
	# shellcheck disable=SC2086 # a list of names
	need_packages $GUEST_PACKAGES "$@"
}

# The one kernel of make run or perf, KERNEL (default 6.12), and the
# accelerator of its guest.
guest_kernel() {
	KERNEL=${KERNEL:-6.12}
	select_kernel "$KERNEL"
	choose_accel "$KERNEL_IMAGE" "$KERNEL_RELEASE"
}

# Builds the modules for KDIR into DIR (empty: the kernel release's
# folder), sets GUEST_MODS to it, and checks each STRING of module
# parameters against them, VAR naming it.  Called as it is, never in a
# $(...): a refused parameter exits 2.
guest_modules() {	# dir [var string]...
	GUEST_MODS=$(build_modules "$1") || exit 1
	shift
	while [ $# -ge 2 ]; do
		check_module_args "$1" "$GUEST_MODS" "$2"
		shift 2
	done
}

# Boots a guest of such a command: IMAGE with its modules, the payload,
# GUEST_ARGS, VCPUS and TIMEOUT, and the guest.sh options given after
# OUT.  Returns guest.sh's exit status.
guest_boot() {	# image release mods payload out [guest.sh option]...
	g_image=$1 g_release=$2 g_mods=$3 g_payload=$4 g_out=$5
	shift 5
	# shellcheck disable=SC2086 # GUEST_ARGS: options and their values
	run_guest -k "$g_image" -r "$g_release" -m "$g_mods" $GUEST_ARGS \
		-s "$VCPUS" -t "$TIMEOUT" -p "$g_payload" "$@" -o "$g_out"
}

# A guest_boot whose payload writes load-1 .. load-COUNT in OUT; with
# PROFILE=1 (make ab, make track, make bisect: they source
# profile-lib.sh) their profiles merged into OUT/profile.raw, named with
# SYMS and the modules in MODS.  Returns guest_boot's status.
guest_loads() {	# image release mods payload out count syms [guest.sh option]...
	gl_image=$1 gl_release=$2 gl_mods=$3 gl_payload=$4 gl_out=$5
	gl_count=$6 gl_syms=$7
	shift 7
	guest_boot "$gl_image" "$gl_release" "$gl_mods" "$gl_payload" \
		"$gl_out" "$@"
	gl_rc=$?
	[ $gl_rc = 0 ] && [ "${PROFILE:-0}" = 1 ] || return $gl_rc
	# the guest's sections are its loads, in order
	set --
	gl_l=1
	while [ $gl_l -le "$gl_count" ]; do
		set -- "$@" "$gl_out/load-$gl_l.results" "$gl_out/load-$gl_l.sections"
		gl_l=$((gl_l + 1))
	done
	profile_merge "$gl_out/profile.raw" "$gl_syms" "$gl_mods" "$@" ||
		die "no profile of the loads in $gl_out (above); its logs are there"
}

# The loads of RESULTS... whose timed windows held another task's work
# (perturbed_chunks, doc/windows.rst): a line each, "  FILE: test (P of
# N chunks)...", the file named without its folder.  Needs
# results_lib.sh.
perturbed_loads() {	# results...
	for pl_f in "$@"; do
		pl_p=$(results_rows "$pl_f" perturbed_chunks chunks |
		       awk '$2 ~ /^[1-9][0-9]*$/ { printf " %s (%s of %s chunks)", $1, $2, $3 }')
		[ -z "$pl_p" ] || printf '  %s:%s\n' "${pl_f##*/}" "$pl_p"
	done
}

# A guest that failed with STATUS: the payload's output, when there is
# one, then WHAT failed and where its console log is; exit 1.
guest_failed() {	# status out what
	[ -f "$2/output.txt" ] && cat "$2/output.txt" >&2
	die "$3 (exit $1); console log: $2/console.log"
}

# The end-to-end scenarios (tools/e2e, doc/e2e.rst) after the module's
# tests, in make run and make ab.  E2E: 0 (none), 1 (all) or scenario
# names separated by commas; E2E_PACKETS and E2E_REPS: packets per
# timed repetition and repetitions.  Counting instructions a scenario's
# figure moves by a few hundredths of an instruction per packet between
# repetitions at 5000 packets, so that many suffice.
E2E_DEFAULT_PACKETS=5000
E2E_DEFAULT_REPS=3
# Where guests find bench-e2e (static): shipped with guest.sh -f into
# /bench, never at its host path, which the guest's /tmp may hide.
E2E_GUEST_BIN=/bench/bench-e2e
E2E_MAX_PACKETS=100000000
E2E_MAX_REPS=100

# Checks the variables, builds bench-e2e; sets E2E_BIN, E2E_OPTS (its
# options in the guest, quoted for sh) and E2E_GUEST (guest.sh's options
# the scenarios add: -N, the host's packet source, for
# virtio_net_rx_drop).  Call after check_instrument.
e2e_vars() {
	E2E=${E2E:-0}
	E2E_PACKETS=${E2E_PACKETS:-$E2E_DEFAULT_PACKETS}
	E2E_REPS=${E2E_REPS:-$E2E_DEFAULT_REPS}
	E2E_BIN= E2E_OPTS= E2E_GUEST=
	check_whole E2E_PACKETS "$E2E_PACKETS" 1
	[ "${#E2E_PACKETS}" -le 9 ] && [ "$E2E_PACKETS" -le $E2E_MAX_PACKETS ] ||
		usage_die "E2E_PACKETS=$E2E_PACKETS: accepted: a whole number from 1 to $E2E_MAX_PACKETS"
	check_whole E2E_REPS "$E2E_REPS" 1
	[ "${#E2E_REPS}" -le 3 ] && [ "$E2E_REPS" -le $E2E_MAX_REPS ] ||
		usage_die "E2E_REPS=$E2E_REPS: accepted: a whole number from 1 to $E2E_MAX_REPS"
	[ "$E2E" != 0 ] || return 0
	[ "$PROFILE" != 1 ] ||
		usage_die "E2E=$E2E: the scenarios have no exact profile; PROFILE=1 takes E2E=0"
	E2E_BIN=$(e2e_build) || exit 1
	e_names=$("$E2E_BIN" -L | cut -d' ' -f1)
	E2E_OPTS="-n $E2E_PACKETS -r $E2E_REPS"
	case ,$E2E, in
	,1, | *,virtio_net_rx_drop,*) E2E_GUEST=-N ;;
	esac
	[ "$E2E" = 1 ] && return 0
	case $E2E in
	'' | ,* | *, | *,,* | *[!a-z0-9_,]*) e_bad=1 ;;
	*) e_bad= ;;
	esac
	if [ -z "$e_bad" ]; then
		for e_name in $(printf '%s' "$E2E" | tr ',' ' '); do
			printf '%s\n' "$e_names" | grep -qx "$e_name" || e_bad=1
		done
	fi
	[ -z "$e_bad" ] ||
		usage_die "E2E=$E2E: accepted: 0, 1, or scenario names separated by commas:" $e_names
	E2E_OPTS="$E2E_OPTS -s $E2E"
}

# Builds bench-e2e (static) and prints its path, in a folder kbuild-safe
# like the modules', replaced whole: another command's guest may be
# reading it.
e2e_build() {
	e_dir=$(module_build_dir e2e) || exit 1
	need_packages make gcc libc6-dev
	mkdir -p "$e_dir" || die "cannot create $e_dir"
	make -s -C "$BENCH_TOP/tools/e2e" >&2 || die "cannot build tools/e2e"
	cmp -s "$BENCH_TOP/tools/e2e/bench-e2e" "$e_dir/bench-e2e" || {
		cp "$BENCH_TOP/tools/e2e/bench-e2e" "$e_dir/bench-e2e.$$" &&
			mv -f "$e_dir/bench-e2e.$$" "$e_dir/bench-e2e"
	} || die "cannot copy bench-e2e to $e_dir"
	printf '%s\n' "$e_dir/bench-e2e"
}

# The kernel modules the scenarios need (veth, pktgen, virtio_pci and
# virtio_net) and those they depend on (modinfo), for RELEASE, from its
# unpacked Debian packages or its built tree KDIR, uncompressed into
# DIR/e2e-modules for the guest's /bench, with the order to load them
# in (a module after those it depends on) in its file "order".  A
# kernel that has them built in, or not at all, gets none: bench-e2e
# says which scenarios skip.
e2e_modules() {	# dir release kdir
	need_packages kmod xz-utils
	e_kernel=$BENCH_CACHE/kernels/$2
	mkdir -p "$1/e2e-modules" || die "cannot create $1/e2e-modules"
	# Debian unstable ships the modules apart from its image
	if [ -f "$e_kernel/image/usr/lib/modules/$2/vmlinuz" ] &&
	   [ ! -d "$e_kernel/image/usr/lib/modules/$2/kernel" ]; then
		APT_TOOL=unstable_apt
		unpack_packages "$e_kernel/modules" "linux-modules-$2"
		APT_TOOL=
	fi
	: >"$1/e2e-modules/order" || die "cannot write $1/e2e-modules/order"
	e_added=
	for e_mod in veth pktgen virtio_pci virtio_net; do
		e2e_module_add "$1/e2e-modules" "$2" "$3" "$e_mod"
	done
}

# Adds module NAME to OUT after the modules it depends on.
e2e_module_add() {	# out release kdir name
	case "$e_added " in *" $4 "*) return 0 ;; esac
	e_added="$e_added $4"
	set -- "$@" "$(e2e_module_file "$2" "$3" "$4")"
	[ -n "$5" ] || return 0
	for e_dep in $(modinfo -F depends "$5" | tr ',' ' '); do
		e2e_module_add "$1" "$2" "$3" "$e_dep"
	done
	case $5 in
	*.xz) xz -dc "$5" >"$1/$4.ko" || die "cannot uncompress $5" ;;
	*) cp "$5" "$1/$4.ko" || die "cannot copy $5" ;;
	esac
	printf '%s\n' "$4" >>"$1/order"
}

# The file of module NAME for RELEASE, or nothing.
e2e_module_file() {	# release kdir name
	for f_tree in "$BENCH_CACHE/kernels/$1/image/lib/modules/$1/kernel" \
		"$BENCH_CACHE/kernels/$1/image/usr/lib/modules/$1/kernel" \
		"$BENCH_CACHE/kernels/$1/modules/usr/lib/modules/$1/kernel" "$2"; do
		[ -n "$f_tree" ] && [ -d "$f_tree" ] || continue
		f_file=$(find "$f_tree" \( -name "$3.ko" -o -name "$3.ko.xz" \) \
			-print 2>/dev/null | head -n 1)
		[ -z "$f_file" ] || { printf '%s\n' "$f_file"; return; }
	done
}
