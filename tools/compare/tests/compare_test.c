// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bench-compare's library: the statistics of stats.c, the
 * rows of compare.c, the profiles of profile.c, the number handling
 * of util.c, the hash tables of strtab.c and how input.c meets a stream
 * that fails, linked with the same objects as the program (all but
 * main.o).
 *
 * The output is KTAP (tests/include/ktap_test.h). The randomized checks
 * draw from splitmix64 with fixed seeds, so every run sees the same
 * cases: their tolerances are chosen so that the checks would pass for
 * nearly every seed, and with these seeds they always do.
 */
#define _GNU_SOURCE		/* fopencookie */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_compare.h"
#include "ktap_test.h"

#define EPS		(1 / 1e12)	/* for values computed exactly */
#define MAX_BRUTE_N	12	/* pooled values for the brute-force p */

static bool near(double got, double want, double tol)
{
	if (fabs(got - want) <= tol || (isnan(got) && isnan(want)))
		return true;
	ktap_diag("got %.15g, want %.15g (tolerance %g)", got, want, tol);
	return false;
}

/* Uniform in [0, 1) from the 53 high bits. */
static double rand_unit(ktap_u64 *state)
{
	return (double)(ktap_rand_u64(state) >> 11) / 9007199254740992.0;	/* 2^53 */
}

/*
 * About standard normal: the sum of 12 uniforms less 6 (Irwin-Hall),
 * mean 0, variance 1, continuous (no ties).
 */
static double rand_normalish(ktap_u64 *state)
{
	double s = -6;
	int i;

	for (i = 0; i < 12; i++)
		s += rand_unit(state);
	return s;
}

static double binom(unsigned int n, unsigned int k)
{
	double c = 1;
	unsigned int i;

	for (i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return c;
}

/* ------------------------------------------------------------------ */

static void test_reduce(void)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 }, one[] = { 7.5 };
	double reps[] = { 18.3, 18.1, 25.0, 18.2 };
	double big[] = { 1.5e308, 1.5e308, 1.5e308, 1.5e308 };

	KTAP_CHECK(near(median(odd, 3), 2, 0) && odd[0] == 3,
		   "median of 3 values is the middle one, input unsorted");
	KTAP_CHECK(near(median(even, 4), 2.5, 0),
		   "median of 4 values is the mean of the middle two");
	KTAP_CHECK(median(one, 1) == 7.5 && min_of(one, 1) == 7.5,
		   "median and min of 1 value are that value");
	KTAP_CHECK(isnan(median(odd, 0)) && isnan(min_of(odd, 0)),
		   "median and min of no values are NaN");
	KTAP_CHECK(near(reduce_load(reps, 4, LOAD_MIN), 18.1, 0),
		   "reduce_load min: the cheapest repetition");
	KTAP_CHECK(near(reduce_load(reps, 4, LOAD_MEDIAN), 18.25, EPS),
		   "reduce_load median: the median repetition, outlier ignored");
	KTAP_CHECK(reps[0] == 18.3 && reps[2] == 25.0,
		   "reduce_load leaves the repetitions in their order");
	KTAP_CHECK(median(big, 2) == 1.5e308 && median(big, 4) == 1.5e308,
		   "the median of two values near DBL_MAX does not overflow");
}

static bool ranks_are(const double *v, size_t n, const double *want)
{
	double rank[16];
	bool ok = true;
	size_t i;

	midranks(v, n, rank);
	for (i = 0; i < n; i++) {
		if (rank[i] != want[i]) {
			ktap_diag("rank[%zu] = %g, want %g", i, rank[i],
				  want[i]);
			ok = false;
		}
	}
	return ok;
}

static void test_ranks(void)
{
	static const double v1[] = { 10, 20, 20, 30 };
	static const double r1[] = { 1, 2.5, 2.5, 4 };
	static const double v2[] = { 0.5, 9, 7, 7, 7, 0.5, 8 };
	static const double r2[] = { 1.5, 7, 4, 4, 4, 1.5, 6 };
	static const double x[] = { 1, 2, 3 }, y[] = { 4, 5, 6 };
	static const double tx[] = { 1, 2 }, ty[] = { 2, 3 };

	KTAP_CHECK(ranks_are(v1, 4, r1), "midranks: one pair tied");
	KTAP_CHECK(ranks_are(v2, 7, r2), "midranks: a pair and a triple tied");
	KTAP_CHECK(mwu_u(x, 3, y, 3) == 0 && mwu_u(y, 3, x, 3) == 9,
		   "mwu_u of separated samples is 0 and nx * ny");
	KTAP_CHECK(near(mwu_u(tx, 2, ty, 2), 0.5, 0),
		   "mwu_u counts a tied pair as one half");
}

/*
 * @n1 values x against y = 1..@n2 with U (pairs x > y) = @u and no ties:
 * x[i] lies just above c[i] of the y values, the c[i] summing to @u.
 */
static void samples_with_u(size_t n1, size_t n2, size_t u, double *x,
			   double *y)
{
	size_t i;

	for (i = 0; i < n2; i++)
		y[i] = (double)(i + 1);
	for (i = 0; i < n1; i++) {
		size_t c = u < n2 ? u : n2;

		x[n1 - 1 - i] = (double)c + 0.5 - 0.01 * (double)i;
		u -= c;
	}
}

/* The two-sided 5% critical U of tables: the largest with p <= 0.05. */
static const struct {
	size_t n1, n2, u;
} crit[] = {
	{ 2, 8, 0 }, { 3, 5, 0 }, { 4, 4, 0 }, { 5, 5, 2 }, { 5, 8, 6 },
	{ 6, 6, 5 }, { 6, 8, 8 }, { 7, 7, 8 }, { 8, 8, 13 }, { 10, 10, 23 },
};

static void test_critical_values(void)
{
	double x[20], y[20], p_at, p_above, p_sym;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(crit); i++) {
		size_t n1 = crit[i].n1, n2 = crit[i].n2, u = crit[i].u;
		bool ok;

		samples_with_u(n1, n2, u, x, y);
		ok = mwu_u(x, n1, y, n2) == (double)u;
		p_at = mwu_p_exact(x, n1, y, n2);
		p_sym = mwu_p_exact(y, n2, x, n1);
		samples_with_u(n1, n2, u + 1, x, y);
		ok = ok && mwu_u(x, n1, y, n2) == (double)(u + 1);
		p_above = mwu_p_exact(x, n1, y, n2);
		if (!KTAP_CHECK(ok && p_at <= 0.05 && p_above > 0.05 &&
				near(p_sym, p_at, EPS),
				"exact two-sided 5%% critical U of %zu/%zu is %zu",
				n1, n2, u))
			ktap_diag("p(U=%zu) = %g, p(U=%zu) = %g", u, p_at,
				  u + 1, p_above);
	}
	/* 3/3: the smallest p is 2/20 = 0.1 */
	samples_with_u(3, 3, 0, x, y);
	KTAP_CHECK(near(mwu_p_exact(x, 3, y, 3), 0.1, EPS),
		   "3/3 separated: p = 2/C(6,3) = 0.1, no critical U at 5%%");
}

/* The exact p by enumerating every split of the pooled values. */
static double brute_p(const double *x, size_t nx, const double *y,
		      size_t ny)
{
	double pool[MAX_BRUTE_N], rank[MAX_BRUTE_N], obs = 0, mean;
	unsigned int mask, n = (unsigned int)(nx + ny), hit = 0, all = 0;
	size_t i;

	memcpy(pool, x, nx * sizeof(*x));
	memcpy(pool + nx, y, ny * sizeof(*y));
	midranks(pool, n, rank);
	for (i = 0; i < nx; i++)
		obs += rank[i];
	mean = (double)nx * (n + 1) / 2;
	for (mask = 0; mask < 1U << n; mask++) {
		double s = 0;

		if ((size_t)__builtin_popcount(mask) != nx)
			continue;
		for (i = 0; i < n; i++)
			s += mask & 1U << i ? rank[i] : 0;
		all++;
		hit += fabs(s - mean) >= fabs(obs - mean) - 1 / 1e9;
	}
	return (double)hit / all;
}

