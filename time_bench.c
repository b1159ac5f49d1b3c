// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench: timing core for in-kernel micro-benchmark loops.
 *
 * Cycles come from the kernel's own accessors: rdtsc_ordered() on x86,
 * which needs no RDTSCP and keeps the read from drifting into the timed
 * loop, get_cycles() elsewhere. Time comes from the monotonic clock.
 */
#define pr_fmt(fmt) "time_bench: " fmt

#include <linux/err.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/timex.h>

#include "time_bench.h"

static __always_inline u64 time_bench_read_cycles(void)
{
#ifdef CONFIG_X86
	return rdtsc_ordered();
#else
	return get_cycles();
#endif
}

/*
 * Kernel counters of retired instructions and core cycles of the task
 * that runs the benchmark.  Only perf_event_read_value() is exported for
 * modules and it may sleep, so the counters are read in process context
 * around a chunk; softirq work run on this task's behalf, as a tasklet
 * at local_bh_enable() is, counts with it.
 */
static struct perf_event *time_bench_pmu_insn;
static struct perf_event *time_bench_pmu_cyc;

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

/**
 * time_bench_pmu_open() - count the current task's instructions and cycles
 *
 * Return: 0, or the error of the counter that could not be made, e.g.
 * -ENOENT where the CPU has no PMU (as in an emulated guest).
 */
int time_bench_pmu_open(void)
{
	struct perf_event *ev;

	ev = time_bench_pmu_event(PERF_COUNT_HW_INSTRUCTIONS);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	time_bench_pmu_insn = ev;
	ev = time_bench_pmu_event(PERF_COUNT_HW_CPU_CYCLES);
	if (IS_ERR(ev)) {
		time_bench_pmu_close();
		return PTR_ERR(ev);
	}
	time_bench_pmu_cyc = ev;
	return 0;
}
EXPORT_SYMBOL_GPL(time_bench_pmu_open);

void time_bench_pmu_close(void)
{
	if (time_bench_pmu_insn)
		perf_event_release_kernel(time_bench_pmu_insn);
	if (time_bench_pmu_cyc)
		perf_event_release_kernel(time_bench_pmu_cyc);
	time_bench_pmu_insn = NULL;
	time_bench_pmu_cyc = NULL;
}
EXPORT_SYMBOL_GPL(time_bench_pmu_close);

/* Fills the PMU part of @stamp; process context, by the opening task.
 * Counts are only valid while the counters were on the PMU all along.
 */
void time_bench_pmu_read(struct time_bench_stamp *stamp)
{
	u64 enabled, running;

	stamp->pmu_valid = false;
	if (!time_bench_pmu_insn || !time_bench_pmu_cyc)
		return;
	stamp->pmu_instructions = perf_event_read_value(time_bench_pmu_insn,
							&enabled, &running);
	if (enabled != running)
		return;
	stamp->pmu_cycles = perf_event_read_value(time_bench_pmu_cyc,
						  &enabled, &running);
	stamp->pmu_valid = enabled == running;
}
EXPORT_SYMBOL_GPL(time_bench_pmu_read);

/* The clock is read outside the cycle count so that the ns interval
 * encloses the cycle interval and neither includes the other's read.
 * The PMU part of a stamp is read apart, see time_bench_pmu_read().
 */
void time_bench_start(struct time_bench_stamp *stamp)
{
	stamp->ns = ktime_get_ns();
	stamp->cycles = time_bench_read_cycles();
}
EXPORT_SYMBOL_GPL(time_bench_start);

void time_bench_stop(struct time_bench_stamp *stamp)
{
	stamp->cycles = time_bench_read_cycles();
	stamp->ns = ktime_get_ns();
}
EXPORT_SYMBOL_GPL(time_bench_stop);

/* The line users grep for; its format must not change. */
void time_bench_print(const char *name, const struct time_bench_record *rec)
{
	struct time_bench_fixed ns_elem = time_bench_ns_per_elem(rec);
	struct time_bench_fixed period;

	period = time_bench_div_fixed(rec->ns, NSEC_PER_SEC, 9, false);
	pr_info("Type:%s Per elem: %llu cycles(tsc) %llu.%03u ns (step:%d) - (measurement period time:%llu.%09u sec time_interval:%llu) - (invoke count:%llu tsc_interval:%llu)\n",
		name, time_bench_cycles_per_elem(rec), ns_elem.whole,
		ns_elem.frac, rec->step, period.whole, period.frac, rec->ns,
		rec->invocations, rec->cycles);
}
EXPORT_SYMBOL_GPL(time_bench_print);

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

