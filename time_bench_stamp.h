/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A chunk's two stamps, for the files that time chunks (core, cpus):
 * inline in each, so that nothing but the stamps' own reads lies
 * between them and the body (a global function would begin with an
 * ENDBR under IBT, and a call is one more thing to time).
 */
#ifndef _TIME_BENCH_STAMP_H
#define _TIME_BENCH_STAMP_H

#include <linux/timekeeping.h>

#include "time_bench_internal.h"

/* The clock is read outside the cycle count so that the ns interval
 * encloses the cycle interval and neither includes the other's read.
 * The PMU part of a stamp is read apart, see time_bench_pmu_read().
 */
static __always_inline void time_bench_start(struct time_bench_stamp *stamp)
{
	stamp->ns = ktime_get_ns();
	stamp->cycles = time_bench_read_cycles();
}

static __always_inline void time_bench_stop(struct time_bench_stamp *stamp)
{
	stamp->cycles = time_bench_read_cycles();
	stamp->ns = ktime_get_ns();
}

#endif /* _TIME_BENCH_STAMP_H */
