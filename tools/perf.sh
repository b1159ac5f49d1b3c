#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make perf TEST=NAME": perf record -g of one test in a guest, the top of
# perf report --no-children, and a folder with perf.data and what perf
# report needs to read it on this host: the guest kernel's symbols
# (kallsyms, module symbols included, taken while the module was loaded)
# and the module files.
#   TEST    a test name (see modinfo bench_page_pool_simple, tests=)
#   KERNEL  6.12 (default), 6.1, or a kernel image with KDIR its tree
#   ARGS    further module parameters, e.g. "loops=2000000"
#   CPU     QEMU CPU model (default: max)
#   OUT     the folder (default: build/perf-TEST-RELEASE)
# An emulated CPU has no PMU: the samples come from the cpu-clock
# software event.
set -u
. "$(dirname "$0")/lib.sh"

TEST=${TEST:-}
KERNEL=${KERNEL:-6.12}
ARGS=${ARGS:-}
CPU=${CPU:-max}

need_packages make gcc libc6-dev dwarves qemu-system-x86 busybox-static \
	cpio gzip kmod linux-perf
select_kernel "$KERNEL"
mods=$(build_modules) || exit 1
names=$(modinfo -F parm "$mods/bench_page_pool_simple.ko" |
	sed -n 's/^tests:.*names: *//p' | sed 's/ (string)$//')
case " $names " in
*" $TEST "*) [ -n "$TEST" ] ;;
*) false ;;
esac || die "TEST=$TEST: accepted: one test name of: $names"
# shellcheck disable=SC2086
check_module_args ARGS "$mods" $ARGS

OUT=${OUT:-$BENCH_TOP/build/perf-$TEST-$KERNEL_RELEASE}
rm -rf "$OUT"
mkdir -p "$OUT/modules" || die "cannot create $OUT"
payload=$OUT/payload.sh
cat >"$payload" <<EOF
perf record -q -e cpu-clock -g --tail-synthesize -o /tmp/perf.data \\
	modprobe bench_page_pool_simple tests=$TEST $ARGS >/dev/null 2>&1 || {
	dmesg | grep bench_page_pool_simple | tail -n 5
	exit 1
}
gzip -c /proc/kallsyms >/tmp/kallsyms.gz
echo REPORT-BEGIN
perf report -i /tmp/perf.data --stdio --no-children --sort sym 2>/dev/null |
	grep -v -e '^#' -e '^\$' | head -n 40
echo REPORT-END
rmmod bench_page_pool_simple
for f in perf.data kallsyms.gz; do
	echo "FILE-BEGIN \$f"
	base64 /tmp/\$f
	echo "FILE-END"
done
EOF

say "perf record -g of $TEST on $KERNEL_RELEASE, qemu -cpu $CPU"
out=$(sh "$BENCH_TOP/tools/guest.sh" -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" \
	-m "$mods" -c "$CPU" -t 900 -p "$payload" -b "$(command -v perf)" \
	-l "$OUT/console.log")
rc=$?
if [ $rc != 0 ]; then
	printf '%s\n' "$out" | grep -v -e '^FILE-' -e '^[A-Za-z0-9+/=]*$' >&2
	die "the guest run failed (exit $rc); console log: $OUT/console.log"
fi
for f in perf.data kallsyms.gz; do
	printf '%s\n' "$out" | sed -n "/^FILE-BEGIN $f\$/,/^FILE-END\$/p" |
		sed '1d;$d' | base64 -d >"$OUT/$f" ||
		die "cannot get $f out of the guest"
done
gunzip -f "$OUT/kallsyms.gz" || die "bad kallsyms from the guest"
cp "$mods"/*.ko "$OUT/modules/"
rm -f "$OUT/console.log" "$payload"

echo "perf report --no-children, in the guest:"
printf '%s\n' "$out" | sed -n '/^REPORT-BEGIN$/,/^REPORT-END$/p' | sed '1d;$d'
cat >"$OUT/README" <<EOF
perf record -g of $TEST on $KERNEL_RELEASE (qemu -cpu $CPU), $(date -u +%F).
Read it on this host with:
  perf report -i perf.data --kallsyms=kallsyms --no-children
modules/ holds the .ko files that ran, for perf annotate --symfs.
EOF
echo
say "perf.data, kallsyms and modules in $OUT; read with:"
say "  perf report -i $OUT/perf.data --kallsyms=$OUT/kallsyms --no-children"
