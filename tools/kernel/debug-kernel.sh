#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Builds the debug kernel (lockdep, KASAN, kmemleak, atomic-sleep checks,
# DMA API debugging, fail_page_alloc, page_pool stats) from Debian's
# linux-source-6.12: tinyconfig plus debug/debug.config, with this project
# in the tree as lib/bench_page_pool, built by the kernel's own
# "make modules" (CONFIG_BENCH_PAGE_POOL_SIMPLE=m).
#
# The build is cached under $BENCH_CACHE/debug-kernel, keyed by the source
# and the fragment; a change to the project only rebuilds its modules.
# Prints the build tree (KDIR); its arch/x86/boot/bzImage is the image
# and lib/bench_page_pool/*.ko the in-tree modules.
set -u
. "$(dirname "$0")/../lib.sh"
bench_lib kernel

need_packages make gcc libc6-dev flex bison bc libelf-dev libssl-dev cpio \
	python3
SRC=$(kernel_source) || exit 1
FRAGMENT=$BENCH_TOP/debug/debug.config
OUT=$BENCH_CACHE/debug-kernel
log=$OUT/build.log

copy_to_tree "$SRC"
key="$(cat "$SRC/.unpacked" "$SRC/Makefile" "$FRAGMENT" | md5sum | cut -d' ' -f1)"

if [ ! -f "$OUT/.built" ] || [ "$(cat "$OUT/.built")" != "$key" ] ||
   [ ! -f "$OUT/arch/x86/boot/bzImage" ]; then
	cache_miss "building the debug kernel in $OUT (about 9 minutes on 2 cores)"
	rm -rf "$OUT"
	mkdir -p "$OUT"
	tiny_config "$SRC" "$OUT" "$FRAGMENT" "$log"

	make -C "$SRC" O="$OUT" -j"$(nproc)" bzImage modules >>"$log" 2>&1 ||
		{ tail -n 30 "$log" >&2; die "debug kernel build failed (log: $log)"; }
	printf '%s\n' "$key" >"$OUT/.built"
fi

# The kernel and the module are incremental; the module's build folder
# is emptied when the module's files have other names than at its last
# build, so that no object of them (a composite of the same name as a
# source, a module of its own) is linked.
files=$(project_files module | tr '\n' ' ')
[ "$(cat "$OUT/lib/bench_page_pool.files" 2>/dev/null)" = "$files" ] || {
	rm -rf "$OUT/lib/bench_page_pool"
	printf '%s\n' "$files" >"$OUT/lib/bench_page_pool.files"
}
make -C "$SRC" O="$OUT" -j"$(nproc)" modules >>"$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; die "in-tree module build failed (log: $log)"; }
[ -f "$OUT/lib/bench_page_pool/bench_page_pool.ko" ] ||
	die "the kernel's make modules built no lib/bench_page_pool/bench_page_pool.ko"
printf '%s\n' "$OUT"