static void test_exact_p(void)
{
	ktap_u64 rng = 0x6d77755f65786163ULL;
	double x[MAX_BRUTE_N], y[MAX_BRUTE_N], worst = 0;
	unsigned int t, bad = 0, asym = 0, cases = 400;
	static const double same[] = { 5, 5, 5, 5 };

	for (t = 0; t < cases; t++) {
		size_t nx = 1 + ktap_rand_u64(&rng) % 6;
		size_t ny = 1 + ktap_rand_u64(&rng) % 6, i;
		/* few distinct values: ties in most cases */
		unsigned int levels = 2 + ktap_rand_u64(&rng) % 6;
		double p, want;

		for (i = 0; i < nx; i++)
			x[i] = (double)(ktap_rand_u64(&rng) % levels);
		for (i = 0; i < ny; i++)
			y[i] = (double)(ktap_rand_u64(&rng) % levels) + 0.5 *
			       (t % 4 == 0);
		p = mwu_p_exact(x, nx, y, ny);
		want = brute_p(x, nx, y, ny);
		if (fabs(p - want) > worst)
			worst = fabs(p - want);
		if (fabs(p - want) > EPS && bad++ < 5)
			ktap_diag("%zu/%zu: p %.15g, enumerated %.15g", nx, ny,
				  p, want);
		asym += fabs(mwu_p_exact(y, ny, x, nx) - p) > EPS;
	}
	KTAP_CHECK(!bad,
		   "%u random tied samples: exact p equals full enumeration of the midranks (%u wrong)",
		   cases, bad);
	KTAP_CHECK(!asym, "exact p is symmetric in the two samples (%u wrong)",
		   asym);
	KTAP_CHECK(mwu_p_exact(same, 2, same + 2, 2) == 1 &&
		   mwu_p_normal(same, 2, same + 2, 2) == 1,
		   "all values tied: p = 1, exact and normal");
	KTAP_CHECK(mwu_p_exact(same, 0, same, 4) == 1 &&
		   mwu_p(same, 4, same, 0) == 1, "an empty side: p = 1");
}

static void test_exact_vs_normal(void)
{
	ktap_u64 rng = 0x6e6f726d616c2121ULL;
	double x[41], y[41], worst = 0, worst_tied = 0;
	size_t u, i;
	int t;

	/* 15/15 without ties, U from 0 to 225 */
	for (u = 0; u <= 225; u += 5) {
		double d;

		samples_with_u(15, 15, u, x, y);
		d = fabs(mwu_p_exact(x, 15, y, 15) -
			 mwu_p_normal(x, 15, y, 15));
		if (d > worst)
			worst = d;
	}
	KTAP_CHECK(worst < 0.01,
		   "15/15: normal approximation within 0.01 of the exact p (worst %.4f)",
		   worst);
	/* 15/15 with many ties: the tie-corrected variance */
	for (t = 0; t < 40; t++) {
		double d;

		for (i = 0; i < 15; i++) {
			x[i] = (double)(ktap_rand_u64(&rng) % 8);
			y[i] = (double)(ktap_rand_u64(&rng) % 8 + t % 3);
		}
		d = fabs(mwu_p_exact(x, 15, y, 15) -
			 mwu_p_normal(x, 15, y, 15));
		if (d > worst_tied)
			worst_tied = d;
	}
	/* the exact distribution of tied ranks is lumpier: twice as far */
	KTAP_CHECK(worst_tied < 0.02,
		   "15/15 with ties: normal approximation within 0.02 of the exact p (worst %.4f)",
		   worst_tied);

	for (i = 0; i < 41; i++) {
		x[i] = rand_normalish(&rng);
		y[i] = rand_normalish(&rng) + 0.5;
	}
	KTAP_CHECK(mwu_p(x, 20, y, 20) == mwu_p_exact(x, 20, y, 20) &&
		   mwu_p(x, 21, y, 20) == mwu_p_normal(x, 21, y, 20),
		   "mwu_p: exact up to %d values in all, normal above",
		   EXACT_MAX_N);
}

/*
 * need_loads() searches the normal sizes by halves: it finds what trying
 * each n in turn finds, down to levels where that took a million tries.
 */
static bool need_loads_as_linear(void)
{
	static const double levels[] = {
		0.05, 1 / 1e9, 1.4 / 1e11, 1 / 1e11, 1 / 1e15, 1 / 1e100,
		1 / 1e300, 4.9406564584124654 / 1e300 / 1e24, 0,
	};
	size_t i, n;
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		for (n = 1; n <= 100000 && !(mwu_min_p(n, n) < levels[i]); n++)
			;
		if (n > 100000)
			n = 0;
		if (need_loads(levels[i]) != n) {
			ktap_diag("need_loads(%g) = %zu, want %zu", levels[i],
				  need_loads(levels[i]), n);
			ok = false;
		}
	}
	return ok;
}

static void test_min_p_and_need(void)
{
	static const size_t sizes[][2] = {
		{ 1, 1 }, { 3, 6 }, { 4, 4 }, { 5, 5 }, { 6, 6 }, { 8, 8 },
	};
	double x[30], y[30];
	size_t i;
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t a = sizes[i][0], b = sizes[i][1];
		double want = 2 / binom((unsigned int)(a + b), (unsigned int)a);

		if (want > 1)
			want = 1;
		samples_with_u(a, b, 0, x, y);
		if (!near(mwu_min_p(a, b), want, EPS) ||
		    !near(mwu_p_exact(x, a, y, b), want, EPS)) {
			ktap_diag("for %zu/%zu", a, b);
			ok = false;
		}
	}
	KTAP_CHECK(ok,
		   "mwu_min_p(n, k) = 2/C(n+k, n), the p of separated samples");
	samples_with_u(21, 21, 0, x, y);
	KTAP_CHECK(near(mwu_min_p(21, 21), mwu_p_normal(x, 21, y, 21), EPS),
		   "mwu_min_p above %d values: the normal p of separation",
		   EXACT_MAX_N);
	KTAP_CHECK(need_loads(0.05) == 4, "need_loads(0.05) = 4 (2/70 < 0.05)");
	KTAP_CHECK(need_loads(0.05 / 4) == 5,
		   "need_loads(0.05/4) = 5 (2/70 > 0.0125 > 2/252)");
	KTAP_CHECK(need_loads(0.05 / 9) == 6,
		   "need_loads(0.05/9) = 6 (2/252 > 0.0056 > 2/924)");
	KTAP_CHECK(need_loads(0) == 0, "need_loads(0) = 0: never reachable");
	KTAP_CHECK(need_loads_as_linear(), "need_loads: the first n one by one would find");
}

static void test_null_counts_and_ci_k(void)
{
	double cnt[65], big[421], sum = 0, cum = 0;
	size_t i, u, k_exact;
	bool sym = true, ok = true;

	mwu_null_counts(8, 8, cnt);
	for (u = 0; u <= 64; u++) {
		sum += cnt[u];
		sym = sym && cnt[u] == cnt[64 - u];
	}
	KTAP_CHECK(sum == 12870 && cnt[0] == 1 && cnt[1] == 1 &&
		   cnt[2] == 2 && sym,
		   "mwu_null_counts(8, 8): C(16, 8) = 12870 ways, symmetric");
	for (i = 0; i < ARRAY_SIZE(crit); i++) {
		size_t k = mwu_ci_k(crit[i].n1, crit[i].n2, 0.05);

		if (k != crit[i].u + 1) {
			ktap_diag("mwu_ci_k(%zu, %zu) = %zu, want %zu",
				  crit[i].n1, crit[i].n2, k, crit[i].u + 1);
			ok = false;
		}
	}
	KTAP_CHECK(ok, "mwu_ci_k at 95%% is the critical U + 1 (8/8: 14)");
	KTAP_CHECK(mwu_ci_k(3, 3, 0.05) == 0 && mwu_ci_k(0, 5, 0.05) == 0,
		   "mwu_ci_k: 0 when no interval reaches the level");

	/* 21/20 (normal branch) against the exact counts, exact to 54 */
	mwu_null_counts(21, 20, big);
	sum = binom(41, 20);
	for (k_exact = 0; k_exact < 420; k_exact++) {
		cum += big[k_exact];
		if (cum / sum > 0.025)
			break;
	}
	i = mwu_ci_k(21, 20, 0.05);
	KTAP_CHECK(i + 1 >= k_exact && i <= k_exact + 1,
		   "mwu_ci_k(21, 20) from the normal approximation: %zu, exact %zu",
		   i, k_exact);
}

