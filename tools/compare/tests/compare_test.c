// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the statistics in bench_compare.c, which is included
 * whole, its main renamed bench_compare_main.
 *
 * Every check prints "ok N - what" or "not ok N - what"; lines starting
 * with "#" are diagnostics. The last line is "P passed, F failed" and
 * the exit status is non-zero if any check failed.
 */
#define BENCH_COMPARE_NO_MAIN
#include "../bench_compare.c"

#define TOL		ldexp(1.0, -40)	/* for values computed exactly */

static unsigned int checks_passed, checks_failed;

static bool check(bool ok, const char *fmt, ...) __printf(2, 3);

/* "ok N - what" if @ok, else "not ok N - what"; yields @ok */
static bool check(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		checks_passed++;
	else
		checks_failed++;
	printf("%s %u - ", ok ? "ok" : "not ok",
	       checks_passed + checks_failed);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return ok;
}

static bool near(double got, double want, double tol)
{
	if (fabs(got - want) <= tol)
		return true;
	printf("#   got %.15g, want %.15g (tolerance %g)\n", got, want, tol);
	return false;
}

/* splitmix64 with a fixed seed, so every run tests the same cases */
static unsigned long long rng_state = 0x62656e63685f636dULL;

static unsigned long long rnd(void)
{
	unsigned long long z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void test_median(void)
{
	static const double odd[] = { 3, 1, 2 };
	static const double even[] = { 4, 1, 3, 2 };
	static const double one[] = { 7.5 };
	static const double dup[] = { 5, 1, 5, 5, 9, 1 };

	check(near(median(odd, 3), 2, 0), "median of 3 values is the middle one");
	check(near(median(even, 4), 2.5, 0),
	      "median of 4 values is the mean of the middle two");
	check(near(median(one, 1), 7.5, 0), "median of 1 value is that value");
	check(near(median(dup, 6), 5, 0), "median with repeated values");
	check(odd[0] == 3 && even[0] == 4, "median leaves its input unsorted");
}

static bool ranks_are(const double *v, size_t n, const double *want)
{
	double rank[16];
	bool ok = true;
	size_t i;

	midranks(v, n, rank);
	for (i = 0; i < n; i++) {
		if (rank[i] != want[i]) {
			printf("#   rank[%zu] = %g, want %g\n", i, rank[i],
			       want[i]);
			ok = false;
		}
	}
	return ok;
}

static void test_midranks(void)
{
	static const double v1[] = { 10, 20, 20, 30 };
	static const double r1[] = { 1, 2.5, 2.5, 4 };
	static const double v2[] = { 5, 5, 5 };
	static const double r2[] = { 2, 2, 2 };
	static const double v3[] = { 3, 1, 2, 1 };
	static const double r3[] = { 4, 1.5, 3, 1.5 };
	static const double v4[] = { 0.5, 9, 7, 7, 7, 0.5, 8 };
	static const double r4[] = { 1.5, 7, 4, 4, 4, 1.5, 6 };
	static const double v5[] = { 4, 3, 2, 1 };
	static const double r5[] = { 4, 3, 2, 1 };

	check(ranks_are(v1, 4, r1), "midranks: one pair tied");
	check(ranks_are(v2, 3, r2), "midranks: all tied");
	check(ranks_are(v3, 4, r3), "midranks: unsorted input with a tie");
	check(ranks_are(v4, 7, r4), "midranks: two tie groups");
	check(ranks_are(v5, 4, r5), "midranks: no ties, descending");
}

static void test_u(void)
{
	static const double lo[] = { 1, 2, 3 }, hi[] = { 4, 5, 6 };
	static const double x[] = { 1, 2 }, y[] = { 2, 3 };
	static const double a[] = { 1.1, 4.2, 2.3, 8.4, 5.5 };
	static const double b[] = { 3.6, 7.7, 6.8, 9.9 };
	double ua, ub;

	check(near(mwu_u(lo, 3, hi, 3), 0, 0), "U = 0 when x is all below y");
	check(near(mwu_u(hi, 3, lo, 3), 9, 0),
	      "U = nx*ny when x is all above y");
	check(near(mwu_u(x, 2, y, 2), 0.5, 0),
	      "U with a tie between the samples counts it as one half");
	ua = mwu_u(a, 5, b, 4);
	ub = mwu_u(b, 4, a, 5);
	/* a below b: (1.1: 4) (4.2: 3) (2.3: 4) (8.4: 1) (5.5: 3) = 15 */
	check(near(ub, 15, 0) && near(ua, 5, 0),
	      "U counts the pairs one sample wins (by hand: 15 and 5)");
	check(near(ua + ub, 20, 0), "U_x + U_y = nx*ny");
}

/* Reference p by enumerating all subsets, from the midranks. */
static double brute_p(const double *x, size_t nx, const double *y, size_t ny)
{
	size_t n = nx + ny, i;
	double pool[16], rank[16], obs = 0, mean, hit = 0, total = 0;
	unsigned long m;

	memcpy(pool, x, nx * sizeof(*x));
	memcpy(pool + nx, y, ny * sizeof(*y));
	midranks(pool, n, rank);
	for (i = 0; i < nx; i++)
		obs += rank[i];
	mean = nx * (n + 1) / 2.0;
	for (m = 0; m < 1UL << n; m++) {
		double sum = 0;

		if ((size_t)__builtin_popcountl(m) != nx)
			continue;
		for (i = 0; i < n; i++) {
			if (m & (1UL << i))
				sum += rank[i];
		}
		total++;
		if (fabs(sum - mean) >= fabs(obs - mean) - 0.25)
			hit++;
	}
	return hit / total;
}

static void test_exact(void)
{
	static const double l3[] = { 1, 2, 3 }, h3[] = { 4, 5, 6 };
	static const double l4[] = { 1, 2, 3, 4 }, h4[] = { 5, 6, 7, 8 };
	static const double x5[] = { 1, 2, 3, 4, 5 };
	static const double y5u0[] = { 6, 7, 8, 9, 10 };
	static const double x5u1[] = { 1, 2, 3, 4, 6 };
	static const double y5u1[] = { 5, 7, 8, 9, 10 };
	static const double x5u2[] = { 1, 2, 3, 5, 6 };
	static const double y5u2[] = { 4, 7, 8, 9, 10 };
	static const double x5u3[] = { 1, 2, 4, 5, 6 };
	static const double y5u3[] = { 3, 7, 8, 9, 10 };
	static const double tx[] = { 1, 2 }, ty[] = { 2, 3 };
	static const double same[] = { 1, 2, 3 };
	static const double one_a[] = { 5 }, one_b[] = { 6 };
	static const double tie_lo[] = { 1, 1, 1, 1 }, tie_hi[] = { 2, 2, 2, 2 };
	int i, bad = 0;

	/* no ties: p = 2 * #{U <= u} / C(n1 + n2, n1) */
	check(near(mwu_p_exact(l3, 3, h3, 3), 0.1, TOL),
	      "exact p, 3 vs 3 separated: 2/20 = 0.1");
	check(near(mwu_p_exact(l4, 4, h4, 4), 2.0 / 70, TOL),
	      "exact p, 4 vs 4 separated: 2/70");
	check(near(mwu_p_exact(x5, 5, y5u0, 5), 2.0 / 252, TOL),
	      "exact p, 5 vs 5, U=0: 2/252 = 0.00794");
	check(near(mwu_p_exact(x5u1, 5, y5u1, 5), 4.0 / 252, TOL),
	      "exact p, 5 vs 5, U=1: 2*2/252 = 0.01587");
	check(near(mwu_p_exact(x5u2, 5, y5u2, 5), 8.0 / 252, TOL),
	      "exact p, 5 vs 5, U=2: 2*4/252 = 0.03175 (< 0.05: U crit = 2)");
	check(near(mwu_p_exact(x5u3, 5, y5u3, 5), 14.0 / 252, TOL),
	      "exact p, 5 vs 5, U=3: 2*7/252 = 0.05556 (> 0.05)");
	/* doubled midranks 2,5,5,8; sums 7,7,10,10,13,13; observed 7 */
	check(near(mwu_p_exact(tx, 2, ty, 2), 4.0 / 6, TOL),
	      "exact p with a tie across samples: 4/6 by hand");
	check(near(mwu_p_exact(tie_lo, 4, tie_hi, 4), 2.0 / 70, TOL),
	      "exact p, two tied groups separated: 2/70");
	check(near(mwu_p_exact(same, 3, same, 3), 1, TOL),
	      "exact p = 1 for identical samples");
	check(near(mwu_p_exact(tie_lo, 4, tie_lo, 4), 1, TOL),
	      "exact p = 1 when every value is the same");
	check(near(mwu_p_exact(one_a, 1, one_b, 1), 1, TOL),
	      "exact p = 1 for 1 vs 1");
	check(near(mwu_p_exact(x5u2, 5, y5u2, 5),
		   mwu_p_exact(y5u2, 5, x5u2, 5), TOL),
	      "exact p is symmetric in the samples");

	for (i = 0; i < 300; i++) {
		double x[8], y[8], p, q, r;
		size_t nx = 1 + rnd() % 7, ny = 1 + rnd() % 7, k;

		/* few distinct values: many ties */
		for (k = 0; k < nx; k++)
			x[k] = (double)(rnd() % 6);
		for (k = 0; k < ny; k++)
			y[k] = (double)(rnd() % 6) + (i % 3 ? 0 : 1.5);
		p = mwu_p_exact(x, nx, y, ny);
		q = mwu_p_exact(y, ny, x, nx);
		r = brute_p(x, nx, y, ny);
		if (fabs(p - r) > TOL || fabs(p - q) > TOL ||
		    !(p > 0 && p <= 1)) {
			if (bad++ < 5)
				printf("#   case %d: p %.15g, swapped %.15g, brute force %.15g\n",
				       i, p, q, r);
		}
	}
	check(!bad,
	      "exact p equals brute-force enumeration and is symmetric (300 random tied cases)");
}

static void test_normal(void)
{
	double worst = 0, worst_small = 0;
	int i, bad = 0, small = 0;
	static const double lo[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	static const double hi[] = { 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
	static const double flat[] = { 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3 };
	double x[10], y[10], z;

	/* spread shifts of y, so that p covers the whole range */
	for (i = 0; i < 400; i++) {
		double p, q, d;
		size_t k;

		for (k = 0; k < 10; k++) {
			x[k] = (double)(rnd() % 1000);
			y[k] = (double)(rnd() % 1000) + (double)(i % 8) * 60;
		}
		p = mwu_p_exact(x, 10, y, 10);
		q = mwu_p_normal(x, 10, y, 10);
		d = fabs(p - q);
		if (d > worst)
			worst = d;
		if (p < 0.2) {
			small++;
			if (d > worst_small)
				worst_small = d;
		}
		if ((d > 0.02 || (p < 0.2 && d > 0.005)) && bad++ < 5)
			printf("#   case %d: exact %.6f, normal %.6f\n", i, p, q);
	}
	printf("#   largest |exact - normal|: %.6f, %.6f in the %d cases with p < 0.2\n",
	       worst, worst_small, small);
	check(!bad && small > 50,
	      "normal p within 0.005 of exact p when p < 0.2, 0.02 overall (n = 10/10, 400 cases)");
	check(near(mwu_p_normal(lo, 10, hi, 10), erfc((50 - 0.5) /
		   sqrt(100.0 * 21 / 12) / sqrt(2.0)), TOL),
	      "normal p of 10 vs 10 separated: z = (50 - 0.5) / sqrt(175)");
	check(near(mwu_p_normal(lo, 10, hi, 10),
		   mwu_p_normal(hi, 10, lo, 10), TOL),
	      "normal p is symmetric in the samples");
	check(near(mwu_p_normal(flat, 12, flat, 12), 1, 0),
	      "normal p = 1 when every value is the same");
	check(near(mwu_p_normal(lo, 10, lo, 10), 1, TOL),
	      "normal p = 1 for identical samples");
	/*
	 * x = 0,0,1,1,...,4,4 and y = x + 2: values 0, 1, 5, 6 twice, 2, 3, 4
	 * four times: sum(t^3 - t) = 4 * 6 + 3 * 60 = 204
	 */
	for (i = 0; i < 10; i++) {
		x[i] = (double)(i / 2);
		y[i] = (double)(i / 2) + 2;
	}
	z = (fabs(mwu_u(x, 10, y, 10) - 50) - 0.5) /
	    sqrt(100.0 / 12 * (21 - 204 / (20.0 * 19)));
	check(near(mwu_p_normal(x, 10, y, 10), erfc(z / sqrt(2.0)), TOL),
	      "normal p uses the tie-corrected variance");
	check(mwu_p(lo, 10, hi, 10) == mwu_p_exact(lo, 10, hi, 10),
	      "mwu_p is exact at 20 samples in all");
	{
		double a[11], b[10];

		for (i = 0; i < 11; i++)
			a[i] = i;
		for (i = 0; i < 10; i++)
			b[i] = i + 0.5;
		check(mwu_p(a, 11, b, 10) == mwu_p_normal(a, 11, b, 10),
		      "mwu_p is the normal approximation above 20 samples");
	}
}

static void test_min_p(void)
{
	static const double l4[] = { 1, 2, 3, 4 }, h3[] = { 5, 6, 7 };
	double a[15], b[15];
	size_t n;
	int i;

	check(near(mwu_min_p(1, 1), 1, TOL), "min p, 1 vs 1: 1");
	check(near(mwu_min_p(2, 2), 1.0 / 3, TOL), "min p, 2 vs 2: 2/6");
	check(near(mwu_min_p(3, 3), 0.1, TOL), "min p, 3 vs 3: 2/20");
	check(near(mwu_min_p(4, 4), 2.0 / 70, TOL), "min p, 4 vs 4: 2/70");
	check(near(mwu_min_p(3, 4), 2.0 / 35, TOL) &&
	      near(mwu_min_p(4, 3), 2.0 / 35, TOL), "min p, 3 vs 4: 2/35");
	check(near(mwu_min_p(1, 19), 0.1, TOL), "min p, 1 vs 19: 2/20");
	check(near(mwu_min_p(4, 3), mwu_p_exact(l4, 4, h3, 3), TOL),
	      "min p is the exact p of separated samples");
	for (i = 0; i < 15; i++) {
		a[i] = i;
		b[i] = i + 100;
	}
	check(near(mwu_min_p(15, 15), mwu_p(a, 15, b, 15), TOL),
	      "min p is the normal p of separated samples above 20");
	check(need_samples(0.05) == 4, "need 4 samples per side at alpha 0.05");
	check(need_samples(0.01) == 5, "need 5 samples per side at alpha 0.01");
	check(need_samples(0.1) == 4,
	      "need 4 samples per side at alpha 0.1 (3: p = 0.1, not below)");
	check(need_samples(0.5) == 2, "need 2 samples per side at alpha 0.5");
	n = need_samples(0.000001);
	check(n > 10 && mwu_min_p(n, n) < 0.000001 &&
	      mwu_min_p(n - 1, n - 1) >= 0.000001,
	      "need_samples(0.000001) is the first n reaching it (normal approximation)");
}

static void test_judge(void)
{
	static double lo[] = { 1, 2, 3, 4 }, hi[] = { 5, 6, 7, 8 };
	static double mix[] = { 1.5, 2.5, 5.5, 6.5 };
	struct sample_vec a = { lo, 4, 4 }, b = { hi, 4, 4 };
	struct sample_vec m = { mix, 4, 4 }, one = { lo, 1, 1 };
	struct sample_vec three = { hi, 3, 3 };
	double p;

	check(judge(&a, &b, 0.05, &p) == VERDICT_CHANGE &&
	      near(p, 2.0 / 70, TOL), "verdict change for 4 vs 4 separated");
	check(judge(&a, &m, 0.05, &p) == VERDICT_NOISE,
	      "verdict noise for overlapping samples");
	check(judge(&one, &b, 0.05, &p) == VERDICT_NA && isnan(p),
	      "verdict n/a for 1 vs 4 at alpha 0.05");
	check(judge(&three, &a, 0.05, &p) == VERDICT_NA,
	      "verdict n/a for 3 vs 4 at alpha 0.05 (min p 2/35)");
	check(judge(&three, &a, 0.06, &p) == VERDICT_CHANGE,
	      "verdict change for 3 vs 4 separated at alpha 0.06");
	check(judge(&a, &b, 0.01, &p) == VERDICT_NA,
	      "verdict n/a for 4 vs 4 at alpha 0.01");
}

int main(void)
{
	test_median();
	test_midranks();
	test_u();
	test_exact();
	test_normal();
	test_min_p();
	test_judge();
	printf("%u passed, %u failed\n", checks_passed, checks_failed);
	return checks_failed ? 1 : 0;
}
