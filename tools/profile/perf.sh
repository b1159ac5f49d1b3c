#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make perf TEST=NAME": perf record -g of one test in a guest, the top of
# perf report --no-children, and a folder with perf.data and what perf
# report needs to read it on this host: the guest kernel's symbols
# (kallsyms, module symbols included, taken while the module was loaded)
# and the module files.
#   TEST    a test name (see modinfo bench_page_pool, tests=)
#   KERNEL  6.12 (default), 6.1, or a kernel image with KDIR its tree
#   ARGS    further module parameters, e.g. "loops=2000000"
#   ICOUNT  1: count instructions (QEMU -icount, TCG); 0 (default): time
#           cycles
#   PROFILE 1: instead of perf, the exact profile (tools/profile,
#           ICOUNT=1): the test's functions by instructions per element,
#           with loads, stores, atomics and modelled cache misses
#   PROFILE_ARGS  the profile's caches, e.g. l1d=32K:8,llc=2M:16
#   ACCEL   auto (default), kvm or tcg
#   CPU     QEMU CPU model (default: max; host under KVM)
#   TIMEOUT seconds before the guest counts as hung (default: 900)
#   OUT     new or empty folder (default: build/perf-TEST-RELEASE,
#           replaced)
# An emulated CPU has no PMU: the samples come from the cpu-clock
# software event.
set -u
. "$(dirname "$0")/../lib.sh"
bench_lib guest
. "$BENCH_TOP/results_lib.sh"

# Cycles by default: cpu-clock samples then follow emulated time
# (doc/guests.rst).
PERF_DEFAULT_ICOUNT=0

TEST=${TEST:-}
OUT=${OUT:-}
[ -n "$TEST" ] || usage_die "make perf needs TEST=<a test name> (see modinfo bench_page_pool)"
# make perf takes no VCPUS: its guest gets guest_vars' default, one vCPU
# counting instructions, two timing cycles.
unset VCPUS
guest_vars $PERF_DEFAULT_ICOUNT
[ -z "$OUT" ] || check_new_folder OUT "$OUT"
guest_packages linux-perf
guest_kernel
guest_modules ""
mods=$GUEST_MODS

names=$(modinfo -F parm "$mods/bench_page_pool.ko" |
	sed -n 's/^tests:.*names: *//p' | sed 's/ (string)$//')
# One name: a word of the list, never a run of several.
case $TEST in
*[!A-Za-z0-9_-]*) usage_die "TEST=$TEST: accepted: one test name of: $names" ;;
esac
case " $names " in
*" $TEST "*) ;;
*) usage_die "TEST=$TEST: accepted: one test name of: $names" ;;
esac
check_module_args ARGS "$mods" "$ARGS"

if [ -z "$OUT" ]; then
	OUT=$BENCH_TOP/build/perf-$TEST-$KERNEL_RELEASE
	rm -rf "$OUT"
fi
temp_dir tmp
if [ "$PROFILE" = 1 ]; then
	guest_payload "$tmp/payload.sh" perf - \
		" tests=$(sh_quote "$TEST")$(quote_words "$ARGS")" ||
		die "cannot write the payload"
	profile_symbols "$KERNEL_IMAGE" "$KERNEL_RELEASE"
	say "the exact profile of $TEST on $KERNEL_RELEASE"
	guest_boot "$KERNEL_IMAGE" "$KERNEL_RELEASE" "$mods" "$tmp/payload.sh" \
		"$OUT" || guest_failed $? "$OUT" "the guest run failed"
	need_bench_compare
	why=$(results_check_load "$OUT/perf.results") ||
		die "the guest's results file is not whole: $why"
	profile_merge "$OUT/profile.raw" "$PROFILE_SYMS" "$mods" \
		"$OUT/perf.results" "$OUT/perf.sections" || die "no profile (above)"
	printf '%s on %s, %s\n' "$TEST" "$KERNEL_RELEASE" \
		"$(results_header "$OUT/perf.results" cpu_model)"
	profile_table "$OUT/perf.results" "$TEST" ||
		die "$TEST did not run: $(results_skip_reason "$OUT/perf.results" "$TEST")"
	say "results file with the profile: $OUT/perf.results"
	exit 0
fi
guest_payload_perf "$tmp/payload.sh" \
	" tests=$(sh_quote "$TEST")$(quote_words "$ARGS")" ||
	die "cannot write the payload"

say "perf record -g of $TEST on $KERNEL_RELEASE"
guest_boot "$KERNEL_IMAGE" "$KERNEL_RELEASE" "$mods" "$tmp/payload.sh" "$OUT" \
	-b "$(command -v perf)" || guest_failed $? "$OUT" "the guest run failed"
gunzip -f "$OUT/kallsyms.gz" || die "bad kallsyms from the guest"
mkdir -p "$OUT/modules" && cp "$mods"/*.ko "$OUT/modules/" ||
	die "cannot copy the modules into $OUT/modules"

echo "perf report --no-children, in the guest:"
cat "$OUT/report.txt"
cat >"$OUT/README" <<EOF
perf record -g of $TEST on $KERNEL_RELEASE (qemu $GUEST_ARGS), $(date -u +%F).
Read it on this host with:
  perf report -i perf.data --kallsyms=kallsyms --no-children
modules/ holds the .ko files that ran, for perf annotate --symfs;
perf.results is the module's results file of the run.
EOF
echo
say "perf.data, kallsyms and modules in $OUT; read with:"
say "  perf report -i $OUT/perf.data --kallsyms=$OUT/kallsyms --no-children"
