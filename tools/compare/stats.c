// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: the statistics, pure functions of their arguments.
 *
 * Ranks, the Mann-Whitney U test (exact permutation p with midranks for
 * ties, normal approximation above EXACT_MAX_N values in all), the
 * Hodges-Lehmann shift estimate with its distribution-free confidence
 * interval, and the Holm-Bonferroni adjustment of a family of p values.
 *
 * Layer: low, above util.c only; called by compare.c and profile.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

#define HL_SEED		0x484c5f7368696674ULL	/* "HL_shift" */

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n >= 1 values; the mean of the middle two for even @n. */
double median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return NAN;
	s = xrealloc(NULL, n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : s[n / 2 - 1] / 2 + s[n / 2] / 2;
	free(s);
	return m;
}

double min_of(const double *v, size_t n)
{
	double m = NAN;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!i || v[i] < m)
			m = v[i];
	}
	return m;
}

/* One load's value from the @n repetitions it measured. */
double reduce_load(const double *v, size_t n, enum load_stat ls)
{
	return ls == LOAD_MIN ? min_of(v, n) : median(v, n);
}

struct ranked {
	double x;
	size_t idx;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *p = a, *q = b;

	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->idx < q->idx ? -1 : p->idx > q->idx;
}

/*
 * Ranks @x (@nx values) and @y (@ny values) pooled, ties getting the mean
 * of the ranks they span. Stores twice each midrank in @rank2 (x first,
 * then y), so that they are integers, and returns the tie term
 * sum(t^3 - t) over the groups of t tied values.
 */
double pooled_ranks2(const double *x, size_t nx, const double *y,
		     size_t ny, long long *rank2)
{
	size_t n = nx + ny, i, j, k;
	struct ranked *r;
	double ties = 0;

	r = xrealloc(NULL, n * sizeof(*r));
	for (i = 0; i < n; i++) {
		r[i].x = i < nx ? x[i] : y[i - nx];
		r[i].idx = i;
	}
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && r[j].x == r[i].x; j++)
			;
		/* 0-based positions i..j-1 are ranks i+1..j: twice the mean */
		for (k = i; k < j; k++)
			rank2[r[k].idx] = (long long)(i + 1 + j);
		t = (double)(j - i);
		ties += t * t * t - t;
	}
	free(r);
	return ties;
}

/* The midranks (1-based, ties averaged) of @n values into @rank. */
void midranks(const double *v, size_t n, double *rank)
{
	long long *rank2 = xcalloc(n, sizeof(*rank2));
	size_t i;

	pooled_ranks2(v, n, NULL, 0, rank2);
	for (i = 0; i < n; i++)
		rank[i] = rank2[i] / 2.0;
	free(rank2);
}

/* Mann-Whitney U of @x against @y: R_x - nx(nx+1)/2, with midranks. */
double mwu_u(const double *x, size_t nx, const double *y, size_t ny)
{
	double *pool = xcalloc(nx + ny, sizeof(*pool));
	double *rank = xcalloc(nx + ny, sizeof(*rank));
	double sum = 0;
	size_t i;

	memcpy(pool, x, nx * sizeof(*pool));
	memcpy(pool + nx, y, ny * sizeof(*pool));
	midranks(pool, nx + ny, rank);
	for (i = 0; i < nx; i++)
		sum += rank[i];
	free(rank);
	free(pool);
	return sum - (double)nx * (nx + 1) / 2;
}

/*
 * Exact two-sided p of the Mann-Whitney U test: the share of all ways
 * to pick nx of the pooled (mid)ranks whose rank sum lies at least as
 * far from its mean as the observed one. Handles ties exactly (the
 * permutation distribution of the midranks). Costs O(nx * n^3).
 */
