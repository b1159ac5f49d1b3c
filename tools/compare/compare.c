// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: one row per test present on both sides.
 *
 * Each load's repetitions of a test become one value here, and only
 * here (--load-stat). The per-load values of each side are the
 * samples: the medians show where each side lies, the Hodges-Lehmann
 * shift and its interval how far after lies from before, and a
 * Mann-Whitney U test per row, with Holm-Bonferroni over the rows of
 * the table, whether that is more than the loads' own scatter. The
 * exact profiles of the rows are compared by profile.c.
 *
 * Layer: below main.c and the outputs; it calls profile.c,
 * stats.c and util.c, never input or output.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

/* One value per load of @s into @out: the reduction of its repetitions. */
static void reduce_series(const struct series *s, enum load_stat ls,
			  struct vec *out)
{
	size_t i, n;

	for (i = 0; i < s->nr_loads; i++) {
		const double *reps = series_load(s, i, &n);

		vec_push(out, reduce_load(reps, n, ls));
	}
}

static void compare_metric(const struct bench_test *t, enum metric m,
			   double alpha, enum load_stat ls,
			   struct metric_cmp *mc)
{
	const struct vec *b = &mc->v[SIDE_BEFORE], *a = &mc->v[SIDE_AFTER];
	int s;

	memset(mc, 0, sizeof(*mc));
	for (s = 0; s < NR_SIDES; s++)
		reduce_series(&t->val[s][m], ls, &mc->v[s]);
	mc->have = b->n && a->n;
	if (!mc->have)
		return;
	mc->before = median(b->v, b->n);
	mc->after = median(a->v, a->n);
	hl_shift(b->v, b->n, a->v, a->n, alpha, &mc->shift);
	mc->decimals = t->decimals[m] < 0 ? 0 : t->decimals[m];
	/* a median or shift between two values shows its half unit */
	if (on_half_unit(mc->before, mc->decimals) ||
	    on_half_unit(mc->after, mc->decimals) ||
	    on_half_unit(mc->shift.est, mc->decimals))
		mc->decimals++;
}

/* The tests with cycles on both sides become the rows; their number. */
static size_t pick_rows(const struct bench_set *set, struct comparison *cmp)
{
	size_t i, m = 0;

	cmp->rows = xcalloc(set->nr, sizeof(*cmp->rows));
	for (i = 0; i < set->nr; i++) {
		const struct bench_test *t = &set->tests[i];

		if (t->val[SIDE_BEFORE][MET_CYCLES].nr_loads &&
		    t->val[SIDE_AFTER][MET_CYCLES].nr_loads)
			cmp->rows[m++].test = t;
	}
	return m;
}

/*
 * A figure that only some of a row's loads carry would be a median of
 * fewer loads than the row says it has (one load's ns against five,
 * +930%): ns are shown, and % change computed from them, only when every
 * load the row counts carries them; under instructions there are none.
 */
static void row_ns_loads(struct row *r, enum clock clock)
{
	struct metric_cmp *ns = &r->m[MET_NS];
	int s;

	for (s = 0; s < NR_SIDES; s++)
		r->ns_loads[s] = ns->v[s].n;
	if (clock != CLOCK_CYCLES ||
	    !(r->ns_loads[SIDE_BEFORE] + r->ns_loads[SIDE_AFTER]))
		return;
	if (r->ns_loads[SIDE_BEFORE] == r->loads[SIDE_BEFORE] &&
	    r->ns_loads[SIDE_AFTER] == r->loads[SIDE_AFTER])
		return;
	ns->have = false;
	r->ns_dropped = true;
}

/*
 * Why row @r shows no ns: "ns/elem in K of N loads before, M of N
 * after"; NULL when it is not for that.
 */
char *ns_dropped_note(const struct row *r)
{
	if (!r->ns_dropped)
		return NULL;
	return xasprintf("ns/elem in %zu of %zu load%s before, %zu of %zu after",
			 r->ns_loads[SIDE_BEFORE], r->loads[SIDE_BEFORE],
			 r->loads[SIDE_BEFORE] == 1 ? "" : "s",
			 r->ns_loads[SIDE_AFTER], r->loads[SIDE_AFTER]);
}

