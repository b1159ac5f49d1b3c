/* SPDX-License-Identifier: GPL-2.0 */
/*
 * time_bench: timing core for in-kernel micro-benchmark loops.
 *
 * A measurement is a sum of chunks: each chunk reads the cycle counter
 * and the monotonic clock before and after a run of loop iterations.
 * The helpers below that turn those sums into per-element figures are
 * pure arithmetic; they only need <linux/types.h> and <linux/math64.h>
 * so that tests/ can build this header in user space.
 */
#ifndef _TIME_BENCH_H
#define _TIME_BENCH_H

#include <linux/types.h>
#include <linux/math64.h>

/* Sums over all chunks of one measurement. */
struct time_bench_record {
	u64 invocations;	/* loop iterations timed */
	u64 cycles;		/* cycle-counter ticks */
	u64 ns;			/* monotonic nanoseconds */
	u32 chunks;		/* timed stretches added up */
	int step;		/* legacy "step" field of the result line */
};

/* Timestamps taken by time_bench_start(). */
struct time_bench_stamp {
	u64 cycles;
	u64 ns;
};

/* A non-negative fixed-point number: whole + frac / 10^digits. */
struct time_bench_fixed {
	u64 whole;
	u32 frac;
};

#define TIME_BENCH_MAX_DIGITS 9

/*
 * Next decimal digit of rem / den, for rem < den: returns (rem * 10) / den
 * and leaves the remainder in *rem.  Adds rem ten times modulo den, so
 * no intermediate value exceeds den and any u64 works.
 */
static inline u32 time_bench_next_digit(u64 *rem, u64 den)
{
	u64 acc = 0;
	u32 digit = 0;
	int i;

	for (i = 0; i < 10; i++) {
		if (acc >= den - *rem) {
			acc -= den - *rem;
			digit++;
		} else {
			acc += *rem;
		}
	}
	*rem = acc;
	return digit;
}

/**
 * time_bench_div_fixed() - divide with decimal fraction digits
 * @num: dividend
 * @den: divisor; zero gives zero, so an empty record prints as 0
 * @digits: fractional decimal digits wanted, 0..TIME_BENCH_MAX_DIGITS
 * @round: round half up on the last digit instead of truncating
 *
 * Exact for every u64 @num and @den.
 *
 * Return: the quotient as whole part and @digits fraction digits.
 */
static inline struct time_bench_fixed
time_bench_div_fixed(u64 num, u64 den, unsigned int digits, bool round)
{
	struct time_bench_fixed res = { 0, 0 };
	u32 scale = 1;
	u64 rem;
	unsigned int i;

	if (!den)
		return res;
	if (digits > TIME_BENCH_MAX_DIGITS)
		digits = TIME_BENCH_MAX_DIGITS;

	res.whole = div64_u64_rem(num, den, &rem);
	for (i = 0; i < digits; i++) {
		res.frac = res.frac * 10 + time_bench_next_digit(&rem, den);
		scale *= 10;
	}
	if (round && time_bench_next_digit(&rem, den) >= 5)
		res.frac++;
	if (res.frac >= scale) {
		res.frac -= scale;
		res.whole++;
	}
	return res;
}

/* Whole cycles per element, truncated as the legacy line prints them. */
static inline u64 time_bench_cycles_per_elem(const struct time_bench_record *rec)
{
	return time_bench_div_fixed(rec->cycles, rec->invocations, 0, false).whole;
}

/* Nanoseconds per element with three truncated digits (legacy line). */
static inline struct time_bench_fixed
time_bench_ns_per_elem(const struct time_bench_record *rec)
{
	return time_bench_div_fixed(rec->ns, rec->invocations, 3, false);
}

/* Adds one chunk of @invocations timed from @start to @stop to @rec. */
static inline void time_bench_account(struct time_bench_record *rec,
				      const struct time_bench_stamp *start,
				      const struct time_bench_stamp *stop,
				      u64 invocations)
{
	rec->invocations += invocations;
	rec->cycles += stop->cycles - start->cycles;
	rec->ns += stop->ns - start->ns;
	rec->chunks++;
}

/*
 * Chunk length to aim for next: @target_ns worth of iterations at the
 * speed of the chunk just measured (@loops in @ns), grown at most 16-fold
 * per step so one lucky chunk cannot produce an overlong one, at least 1
 * and at most @remaining.  Zero @loops or @ns count as 1; results beyond
 * U64_MAX saturate.
 */
static inline u64 time_bench_next_chunk(u64 loops, u64 ns, u64 target_ns,
					u64 remaining)
{
	u64 ratio, ratio_rem, next;

	if (!loops)
		loops = 1;
	if (!ns)
		ns = 1;
	/* loops * target_ns / ns == loops * ratio + loops * ratio_rem / ns */
	ratio = div64_u64_rem(target_ns, ns, &ratio_rem);
	if (ratio >= 16) {
		ratio = 16;
		ratio_rem = 0;
	}
	next = mul_u64_u64_div_u64(loops, ratio_rem, ns);  /* < loops */
	if (ratio && loops > div64_u64(U64_MAX - next, ratio))
		next = U64_MAX;
	else
		next += loops * ratio;
	if (!next)
		next = 1;
	return next < remaining ? next : remaining;
}

void time_bench_start(struct time_bench_stamp *stamp);
void time_bench_stop(struct time_bench_stamp *stamp);
void time_bench_print(const char *name, const struct time_bench_record *rec);

#endif /* _TIME_BENCH_H */
