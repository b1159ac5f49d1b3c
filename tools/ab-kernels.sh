#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Builds the small kernels of make check's constructed comparisons from
# Debian's linux-source-6.12: "base" is tinyconfig plus
# tests/ab-kernels/small.config, and each tests/ab-kernels/NAME.patch
# gives a kernel NAME, the base with that change to page_pool.  One
# build tree serves them all (the modules built against it load in
# every one): a variant recompiles what its patch touches and links
# vmlinux again.
#
# Cached under $BENCH_CACHE/ab-kernels: src (hard links to the unpacked
# source; the files a patch touches get their own copies, so the shared
# source is never written), tree (the build), NAME.bzImage and
# NAME.System.map, keyed by the source, the fragment, the compiler and
# the patch.  Prints the build tree: the KDIR of every image, which are
# beside it.
set -u
. "$(dirname "$0")/lib.sh"

need_packages make gcc libc6-dev flex bison bc libelf-dev libssl-dev cpio \
	patch
SRC=$(kernel_source) || exit 1
DATA=$BENCH_TOP/tests/ab-kernels
FRAGMENT=$DATA/small.config
OUT=$BENCH_CACHE/ab-kernels
TREE=$OUT/tree
log=$OUT/build.log
PATCHED=net/core/page_pool.c

base_key=$({ cat "$SRC/.unpacked" "$SRC/Makefile" "$FRAGMENT"; gcc --version; } |
	md5sum | cut -d' ' -f1)

if [ ! -f "$OUT/.base" ] || [ "$(cat "$OUT/.base")" != "$base_key" ]; then
	say "configuring the small A/B kernels in $OUT"
	rm -rf "$OUT"
	mkdir -p "$OUT" || die "cannot create $OUT"
	cp -al "$SRC" "$OUT/src" &&
		cp "$SRC/$PATCHED" "$OUT/$(basename "$PATCHED").orig" ||
		die "cannot link $SRC into $OUT/src"
	tiny_config "$OUT/src" "$TREE" "$FRAGMENT" "$log"
	printf '%s\n' "$base_key" >"$OUT/.base"
fi

# One kernel: page_pool.c as shipped, then the patch if there is one.
build_variant() {	# name [patch]
	v_key=$({ printf '%s\n' "$base_key"; [ $# = 1 ] || cat "$2"; } |
		md5sum | cut -d' ' -f1)
	[ -f "$OUT/$1.bzImage" ] && [ -f "$OUT/$1.key" ] &&
		[ "$(cat "$OUT/$1.key")" = "$v_key" ] && return 0
	cache_miss "building the small kernel $1 (base: minutes; a variant: about one)"
	rm -f "$OUT/$1.key"
	cp --remove-destination "$OUT/$(basename "$PATCHED").orig" \
		"$OUT/src/$PATCHED" || die "cannot restore $PATCHED"
	if [ $# = 2 ]; then
		patch -s -p1 -d "$OUT/src" --no-backup-if-mismatch <"$2" >>"$log" 2>&1 ||
			die "$2 does not apply to $SRC (log: $log)"
	fi
	make -C "$OUT/src" O="$TREE" -j"$(nproc)" bzImage modules >>"$log" 2>&1 ||
		{ tail -n 30 "$log" >&2; die "small kernel $1 failed to build (log: $log)"; }
	cp "$TREE/arch/x86/boot/bzImage" "$OUT/$1.bzImage" &&
		cp "$TREE/System.map" "$OUT/$1.System.map" &&
		printf '%s\n' "$v_key" >"$OUT/$1.key" ||
		die "cannot keep the small kernel $1 in $OUT"
}

build_variant base
for p in "$DATA"/*.patch; do
	name=$(basename "$p" .patch)
	build_variant "$name" "$p"
done
printf '%s\n' "$TREE"