double mwu_p_exact(const double *x, size_t nx, const double *y, size_t ny)
{
	size_t n = nx + ny, i, k;
	long long *rank2, obs = 0, mean2, dev, s, max2;
	double *cnt, hit = 0, total = 0;

	if (!nx || !ny)
		return 1;
	rank2 = xcalloc(n, sizeof(*rank2));
	pooled_ranks2(x, nx, y, ny, rank2);
	for (i = 0; i < nx; i++)
		obs += rank2[i];
	max2 = (long long)(n * (n + 1));
	/* cnt[k][s]: subsets of k ranks whose doubled sum is s */
	cnt = xcalloc((nx + 1) * (size_t)(max2 + 1), sizeof(*cnt));
#define CNT(k, s)	cnt[(size_t)(k) * (size_t)(max2 + 1) + (size_t)(s)]
	CNT(0, 0) = 1;
	for (i = 0; i < n; i++) {
		for (k = (i + 1 < nx ? i + 1 : nx); k >= 1; k--) {
			for (s = max2; s >= rank2[i]; s--)
				CNT(k, s) += CNT(k - 1, s - rank2[i]);
		}
	}
	mean2 = (long long)(nx * (n + 1));
	dev = llabs(obs - mean2);
	for (s = 0; s <= max2; s++) {
		total += CNT(nx, s);
		if (llabs(s - mean2) >= dev)
			hit += CNT(nx, s);
	}
#undef CNT
	free(cnt);
	free(rank2);
	return hit / total > 1 ? 1 : hit / total;
}

/* Upper tail of the standard normal distribution, doubled. */
static double two_sided_normal_p(double z)
{
	double p = erfc(fabs(z) / sqrt(2.0));

	return p > 1 ? 1 : p;
}

/*
 * Two-sided p of the Mann-Whitney U test from the normal approximation,
 * with the tie correction of the variance and a continuity correction.
 */
double mwu_p_normal(const double *x, size_t nx, const double *y, size_t ny)
{
	double n = (double)(nx + ny), mu, var, d, ties;
	long long *rank2;

	if (!nx || !ny)
		return 1;
	rank2 = xcalloc(nx + ny, sizeof(*rank2));
	ties = pooled_ranks2(x, nx, y, ny, rank2);
	free(rank2);
	mu = (double)nx * ny / 2;
	var = (double)nx * ny / 12 * ((n + 1) - ties / (n * (n - 1)));
	if (var <= 0)
		return 1;	/* every value the same */
	d = fabs(mwu_u(x, nx, y, ny) - mu) - 0.5;
	if (d < 0)
		d = 0;
	return two_sided_normal_p(d / sqrt(var));
}

/* Exact up to EXACT_MAX_N values in all, normal approximation above. */
double mwu_p(const double *x, size_t nx, const double *y, size_t ny)
{
	if (nx + ny <= EXACT_MAX_N)
		return mwu_p_exact(x, nx, y, ny);
	return mwu_p_normal(x, nx, y, ny);
}

/*
 * The smallest p that mwu_p() can yield for @nx against @ny values:
 * complete separation without ties. Exact: 2 / C(nx + ny, nx).
 */
double mwu_min_p(size_t nx, size_t ny)
{
	double n = (double)(nx + ny), mu, var, c = 1;
	size_t i;

	if (!nx || !ny)
		return 1;
	if (nx + ny <= EXACT_MAX_N) {
		for (i = 1; i <= nx; i++)
			c = c * (double)(ny + i) / (double)i;
		return 2 / c > 1 ? 1 : 2 / c;
	}
	mu = (double)nx * ny / 2;
	var = (double)nx * ny / 12 * (n + 1);
	return two_sided_normal_p((mu - 0.5) / sqrt(var));
}

/*
 * The fewest values per side (equal sides) with which p can fall below
 * @level; 0 if none up to NEED_LOADS_MAX. The exact sizes are tried one
 * by one; above them mwu_min_p(n, n) falls as n grows, so a binary
 * search finds n in a bounded number of steps whatever @level is.
 */
