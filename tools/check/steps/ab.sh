# SPDX-License-Identifier: GPL-2.0
#
# make check's make ab steps, sourced by tools/check/check.sh: the guest
# order, an A/B timing cycles whose untouched rows are an A/A, the small
# kernels' A/B counting instructions, the end-to-end scenarios by
# construction.  Each states its false-alarm rate.

# make ab's guest order gives both sides the same mean position for any
# even LOADS, and differs by at most one guest for odd LOADS.
ab_order_balanced() {
	for n in 1 2 3 4 5 8 9; do
		d=$(ab_order $n | awk '{ s += ($1 == "before" ? NR : -NR) }
			END { print s < 0 ? -s : s }')
		c=$(ab_order $n | grep -c before)
		say "LOADS=$n: $c before, position sums differ by $d"
		[ "$c" = $n ] || return 1
		if [ $((n % 2)) = 0 ]; then
			[ "$d" = 0 ] || return 1
		else
			[ "$d" -le 1 ] || return 1
		fi
	done
}

# make ab, with its output kept in LOGDIR/ab-NAME.
make_ab() {	# name make-ab-variable...
	name=$1
	shift
	rm -rf "$LOGDIR/ab-$name"
	run_child env "$@" OUT="$LOGDIR/ab-$name" sh "$BENCH_TOP/tools/guest/ab.sh" \
		>"$LOGDIR/ab-$name.out" 2>&1
	rc=$?
	sed 's/^/# /' "$LOGDIR/ab-$name.out" >&2
	[ $rc = 0 ] && [ -s "$LOGDIR/ab-$name/plot.svg" ] &&
		[ -s "$LOGDIR/ab-$name/plot.png" ]
}

# A row of a make ab table: its verdict, or the width of its interval.
# The row is a test's first line (a profile's lines name it again).
verdict() {	# name test
	awk -v t="$2" '$1 == t { print $NF; exit }' "$LOGDIR/ab-$1/table.txt"
}

interval_width() {	# name test
	awk -v t="$2" '$1 == t {
		for (i = 2; i <= NF; i++)
			if ($i ~ /^[-+]?[0-9.]+\.\.[-+]?[0-9.]+$/) {
				split($i, ci, /\.\./)
				printf "%.3f\n", ci[2] - ci[1]
			}
		exit
	}' "$LOGDIR/ab-$1/table.txt"
}

# Timing cycles: both slow paths, which init_on_alloc changes, and the
# softirq fast path and ptr_ring, which it does not, in short runs.  4
# rows at alpha 0.001 with Holm need 8 loads a side (2/C(16,8) =
# 0.00016 < 0.001/4); a false "change" on the two recycling rows, which
# are an A/A comparison, has a chance of at most alpha: 1 run in 1000.
# At alpha 0.01 and 6 loads, 1 in 100 was too often for a gate: CI saw
# the fast path's six loads of a side all below the other's.
AB_CYCLES="ICOUNT=0 ACCEL=tcg LOADS=8 ALPHA=0.001"
AB_CYCLES_ARGS="tests=no-softirq-page_pool03,tasklet_page_pool01_fast_path,tasklet_page_pool02_ptr_ring,tasklet_page_pool03_slow time_ms=100"

# One kernel, two command lines: init_on_alloc=1 zeroes every page the
# allocator hands out, which only the slow paths take; the recycling
# paths never see it.
ab_ab() {
	# shellcheck disable=SC2086
	make_ab ab BEFORE=6.12 AFTER=6.12 BEFORE_APPEND=init_on_alloc=0 \
		AFTER_APPEND=init_on_alloc=1 $AB_CYCLES \
		ARGS="$AB_CYCLES_ARGS" || return 1
	grep -q '^environment differs: runtime.init_on_alloc: before 0, after 1$' \
		"$LOGDIR/ab-ab/table.txt" || return 1
	for t in no-softirq-page_pool03 tasklet_page_pool03_slow; do
		[ "$(verdict ab $t)" = change ] || return 1
	done
	for t in tasklet_page_pool01_fast_path tasklet_page_pool02_ptr_ring; do
		[ "$(verdict ab $t)" = noise ] || return 1
	done
}

# Counting instructions: three recycling paths in short runs, make ab's
# defaults otherwise (1 vCPU).  3 rows at alpha 0.01 with Holm need 6
# loads a side (2/C(12,6) = 0.0022 < 0.01/3); a false "change" in an
# A/A run, or on a row a change does not touch, has a chance of at most
# 1 in 100.  All loads of a side in one guest: with one vCPU every boot
# counts the same.
AB_ICOUNT="ICOUNT=1 LOADS=6 LOADS_PER_GUEST=6 ALPHA=0.01"
AB_ICOUNT_TESTS="tasklet_page_pool01_fast_path tasklet_page_pool02_ptr_ring tasklet_page_pool09_bulk"
AB_ICOUNT_ARGS="tests=$(echo $AB_ICOUNT_TESTS | tr ' ' ,) time_ms=20"

# The small kernels' comparisons, with exact profiles: the fast path
# recycles into page_pool's cache, which the constructed changes touch
# (tests/track/*.patch); ptr_ring and the slow path never do.
AB_CACHE_TEST=tasklet_page_pool01_fast_path
AB_OTHER_TESTS=tasklet_page_pool02_ptr_ring,tasklet_page_pool03_slow
AB_PROFILE_ARGS="tests=$AB_CACHE_TEST,$AB_OTHER_TESTS time_ms=5"

# Counting instructions, a difference known by construction: the small
# kernel against its commit of three instructions more on the
# direct-recycle path (tests/track/), whose fast path reads +3 and whose
# ptr_ring and bulk returns never take that path.
ab_ab_icount() {
	# shellcheck disable=SC2086
	make_ab ab-icount BEFORE="$AB_BASE" BEFORE_KDIR="$AB_KDIR" \
		AFTER="$AB_THREE" AFTER_KDIR="$AB_KDIR" $AB_ICOUNT \
		ARGS="$AB_ICOUNT_ARGS" || return 1
	[ "$(verdict ab-icount tasklet_page_pool01_fast_path)" = change ] ||
		return 1
	for t in tasklet_page_pool02_ptr_ring tasklet_page_pool09_bulk; do
		[ "$(verdict ab-icount $t)" = noise ] || return 1
	done
}

