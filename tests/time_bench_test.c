// SPDX-License-Identifier: GPL-2.0
/*
 * User-space unit tests of time_bench_math.c and time_bench_driver.c,
 * built as is through the shims in tests/include/linux/: the arithmetic,
 * the instrument's classification and the loop driver, which runs its
 * chunks in a fake context with a fake clock here.
 *
 * The output is KTAP (tests/include/ktap_test.h): "ok N - what" or
 * "not ok N - what" per check, "#" diagnostics, the plan at the end and
 * the totals; the exit status is non-zero if any check failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktap_test.h"
#include "time_bench.h"		/* TIME_BENCH_MAX_REPS */
#include "time_bench_driver.h"

/* user-space stand-in for the kernel's own helper */
#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))

#define FIXED_LEN	48	/* "18446744073709551615.123456789" and more */
#define DIAG_MAX	5	/* mismatches shown per randomized check */
#define BIG_DEN		(U64_MAX / 10)	/* above this, rem * 10 overflows */
/* the fixed seed of ktap_rand(), so every run tests the same cases */
#define RAND_SEED	0x74696d655f62656eULL

/* A random value of random bit length, 0..64 bits. */
static u64 rnd_mag(void)
{
	unsigned int shift = ktap_rand() % 65;

	return shift == 64 ? 0 : ktap_rand() >> shift;
}

static u64 pow10_u64(unsigned int digits)
{
	u64 p = 1;

	while (digits--)
		p *= 10;
	return p;
}

static unsigned int clamp_digits(unsigned int digits)
{
	return digits > TIME_BENCH_MAX_DIGITS ? TIME_BENCH_MAX_DIGITS : digits;
}

/* Exact num / den in units of the last digit: truncated or half up. */
static unsigned __int128 ref_scaled(u64 num, u64 den, unsigned int digits,
				    bool round)
{
	unsigned __int128 n;

	if (!den)
		return 0;
	n = (unsigned __int128)num * pow10_u64(clamp_digits(digits));
	if (round)
		return (2 * n + den) / ((unsigned __int128)den * 2);
	return n / den;
}

/* A result in units of its last digit. */
static unsigned __int128 got_scaled(struct time_bench_fixed f,
				    unsigned int digits)
{
	return (unsigned __int128)f.whole * pow10_u64(clamp_digits(digits)) +
	       f.frac;
}

static bool fixed_well_formed(struct time_bench_fixed f, unsigned int digits)
{
	return f.frac < pow10_u64(clamp_digits(digits));
}

static const char *fmt_fixed(char *buf, u64 whole, u32 frac,
			     unsigned int digits)
{
	digits = clamp_digits(digits);
	if (digits)
		snprintf(buf, FIXED_LEN, "%llu.%0*u", whole, (int)digits, frac);
	else
		snprintf(buf, FIXED_LEN, "%llu", whole);
	return buf;
}

static const char *fmt_scaled(char *buf, unsigned __int128 v,
			      unsigned int digits)
{
	u64 p = pow10_u64(clamp_digits(digits));

	return fmt_fixed(buf, (u64)(v / p), (u32)(v % p), digits);
}

static const char *mode(bool round)
{
	return round ? "round" : "trunc";
}

/* time_bench_div_fixed() must give exactly whole.frac */
static void expect_fixed(u64 num, u64 den, unsigned int digits, bool round,
			 u64 whole, u32 frac)
{
	struct time_bench_fixed f = time_bench_div_fixed(num, den, digits,
							 round);
	char want[FIXED_LEN];

	fmt_fixed(want, whole, frac, digits);
	if (!KTAP_CHECK(f.whole == whole && f.frac == frac,
			"div_fixed(%llu, %llu, %u, %s) = %s", num, den, digits,
			mode(round), want))
		ktap_diag("got whole=%llu frac=%u", f.whole, f.frac);
}

/*
 * time_bench_div_fixed() for a divisor above U64_MAX / 10, where "rem * 10"
 * would overflow: still exact, frac in range.
 */
static void expect_exact_big(u64 num, u64 den, unsigned int digits, bool round)
{
	struct time_bench_fixed f = time_bench_div_fixed(num, den, digits,
							 round);
	unsigned __int128 want = ref_scaled(num, den, digits, round);
	unsigned __int128 got = got_scaled(f, digits);
	unsigned __int128 err = got > want ? got - want : want - got;
	char w[FIXED_LEN], g[FIXED_LEN];

	fmt_scaled(w, want, digits);
	if (!KTAP_CHECK(err == 0 && fixed_well_formed(f, digits),
			"div_fixed(%llu, %llu, %u, %s) = exact %s",
			num, den, digits, mode(round), w))
		ktap_diag("got whole=%llu frac=%u (%s)", f.whole, f.frac,
			  fmt_fixed(g, f.whole, f.frac, digits));
}

static void test_exact_small(void)
{
	struct time_bench_record rec = {
		.invocations = 100000000,
		.cycles = 1977272238,
		.ns = 549225541,
	};
	struct time_bench_fixed f;

	expect_fixed(549225541, 100000000, 3, false, 5, 492);
	expect_fixed(549225541, 100000000, 3, true, 5, 492);
	expect_fixed(1977272238, 100000000, 0, false, 19, 0);
	expect_fixed(1977272238, 100000000, 3, false, 19, 772);
	expect_fixed(1977272238, 100000000, 3, true, 19, 773);
	expect_fixed(1, 3, 9, false, 0, 333333333);
	expect_fixed(2, 3, 9, false, 0, 666666666);
	expect_fixed(7, 7, 3, false, 1, 0);
	expect_fixed(0, 12345, 9, true, 0, 0);
	expect_fixed(10, 4, 1, true, 2, 5);
	expect_fixed(1, 1000000000, 9, false, 0, 1);
	expect_fixed(1, 1000000000, 8, false, 0, 0);
	expect_fixed(549225541, 1000000000, 9, false, 0, 549225541);

	KTAP_CHECK(time_bench_cycles_per_elem(&rec) == 19,
		   "cycles_per_elem(1977272238 cycles / 100000000) = 19");
	f = time_bench_ns_per_elem(&rec);
	if (!KTAP_CHECK(f.whole == 5 && f.frac == 492,
			"ns_per_elem(549225541 ns / 100000000) = 5.492"))
		ktap_diag("got %llu.%03u", f.whole, f.frac);
}

static void test_rounding(void)
{
	/* half up, carried into the whole part */
	expect_fixed(9996, 10000, 3, false, 0, 999);
	expect_fixed(9996, 10000, 3, true, 1, 0);
	expect_fixed(9995, 10000, 3, true, 1, 0);
	expect_fixed(9994, 10000, 3, true, 0, 999);
	expect_fixed(19995, 10000, 3, true, 2, 0);
	expect_fixed(5, 10000, 3, true, 0, 1);
	expect_fixed(4, 10000, 3, true, 0, 0);
	expect_fixed(2, 3, 9, true, 0, 666666667);
	expect_fixed(9999999999ULL, 10000000000ULL, 9, false, 0, 999999999);
	expect_fixed(9999999999ULL, 10000000000ULL, 9, true, 1, 0);
	expect_fixed(1999999999999ULL, 1000, 9, true, 1999999999, 999000000);

	/* digits == 0: a whole number, rounded half up */
	expect_fixed(4, 10, 0, true, 0, 0);
	expect_fixed(5, 10, 0, true, 1, 0);
	expect_fixed(15, 10, 0, true, 2, 0);
	expect_fixed(25, 10, 0, true, 3, 0);
	expect_fixed(29, 10, 0, false, 2, 0);
	expect_fixed(1977272238, 100000000, 0, true, 20, 0);
	expect_fixed(U64_MAX, 2, 0, true, 9223372036854775808ULL, 0);
	expect_fixed(U64_MAX, 2, 0, false, 9223372036854775807ULL, 0);
	expect_fixed(U64_MAX, 2, 1, true, 9223372036854775807ULL, 5);
}

static void test_digits_clamp(void)
{
	expect_fixed(1, 3, 10, false, 0, 333333333);
	expect_fixed(1, 3, 20, false, 0, 333333333);
	expect_fixed(2, 3, 12, true, 0, 666666667);
	expect_fixed(2, 3, ~0U, true, 0, 666666667);
	expect_fixed(9999999999ULL, 10000000000ULL, ~0U, true, 1, 0);
}

static void test_zero_den(void)
{
	static const u64 nums[] = { 0, 1, 549225541, U64_MAX };
	struct time_bench_record rec = { .cycles = 12345, .ns = 678 };
	struct time_bench_fixed f;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(nums); i++) {
		expect_fixed(nums[i], 0, 0, false, 0, 0);
		expect_fixed(nums[i], 0, 3, true, 0, 0);
		expect_fixed(nums[i], 0, 9, true, 0, 0);
	}
	KTAP_CHECK(time_bench_cycles_per_elem(&rec) == 0,
		   "cycles_per_elem of a record with no invocations = 0");
	f = time_bench_ns_per_elem(&rec);
	KTAP_CHECK(f.whole == 0 && f.frac == 0,
		   "ns_per_elem of a record with no invocations = 0.000");
}

static void test_extremes(void)
{
	expect_fixed(U64_MAX, 1, 0, false, U64_MAX, 0);
	expect_fixed(U64_MAX, 1, 9, false, U64_MAX, 0);
	expect_fixed(U64_MAX, 1, 9, true, U64_MAX, 0);
	expect_fixed(U64_MAX, U64_MAX, 0, true, 1, 0);
	expect_fixed(U64_MAX, U64_MAX, 9, false, 1, 0);
	expect_fixed(U64_MAX, U64_MAX, 9, true, 1, 0);
	expect_fixed(0, U64_MAX, 9, true, 0, 0);
	/* largest divisor that is still computed exactly */
	expect_fixed(U64_MAX, BIG_DEN, 9, false, 10, 0);
	expect_fixed(BIG_DEN - 1, BIG_DEN, 9, false, 0, 999999999);
	expect_fixed(BIG_DEN - 1, BIG_DEN, 9, true, 1, 0);
}

/* den > U64_MAX / 10: no room for "rem * 10", still exact */
static void test_big_den(void)
{
	static const struct {
		u64 num, den;
	} cases[] = {
		{ U64_MAX - 1, U64_MAX },
		{ U64_MAX, U64_MAX - 1 },
		{ 1, U64_MAX },
		{ U64_MAX / 3, U64_MAX / 2 },
		{ U64_MAX, BIG_DEN + 1 },
		{ 1ULL << 63, (1ULL << 63) + 1 },
		{ 1ULL << 62, 1ULL << 63 },
		{ 12345678901234567890ULL, 18000000000000000000ULL },
		{ 6148914691236517205ULL, 9223372036854775807ULL },
	};
	static const unsigned int digits[] = { 0, 1, 3, 9 };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		for (j = 0; j < ARRAY_SIZE(digits); j++) {
			expect_exact_big(cases[i].num, cases[i].den,
					 digits[j], false);
			expect_exact_big(cases[i].num, cases[i].den,
					 digits[j], true);
		}
}

