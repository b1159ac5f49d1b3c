#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Prints the include directory that holds qemu/qemu-plugin.h of the
# installed qemu-system-x86's own Debian source package: a plugin must
# be built against the API of the QEMU that loads it.  Fetched once with
# apt through lists of its own (the host's apt setup is left alone) and
# cached under $BENCH_CACHE/qemu-src/VERSION.  Any failure: one line on
# stderr, exit 1.  POSIX sh.

if [ -z "${BENCH_CACHE:-}" ]; then
	if [ "$(id -u)" = 0 ]; then
		BENCH_CACHE=/var/cache/bench_page_pool
	else
		BENCH_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/bench_page_pool
	fi
fi
APT_SRC=$BENCH_CACHE/apt-src
HEADER=include/qemu/qemu-plugin.h
tmp=

fail() {
	printf 'qemu-header.sh: %s\n' "$*" >&2
	exit 1
}

# apt's first error line in a log, for the one line a failure prints.
apt_error() {	# log
	a_err=$(grep -m 1 '^E: ' "$1" 2>/dev/null)
	printf '%s\n' "${a_err:-E: (apt-get said no more)}"
}

cleanup() {
	[ -z "$tmp" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 129' HUP
trap 'cleanup; trap - EXIT; exit 130' INT
trap 'cleanup; trap - EXIT; exit 143' TERM

# The source package and its version, which a binNMU's binary version
# (+bN) would not name.
src=$(dpkg-query -W -f='${source:Package} ${source:Version}' \
	qemu-system-x86 2>/dev/null) ||
	fail "qemu-system-x86 is not installed (apt-get install qemu-system-x86)"
name=${src% *}
version=${src#* }
case $name$version in
'' | *[!A-Za-z0-9.+~:-]*)
	fail "dpkg names no usable source package for qemu-system-x86 ($src)" ;;
esac
# A version's epoch is no part of its file names.
dir=$BENCH_CACHE/qemu-src/${version#*:}
if [ -f "$dir/$HEADER" ]; then
	printf '%s\n' "$dir/include"
	exit 0
fi

# Installs what this script needs; apt's own words go to a log, so that
# a failure stays one line.
need() {	# command package
	command -v "$1" >/dev/null 2>&1 && return 0
	[ "$(id -u)" = 0 ] ||
		fail "$1 is missing; as root: apt-get install --no-install-recommends $2"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "$2" >"$tmp/install.log" 2>&1 ||
		fail "apt-get install $2 failed: $(apt_error "$tmp/install.log")"
}

src_apt() {	# apt-get|apt-cache argument...
	s_tool=$1
	shift
	"$s_tool" -o Dir::Etc::SourceList="$APT_SRC/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$APT_SRC/lists" \
		-o Dir::Cache="$APT_SRC/cache" "$@"
}

# deb-src lines for the suites the host takes Debian's main from (its
# release, updates and security suites): the installed version came
# from one of them.  No host name is written anywhere but this cache.
src_update() {
	mkdir -p "$APT_SRC/lists/partial" "$APT_SRC/cache/archives/partial" \
		2>/dev/null ||
		fail "cannot create $APT_SRC"
	apt-cache policy 2>/dev/null | awk '
		$2 ~ /^https?:\/\// && $3 ~ /\/main$/ && !seen[$2 " " $3]++ {
			sub(/\/main$/, "", $3)
			print "deb-src " $2 " " $3 " main"
		}' >"$APT_SRC/sources.list.new" ||
		fail "cannot write $APT_SRC/sources.list"
	[ -s "$APT_SRC/sources.list.new" ] ||
		fail "the host's apt names no Debian mirror with main (apt-cache policy)"
	mv "$APT_SRC/sources.list.new" "$APT_SRC/sources.list" ||
		fail "cannot write $APT_SRC/sources.list"
	src_apt apt-get update -q >"$tmp/update.log" 2>&1 ||
		fail "apt-get update of $APT_SRC failed: $(apt_error "$tmp/update.log")"
	touch "$APT_SRC/.updated"
}

# True if the lists know the exact source version.
src_known() {
	src_apt apt-cache showsrc "$name" 2>/dev/null |
		grep -qx "Version: $version"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/qemu-header.XXXXXX" 2>/dev/null) ||
	fail "cannot create a temporary folder in ${TMPDIR:-/tmp}"
need xz xz-utils
need dpkg-source dpkg-dev
need flock util-linux

# One fetch at a time: apt locks its lists, and two builds may ask at once.
mkdir -p "$APT_SRC" 2>/dev/null || fail "cannot create $APT_SRC"
: 2>/dev/null >>"$APT_SRC/.lock" || fail "cannot write $APT_SRC/.lock"
exec 9>>"$APT_SRC/.lock"
flock 9 || fail "cannot lock $APT_SRC/.lock"
if [ -f "$dir/$HEADER" ]; then
	printf '%s\n' "$dir/include"
	exit 0
fi

# A cache miss, for make check's table (tools/lib.sh's cache_miss).
[ -z "${BENCH_BUILT:-}" ] ||
	printf '%s\n' "fetching QEMU's plugin header" >>"$BENCH_BUILT"
if [ ! -f "$APT_SRC/.updated" ] || ! src_known; then
	src_update
	src_known ||
		fail "Debian's archive has no source of $name $version (it may have been superseded: upgrade qemu-system-x86)"
fi

# apt downloads as the _apt user, who must be able to write there.
{ mkdir "$tmp/get" && chmod 0755 "$tmp" && chmod 0777 "$tmp/get"; } \
	2>/dev/null || fail "cannot create $tmp/get"
(cd "$tmp/get" && src_apt apt-get source -q --download-only \
	"$name=$version") >"$tmp/source.log" 2>&1 ||
	fail "apt-get source $name=$version failed: $(apt_error "$tmp/source.log")"

upstream=${version#*:}
upstream=${upstream%-*}
orig=$(ls "$tmp/get/${name}_$upstream.orig.tar."* 2>/dev/null | head -n 1)
[ -n "$orig" ] || fail "$name $version: no .orig tarball was downloaded"
debian=$(ls "$tmp/get/${name}_${version#*:}.debian.tar."* 2>/dev/null |
	head -n 1)
[ -n "$debian" ] || fail "$name $version: no .debian tarball was downloaded"

mkdir "$tmp/x" 2>/dev/null || fail "cannot create $tmp/x"
tar -xf "$debian" -C "$tmp/x" debian/patches 2>/dev/null ||
	fail "$debian: cannot extract debian/patches"
# Does a Debian patch in the series touch the header?
patched=
if [ -f "$tmp/x/debian/patches/series" ]; then
	for p in $(sed 's/#.*//' "$tmp/x/debian/patches/series"); do
		grep -q "^+++ .*$HEADER" "$tmp/x/debian/patches/$p" \
			2>/dev/null && patched=$p
	done
fi

mkdir "$tmp/out" 2>/dev/null || fail "cannot create $tmp/out"
if [ -z "$patched" ]; then
	# The header as upstream ships it, without unpacking the rest.
	tar -xf "$orig" -C "$tmp/out" --wildcards --no-wildcards-match-slash \
		--no-same-owner --strip-components=1 "*/$HEADER" 2>/dev/null ||
		fail "$orig: no $HEADER in it"
else
	# Debian changes it (last: $patched): the whole source, patched.
	dpkg-source -x "$tmp/get/${name}_${version#*:}.dsc" "$tmp/src" \
		>"$tmp/dpkg-source.log" 2>&1 ||
		fail "dpkg-source -x of $name $version failed"
	{ mkdir -p "$tmp/out/include/qemu" &&
		cp "$tmp/src/$HEADER" "$tmp/out/$HEADER"; } 2>/dev/null ||
		fail "$name $version: no $HEADER in the patched source"
fi
[ -s "$tmp/out/$HEADER" ] || fail "$orig: no $HEADER in it"

# Into place whole, so that a reader never sees half a header.
mkdir -p "$BENCH_CACHE/qemu-src" 2>/dev/null ||
	fail "cannot create $BENCH_CACHE/qemu-src"
rm -rf "$dir.new.$$"
mv "$tmp/out" "$dir.new.$$" 2>/dev/null || fail "cannot write $dir"
if ! mv -T "$dir.new.$$" "$dir" 2>/dev/null; then
	rm -rf "$dir.new.$$"
	[ -f "$dir/$HEADER" ] || fail "cannot write $dir"
fi
printf '%s\n' "$dir/include"
