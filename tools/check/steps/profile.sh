# SPDX-License-Identifier: GPL-2.0
#
# make check's step of the exact profile (PROFILE=1, doc/profile.rst),
# sourced by tools/check/check.sh.

# The exact profile (PROFILE=1), on two boots of one kernel: every test's
# instructions per element agree with its own TSC figure (the same
# virtual clock, counted another way) within 0.05, plus 8 instructions a
# window: the TSC interval also holds the stamps' own instructions
# between a counter read and its marker (the marker NOPs, the read's
# shifts and stores, the fence), which no window counts: 6.7 a window
# on 6.12's slow path, whose chunks of whole refill batches are 64 to
# 128 elements (-0.059 per element; 0.005 or less on the fast path's
# chunks of 8192); a warm pool's fast
# path misses almost nothing in the modelled L1D, the slow path (a
# zeroed page each time) many lines per element; make perf PROFILE=1,
# the second boot, gives the fast path's functions as the first did.
PROFILE_TESTS=tasklet_page_pool01_fast_path,tasklet_page_pool02_ptr_ring,tasklet_page_pool03_slow

profile_check() {	# kernel
	ok=0
	make -s -C "$BENCH_TOP" run KERNEL="$1" PROFILE=1 \
		ARGS="tests=$PROFILE_TESTS time_ms=20" \
		RESULTS="$LOGDIR/profile-1.results" \
		>"$LOGDIR/profile-run-1.out" 2>&1 ||
		{ sed 's/^/  /' "$LOGDIR/profile-run-1.out" >&2; return 1; }
	sed -n '/^exact profile/,/^$/p' "$LOGDIR/profile-run-1.out" >&2
	# profile against TSC, per test: the mean over the repetitions (all
	# of the same loops) is the total over the windows, as the profile
	# divides it
	r1=$LOGDIR/profile-1.results
	results_check_load "$r1" >&2 || return 1
	for t in $(results_ran_tests "$r1"); do
		tsc=$(results_field "$r1" "$t" cycles_mean)
		prof=$(results_prof "$r1" "$t" insns)
		wins=$(results_prof "$r1" "$t" windows)
		elems=$(results_field "$r1" "$t" total_invoke_count)
		awk -v t="$t" -v p="$prof" -v c="$tsc" -v w="$wins" \
			-v n="$elems" 'BEGIN {
			d = p - c
			m = n > 0 ? 0.05 + 8 * w / n : 0
			printf "%s: profile %.3f, TSC %.3f instructions per element, %+.3f (within %.3f: %s windows of %s elements)\n", t, p, c, d, m, w, n
			exit !(p != "" && n > 0 && d <= m && d >= -m)
		}' >&2 || ok=1
	done
	fast=$(results_prof "$r1" tasklet_page_pool01_fast_path l1d_miss)
	slow=$(results_prof "$r1" tasklet_page_pool03_slow l1d_miss)
	say "modelled L1D misses per element: fast path ${fast:-none}, slow path ${slow:-none}"
	awk -v f="$fast" -v s="$slow" 'BEGIN { exit !(f != "" && s != "" && f < 0.05 && s > 10) }' ||
		ok=1
	# A second boot, make perf's: the fast path's own functions (half
	# an instruction per element or more) with the same counts as on
	# the first.  What differs from boot to boot is the timer interrupts
	# that land in a window, thousandths of an instruction per element,
	# summed on make perf's "more" line.
	results_prof_fns "$r1" tasklet_page_pool01_fast_path fn insns loads \
		stores atomics l1i_miss l1d_miss llc_miss |
		awk '$2 + 0 >= 0.5' | sort >"$LOGDIR/profile-1.fn"
	rm -rf "$LOGDIR"/profile-perf
	make -s -C "$BENCH_TOP" perf KERNEL="$1" PROFILE=1 \
		TEST=tasklet_page_pool01_fast_path OUT="$LOGDIR/profile-perf" \
		>"$LOGDIR/profile-perf.out" 2>"$LOGDIR/profile-perf.err" ||
		{ sed 's/^/  /' "$LOGDIR/profile-perf.err" >&2; return 1; }
	sed 's/^/  /' "$LOGDIR/profile-perf.out" >&2
	awk '$1 !~ /^[(]/ && $1 != "total" && $2 ~ /^[0-9.]+$/ && $2 >= 0.5 {
		print $1, $2, $4, $5, $6, $7, $8, $9	# not the share
	}' "$LOGDIR/profile-perf.out" | sort >"$LOGDIR/profile-perf.fn"
	grep -q '^total (' "$LOGDIR/profile-perf.out" &&
		[ -s "$LOGDIR/profile-perf.fn" ] &&
		cmp -s "$LOGDIR/profile-perf.fn" "$LOGDIR/profile-1.fn" || {
		say "make perf PROFILE=1: no table, or not the functions of the first boot:"
		diff "$LOGDIR/profile-1.fn" "$LOGDIR/profile-perf.fn" >&2
		ok=1
	}
	return $ok
}