/*
 * % change, one definition for every format: the ns diff in % of ns
 * before, as the reviewers' tables compute it ($8=(($7/$5)*100)); ns
 * are the figure a reader of dmesg sees with decimals (C is truncated
 * there). Under instructions there are no ns: the instructions diff.
 */
static void row_pct(struct row *r, enum clock clock)
{
	const struct metric_cmp *mc;

	r->pct_of = clock == CLOCK_INSTRUCTIONS ? MET_CYCLES : MET_NS;
	mc = &r->m[r->pct_of];
	r->pct = NAN;
	if (mc->have && mc->before != 0)
		r->pct = mc->shift.est / mc->before * 100;
	if (!isfinite(r->pct))
		r->pct = NAN;
}

/*
 * The values of row @r and its raw p. A row is n/a when even complete
 * separation of its loads could not give p < @level = alpha / m, the
 * threshold Holm applies to the smallest p of m rows; it then needs the
 * fewest loads per side that could, and it still counts in m.
 */
static void compare_row(struct row *r, double alpha, double level,
			enum load_stat ls)
{
	const struct vec *b, *a;
	int m;

	for (m = 0; m < NR_METRICS; m++)
		compare_metric(r->test, (enum metric)m, alpha, ls, &r->m[m]);
	b = &r->m[MET_CYCLES].v[SIDE_BEFORE];
	a = &r->m[MET_CYCLES].v[SIDE_AFTER];
	r->loads[SIDE_BEFORE] = b->n;
	r->loads[SIDE_AFTER] = a->n;
	r->p_raw = NAN;
	if (mwu_min_p(b->n, a->n) >= level) {
		r->verdict = VERDICT_NA;
		r->need = need_loads(level);
	} else {
		r->p_raw = mwu_p(b->v, b->n, a->v, a->n);
	}
}

/* Fills @cmp from @set. */
void compare_build(const struct bench_set *set, double alpha,
		   enum load_stat load_stat, struct comparison *cmp)
{
	double *p_raw, *p_adj;
	size_t i, m;

	memset(cmp, 0, sizeof(*cmp));
	cmp->alpha = alpha;
	cmp->load_stat = load_stat;
	cmp->clock = set->clock;
	for (i = 0; i < set->nr_loads; i++)
		cmp->loads[set->loads[i].side] += set->loads[i].values > 0;
	m = pick_rows(set, cmp);
	cmp->nr = m;
	profile_build(set, cmp);
	if (!m)
		return;
	p_raw = xcalloc(m, sizeof(*p_raw));
	p_adj = xcalloc(m, sizeof(*p_adj));
	for (i = 0; i < m; i++) {
		compare_row(&cmp->rows[i], alpha, alpha / (double)m, load_stat);
		row_ns_loads(&cmp->rows[i], cmp->clock);
		row_pct(&cmp->rows[i], cmp->clock);
		p_raw[i] = cmp->rows[i].p_raw;
	}
	holm_adjust(p_raw, m, p_adj);
	for (i = 0; i < m; i++) {
		struct row *r = &cmp->rows[i];

		r->p_adj = p_adj[i];
		if (!isnan(r->p_raw))
			r->verdict = r->p_adj < alpha ? VERDICT_CHANGE :
							VERDICT_NOISE;
	}
	free(p_raw);
	free(p_adj);
}

void compare_free(struct comparison *cmp)
{
	size_t i;
	int m, s;

	profile_free(cmp);
	for (i = 0; i < cmp->nr; i++) {
		for (m = 0; m < NR_METRICS; m++) {
			for (s = 0; s < NR_SIDES; s++)
				free(cmp->rows[i].m[m].v[s].v);
		}
	}
	free(cmp->rows);
	memset(cmp, 0, sizeof(*cmp));
}