size_t need_loads(double level)
{
	size_t n, lo, hi;

	for (n = 1; 2 * n <= EXACT_MAX_N; n++) {
		if (mwu_min_p(n, n) < level)
			return n;
	}
	if (!(mwu_min_p(NEED_LOADS_MAX, NEED_LOADS_MAX) < level))
		return 0;
	/* mwu_min_p(lo, lo) >= level > mwu_min_p(hi, hi) */
	lo = n - 1;
	hi = NEED_LOADS_MAX;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (mwu_min_p(mid, mid) < level)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/*
 * The null distribution of U for @n1 against @n2 values without ties:
 * @cnt[u], u = 0..n1*n2, counts the C(n1 + n2, n1) equally likely ways
 * to place the first sample's ranks that give U = u. Counted as the
 * n1-subsets of the ranks 1..n1+n2 by their sum, U being that sum less
 * n1(n1+1)/2. The counts stay exact in a double (< 2^53) up to
 * n1 + n2 = 54.
 */
void mwu_null_counts(size_t n1, size_t n2, double *cnt)
{
	size_t n = n1 + n2, smax = n * (n + 1) / 2, base = n1 * (n1 + 1) / 2;
	size_t i, k, s, u;
	double *c;

	c = xcalloc((n1 + 1) * (smax + 1), sizeof(*c));
#define SUBSETS(k, s)	c[(k) * (smax + 1) + (s)]
	SUBSETS(0, 0) = 1;
	for (i = 1; i <= n; i++) {
		for (k = i < n1 ? i : n1; k >= 1; k--) {
			for (s = smax; s >= i; s--)
				SUBSETS(k, s) += SUBSETS(k - 1, s - i);
		}
	}
	for (u = 0; u <= n1 * n2; u++)
		cnt[u] = SUBSETS(n1, base + u);
#undef SUBSETS
	free(c);
}

/* P(Z <= z) of the standard normal distribution */
static double normal_cdf(double z)
{
	return erfc(-z / sqrt(2.0)) / 2;
}

/*
 * k of the confidence interval [D(k), D(N + 1 - k)] of the shift at
 * level 1 - @alpha: the largest k with P(U <= k - 1) <= alpha / 2 under
 * the null hypothesis, from the exact distribution of U without ties up
 * to EXACT_MAX_N values in all, else from the normal approximation with
 * continuity correction. 0 when even k = 1 is too wide a net (too few
 * values for any interval at this level).
 */
size_t mwu_ci_k(size_t n1, size_t n2, double alpha)
{
	size_t big_n = n1 * n2, k, lo, hi;
	double half = alpha / 2, mu, sigma;

	if (!n1 || !n2)
		return 0;
	if (n1 + n2 <= EXACT_MAX_N) {
		double *cnt = xcalloc(big_n + 1, sizeof(*cnt));
		double total = 0, cum = 0;

		mwu_null_counts(n1, n2, cnt);
		for (k = 0; k <= big_n; k++)
			total += cnt[k];
		/* k qualifies while P(U <= k - 1) <= alpha/2 */
		for (k = 0; k < big_n; k++) {
			cum += cnt[k];
			/* tolerance: rounding must not drop a k on the edge */
			if (cum / total > half * (1 + 1 / 1e12))
				break;
		}
		free(cnt);
		return k;
	}
	mu = (double)big_n / 2;
	sigma = sqrt((double)big_n * (double)(n1 + n2 + 1) / 12);
	/* P(U <= k - 1) ~ Phi((k - 1 + 0.5 - mu) / sigma), falling in k */
	lo = 0;
	hi = (size_t)mu + 1;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (normal_cdf(((double)mid - 0.5 - mu) / sigma) <= half)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The sorted samples and, per row i (b[i]), the candidates a[lo..hi-1]
 * while selecting a difference, and the counts of the last pivot.
 */
struct hl_rows {
	double *b, *a;
	size_t nb, na;
	size_t *lo, *hi;
	size_t *lt, *le;	/* differences < and <= the pivot, per row */
	unsigned long long rng;
};

static void hl_init(struct hl_rows *w, const double *b, size_t nb,
		    const double *a, size_t na)
{
	w->nb = nb;
	w->na = na;
	w->b = xcalloc(nb + na, sizeof(*w->b));
	w->a = w->b + nb;
	memcpy(w->b, b, nb * sizeof(*b));
	memcpy(w->a, a, na * sizeof(*a));
	qsort(w->b, nb, sizeof(*w->b), cmp_double);
	qsort(w->a, na, sizeof(*w->a), cmp_double);
	w->lo = xcalloc(4 * nb, sizeof(*w->lo));
	w->hi = w->lo + nb;
	w->lt = w->hi + nb;
	w->le = w->lt + nb;
	w->rng = HL_SEED;
}

static void hl_free(struct hl_rows *w)
{
	free(w->b);
	free(w->lo);
}

/* splitmix64: a fixed seed, so that every run picks the same pivots */
static unsigned long long hl_rand(unsigned long long *state)
{
	unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Counts, per row i, the differences a[j] - b[i] below @pivot (lt) and
 * not above it (le), with two pointers: both sorted, a row's count can
 * only grow with i. O(nb + na). Returns the totals in *@lt and *@le.
 */
static void hl_count(struct hl_rows *w, double pivot, size_t *lt, size_t *le)
{
	const double *a = w->a, *b = w->b;
	size_t i, jl = 0, je = 0;

	*lt = 0;
	*le = 0;
	for (i = 0; i < w->nb; i++) {
		while (jl < w->na && a[jl] - b[i] < pivot)
			jl++;
		while (je < w->na && a[je] - b[i] <= pivot)
			je++;
		w->lt[i] = jl;
		w->le[i] = je;
		*lt += jl;
		*le += je;
	}
}

/*
 * A candidate picked at random, NAN once few enough are left to sort;
 * *@remaining candidates, *@left differences left of all of them.
 */
static double hl_pivot(struct hl_rows *w, size_t *remaining, size_t *left)
{
	size_t i, r;

	*remaining = 0;
	*left = 0;
	for (i = 0; i < w->nb; i++) {
		*remaining += w->hi[i] - w->lo[i];
		*left += w->lo[i];
	}
	/* sorting what is left costs no more than counting once */
	if (*remaining <= w->nb + w->na)
		return NAN;
	r = (size_t)(hl_rand(&w->rng) % *remaining);
	for (i = 0; r >= w->hi[i] - w->lo[i]; i++)
		r -= w->hi[i] - w->lo[i];
	return w->a[w->lo[i] + r] - w->b[i];
}

/* The @k-th smallest (1-based) of the @n candidates left: sorted. */
static double hl_gather(const struct hl_rows *w, size_t n, size_t k)
{
	double *d = xcalloc(n, sizeof(*d)), x;
	size_t i, j, m = 0;

	for (i = 0; i < w->nb; i++) {
		for (j = w->lo[i]; j < w->hi[i]; j++)
			d[m++] = w->a[j] - w->b[i];
	}
	qsort(d, n, sizeof(*d), cmp_double);
	x = d[k - 1];
	free(d);
	return x;
}

/*
 * The @k-th smallest (1 <= k <= nb * na) of the differences a[j] - b[i],
 * without making them: a random candidate is the pivot, counting the
 * differences on each side of it narrows every row's candidates to
 * that side (the pivot itself drops out), until few are left.
 * O((nb + na) log(nb na)) expected time, O(nb + na) memory.
 */
static double hl_select(struct hl_rows *w, size_t k)
{
	size_t i, lt, le, remaining, left;
	double pivot;

	for (i = 0; i < w->nb; i++) {
		w->lo[i] = 0;
		w->hi[i] = w->na;
	}
	for (;;) {
		pivot = hl_pivot(w, &remaining, &left);
		if (isnan(pivot))
			return hl_gather(w, remaining, k - left);
		hl_count(w, pivot, &lt, &le);
		if (k > lt && k <= le)
			return pivot;
		for (i = 0; i < w->nb; i++) {
			if (k <= lt && w->lt[i] < w->hi[i])
				w->hi[i] = w->lt[i] > w->lo[i] ? w->lt[i] : w->lo[i];
			else if (k > le && w->le[i] > w->lo[i])
				w->lo[i] = w->le[i] < w->hi[i] ? w->le[i] : w->hi[i];
		}
	}
}

/* The @k-th smallest difference a[j] - b[i]; for the unit tests. */
double hl_kth_difference(const double *b, size_t nb, const double *a,
			 size_t na, size_t k)
{
	struct hl_rows w;
	double x;

	hl_init(&w, b, nb, a, na);
	x = hl_select(&w, k);
	hl_free(&w);
	return x;
}

/*
 * The Hodges-Lehmann estimate of the shift from @b (before) to @a
 * (after): the median of the nb * na differences a[j] - b[i], and its
 * confidence interval at level 1 - @alpha from mwu_ci_k(): the k-th
 * smallest and k-th largest differences. The differences are selected,
 * never stored: 100k loads a side take O(n) memory.
 */
void hl_shift(const double *b, size_t nb, const double *a, size_t na,
	      double alpha, struct shift *out)
{
	size_t big_n = nb * na;
	struct hl_rows w;

	out->est = NAN;
	out->lo = -INFINITY;
	out->hi = INFINITY;
	out->k = 0;
	if (!big_n)
		return;
	hl_init(&w, b, nb, a, na);
	out->est = hl_select(&w, (big_n + 1) / 2);
	if (big_n % 2 == 0)
		out->est = out->est / 2 + hl_select(&w, big_n / 2 + 1) / 2;
	out->k = mwu_ci_k(nb, na, alpha);
	if (out->k) {
		out->lo = hl_select(&w, out->k);
		out->hi = hl_select(&w, big_n + 1 - out->k);
	}
	hl_free(&w);
}

struct holm_item {
	double p;
	size_t idx;
};

/* ascending p, NAN last, equal p in input order: a stable result */
static int cmp_holm(const void *x, const void *y)
{
	const struct holm_item *a = x, *b = y;

	if (isnan(a->p) != isnan(b->p))
		return isnan(a->p) ? 1 : -1;
	if (!isnan(a->p) && a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/*
 * Holm-Bonferroni adjusted p of the @m p values @p into @adj: with the p
 * sorted ascending, adj(i) = max over j <= i of min(1, (m - j + 1) p(j)).
 * A NAN p (not computable) counts in m, conservatively, and stays NAN.
 */
void holm_adjust(const double *p, size_t m, double *adj)
{
	struct holm_item *it = xcalloc(m, sizeof(*it));
	double running = 0;
	size_t i;

	for (i = 0; i < m; i++) {
		it[i].p = p[i];
		it[i].idx = i;
	}
	qsort(it, m, sizeof(*it), cmp_holm);
	for (i = 0; i < m; i++) {
		double v = (double)(m - i) * it[i].p;

		if (isnan(it[i].p)) {
			adj[it[i].idx] = NAN;
			continue;
		}
		if (v > 1)
			v = 1;
		if (v > running)
			running = v;
		adj[it[i].idx] = running;
	}
	free(it);
}

/* A value and its group (and stratum), for sorting them together. */
struct grouped {
	double x;
	size_t group;
	int stratum;
	size_t idx;
};

/* By stratum, then group, then input order: a stable result. */
static int cmp_grouped(const void *a, const void *b)
{
	const struct grouped *p = a, *q = b;

	if (p->stratum != q->stratum)
		return p->stratum < q->stratum ? -1 : 1;
	if (p->group != q->group)
		return p->group < q->group ? -1 : 1;
	return p->idx < q->idx ? -1 : p->idx > q->idx;
}

/* @n values of @v with their @group (and @stratum, or 0), sorted. */
static struct grouped *group_sort(const double *v, const size_t *group,
				  const int *stratum, size_t n)
{
	struct grouped *g = xcalloc(n ? n : 1, sizeof(*g));
	size_t i;

	for (i = 0; i < n; i++) {
		g[i].x = v[i];
		g[i].group = group[i];
		g[i].stratum = stratum ? stratum[i] : 0;
		g[i].idx = i;
	}
	qsort(g, n, sizeof(*g), cmp_grouped);
	return g;
}

/* The end of the run of @g's group that starts at @i, of @n. */
static size_t group_end(const struct grouped *g, size_t i, size_t n)
{
	size_t j;

	for (j = i + 1; j < n && g[j].group == g[i].group &&
	     g[j].stratum == g[i].stratum; j++)
		;
	return j;
}

struct group_first {
	double med;
	size_t first;
};

static int cmp_group_first(const void *a, const void *b)
{
	const struct group_first *p = a, *q = b;

	return p->first < q->first ? -1 : p->first > q->first;
}

/*
 * The median of each group's values: @n values @v, value i of group
 * @group[i]. Into @out (room for @n) in the order each group first
 * appears; returns the number of groups. Each group one value: @v.
 */
size_t group_medians(const double *v, const size_t *group, size_t n,
		     double *out)
{
	struct grouped *g = group_sort(v, group, NULL, n);
	struct group_first *gf = xcalloc(n ? n : 1, sizeof(*gf));
	double *x = xcalloc(n ? n : 1, sizeof(*x));
	size_t i, j, k, nr = 0;

	for (i = 0; i < n; i = j) {
		j = group_end(g, i, n);
		for (k = i; k < j; k++)
			x[k - i] = g[k].x;
		gf[nr].med = median(x, j - i);
		gf[nr++].first = g[i].idx;	/* the smallest: sorted so */
	}
	qsort(gf, nr, sizeof(*gf), cmp_group_first);
	for (i = 0; i < nr; i++)
		out[i] = gf[i].med;
	free(x);
	free(gf);
	free(g);
	return nr;
}

/*
 * How @n values spread between their groups (boots) and within them,
 * each @stratum (side) about its own mean: the one-way random-effects
 * analysis of variance, its strata pooled. With N values in K groups
 * over the strata, n_i values in group i of stratum s (N_s values, k_s
 * groups):
 *
 *   MSW = sum (x - mean_i)^2 / (N - K)
 *   MSB = sum n_i (mean_i - mean_s)^2 / sum (k_s - 1)
 *   n0  = sum_s (N_s - sum_i n_i^2 / N_s) / sum (k_s - 1)
 *   sd_within = sqrt(MSW), sd_between = sqrt(max(0, (MSB - MSW) / n0))
 *
 * (n0 is the loads per boot when every boot has as many). NAN where
 * the values cannot tell: within needs N > K, between also K > strata.
 */
void boot_spread(const double *v, const size_t *group, const int *stratum,
		 size_t n, struct spread *out)
{
	struct grouped *g = group_sort(v, group, stratum, n);
	double ssw = 0, ssb = 0, n0 = 0, msw, vb;
	size_t i, j, q, s_end, k, groups = 0, dfb = 0;

	out->sd_between = NAN;
	out->sd_within = NAN;
	out->share = NAN;
	for (i = 0; i < n; i = s_end) {
		double sum = 0, mean, nn = 0, n2 = 0;
		size_t ks = 0;

		for (s_end = i; s_end < n && g[s_end].stratum == g[i].stratum;
		     s_end++)
			sum += g[s_end].x;
		mean = sum / (double)(s_end - i);
		for (j = i; j < s_end; j = k) {
			double gsum = 0, gmean, ni;

			k = group_end(g, j, s_end);
			ni = (double)(k - j);
			for (q = j; q < k; q++)
				gsum += g[q].x;
			gmean = gsum / ni;
			for (q = j; q < k; q++)
				ssw += (g[q].x - gmean) * (g[q].x - gmean);
			ssb += ni * (gmean - mean) * (gmean - mean);
			nn += ni;
			n2 += ni * ni;
			ks++;
		}
		groups += ks;
		dfb += ks - 1;
		n0 += nn - n2 / nn;
	}
	free(g);
	if (n <= groups)
		return;
	msw = ssw / (double)(n - groups);
	out->sd_within = sqrt(msw);
	if (!dfb)
		return;
	n0 /= (double)dfb;
	vb = (ssb / (double)dfb - msw) / n0;
	if (vb < 0)
		vb = 0;
	out->sd_between = sqrt(vb);
	if (vb + msw > 0)
		out->share = vb / (vb + msw);
}
