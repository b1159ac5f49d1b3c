// SPDX-License-Identifier: GPL-2.0
/*
 * User-space unit tests of the pure arithmetic helpers in time_bench.h,
 * which is built as is through the shims in tests/include/linux/.
 *
 * Every check prints "ok N - what" or "not ok N - what"; lines starting
 * with "#" are diagnostics.  The last line is "P passed, F failed" and
 * the exit status is non-zero if any check failed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "time_bench.h"

/* user-space stand-in for the kernel's own helper */
#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))

#define FIXED_LEN	48	/* "18446744073709551615.123456789" and more */
#define DIAG_MAX	5	/* mismatches shown per randomized check */
#define BIG_DEN		(U64_MAX / 10)	/* above this, rem * 10 overflows */

static unsigned int checks_passed, checks_failed;

/* Counts one check and starts its line; the caller prints the rest. */
static bool check_result(bool ok)
{
	if (ok)
		checks_passed++;
	else
		checks_failed++;
	printf("%s %u - ", ok ? "ok" : "not ok",
	       checks_passed + checks_failed);
	return ok;
}

/* "ok N - what" if @cond holds, else "not ok N - what"; yields @cond */
#define CHECK(cond, fmt, ...) ({				\
	bool __ok = check_result(!!(cond));			\
								\
	printf(fmt "\n", ##__VA_ARGS__);			\
	__ok;							\
})

/* A diagnostic line, shown under the check it explains. */
#define diag(fmt, ...) printf("#   " fmt "\n", ##__VA_ARGS__)

/* splitmix64 with a fixed seed, so every run tests the same cases */
static u64 rng_state = 0x74696d655f62656eULL;