/* Loop counts near U32_MAX with large cycle sums. */
static void test_u32_max_loops(void)
{
	struct time_bench_record rec = { .invocations = U32_MAX };
	struct time_bench_fixed f;

	/* U64_MAX = (2^32 - 1) * (2^32 + 1) */
	rec.cycles = U64_MAX;
	KTAP_CHECK(time_bench_cycles_per_elem(&rec) == 4294967297ULL,
		   "cycles_per_elem(U64_MAX / 4294967295) = 4294967297");
	expect_fixed(U64_MAX, U32_MAX, 9, true, 4294967297ULL, 0);

	rec.cycles = U64_MAX - 1;
	KTAP_CHECK(time_bench_cycles_per_elem(&rec) == 4294967296ULL,
		   "cycles_per_elem((U64_MAX - 1) / 4294967295) = 4294967296");
	expect_fixed(U64_MAX - 1, U32_MAX, 3, false, 4294967296ULL, 999);
	expect_fixed(U64_MAX - 1, U32_MAX, 9, false, 4294967296ULL, 999999999);
	expect_fixed(U64_MAX - 1, U32_MAX, 9, true, 4294967297ULL, 0);

	rec.cycles = 20ULL * U32_MAX - 1;
	KTAP_CHECK(time_bench_cycles_per_elem(&rec) == 19,
		   "cycles_per_elem((20 * 4294967295 - 1) / 4294967295) = 19");
	expect_fixed(20ULL * U32_MAX - 1, U32_MAX, 3, false, 19, 999);
	expect_fixed(20ULL * U32_MAX - 1, U32_MAX, 3, true, 20, 0);

	rec.ns = 5492ULL * U32_MAX + U32_MAX / 2;
	f = time_bench_ns_per_elem(&rec);
	if (!KTAP_CHECK(f.whole == 5492 && f.frac == 499,
			"ns_per_elem((5492.5 * 4294967295 - 0.5) / 4294967295) = 5492.499"))
		ktap_diag("got %llu.%03u", f.whole, f.frac);
	expect_fixed(rec.ns, U32_MAX, 3, true, 5492, 500);

	expect_fixed(1977272238ULL * 43, U32_MAX, 3, false, 19, 795);
	expect_fixed(0xfedcba9876543210ULL, U32_MAX - 1, 6, false,
		     4275878554ULL, 453333);
}

/* Random num/den pairs, biased towards carries, ties and boundaries. */
static void rnd_case(u64 *num, u64 *den, unsigned int digits, u64 den_max)
{
	unsigned int d = clamp_digits(digits);
	u64 s, q, d_val;

	do
		d_val = rnd_mag();
	while (d_val > den_max);
	*den = d_val;

	switch (ktap_rand() % 8) {
	case 0:	/* just below a whole number */
		if (!*den)
			*den = 1;
		q = rnd_mag() % (U64_MAX / *den);
		*num = q * *den + (*den - 1 - ktap_rand() % 4 % *den);
		break;
	case 1:	/* an exact tie one digit past the last kept one */
		s = 1 + ktap_rand() % 1000;
		*den = pow10_u64(d + 1) * s;
		q = rnd_mag() % ((U64_MAX / s - 5) / 10 + 1);
		*num = (q * 10 + 5) * s;
		break;
	case 2:
		*num = U64_MAX - ktap_rand() % 1000;
		break;
	default:
		*num = rnd_mag();
		break;
	}
}

/* Counts in *bad, and shows the first few, results off the reference. */
static void check_div_fixed(u64 num, u64 den, unsigned int digits,
			    bool round, unsigned int *bad)
{
	struct time_bench_fixed f = time_bench_div_fixed(num, den, digits, round);
	unsigned __int128 want = ref_scaled(num, den, digits, round);
	char w[FIXED_LEN], g[FIXED_LEN];

	if (got_scaled(f, digits) == want && fixed_well_formed(f, digits))
		return;
	if ((*bad)++ < DIAG_MAX)
		ktap_diag("div_fixed(%llu, %llu, %u, %s): want %s got %s (frac %u)",
			  num, den, digits, mode(round),
			  fmt_scaled(w, want, digits),
			  fmt_fixed(g, f.whole, f.frac, digits), f.frac);
}

static void test_random_exact(bool round, unsigned int cases)
{
	unsigned int i, bad = 0;

	for (i = 0; i < cases; i++) {
		unsigned int digits = ktap_rand() % 12;
		u64 num, den;

		rnd_case(&num, &den, digits, BIG_DEN);
		check_div_fixed(num, den, digits, round, &bad);
	}
	KTAP_CHECK(!bad, "%u random div_fixed(%s), den <= U64_MAX / 10, exact (%u wrong)",
		   cases, mode(round), bad);
}

static void test_random_big_den(unsigned int cases)
{
	unsigned int i, bad = 0;

	for (i = 0; i < cases; i++) {
		unsigned int digits = ktap_rand() % 12;
		bool round = ktap_rand() & 1;
		u64 num, den;

		den = BIG_DEN + 1 + ktap_rand() % (U64_MAX - BIG_DEN);
		if (ktap_rand() & 1)
			den = U64_MAX - ktap_rand() % 1000;
		switch (ktap_rand() % 3) {
		case 0:
			num = den - ktap_rand() % 1000;
			break;
		case 1:
			num = U64_MAX - ktap_rand() % 1000;
			break;
		default:
			num = rnd_mag();
			break;
		}
		check_div_fixed(num, den, digits, round, &bad);
	}
	KTAP_CHECK(!bad, "%u random div_fixed, den > U64_MAX / 10, exact (%u wrong)",
		   cases, bad);
}

static void test_random_per_elem(unsigned int cases)
{
	unsigned int i, bad_cyc = 0, bad_ns = 0;

	for (i = 0; i < cases; i++) {
		struct time_bench_record rec = { 0 };
		struct time_bench_fixed f;
		bool ns_ok;

		rec.cycles = rnd_mag();
		rec.ns = rnd_mag();
		do
			rec.invocations = rnd_mag();
		while (rec.invocations > BIG_DEN);
		if (ktap_rand() & 1)
			rec.invocations = ktap_rand() % ((u64)U32_MAX + 1);

		if (time_bench_cycles_per_elem(&rec) !=
		    (rec.invocations ? rec.cycles / rec.invocations : 0) &&
		    bad_cyc++ < DIAG_MAX)
			ktap_diag("cycles_per_elem(%llu / %llu) wrong", rec.cycles,
				  rec.invocations);
		f = time_bench_ns_per_elem(&rec);
		ns_ok = got_scaled(f, 3) == ref_scaled(rec.ns, rec.invocations,
						       3, false) &&
			fixed_well_formed(f, 3);
		if (!ns_ok && bad_ns++ < DIAG_MAX)
			ktap_diag("ns_per_elem(%llu / %llu) wrong: %llu.%03u",
				  rec.ns, rec.invocations, f.whole, f.frac);
	}
	KTAP_CHECK(!bad_cyc, "%u random cycles_per_elem exact (%u wrong)", cases,
		   bad_cyc);
	KTAP_CHECK(!bad_ns, "%u random ns_per_elem exact (%u wrong)", cases, bad_ns);
}

static u64 ref_diff(u64 start, u64 stop)
{
	return (u64)(((unsigned __int128)1 << 64) + stop - start);
}

static void test_account(void)
{
	struct time_bench_record rec = { .step = 7 };
	struct time_bench_stamp start = { .cycles = 1000, .ns = 500 };
	struct time_bench_stamp stop = { .cycles = 3500, .ns = 1500 };
	u64 inv = 0, cyc = 0, ns = 0;
	unsigned int i;
	bool ok = true;

	time_bench_account(&rec, &start, &stop, 100);
	KTAP_CHECK(rec.invocations == 100 && rec.cycles == 2500 && rec.ns == 1000 &&
		   rec.chunks == 1 && rec.step == 7,
		   "account: first chunk sets sums, chunks = 1, step untouched");

	/* both counters wrap between the two stamps */
	start.cycles = U64_MAX - 9;
	stop.cycles = 5;
	start.ns = U64_MAX - 1;
	stop.ns = 3;
	time_bench_account(&rec, &start, &stop, U32_MAX);
	KTAP_CHECK(rec.cycles == 2500 + 15,
		   "account: cycles U64_MAX-9 -> 5 adds 15 (modular difference)");
	KTAP_CHECK(rec.ns == 1000 + 5,
		   "account: ns U64_MAX-1 -> 3 adds 5 (modular difference)");
	KTAP_CHECK(rec.invocations == 100ULL + U32_MAX && rec.chunks == 2,
		   "account: invocations 100 + 4294967295, chunks = 2");

	/* an empty chunk still counts */
	start = stop;
	time_bench_account(&rec, &start, &stop, 0);
	KTAP_CHECK(rec.invocations == 100ULL + U32_MAX && rec.cycles == 2515 &&
		   rec.ns == 1005 && rec.chunks == 3,
		   "account: empty chunk adds nothing but a chunk");

	/* many random chunks, a fifth of them wrapping */
	rec = (struct time_bench_record){ 0 };
	for (i = 0; i < 100000; i++) {
		u64 n = ktap_rand() % 100000000;

		start.cycles = ktap_rand();
		start.ns = ktap_rand();
		stop.cycles = start.cycles + ktap_rand() % 1000000000;
		stop.ns = start.ns + ktap_rand() % 1000000000;
		if (ktap_rand() % 5 == 0) {
			start.cycles = U64_MAX - ktap_rand() % 1000;
			stop.cycles = ktap_rand() % 1000;
		}
		time_bench_account(&rec, &start, &stop, n);
		inv += n;
		cyc += ref_diff(start.cycles, stop.cycles);
		ns += ref_diff(start.ns, stop.ns);
		if (rec.invocations != inv || rec.cycles != cyc ||
		    rec.ns != ns || rec.chunks != i + 1) {
			ok = false;
			ktap_diag("chunk %u: got %llu/%llu/%llu/%u want %llu/%llu/%llu/%u",
				  i, rec.invocations, rec.cycles, rec.ns, rec.chunks,
				  inv, cyc, ns, i + 1);
			break;
		}
	}
	KTAP_CHECK(ok, "account: 100000 random chunks sum exactly");
}

/* The documented contract of time_bench_next_chunk(), computed exactly. */
static u64 ref_next_chunk(u64 loops, u64 ns, u64 target_ns, u64 remaining)
{
	unsigned __int128 next, cap;

	if (!loops)
		loops = 1;
	if (!ns)
		ns = 1;
	next = (unsigned __int128)loops * target_ns / ns;
	cap = (unsigned __int128)loops * 16;
	if (next > cap)
		next = cap;
	if (!next)
		next = 1;
	return next < remaining ? (u64)next : remaining;
}

static void expect_next(u64 loops, u64 ns, u64 target_ns, u64 remaining,
			u64 want, const char *what)
{
	u64 got = time_bench_next_chunk(loops, ns, target_ns, remaining);

	if (!KTAP_CHECK(got == want, "next_chunk(%llu, %llu, %llu, %llu) = %llu: %s",
			loops, ns, target_ns, remaining, want, what))
		ktap_diag("got %llu", got);
}

static void test_next_chunk(void)
{
	const u64 t = 10000000;	/* BENCH_CHUNK_NS */

	expect_next(1000, 1000000, t, U64_MAX, 10000, "scaled up to target");
	expect_next(1000, 100000000, t, U64_MAX, 100, "scaled down to target");
	expect_next(1000, t, t, U64_MAX, 1000, "already on target");
	expect_next(3, 7, 10, U64_MAX, 4, "quotient truncated");
	expect_next(1000, 625000, t, U64_MAX, 16000, "exactly 16x allowed");
	expect_next(1000, 624999, t, U64_MAX, 16000, "growth capped at 16x");
	expect_next(1000, 1, t, U64_MAX, 16000, "fast chunk capped at 16x");
	expect_next(1, 1000000000, t, U64_MAX, 1, "never 0 (rounds to 0)");
	expect_next(1000, U64_MAX, t, U64_MAX, 1, "never 0 (huge ns)");
	expect_next(1000, 1000000, t, 500, 500, "never above remaining");
	expect_next(1000, 1000000, t, 1, 1, "remaining 1");
	expect_next(1000, 1000000, t, 10000, 10000, "remaining equal");
	expect_next(0, 1000000, t, U64_MAX, 10, "0 loops counts as 1");
	expect_next(0, 100, t, U64_MAX, 16, "0 loops, capped at 16");
	expect_next(10, 0, t, U64_MAX, 160, "0 ns counts as 1, capped");
	expect_next(10, 0, 5, U64_MAX, 50, "0 ns counts as 1");
	expect_next(0, 0, t, U64_MAX, 16, "0 loops and 0 ns");
	expect_next(0, 0, 1, U64_MAX, 1, "0 loops and 0 ns, target 1");

	/* loops * target_ns at and past U64_MAX */
	expect_next(U32_MAX, 1, U32_MAX + 2ULL, U64_MAX, 16ULL * U32_MAX,
		    "loops * target == U64_MAX, no overflow, capped");
	expect_next(U32_MAX, U32_MAX + 2ULL, U32_MAX + 2ULL, U64_MAX, U32_MAX,
		    "loops * target == U64_MAX, no overflow, on target");
	expect_next(U64_MAX, 1, 10, U64_MAX, U64_MAX,
		    "U64_MAX loops: no wrap, no 16x cap possible");
	expect_next(U64_MAX / 8, 1, 8, U64_MAX, U64_MAX - 7,
		    "loops * 16 would wrap: not used as a cap");
	expect_next(1ULL << 40, 1ULL << 40, 1ULL << 30, 1000, 1000,
		    "overflowing product still bounded by remaining");
	expect_next(1ULL << 40, 1ULL << 40, 1ULL << 30, U64_MAX, 1ULL << 30,
		    "overflowing product: target_ns worth at measured speed");
	expect_next(1ULL << 40, 1, 1ULL << 30, U64_MAX, 1ULL << 44,
		    "overflowing product: grown 16x like without overflow");
}