static void test_hl_shift(void)
{
	static const double b1[] = { 1, 2, 3 }, a1[] = { 4, 5, 6 };
	static const double b2[] = { 10, 20 }, a2[] = { 11, 25 };
	double b[8], a[8];
	struct shift sh;
	size_t i;

	hl_shift(b1, 3, a1, 3, 0.05, &sh);
	KTAP_CHECK(sh.est == 3 && sh.k == 0 && isinf(sh.lo) && sh.lo < 0 &&
		   isinf(sh.hi) && sh.hi > 0,
		   "HL shift of {1,2,3} -> {4,5,6} is 3; 3/3 gives no interval");
	hl_shift(b2, 2, a2, 2, 0.05, &sh);
	KTAP_CHECK(sh.est == 3,
		   "HL shift of {10,20} -> {11,25}: median of -9,1,5,15 is 3");
	for (i = 0; i < 8; i++) {
		b[i] = (double)(i * i);
		a[i] = b[i] + 5;
	}
	hl_shift(b, 8, a, 8, 0.05, &sh);
	/* D(14) and D(51) of the 64 differences (i^2 - j^2) + 5 */
	KTAP_CHECK(sh.est == 5 && sh.k == 14 && sh.lo <= 5 && sh.hi >= 5 &&
		   sh.lo == 5 - (sh.hi - 5),
		   "HL shift of a sample moved by 5 is 5, interval [D(14), D(51)] symmetric around it");
	hl_shift(b, 0, a, 8, 0.05, &sh);
	KTAP_CHECK(isnan(sh.est) && sh.k == 0, "HL shift of no values: NaN");
}

/* The @k-th smallest of all differences a[j] - b[i], made and sorted. */
static double brute_kth(const double *b, size_t nb, const double *a,
			size_t na, size_t k)
{
	double *d = xcalloc(nb * na, sizeof(*d)), x;
	size_t i, j;

	for (i = 0; i < nb; i++) {
		for (j = 0; j < na; j++)
			d[i * na + j] = a[j] - b[i];
	}
	qsort(d, nb * na, sizeof(*d), cmp_double);
	x = d[k - 1];
	free(d);
	return x;
}

/* @n values: few distinct levels (ties) if @tied, else continuous. */
static void rand_sample(double *v, size_t n, bool tied, double shift,
			ktap_u64 *rng)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = tied ? (double)(ktap_rand_u64(rng) % 5) + shift :
			      100 + 4 * rand_normalish(rng) + shift;
}

/*
 * The selection of the k-th difference (random pivots, counts with two
 * pointers) against sorting all nb * na of them, on random samples with
 * and without ties, for the smallest, the largest and random k.
 */
static void test_hl_select(void)
{
	ktap_u64 rng = 0x73656c6563742121ULL;
	double b[300], a[300];
	unsigned int t, bad = 0, checks = 0;

	for (t = 0; t < 400; t++) {
		size_t nb = 1 + ktap_rand_u64(&rng) % (t < 380 ? 40 : 300);
		size_t na = 1 + ktap_rand_u64(&rng) % (t < 380 ? 40 : 300);
		size_t n = nb * na, r;

		rand_sample(b, nb, t % 2, 0, &rng);
		rand_sample(a, na, t % 2, (double)(t % 3), &rng);
		for (r = 0; r < 12; r++) {
			size_t k = r == 0 ? 1 : r == 1 ? n :
				   1 + ktap_rand_u64(&rng) % n;
			double got = hl_kth_difference(b, nb, a, na, k);

			checks++;
			if (got != brute_kth(b, nb, a, na, k) && bad++ < 5)
				ktap_diag("%zu/%zu, k %zu: %g, sorted %g", nb,
					  na, k, got, brute_kth(b, nb, a, na, k));
		}
	}
	KTAP_CHECK(!bad,
		   "k-th difference by selection equals sorting all nb*na of them (%u checks, %u wrong)",
		   checks, bad);
}

/* hl_shift against the median and order statistics of all differences. */
static void test_hl_brute(void)
{
	ktap_u64 rng = 0x686c5f6272757465ULL;
	double b[60], a[60];
	unsigned int t, bad = 0;

	for (t = 0; t < 200; t++) {
		size_t nb = 1 + ktap_rand_u64(&rng) % 60;
		size_t na = 1 + ktap_rand_u64(&rng) % 60, n = nb * na;
		double est;
		struct shift sh;

		rand_sample(b, nb, t % 2, 0, &rng);
		rand_sample(a, na, t % 2, 1, &rng);
		hl_shift(b, nb, a, na, 0.05, &sh);
		est = n % 2 ? brute_kth(b, nb, a, na, n / 2 + 1) :
		      brute_kth(b, nb, a, na, n / 2) / 2 +
		      brute_kth(b, nb, a, na, n / 2 + 1) / 2;
		if (sh.est != est ||
		    (sh.k && (sh.lo != brute_kth(b, nb, a, na, sh.k) ||
			      sh.hi != brute_kth(b, nb, a, na, n + 1 - sh.k)))) {
			if (bad++ < 5)
				ktap_diag("%zu/%zu: est %g want %g", nb, na,
					  sh.est, est);
		}
	}
	KTAP_CHECK(!bad,
		   "hl_shift: median and interval ends equal those of all differences sorted (200 samples, %u wrong)",
		   bad);
}

/*
 * Coverage of the 95% interval: for continuous data it is exactly
 * 1 - 2 P(U <= k - 1) = 1 - 2 * 321/12870 = 0.9501 at 8/8 (k = 14),
 * whatever the distribution and the shift. 2000 trials give a binomial
 * standard deviation of sqrt(0.95 * 0.05 / 2000) = 0.0049: the range
 * [0.93, 0.99] lies 4 sigma below and 8 above the exact coverage, and
 * the observed coverage must also be within 4 sigma of the exact one
 * computed here from mwu_null_counts(). A correct interval fails that
 * for about one seed in 15000. An interval one order statistic too
 * narrow or too wide (0.9351, 0.9621) is only 3 sigma off and may pass:
 * the exact k is checked above, this checks that the interval holds the
 * shift as often as it should, not that a wrong one is caught.
 */
static void test_hl_coverage(void)
{
	ktap_u64 rng = 0x636f766572616765ULL;
	const double delta = 3;
	unsigned int trials = 2000, hit = 0, t;
	double b[8], a[8], cnt[65], cum = 0, nominal, cov, sigma;
	size_t i, k = mwu_ci_k(8, 8, 0.05);
	struct shift sh;

	mwu_null_counts(8, 8, cnt);
	for (i = 0; i < k; i++)		/* P(U <= k - 1) */
		cum += cnt[i];
	nominal = 1 - 2 * cum / 12870;
	for (t = 0; t < trials; t++) {
		for (i = 0; i < 8; i++) {
			b[i] = 100 + 4 * rand_normalish(&rng);
			a[i] = 100 + delta + 4 * rand_normalish(&rng);
		}
		hl_shift(b, 8, a, 8, 0.05, &sh);
		hit += sh.lo <= delta && delta <= sh.hi;
	}
	cov = (double)hit / trials;
	sigma = sqrt(nominal * (1 - nominal) / trials);
	ktap_diag("8/8 95%% interval: coverage %.4f, exact %.4f, sigma %.4f",
		  cov, nominal, sigma);
	KTAP_CHECK(nominal >= 0.95 && cov >= 0.93 && cov <= 0.99 &&
		   fabs(cov - nominal) <= 4 * sigma,
		   "%u trials of 8/8 with a shift of %g: the 95%% interval covers it in 93-99%%",
		   trials, delta);
}

/* A bench_set of @nr tests with room for the values of each side. */
static void make_set(struct bench_set *set, size_t nr)
{
	size_t i;

	memset(set, 0, sizeof(*set));
	set->tests = xcalloc(nr, sizeof(*set->tests));
	set->nr = nr;
	set->cap = nr;
	for (i = 0; i < nr; i++) {
		char name[32];
		size_t len = (size_t)snprintf(name, sizeof(name), "t%zu", i);
		size_t id = strtab_id(&set->names, name, len, NULL);

		set->tests[i].name = set->names.str[id];
		set->tests[i].decimals[MET_CYCLES] = 3;
		set->tests[i].decimals[MET_NS] = -1;
	}
}

/*
 * Fills test @i of @set with @nb and @na values: normal-ish, sd 4, the
 * after side shifted by @delta; rounded to integers if @tied.
 */
static void fill_test(struct bench_set *set, size_t i, size_t nb, size_t na,
		      double delta, bool tied, ktap_u64 *rng)
{
	struct bench_test *t = &set->tests[i];
	size_t j;

	series_free(&t->val[SIDE_BEFORE][MET_CYCLES]);
	series_free(&t->val[SIDE_AFTER][MET_CYCLES]);
	for (j = 0; j < nb + na; j++) {
		double v = 100 + 4 * rand_normalish(rng) + (j < nb ? 0 : delta);

		if (tied)
			v = round(v / 4);
		series_add(&t->val[j < nb ? SIDE_BEFORE : SIDE_AFTER][MET_CYCLES],
			   &v, 1);
	}
}

