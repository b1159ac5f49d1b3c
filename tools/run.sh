#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make run": builds the module for a kernel, boots that kernel under
# QEMU, loads the module with ARGS and prints a table of the results.
#   KERNEL  6.12 (default) or 6.1: Debian's kernels, fetched as needed;
#           or the path to a kernel image, with KDIR its build tree
#   ARGS    module parameters, e.g. "loops=1000000 run_flags=0x70"
#   CPU     QEMU CPU model (default: max)
#   VCPUS   the guest's virtual CPUs (default: 2); the cross-CPU test
#           with return_cpus=N needs N + 1
#   TIMEOUT seconds before the guest counts as hung (default: 900)
#   RESULTS where to keep the results file (default:
#           build/results-RELEASE-CPU.txt), for bench-compare
# Exit status 0 only if the module loaded and every selected test
# reported.
set -u
. "$(dirname "$0")/lib.sh"

KERNEL=${KERNEL:-6.12}
ARGS=${ARGS:-}
CPU=${CPU:-max}
VCPUS=${VCPUS:-2}
TIMEOUT=${TIMEOUT:-900}
RESULTS=${RESULTS:-}

need_packages make gcc libc6-dev dwarves qemu-system-x86 busybox-static \
	cpio gzip kmod
select_kernel "$KERNEL"
mods=$(build_modules) || exit 1
# shellcheck disable=SC2086
check_module_args ARGS "$mods" $ARGS

mkdir -p "$BENCH_TOP/build"
payload=$BENCH_TOP/build/run-payload.sh
log=$BENCH_TOP/build/run-$KERNEL_RELEASE.log
cat >"$payload" <<EOF
modprobe bench_page_pool_simple $ARGS || {
	dmesg | grep bench_page_pool_simple | tail -n 5
	exit 1
}
echo "RESULTS-BEGIN"
cat /sys/kernel/debug/bench_page_pool_simple/results
echo "RESULTS-END"
dmesg | grep 'time_bench: Type:' | sed 's/^\[[^]]*\] //'
rmmod bench_page_pool_simple
EOF

say "running bench_page_pool_simple ${ARGS:+($ARGS) }on $KERNEL_RELEASE, qemu -cpu $CPU"
out=$(sh "$BENCH_TOP/tools/guest.sh" -k "$KERNEL_IMAGE" -r "$KERNEL_RELEASE" \
	-m "$mods" -c "$CPU" -s "$VCPUS" -t "$TIMEOUT" -p "$payload" -l "$log")
rc=$?
if [ $rc != 0 ]; then
	printf '%s\n' "$out"
	die "the run failed (exit $rc); console log: $log"
fi

results=$(printf '%s\n' "$out" | sed -n '/^RESULTS-BEGIN$/,/^RESULTS-END$/p' |
	  sed '1d;$d')
RESULTS=${RESULTS:-$BENCH_TOP/build/results-$KERNEL_RELEASE-$CPU.txt}
printf '%s\n' "$results" >"$RESULTS"
printf '%s\n' "$results" | sed -n 's/^\(kernel\|cpu_model\|params\|runtime\): /\1: /p'
printf '%s\n' "$results" | awk '
	BEGIN {
		printf "%-34s %-8s %14s %12s %9s %10s %9s  %s\n", "test",
		       "context", "reps x loops", "cycles/elem", "stddev",
		       "ns/elem", "stddev", "path"
	}
	$1 == "test:" {
		delete f
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			f[kv[1]] = substr($i, length(kv[1]) + 2)
		}
		printf "%-34s %-8s %14s %12s %9s %10s %9s  %s\n", f["name"],
		       f["context"], f["reps"] " x " f["loops"],
		       f["cycles_median"], f["cycles_stddev"], f["ns_median"],
		       f["ns_stddev"], f["path"]
	}'
printf '%s\n' "$results" | sed -n 's/^skip: name=\([^ ]*\) .* reason=/\1 skipped: /p'
printf '%s\n' "$results" | sed -n 's/^overhead: /timer overhead: /p'
echo
printf '%s\n' "$out" | grep '^time_bench: Type:'
echo
say "results file: $RESULTS"
say "compare two runs: tools/compare/bench-compare BEFORE.txt AFTER.txt"

# Every test the module selected must have reported, or said why this
# kernel cannot run it.
selected=$(printf '%s\n' "$results" | sed -n 's/^selected: //p' | tr ',' ' ')
for name in $selected; do
	printf '%s\n' "$results" |
		grep -Eq "^(test|skip): name=$name " ||
		die "$name was selected but did not report; console log: $log"
done
[ -n "$selected" ] || die "the results file names no selected test; console log: $log"