static void test_random_next_chunk(unsigned int cases)
{
	unsigned int i, bad = 0, bad_bounds = 0, overflows = 0, deviate = 0;

	for (i = 0; i < cases; i++) {
		u64 loops = rnd_mag(), ns = rnd_mag(), target = rnd_mag();
		u64 remaining = rnd_mag() | 1;
		u64 got, want, l1;
		bool overflow;

		if (!target)
			target = 1;
		if (ktap_rand() & 1) {
			target = 1 + ktap_rand() % 100000000;
			loops = ktap_rand() % 100000000;
			ns = ktap_rand() % 1000000000;
			remaining = ktap_rand() & 1 ? U64_MAX : 1 + ktap_rand() % 100000000;
		}
		l1 = loops ? loops : 1;
		got = time_bench_next_chunk(loops, ns, target, remaining);
		want = ref_next_chunk(loops, ns, target, remaining);
		overflow = (unsigned __int128)l1 * target > U64_MAX;

		if (!got || got > remaining ||
		    (unsigned __int128)got > (unsigned __int128)l1 * 16) {
			if (bad_bounds++ < DIAG_MAX)
				ktap_diag("next_chunk(%llu, %llu, %llu, %llu) = %llu out of bounds",
					  loops, ns, target, remaining, got);
		}
		if (overflow) {
			overflows++;
			deviate += got != want;
			continue;
		}
		if (got != want && bad++ < DIAG_MAX)
			ktap_diag("next_chunk(%llu, %llu, %llu, %llu): want %llu got %llu",
				  loops, ns, target, remaining, want, got);
	}
	KTAP_CHECK(!bad_bounds,
		   "%u random next_chunk within 1..min(remaining, 16 * loops) (%u wrong)",
		   cases, bad_bounds);
	KTAP_CHECK(!bad, "%u random next_chunk without product overflow exact (%u wrong)",
		   cases - overflows, bad);
	ktap_diag("%u of %u cases with loops * target_ns > U64_MAX differ from the exact contract",
		  deviate, overflows);
}

/* Largest r with r * r <= @x, by bisection on 128-bit squares. */
static u64 ref_isqrt(unsigned __int128 x)
{
	u64 lo = 0, hi = U64_MAX;

	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2 + 1;	/* lo < mid <= hi */

		if ((unsigned __int128)mid * mid <= x)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* r * r <= x < (r + 1) * (r + 1), in 128 bits */
static bool isqrt_ok(u64 x, u64 r)
{
	unsigned __int128 r1 = (unsigned __int128)r + 1;

	return (unsigned __int128)r * r <= x && r1 * r1 > x;
}

static void expect_isqrt(u64 x, u64 want)
{
	u64 got = time_bench_isqrt(x);

	if (!KTAP_CHECK(got == want, "isqrt(%llu) = %llu", x, want))
		ktap_diag("got %llu", got);
}

static void test_isqrt(void)
{
	static const u64 roots[] = {
		1, 2, 3, 255, 256, 65535, 65536, 1ULL << 31,
		3037000499ULL, 3037000500ULL, U32_MAX - 1, U32_MAX,
	};
	unsigned int i;

	expect_isqrt(0, 0);
	expect_isqrt(1, 1);
	expect_isqrt(2, 1);
	expect_isqrt(3, 1);
	expect_isqrt(4, 2);
	expect_isqrt(5, 2);
	expect_isqrt(8, 2);
	expect_isqrt(9, 3);
	expect_isqrt(15, 3);
	expect_isqrt(16, 4);
	expect_isqrt(17, 4);
	expect_isqrt(1ULL << 62, 1ULL << 31);
	expect_isqrt((1ULL << 62) - 1, (1ULL << 31) - 1);
	expect_isqrt(1ULL << 63, 3037000499ULL);
	/* (2^32 - 1)^2 = 2^64 - 2^33 + 1 and its neighbours */
	expect_isqrt(0xfffffffe00000001ULL, U32_MAX);
	expect_isqrt(0xfffffffe00000000ULL, U32_MAX - 1);
	expect_isqrt(0xfffffffe00000002ULL, U32_MAX);
	expect_isqrt(U64_MAX - 1, U32_MAX);
	expect_isqrt(U64_MAX, U32_MAX);

	/* k^2 - 1, k^2 and (k + 1)^2 - 1 = k^2 + 2k */
	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		u64 k = roots[i];
		u64 below = time_bench_isqrt(k * k - 1);
		u64 at = time_bench_isqrt(k * k);
		u64 top = time_bench_isqrt(k * k + 2 * k);

		if (!KTAP_CHECK(below == k - 1 && at == k && top == k,
				"isqrt(k^2 - 1, k^2, k^2 + 2k) = k - 1, k, k for k = %llu",
				k))
			ktap_diag("got %llu, %llu, %llu", below, at, top);
	}
}

static void test_random_isqrt(unsigned int cases)
{
	unsigned int i, bad = 0;

	for (i = 0; i < cases; i++) {
		u64 k = rnd_mag() >> 32;	/* a root: below 2^32 */
		u64 x, r;

		switch (ktap_rand() % 4) {
		case 0:
			x = k * k;
			break;
		case 1:
			x = k ? k * k - 1 : 0;
			break;
		case 2:
			x = k * k + 2 * k;
			break;
		default:
			x = rnd_mag();
			break;
		}
		r = time_bench_isqrt(x);
		if (!isqrt_ok(x, r) && bad++ < DIAG_MAX)
			ktap_diag("isqrt(%llu) = %llu, want %llu", x, r, ref_isqrt(x));
	}
	KTAP_CHECK(!bad, "%u random isqrt: r * r <= x < (r + 1)^2 (%u wrong)",
		   cases, bad);
}

static void expect_milli(u64 total, u64 invocations, u64 want)
{
	u64 got = time_bench_milli_per_elem(total, invocations);

	if (!KTAP_CHECK(got == want, "milli_per_elem(%llu, %llu) = %llu",
			total, invocations, want))
		ktap_diag("got %llu", got);
}

static void test_milli_per_elem(void)
{
	/* rounded half up at the third digit */
	expect_milli(1, 3, 333);
	expect_milli(2, 3, 667);
	expect_milli(1, 1, 1000);
	expect_milli(2, 8, 250);
	expect_milli(1, 2000, 1);		/* 0.0005 */
	expect_milli(1, 2001, 0);		/* 0.00049975 */
	expect_milli(3, 2000, 2);		/* 0.0015 */
	expect_milli(1998, 2000, 999);		/* 0.999 */
	expect_milli(1999, 2000, 1000);		/* 0.9995, into the whole */
	expect_milli(12345, 10000, 1235);	/* 1.2345 */
	expect_milli(12344999, 10000000, 1234);	/* 1.2344999 */
	expect_milli(1977272238, 100000000, 19773);
	expect_milli(549225541, 100000000, 5492);
	expect_milli(0, 7, 0);

	/* no invocations */
	expect_milli(0, 0, 0);
	expect_milli(12345, 0, 0);
	expect_milli(U64_MAX, 0, 0);

	/* large totals */
	expect_milli(U64_MAX, 1000, U64_MAX);	/* 18446744073709551.615 */
	expect_milli(U64_MAX / 1000, 1, U64_MAX / 1000 * 1000);
	expect_milli(U64_MAX, 2000, 9223372036854775808ULL);	/* .5 up */
	expect_milli(U64_MAX, U32_MAX, 4294967297000ULL);
	expect_milli(U64_MAX, U64_MAX, 1000);
	expect_milli(U64_MAX - 1, U64_MAX, 1000);
	expect_milli(U64_MAX / 2, U64_MAX, 500);
	expect_milli(1, U64_MAX, 0);

	/* outside the u64 range of the result: not part of the contract */
	ktap_diag("milli_per_elem(U64_MAX, 1) = %llu (1000 * U64_MAX does not fit in u64)",
		  time_bench_milli_per_elem(U64_MAX, 1));
}

