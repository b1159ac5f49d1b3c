/* SPDX-License-Identifier: GPL-2.0 */
/*
 * time_bench's arithmetic: exact fixed-point division, the sums of a
 * measurement's chunks, chunk sizing, the spread of repetitions and what
 * the machine's cycle counter counts.  It needs only <linux/types.h>,
 * <linux/math64.h> and <linux/string.h>, so that tests/ builds
 * time_bench_math.c in user space, the same source the module builds.
 */
#ifndef _TIME_BENCH_MATH_H
#define _TIME_BENCH_MATH_H

#include <linux/types.h>

/* Sums over all chunks of one measurement. */
struct time_bench_record {
	u64 invocations;	/* loop iterations timed */
	u64 cycles;		/* cycle-counter ticks */
	u64 ns;			/* monotonic nanoseconds */
	u32 chunks;		/* timed stretches added up */
	int step;		/* legacy "step" field of the result line */
	/* PMU counts, from the chunks whose both PMU reads were valid */
	u64 pmu_invocations;
	u64 pmu_instructions;
	u64 pmu_cycles;
	u32 pmu_skipped_chunks;	/* no PMU, or counts not trustworthy */
};

/* Timestamps taken by time_bench_start() and time_bench_stop(). */
struct time_bench_stamp {
	u64 cycles;
	u64 ns;
	u64 pmu_instructions;
	u64 pmu_cycles;
	bool pmu_valid;
};

/* A non-negative fixed-point number: whole + frac / 10^digits. */
struct time_bench_fixed {
	u64 whole;
	u32 frac;
};

#define TIME_BENCH_MAX_DIGITS 9

struct time_bench_fixed time_bench_div_fixed(u64 num, u64 den,
					     unsigned int digits, bool round);
u64 time_bench_cycles_per_elem(const struct time_bench_record *rec);
struct time_bench_fixed
time_bench_ns_per_elem(const struct time_bench_record *rec);
void time_bench_account(struct time_bench_record *rec,
			const struct time_bench_stamp *start,
			const struct time_bench_stamp *stop, u64 invocations);
u64 time_bench_next_chunk(u64 loops, u64 ns, u64 target_ns, u64 remaining);
u64 time_bench_milli_per_elem(u64 total, u64 invocations);
u64 time_bench_isqrt(u64 x);

/* Spread of repeated measurements, in the unit of the input values. */
struct time_bench_summary {
	u64 min;
	u64 median;	/* mean of the two middle values for an even count */
	u64 mean;
	u64 stddev;	/* sample standard deviation, 0 for one value */
	u64 max;
};

/* At most TIME_BENCH_MAX_REPS (time_bench.h) values */
struct time_bench_summary time_bench_summarize(u64 *vals, u32 n);

/*
 * The instrument: what the cycle counter counts.  Under QEMU's TCG with
 * "-icount shift=0" the TSC advances one tick per guest instruction and
 * the kernel measures it at 1 GHz, so "cycles" are instructions there.
 */
enum time_bench_accel {
	TIME_BENCH_ACCEL_NONE,		/* no hypervisor bit: bare metal */
	TIME_BENCH_ACCEL_KVM,
	TIME_BENCH_ACCEL_TCG,
	TIME_BENCH_ACCEL_OTHER,
};

enum time_bench_clock {
	TIME_BENCH_CLOCK_CYCLES,
	TIME_BENCH_CLOCK_INSTRUCTIONS,
};

#define TIME_BENCH_SIG_LEN	12	/* CPUID 0x40000000 signature */
#define TIME_BENCH_ICOUNT_KHZ	1000000	/* one tick per ns */

enum time_bench_accel
time_bench_accel_of(bool hypervisor, const char sig[TIME_BENCH_SIG_LEN]);
enum time_bench_clock
time_bench_clock_of(enum time_bench_accel accel, u32 tsc_khz);
const char *time_bench_accel_name(enum time_bench_accel accel);
const char *time_bench_clock_name(enum time_bench_clock clock);

#endif /* _TIME_BENCH_MATH_H */
