// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: one row per test present on both sides.
 *
 * The per-load values of each side are the samples: the medians show
 * where each side lies, the Hodges-Lehmann shift and its interval how
 * far after lies from before, and a Mann-Whitney U test per row, with
 * Holm-Bonferroni over the rows of the table, whether that is more than
 * the loads' own scatter.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

static void compare_metric(const struct bench_test *t, enum metric m,
			   double alpha, struct metric_cmp *mc)
{
	const struct vec *b = &t->val[SIDE_BEFORE][m];
	const struct vec *a = &t->val[SIDE_AFTER][m];

	memset(mc, 0, sizeof(*mc));
	mc->pct = NAN;
	mc->have = b->n && a->n;
	if (!mc->have)
		return;
	mc->before = median(b->v, b->n);
	mc->after = median(a->v, a->n);
	hl_shift(b->v, b->n, a->v, a->n, alpha, &mc->shift);
	if (mc->before != 0)
		mc->pct = mc->shift.est / mc->before * 100;
	mc->decimals = t->decimals[m] < 0 ? 0 : t->decimals[m];
}

/*
 * Fills @cmp from @set. A row is n/a when even complete separation of
 * its loads could not give p < alpha / m, the threshold Holm applies to
 * the smallest p of m rows; it then needs the fewest loads per side that
 * could, and it still counts in m.
 */
void compare_build(const struct bench_set *set, double alpha,
		   struct comparison *cmp)
{
	double level, *p_raw, *p_adj;
	size_t i, m = 0;

	memset(cmp, 0, sizeof(*cmp));
	cmp->alpha = alpha;
	cmp->load_stat = set->load_stat;
	cmp->rows = xcalloc(set->nr, sizeof(*cmp->rows));
	for (i = 0; i < set->nr; i++) {
		const struct bench_test *t = &set->tests[i];

		if (t->val[SIDE_BEFORE][MET_CYCLES].n &&
		    t->val[SIDE_AFTER][MET_CYCLES].n)
			cmp->rows[m++].test = t;
	}
	cmp->nr = m;
	if (!m)
		return;
	level = alpha / (double)m;
	p_raw = xcalloc(m, sizeof(*p_raw));
	p_adj = xcalloc(m, sizeof(*p_adj));
	for (i = 0; i < m; i++) {
		struct row *r = &cmp->rows[i];
		const struct vec *b = &r->test->val[SIDE_BEFORE][MET_CYCLES];
		const struct vec *a = &r->test->val[SIDE_AFTER][MET_CYCLES];

		compare_metric(r->test, MET_CYCLES, alpha, &r->m[MET_CYCLES]);
		compare_metric(r->test, MET_NS, alpha, &r->m[MET_NS]);
		r->loads[SIDE_BEFORE] = b->n;
		r->loads[SIDE_AFTER] = a->n;
		if (mwu_min_p(b->n, a->n) >= level) {
			r->verdict = VERDICT_NA;
			r->need = need_loads(level);
			p_raw[i] = NAN;
		} else {
			p_raw[i] = mwu_p(b->v, b->n, a->v, a->n);
		}
		r->p_raw = p_raw[i];
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
	free(cmp->rows);
	memset(cmp, 0, sizeof(*cmp));
}