/*
 * An A/A simulation: @trials comparisons of 18 rows, 8/8 loads each,
 * no change anywhere. With Holm the family-wise error is at most
 * alpha = 0.05; 3 binomial sigmas over it (0.0146 at 2000 trials) leave
 * room for the seed while a test without any correction (about
 * 1 - (1 - 0.038)^18 = 0.50) or a too liberal one fails by far.
 */
static void test_aa(unsigned int trials, bool tied)
{
	ktap_u64 rng = tied ? 0x61615f7469656421ULL : 0x61615f636f6e7421ULL;
	unsigned int t, fam = 0, rows_hit = 0;
	const size_t rows = 18;
	struct bench_set set;
	struct comparison cmp;
	double margin, rate;
	size_t i;
	bool na = false;

	make_set(&set, rows);
	for (t = 0; t < trials; t++) {
		unsigned int changes = 0;

		for (i = 0; i < rows; i++)
			fill_test(&set, i, 8, 8, 0, tied, &rng);
		compare_build(&set, 0.05, LOAD_MIN, &cmp);
		for (i = 0; i < cmp.nr; i++) {
			changes += cmp.rows[i].verdict == VERDICT_CHANGE;
			rows_hit += cmp.rows[i].p_raw < 0.05;
			na = na || cmp.rows[i].verdict == VERDICT_NA;
		}
		fam += changes > 0;
		compare_free(&cmp);
	}
	free_set(&set);
	rate = (double)fam / trials;
	margin = 3 * sqrt(0.05 * 0.95 / trials);
	ktap_diag("A/A%s: %u of %u trials with a change (%.4f), raw p < 0.05 in %.4f of rows",
		  tied ? " with ties" : "", fam, trials, rate,
		  (double)rows_hit / trials / rows);
	KTAP_CHECK(!na && rate <= 0.05 + margin,
		   "A/A%s, %u trials of 18 rows 8/8: family-wise false positive rate <= 0.05 + 3 sigma",
		   tied ? " with ties" : "", trials);
}

/*
 * 6/6 loads of cycles, ns in 1 before load (10, where the after loads
 * give 100): no ns and no % change in the row, rather than +900%.
 */
static void test_ns_some_loads(ktap_u64 *rng)
{
	double ns_before = 10, ns_after = 100;
	struct bench_set set;
	struct comparison cmp;
	const struct row *r;
	char *note;
	int i;

	make_set(&set, 1);
	fill_test(&set, 0, 6, 6, 100, false, rng);
	set.tests[0].decimals[MET_NS] = 0;
	series_add(&set.tests[0].val[SIDE_BEFORE][MET_NS], &ns_before, 1);
	for (i = 0; i < 6; i++)
		series_add(&set.tests[0].val[SIDE_AFTER][MET_NS], &ns_after, 1);
	compare_build(&set, 0.05, LOAD_MIN, &cmp);
	r = &cmp.rows[0];
	note = ns_dropped_note(r);
	KTAP_CHECK(cmp.nr == 1 && r->verdict == VERDICT_CHANGE &&
		   r->loads[SIDE_BEFORE] == 6 && r->ns_loads[SIDE_BEFORE] == 1 &&
		   r->ns_loads[SIDE_AFTER] == 6 && r->ns_dropped &&
		   !r->m[MET_NS].have && isnan(r->pct) && note &&
		   !strcmp(note, "ns/elem in 1 of 6 loads before, 6 of 6 after"),
		   "ns in 1 of 6 loads: no ns and no %% change in a row of 6/6 loads, and why");
	free(note);
	compare_free(&cmp);
	/* the sixth before load gives ns too: shown */
	for (i = 0; i < 5; i++)
		series_add(&set.tests[0].val[SIDE_BEFORE][MET_NS], &ns_after, 1);
	compare_build(&set, 0.05, LOAD_MIN, &cmp);
	r = &cmp.rows[0];
	KTAP_CHECK(!r->ns_dropped && r->m[MET_NS].have &&
		   near(r->m[MET_NS].before, 100, 0) && near(r->pct, 0, 0) &&
		   !ns_dropped_note(r),
		   "ns in every load of the row: shown, %% change of them");
	compare_free(&cmp);
	free_set(&set);
}

/*
 * The between- and within-boot spread against figures computed by
 * hand: 3 boots x 4 loads a side (the data of tests/data/boots_*.txt),
 * an unbalanced side, and what the loads cannot tell.
 */
static void test_boot_spread(void)
{
	/* boots a, a + 10, a + 20 of loads a, a+2, a+4, a+6; after + 30 */
	double v[24], u[5] = { 1, 3, 6, 8, 10 }, med[5];
	double one[4] = { 1, 2, 3, 4 }, gv[5] = { 5, 1, 3, 9, 7 };
	size_t g[24], ug[5] = { 1, 1, 2, 2, 2 }, gg[5] = { 2, 1, 2, 1, 3 };
	size_t own[4] = { 1, 2, 3, 4 }, same[4] = { 7, 7, 7, 7 };
	int side[24], i, ok;
	struct spread sp;
	size_t n;

	for (i = 0; i < 24; i++) {
		side[i] = i / 12;
		g[i] = (size_t)(i / 4);
		v[i] = 100 + 10 * (i % 12 / 4) + 2 * (i % 4) + 30 * side[i];
	}
	/*
	 * SSW = 6 boots x (9 + 1 + 1 + 9) = 120 over 24 - 6: MSW = 20/3;
	 * SSB = 2 sides x 4 x (100 + 0 + 100) = 1600 over 2 + 2: MSB = 400;
	 * n0 = 2 x (12 - 48/12) / 4 = 4: between (400 - 20/3) / 4 = 295/3.
	 */
	boot_spread(v, g, side, 24, &sp);
	ok = near(sp.sd_within, sqrt(20.0 / 3), EPS) &&
	     near(sp.sd_between, sqrt(295.0 / 3), EPS) &&
	     near(sp.share, (295.0 / 3) / (295.0 / 3 + 20.0 / 3), EPS);
	KTAP_CHECK(ok,
		   "boot spread, 3 boots x 4 loads a side: sd within sqrt(20/3) = 2.582, between sqrt(295/3) = 9.916, share 0.9365");
	/*
	 * One side, boots {1, 3} and {6, 8, 10}: SSW = 2 + 8 over 5 - 2,
	 * SSB = 2 (2 - 5.6)^2 + 3 (8 - 5.6)^2 = 43.2 over 1, n0 = 5 - 13/5
	 * = 2.4: between (43.2 - 10/3) / 2.4.
	 */
	boot_spread(u, ug, NULL, 5, &sp);
	ok = near(sp.sd_within, sqrt(10.0 / 3), EPS) &&
	     near(sp.sd_between, sqrt((43.2 - 10.0 / 3) / 2.4), 1 / 1e9);
	KTAP_CHECK(ok, "boot spread, unbalanced boots of 2 and 3 loads: n0 = 2.4");
	boot_spread(one, own, NULL, 4, &sp);
	ok = isnan(sp.sd_within) && isnan(sp.sd_between) && isnan(sp.share);
	boot_spread(one, same, NULL, 4, &sp);
	ok = ok && near(sp.sd_within, sqrt(5.0 / 3), EPS) &&
	     isnan(sp.sd_between);
	KTAP_CHECK(ok, "boot spread: a boot each load tells neither, one boot of four only within");
	/* a boot between two medians, kept in the order first seen */
	n = group_medians(gv, gg, 5, med);
	ok = n == 3 && near(med[0], 4, 0) && near(med[1], 5, 0) &&
	     near(med[2], 7, 0);
	KTAP_CHECK(ok,
		   "group medians: one value a boot, the median of its loads, in the order first seen");
}

/*
 * A set of one test, @boots boots a side of @per loads each, every
 * boot with an offset of sd @boot_sd and every load noise of sd 1; the
 * after side shifted by @delta. The loads say their boots.
 */
static void fill_boots(struct bench_set *set, size_t boots, size_t per,
		       double boot_sd, double delta, ktap_u64 *rng)
{
	struct bench_test *t = &set->tests[0];
	size_t b, l, i = 0;
	int s;

	for (s = 0; s < NR_SIDES; s++)
		series_free(&t->val[s][MET_CYCLES]);
	if (!set->loads) {
		set->cap_loads = 2 * boots * per;
		set->loads = xcalloc(set->cap_loads, sizeof(*set->loads));
	}
	set->nr_loads = 2 * boots * per;
	for (s = 0; s < NR_SIDES; s++) {
		for (b = 0; b < boots; b++) {
			double off = boot_sd * rand_normalish(rng);

			for (l = 0; l < per; l++, i++) {
				double x = 100 + off + rand_normalish(rng) +
					   (s ? delta : 0);

				set->loads[i].side = (enum side)s;
				set->loads[i].values = 1;
				set->loads[i].boot = 1 + s * boots + b;
				series_add_at(&t->val[s][MET_CYCLES], &x, 1, i + 1);
			}
		}
	}
}

