// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: the exact profiles of a row (results files of format 4).
 *
 * The exact profile (QEMU -icount, tools/profile) gives, per element of
 * a test, the instructions, loads, stores and atomics executed in its
 * timed windows and the misses of modelled caches, in all and per
 * function. These are counts, not times: the same code counts the same
 * on every boot, so each side's median over its profiled loads is its
 * value, and after - before is what the change did; there is no noise
 * to test against, only a threshold.
 *
 * A function moved when any of its counts moved by half an event per
 * element or more. A change of code moves instructions, loads, stores
 * and atomics by whole events per element (an instruction more on the
 * path is +1.000), while interrupt work that lands inside a measured
 * window adds about 0.02 per element: half an event lies far from
 * both.
 *
 * Layer: below compare.c (and table.c, for its labels); it calls
 * stats.c and util.c.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

const char * const prof_labels[NR_PROF_COUNTS] = {
	[PROF_INSNS] = "instructions",
	[PROF_LOADS] = "loads",
	[PROF_STORES] = "stores",
	[PROF_ATOMICS] = "atomics",
	[PROF_L1I_MISS] = "L1I misses",
	[PROF_L1D_MISS] = "L1D misses",
	[PROF_LLC_MISS] = "LLC misses",
};

/* Whether counts that moved by @diff (thousandths) are a moved function. */
bool prof_has_moved(const double diff[NR_PROF_COUNTS])
{
	int c;

	for (c = 0; c < NR_PROF_COUNTS; c++) {
		if (fabs(diff[c]) >= PROF_MOVED_MILLI)
			return true;
	}
	return false;
}

/* One function's counts in one load of a side. */
struct fn_entry {
	size_t fn;
	const double *count;
};

/* The functions' counts of a side's loads, by function, walked once. */
struct side_walk {
	struct fn_entry *e;
	size_t nr;
	size_t at;		/* the first of the next function */
	size_t loads;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct fn_entry *p = a, *q = b;

	return p->fn < q->fn ? -1 : p->fn > q->fn;
}

/* Every function's counts of the profiled loads @ps, by function. */
static void gather(const struct prof_side *ps, struct side_walk *w)
{
	size_t n = 0, i, j;

	for (i = 0; i < ps->nr; i++)
		n += ps->loads[i].nr_fns;
	w->e = xcalloc(n, sizeof(*w->e));
	for (n = 0, i = 0; i < ps->nr; i++) {
		const struct prof_load *pl = &ps->loads[i];

		for (j = 0; j < pl->nr_fns; j++) {
			w->e[n].fn = pl->fns[j].fn;
			w->e[n++].count = pl->fns[j].count;
		}
	}
	if (n > 1)
		qsort(w->e, n, sizeof(*w->e), cmp_entry);
	w->nr = n;
	w->at = 0;
	w->loads = ps->nr;
}

/* The @i-th of @zeros zeros followed by the sorted values @v. */
static double nth(const double *v, size_t zeros, size_t i)
{
	return i < zeros ? 0 : v[i - zeros];
}

/*
 * The median over @loads loads of a count that @k of them gave, @v, the
 * others counting 0: counts are never negative, so the zeros come first
 * in order. Sorts @v. As median() for the even case.
 */
static double median_of_present(double *v, size_t k, size_t loads)
{
	size_t n = k > loads ? k : loads, zeros = n - k;

	if (k > 1)
		qsort(v, k, sizeof(*v), cmp_double);
	if (n % 2)
		return nth(v, zeros, n / 2);
	return nth(v, zeros, n / 2 - 1) / 2 + nth(v, zeros, n / 2) / 2;
}

/*
 * The medians over the side's loads of function @fn's counts into @out,
 * the next function of @w's if it is @fn (0 otherwise), which it then
 * passes. @v is room for a value per load.
 */
static void fn_medians(struct side_walk *w, size_t fn, double *v,
		       double *out)
{
	size_t k = 0, i;
	int c;

	while (w->at + k < w->nr && w->e[w->at + k].fn == fn)
		k++;
	for (c = 0; c < NR_PROF_COUNTS; c++) {
		for (i = 0; i < k; i++)
			v[i] = w->e[w->at + i].count[c];
		out[c] = median_of_present(v, k, w->loads);
	}
	w->at += k;
}

/* The medians of the test's own counts over the loads @ps into @out. */
static void total_medians(const struct prof_side *ps, double *v,
			  double *out)
{
	size_t i;
	int c;

	for (c = 0; c < NR_PROF_COUNTS; c++) {
		for (i = 0; i < ps->nr; i++)
			v[i] = ps->loads[i].total[c];
		out[c] = median(v, ps->nr);
	}
}

static void diff_of(struct prof_counts *pc)
{
	int c;

	for (c = 0; c < NR_PROF_COUNTS; c++)
		pc->diff[c] = pc->after[c] - pc->before[c];
}