static void test_random_milli_per_elem(unsigned int cases)
{
	unsigned int i, bad = 0, wide = 0;

	for (i = 0; i < cases; i++) {
		u64 total = rnd_mag(), inv = rnd_mag(), s, got;
		unsigned __int128 want;

		switch (ktap_rand() % 4) {
		case 0:	/* realistic: loop counts up to 10^9 */
			inv = 1 + ktap_rand() % 1000000000;
			break;
		case 1:	/* an exact tie: total / inv = (2m + 1) / 2000 */
			s = 1 + ktap_rand() % 1000;
			inv = 2000 * s;
			total = (2 * (ktap_rand() % (1ULL << 40)) + 1) * s;
			break;
		default:
			break;
		}
		want = ref_scaled(total, inv, 3, true);
		if (want > U64_MAX) {
			wide++;
			continue;
		}
		got = time_bench_milli_per_elem(total, inv);
		if (got != want && bad++ < DIAG_MAX)
			ktap_diag("milli_per_elem(%llu, %llu): want %llu got %llu",
				  total, inv, (u64)want, got);
	}
	KTAP_CHECK(!bad,
		   "%u random milli_per_elem exact, half up (%u wrong, %u beyond u64 skipped)",
		   cases - wide, bad, wide);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The documented summary without any scaling, from 128-bit sums: the
 * stddev is isqrt(sum((v - mean)^2) / (n - 1)) around the truncated mean,
 * exact while n * (max - min)^2 < 2^128.  @sorted gets the sorted values.
 */
static struct time_bench_summary ref_summarize(const u64 *vals, u32 n,
					       u64 *sorted)
{
	struct time_bench_summary s = { 0, 0, 0, 0, 0 };
	unsigned __int128 total = 0, sq = 0;
	u32 i;

	if (!n)
		return s;
	memcpy(sorted, vals, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	s.min = sorted[0];
	s.max = sorted[n - 1];
	s.median = n & 1 ? sorted[n / 2] :
		(u64)(((unsigned __int128)sorted[n / 2 - 1] + sorted[n / 2]) / 2);
	for (i = 0; i < n; i++)
		total += sorted[i];
	s.mean = (u64)(total / n);
	if (n < 2)
		return s;
	for (i = 0; i < n; i++) {
		unsigned __int128 d = sorted[i] > s.mean ? sorted[i] - s.mean :
						      s.mean - sorted[i];

		sq += d * d;
	}
	s.stddev = ref_isqrt(sq / (n - 1));
	return s;
}

/* min, median, mean and max agree; the stddev is compared apart */
static bool same_but_stddev(const struct time_bench_summary *a,
			    const struct time_bench_summary *b)
{
	return a->min == b->min && a->median == b->median &&
	       a->mean == b->mean && a->max == b->max;
}

#define SUMMARY_LEN	128	/* five u64 of up to 20 digits and their names */

static const char *fmt_summary(char *buf, const struct time_bench_summary *s)
{
	snprintf(buf, SUMMARY_LEN,
		 "min %llu median %llu mean %llu stddev %llu max %llu",
		 s->min, s->median, s->mean, s->stddev, s->max);
	return buf;
}

/* The smallest shift with spread >> shift < 2^26, as documented. */
static unsigned int summary_shift(const struct time_bench_summary *s)
{
	u64 spread = s->max - s->mean > s->mean - s->min ?
		     s->max - s->mean : s->mean - s->min;
	unsigned int shift = 0;

	while (spread >> shift >= 1ULL << 26)
		shift++;
	return shift;
}

/*
 * time_bench_summarize() of @n values must give exactly @want and leave
 * the values sorted in place.
 */
static void expect_summary(const char *what, const u64 *vals, u32 n,
			   struct time_bench_summary want)
{
	static u64 buf[TIME_BENCH_MAX_REPS], sorted[TIME_BENCH_MAX_REPS];
	char w[SUMMARY_LEN], g[SUMMARY_LEN];
	struct time_bench_summary got;
	u32 i;

	memcpy(buf, vals, n * sizeof(*buf));
	memcpy(sorted, vals, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	got = time_bench_summarize(buf, n);
	if (!KTAP_CHECK(same_but_stddev(&got, &want) && got.stddev == want.stddev,
			"summarize(%s) = %s", what, fmt_summary(w, &want)))
		ktap_diag("got %s", fmt_summary(g, &got));
	for (i = 0; i < n && buf[i] == sorted[i]; i++)
		;
	if (!KTAP_CHECK(i == n, "summarize(%s) sorts the %u values in place",
			what, n))
		ktap_diag("vals[%u] = %llu, want %llu", i, buf[i], sorted[i]);
}

static void test_summarize_small(void)
{
	static const struct {
		const char *what;
		u64 vals[12];
		u32 n;
		struct time_bench_summary want;	/* min, median, mean, stddev, max */
	} cases[] = {
		{ "{42}", { 42 }, 1, { 42, 42, 42, 0, 42 } },
		{ "{0}", { 0 }, 1, { 0, 0, 0, 0, 0 } },
		{ "{U64_MAX}", { U64_MAX }, 1,
		  { U64_MAX, U64_MAX, U64_MAX, 0, U64_MAX } },
		/* median and mean 5.5 truncated, sqrt((4 + 9) / 1) */
		{ "{3, 8}", { 3, 8 }, 2, { 3, 5, 5, 3, 8 } },
		{ "{8, 3}", { 8, 3 }, 2, { 3, 5, 5, 3, 8 } },
		/* around the truncated mean 0: sqrt(1), though sqrt(0.5) < 1 */
		{ "{1, 0}", { 1, 0 }, 2, { 0, 0, 0, 1, 1 } },
		{ "{0, 0, 1}", { 0, 0, 1 }, 3, { 0, 0, 0, 0, 1 } },
		/* deviations 1 and 0 around the truncated mean */
		{ "{U64_MAX, U64_MAX - 1}", { U64_MAX, U64_MAX - 1 }, 2,
		  { U64_MAX - 1, U64_MAX - 1, U64_MAX - 1, 1, U64_MAX } },
		/* no overflow in median or mean; shift 38: isqrt(2^51 - 2^26 + 1) << 38 */
		{ "{U64_MAX, 0}", { U64_MAX, 0 }, 2,
		  { 0, S64_MAX, S64_MAX, 13043817602097348608ULL, U64_MAX } },
		{ "{5, 1, 4, 2, 3}", { 5, 1, 4, 2, 3 }, 5, { 1, 3, 3, 1, 5 } },
		/* sqrt((206^2 + 76^2 + 224^2 + 36^2 + 94^2) / 4) = 164.7 */
		{ "{600, 470, 170, 430, 300}", { 600, 470, 170, 430, 300 }, 5,
		  { 170, 430, 394, 164, 600 } },
		/* median and mean 2.5 truncated, sqrt((1 + 0 + 1 + 4) / 3) */
		{ "{4, 3, 2, 1}", { 4, 3, 2, 1 }, 4, { 1, 2, 2, 1, 4 } },
		/* mean 5, sqrt(32 / 7) = 2.14 */
		{ "{2, 4, 4, 4, 5, 5, 7, 9}", { 2, 4, 4, 4, 5, 5, 7, 9 }, 8,
		  { 2, 4, 5, 2, 9 } },
		{ "{9, 7, 5, 5, 4, 4, 4, 2}", { 9, 7, 5, 5, 4, 4, 4, 2 }, 8,
		  { 2, 4, 5, 2, 9 } },
		/* mean 140.9, sqrt(820100 / 10) = 286.4 */
		{ "{10, 20, ..., 100, 1000}",
		  { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 1000 }, 11,
		  { 10, 60, 140, 286, 1000 } },
		{ "7 x {5}", { 5, 5, 5, 5, 5, 5, 5 }, 7, { 5, 5, 5, 0, 5 } },
		{ "12 x {2^40 + 3}",
		  { [0 ... 11] = (1ULL << 40) + 3 }, 12,
		  { (1ULL << 40) + 3, (1ULL << 40) + 3, (1ULL << 40) + 3, 0,
		    (1ULL << 40) + 3 } },
		/* large values, small spread: no scaling */
		{ "{2^26 - 1, 0}", { (1ULL << 26) - 1, 0 }, 2,
		  { 0, 33554431, 33554431, 47453132, (1ULL << 26) - 1 } },
		{ "{2^26, 0}", { 1ULL << 26, 0 }, 2,
		  { 0, 33554432, 33554432, 47453132, 1ULL << 26 } },
		/* spread 81919 < 2^26: exact, sqrt(81919^2 + 81920^2) */
		{ "{2^40, 2^40 + 5 * 2^15 - 1}",
		  { 1ULL << 40, (1ULL << 40) + 5 * (1ULL << 15) - 1 }, 2,
		  { 1099511627776ULL, 1099511709695ULL, 1099511709695ULL, 115851,
		    1099511791615ULL } },
		/* the largest spread without scaling, then the smallest with it */
		/* deviations 2^26 - 1: floor((2^26 - 1) * sqrt(2)) */
		{ "{2^27 - 2, 0}", { (1ULL << 27) - 2, 0 }, 2,
		  { 0, 67108863, 67108863, 94906264, (1ULL << 27) - 2 } },
		/* deviations 2^26, shift 1: exact would be 94906265 */
		{ "{2^27, 0}", { 1ULL << 27, 0 }, 2,
		  { 0, 67108864, 67108864, 94906264, 1ULL << 27 } },
	};
	u64 vals[] = { 5, 3, 1 };
	struct time_bench_summary s;
	unsigned int i;

	s = time_bench_summarize(vals, 0);
	KTAP_CHECK(!s.min && !s.median && !s.mean && !s.stddev && !s.max,
		   "summarize of 0 values is all zero");
	KTAP_CHECK(vals[0] == 5 && vals[1] == 3 && vals[2] == 1,
		   "summarize of 0 values leaves the array alone");

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		expect_summary(cases[i].what, cases[i].vals, cases[i].n,
			       cases[i].want);
}

/* Sorted, reverse-sorted and duplicate-heavy input of 10 and 1000 values. */
static void test_summarize_order(void)
{
	static const u64 dups[] = { 3, 1, 3, 2, 1, 3, 2, 2, 1 };
	/* mean 5.5 truncated, sqrt(85 / 9) = 3.07 */
	static const struct time_bench_summary ten = { 1, 5, 5, 3, 10 };
	/* mean 499.5 truncated, sqrt(83333500 / 999) = 288.8 */
	static const struct time_bench_summary thousand = {
		0, 499, 499, 288, 999
	};
	static u64 up[TIME_BENCH_MAX_REPS], down[TIME_BENCH_MAX_REPS];
	static u64 mod10[TIME_BENCH_MAX_REPS];
	unsigned int i;

	for (i = 0; i < TIME_BENCH_MAX_REPS; i++) {
		up[i] = i;
		down[i] = TIME_BENCH_MAX_REPS - 1 - i;
		mod10[i] = i % 10;
	}
	expect_summary("1..10 ascending", up + 1, 10, ten);
	expect_summary("10..1 descending", down + TIME_BENCH_MAX_REPS - 11, 10,
		       ten);
	/* sqrt(6 / 8) = 0.87 */
	expect_summary("{3, 1, 3, 2, 1, 3, 2, 2, 1}", dups, ARRAY_SIZE(dups),
		       (struct time_bench_summary){ 1, 2, 2, 0, 3 });
	expect_summary("0..999 ascending", up, TIME_BENCH_MAX_REPS, thousand);
	expect_summary("999..0 descending", down, TIME_BENCH_MAX_REPS,
		       thousand);
	/* 100 of each digit: mean 4.5 truncated, sqrt(8500 / 999) = 2.92 */
	expect_summary("i % 10, i < 1000", mod10, TIME_BENCH_MAX_REPS,
		       (struct time_bench_summary){ 0, 4, 4, 2, 9 });
}

/* Means whose plain u64 sum would overflow. */
static void test_summarize_big(void)
{
	static u64 vals[TIME_BENCH_MAX_REPS];
	const u64 base = U64_MAX / 1000;	/* 18446744073709551 */
	unsigned int i;

	for (i = 0; i < TIME_BENCH_MAX_REPS; i++)
		vals[i] = base + 1;
	/* the sum 18446744073709552000 is beyond U64_MAX */
	expect_summary("1000 x {U64_MAX / 1000 + 1}", vals, TIME_BENCH_MAX_REPS,
		       (struct time_bench_summary){ base + 1, base + 1,
						    base + 1, 0, base + 1 });

	/*
	 * U64_MAX / 1000 + i % 7: the sum 18446744073709553997 overflows,
	 * mean 18446744073709553.997 truncated; the spread of 6 is kept.
	 */
	for (i = 0; i < TIME_BENCH_MAX_REPS; i++)
		vals[i] = base + i % 7;
	expect_summary("U64_MAX / 1000 + i % 7, i < 1000", vals,
		       TIME_BENCH_MAX_REPS,
		       (struct time_bench_summary){ base, base + 3, base + 2, 2,
						    base + 6 });

	for (i = 0; i < TIME_BENCH_MAX_REPS; i++)
		vals[i] = U64_MAX - i;
	/* mean U64_MAX - 499.5 truncated; the spread is kept */
	expect_summary("U64_MAX - i, i < 1000", vals, TIME_BENCH_MAX_REPS,
		       (struct time_bench_summary){ U64_MAX - 999, U64_MAX - 500,
						    U64_MAX - 500, 288, U64_MAX });

	for (i = 0; i < TIME_BENCH_MAX_REPS; i++)
		vals[i] = U64_MAX;
	expect_summary("1000 x {U64_MAX}", vals, TIME_BENCH_MAX_REPS,
		       (struct time_bench_summary){ U64_MAX, U64_MAX, U64_MAX,
						    0, U64_MAX });

	/* 500 x 0 and 500 x U64_MAX: median and mean S64_MAX */
	for (i = 0; i < TIME_BENCH_MAX_REPS; i++)
		vals[i] = i & 1 ? U64_MAX : 0;
	expect_summary("500 x {0, U64_MAX}", vals, TIME_BENCH_MAX_REPS,
		       (struct time_bench_summary){ 0, S64_MAX, S64_MAX,
						    9227986962034458624ULL,
						    U64_MAX });
}

/* @n random values below @limit, in one of a few shapes. */
static void rnd_values(u64 *vals, u32 n, u64 limit)
{
	u64 base, spread;
	u32 i;

	switch (ktap_rand() % 5) {
	case 0:	/* narrow: many duplicates */
		spread = 1 + ktap_rand() % 16;
		base = ktap_rand() % (limit - spread);
		for (i = 0; i < n; i++)
			vals[i] = base + ktap_rand() % spread;
		return;
	case 1:	/* the extremes and a few in between */
		for (i = 0; i < n; i++) {
			switch (ktap_rand() % 3) {
			case 0:
				vals[i] = 0;
				break;
			case 1:
				vals[i] = limit - 1;
				break;
			default:
				vals[i] = ktap_rand() % limit;
				break;
			}
		}
		return;
	default:
		for (i = 0; i < n; i++)
			vals[i] = ktap_rand() % limit;
		break;
	}
	/* already sorted, or sorted the wrong way */
	if (ktap_rand() % 3 == 0) {
		qsort(vals, n, sizeof(*vals), cmp_u64);
	} else if (ktap_rand() % 2 == 0) {
		qsort(vals, n, sizeof(*vals), cmp_u64);
		for (i = 0; i < n / 2; i++) {
			u64 t = vals[i];

			vals[i] = vals[n - 1 - i];
			vals[n - 1 - i] = t;
		}
	}
}

/* 1..TIME_BENCH_MAX_REPS, half of the time at most 10 */
static u32 rnd_reps(void)
{
	if (ktap_rand() & 1)
		return 1 + ktap_rand() % 10;
	return 1 + ktap_rand() % TIME_BENCH_MAX_REPS;
}

/* Spreads below 2^26 are never scaled: the summary is exact. */
static void test_random_summarize(unsigned int sets)
{
	static u64 vals[TIME_BENCH_MAX_REPS], orig[TIME_BENCH_MAX_REPS];
	static u64 sorted[TIME_BENCH_MAX_REPS];
	char w[SUMMARY_LEN], g[SUMMARY_LEN];
	unsigned int i, bad = 0, bad_sd = 0, bad_sort = 0;

	for (i = 0; i < sets; i++) {
		struct time_bench_summary got, want;
		u32 n = rnd_reps();

		rnd_values(orig, n, 1ULL << 26);
		memcpy(vals, orig, n * sizeof(*vals));
		got = time_bench_summarize(vals, n);
		want = ref_summarize(orig, n, sorted);
		if (memcmp(vals, sorted, n * sizeof(*vals)) &&
		    bad_sort++ < DIAG_MAX)
			ktap_diag("set %u, n = %u: not sorted", i, n);
		if (!same_but_stddev(&got, &want) && bad++ < DIAG_MAX)
			ktap_diag("set %u, n = %u: want %s, got %s", i, n,
				  fmt_summary(w, &want), fmt_summary(g, &got));
		if (got.stddev != want.stddev && bad_sd++ < DIAG_MAX)
			ktap_diag("set %u, n = %u: stddev want %llu got %llu",
				  i, n, want.stddev, got.stddev);
	}
	KTAP_CHECK(!bad_sort,
		   "%u random summarize (n 1..1000, values < 2^26) sort in place (%u wrong)",
		   sets, bad_sort);
	KTAP_CHECK(!bad,
		   "%u random summarize (values < 2^26): min, median, mean, max exact (%u wrong)",
		   sets, bad);
	KTAP_CHECK(!bad_sd, "%u random summarize (values < 2^26): stddev exact (%u wrong)",
		   sets, bad_sd);
}

/*
 * Values around 2^40 with spreads up to 2^39: deviations beyond 2^26 are
 * shifted right by s before they are squared.  Bound on the stddev
 * error, Q = 2^s (the analysis below is for shifting the values; shifting
 * the deviations from the exact truncated mean errs less):
 *
 * With v = Q * w + e, 0 <= e < Q, the reference is floor(Tv) with
 * Tv = |v - mv| / sqrt(n - 1), mv = floor(mean(v)), and the result is
 * Q * floor(Tw / Q) with Tw = |Q * w - Q * mw| / sqrt(n - 1).  By the
 * triangle inequality |Tw - Tv| <= |e - c| / sqrt(n - 1) for the constant
 * c = mv - Q * mw, and |e - c|^2 = |e - mean(e)|^2 + n * (c - mean(e))^2
 * < n * Q^2 / 4 + n * Q^2 since e spans less than Q and c - mean(e) lies
 * in (Q * frac(mean(w)) - 1, Q * frac(mean(w))].  So
 * |Tw - Tv| < Q * sqrt(5/4 * n / (n - 1)) <= 1.59 * Q for n >= 2, the two
 * floors add less than Q and 1, and for Q >= 2:
 *
 *	|stddev - unscaled reference| < 3 * 2^shift
 *
 * Errors of more than 2^shift were measured (2.3 * 2^shift), so 2^shift
 * itself is not a bound.
 */
static void test_random_summarize_scaled(unsigned int sets)
{
	static u64 vals[TIME_BENCH_MAX_REPS], orig[TIME_BENCH_MAX_REPS];
	static u64 sorted[TIME_BENCH_MAX_REPS];
	char w[SUMMARY_LEN], g[SUMMARY_LEN];
	unsigned int i, bad = 0, bad_sd = 0, bad_sort = 0, over_q = 0;
	unsigned int over_q_big_n = 0;
	double worst = 0;

	for (i = 0; i < sets; i++) {
		struct time_bench_summary got, want;
		u32 n = 2 + ktap_rand() % (TIME_BENCH_MAX_REPS - 1), j;
		u64 base = (1ULL << 39) + ktap_rand() % (1ULL << 40);
		u64 spread = 1ULL << (1 + ktap_rand() % 39);
		unsigned int shift;
		u64 err, q;

		if (ktap_rand() & 1)
			n = 2 + ktap_rand() % 9;
		for (j = 0; j < n; j++)
			orig[j] = base + ktap_rand() % spread;
		memcpy(vals, orig, n * sizeof(*vals));
		got = time_bench_summarize(vals, n);
		want = ref_summarize(orig, n, sorted);
		shift = summary_shift(&want);
		q = 1ULL << shift;
		err = got.stddev > want.stddev ? got.stddev - want.stddev :
						 want.stddev - got.stddev;
		if ((double)err / q > worst)
			worst = (double)err / q;
		if (err >= q) {
			over_q++;
			over_q_big_n += n > 10;
		}
		if (memcmp(vals, sorted, n * sizeof(*vals)) &&
		    bad_sort++ < DIAG_MAX)
			ktap_diag("set %u, n = %u: not sorted", i, n);
		if (!same_but_stddev(&got, &want) && bad++ < DIAG_MAX)
			ktap_diag("set %u, n = %u: want %s, got %s", i, n,
				  fmt_summary(w, &want), fmt_summary(g, &got));
		if (err >= 3 * q && bad_sd++ < DIAG_MAX)
			ktap_diag("set %u, n = %u, shift %u: stddev %llu, unscaled %llu",
				  i, n, shift, got.stddev, want.stddev);
	}
	KTAP_CHECK(!bad_sort, "%u random summarize (around 2^40) sort in place (%u wrong)",
		   sets, bad_sort);
	KTAP_CHECK(!bad,
		   "%u random summarize (around 2^40): min, median, mean, max exact (%u wrong)",
		   sets, bad);
	KTAP_CHECK(!bad_sd,
		   "%u random summarize (around 2^40): stddev within 3 * 2^shift (%u wrong)",
		   sets, bad_sd);
	ktap_diag("largest error %.3f * 2^shift; %u sets off by 2^shift or more, %u with n > 10",
		  worst, over_q, over_q_big_n);
}

/* The accelerator from the CPUID signature, the clock from it and the
 * TSC rate: instructions only under TCG at 1 GHz within 0.1%.
 */
static void test_instrument(void)
{
	static const struct {
		bool hv;
		const char *sig;	/* 12 bytes */
		enum time_bench_accel want;
	} sigs[] = {
		{ false, "TCGTCGTCGTCG", TIME_BENCH_ACCEL_NONE },
		{ true, "TCGTCGTCGTCG", TIME_BENCH_ACCEL_TCG },
		{ true, "KVMKVMKVM\0\0\0", TIME_BENCH_ACCEL_KVM },
		{ true, "KVMKVMKVMKVM", TIME_BENCH_ACCEL_OTHER },
		{ true, "Microsoft Hv", TIME_BENCH_ACCEL_OTHER },
		{ true, "\0\0\0\0\0\0\0\0\0\0\0\0", TIME_BENCH_ACCEL_OTHER },
	};
	static const struct {
		enum time_bench_accel accel;
		u32 khz;
		enum time_bench_clock want;
	} clocks[] = {
		{ TIME_BENCH_ACCEL_TCG, 1000000, TIME_BENCH_CLOCK_INSTRUCTIONS },
		/* "tsc: Detected 999.993 MHz" before the refinement */
		{ TIME_BENCH_ACCEL_TCG, 999993, TIME_BENCH_CLOCK_INSTRUCTIONS },
		{ TIME_BENCH_ACCEL_TCG, 999000, TIME_BENCH_CLOCK_INSTRUCTIONS },
		{ TIME_BENCH_ACCEL_TCG, 1001000, TIME_BENCH_CLOCK_INSTRUCTIONS },
		{ TIME_BENCH_ACCEL_TCG, 998999, TIME_BENCH_CLOCK_CYCLES },
		{ TIME_BENCH_ACCEL_TCG, 1001001, TIME_BENCH_CLOCK_CYCLES },
		/* plain TCG: the host's TSC rate */
		{ TIME_BENCH_ACCEL_TCG, 2100000, TIME_BENCH_CLOCK_CYCLES },
		{ TIME_BENCH_ACCEL_TCG, 0, TIME_BENCH_CLOCK_CYCLES },
		{ TIME_BENCH_ACCEL_KVM, 1000000, TIME_BENCH_CLOCK_CYCLES },
		{ TIME_BENCH_ACCEL_NONE, 1000000, TIME_BENCH_CLOCK_CYCLES },
		{ TIME_BENCH_ACCEL_OTHER, 1000000, TIME_BENCH_CLOCK_CYCLES },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sigs); i++) {
		enum time_bench_accel got = time_bench_accel_of(sigs[i].hv,
								sigs[i].sig);

		KTAP_CHECK(got == sigs[i].want,
			   "accel_of(%d, \"%.12s\") = %s (want %s)", sigs[i].hv,
			   sigs[i].sig, time_bench_accel_name(got),
			   time_bench_accel_name(sigs[i].want));
	}
	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		enum time_bench_clock got = time_bench_clock_of(clocks[i].accel,
								clocks[i].khz);

		KTAP_CHECK(got == clocks[i].want,
			   "clock_of(%s, %u kHz) = %s (want %s)",
			   time_bench_accel_name(clocks[i].accel), clocks[i].khz,
			   time_bench_clock_name(got),
			   time_bench_clock_name(clocks[i].want));
	}
}

/*
 * The loop driver against a fake context: each chunk's iterations cost
 * ps_per_iter picoseconds (and cycles_per_ns cycles per ns) on a clock
 * that only the chunks advance, plus chunk_ns_extra per chunk.  The body
 * stops short once fail_after iterations ran in all; the context fails
 * chunk number error_chunk; stop() says yes at call number stop_call.
 */
#define FAKE_MAX_CHUNKS	4096

struct fake {
	u64 now_ns;
	u64 ps_per_iter;
	u64 cycles_per_ns;
	u64 chunk_ns_extra;
	u64 fail_after;		/* 0: never */
	u64 ran;		/* iterations, all chunks */
	u32 error_chunk;	/* 1-based; 0: never */
	int error;
	u32 stop_call;		/* 1-based; 0: never */
	u32 stop_calls;
	u32 chunks;
	u32 timed_chunks;	/* all of them, past FAKE_MAX_CHUNKS too */
	u64 asked[FAKE_MAX_CHUNKS];
	bool timed[FAKE_MAX_CHUNKS];
	int cpu_every;		/* move to the next CPU every N chunks */
	bool softirq;
	bool in_context;
	int before_ret;
	u32 before_at;		/* chunks run when before_reps was called */
	u32 after_at;
	u32 before_calls, after_calls;
	/* per repetition speeds: chunk index where the speed changes */
	u64 slow_from_chunk, slow_ps_per_iter;
	/* chunks switched_from up to switched_to (1-based) had their
	 * task switched out twice; each adds switched_ns
	 */
	u32 switched_from, switched_to;
	u64 switched_ns;
	/* what entered those chunks; none given: two switches */
	struct time_bench_entered switched_entered;
	/* a periodic interrupt (a tick) every tick_ns of the fake clock,
	 * from its start: a window it falls in holds a timer interrupt
	 * and a softirq, and tick_cost_ns more
	 */
	u64 tick_ns, tick_cost_ns;
	/* an interrupt in every chunk that runs longer than this, as the
	 * hrtick at the end of a scheduler slice
	 */
	u64 slice_ns;
	bool preemptible;
	/* a body that works in batches: every refill_every-th iteration
	 * of all it ran (its phase carries over from chunk to chunk, the
	 * warm-up's and retried ones' included) costs refill_ps more
	 */
	u64 refill_every, refill_ps;
};

static void fake_run_chunk(void *arg, struct time_bench_chunk *c, bool timed)
{
	struct fake *f = arg;
	u64 n = c->loops, ps;

	f->chunks++;
	f->timed_chunks += timed;
	if (f->chunks <= FAKE_MAX_CHUNKS) {
		f->asked[f->chunks - 1] = c->loops;
		f->timed[f->chunks - 1] = timed;
	}
	if (f->error_chunk && f->chunks == f->error_chunk) {
		c->error = f->error;
		return;
	}
	if (f->fail_after && f->ran + n > f->fail_after)
		n = f->fail_after - f->ran;
	ps = f->slow_from_chunk && f->chunks >= f->slow_from_chunk ?
	     f->slow_ps_per_iter : f->ps_per_iter;
	c->start.ns = f->now_ns;
	c->start.cycles = f->now_ns * f->cycles_per_ns;
	f->now_ns += (u64)((unsigned __int128)n * ps / 1000) +
		     f->chunk_ns_extra;
	if (f->refill_every)
		f->now_ns += ((f->ran + n) / f->refill_every -
			      f->ran / f->refill_every) * f->refill_ps / 1000;
	c->completed = n;
	f->ran += n;
	if (f->switched_from && f->chunks >= f->switched_from &&
	    f->chunks <= f->switched_to) {
		c->entered = f->switched_entered;
		if (!time_bench_entered_any(&c->entered))
			c->entered.n[TIME_BENCH_SWITCH] = 2;
		f->now_ns += f->switched_ns;
	}
	if (f->tick_ns) {
		u64 ticks = f->now_ns / f->tick_ns - c->start.ns / f->tick_ns;

		c->entered.n[TIME_BENCH_TIMER] += ticks;
		c->entered.n[TIME_BENCH_SOFTIRQ] += ticks;
		f->now_ns += ticks * f->tick_cost_ns;
	}
	if (f->slice_ns && f->now_ns - c->start.ns > f->slice_ns) {
		c->entered.n[TIME_BENCH_TIMER]++;
		f->now_ns += f->tick_cost_ns;
	}
	c->stop.ns = f->now_ns;
	c->stop.cycles = f->now_ns * f->cycles_per_ns;
	c->cpu = f->cpu_every ? (int)((f->chunks - 1) / f->cpu_every) : 0;
	c->in_softirq = f->softirq;
	c->in_context = f->in_context;
	c->preemptible = f->preemptible;
}

static bool fake_stop(void *arg)
{
	struct fake *f = arg;

	return ++f->stop_calls == f->stop_call;
}

static int fake_before(void *arg)
{
	struct fake *f = arg;

	f->before_calls++;
	f->before_at = f->chunks;
	return f->before_ret;
}

static void fake_after(void *arg)
{
	struct fake *f = arg;

	f->after_calls++;
	f->after_at = f->chunks;
}

static const struct time_bench_driver_ops fake_ops = {
	.run_chunk = fake_run_chunk,
	.stop = fake_stop,
	.before_reps = fake_before,
	.after_reps = fake_after,
};

#define FAKE_MAX_REPS	16
#define MS		1000000ULL	/* ns */

struct drive {
	struct fake f;
	struct time_bench_driver d;
	struct time_bench_plan plan;
	struct time_bench_outcome o;
	struct time_bench_record recs[FAKE_MAX_REPS];
	u64 cyc[FAKE_MAX_REPS], ns[FAKE_MAX_REPS], sorted[FAKE_MAX_REPS];
	enum time_bench_end end;
};

/* Defaults: 10 ns per iteration, 2 cycles per ns, sized by 200 ms in 5
 * repetitions, chunks of 10 ms, a warm-up of 1024.
 */
static void drive_init(struct drive *x)
{
	memset(x, 0, sizeof(*x));
	x->f.ps_per_iter = 10000;
	x->f.cycles_per_ns = 2;
	x->f.in_context = true;
	x->d.ops = &fake_ops;
	x->d.arg = &x->f;
	x->d.chunk_ns = 10 * MS;
	x->plan.warmup_loops = 1024;
	x->plan.time_ns = 200 * MS;
	x->plan.reps = 5;
	x->plan.min_loops = 1000;
	x->plan.max_loops = U32_MAX;
	x->o.recs = x->recs;
	x->o.cycles_milli = x->cyc;
	x->o.ns_milli = x->ns;
	x->o.sorted = x->sorted;
}

static void drive_run(struct drive *x)
{
	x->end = time_bench_drive(&x->d, &x->plan, &x->o);
}

/* The first chunk: the warm-up, untimed; the next grows 16-fold at most. */
static void test_drive_warmup(void)
{
	struct drive x;

	drive_init(&x);
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_DONE, "drive: a plain run ends well");
	KTAP_CHECK(x.f.asked[0] == 1024 && !x.f.timed[0],
		   "drive: the warm-up is one untimed chunk of 1024 (%llu, %s)",
		   x.f.asked[0], x.f.timed[0] ? "timed" : "untimed");
	KTAP_CHECK(x.f.asked[1] == 16 * 1024,
		   "drive: the chunk after it grows 16-fold at most (%llu)",
		   x.f.asked[1]);
	KTAP_CHECK(x.f.asked[2] == 16 * 16 * 1024,
		   "drive: and again (%llu)", x.f.asked[2]);
	/* 2.8 ms so far: the next chunk aims at 10 ms, and is the last one
	 * of the calibration, which runs until 10 ms of work are done
	 */
	KTAP_CHECK(x.f.asked[3] == 10 * MS / 10 && !x.f.timed[3] &&
		   x.f.timed[4],
		   "drive: then a full 10 ms chunk ends the calibration (%llu)",
		   x.f.asked[3]);
}