/*
 * An A/A simulation with boot offsets (sd 3, loads sd 1; timing cycles
 * under emulation looked so, doc/comparing.rst): 6 boots of 4 loads a
 * side. Boots as the unit, the false "change" rate stays at alpha
 * (0.05, 3 binomial sigmas of room at 1000 trials); loads of one boot
 * taken as samples (--unit load, the old recipe), it is far above it.
 */
static void test_boot_aa(unsigned int trials)
{
	ktap_u64 rng = 0x626f6f745f616121ULL;	/* "boot_aa!" */
	unsigned int t, fam_boot = 0, fam_load = 0;
	struct bench_set set;
	struct comparison cmp;
	double margin = 3 * sqrt(0.05 * 0.95 / trials);
	bool na = false;

	make_set(&set, 1);
	for (t = 0; t < trials; t++) {
		fill_boots(&set, 6, 4, 3, 0, &rng);
		compare_build_by(&set, 0.05, LOAD_MIN, MET_CYCLES, UNIT_BOOT,
				 &cmp);
		fam_boot += cmp.rows[0].verdict == VERDICT_CHANGE;
		na = na || !cmp.by_boot || cmp.rows[0].units[SIDE_BEFORE] != 6 ||
		     cmp.rows[0].verdict == VERDICT_NA;
		compare_free(&cmp);
		compare_build_by(&set, 0.05, LOAD_MIN, MET_CYCLES, UNIT_LOAD,
				 &cmp);
		fam_load += cmp.rows[0].verdict == VERDICT_CHANGE;
		na = na || cmp.rows[0].units[SIDE_BEFORE] != 24;
		compare_free(&cmp);
	}
	ktap_diag("A/A, boot offsets: false change %.4f counting boots, %.4f loads",
		  (double)fam_boot / trials, (double)fam_load / trials);
	KTAP_CHECK(!na && (double)fam_boot / trials <= 0.05 + margin,
		   "A/A with boot offsets, 6 boots x 4 loads a side, %u trials: boots as the unit, false change rate <= 0.05 + 3 sigma",
		   trials);
	KTAP_CHECK((double)fam_load / trials > 0.2,
		   "A/A with boot offsets: loads of one boot taken as samples, the false change rate is far above alpha (> 0.2)");
	/* a real shift of 6 boot sds is seen with boots as the unit */
	fill_boots(&set, 6, 4, 3, 20, &rng);
	compare_build_by(&set, 0.05, LOAD_MIN, MET_CYCLES, UNIT_AUTO, &cmp);
	KTAP_CHECK(cmp.unit == UNIT_BOOT && cmp.by_boot &&
		   cmp.rows[0].verdict == VERDICT_CHANGE &&
		   cmp.boots[SIDE_AFTER] == 6 && cmp.loads[SIDE_AFTER] == 24,
		   "boots as the unit by default (clock cycles): a shift of 20 over boot offsets of sd 3 is a change");
	compare_free(&cmp);
	free_set(&set);
}

static void test_compare_build(void)
{
	ktap_u64 rng = 0x636f6d7061726521ULL;
	struct bench_set set;
	struct comparison cmp;
	size_t i;
	bool ok = true;

	/* 6/6 far apart: p = 2/924 */
	make_set(&set, 1);
	fill_test(&set, 0, 6, 6, 100, false, &rng);
	compare_build(&set, 0.05, LOAD_MIN, &cmp);
	KTAP_CHECK(cmp.nr == 1 && cmp.rows[0].verdict == VERDICT_CHANGE &&
		   near(cmp.rows[0].p_adj, 2 / 924.0, EPS) &&
		   cmp.rows[0].loads[SIDE_BEFORE] == 6 &&
		   !cmp.rows[0].m[MET_NS].have,
		   "6/6 separated loads: change with p = 2/924, no ns");
	compare_free(&cmp);
	free_set(&set);

	/* four rows of 1/1 loads: alpha/4 needs 5 loads per side */
	make_set(&set, 4);
	for (i = 0; i < 4; i++)
		fill_test(&set, i, 1, 1, 10, false, &rng);
	compare_build(&set, 0.05, LOAD_MIN, &cmp);
	for (i = 0; i < cmp.nr; i++)
		ok = ok && cmp.rows[i].verdict == VERDICT_NA &&
		     cmp.rows[i].need == 5 && isnan(cmp.rows[i].p_adj);
	KTAP_CHECK(cmp.nr == 4 && ok, "4 rows of 1/1 loads: n/a, need 5 loads");
	compare_free(&cmp);

	/* a test on one side only is no row */
	series_free(&set.tests[2].val[SIDE_AFTER][MET_CYCLES]);
	compare_build(&set, 0.05, LOAD_MIN, &cmp);
	KTAP_CHECK(cmp.nr == 3 && cmp.rows[2].test == &set.tests[3],
		   "a test without after values is no row");
	compare_free(&cmp);
	free_set(&set);
	test_ns_some_loads(&rng);
}

/* Functions "f0" to "f<n - 1>" of the profiles of @set, numbered so. */
static void name_fns(struct bench_set *set, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char name[16];
		size_t len = (size_t)snprintf(name, sizeof(name), "f%zu", i);

		strtab_id(&set->fns, name, len, NULL);
	}
}

/*
 * A profiled load of test @i of @set on side @s: its own instructions
 * @total and those of its @n functions @fn, in thousandths per element,
 * @fn ascending as the parser leaves them.
 */
static void add_profile(struct bench_set *set, size_t i, enum side s,
			double total, const size_t *fn, const double *insns,
			size_t n)
{
	struct prof_side *ps = &set->tests[i].prof[s];
	struct prof_load *pl;
	size_t j;

	ps->loads = xrealloc(ps->loads, (ps->nr + 1) * sizeof(*ps->loads));
	ps->cap = ps->nr + 1;
	pl = &ps->loads[ps->nr++];
	memset(pl, 0, sizeof(*pl));
	pl->total[PROF_INSNS] = total;
	pl->fns = xcalloc(n, sizeof(*pl->fns));
	pl->nr_fns = n;
	pl->cap_fns = n;
	for (j = 0; j < n; j++) {
		pl->fns[j].fn = fn[j];
		pl->fns[j].count[PROF_INSNS] = insns[j];
	}
}

static void test_prof_moved(void)
{
	double d[NR_PROF_COUNTS] = { 0 };
	bool ok;

	d[PROF_INSNS] = 499;
	ok = !prof_has_moved(d);
	d[PROF_INSNS] = -499.5;
	ok = ok && !prof_has_moved(d);
	d[PROF_INSNS] = 500;
	ok = ok && prof_has_moved(d);
	d[PROF_INSNS] = 20;
	d[PROF_LLC_MISS] = -500;
	ok = ok && prof_has_moved(d);
	KTAP_CHECK(ok, "moved: any count's |diff| >= 0.5 per element; 0.499 and -0.4995 are not");
}

static bool moved_is(const struct prof_moved *m, const char *fn,
		     double before, double after)
{
	if (!strcmp(m->fn, fn) && m->c.before[PROF_INSNS] == before &&
	    m->c.after[PROF_INSNS] == after &&
	    m->c.diff[PROF_INSNS] == after - before)
		return true;
	ktap_diag("moved %s: %g -> %g, want %s: %g -> %g", m->fn,
		  m->c.before[PROF_INSNS], m->c.after[PROF_INSNS], fn, before,
		  after);
	return false;
}

/*
 * Medians per function over each side's profiled loads, a function
 * absent from a load counting 0 there, and which functions moved.
 */
