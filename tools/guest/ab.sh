#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make ab": compares two kernels (or one kernel with two command lines or
# two sets of module parameters) with LOADS loads of the benchmark per
# side, in fresh guests, and prints bench-compare's table.
#
#   BEFORE, AFTER   6.12 or 6.1 (Debian's kernels), or the path to a
#                   kernel image; BEFORE_KDIR / AFTER_KDIR its build tree
#   BEFORE_APPEND, AFTER_APPEND  extra kernel command line of that side
#   BEFORE_ARGS, AFTER_ARGS      module parameters of that side, after ARGS
#   ARGS       module parameters of both sides
#   ICOUNT     1 (default): count instructions (QEMU -icount, TCG);
#              0: time cycles
#   NOAPICTIMER  0: counting instructions, both sides boot with the
#              local APIC timer on (default 1: noapictimer)
#   ACCEL      auto (default), kvm or tcg; ACCEL=kvm implies ICOUNT=0
#   PROFILE    1: each load with its exact profile (tools/profile;
#              ICOUNT=1), and bench-compare's function diff
#   PROFILE_ARGS  the profile's caches, e.g. l1d=32K:8,llc=2M:16
#   E2E        1: the end-to-end scenarios (tools/e2e) after each load, as
#              rows of its table; or their names; 0 (default): none
#   E2E_PACKETS, E2E_REPS  their packets per repetition, repetitions
#   LOADS      loads per side (default: 6 counting instructions, 8
#              timing cycles)
#   LOADS_PER_GUEST  loads in each guest, one after the other (default:
#              3 counting instructions, 1 timing cycles or with E2E)
#   CPU        QEMU CPU model (default: max; host under KVM)
#   VCPUS      the guests' virtual CPUs (default: 1 counting
#              instructions, 2 timing cycles)
#   FAIL_ABOVE exit 1 when a test got slower by more than this many
#              percent with a "change" verdict (bench-compare --fail-above)
#   ALPHA      significance level of the table (default: bench-compare's)
#   OUT        new or empty folder for the results files, the table and
#              the plot (default: build/ab-YYYYmmdd-HHMMSS)
#   TIMEOUT    seconds before one guest counts as hung (default: 900)
#
# Every variable is checked before the first guest boots.  Guests run one
# after the other in the order B A A B, B A A B, ... (see ab_order), so
# that a drift of the host's speed over the run adds the same to both
# sides.  A guest that fails (panic, oops, hang, no result) is booted
# again, twice at most; the loads of a guest that still fails are left
# out and said so, and the table is made of the others.
set -u
. "$(dirname "$0")/../lib.sh"
bench_lib guest e2e
. "$BENCH_TOP/results_lib.sh"

# Instructions by default: deterministic, so that a change of a few
# instructions on a path says "change" (doc/comparing.rst says why).
AB_DEFAULT_ICOUNT=1
# Loads per side, per clock.  Instructions: 6 reach a Holm-corrected
# 0.05 over 20 rows (2/C(12,6) = 0.0022 < 0.05/20).  Cycles: 8 leave
# room for some overlap between the sides (2/C(16,8) = 0.00016).
AB_LOADS_INSTRUCTIONS=6
AB_LOADS_CYCLES=8
# Counting instructions a boot costs more than a load of every test
# (measured: 20 s for a guest of one load, 28 s for three), and a
# second load in a guest gives the same counts as a first one when the
# guest has one vCPU: three loads a guest, one vCPU.  Timing cycles,
# every load a guest of its own, as measured for the noise figures of
# doc/measurements.rst.
AB_PER_GUEST_INSTRUCTIONS=3
AB_PER_GUEST_CYCLES=1
# Not so with the end-to-end scenarios: a guest's later loads count
# differently (Debian's 6.12: xdp_live_pass 1267.14 instructions a
# packet in a first load, 1290.94 and 1285.01 in the next two), which
# would hide a change of a few instructions.  A guest each load.
AB_PER_GUEST_E2E=1
# Boots of one load before it is left out.
AB_BOOTS=3
COMPARE=$BENCH_TOP/tools/compare/bench-compare

BEFORE=${BEFORE:-}
AFTER=${AFTER:-}
FAIL_ABOVE=${FAIL_ABOVE:-}
ALPHA=${ALPHA:-}
OUT=${OUT:-$BENCH_TOP/build/ab-$(date +%Y%m%d-%H%M%S)}

[ -n "$BEFORE" ] && [ -n "$AFTER" ] ||
	usage_die "make ab needs BEFORE= and AFTER= ($KERNEL_CHOICES, or a kernel image with BEFORE_KDIR=/AFTER_KDIR=)"
[ -z "${LOADS:-}" ] || check_whole LOADS "$LOADS" 1
[ -z "${LOADS_PER_GUEST:-}" ] ||
	check_whole LOADS_PER_GUEST "$LOADS_PER_GUEST" 1
guest_vars $AB_DEFAULT_ICOUNT
e2e_vars
check_new_folder OUT "$OUT"
guest_packages gnuplot-nox