/* Calibration: loops per repetition from its speed, within bounds. */
static void test_drive_calibration(void)
{
	static const struct {
		u64 ps, time_ns;
		u32 reps;
		u64 want;
		const char *what;
	} cases[] = {
		{ 10000, 200 * MS, 5, 4000000, "40 ms at 10 ns" },
		{ 78060, 200 * MS, 5, 512426, "40 ms at 78.06 ns" },
		{ 2500, 30 * MS, 3, 4000000, "10 ms at 2.5 ns" },
		{ 1000000000, 200 * MS, 5, 1000, "at 1 ms: min_loops" },
		{ 1, 60000 * MS, 1, U32_MAX, "at 1 ps: U32_MAX" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct drive x;

		drive_init(&x);
		x.f.ps_per_iter = cases[i].ps;
		x.plan.time_ns = cases[i].time_ns;
		x.plan.reps = cases[i].reps;
		drive_run(&x);
		KTAP_CHECK(x.end == TIME_BENCH_DONE && x.o.loops == cases[i].want,
			   "drive: calibration sizes %s to %llu loops (%llu)",
			   cases[i].what, cases[i].want, x.o.loops);
	}
}

/* Every repetition runs its loops in chunks of about chunk_ns. */
static void test_drive_chunks(void)
{
	u64 per_chunk = 10 * MS / 10, sum = 0, longest = 0;
	u32 i, timed = 0, first = 0;
	struct drive x;

	drive_init(&x);
	drive_run(&x);
	for (i = 0; i < x.f.chunks; i++) {
		if (!x.f.timed[i])
			continue;
		if (!timed++)
			first = i;
		sum += x.f.asked[i];
		if (x.f.asked[i] > longest)
			longest = x.f.asked[i];
	}
	KTAP_CHECK(sum == 5 * x.o.loops,
		   "drive: the timed chunks add up to reps x loops (%llu)",
		   sum);
	KTAP_CHECK(longest <= per_chunk,
		   "drive: no timed chunk longer than 10 ms (%llu <= %llu loops)",
		   longest, per_chunk);
	KTAP_CHECK(timed == 5 * 4 && x.o.where.chunks == timed,
		   "drive: 4 chunks of 10 ms per 40 ms repetition, all noted (%u, %u)",
		   timed, x.o.where.chunks);
	KTAP_CHECK(x.f.before_calls == 1 && x.f.before_at == first &&
		   x.f.after_calls == 1 && x.f.after_at == x.f.chunks,
		   "drive: before_reps after the calibration (chunk %u of %u), after_reps after the last",
		   x.f.before_at, first);
	for (i = 0; i < 5; i++)
		if (x.recs[i].invocations != x.o.loops ||
		    x.recs[i].chunks != 4)
			break;
	KTAP_CHECK(i == 5, "drive: each repetition's record holds its loops in 4 chunks");
}

/* A fixed loops count: no calibration, and chunks no larger than it. */
static void test_drive_fixed_loops(void)
{
	struct drive x;
	u32 i;

	drive_init(&x);
	x.plan.loops = 20000;
	x.plan.reps = 3;
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_DONE && x.o.loops == 20000,
		   "drive: loops=20000 is used as is");
	KTAP_CHECK(x.f.before_at == 1,
		   "drive: no calibration chunk between warm-up and repetitions (%u)",
		   x.f.before_at);
	for (i = 1; i < x.f.chunks; i++)
		if (!x.f.timed[i] || x.f.asked[i] > 20000)
			break;
	KTAP_CHECK(i == x.f.chunks && x.f.asked[1] == 16384 &&
		   x.f.asked[2] == 20000 - 16384 && x.o.total_invocations == 60000,
		   "drive: timed chunks within a repetition, 60000 in all (%llu)",
		   x.o.total_invocations);
}

