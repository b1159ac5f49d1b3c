#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make run": builds the module for a kernel, boots that kernel under
# QEMU, loads the module with ARGS and prints a table of the results.
#   KERNEL  6.12 (default) or 6.1: Debian 12's kernels; 7.2 or newest
#           (the newest Debian unstable has): unstable's, fetched as
#           needed; or the path to a kernel image, with KDIR its tree
#   ARGS    module parameters, e.g. "loops=1000000 run_flags=0x70"
#   ICOUNT  1: count instructions (QEMU -icount, TCG); 0 (default): time
#           cycles
#   NOAPICTIMER  0: counting instructions, boot with the local APIC
#           timer on (default 1: noapictimer; doc/windows.rst)
#   PROFILE 1: the exact profile of each test (tools/profile; ICOUNT=1)
#   PROFILE_ARGS  the profile's caches, e.g. l1d=32K:8,llc=2M:16
#           (doc/profile.rst; checked by the plugin before any guest)
#   ACCEL   auto (default: KVM if it can run the guest, else TCG), kvm,
#           tcg
#   CPU     QEMU CPU model (default: max; host under KVM)
#   VCPUS   the guest's virtual CPUs (default: 2 timing cycles, 1
#           counting instructions); the cross-CPU test with
#           return_cpus=N needs N + 1
#   TIMEOUT seconds before the guest counts as hung (default: 900)
#   E2E     1: the end-to-end scenarios (tools/e2e) after the module's
#           tests; or their names, comma-separated; 0 (default): none
#   E2E_PACKETS, E2E_REPS  their packets per repetition, repetitions
#   RESULTS where to keep the results file (default:
#           build/results-RELEASE-CPU[-icount].results), for
#           bench-compare, which reads *.results from a folder
# Exit status 0 only if the module loaded, every selected test
# reported and passed the kselftest's checks of its load.
set -u
. "$(dirname "$0")/../lib.sh"
bench_lib guest e2e
. "$BENCH_TOP/results_lib.sh"

# Cycles by default: faster, and every test with real concurrency
# (doc/guests.rst).
RUN_DEFAULT_ICOUNT=0

RESULTS=${RESULTS:-}
# cp would put the file into a folder and the report name the folder
[ -z "$RESULTS" ] || [ ! -d "$RESULTS" ] ||
	usage_die "RESULTS=$RESULTS: a folder; accepted: the path of the results file to write"
guest_vars $RUN_DEFAULT_ICOUNT
e2e_vars
guest_packages
guest_kernel
guest_modules "" ARGS "$ARGS"

suffix=$GUEST_CPU
[ "$ICOUNT" = 1 ] && suffix=$suffix-icount
RESULTS=${RESULTS:-$BENCH_TOP/build/results-$KERNEL_RELEASE-$suffix.results}
mkdir -p "$(dirname "$RESULTS")" || die "cannot create the folder of $RESULTS"
out=$BENCH_TOP/build/run-$KERNEL_RELEASE-$suffix
rm -rf "$out"
temp_dir tmp
guest_payload "$tmp/payload.sh" run - "$(quote_words "$ARGS")" ||
	die "cannot write the payload"
set --
if [ "$E2E" != 0 ]; then
	e2e_modules "$tmp" "$KERNEL_RELEASE" "$KDIR"
	# shellcheck disable=SC2086 # an option or none
	set -- -f "$E2E_BIN" -D "$tmp/e2e-modules" $E2E_GUEST
fi

[ "$PROFILE" = 1 ] && profile_symbols "$KERNEL_IMAGE" "$KERNEL_RELEASE"
say "running bench_page_pool ${ARGS:+($ARGS) }on $KERNEL_RELEASE"
guest_boot "$KERNEL_IMAGE" "$KERNEL_RELEASE" "$GUEST_MODS" \
	"$tmp/payload.sh" "$out" "$@" || guest_failed $? "$out" "the run failed"
results=$out/run.results
# The guest's file is read as untrusted text, its words never globbed.
need_bench_compare
set -f
why=$(results_check_load "$results") ||
	die "the guest's results file is not whole: $why; console log: $out/console.log"
if [ "$PROFILE" = 1 ]; then
	profile_merge "$out/profile.raw" "$PROFILE_SYMS" "$GUEST_MODS" \
		"$results" "$out/run.sections" ||
		die "no profile: the plugin's output does not match the load (above)"
fi
cp "$results" "$RESULTS" || die "cannot write $RESULTS"

for key in kernel cpu_model clock accel runtime params; do
	value=$(results_header "$results" $key)
	[ -z "$value" ] || printf '%s: %s\n' "$key" "$value"
done

# Under instructions ns agree with them (one ns per instruction): no
# column of their own.
clock=$(results_header "$results" clock)
unit=cycles
[ "$clock" = instructions ] && unit=instr
row() {	# test context reps-x-loops value stddev ns ns-stddev path
	if [ "$clock" = instructions ]; then
		printf '%-34s %-8s %14s %12s %9s  %s\n' "$1" "$2" "$3" "$4" "$5" "$8"
	else
		printf '%-34s %-8s %14s %12s %9s %10s %9s  %s\n' "$@"
	fi
}
row test context "reps x loops" "$unit/elem" stddev ns/elem stddev path
missing=
for name in $(results_tests "$results"); do
	reason=$(results_skip_reason "$results" "$name")
	if [ -n "$reason" ]; then
		printf '%s\n' "$name skipped: $reason"
		continue
	fi
	field() {
		results_field "$results" "$name" "$1"
	}
	reps=$(field reps)
	if [ -z "$reps" ]; then
		missing="$missing $name"
		continue
	fi
	row "$name" "$(field context)" "$reps x $(field loops)" \
		"$(field cycles_median)" "$(field cycles_stddev)" \
		"$(field ns_median)" "$(field ns_stddev)" "$(field path)"
done
if [ "$PROFILE" = 1 ]; then
	printf '\n%s\n' "exact profile, per element (QEMU -icount, tools/profile; $(results_header "$results" profile)):"
	profile_summary "$results"
fi
overhead=$(results_header "$results" overhead)
[ -z "$overhead" ] || printf 'timer overhead: %s\n' "$overhead"
printf '\n'
grep 'time_bench: Type:' "$out/run.dmesg" | sed 's/^\[[^]]*\] //'
printf '\n'

# What the kselftest checks on a load (path, counters, relations where
# the clock ranks paths), applied to this one; the guest runner already
# failed on any kernel warning.
sh "$BENCH_TOP/test_bench_page_pool.sh" -c "$results" >"$out/checks.ktap" 2>&1
checks_rc=$?
grep '^not ok ' "$out/checks.ktap" >&2
printf 'checks (test_bench_page_pool.sh -c, %s): %s\n' "$out/checks.ktap" \
	"$(sed -n 's/^# Totals: pass:\([0-9]*\) fail:\([0-9]*\) .* skip:\([0-9]*\) .*/\1 passed, \2 failed, \3 skipped/p' "$out/checks.ktap")"
say "results file: $RESULTS"
say "compare two runs: tools/compare/bench-compare BEFORE.results AFTER.results"

# Every test the module selected must have reported, or said why this
# kernel cannot run it, and passed its checks.
[ -n "$(results_tests "$results")" ] ||
	die "the results file names no selected test; console log: $out/console.log"
[ -z "$missing" ] ||
	die "selected but did not report:$missing; console log: $out/console.log"
[ $checks_rc = 0 ] ||
	die "a check failed (exit $checks_rc): $out/checks.ktap"
