// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: what differs between the environments of the two sides.
 *
 * Each load of a results file carries a fingerprint: kernel, cpu_model,
 * cmdline and every key=value of its params:, config: and runtime:
 * lines (params.loops, config.kasan, runtime.init_on_alloc, ...). A key
 * is reported when not every load of both sides has one and the same
 * value, since numbers from different environments are not comparable.
 *
 * Loads mostly share their environment: each distinct one is kept once
 * (a sorted array of key and value numbers in the set's string tables)
 * and a load refers to it. The differences come from sorting the
 * key=value pairs of the distinct environments, weighted by their
 * loads: O(n log n) in the pairs, whatever the number of loads or keys.
 *
 * Layer: below the parsers (which add to it) and the outputs (which
 * read its differences); it calls strtab.c and util.c.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

/* Adds "KEY=the @len bytes at @val" to the environment being read. */
void env_add(struct bench_set *set, struct env_scratch *sc,
	     const char *key, const char *val, size_t len)
{
	struct env_item *it;

	if (sc->nr == sc->cap) {
		sc->cap = sc->cap ? sc->cap * 2 : 32;
		sc->item = xrealloc(sc->item, sc->cap * sizeof(*sc->item));
	}
	it = &sc->item[sc->nr];
	it->key = strtab_id(&set->env_keys, key, strlen(key), NULL);
	it->val = strtab_id(&set->env_vals, val, len, NULL);
	it->pos = sc->nr++;
}

/* by key, then by position: the last of a key is the one that holds */
static int cmp_item(const void *x, const void *y)
{
	const struct env_item *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/*
 * Ends the environment being read: it becomes load @load's (1 + index;
 * 0 for none), kept once however many loads share it.
 */
void env_close(struct bench_set *set, struct env_scratch *sc, size_t load)
{
	struct env_kv *kv = xcalloc(sc->nr, sizeof(*kv));
	size_t i, n = 0;

	if (sc->nr)
		qsort(sc->item, sc->nr, sizeof(*sc->item), cmp_item);
	for (i = 0; i < sc->nr; i++) {
		if (i + 1 < sc->nr && sc->item[i + 1].key == sc->item[i].key)
			continue;
		kv[n].key = sc->item[i].key;
		kv[n++].val = sc->item[i].val;
	}
	if (load)
		set->loads[load - 1].env = 1 + strtab_id(&set->envs, kv,
							 n * sizeof(*kv), NULL);
	free(kv);
	sc->nr = 0;
}

/* A key=value of a distinct environment and that environment. */
struct pair {
	size_t key, val, env;
};

static int cmp_pair(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->val < b->val ? -1 : a->val > b->val;
}

/* The loads of each side behind each environment, and in all. */
struct env_weights {
	size_t (*loads)[NR_SIDES];	/* by environment */
	size_t total[NR_SIDES];
};

static void weigh(const struct bench_set *set, struct env_weights *w)
{
	size_t i;

	w->loads = xcalloc(set->envs.nr, sizeof(*w->loads));
	memset(w->total, 0, sizeof(w->total));
	for (i = 0; i < set->nr_loads; i++) {
		const struct load *l = &set->loads[i];

		if (!l->values)
			continue;
		w->total[l->side]++;
		if (l->env)
			w->loads[l->env - 1][l->side]++;
	}
}

/* The pairs of every environment that a load with values has. */
static struct pair *all_pairs(const struct bench_set *set,
			      const struct env_weights *w, size_t *nr)
{
	struct pair *p = NULL;
	size_t e, i, n = 0, cap = 0;

	for (e = 0; e < set->envs.nr; e++) {
		const struct env_kv *kv = (const void *)set->envs.str[e];
		size_t nkv = set->envs.len[e] / sizeof(*kv);

		if (!w->loads[e][SIDE_BEFORE] && !w->loads[e][SIDE_AFTER])
			continue;
		for (i = 0; i < nkv; i++) {
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				p = xrealloc(p, cap * sizeof(*p));
			}
			p[n].key = kv[i].key;
			p[n].val = kv[i].val;
			p[n++].env = e;
		}
	}
	if (n)
		qsort(p, n, sizeof(*p), cmp_pair);
	*nr = n;
	return p;
}

/* more loads first, then values in the order first seen, unknown last */
static int cmp_count(const void *x, const void *y)
{
	const struct env_count *a = x, *b = y;

	if (a->loads != b->loads)
		return a->loads > b->loads ? -1 : 1;
	return a->seen < b->seen ? -1 : a->seen > b->seen;
}

/*
 * The values of one key on side @s, from its @n pairs sorted by value:
 * *@nr counts, the loads without the key counted as unknown (NULL).
 */
static struct env_count *side_counts(const struct bench_set *set,
				     const struct pair *p, size_t n,
				     const struct env_weights *w, int s,
				     size_t *nr)
{
	struct env_count *c = xcalloc(n + 1, sizeof(*c));
	size_t i, k = 0, known = 0;

	for (i = 0; i < n; i++) {
		size_t loads = w->loads[p[i].env][s];

		if (!loads)
			continue;
		if (!k || c[k - 1].seen != p[i].val) {
			c[k].val = set->env_vals.str[p[i].val];
			c[k++].seen = p[i].val;
		}
		c[k - 1].loads += loads;
		known += loads;
	}
	if (known < w->total[s]) {
		c[k].val = NULL;
		c[k].seen = SIZE_MAX;
		c[k++].loads = w->total[s] - known;
	}
	qsort(c, k, sizeof(*c), cmp_count);
	*nr = k;
	return c;
}

/* Whether every load of both sides has one and the same value. */
static bool all_same(const struct env_diff *d)
{
	const char *v = NULL;
	int s;

	for (s = 0; s < NR_SIDES; s++) {
		if (!d->nr[s])
			continue;
		if (d->nr[s] > 1 || !d->side[s]->val ||
		    (v && v != d->side[s]->val))
			return false;
		v = d->side[s]->val;
	}
	return true;
}

/* Fills @d for the @n pairs of one key; false if every load agrees. */
static bool key_differs(const struct bench_set *set, const struct pair *p,
			size_t n, const struct env_weights *w,
			struct env_diff *d)
{
	int s;

	for (s = 0; s < NR_SIDES; s++)
		d->side[s] = side_counts(set, p, n, w, s, &d->nr[s]);
	d->key = set->env_keys.str[p->key];
	if (!all_same(d))
		return true;
	free(d->side[0]);
	free(d->side[1]);
	return false;
}

/*
 * Every key that is not the same in all loads (with values) of both
 * sides, in the order the keys were first seen; *@nr of them.
 */
struct env_diff *env_differences(const struct bench_set *set, size_t *nr)
{
	struct env_weights w;
	struct env_diff *d;
	struct pair *p;
	size_t n, i, j;

	weigh(set, &w);
	p = all_pairs(set, &w, &n);
	d = xcalloc(n + 1, sizeof(*d));
	*nr = 0;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && p[j].key == p[i].key; j++)
			;
		if (key_differs(set, p + i, j - i, &w, &d[*nr]))
			(*nr)++;
	}
	free(p);
	free(w.loads);
	return d;
}

void env_diffs_free(struct env_diff *d, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(d[i].side[0]);
		free(d[i].side[1]);
	}
	free(d);
}

/*
 * The value of @key in load @l's environment, NULL when it has none: a
 * key=value pair its results block gave (kernel, accel,
 * config.kasan, ...).
 */
const char *env_value(const struct bench_set *set, const struct load *l,
		      const char *key)
{
	const struct env_kv *kv;
	size_t id, i, n;

	if (!l->env || !strtab_find(&set->env_keys, key, strlen(key), &id))
		return NULL;
	kv = (const struct env_kv *)set->envs.str[l->env - 1];
	n = set->envs.len[l->env - 1] / sizeof(*kv);
	for (i = 0; i < n; i++) {
		if (kv[i].key == id)
			return set->env_vals.str[kv[i].val];
	}
	return NULL;
}
