// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: what differs between the environments of the two sides.
 *
 * Each load of a results file carries a fingerprint: kernel, cpu_model,
 * cmdline and every key=value of its params:, config: and runtime:
 * lines (params.loops, config.kasan, runtime.init_on_alloc, ...). A key
 * is reported when not every load of both sides has one and the same
 * value, since numbers from different environments are not comparable.
 */
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

struct tally {
	const char *val;	/* NULL: unknown */
	size_t count;
	size_t first;		/* order of first sight, for ties */
};

static const char *load_value(const struct load *l, const char *key)
{
	size_t i;

	for (i = 0; i < l->nr_env; i++) {
		if (!strcmp(l->env[i].key, key))
			return l->env[i].val;
	}
	return NULL;
}

static bool same_val(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* more loads first, then in the order first seen */
static int cmp_tally(const void *x, const void *y)
{
	const struct tally *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* The values of @key over the loads of side @s, with their counts. */
static size_t tally_side(const struct bench_set *set, enum side s,
			 const char *key, struct tally *t)
{
	size_t i, j, nr = 0;

	for (i = 0; i < set->nr_loads; i++) {
		const struct load *l = &set->loads[i];
		const char *v;

		if (l->side != s || !l->values)
			continue;
		v = l->has_env ? load_value(l, key) : NULL;
		for (j = 0; j < nr && !same_val(t[j].val, v); j++)
			;
		if (j == nr) {
			t[nr].val = v;
			t[nr].count = 0;
			t[nr].first = nr;
			nr++;
		}
		t[j].count++;
	}
	qsort(t, nr, sizeof(*t), cmp_tally);
	return nr;
}

static char *describe(const struct tally *t, size_t nr)
{
	char *s = xstrdup(""), *o;
	size_t i;

	for (i = 0; i < nr; i++) {
		const char *v = !t[i].val ? "unknown" :
				*t[i].val ? t[i].val : "(empty)";

		o = s;
		if (nr == 1)
			s = xasprintf("%s", v);
		else
			s = xasprintf("%s%s%s (%zu load%s)", o, i ? ", " : "",
				      v, t[i].count, t[i].count == 1 ? "" : "s");
		free(o);
	}
	return s;
}

/*
 * The lines "environment differs: KEY: before X, after Y" for every key
 * that is not the same in all loads of both sides, in the order the keys
 * were first seen; *@nr of them.
 */
char **env_differences(const struct bench_set *set, size_t *nr)
{
	const char **keys = xcalloc(1, sizeof(*keys));
	struct tally *t[NR_SIDES];
	size_t nr_keys = 0, cap_keys = 1, i, j, k, n[NR_SIDES];
	char **lines = NULL;
	int s;

	*nr = 0;
	for (i = 0; i < set->nr_loads; i++) {
		const struct load *l = &set->loads[i];

		for (j = 0; l->values && j < l->nr_env; j++) {
			for (k = 0; k < nr_keys &&
			     strcmp(keys[k], l->env[j].key); k++)
				;
			if (k < nr_keys)
				continue;
			if (nr_keys == cap_keys) {
				cap_keys *= 2;
				keys = xrealloc(keys, cap_keys * sizeof(*keys));
			}
			keys[nr_keys++] = l->env[j].key;
		}
	}
	for (s = 0; s < NR_SIDES; s++)
		t[s] = xcalloc(set->nr_loads, sizeof(*t[s]));
	lines = xcalloc(nr_keys, sizeof(*lines));
	for (k = 0; k < nr_keys; k++) {
		char *d[NR_SIDES];

		for (s = 0; s < NR_SIDES; s++)
			n[s] = tally_side(set, (enum side)s, keys[k], t[s]);
		if (n[0] == 1 && n[1] == 1 && t[0][0].val &&
		    same_val(t[0][0].val, t[1][0].val))
			continue;
		for (s = 0; s < NR_SIDES; s++)
			d[s] = describe(t[s], n[s]);
		lines[(*nr)++] = xasprintf("environment differs: %s: before %s, after %s",
					   keys[k], d[0], d[1]);
		free(d[0]);
		free(d[1]);
	}
	for (s = 0; s < NR_SIDES; s++)
		free(t[s]);
	free(keys);
	return lines;
}

void free_lines(char **lines, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(lines[i]);
	free(lines);
}