/* The summary: per repetition values, the median one, min and max. */
static void test_drive_summary(void)
{
	struct drive x;

	drive_init(&x);
	x.plan.loops = 100000;
	x.plan.reps = 3;
	x.plan.warmup_loops = 100000;
	/* chunks of 100000 at 10 ns: warm-up, rep 1, rep 2 at 10 ns,
	 * rep 3 at 12.5 ns; each chunk also pays 1 us of overhead
	 */
	x.f.chunk_ns_extra = 1000;
	x.f.slow_from_chunk = 4;
	x.f.slow_ps_per_iter = 12500;
	drive_run(&x);
	KTAP_CHECK(x.cyc[0] == 20020 && x.cyc[1] == 20020 && x.cyc[2] == 25020,
		   "drive: cycles per element in thousandths per rep (%llu %llu %llu)",
		   x.cyc[0], x.cyc[1], x.cyc[2]);
	KTAP_CHECK(x.ns[2] == 12510 && x.o.ns.max == 12510 &&
		   x.o.ns.min == 10010,
		   "drive: ns per element, min and max (%llu %llu %llu)",
		   x.ns[2], x.o.ns.min, x.o.ns.max);
	KTAP_CHECK(x.o.median_rep == 0 && x.o.cycles.median == 20020,
		   "drive: the legacy line shows the first median repetition (%u)",
		   x.o.median_rep);
	KTAP_CHECK(x.o.total_invocations == 300000,
		   "drive: total iterations (%llu)", x.o.total_invocations);
}

/* Where the chunks ran, and the context name that follows. */
static void test_drive_where(void)
{
	struct time_bench_where w = { 0 };
	struct drive x;

	drive_init(&x);
	x.plan.loops = 40000;
	x.plan.reps = 2;
	/* chunks 16384, 23616 (rep 1), 40000 (rep 2), each on a CPU of
	 * its own: the first timed one on CPU 1
	 */
	x.f.cpu_every = 1;
	x.f.softirq = true;
	drive_run(&x);
	KTAP_CHECK(x.o.where.chunks == 3 && x.o.where.cpu == 1 &&
		   x.o.where.cpu_moves == 2 && x.o.where.softirq_chunks == 3,
		   "drive: the first timed chunk's CPU, and the moves off it (%d, %u of %u)",
		   x.o.where.cpu, x.o.where.cpu_moves, x.o.where.chunks);
	KTAP_CHECK(!strcmp(time_bench_where_name(&x.o.where, "napi"), "napi"),
		   "where: all chunks in the context: its name");
	w.chunks = 4;
	w.softirq_chunks = 4;
	w.context_chunks = 3;
	KTAP_CHECK(!strcmp(time_bench_where_name(&w, "napi"), "softirq"),
		   "where: all in softirq, not all in the context: softirq");
	w.softirq_chunks = 0;
	w.context_chunks = 0;
	KTAP_CHECK(!strcmp(time_bench_where_name(&w, "softirq"), "process"),
		   "where: none in softirq: process");
	w.softirq_chunks = 2;
	KTAP_CHECK(!strcmp(time_bench_where_name(&w, "softirq"), "mixed"),
		   "where: some in softirq: mixed");
}