/* By |instructions diff|, largest first, then by name. */
static int cmp_moved(const void *a, const void *b)
{
	const struct prof_moved *p = a, *q = b;
	double x = fabs(p->c.diff[PROF_INSNS]), y = fabs(q->c.diff[PROF_INSNS]);

	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(p->fn, q->fn);
}

/* Whether @pc holds a half thousandth: shown with one more decimal. */
static bool half_unit(const struct prof_counts *pc)
{
	int c;

	for (c = 0; c < NR_PROF_COUNTS; c++) {
		if (pc->before[c] != floor(pc->before[c]) ||
		    pc->after[c] != floor(pc->after[c]) ||
		    pc->diff[c] != floor(pc->diff[c]))
			return true;
	}
	return false;
}

/*
 * Test @t's profiles compared, or NULL if a side has none: every
 * function of either side, walking both sides' functions in order.
 */
static struct prof_cmp *compare_profiles(const struct bench_set *set,
					 const struct bench_test *t)
{
	const struct prof_side *b = &t->prof[SIDE_BEFORE];
	const struct prof_side *a = &t->prof[SIDE_AFTER];
	struct side_walk w[NR_SIDES];
	struct prof_cmp *pc;
	struct prof_moved m;
	size_t cap = 0;
	bool half;
	double *v;

	if (!b->nr || !a->nr)
		return NULL;
	pc = xcalloc(1, sizeof(*pc));
	pc->loads[SIDE_BEFORE] = b->nr;
	pc->loads[SIDE_AFTER] = a->nr;
	gather(b, &w[SIDE_BEFORE]);
	gather(a, &w[SIDE_AFTER]);
	/* room for the values of any one median */
	v = xcalloc(b->nr + a->nr + w[0].nr + w[1].nr, sizeof(*v));
	total_medians(b, v, pc->total.before);
	total_medians(a, v, pc->total.after);
	diff_of(&pc->total);
	half = half_unit(&pc->total);
	while (w[0].at < w[0].nr || w[1].at < w[1].nr) {
		size_t fn = w[0].at < w[0].nr ? w[0].e[w[0].at].fn : SIZE_MAX;

		if (w[1].at < w[1].nr && w[1].e[w[1].at].fn < fn)
			fn = w[1].e[w[1].at].fn;
		fn_medians(&w[SIDE_BEFORE], fn, v, m.c.before);
		fn_medians(&w[SIDE_AFTER], fn, v, m.c.after);
		diff_of(&m.c);
		pc->nr_fns++;
		if (!prof_has_moved(m.c.diff))
			continue;
		m.fn = set->fns.str[fn];
		half = half || half_unit(&m.c);
		if (pc->nr_moved == cap) {
			cap = cap ? 2 * cap : 8;
			pc->moved = xrealloc(pc->moved,
					     cap * sizeof(*pc->moved));
		}
		pc->moved[pc->nr_moved++] = m;
	}
	if (pc->nr_moved > 1)
		qsort(pc->moved, pc->nr_moved, sizeof(*pc->moved), cmp_moved);
	pc->decimals = PROF_DECIMALS + half;
	free(w[SIDE_BEFORE].e);
	free(w[SIDE_AFTER].e);
	free(v);
	return pc;
}

/* The profiled loads per side; whether they modelled the same caches. */
static void profiled_loads(const struct bench_set *set,
			   struct comparison *cmp)
{
	const struct load *first = NULL;
	size_t i;

	for (i = 0; i < set->nr_loads; i++) {
		const struct load *l = &set->loads[i];

		if (!l->profiles)
			continue;
		cmp->prof_loads[l->side]++;
		if (!first) {
			first = l;
		} else if (l->caches != first->caches && !cmp->caches_differ[0]) {
			cmp->caches_differ[0] = first;
			cmp->caches_differ[1] = l;
		}
	}
	if (first && first->caches && !cmp->caches_differ[0])
		cmp->caches = set->caches.str[first->caches - 1];
}

/* Compares the profiles of every row of @cmp that has them on both sides. */
void profile_build(const struct bench_set *set, struct comparison *cmp)
{
	size_t i;

	profiled_loads(set, cmp);
	for (i = 0; i < cmp->nr; i++) {
		struct row *r = &cmp->rows[i];

		r->prof = compare_profiles(set, r->test);
		cmp->prof_rows += !!r->prof;
		cmp->prof_moved_rows += r->prof && r->prof->nr_moved;
	}
}

void profile_free(struct comparison *cmp)
{
	size_t i;

	for (i = 0; i < cmp->nr; i++) {
		if (!cmp->rows[i].prof)
			continue;
		free(cmp->rows[i].prof->moved);
		free(cmp->rows[i].prof);
	}
}
