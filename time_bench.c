// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench: timing core for in-kernel micro-benchmark loops.
 *
 * Cycles come from the kernel's own accessors: rdtsc_ordered() on x86,
 * which needs no RDTSCP and keeps the read from drifting into the timed
 * loop, get_cycles() elsewhere. Time comes from the monotonic clock.
 */
#define pr_fmt(fmt) "time_bench: " fmt

#include <linux/module.h>
#include <linux/printk.h>
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

/* The clock is read outside the cycle count so that the ns interval
 * encloses the cycle interval and neither includes the other's read.
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

MODULE_DESCRIPTION("Cycle and nanosecond timing core for in-kernel benchmarks");
MODULE_LICENSE("GPL");