static void test_profiles(void)
{
	static const size_t b0[] = { 0, 1, 2 }, b1[] = { 0, 1 };
	static const size_t b2[] = { 0, 1, 3 }, a0[] = { 0, 1, 3, 4 };
	static const size_t one[] = { 0 };
	static const double vb0[] = { 10000, 5000, 20 }, vb1[] = { 10000, 5000 };
	static const double vb2[] = { 10000, 5000, 800 };
	static const double va0[] = { 13000, 5499, 800, 500 };
	static const double odd[] = { 1001 };
	ktap_u64 rng = 0x70726f66696c6521ULL;
	const struct prof_cmp *pc;
	struct bench_set set;
	struct comparison cmp;

	make_set(&set, 3);
	name_fns(&set, 5);
	fill_test(&set, 0, 3, 3, 0, false, &rng);
	fill_test(&set, 1, 2, 2, 0, false, &rng);
	fill_test(&set, 2, 2, 2, 0, false, &rng);
	/* f2 in one before load, f3 in one before and two after, f4 after */
	add_profile(&set, 0, SIDE_BEFORE, 15020, b0, vb0, 3);
	add_profile(&set, 0, SIDE_BEFORE, 15000, b1, vb1, 2);
	add_profile(&set, 0, SIDE_BEFORE, 15800, b2, vb2, 3);
	add_profile(&set, 0, SIDE_AFTER, 19799, a0, va0, 4);
	add_profile(&set, 0, SIDE_AFTER, 18499, b1, va0, 2);
	add_profile(&set, 0, SIDE_AFTER, 19799, a0, va0, 4);
	/* two loads a side: a median halfway between thousandths */
	add_profile(&set, 1, SIDE_BEFORE, 1001, one, odd, 1);
	add_profile(&set, 1, SIDE_BEFORE, 0, one, odd, 0);
	add_profile(&set, 1, SIDE_AFTER, 1001, one, odd, 1);
	add_profile(&set, 1, SIDE_AFTER, 1001, one, odd, 1);
	/* a profile on one side only */
	add_profile(&set, 2, SIDE_AFTER, 1001, one, odd, 1);
	compare_build(&set, 0.05, LOAD_MIN, &cmp);

	pc = cmp.rows[0].prof;
	KTAP_CHECK(cmp.nr == 3 && cmp.prof_rows == 2 && cmp.prof_moved_rows == 2 &&
		   pc && pc->loads[SIDE_BEFORE] == 3 && pc->nr_fns == 5 &&
		   !cmp.rows[2].prof,
		   "profiles: rows profiled on both sides compared, 5 functions of either side");
	KTAP_CHECK(pc && pc->total.before[PROF_INSNS] == 15020 &&
		   pc->total.after[PROF_INSNS] == 19799 &&
		   pc->total.diff[PROF_INSNS] == 4779,
		   "profiles: the test's totals are the medians of its prof: lines");
	KTAP_CHECK(pc && pc->nr_moved == 3 &&
		   moved_is(&pc->moved[0], "f0", 10000, 13000) &&
		   moved_is(&pc->moved[1], "f3", 0, 800) &&
		   moved_is(&pc->moved[2], "f4", 0, 500),
		   "profiles: absent counts 0 (f3 0 -> 0.8, f4 0 -> 0.5 moved; f2 0.02 in one load, f1 +0.499 did not), by |diff|");
	pc = cmp.rows[1].prof;
	KTAP_CHECK(pc && pc->nr_moved == 1 &&
		   moved_is(&pc->moved[0], "f0", 500.5, 1001) &&
		   pc->decimals == PROF_DECIMALS + 1,
		   "profiles: a median of two loads on half a thousandth is shown with 4 decimals");
	compare_free(&cmp);
	free_set(&set);
}

static bool holm_is(const double *p, size_t m, const double *want)
{
	double adj[8];
	bool ok = true;
	size_t i;

	holm_adjust(p, m, adj);
	for (i = 0; i < m; i++) {
		if (!(fabs(adj[i] - want[i]) <= EPS ||
		      (isnan(adj[i]) && isnan(want[i])))) {
			ktap_diag("adj[%zu] = %g, want %g", i, adj[i], want[i]);
			ok = false;
		}
	}
	return ok;
}

static void test_holm(void)
{
	static const double p1[] = { 0.01, 0.04, 0.03, 0.005 };
	static const double w1[] = { 0.03, 0.06, 0.06, 0.02 };
	static const double p2[] = { 0.01, NAN, 0.02 };
	static const double w2[] = { 0.03, NAN, 0.04 };
	static const double p3[] = { 0.5, 0.6, 0.001 };
	static const double w3[] = { 1, 1, 0.003 };
	static const double p4[] = { 0.02, 0.02 };
	static const double w4[] = { 0.04, 0.04 };
	static const double p5[] = { 0.2 };

	KTAP_CHECK(holm_is(p1, 4, w1),
		   "Holm: 0.01,0.04,0.03,0.005 -> 0.03,0.06,0.06,0.02");
	KTAP_CHECK(holm_is(p2, 3, w2),
		   "Holm: a NaN stays NaN and still counts in m");
	KTAP_CHECK(holm_is(p3, 3, w3), "Holm: adjusted p capped at 1");
	KTAP_CHECK(holm_is(p4, 2, w4), "Holm: equal p get equal adjusted p");
	KTAP_CHECK(holm_is(p5, 1, p5), "Holm of one p is that p");
}

static bool str_is(char *got, const char *want)
{
	bool ok = !strcmp(got, want);

	if (!ok)
		ktap_diag("got \"%s\", want \"%s\"", got, want);
	free(got);
	return ok;
}

/* Two names never give one cell: the escape character is escaped too. */
static void test_escape_cell(void)
{
	static const char *const names[] = {
		"a|b", "a\\vert{}b", "a\\|b", "a\\\\b", "a\\b", "a\\backslash{}b",
	};
	static const enum out_format fmts[] = { OUT_MARKDOWN, OUT_ORG };
	size_t f, i, j;
	bool ok = true;

	for (f = 0; f < ARRAY_SIZE(fmts); f++) {
		char *cell[ARRAY_SIZE(names)];

		for (i = 0; i < ARRAY_SIZE(names); i++)
			cell[i] = escape_cell(names[i], fmts[f]);
		for (i = 0; i < ARRAY_SIZE(names); i++) {
			for (j = i + 1; j < ARRAY_SIZE(names); j++) {
				if (!strcmp(cell[i], cell[j])) {
					ktap_diag("%s and %s both give %s", names[i],
						  names[j], cell[i]);
					ok = false;
				}
			}
		}
		for (i = 0; i < ARRAY_SIZE(names); i++)
			free(cell[i]);
	}
	KTAP_CHECK(ok, "escape_cell: different names, different cells (markdown, org)");
	KTAP_CHECK(str_is(escape_cell("a|b", OUT_ORG), "a\\vert{}b") &&
		   str_is(escape_cell("a\\vert{}b", OUT_ORG), "a\\backslash{}vert{}b") &&
		   str_is(escape_cell("a\\|b", OUT_MARKDOWN), "a\\\\\\|b") &&
		   str_is(escape_cell("a_b", OUT_MARKDOWN), "a_b"),
		   "escape_cell: '|' and '\\' escaped, the rest as it is");
}

static void test_numbers(void)
{
	KTAP_CHECK(str_is(fmt_fixed(-0.0001, 3, true), "+0.000") &&
		   str_is(fmt_fixed(-0.0004, 3, false), "0.000") &&
		   str_is(fmt_fixed(-0.4, 0, true), "+0") &&
		   str_is(fmt_fixed(-0.0, 2, false), "0.00"),
		   "fmt_fixed: never -0, a zero difference is +0.000");
	KTAP_CHECK(str_is(fmt_fixed(-1.5, 1, true), "-1.5") &&
		   str_is(fmt_fixed(-0.6, 0, false), "-1") &&
		   str_is(fmt_fixed(12.345, 3, false), "12.345") &&
		   str_is(fmt_fixed(2, 3, true), "+2.000"),
		   "fmt_fixed: signs and decimals kept");
	KTAP_CHECK(str_is(fmt_pct(12.5), "+12.50%") &&
		   str_is(fmt_pct(-0.001), "+0.00%") &&
		   str_is(fmt_pct(NAN), "-") && str_is(fmt_pct(INFINITY), "-"),
		   "fmt_pct: two decimals, a sign, - if unknown");
	KTAP_CHECK(number_decimals("12.345", 6) == 3 &&
		   number_decimals("12", 2) == 0 &&
		   number_decimals("18.10", 5) == 2 &&
		   number_decimals("1.25e1", 6) == 1 &&
		   number_decimals("1.5e3", 5) == 0 &&
		   number_decimals("1e-3", 4) == 3 &&
		   number_decimals("1.5E-2", 6) == 3,
		   "number_decimals: digits after the point less the exponent");
	KTAP_CHECK(number_len("12.5,3") == 4 && number_len("12.x") == 2 &&
		   number_len("1e") == 1 && number_len("1.5e+3 ") == 6 &&
		   number_len("-5") == 0 && number_len("abc") == 0,
		   "number_len: plain decimal numbers only");
}