# bench-compare with the table's options, ALPHA and FAIL_ABOVE.
compare() {	# argument...
	[ -z "$FAIL_ABOVE" ] || set -- --fail-above "$FAIL_ABOVE" "$@"
	[ -z "$ALPHA" ] || set -- --alpha "$ALPHA" "$@"
	"$COMPARE" "$@"
}

make -s -C "$BENCH_TOP/tools/compare" >&2 || die "cannot build bench-compare"
# bench-compare itself says whether it takes these options.
err=$(compare --dry-run 2>&1 >/dev/null) ||
	usage_die "${ALPHA:+ALPHA=$ALPHA }${FAIL_ABOVE:+FAIL_ABOVE=$FAIL_ABOVE }(bench-compare's options): $(printf '%s\n' "$err" | head -n 1)"

# Each side's kernel, modules and parameters are kept in plainly named
# variables, before_* and after_*: the functions below work on one side,
# and side_pick gives one side's to the code that runs the guests.

# Sets KERNEL_IMAGE, KERNEL_RELEASE and KDIR of a side; SIDE names its
# variables in messages.
side_kernel() {	# SIDE kernel kdir
	KDIR=$3
	select_kernel "$2" "$1"
}

# Builds a side's modules, a folder per kernel tree: runs of make ab side
# by side (make check's) never swap modules under each other's guests.
# Checks ARGS and the side's own parameters against them; sets
# GUEST_MODS.
side_modules() {	# SIDE kdir side-args
	KDIR=$2
	s_key=$(printf '%s' "$KDIR" | md5sum | cut -c1-12)
	guest_modules "$(module_build_dir "ab-$s_key")" \
		ARGS "$ARGS" "$1_ARGS" "$3"
}

# One side's kernel, release, image, built modules, module parameters
# and extra kernel command line, in s_*.
side_pick() {	# before|after
	if [ "$1" = before ]; then
		s_kernel=$BEFORE s_release=$before_release s_image=$before_image
		s_built=$before_built s_args=$BEFORE_ARGS s_append=$BEFORE_APPEND
		s_syms=$before_syms
	else
		s_kernel=$AFTER s_release=$after_release s_image=$after_image
		s_built=$after_built s_args=$AFTER_ARGS s_append=$AFTER_APPEND
		s_syms=$after_syms
	fi
}

BEFORE_ARGS=${BEFORE_ARGS:-}
AFTER_ARGS=${AFTER_ARGS:-}
# each side's kernel symbols, for its profiles (below)
before_syms= after_syms=
BEFORE_APPEND=${BEFORE_APPEND:-}
AFTER_APPEND=${AFTER_APPEND:-}
side_kernel BEFORE "$BEFORE" "${BEFORE_KDIR:-}"
before_image=$KERNEL_IMAGE before_release=$KERNEL_RELEASE before_kdir=$KDIR
side_kernel AFTER "$AFTER" "${AFTER_KDIR:-}"
after_image=$KERNEL_IMAGE after_release=$KERNEL_RELEASE after_kdir=$KDIR
choose_accel "$before_image" "$before_release" "$after_image" "$after_release"
if [ "$ICOUNT" = 1 ]; then
	LOADS=${LOADS:-$AB_LOADS_INSTRUCTIONS}
	if [ "$E2E" = 0 ]; then
		LOADS_PER_GUEST=${LOADS_PER_GUEST:-$AB_PER_GUEST_INSTRUCTIONS}
	else
		LOADS_PER_GUEST=${LOADS_PER_GUEST:-$AB_PER_GUEST_E2E}
	fi
else
	LOADS=${LOADS:-$AB_LOADS_CYCLES}
	LOADS_PER_GUEST=${LOADS_PER_GUEST:-$AB_PER_GUEST_CYCLES}
fi
side_modules BEFORE "$before_kdir" "$BEFORE_ARGS"
before_built=$GUEST_MODS
side_modules AFTER "$after_kdir" "$AFTER_ARGS"
after_built=$GUEST_MODS