/*
 * Cost of one cycle-counter read, of one clock read and of an empty loop
 * iteration, the least of a few tries so that an interrupt in one of
 * them does not count.
 */
void time_bench_measure_overhead(struct time_bench_overhead *ovh)
{
	u64 c0, c1, n0, n1, cyc, clk_cyc, clk_ns;
	int try, i;

	ovh->cycle_read_milli = U64_MAX;
	ovh->clock_read_milli_cycles = U64_MAX;
	ovh->clock_read_milli_ns = U64_MAX;
	ovh->empty_loop_milli_cycles = U64_MAX;
	for (try = 0; try < TIME_BENCH_OVERHEAD_TRIES; try++) {
		c0 = time_bench_read_cycles();
		for (i = 0; i < TIME_BENCH_OVERHEAD_READS; i++)
			time_bench_read_cycles();
		c1 = time_bench_read_cycles();
		cyc = time_bench_milli_per_elem(c1 - c0,
						TIME_BENCH_OVERHEAD_READS);

		n0 = ktime_get_ns();
		c0 = time_bench_read_cycles();
		for (i = 0; i < TIME_BENCH_OVERHEAD_READS; i++)
			ktime_get_ns();
		c1 = time_bench_read_cycles();
		n1 = ktime_get_ns();
		clk_cyc = time_bench_milli_per_elem(c1 - c0,
						    TIME_BENCH_OVERHEAD_READS);
		clk_ns = time_bench_milli_per_elem(n1 - n0,
						   TIME_BENCH_OVERHEAD_READS);

		ovh->cycle_read_milli = min(ovh->cycle_read_milli, cyc);
		ovh->clock_read_milli_cycles =
			min(ovh->clock_read_milli_cycles, clk_cyc);
		ovh->clock_read_milli_ns = min(ovh->clock_read_milli_ns, clk_ns);
		ovh->empty_loop_milli_cycles = min(ovh->empty_loop_milli_cycles,
						   time_bench_empty_loop_milli());
	}
}
EXPORT_SYMBOL_GPL(time_bench_measure_overhead);

/* Prints thousandths with two rounded decimals into @buf; returns @buf. */
const char *time_bench_format_milli(char *buf, size_t size, u64 milli)
{
	struct time_bench_fixed f = time_bench_div_fixed(milli, 1000, 2, true);

	snprintf(buf, size, "%llu.%02u", f.whole, f.frac);
	return buf;
}
EXPORT_SYMBOL_GPL(time_bench_format_milli);

/* The spread line, printed after the legacy line of a repeated test. */
void time_bench_print_summary(const char *name, u32 reps,
			      const struct time_bench_summary *cycles,
			      const struct time_bench_summary *ns)
{
	char v[10][TIME_BENCH_NUM_LEN];

	pr_info("Type:%s Spread over %u reps: cycles/elem min %s median %s mean %s stddev %s max %s - ns/elem min %s median %s mean %s stddev %s max %s\n",
		name, reps,
		time_bench_format_milli(v[0], sizeof(v[0]), cycles->min),
		time_bench_format_milli(v[1], sizeof(v[1]), cycles->median),
		time_bench_format_milli(v[2], sizeof(v[2]), cycles->mean),
		time_bench_format_milli(v[3], sizeof(v[3]), cycles->stddev),
		time_bench_format_milli(v[4], sizeof(v[4]), cycles->max),
		time_bench_format_milli(v[5], sizeof(v[5]), ns->min),
		time_bench_format_milli(v[6], sizeof(v[6]), ns->median),
		time_bench_format_milli(v[7], sizeof(v[7]), ns->mean),
		time_bench_format_milli(v[8], sizeof(v[8]), ns->stddev),
		time_bench_format_milli(v[9], sizeof(v[9]), ns->max));
}
EXPORT_SYMBOL_GPL(time_bench_print_summary);

MODULE_DESCRIPTION("Cycle and nanosecond timing core for in-kernel benchmarks");
MODULE_LICENSE("GPL");