/* The bounds of input: what parsers accept, what they refuse. */
static void test_input_bounds(void)
{
	unsigned long long u;
	double v;
	int d = -1;

	KTAP_CHECK(on_half_unit(103.5, 0) && on_half_unit(-6.5, 0) &&
		   on_half_unit(12.3455, 3) && !on_half_unit(103, 0) &&
		   !on_half_unit(12.345, 3) && !on_half_unit(100.3999995, 3) &&
		   !on_half_unit(1e300, 0),
		   "on_half_unit: the mean of two values an odd number of units apart");
	KTAP_CHECK(str_is(fmt_level(0.05), "95") &&
		   str_is(fmt_level(0.001), "99.9") &&
		   str_is(fmt_level(1 / 1e12), "99.9999999999") &&
		   str_is(fmt_level(0.1234), "87.66") &&
		   str_is(fmt_level(0.5), "50") &&
		   str_is(fmt_level(ALPHA_MIN), "99.9999999999") &&
		   str_is(fmt_level(0.9999999999999999), "1.11e-14") &&
		   str_is(fmt_level(0.999), "0.1"),
		   "fmt_level: 1 - alpha in percent, never rounded to 100");
	KTAP_CHECK(parse_double("18446744073709549568", &v, NULL) &&
		   !parse_double("1e20", &v, NULL) &&
		   !parse_double("1e999", &v, NULL) &&
		   parse_value("12.5,", 4, &v, &d) == NUM_OK && v == 12.5 &&
		   parse_value("1.5e308", 7, &v, &d) == NUM_RANGE &&
		   parse_value("1.5x", 4, &v, &d) == NUM_BAD,
		   "parse_value: at most what a u64 per element can be");
	KTAP_CHECK(parse_value("1e-400", 6, &v, &d) == NUM_RANGE &&
		   parse_value("5e-20", 5, &v, &d) == NUM_RANGE &&
		   parse_value("1e-150", 6, &v, &d) == NUM_RANGE &&
		   parse_value("1e-19", 5, &v, &d) == NUM_OK && d == 19 &&
		   parse_value("0e-99", 5, &v, &d) == NUM_OK && v == 0 &&
		   parse_value("0e-100", 6, &v, &d) == NUM_RANGE &&
		   parse_value("0.000e400", 9, &v, &d) == NUM_OK && d == 0,
		   "parse_value: a value but 0 below one count over a u64, or of over 99 decimals, is out of range");
	KTAP_CHECK(parse_value("18446744073709551615", 20, &v, &d) == NUM_INEXACT &&
		   parse_value("9007199254740993", 16, &v, &d) == NUM_INEXACT &&
		   parse_value("1.00000000000000001", 19, &v, &d) == NUM_INEXACT &&
		   parse_value("9007199254740992", 16, &v, &d) == NUM_OK &&
		   parse_value("0.30000000000000004", 19, &v, &d) == NUM_OK &&
		   parse_value("000012.50", 9, &v, &d) == NUM_OK && d == 2 &&
		   parse_value("100e-2", 6, &v, &d) == NUM_OK && d == 2 &&
		   parse_value("1.5e3", 5, &v, &d) == NUM_OK && v == 1500,
		   "parse_value: a number a double cannot show as written is NUM_INEXACT");
	KTAP_CHECK(parse_ull("18446744073709551615", &u) == NUM_OK &&
		   u == ~0ULL &&
		   parse_ull("18446744073709551616", &u) == NUM_RANGE &&
		   parse_ull("12x", &u) == NUM_BAD && parse_ull("", &u) == NUM_BAD,
		   "parse_ull: a u64, out of range or bad");
	KTAP_CHECK(!find_unprintable("caf\xc3\xa9 x\ty") &&
		   find_unprintable("a\x1b[m") &&
		   find_unprintable("\xc2\x9b") && find_unprintable("\xff") &&
		   find_unprintable("\xe0\x80\x80") &&
		   find_nonname("caf\xc3\xa9", 5) && !find_nonname("a-b_c1", 6) &&
		   find_nonname("a.b", 3) && find_nonname("a|b", 3),
		   "find_unprintable: controls, C1 and bad UTF-8; names are [A-Za-z0-9_-]");
	KTAP_CHECK(find_unprintable("a\xe2\x80\xae.") && find_unprintable("a\xe2\x80\xa8") &&
		   find_unprintable("\xe2\x80\xa9") && find_unprintable("\xe2\x80\x8e") &&
		   find_unprintable("\xe2\x80\x8f") && find_unprintable("\xe2\x80\xaa") &&
		   find_unprintable("\xe2\x81\xa6") && find_unprintable("\xe2\x81\xa9") &&
		   find_unprintable("\xd8\x9c") && find_unprintable("\xef\xbb\xbf") &&
		   find_unprintable("\xc2\xad") && find_unprintable("\xf3\xa0\x80\x81") &&
		   format_control_at("\xe2\x80\xae") == 0x202e &&
		   format_control_at("\xe2\x80\x94") == 0 &&
		   !find_unprintable("\xe2\x80\x94 \xe2\x80\xa7 \xe2\x80\xaf") &&
		   !find_unprintable("\xe2\x81\x9f \xe4\xb8\xad"),
		   "find_unprintable: bidi, line separators and other format controls too");
	KTAP_CHECK(parse_double("7.25", &v, &d) && v == 7.25 && d == 2 &&
		   !parse_double("nan", &v, NULL) &&
		   !parse_double("1.5.3", &v, NULL) &&
		   !parse_double("-5", &v, NULL) &&
		   !parse_double("", &v, NULL),
		   "parse_double: whole finite numbers, with their decimals");
}

/* ------------------------------------------------------------------ */
/* strtab.c: a hash that hostile names cannot flood */

static void test_siphash(void)
{
	/* the paper's vectors: key 00 01 .. 0f, message 00 01 .. len - 1 */
	static const struct {
		size_t len;
		u64 want;
	} vec[] = {
		{ 0, 0x726fdb47dd0e0e31ULL }, { 7, 0xab0200f58b01d137ULL },
		{ 8, 0x93f5f5799a932462ULL }, { 15, 0xa129ca6149be45e5ULL },
		{ 63, 0x958a324ceb064572ULL },
	};
	const u64 key[2] = { 0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL };
	unsigned char msg[64];
	bool ok = true;
	size_t i;

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (unsigned char)i;
	for (i = 0; i < ARRAY_SIZE(vec); i++) {
		u64 got = siphash24(key, msg, vec[i].len);

		if (got != vec[i].want) {
			ktap_diag("%zu bytes: %016llx, want %016llx", vec[i].len,
				  (unsigned long long)got,
				  (unsigned long long)vec[i].want);
			ok = false;
		}
	}
	KTAP_CHECK(ok, "siphash24: the reference vectors of 0, 7, 8, 15 and 63 bytes");
}

#define FLOOD_BITS	18	/* the low bits the old hash's names share */
#define FLOOD_BLOCKS	17	/* 2^17 names */
#define FLOOD_BLOCK_LEN	3
#define FNV_OFFSET	0xcbf29ce484222325ULL
#define FNV_PRIME	0x100000001b3ULL

/* The unkeyed hash strtab.c had until 2026: 64-bit FNV-1a. */
static u64 fnv1a(u64 h, const char *s, size_t len)
{
	while (len--)
		h = (h ^ (unsigned char)*s++) * FNV_PRIME;
	return h;
}

