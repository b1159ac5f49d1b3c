// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench's counters: what the cycle counter counts on this machine
 * (cycles, or instructions under QEMU -icount), what reading it and the
 * clock costs, and the PMU's instructions and cycles around a chunk.
 */
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/minmax.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "time_bench_compat.h"
#include "time_bench_internal.h"

/*
 * time_bench_instrument() - the accelerator and the cycle counter's unit
 * @ins: filled in; the signature as a single token ('_' for anything
 *	 but letters and digits, as in "Microsoft_Hv")
 *
 * Only x86 tells: other architectures say no hypervisor and cycles.
 */
void time_bench_instrument(struct time_bench_instrument *ins)
{
	char sig[TIME_BENCH_SIG_LEN] = { };
	bool hypervisor = false;
	u32 khz = 0;
	int i;

#ifdef CONFIG_X86
	hypervisor = boot_cpu_has(X86_FEATURE_HYPERVISOR);
	if (hypervisor) {
		u32 eax, regs[3];

		cpuid(0x40000000, &eax, &regs[0], &regs[1], &regs[2]);
		memcpy(sig, regs, sizeof(sig));
	}
	khz = tsc_khz;
#endif
	ins->accel = time_bench_accel_of(hypervisor, sig);
	ins->clock = time_bench_clock_of(ins->accel, khz);
	if (!hypervisor) {
		strscpy(ins->signature, "none", sizeof(ins->signature));
		return;
	}
	for (i = 0; i < TIME_BENCH_SIG_LEN && sig[i]; i++)
		ins->signature[i] = isalnum(sig[i]) ? sig[i] : '_';
	ins->signature[i] = '\0';
	if (!i)
		strscpy(ins->signature, "unknown", sizeof(ins->signature));
}

/*
 * Kernel counters of retired instructions and core cycles of the task
 * that runs the benchmark.  Only perf_event_read_value() is exported for
 * modules and it may sleep, so the counters are read in process context
 * around a chunk; softirq work run on this task's behalf, as a tasklet
 * at local_bh_enable() is, counts with it.
 */
static struct perf_event *time_bench_pmu_event(u64 config)
{
#ifdef CONFIG_PERF_EVENTS
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = config,
		.pinned = 1,
		.exclude_user = 1,
		.exclude_hv = 1,
	};

	return perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
#else
	return ERR_PTR(-EOPNOTSUPP);
#endif
}

void time_bench_pmu_close(struct time_bench_state *st)
{
	if (st->pmu_insn)
		perf_event_release_kernel(st->pmu_insn);
	if (st->pmu_cyc)
		perf_event_release_kernel(st->pmu_cyc);
	st->pmu_insn = NULL;
	st->pmu_cyc = NULL;
}

/* 0, or the error of the counter that could not be made, e.g. -ENOENT
 * where the CPU has no PMU (as in an emulated guest).
 */
int time_bench_pmu_open(struct time_bench_state *st)
{
	struct perf_event *ev;

	ev = time_bench_pmu_event(PERF_COUNT_HW_INSTRUCTIONS);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	st->pmu_insn = ev;
	ev = time_bench_pmu_event(PERF_COUNT_HW_CPU_CYCLES);
	if (IS_ERR(ev)) {
		time_bench_pmu_close(st);
		return PTR_ERR(ev);
	}
	st->pmu_cyc = ev;
	return 0;
}

/* Fills the PMU part of @stamp; process context, by the opening task.
 * Counts are only valid while the counters were on the PMU all along.
 */
void time_bench_pmu_read(const struct time_bench_state *st,
			 struct time_bench_stamp *stamp)
{
	u64 enabled, running;

	stamp->pmu_valid = false;
	if (!st->pmu_insn || !st->pmu_cyc)
		return;
	stamp->pmu_instructions = perf_event_read_value(st->pmu_insn,
							&enabled, &running);
	if (enabled != running)
		return;
	stamp->pmu_cycles = perf_event_read_value(st->pmu_cyc, &enabled,
						  &running);
	stamp->pmu_valid = enabled == running;
}

#define TIME_BENCH_OVERHEAD_READS	1000
#define TIME_BENCH_OVERHEAD_LOOPS	65536
#define TIME_BENCH_OVERHEAD_TRIES	5

static u64 time_bench_empty_loop_milli(void)
{
	u64 c0, c1;
	int i;

	c0 = time_bench_read_cycles();
	for (i = 0; i < TIME_BENCH_OVERHEAD_LOOPS; i++)
		barrier();
	c1 = time_bench_read_cycles();
	return time_bench_milli_per_elem(c1 - c0, TIME_BENCH_OVERHEAD_LOOPS);
}

/* Cycles (and ns) per read of the cycle counter and of the clock. */
static void time_bench_read_costs(u64 *cycle_read, u64 *clock_cycles,
				  u64 *clock_ns)
{
	u64 c0, c1, n0, n1;
	int i;

	c0 = time_bench_read_cycles();
	for (i = 0; i < TIME_BENCH_OVERHEAD_READS; i++)
		time_bench_read_cycles();
	c1 = time_bench_read_cycles();
	*cycle_read = time_bench_milli_per_elem(c1 - c0,
						TIME_BENCH_OVERHEAD_READS);

	n0 = ktime_get_ns();
	c0 = time_bench_read_cycles();
	for (i = 0; i < TIME_BENCH_OVERHEAD_READS; i++)
		ktime_get_ns();
	c1 = time_bench_read_cycles();
	n1 = ktime_get_ns();
	*clock_cycles = time_bench_milli_per_elem(c1 - c0,
						  TIME_BENCH_OVERHEAD_READS);
	*clock_ns = time_bench_milli_per_elem(n1 - n0,
					      TIME_BENCH_OVERHEAD_READS);
}

/*
 * Cost of one cycle-counter read, of one clock read and of an empty loop
 * iteration, the least of a few tries so that an interrupt in one of
 * them does not count.
 */
void time_bench_measure_overhead(struct time_bench_overhead *ovh)
{
	u64 cyc, clk_cyc, clk_ns;
	int try;

	ovh->cycle_read_milli = U64_MAX;
	ovh->clock_read_milli_cycles = U64_MAX;
	ovh->clock_read_milli_ns = U64_MAX;
	ovh->empty_loop_milli_cycles = U64_MAX;
	for (try = 0; try < TIME_BENCH_OVERHEAD_TRIES; try++) {
		time_bench_read_costs(&cyc, &clk_cyc, &clk_ns);
		ovh->cycle_read_milli = min(ovh->cycle_read_milli, cyc);
		ovh->clock_read_milli_cycles =
			min(ovh->clock_read_milli_cycles, clk_cyc);
		ovh->clock_read_milli_ns = min(ovh->clock_read_milli_ns,
					       clk_ns);
		ovh->empty_loop_milli_cycles =
			min(ovh->empty_loop_milli_cycles,
			    time_bench_empty_loop_milli());
	}
}