# Everything checked: from here on guests run.  They load a copy of the
# modules of their own: another make ab may build into the same folder
# meanwhile.
mkdir -p "$OUT/guests" || usage_die "OUT=$OUT: cannot create it"
for side in before after; do
	side_pick "$side"
	mkdir -p "$OUT/modules-$side" &&
		cp "$s_built"/*.ko "$OUT/modules-$side/" ||
		die "cannot copy the modules into $OUT/modules-$side"
	if [ "$E2E" != 0 ]; then
		s_kdir=$before_kdir
		[ "$side" = before ] || s_kdir=$after_kdir
		e2e_modules "$OUT/e2e-$side" "$s_release" "$s_kdir"
	fi
done
# Profiling, each kernel's own symbols, once (lib-profile.sh)
if [ "$PROFILE" = 1 ]; then
	profile_symbols "$before_image" "$before_release"
	before_syms=$PROFILE_SYMS
	profile_symbols "$after_image" "$after_release"
	after_syms=$PROFILE_SYMS
fi
for side in before after; do
	side_pick "$side"
	say "$side: $s_kernel ($s_release)${s_args:+, $s_args}"
done

# The payload of a guest of SIDE with COUNT loads: load-1, load-2, ...
payload() {	# side count
	p_file=$OUT/guests/payload-$1-$2.sh
	if [ ! -f "$p_file" ]; then
		side_pick "$1"
		guest_payload "$p_file" load "$2" \
			"$(quote_words "$ARGS")$(quote_words "$s_args")" ||
			die "cannot write $p_file"
	fi
	printf '%s\n' "$p_file"
}

# A fresh guest of SIDE running COUNT loads, numbered from FIRST: their
# results files saved as OUT/SIDE-NN.results.  Booted again when the guest
# fails; fails when every boot failed.
run_guest_loads() {	# side guest-number first count
	side_pick "$1"
	name=$(printf '%s-g%d' "$1" "$2")
	loads=$(printf '%s-%02d' "$1" "$3")
	[ "$4" = 1 ] ||
		loads=$loads..$(printf '%02d' $(($3 + $4 - 1)))
	boot=1
	while :; do
		dir=$OUT/guests/$name
		# the scenarios' program and modules, then the arguments back
		r_args="$1 $2 $3 $4"
		set --
		# shellcheck disable=SC2086 # an option or none
		[ "$E2E" = 0 ] ||
			set -- -f "$E2E_BIN" -D "$OUT/e2e-${r_args%% *}/e2e-modules" \
				$E2E_GUEST
		guest_loads "$s_image" "$s_release" "$OUT/modules-${r_args%% *}" \
			"$(payload "${r_args%% *}" "${r_args##* }")" "$dir" \
			"${r_args##* }" "$s_syms" -a "$s_append" "$@"
		rc=$?
		# shellcheck disable=SC2086 # side and numbers
		set -- $r_args
		if [ $rc = 0 ]; then
			l=1
			while [ $l -le "$4" ]; do
				cp "$dir/load-$l.results" \
					"$OUT/$(printf '%s-%02d' "$1" $(($3 + l - 1))).results" ||
					die "$name: no load-$l.results; its output: $dir/output.txt"
				l=$((l + 1))
			done
			rm -rf "$dir"
			return
		fi
		# The payload itself failed: the module cannot load there.
		[ $rc = 125 ] ||
			guest_failed $rc "$dir" "$name ($loads): a load failed"
		mv "$dir" "$dir.boot$boot"
		if [ $boot -ge $AB_BOOTS ]; then
			say "$name ($loads): the guest failed $boot times (logs in $dir.boot*): left out"
			return 1
		fi
		boot=$((boot + 1))
		say "$name ($loads): the guest failed (log: $dir.boot$((boot - 1))); booting it again ($boot of $AB_BOOTS)"
	done
}

start=$(date +%s)
guests=$(((LOADS + LOADS_PER_GUEST - 1) / LOADS_PER_GUEST))
say "make ab: $LOADS loads per side, $LOADS_PER_GUEST a guest, $VCPUS vCPU(s), in $OUT"
nb=0 na=0 g=0 left_out=
for side in $(ab_order "$guests"); do
	g=$((g + 1))
	if [ "$side" = before ]; then
		nb=$((nb + 1))
		n=$nb
	else
		na=$((na + 1))
		n=$na
	fi
	first=$(((n - 1) * LOADS_PER_GUEST + 1))
	count=$((LOADS - first + 1))
	[ $count -le "$LOADS_PER_GUEST" ] || count=$LOADS_PER_GUEST
	say "guest $g of $((2 * guests)): $side, load$([ $count = 1 ] || echo s) $first$([ $count = 1 ] || echo "-$((first + count - 1))")"
	run_guest_loads "$side" "$n" "$first" "$count" ||
		left_out="$left_out $loads"
done

for side in before after; do
	set -- "$OUT/$side"-*.results
	[ -f "$1" ] || die "no $side load succeeded; logs in $OUT/guests"
done
# A load whose timed windows kept other work (doc/windows.rst)
# is in the table, and said so; make ab fails at the end.
perturbed=$(perturbed_loads "$OUT"/before-*.results "$OUT"/after-*.results)
compare --plot "$OUT/plot.svg" "$OUT"/before-*.results -- \
	"$OUT"/after-*.results >"$OUT/table.txt"
rc=$?
[ $rc -le 1 ] || die "bench-compare failed (exit $rc)"
"$COMPARE" --plot "$OUT/plot.png" "$OUT"/before-*.results -- \
	"$OUT"/after-*.results >/dev/null || die "bench-compare --plot failed"
cat "$OUT/table.txt"
echo
say "$g guests in $(($(date +%s) - start)) s; results, table.txt, plot.svg and plot.png in $OUT"
if [ -n "$perturbed" ]; then
	say "error: timed windows that kept other work, another task's or interrupts (perturbed_chunks):$nl$perturbed"
	exit 1
fi
if [ -n "$left_out" ]; then
	say "error: loads left out after $AB_BOOTS failed boots of their guest:$left_out (the table is of the others)"
	exit 1
fi
exit $rc