/* Block @i of the candidates: three letters or digits, base 62. */
static void flood_block(size_t i, char *out)
{
	static const char digits[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	int k;

	for (k = 0; k < FLOOD_BLOCK_LEN; k++, i /= 62)
		out[k] = digits[i % 62];
}

/*
 * What an attacker precomputes against FNV-1a: the low bits of its
 * state after a byte depend only on the low bits before it, so two
 * blocks that take state @h to the same low bits there (a birthday
 * search, some hundreds of candidates) can be swapped for each other.
 * FLOOD_BLOCKS such pairs, one after the other, make 2^FLOOD_BLOCKS
 * names whose hashes all agree in their low FLOOD_BITS bits. @pair gets
 * the blocks, FLOOD_BLOCK_LEN characters each.
 */
static void flood_pairs(char pair[FLOOD_BLOCKS][2][FLOOD_BLOCK_LEN])
{
	const u64 mask = (1ULL << FLOOD_BITS) - 1;
	u32 *seen = xcalloc(mask + 1, sizeof(*seen));
	u64 h = FNV_OFFSET;
	char blk[FLOOD_BLOCK_LEN];
	size_t b, i;

	for (b = 0; b < FLOOD_BLOCKS; b++) {
		memset(seen, 0, (mask + 1) * sizeof(*seen));
		for (i = 0;; i++) {
			u64 low;

			flood_block(i, blk);
			low = fnv1a(h, blk, sizeof(blk)) & mask;
			if (seen[low]) {
				flood_block(seen[low] - 1, pair[b][0]);
				memcpy(pair[b][1], blk, sizeof(blk));
				h = fnv1a(h, blk, sizeof(blk));
				break;
			}
			seen[low] = (u32)i + 1;
		}
	}
	free(seen);
}

/* Name @k of the flood: block b of pair b chosen by bit b of @k. */
static size_t flood_name(char pair[FLOOD_BLOCKS][2][FLOOD_BLOCK_LEN],
			 size_t k, char *name)
{
	size_t b;

	for (b = 0; b < FLOOD_BLOCKS; b++)
		memcpy(name + b * FLOOD_BLOCK_LEN, pair[b][(k >> b) & 1],
		       FLOOD_BLOCK_LEN);
	return FLOOD_BLOCKS * FLOOD_BLOCK_LEN;
}

/*
 * The flood into @t: all 2^FLOOD_BLOCKS names, each added once and
 * found again under its number; false if any is not. *@same_low says
 * whether their FNV-1a hashes all agreed in the low FLOOD_BITS bits.
 */
static bool flood_table(char pair[FLOOD_BLOCKS][2][FLOOD_BLOCK_LEN],
			struct strtab *t, bool *same_low)
{
	const u64 mask = (1ULL << FLOOD_BITS) - 1;
	size_t k, n = (size_t)1 << FLOOD_BLOCKS, id, len;
	char name[FLOOD_BLOCKS * FLOOD_BLOCK_LEN];
	u64 low0 = 0, low;
	bool added, ok = true;

	*same_low = true;
	for (k = 0; k < n; k++) {
		len = flood_name(pair, k, name);
		low = fnv1a(FNV_OFFSET, name, len) & mask;
		if (!k)
			low0 = low;
		*same_low = *same_low && low == low0;
		ok = ok && strtab_id(t, name, len, &added) == k && added;
	}
	for (k = 0; k < n; k += 1021) {
		len = flood_name(pair, k, name);
		ok = ok && strtab_find(t, name, len, &id) && id == k &&
		     t->len[k] == len && !memcmp(t->str[k], name, len);
	}
	return ok && t->nr == n;
}

/*
 * Names whose old hashes agree in their low 18 bits shared one run of
 * slots at every table size up to 2^18 slots: the 2^17 of them here
 * would end probing up to 2^17 slots each, 2^33 in all. A keyed hash
 * spreads them as any names: half full, the expected probe past the
 * home slot is half a slot, and the longest of 300 tables of 2^17
 * names under drawn keys was 22 to 50 slots, its tail thinning by
 * about a sixth per slot: 256 leaves no chance of a false failure and
 * is still 500 times below the flood.
 */
static void test_strtab_flood(void)
{
	static char pair[FLOOD_BLOCKS][2][FLOOD_BLOCK_LEN];
	struct strtab fixed = { .key = { 1, 2 }, .keyed = true };
	struct strtab drawn = { NULL }, other = { NULL };
	size_t n = (size_t)1 << FLOOD_BLOCKS, longest, total, i;
	bool same_low, ok;

	flood_pairs(pair);
	ok = flood_table(pair, &fixed, &same_low);
	KTAP_CHECK(ok && same_low,
		   "strtab: 2^17 names whose FNV-1a hashes agree in their low 18 bits, each numbered in order");
	strtab_probes(&fixed, &longest, &total);
	ktap_diag("fixed key: longest probe %zu, %zu probes for %zu names in %zu slots",
		  longest, total, n, fixed.nr_slots);
	KTAP_CHECK(longest <= 256 && total <= n,
		   "strtab, a fixed key: the flooding names probe at most 256 slots, 1 on average");
	ok = flood_table(pair, &drawn, &same_low);
	strtab_probes(&drawn, &longest, &total);
	ktap_diag("drawn key: longest probe %zu, %zu probes", longest, total);
	KTAP_CHECK(ok && drawn.keyed && longest <= 256 && total <= n,
		   "strtab, a key from getrandom: the same, at most 256 slots, 1 on average");
	/* two keys, the same numbers: nothing shown follows the slots */
	ok = flood_table(pair, &other, &same_low);
	ok = ok && (other.key[0] != drawn.key[0] ||
		    other.key[1] != drawn.key[1]);
	for (i = 0; ok && i < n; i++)
		ok = !strcmp(other.str[i], drawn.str[i]) &&
		     !strcmp(fixed.str[i], drawn.str[i]);
	KTAP_CHECK(ok, "strtab: other keys number the same names alike, in the order first seen");
	strtab_free(&fixed);
	strtab_free(&drawn);
	strtab_free(&other);
}

/* ------------------------------------------------------------------ */
/* input.c: a stream that fails is no end of file */

/* A stream of @len bytes at @data that then fails with @err (0: ends). */
struct failing {
	const char *data;
	size_t len, pos;
	int err;
};

static ssize_t failing_read(void *cookie, char *buf, size_t size)
{
	struct failing *fl = cookie;
	size_t n = fl->len - fl->pos;

	if (!n && fl->err) {
		errno = fl->err;
		return -1;
	}
	if (n > size)
		n = size;
	memcpy(buf, fl->data + fl->pos, n);
	fl->pos += n;
	return (ssize_t)n;
}

/*
 * read_stream() of @text then error @err: its return, and the first
 * line it wrote to stderr in @msg (empty if none), *@tests the tests it
 * found.
 */
static int read_failing(const char *text, int err, char *msg, size_t size,
			size_t *tests)
{
	cookie_io_functions_t io = { .read = failing_read };
	struct failing fl = { .data = text, .len = strlen(text), .err = err };
	struct bench_set set = { NULL };
	FILE *f = fopencookie(&fl, "r", io), *cap = tmpfile();
	int saved = dup(STDERR_FILENO), ret;

	if (!f || !cap || saved < 0) {
		ktap_diag("cannot set up the stream: %s", strerror(errno));
		return -2;
	}
	fflush(stderr);
	dup2(fileno(cap), STDERR_FILENO);
	ret = read_stream(&set, SIDE_BEFORE, "stream", f);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(cap);
	if (!fgets(msg, (int)size, cap))
		msg[0] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
	*tests = set.nr;
	fclose(cap);
	fclose(f);
	free_set(&set);
	return ret;
}

static void test_read_errors(void)
{
	static const char text[] =
		"format: bench_page_pool_simple 1\n"
		"test: name=a cycles_per_elem=1\n"
		"test: name=b cyc";
	static const char whole[] =
		"format: bench_page_pool_simple 1\n"
		"test: name=a cycles_per_elem=1\n";
	static const char eio[] =
		"bench-compare: stream:3: read error: Input/output error";
	static const char enomem[] =
		"bench-compare: stream:3: read error: Cannot allocate memory";
	static const char cut[] =
		"bench-compare: stream:3: test: line cut short: no newline at its end";
	char msg[200];
	size_t tests;
	int ret;

	ret = read_failing(text, EIO, msg, sizeof(msg), &tests);
	if (!KTAP_CHECK(ret == -1 && tests == 1 && !strcmp(msg, eio),
			"a read failing in line 3 (EIO): a read error, the cut line not read"))
		ktap_diag("returned %d, %zu tests, said '%s'", ret, tests, msg);
	ret = read_failing(text, ENOMEM, msg, sizeof(msg), &tests);
	KTAP_CHECK(ret == -1 && !strcmp(msg, enomem),
		   "a read failing with ENOMEM is an error too, never the end of the file");
	ret = read_failing(text, 0, msg, sizeof(msg), &tests);
	KTAP_CHECK(ret == -1 && !strcmp(msg, cut),
		   "the same stream ending there: a line cut short, as before");
	ret = read_failing(whole, EIO, msg, sizeof(msg), &tests);
	KTAP_CHECK(ret == -1 && !strcmp(msg, eio),
		   "whole lines, then a failing read: an error all the same");
	ret = read_failing(whole, 0, msg, sizeof(msg), &tests);
	KTAP_CHECK(ret == 0 && !msg[0] && tests == 1,
		   "whole lines, then the end of the stream: read, nothing said");
}

int main(void)
{
	test_reduce();
	test_ranks();
	test_critical_values();
	test_exact_p();
	test_exact_vs_normal();
	test_min_p_and_need();
	test_null_counts_and_ci_k();
	test_hl_shift();
	test_hl_select();
	test_hl_brute();
	test_hl_coverage();
	test_compare_build();
	test_prof_moved();
	test_profiles();
	test_aa(2000, false);
	test_aa(1000, true);
	test_boot_spread();
	test_boot_aa(1000);
	test_holm();
	test_escape_cell();
	test_numbers();
	test_input_bounds();
	test_siphash();
	test_strtab_flood();
	test_read_errors();
	return ktap_finish();
}
