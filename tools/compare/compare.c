// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: one row per test present on both sides.
 *
 * Each load's repetitions of a test become one value here, and only
 * here (--load-stat). Loads of one boot share its offset: where the
 * files say their boot (boot_id:) and the clock counts cycles, each
 * boot's loads become one value, their median (--unit). The per-unit
 * values of each side, boots or loads, are the samples: the medians
 * show where each side lies, the Hodges-Lehmann shift and its interval
 * how far after lies from before, and a Mann-Whitney U test per row,
 * with Holm-Bonferroni over the rows of the table, whether that is
 * more than the units' own scatter. How the per-load values spread
 * between boots and within one is said beside them. The figure judged
 * is the cycle counter's, or the PMU's (--figure). The exact profiles
 * of the rows are compared by profile.c.
 *
 * Layer: below main.c and the outputs; it calls profile.c,
 * stats.c and util.c, never input or output.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

/*
 * The boot of the set's load @load (1 + its index; 0: not known): a key
 * shared by the loads of one boot. A load that says no boot is a boot
 * of its own, as every load of make ab's timing runs is.
 */
static size_t boot_key(const struct bench_set *set, size_t load, size_t i)
{
	if (!load)
		return set->boots.nr + set->nr_loads + 1 + i;
	if (set->loads[load - 1].boot)
		return set->loads[load - 1].boot;
	return set->boots.nr + load;
}

/*
 * One value per load of @s into @out, the reduction of its repetitions,
 * and the key of its boot into @boot (room for them).
 */
static void reduce_series(const struct bench_set *set,
			  const struct series *s, enum load_stat ls,
			  struct vec *out, size_t *boot)
{
	size_t i, n;

	for (i = 0; i < s->nr_loads; i++) {
		const double *reps = series_load(s, i, &n);

		vec_push(out, reduce_load(reps, n, ls));
		boot[i] = boot_key(set, s->load_of ? s->load_of[i] : 0, i);
	}
}

/*
 * The fewest decimals from @d on that show @mc's figures as they are:
 * a median or shift between two values has a half unit, and a median of
 * boots' medians a quarter one (2.25 from 2 and 2.5).
 */
static int shown_decimals(const struct metric_cmp *mc, int d)
{
	int extra;

	for (extra = 0; extra < 2; extra++) {
		if (!on_half_unit(mc->before, d) &&
		    !on_half_unit(mc->after, d) &&
		    !on_half_unit(mc->shift.est, d) &&
		    !(mc->shift.k && (on_half_unit(mc->shift.lo, d) ||
				      on_half_unit(mc->shift.hi, d))))
			break;
		d++;
	}
	return d;
}

/*
 * The per-load values of both sides as one list with their boots and
 * sides, and how they spread between boots and within one.
 */
static void metric_spread(struct vec load_v[NR_SIDES],
			  size_t *boot[NR_SIDES], struct metric_cmp *mc)
{
	size_t n = load_v[SIDE_BEFORE].n + load_v[SIDE_AFTER].n, i, j = 0;
	double *v = xcalloc(n ? n : 1, sizeof(*v));
	size_t *g = xcalloc(n ? n : 1, sizeof(*g));
	int *side = xcalloc(n ? n : 1, sizeof(*side)), s;

	for (s = 0; s < NR_SIDES; s++) {
		for (i = 0; i < load_v[s].n; i++, j++) {
			v[j] = load_v[s].v[i];
			g[j] = boot[s][i];
			side[j] = s;
		}
	}
	boot_spread(v, g, side, n, &mc->spread);
	free(v);
	free(g);
	free(side);
}

static void compare_metric(const struct bench_set *set,
			   const struct bench_test *t, enum metric m,
			   const struct comparison *cmp,
			   struct metric_cmp *mc)
{
	const struct vec *b = &mc->v[SIDE_BEFORE], *a = &mc->v[SIDE_AFTER];
	struct vec load_v[NR_SIDES] = { { NULL } };
	size_t *boot[NR_SIDES];
	int s;

	memset(mc, 0, sizeof(*mc));
	for (s = 0; s < NR_SIDES; s++) {
		const struct series *sr = &t->val[s][m];

		boot[s] = xcalloc(sr->nr_loads ? sr->nr_loads : 1,
				  sizeof(*boot[s]));
		reduce_series(set, sr, cmp->load_stat, &load_v[s], boot[s]);
		mc->loads[s] = load_v[s].n;
		if (!cmp->by_boot) {
			mc->v[s] = load_v[s];
			continue;
		}
		mc->v[s].v = xcalloc(load_v[s].n ? load_v[s].n : 1,
				     sizeof(double));
		mc->v[s].n = group_medians(load_v[s].v, boot[s], load_v[s].n,
					   mc->v[s].v);
		mc->v[s].cap = load_v[s].n;
	}
	mc->have = b->n && a->n;
	if (mc->have)
		metric_spread(load_v, boot, mc);
	for (s = 0; s < NR_SIDES; s++) {
		if (cmp->by_boot)
			free(load_v[s].v);
		free(boot[s]);
	}
	if (!mc->have)
		return;
	mc->before = median(b->v, b->n);
	mc->after = median(a->v, a->n);
	hl_shift(b->v, b->n, a->v, a->n, cmp->alpha, &mc->shift);
	mc->decimals = shown_decimals(mc, t->decimals[m] < 0 ? 0 :
					  t->decimals[m]);
}