static u64 rnd(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A random value of random bit length, 0..64 bits. */
static u64 rnd_mag(void)
{
	unsigned int shift = rnd() % 65;

	return shift == 64 ? 0 : rnd() >> shift;
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
	if (!CHECK(f.whole == whole && f.frac == frac,
		   "div_fixed(%llu, %llu, %u, %s) = %s", num, den, digits,
		   mode(round), want))
		diag("got whole=%llu frac=%u", f.whole, f.frac);
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
	if (!CHECK(err == 0 && fixed_well_formed(f, digits),
		   "div_fixed(%llu, %llu, %u, %s) = exact %s",
		   num, den, digits, mode(round), w))
		diag("got whole=%llu frac=%u (%s)", f.whole, f.frac,
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

	CHECK(time_bench_cycles_per_elem(&rec) == 19,
	      "cycles_per_elem(1977272238 cycles / 100000000) = 19");
	f = time_bench_ns_per_elem(&rec);
	if (!CHECK(f.whole == 5 && f.frac == 492,
		   "ns_per_elem(549225541 ns / 100000000) = 5.492"))
		diag("got %llu.%03u", f.whole, f.frac);
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
	CHECK(time_bench_cycles_per_elem(&rec) == 0,
	      "cycles_per_elem of a record with no invocations = 0");
	f = time_bench_ns_per_elem(&rec);
	CHECK(f.whole == 0 && f.frac == 0,
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
	CHECK(time_bench_cycles_per_elem(&rec) == 4294967297ULL,
	      "cycles_per_elem(U64_MAX / 4294967295) = 4294967297");
	expect_fixed(U64_MAX, U32_MAX, 9, true, 4294967297ULL, 0);

	rec.cycles = U64_MAX - 1;
	CHECK(time_bench_cycles_per_elem(&rec) == 4294967296ULL,
	      "cycles_per_elem((U64_MAX - 1) / 4294967295) = 4294967296");
	expect_fixed(U64_MAX - 1, U32_MAX, 3, false, 4294967296ULL, 999);
	expect_fixed(U64_MAX - 1, U32_MAX, 9, false, 4294967296ULL, 999999999);
	expect_fixed(U64_MAX - 1, U32_MAX, 9, true, 4294967297ULL, 0);

	rec.cycles = 20ULL * U32_MAX - 1;
	CHECK(time_bench_cycles_per_elem(&rec) == 19,
	      "cycles_per_elem((20 * 4294967295 - 1) / 4294967295) = 19");
	expect_fixed(20ULL * U32_MAX - 1, U32_MAX, 3, false, 19, 999);
	expect_fixed(20ULL * U32_MAX - 1, U32_MAX, 3, true, 20, 0);

	rec.ns = 5492ULL * U32_MAX + U32_MAX / 2;
	f = time_bench_ns_per_elem(&rec);
	if (!CHECK(f.whole == 5492 && f.frac == 499,
		   "ns_per_elem((5492.5 * 4294967295 - 0.5) / 4294967295) = 5492.499"))
		diag("got %llu.%03u", f.whole, f.frac);
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

	switch (rnd() % 8) {
	case 0:	/* just below a whole number */
		if (!*den)
			*den = 1;
		q = rnd_mag() % (U64_MAX / *den);
		*num = q * *den + (*den - 1 - rnd() % 4 % *den);
		break;
	case 1:	/* an exact tie one digit past the last kept one */
		s = 1 + rnd() % 1000;
		*den = pow10_u64(d + 1) * s;
		q = rnd_mag() % ((U64_MAX / s - 5) / 10 + 1);
		*num = (q * 10 + 5) * s;
		break;
	case 2:
		*num = U64_MAX - rnd() % 1000;
		break;
	default:
		*num = rnd_mag();
		break;
	}
}

static void test_random_exact(bool round, unsigned int cases)
{
	unsigned int i, bad = 0;
	char w[FIXED_LEN], g[FIXED_LEN];

	for (i = 0; i < cases; i++) {
		unsigned int digits = rnd() % 12;
		struct time_bench_fixed f;
		unsigned __int128 want;
		u64 num, den;

		rnd_case(&num, &den, digits, BIG_DEN);
		f = time_bench_div_fixed(num, den, digits, round);
		want = ref_scaled(num, den, digits, round);
		if (got_scaled(f, digits) == want && fixed_well_formed(f, digits))
			continue;
		if (bad++ < DIAG_MAX)
			diag("div_fixed(%llu, %llu, %u, %s): want %s got %s (frac %u)",
			     num, den, digits, mode(round),
			     fmt_scaled(w, want, digits),
			     fmt_fixed(g, f.whole, f.frac, digits), f.frac);
	}
	CHECK(!bad, "%u random div_fixed(%s), den <= U64_MAX / 10, exact (%u wrong)",
	      cases, mode(round), bad);
}

static void test_random_big_den(unsigned int cases)
{
	unsigned int i, bad = 0;
	char w[FIXED_LEN], g[FIXED_LEN];

	for (i = 0; i < cases; i++) {
		unsigned int digits = rnd() % 12;
		bool round = rnd() & 1;
		unsigned __int128 want, got, err;
		struct time_bench_fixed f;
		u64 num, den;

		den = BIG_DEN + 1 + rnd() % (U64_MAX - BIG_DEN);
		if (rnd() & 1)
			den = U64_MAX - rnd() % 1000;
		switch (rnd() % 3) {
		case 0:
			num = den - rnd() % 1000;
			break;
		case 1:
			num = U64_MAX - rnd() % 1000;
			break;
		default:
			num = rnd_mag();
			break;
		}
		f = time_bench_div_fixed(num, den, digits, round);
		want = ref_scaled(num, den, digits, round);
		got = got_scaled(f, digits);
		err = got > want ? got - want : want - got;
		if (err == 0 && fixed_well_formed(f, digits))
			continue;
		if (bad++ < DIAG_MAX)
			diag("div_fixed(%llu, %llu, %u, %s): want %s got %s (frac %u)",
			     num, den, digits, mode(round),
			     fmt_scaled(w, want, digits),
			     fmt_fixed(g, f.whole, f.frac, digits), f.frac);
	}
	CHECK(!bad, "%u random div_fixed, den > U64_MAX / 10, exact (%u wrong)",
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
		if (rnd() & 1)
			rec.invocations = rnd() % ((u64)U32_MAX + 1);

		if (time_bench_cycles_per_elem(&rec) !=
		    (rec.invocations ? rec.cycles / rec.invocations : 0) &&
		    bad_cyc++ < DIAG_MAX)
			diag("cycles_per_elem(%llu / %llu) wrong", rec.cycles,
			     rec.invocations);
		f = time_bench_ns_per_elem(&rec);
		ns_ok = got_scaled(f, 3) == ref_scaled(rec.ns, rec.invocations,
						       3, false) &&
			fixed_well_formed(f, 3);
		if (!ns_ok && bad_ns++ < DIAG_MAX)
			diag("ns_per_elem(%llu / %llu) wrong: %llu.%03u",
			     rec.ns, rec.invocations, f.whole, f.frac);
	}
	CHECK(!bad_cyc, "%u random cycles_per_elem exact (%u wrong)", cases,
	      bad_cyc);
	CHECK(!bad_ns, "%u random ns_per_elem exact (%u wrong)", cases, bad_ns);
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
	CHECK(rec.invocations == 100 && rec.cycles == 2500 && rec.ns == 1000 &&
	      rec.chunks == 1 && rec.step == 7,
	      "account: first chunk sets sums, chunks = 1, step untouched");

	/* both counters wrap between the two stamps */
	start.cycles = U64_MAX - 9;
	stop.cycles = 5;
	start.ns = U64_MAX - 1;
	stop.ns = 3;
	time_bench_account(&rec, &start, &stop, U32_MAX);
	CHECK(rec.cycles == 2500 + 15,
	      "account: cycles U64_MAX-9 -> 5 adds 15 (modular difference)");
	CHECK(rec.ns == 1000 + 5,
	      "account: ns U64_MAX-1 -> 3 adds 5 (modular difference)");
	CHECK(rec.invocations == 100ULL + U32_MAX && rec.chunks == 2,
	      "account: invocations 100 + 4294967295, chunks = 2");

	/* an empty chunk still counts */
	start = stop;
	time_bench_account(&rec, &start, &stop, 0);
	CHECK(rec.invocations == 100ULL + U32_MAX && rec.cycles == 2515 &&
	      rec.ns == 1005 && rec.chunks == 3,
	      "account: empty chunk adds nothing but a chunk");

	/* many random chunks, a fifth of them wrapping */
	rec = (struct time_bench_record){ 0 };
	for (i = 0; i < 100000; i++) {
		u64 n = rnd() % 100000000;

		start.cycles = rnd();
		start.ns = rnd();
		stop.cycles = start.cycles + rnd() % 1000000000;
		stop.ns = start.ns + rnd() % 1000000000;
		if (rnd() % 5 == 0) {
			start.cycles = U64_MAX - rnd() % 1000;
			stop.cycles = rnd() % 1000;
		}
		time_bench_account(&rec, &start, &stop, n);
		inv += n;
		cyc += ref_diff(start.cycles, stop.cycles);
		ns += ref_diff(start.ns, stop.ns);
		if (rec.invocations != inv || rec.cycles != cyc ||
		    rec.ns != ns || rec.chunks != i + 1) {
			ok = false;
			diag("chunk %u: got %llu/%llu/%llu/%u want %llu/%llu/%llu/%u",
			     i, rec.invocations, rec.cycles, rec.ns, rec.chunks,
			     inv, cyc, ns, i + 1);
			break;
		}
	}
	CHECK(ok, "account: 100000 random chunks sum exactly");
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

	if (!CHECK(got == want, "next_chunk(%llu, %llu, %llu, %llu) = %llu: %s",
		   loops, ns, target_ns, remaining, want, what))
		diag("got %llu", got);
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
		if (rnd() & 1) {
			target = 1 + rnd() % 100000000;
			loops = rnd() % 100000000;
			ns = rnd() % 1000000000;
			remaining = rnd() & 1 ? U64_MAX : 1 + rnd() % 100000000;
		}
		l1 = loops ? loops : 1;
		got = time_bench_next_chunk(loops, ns, target, remaining);
		want = ref_next_chunk(loops, ns, target, remaining);
		overflow = (unsigned __int128)l1 * target > U64_MAX;

		if (!got || got > remaining ||
		    (unsigned __int128)got > (unsigned __int128)l1 * 16) {
			if (bad_bounds++ < DIAG_MAX)
				diag("next_chunk(%llu, %llu, %llu, %llu) = %llu out of bounds",
				     loops, ns, target, remaining, got);
		}
		if (overflow) {
			overflows++;
			deviate += got != want;
			continue;
		}
		if (got != want && bad++ < DIAG_MAX)
			diag("next_chunk(%llu, %llu, %llu, %llu): want %llu got %llu",
			     loops, ns, target, remaining, want, got);
	}
	CHECK(!bad_bounds, "%u random next_chunk within 1..min(remaining, 16 * loops) (%u wrong)",
	      cases, bad_bounds);
	CHECK(!bad, "%u random next_chunk without product overflow exact (%u wrong)",
	      cases - overflows, bad);
	diag("%u of %u cases with loops * target_ns > U64_MAX differ from the exact contract",
	     deviate, overflows);
}

int main(void)
{
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

	printf("%u passed, %u failed\n", checks_passed, checks_failed);
	return checks_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
