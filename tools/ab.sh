#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make ab": compares two kernels (or one kernel with two command lines or
# two sets of module parameters) with LOADS loads of the benchmark per
# side, each load in a guest of its own, and prints bench-compare's table.
#
#   BEFORE, AFTER   6.12 or 6.1 (Debian's kernels), or the path to a
#                   kernel image; BEFORE_KDIR / AFTER_KDIR its build tree
#   BEFORE_APPEND, AFTER_APPEND  extra kernel command line of that side
#   BEFORE_ARGS, AFTER_ARGS      module parameters of that side, after ARGS
#   ARGS       module parameters of both sides
#   LOADS      loads per side (default: AB_DEFAULT_LOADS)
#   CPU        QEMU CPU model (default: max)
#   VCPUS      the guests' virtual CPUs (default: 2)
#   FAIL_ABOVE exit 1 when a test got slower by more than this many
#              percent with a "change" verdict (bench-compare --fail-above)
#   ALPHA      significance level of the table (default: bench-compare's)
#   OUT        folder for the results files, the table and the plot
#              (default: build/ab-YYYYmmdd-HHMMSS)
#   TIMEOUT    seconds before one guest counts as hung (default: 900)
#
# Guests run one after the other in the order B A A B, B A A B, ...
# (see ab_order), so that a drift of the host's speed over the run adds
# the same to both sides.
set -u
. "$(dirname "$0")/lib.sh"

# Loads per side: 8 reach a Holm-corrected 0.05 over tables of up to 40
# rows (2/C(16,8) = 0.00016); see README.rst for the measurement.
AB_DEFAULT_LOADS=8

BEFORE=${BEFORE:-}
AFTER=${AFTER:-}
LOADS=${LOADS:-$AB_DEFAULT_LOADS}
ARGS=${ARGS:-}
CPU=${CPU:-max}
VCPUS=${VCPUS:-2}
TIMEOUT=${TIMEOUT:-900}
FAIL_ABOVE=${FAIL_ABOVE:-}
ALPHA=${ALPHA:-}

[ -n "$BEFORE" ] && [ -n "$AFTER" ] ||
	die "make ab needs BEFORE= and AFTER= (6.12, 6.1, or a kernel image with BEFORE_KDIR=/AFTER_KDIR=)"
case $LOADS in
'' | *[!0-9]*) die "LOADS=$LOADS: accepted: a whole number of loads per side, 1 or more" ;;
esac
[ "$LOADS" -ge 1 ] ||
	die "LOADS=$LOADS: accepted: a whole number of loads per side, 1 or more"
if [ -n "$FAIL_ABOVE" ]; then
	printf '%s\n' "$FAIL_ABOVE" | grep -Eq '^[0-9]+(\.[0-9]+)?$' ||
		die "FAIL_ABOVE=$FAIL_ABOVE: accepted: a percentage, e.g. 5"
fi
need_packages make gcc libc6-dev dwarves qemu-system-x86 busybox-static \
	cpio gzip kmod gnuplot-nox
make -s -C "$BENCH_TOP/tools/compare" >&2 || die "cannot build bench-compare"

OUT=${OUT:-$BENCH_TOP/build/ab-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT" || die "cannot create $OUT"

# Per side: the kernel, its modules, its command line and parameters.
for side in before after; do
	case $side in
	before) kernel=$BEFORE kdir=${BEFORE_KDIR:-} side_args=${BEFORE_ARGS:-} ;;
	after) kernel=$AFTER kdir=${AFTER_KDIR:-} side_args=${AFTER_ARGS:-} ;;
	esac
	KDIR=$kdir
	select_kernel "$kernel"
	mods=$(build_modules "$BENCH_TOP/build/ab-$side") || exit 1
	# shellcheck disable=SC2086
	check_module_args ARGS "$mods" $ARGS
	# shellcheck disable=SC2086
	check_module_args "$(echo $side | tr a-z A-Z)_ARGS" "$mods" $side_args
	eval "${side}_image=\$KERNEL_IMAGE ${side}_release=\$KERNEL_RELEASE"
	eval "${side}_mods=\$mods"
	say "$side: $kernel ($KERNEL_RELEASE)"
done

# One load in a fresh guest: the module with the side's parameters, its
# results file saved as OUT/SIDE-NN.txt.
run_load() {	# side number
	eval "image=\$${1}_image release=\$${1}_release mods=\$${1}_mods"
	eval "append=\${$(echo "$1" | tr a-z A-Z)_APPEND:-}"
	eval "side_args=\${$(echo "$1" | tr a-z A-Z)_ARGS:-}"
	name=$(printf '%s-%02d' "$1" "$2")
	payload=$OUT/payload-$1.sh
	cat >"$payload" <<EOF
modprobe bench_page_pool_simple $ARGS $side_args || {
	dmesg | grep bench_page_pool_simple | tail -n 5
	exit 1
}
echo RESULTS-BEGIN
cat /sys/kernel/debug/bench_page_pool_simple/results
echo RESULTS-END
rmmod bench_page_pool_simple
EOF
	out=$(sh "$BENCH_TOP/tools/guest.sh" -k "$image" -r "$release" \
		-m "$mods" -c "$CPU" -s "$VCPUS" -t "$TIMEOUT" -p "$payload" \
		-a "$append" -l "$OUT/$name.log")
	rc=$?
	if [ $rc != 0 ]; then
		printf '%s\n' "$out" >&2
		die "$name failed (exit $rc); console log: $OUT/$name.log"
	fi
	printf '%s\n' "$out" | sed -n '/^RESULTS-BEGIN$/,/^RESULTS-END$/p' |
		sed '1d;$d' >"$OUT/$name.txt"
	grep -q '^test: ' "$OUT/$name.txt" ||
		die "$name: no results; console log: $OUT/$name.log"
	rm -f "$OUT/$name.log"
}

start=$(date +%s)
say "make ab: $LOADS loads per side, one guest each, in $OUT"
nb=0 na=0 g=0
for side in $(ab_order "$LOADS"); do
	g=$((g + 1))
	if [ "$side" = before ]; then
		nb=$((nb + 1))
		n=$nb
	else
		na=$((na + 1))
		n=$na
	fi
	say "guest $g of $((2 * LOADS)): $side load $n"
	run_load "$side" "$n"
done

compare_args=
[ -n "$ALPHA" ] && compare_args="--alpha $ALPHA"
[ -n "$FAIL_ABOVE" ] && compare_args="$compare_args --fail-above $FAIL_ABOVE"
# shellcheck disable=SC2086
"$BENCH_TOP/tools/compare/bench-compare" $compare_args \
	--plot "$OUT/plot.svg" "$OUT"/before-*.txt -- "$OUT"/after-*.txt \
	>"$OUT/table.txt"
rc=$?
[ $rc -le 1 ] || die "bench-compare failed (exit $rc)"
"$BENCH_TOP/tools/compare/bench-compare" --plot "$OUT/plot.png" \
	"$OUT"/before-*.txt -- "$OUT"/after-*.txt >/dev/null ||
	die "bench-compare --plot failed"
cat "$OUT/table.txt"
echo
say "$((2 * LOADS)) guests in $(( $(date +%s) - start )) s; results, table.txt, plot.svg and plot.png in $OUT"
exit $rc
