// SPDX-License-Identifier: GPL-2.0
/*
 * time_bench's arithmetic, see time_bench_math.h.  Built into the module
 * and into the user-space unit tests (tests/), so it uses nothing of the
 * kernel but <linux/types.h>, <linux/math64.h> and <linux/string.h>.
 */
#include <linux/math64.h>
#include <linux/string.h>

#include "time_bench_math.h"

/*
 * Next decimal digit of rem / den, for rem < den: returns (rem * 10) / den
 * and leaves the remainder in *rem.  Adds rem ten times modulo den, so
 * no intermediate value exceeds den and any u64 works.
 */
static u32 time_bench_next_digit(u64 *rem, u64 den)
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
struct time_bench_fixed
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
u64 time_bench_cycles_per_elem(const struct time_bench_record *rec)
{
	return time_bench_div_fixed(rec->cycles, rec->invocations, 0,
				    false).whole;
}

/* Nanoseconds per element with three truncated digits (legacy line). */
struct time_bench_fixed
time_bench_ns_per_elem(const struct time_bench_record *rec)
{
	return time_bench_div_fixed(rec->ns, rec->invocations, 3, false);
}

/* Adds one chunk of @invocations timed from @start to @stop to @rec. */
void time_bench_account(struct time_bench_record *rec,
			const struct time_bench_stamp *start,
			const struct time_bench_stamp *stop,
			u64 invocations)
{
	rec->invocations += invocations;
	rec->cycles += stop->cycles - start->cycles;
	rec->ns += stop->ns - start->ns;
	rec->chunks++;
	if (start->pmu_valid && stop->pmu_valid) {
		rec->pmu_invocations += invocations;
		rec->pmu_instructions += stop->pmu_instructions -
					 start->pmu_instructions;
		rec->pmu_cycles += stop->pmu_cycles - start->pmu_cycles;
	} else {
		rec->pmu_skipped_chunks++;
	}
}

/*
 * Chunk length to aim for next: @target_ns worth of iterations at the
 * speed of the chunk just measured (@loops in @ns), grown at most 16-fold
 * per step so one lucky chunk cannot produce an overlong one, at least 1
 * and at most @remaining.  Zero @loops or @ns count as 1; results beyond
 * U64_MAX saturate.
 */
u64 time_bench_next_chunk(u64 loops, u64 ns, u64 target_ns,
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

/* A value per element in thousandths (of a cycle, of a ns), rounded;
 * values above U64_MAX / 1000 per element do not fit.
 */
u64 time_bench_milli_per_elem(u64 total, u64 invocations)
{
	struct time_bench_fixed f;

	f = time_bench_div_fixed(total, invocations, 3, true);
	return f.whole * 1000 + f.frac;
}

/* Largest r with r * r <= @x. */
u64 time_bench_isqrt(u64 x)
{
	u64 root = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= root + bit) {
			x -= root + bit;
			root = (root >> 1) + bit;
		} else {
			root >>= 1;
		}
		bit >>= 2;
	}
	return root;
}

/**
 * time_bench_summarize() - min, median, mean, stddev and max
 * @vals: the values; sorted in place
 * @n: how many, 1..TIME_BENCH_MAX_REPS
 *
 * Mean and median are truncated.  The deviations from the truncated
 * mean are scaled down until the largest fits in 26 bits, so that a
 * thousand squares add up without overflow; only a spread beyond 2^26
 * loses low-order bits.
 *
 * Return: the summary; all zero for @n == 0.
 */
struct time_bench_summary time_bench_summarize(u64 *vals, u32 n)
{
	struct time_bench_summary sum = { 0, 0, 0, 0, 0 };
	u64 quot = 0, rems = 0, var = 0, spread;
	unsigned int shift = 0;
	u32 i, j;

	if (!n)
		return sum;
	for (i = 1; i < n; i++) {	/* insertion sort: n is small */
		u64 v = vals[i];

		for (j = i; j > 0 && vals[j - 1] > v; j--)
			vals[j] = vals[j - 1];
		vals[j] = v;
	}
	sum.min = vals[0];
	sum.max = vals[n - 1];
	sum.median = n & 1 ? vals[n / 2] :
		vals[n / 2 - 1] + (vals[n / 2] - vals[n / 2 - 1]) / 2;

	/* floor(sum / n) without summing: quotients plus remainders */
	for (i = 0; i < n; i++) {
		u64 rem;

		quot += div64_u64_rem(vals[i], n, &rem);
		rems += rem;
	}
	sum.mean = quot + div64_u64(rems, n);
	if (n < 2)
		return sum;

	spread = sum.max - sum.mean > sum.mean - sum.min ?
		 sum.max - sum.mean : sum.mean - sum.min;
	while ((spread >> shift) >= 1ULL << 26)
		shift++;
	for (i = 0; i < n; i++) {
		u64 d = vals[i] > sum.mean ? vals[i] - sum.mean :
					     sum.mean - vals[i];

		d >>= shift;
		var += d * d;
	}
	sum.stddev = time_bench_isqrt(div64_u64(var, n - 1)) << shift;
	return sum;
}

/* The accelerator a CPUID hypervisor signature names. */
enum time_bench_accel
time_bench_accel_of(bool hypervisor, const char sig[TIME_BENCH_SIG_LEN])
{
	if (!hypervisor)
		return TIME_BENCH_ACCEL_NONE;
	if (!memcmp(sig, "KVMKVMKVM\0\0\0", TIME_BENCH_SIG_LEN))
		return TIME_BENCH_ACCEL_KVM;
	if (!memcmp(sig, "TCGTCGTCGTCG", TIME_BENCH_SIG_LEN))
		return TIME_BENCH_ACCEL_TCG;
	return TIME_BENCH_ACCEL_OTHER;
}

/* Instructions when TCG's TSC runs at 1 GHz, within 0.1%. */
enum time_bench_clock
time_bench_clock_of(enum time_bench_accel accel, u32 tsc_khz)
{
	u32 off = tsc_khz > TIME_BENCH_ICOUNT_KHZ ?
		  tsc_khz - TIME_BENCH_ICOUNT_KHZ :
		  TIME_BENCH_ICOUNT_KHZ - tsc_khz;

	if (accel == TIME_BENCH_ACCEL_TCG &&
	    off <= TIME_BENCH_ICOUNT_KHZ / 1000)
		return TIME_BENCH_CLOCK_INSTRUCTIONS;
	return TIME_BENCH_CLOCK_CYCLES;
}

const char *time_bench_accel_name(enum time_bench_accel accel)
{
	switch (accel) {
	case TIME_BENCH_ACCEL_NONE:
		return "none";
	case TIME_BENCH_ACCEL_KVM:
		return "kvm";
	case TIME_BENCH_ACCEL_TCG:
		return "tcg";
	default:
		return "other";
	}
}

const char *time_bench_clock_name(enum time_bench_clock clock)
{
	return clock == TIME_BENCH_CLOCK_INSTRUCTIONS ? "instructions" :
							"cycles";
}