/*
 * Chunks another task ran inside: a timed one runs again, up to
 * TIME_BENCH_RETRIES times, and counts only if clean or the last try;
 * untimed ones (warm-up, calibration) are never retried.
 */
static void test_drive_switched(void)
{
	u32 timed;
	struct drive x;

	/* loops=40000, 2 reps: the warm-up (chunk 1) and the first two
	 * timed chunks are switched out: the first timed chunk runs three
	 * times (smaller each time: the next chunk is sized by the speed
	 * of the last)
	 */
	drive_init(&x);
	x.plan.loops = 40000;
	x.plan.reps = 2;
	x.f.switched_from = 1;
	x.f.switched_to = 3;
	x.f.switched_ns = 5 * MS;
	x.f.preemptible = true;
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_DONE && x.f.timed[1] &&
		   x.o.where.retried_chunks == 2 &&
		   x.o.where.perturbed_chunks == 0 &&
		   x.o.where.retried_invocations ==
		   x.f.asked[1] + x.f.asked[2],
		   "drive: two switched timed chunks run again, the warm-up is not retried (%u chunks, %u retried, %llu iterations)",
		   x.f.chunks, x.o.where.retried_chunks,
		   x.o.where.retried_invocations);
	KTAP_CHECK(x.o.total_invocations == 80000 &&
		   x.o.where.chunks == x.f.chunks - 3 &&
		   x.recs[0].ns == 40000 * 10 && x.cyc[0] == 20000,
		   "drive: what they cost counts nowhere (%llu ns, %llu thousandths of a cycle)",
		   x.recs[0].ns, x.cyc[0]);
	KTAP_CHECK(x.o.where.preemptible_chunks == x.o.where.chunks,
		   "drive: preemptible windows counted (%u)",
		   x.o.where.preemptible_chunks);

	/* every chunk switched: each timed one tried 1 + 3 times, then
	 * kept as perturbed
	 */
	drive_init(&x);
	x.plan.loops = 40000;
	x.plan.reps = 2;
	x.f.switched_from = 1;
	x.f.switched_to = U32_MAX;
	x.f.switched_ns = 1 * MS;
	drive_run(&x);
	timed = x.f.timed_chunks;
	KTAP_CHECK(x.end == TIME_BENCH_DONE &&
		   x.o.where.perturbed_chunks == x.o.where.chunks &&
		   x.o.where.retried_chunks ==
		   TIME_BENCH_RETRIES * x.o.where.chunks &&
		   timed == (TIME_BENCH_RETRIES + 1) * x.o.where.chunks,
		   "drive: a chunk switched out on every try is kept after %u tries, as perturbed (%u of %u kept, %u timed runs)",
		   TIME_BENCH_RETRIES + 1, x.o.where.perturbed_chunks,
		   x.o.where.chunks, timed);
	KTAP_CHECK(x.o.total_invocations == 80000 &&
		   x.o.where.preemptible_chunks == 0,
		   "drive: a perturbed run still measures every repetition's loops (%llu)",
		   x.o.total_invocations);
}

/*
 * A tick every 4 ms, each costing 20 us inside the window it falls in:
 * chunks of a quarter tick, as the module sizes them.  A chunk the tick
 * hit runs again and misses it (the next tick is 4 ms away); the figure
 * is the body's alone, and the results say what was retried.
 */
static void test_drive_ticks(void)
{
	struct drive x;
	u32 r, clean = 0;

	drive_init(&x);
	x.d.chunk_ns = 1 * MS;
	x.plan.reps = 10;
	x.f.tick_ns = 4 * MS;
	x.f.tick_cost_ns = 20000;
	drive_run(&x);
	for (r = 0; r < x.plan.reps; r++)
		clean += x.recs[r].ns == x.recs[r].invocations * 10;
	KTAP_CHECK(x.end == TIME_BENCH_DONE && clean == x.plan.reps &&
		   x.o.where.perturbed_chunks == 0 &&
		   !time_bench_entered_any(&x.o.where.perturbed_entered),
		   "drive: ticks in 1 ms chunks: every repetition reads the body's 10 ns alone (%u of %u clean, %u perturbed)",
		   clean, x.plan.reps, x.o.where.perturbed_chunks);
	KTAP_CHECK(x.o.where.retried_chunks &&
		   x.o.where.retried_chunks * 3 < x.o.where.chunks &&
		   x.o.where.retried_entered.n[TIME_BENCH_TIMER] ==
		   x.o.where.retried_chunks &&
		   x.o.where.retried_entered.n[TIME_BENCH_SOFTIRQ] ==
		   x.o.where.retried_chunks &&
		   !x.o.where.retried_entered.n[TIME_BENCH_SWITCH],
		   "drive: about one chunk in four held the tick and ran again, counted by kind (%u of %u; timer %u, softirq %u)",
		   x.o.where.retried_chunks, x.o.where.chunks,
		   x.o.where.retried_entered.n[TIME_BENCH_TIMER],
		   x.o.where.retried_entered.n[TIME_BENCH_SOFTIRQ]);

	/* 10 ms chunks (the engine's before): every first try holds two
	 * or three ticks; halved twice, a retry gets between two
	 */
	drive_init(&x);
	x.f.tick_ns = 4 * MS;
	x.f.tick_cost_ns = 20000;
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_DONE &&
		   x.o.where.perturbed_chunks == 0 &&
		   x.o.where.retried_chunks >= x.o.where.chunks / 2 &&
		   x.o.where.retried_entered.n[TIME_BENCH_TIMER] >=
		   x.o.where.retried_chunks,
		   "drive: ticks in 10 ms chunks: most tries hold one or more, the figure is clean only by retrying (%u retried for %u kept, timer %u)",
		   x.o.where.retried_chunks, x.o.where.chunks,
		   x.o.where.retried_entered.n[TIME_BENCH_TIMER]);
}

/*
 * An interrupt at the end of every 0.75 ms slice (7.x's hrtick while
 * another task waits) hits every 1 ms chunk: its retry, half as long,
 * misses it.
 */
static void test_drive_slices(void)
{
	struct drive x;
	u32 r, clean = 0;

	drive_init(&x);
	x.d.chunk_ns = 1 * MS;
	x.plan.reps = 10;
	x.f.slice_ns = 750000;
	x.f.tick_cost_ns = 20000;
	drive_run(&x);
	for (r = 0; r < x.plan.reps; r++)
		clean += x.recs[r].ns == x.recs[r].invocations * 10;
	KTAP_CHECK(x.end == TIME_BENCH_DONE && clean == x.plan.reps &&
		   x.o.where.perturbed_chunks == 0 &&
		   x.o.where.retried_chunks,
		   "drive: an interrupt in every chunk longer than 0.75 ms: retried half as long, none kept (%u retried, %u of %u clean)",
		   x.o.where.retried_chunks, clean, x.plan.reps);
}

/*
 * An interrupt that enters every try of every chunk (a fast timer on
 * the CPU): kept after TIME_BENCH_RETRIES retries, perturbed, and what
 * entered the kept ones and the retried ones are told apart.
 */
static void test_drive_interrupted(void)
{
	char buf[TIME_BENCH_ENTERED_LEN], want[TIME_BENCH_ENTERED_LEN];
	struct drive x;

	drive_init(&x);
	x.plan.loops = 40000;
	x.plan.reps = 2;
	x.f.switched_from = 1;
	x.f.switched_to = U32_MAX;
	x.f.switched_entered.n[TIME_BENCH_IRQ] = 3;
	x.f.switched_entered.n[TIME_BENCH_NMI] = 1;
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_DONE &&
		   x.o.where.perturbed_chunks == x.o.where.chunks &&
		   x.o.where.retried_chunks ==
		   TIME_BENCH_RETRIES * x.o.where.chunks,
		   "drive: interrupts on every try: %u tries, then kept perturbed (%u of %u, %u retried)",
		   TIME_BENCH_RETRIES + 1, x.o.where.perturbed_chunks,
		   x.o.where.chunks, x.o.where.retried_chunks);
	KTAP_CHECK(x.o.where.perturbed_entered.n[TIME_BENCH_IRQ] ==
		   3 * x.o.where.chunks &&
		   x.o.where.perturbed_entered.n[TIME_BENCH_NMI] ==
		   x.o.where.chunks &&
		   x.o.where.retried_entered.n[TIME_BENCH_IRQ] ==
		   3 * x.o.where.retried_chunks,
		   "drive: the kept chunks' interrupts and the retried ones' counted apart (%u, %u)",
		   x.o.where.perturbed_entered.n[TIME_BENCH_IRQ],
		   x.o.where.retried_entered.n[TIME_BENCH_IRQ]);
	time_bench_format_entered(buf, sizeof(buf),
				  &x.o.where.perturbed_entered);
	snprintf(want, sizeof(want), "irq:%u,nmi:%u", 3 * x.o.where.chunks,
		 x.o.where.chunks);
	KTAP_CHECK(!strcmp(buf, want),
		   "entered: kinds in order, only those that entered (%s)",
		   buf);
}

/* The contract of time_bench_batch_chunk(), checked on every small case
 * and on random large ones.
 */
static bool batch_chunk_ok(u64 want, u64 remaining, u64 batch, u64 got)
{
	u64 cap = want < remaining ? want : remaining, k;

	if (batch <= 1)
		return got == cap;
	if (remaining < batch)
		return got == remaining;
	if (got % batch)
		return false;
	k = got / batch;
	if (k & (k - 1))			/* batch * 2^j */
		return false;
	if (got > remaining)
		return false;
	/* the largest such not above cap, or one batch below it */
	return cap < batch ? got == batch :
	       got <= cap && (got > cap / 2 || got > U64_MAX / 2);
}

static void test_batch_chunk(void)
{
	static const u64 batches[] = { 0, 1, 3, 64, 100 };
	u64 want, rem, got, bad = 0, cases = 0;
	size_t b;
	u32 i;

	for (b = 0; b < ARRAY_SIZE(batches); b++)
		for (want = 0; want <= 600; want++)
			for (rem = 1; rem <= 600; rem++) {
				got = time_bench_batch_chunk(want, rem,
							     batches[b]);
				cases++;
				bad += !batch_chunk_ok(want, rem, batches[b],
						       got);
			}
	for (i = 0; i < 200000; i++) {
		u64 batch = ktap_rand() % 1000 + 2;

		want = rnd_mag();
		rem = rnd_mag();
		if (!rem)
			rem = 1;
		got = time_bench_batch_chunk(want, rem, batch);
		cases++;
		if (!batch_chunk_ok(want, rem, batch, got) && bad++ < DIAG_MAX)
			ktap_diag("batch_chunk(%llu, %llu, %llu) = %llu",
				  want, rem, batch, got);
	}
	KTAP_CHECK(!bad,
		   "batch_chunk: %llu cases batch * 2^k, the largest within want and remaining, at least a batch, the rest under one (%llu wrong)",
		   cases, bad);
	KTAP_CHECK(time_bench_batch_chunk(1000, 1000, 64) == 512 &&
		   time_bench_batch_chunk(1000, 40, 64) == 40 &&
		   time_bench_batch_chunk(10, 1000, 64) == 64 &&
		   time_bench_batch_chunk(U64_MAX, U64_MAX, 64) == 1ULL << 63,
		   "batch_chunk: 1000 -> 512, a remainder of 40 -> 40, 10 -> 64, U64_MAX -> 2^63");
	KTAP_CHECK(time_bench_batch_loops(1000, 64, 1000, U32_MAX) == 1024 &&
		   time_bench_batch_loops(25600, 8192, 1000, U32_MAX) == 24576 &&
		   time_bench_batch_loops(28672, 8192, 1000, U32_MAX) == 32768 &&
		   time_bench_batch_loops(1000, 4096, 1000, U32_MAX) == 4096 &&
		   time_bench_batch_loops(1100, 1024, 1100, U32_MAX) == 2048 &&
		   time_bench_batch_loops(U32_MAX, 64, 1000, U32_MAX) ==
		   U32_MAX - 63 &&
		   time_bench_batch_loops(1000, 0, 1000, U32_MAX) == 1000 &&
		   time_bench_batch_loops(10, 64, 1, 32) == 10,
		   "batch_loops: the nearest whole number of chunks, at least one and min_loops, at most max_loops; unchanged without a unit or above max_loops");
}

