#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make copy-to-tree TREE=/path/to/linux": puts the project into a Linux
# source tree, the modules as lib/bench_page_pool (built by the tree's
# "make modules" with CONFIG_BENCH_PAGE_POOL_SIMPLE=m) and the kselftest
# as tools/testing/selftests/net/bench_page_pool.  Files that did not
# change are left alone, so the tree rebuilds only what changed.  For
# trees that have upstream's net/bench, "make series" is the way to
# upstream (doc/in-tree.rst); this stays for the lib/ build.
set -u
. "$(dirname "$0")/../lib.sh"
bench_lib kernel

TREE=${TREE:-}
[ -n "$TREE" ] || die "make copy-to-tree needs TREE=<a Linux source tree>"
copy_to_tree "$TREE"
say "copied into $TREE: lib/bench_page_pool (with its lines in lib/Kconfig.debug and lib/Makefile) and tools/testing/selftests/net/bench_page_pool"
say "then: scripts/config -m BENCH_PAGE_POOL_SIMPLE && make olddefconfig && make modules"
# A tree with upstream's benchmark now has two copies; the series
# replaces upstream's instead.
[ ! -d "$TREE/tools/testing/selftests/net/bench/page_pool" ] ||
	say "note: $TREE has upstream's tools/testing/selftests/net/bench; make series TREE=$TREE (a git tree) puts the project there as patches replacing it"
