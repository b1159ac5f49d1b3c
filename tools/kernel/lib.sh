# SPDX-License-Identifier: GPL-2.0
#
# Kernels for the host tools: Debian's packages and kernels, kernel
# trees and the module's builds; sourced through bench_lib (tools/lib.sh),
# not run.  POSIX sh.  Owns:
#
# - need_packages (apt-get as root; apt-get update at most every 12
#   hours), the kernels a command may name (KERNEL_CHOICES), Debian 12's
#   image and headers packages unpacked into the cache (debian_kernel),
#   and unstable's, read through an apt list of the project's own
#   (unstable_kernel): the host's /boot, packages and lists are never
#   touched;
# - the kernel a command's KERNEL/KDIR name (select_kernel,
#   prepare_tree for a tree of unstable's source), the project's files
#   copied into a tree (copy_to_tree), the module built out of tree
#   (build_modules), the module parameters a command passes
#   (check_module_args), and the small kernels of make track and make
#   check (kernel_source, tiny_config).

# Installs the Debian packages named that are not installed yet.
# One dpkg-query for them all (one a package cost 40 ms each, 0.9 s for
# make check's list); one it does not know is missing too.
need_packages() {
	n_have=" $(dpkg-query -W -f='${Package} ${Status}\n' "$@" 2>/dev/null |
		awk '/ ok installed$/ { printf "%s ", $1 }')"
	missing=
	for pkg in "$@"; do
		case $n_have in
		*" $pkg "*) ;;
		*) missing="$missing $pkg" ;;
		esac
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

# Kernel trees and the module's builds
# --------------------------------------

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