/*
 * A body that refills every 64 iterations, 40 times the cost of one,
 * a tick every 4 ms: with chunks of whole batches every repetition
 * holds the same refills, and the retries (halves) keep it so, so every
 * repetition reads the same; with chunks of any length they do not.
 */
static void test_drive_batches(void)
{
	u32 i, r, whole = 0, timed = 0, same = 0;
	struct drive x;

	drive_init(&x);
	x.d.chunk_ns = 1 * MS;
	x.d.batch = 64;
	x.plan.time_ns = 100 * MS;
	x.plan.reps = 10;
	x.f.ps_per_iter = 4300000;		/* 4.3 us */
	x.f.refill_every = 64;
	x.f.refill_ps = 40 * x.f.ps_per_iter;
	x.f.tick_ns = 4 * MS;
	x.f.tick_cost_ns = 20000;
	drive_run(&x);
	for (i = 0; i < x.f.chunks && i < FAKE_MAX_CHUNKS; i++) {
		u64 k = x.f.asked[i] / 64;

		if (!x.f.timed[i])
			continue;
		timed++;
		whole += !(x.f.asked[i] % 64) && !(k & (k - 1));
	}
	for (r = 0; r < x.plan.reps; r++)
		same += x.ns[r] == x.ns[0];
	KTAP_CHECK(x.end == TIME_BENCH_DONE && !(x.o.loops % 64) &&
		   timed && whole == timed && x.o.where.retried_chunks &&
		   x.f.chunks <= FAKE_MAX_CHUNKS,
		   "drive: batch 64: %llu loops a repetition, every timed chunk 64 * 2^k, retries included (%u of %u, %u retried)",
		   x.o.loops, whole, timed, x.o.where.retried_chunks);
	KTAP_CHECK(same == x.plan.reps && x.o.where.perturbed_chunks == 0 &&
		   x.o.cycles.min == x.o.cycles.median &&
		   x.o.cycles.min == x.o.cycles.max,
		   "drive: batch 64: every repetition holds loops / 64 refills, min = median = max (%llu, %llu, %llu thousandths of a cycle)",
		   x.o.cycles.min, x.o.cycles.median, x.o.cycles.max);

	/* the same without batches, 1000 loops a repetition: the
	 * repetitions part
	 */
	drive_init(&x);
	x.d.chunk_ns = 1 * MS;
	x.plan.reps = 10;
	x.plan.loops = 1000;	/* 15.625 refills: 15 or 16 by phase */
	x.f.ps_per_iter = 4300000;
	x.f.refill_every = 64;
	x.f.refill_ps = 40 * x.f.ps_per_iter;
	x.f.tick_ns = 4 * MS;
	x.f.tick_cost_ns = 20000;
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_DONE &&
		   x.o.cycles.min < x.o.cycles.max,
		   "drive: without batches the refills' share parts the repetitions (min %llu, max %llu thousandths of a cycle)",
		   x.o.cycles.min, x.o.cycles.max);
}

/*
 * A batch longer than the gaps between interrupts (a slow path under
 * emulation timing cycles, its vCPU descheduled by the host): every
 * chunk of whole batches is hit.  Strict, each is kept perturbed after
 * its last try; with split_batch the retries go below one batch and
 * find clean windows.
 */
static void test_drive_split_batch(void)
{
	u32 i, below = 0;
	struct drive x;

	drive_init(&x);
	x.d.chunk_ns = 1 * MS;
	x.d.batch = 64;
	x.plan.loops = 1024;
	x.plan.reps = 3;
	x.f.ps_per_iter = 9500000;		/* 64 of them: 0.61 ms */
	x.f.slice_ns = 400000;
	x.f.tick_cost_ns = 20000;
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_DONE &&
		   x.o.where.perturbed_chunks == x.o.where.chunks,
		   "drive: batch 64 longer than the gaps: strict, every chunk kept perturbed (%u of %u)",
		   x.o.where.perturbed_chunks, x.o.where.chunks);

	drive_init(&x);
	x.d.chunk_ns = 1 * MS;
	x.d.batch = 64;
	x.d.split_batch = true;
	x.plan.loops = 1024;
	x.plan.reps = 3;
	x.f.ps_per_iter = 9500000;
	x.f.slice_ns = 400000;
	x.f.tick_cost_ns = 20000;
	drive_run(&x);
	for (i = 0; i < x.f.chunks && i < FAKE_MAX_CHUNKS; i++)
		below += x.f.timed[i] && x.f.asked[i] < 64;
	KTAP_CHECK(x.end == TIME_BENCH_DONE &&
		   x.o.where.perturbed_chunks == 0 && below &&
		   x.o.total_invocations == 3 * 1024 &&
		   x.f.chunks <= FAKE_MAX_CHUNKS,
		   "drive: with split_batch the retries go below the batch, none kept (%u below 64, %u retried, %u kept)",
		   below, x.o.where.retried_chunks, x.o.where.chunks);
}

/*
 * One batch far longer than a chunk's time (a slow path on a debug
 * kernel under emulation, 0.8 ms an element, a tick every 4 ms): with
 * split_batch the chunks are sized by time, strict they are whole
 * batches of 51 ms, each holding a dozen ticks on every try.
 */
static void test_drive_long_batch(void)
{
	u32 i, longest = 0;
	struct drive x;
	int strict;

	for (strict = 1; strict >= 0; strict--) {
		drive_init(&x);
		x.d.chunk_ns = 1 * MS;
		x.d.batch = 64;
		x.d.split_batch = !strict;
		x.plan.loops = 128;
		x.plan.reps = 3;
		x.f.ps_per_iter = 800000000;	/* 0.8 ms */
		x.f.tick_ns = 4 * MS;
		x.f.tick_cost_ns = 20000;
		drive_run(&x);
		longest = 0;
		for (i = 0; i < x.f.chunks && i < FAKE_MAX_CHUNKS; i++)
			if (x.f.timed[i] && x.f.asked[i] > longest)
				longest = x.f.asked[i];
		if (strict)
			KTAP_CHECK(x.end == TIME_BENCH_DONE &&
				   x.o.where.perturbed_chunks == x.o.where.chunks,
				   "drive: a 51 ms batch, strict: every chunk kept perturbed (%u of %u)",
				   x.o.where.perturbed_chunks, x.o.where.chunks);
		else
			KTAP_CHECK(x.end == TIME_BENCH_DONE &&
				   x.o.where.perturbed_chunks == 0 &&
				   longest <= 2 &&
				   x.o.total_invocations == 3 * 128,
				   "drive: a 51 ms batch with split_batch: chunks sized by time (%u elements at most), none kept (%u retried, %u kept)",
				   longest, x.o.where.retried_chunks,
				   x.o.where.chunks);
	}
}

/* What entered, as the results file and dmesg say it. */
static void test_entered_format(void)
{
	struct time_bench_entered e = { 0 };
	char buf[TIME_BENCH_ENTERED_LEN];
	unsigned int k;

	KTAP_CHECK(!strcmp(time_bench_format_entered(buf, sizeof(buf), &e),
			   "-") && !time_bench_entered_any(&e),
		   "entered: nothing is - (%s)", buf);
	e.n[TIME_BENCH_SMI] = 1;
	e.n[TIME_BENCH_SWITCH] = 2;
	KTAP_CHECK(!strcmp(time_bench_format_entered(buf, sizeof(buf), &e),
			   "switch:2,smi:1") && time_bench_entered_any(&e),
		   "entered: switch:2,smi:1 (%s)", buf);
	for (k = 0; k < TIME_BENCH_KINDS; k++)
		e.n[k] = U32_MAX;
	time_bench_format_entered(buf, sizeof(buf), &e);
	/* seven kinds of 10 digits, their names, colons and commas */
	KTAP_CHECK(strlen(buf) == 7 * 10 + 30 + 7 + 6 &&
		   !strncmp(buf, "switch:4294967295,irq:4294967295,", 33) &&
		   !strcmp(buf + strlen(buf) - 15, ",smi:4294967295"),
		   "entered: every kind at its largest fits (%zu of %d characters)",
		   strlen(buf), TIME_BENCH_ENTERED_LEN);
}

/* How runs end early, and what the driver says about it. */
static void test_drive_ends(void)
{
	struct drive x;

	drive_init(&x);
	x.f.fail_after = 100;
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_SHORT && x.d.phase == TIME_BENCH_WARMUP,
		   "drive: a body short in the warm-up: short, warming up");

	drive_init(&x);
	x.f.fail_after = 1024 + 16384 + 5000;
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_SHORT &&
		   x.d.phase == TIME_BENCH_CALIBRATION &&
		   x.d.short_after == 16384 + 5000 && !x.f.before_calls,
		   "drive: short in the calibration, after 21384 iterations (%llu)",
		   x.d.short_after);

	drive_init(&x);
	x.plan.loops = 50000;
	x.f.fail_after = 1024 + 2 * 50000 + 123;
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_SHORT &&
		   x.d.phase == TIME_BENCH_REPETITIONS &&
		   x.d.short_after == 123 && !x.f.after_calls,
		   "drive: short in the third repetition, after 123 iterations (%llu), no after_reps",
		   x.d.short_after);

	drive_init(&x);
	x.f.error_chunk = 3;
	x.f.error = -110;
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_FAILED && x.d.error == -110 &&
		   x.f.chunks == 3,
		   "drive: a chunk the context failed ends the run with its error");

	drive_init(&x);
	x.f.stop_call = 4;
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_STOPPED && x.f.chunks == 4,
		   "drive: stop() ends the run before the next chunk (%u chunks)",
		   x.f.chunks);

	drive_init(&x);
	x.f.before_ret = -19;
	drive_run(&x);
	KTAP_CHECK(x.end == TIME_BENCH_FAILED && x.d.error == -19 &&
		   x.f.chunks == x.f.before_at && !x.f.after_calls,
		   "drive: before_reps failing ends the run before any timed chunk");
}

int main(void)
{
	ktap_rand_seed(RAND_SEED);
	test_exact_small();
	test_rounding();
	test_digits_clamp();
	test_zero_den();
	test_extremes();
	test_big_den();
	test_u32_max_loops();
	test_random_exact(false, 300000);
	test_random_exact(true, 300000);
	test_random_big_den(200000);
	test_random_per_elem(200000);
	test_account();
	test_next_chunk();
	test_random_next_chunk(300000);
	test_isqrt();
	test_random_isqrt(300000);
	test_milli_per_elem();
	test_random_milli_per_elem(200000);
	test_summarize_small();
	test_summarize_order();
	test_summarize_big();
	test_random_summarize(3000);
	test_random_summarize_scaled(1000);
	test_instrument();
	test_drive_warmup();
	test_drive_calibration();
	test_drive_chunks();
	test_drive_fixed_loops();
	test_drive_summary();
	test_drive_where();
	test_drive_switched();
	test_drive_ticks();
	test_drive_slices();
	test_batch_chunk();
	test_drive_batches();
	test_drive_split_batch();
	test_drive_long_batch();
	test_drive_interrupted();
	test_entered_format();
	test_drive_ends();

	return ktap_finish();
}