/* The tests with the figure on both sides become the rows; their number. */
static size_t pick_rows(const struct bench_set *set, struct comparison *cmp)
{
	size_t i, m = 0;
	enum metric f = cmp->figure;

	cmp->rows = xcalloc(set->nr, sizeof(*cmp->rows));
	for (i = 0; i < set->nr; i++) {
		const struct bench_test *t = &set->tests[i];

		if (t->val[SIDE_BEFORE][f].nr_loads &&
		    t->val[SIDE_AFTER][f].nr_loads)
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
		r->ns_loads[s] = ns->loads[s];
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
 * there). Under instructions there are no ns: the instructions diff;
 * of a PMU figure (--figure), that figure's diff, which the verdict is
 * of.
 */
static void row_pct(struct row *r, enum clock clk, enum metric figure)
{
	const struct metric_cmp *mc;

	r->pct_of = clk == CLOCK_CYCLES && figure == MET_CYCLES ? MET_NS :
							       figure;
	mc = &r->m[r->pct_of];
	r->pct = NAN;
	if (mc->have && mc->before != 0)
		r->pct = mc->shift.est / mc->before * 100;
	if (!isfinite(r->pct))
		r->pct = NAN;
}

/*
 * The values of row @r and its raw p. A row is n/a when even complete
 * separation of its units could not give p < @level = alpha / m, the
 * threshold Holm applies to the smallest p of m rows; it then needs the
 * fewest units (boots, or loads) per side that could, and it still
 * counts in m.
 */
static void compare_row(const struct bench_set *set, struct row *r,
			double level, const struct comparison *cmp)
{
	const struct metric_cmp *fig = &r->m[cmp->figure];
	const struct vec *b, *a;
	int m, s;

	for (m = 0; m < NR_METRICS; m++)
		compare_metric(set, r->test, (enum metric)m, cmp, &r->m[m]);
	b = &fig->v[SIDE_BEFORE];
	a = &fig->v[SIDE_AFTER];
	for (s = 0; s < NR_SIDES; s++) {
		r->loads[s] = fig->loads[s];
		r->units[s] = fig->v[s].n;
	}
	r->p_raw = NAN;
	if (mwu_min_p(b->n, a->n) >= level) {
		r->verdict = VERDICT_NA;
		r->need = need_loads(level);
	} else {
		r->p_raw = mwu_p(b->v, b->n, a->v, a->n);
	}
}

/* "boot", "loads", ...: what the verdict counts, @n of them. */
const char *unit_name(const struct comparison *cmp, size_t n)
{
	if (cmp->by_boot)
		return n == 1 ? "boot" : "boots";
	return n == 1 ? "load" : "loads";
}

/* The unit of a figure's columns: the clock's for the cycle counter's. */
const char *figure_unit(enum metric figure, enum clock clock)
{
	return figure == MET_CYCLES ? clock_names[clock] : figure_units[figure];
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The loads with values of each side, their boots, those that say none,
 * and the boot of a side whose several loads all come from one; whether
 * boots are the unit and some boot has several loads (by_boot).
 */
static void count_boots(const struct bench_set *set, struct comparison *cmp)
{
	size_t *keys = xcalloc(set->nr_loads + 1, sizeof(*keys));
	size_t i, k, n;
	int s;

	for (s = 0; s < NR_SIDES; s++) {
		for (i = 0, n = 0; i < set->nr_loads; i++) {
			const struct load *l = &set->loads[i];

			if (l->side != (enum side)s || !l->values)
				continue;
			keys[n++] = boot_key(set, i + 1, 0);
			cmp->no_boot[s] += !l->boot;
		}
		qsort(keys, n, sizeof(*keys), cmp_size);
		for (i = 0, k = 0; i < n; i++)
			k += !i || keys[i] != keys[i - 1];
		cmp->loads[s] = n;
		cmp->boots[s] = k;
		if (k == 1 && n > 1)
			cmp->one_boot[s] = set->boots.str[keys[0] - 1];
		cmp->by_boot = cmp->by_boot ||
			       (cmp->unit == UNIT_BOOT && k < n);
	}
	free(keys);
}

/* Fills @cmp from @set: the cycle counter's figure, the unit auto. */
void compare_build(const struct bench_set *set, double alpha,
		   enum load_stat load_stat, struct comparison *cmp)
{
	compare_build_by(set, alpha, load_stat, MET_CYCLES, UNIT_AUTO, cmp);
}

/*
 * Fills @cmp from @set, the verdict of @figure and of one value per
 * @unit: auto is the boot where the clock counts cycles, the load where
 * it counts instructions, which the boot does not move (make ab counts
 * three loads a guest for that reason).
 */
void compare_build_by(const struct bench_set *set, double alpha,
		      enum load_stat load_stat, enum metric figure,
		      enum unit unit, struct comparison *cmp)
{
	double *p_raw, *p_adj;
	size_t i, m;

	memset(cmp, 0, sizeof(*cmp));
	cmp->alpha = alpha;
	cmp->load_stat = load_stat;
	cmp->clock = set->clock;
	cmp->figure = figure;
	cmp->unit = unit != UNIT_AUTO ? unit :
		    set->clock == CLOCK_INSTRUCTIONS ? UNIT_LOAD : UNIT_BOOT;
	count_boots(set, cmp);
	m = pick_rows(set, cmp);
	cmp->nr = m;
	profile_build(set, cmp);
	if (!m)
		return;
	p_raw = xcalloc(m, sizeof(*p_raw));
	p_adj = xcalloc(m, sizeof(*p_adj));
	for (i = 0; i < m; i++) {
		const struct spread *sp = &cmp->rows[i].m[figure].spread;

		compare_row(set, &cmp->rows[i], alpha / (double)m, cmp);
		row_ns_loads(&cmp->rows[i], cmp->clock);
		row_pct(&cmp->rows[i], cmp->clock, figure);
		p_raw[i] = cmp->rows[i].p_raw;
		cmp->split = cmp->split || !isnan(sp->sd_within) ||
			     !isnan(sp->sd_between);
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
