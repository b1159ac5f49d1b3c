// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: the loads of one side as a KCIDB document (-f kcidb):
 * KernelCI's results database, I/O schema v5.3 (kernelci/kcidb-io).
 *
 * One checkout (the kernel release, or the --commit measured), one
 * build (the kernel's config fingerprint: the config: line's words) and
 * one test per benchmark test, path "net.bench.page_pool.TEST", status
 * DONE, number {value, unit}: the median over the loads of each load's
 * value (--load-stat, its cheapest repetition by default), per element,
 * in instructions or cycles; SKIP and the reason when no load ran it.
 * Its misc says what counted them (icount, tcg, kvm, metal or other),
 * how many loads, each load's value and their spread.  Every id starts
 * with the origin (--origin); a test's ends in a digest of its values,
 * so that the same loads give the same ids and a second submission of
 * them replaces the first.
 *
 * Loads of several kernels, configs, clocks or accelerators are several
 * builds: refused, one document a build.
 *
 * Layer: an output, called by main.c; it calls env.c, stats.c, strtab.c
 * (its hash) and util.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

#define KCIDB_MAJOR		5
#define KCIDB_MINOR		3
#define KCIDB_PATH		"net.bench.page_pool."

/* The key of the digests: any fixed one, so that ids repeat. */
static const u64 kcidb_key[2] = { 0x6b63696462ULL, 0x62656e6368ULL };

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* The first load with values: the one every other must agree with. */
static const struct load *first_load(const struct bench_set *set)
{
	size_t i;

	for (i = 0; i < set->nr_loads; i++) {
		if (set->loads[i].values)
			return &set->loads[i];
	}
	return NULL;
}

/* "k=v\n" of each config.* pair of @l, sorted: its build's fingerprint */
static char *config_words(const struct bench_set *set, const struct load *l)
{
	const struct env_kv *kv;
	struct sbuf b = { NULL };
	char **words;
	size_t i, n, nr = 0;

	if (!l->env)
		return xstrdup("");
	kv = (const struct env_kv *)set->envs.str[l->env - 1];
	n = set->envs.len[l->env - 1] / sizeof(*kv);
	words = xcalloc(n ? n : 1, sizeof(*words));
	for (i = 0; i < n; i++) {
		const char *key = set->env_keys.str[kv[i].key];

		if (!strncmp(key, "config.", 7))
			words[nr++] = xasprintf("%s=%s\n", key + 7,
						set->env_vals.str[kv[i].val]);
	}
	qsort(words, nr, sizeof(*words), cmp_str);
	for (i = 0; i < nr; i++) {
		sbuf_add(&b, words[i], strlen(words[i]));
		free(words[i]);
	}
	free(words);
	return b.s ? sbuf_take(&b) : xstrdup("");
}

/* What a load of @clock and accelerator @accel was counted with. */
static const char *instrument(enum clock clock, const char *accel)
{
	if (clock == CLOCK_INSTRUCTIONS)
		return "icount";
	if (!accel)
		return "other";
	if (!strcmp(accel, "none"))
		return "metal";
	return !strcmp(accel, "tcg") || !strcmp(accel, "kvm") ? accel :
								"other";
}

/* Why the loads are not one build, or NULL. */
static char *not_one_build(const struct bench_set *set, const char *config)
{
	const struct load *first = first_load(set);
	static const char * const keys[] = { "kernel", "accel" };
	size_t i, k;

	for (i = 0; i < set->nr_loads; i++) {
		const struct load *l = &set->loads[i];
		char *words;
		bool same;

		if (!l->values)
			continue;
		for (k = 0; k < ARRAY_SIZE(keys); k++) {
			const char *a = env_value(set, first, keys[k]);
			const char *b = env_value(set, l, keys[k]);

			if ((a || b) && (!a || !b || strcmp(a, b)))
				return xasprintf("%s:%lu and %s:%lu differ in %s",
						 first->file, first->line,
						 l->file, l->line, keys[k]);
		}
		words = config_words(set, l);
		same = !strcmp(words, config);
		free(words);
		if (!same)
			return xasprintf("%s:%lu and %s:%lu differ in config",
					 first->file, first->line, l->file,
					 l->line);
	}
	return NULL;
}

/* The per-load values of @t, *@n of them, in order */
static double *load_values(const struct bench_test *t, enum load_stat ls,
			   size_t *n)
{
	const struct series *s = &t->val[SIDE_BEFORE][MET_CYCLES];
	double *v = xcalloc(s->nr_loads ? s->nr_loads : 1, sizeof(*v));
	size_t i, reps;

	for (i = 0; i < s->nr_loads; i++) {
		const double *r = series_load(s, i, &reps);

		v[i] = reduce_load(r, reps, ls);
	}
	*n = s->nr_loads;
	return v;
}

static void put_values(const double *v, size_t n, int decimals)
{
	size_t i;

	putchar('[');
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", stdout);
		json_num(v[i], decimals);
	}
	putchar(']');
}

/* One test object of build @build_id, counted with @ins; @nth from 0 */
static void put_test(const struct bench_set *set, const struct bench_test *t,
		     const struct kcidb_opts *o, const char *build_id,
		     const char *ins, size_t nth)
{
	int dec = t->decimals[MET_CYCLES] < 0 ? 0 : t->decimals[MET_CYCLES];
	struct sbuf b = { NULL };
	double *v, *sorted;
	size_t n, i;
	char *text;

	v = load_values(t, o->load_stat, &n);
	sorted = xcalloc(n, sizeof(*sorted));
	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	for (i = 0; i < n; i++) {
		text = fmt_fixed(v[i], dec, false);
		sbuf_addf(&b, "%s;", text);
		free(text);
	}
	printf("%s\n    {\"id\": ", nth ? "," : "");
	text = xasprintf("%s:%s:%016llx", build_id, t->name,
			 (unsigned long long)siphash24(kcidb_key, b.s,
						       b.len));
	json_str(text);
	free(text);
	free(b.s);
	printf(", \"origin\": ");
	json_str(o->origin);
	printf(", \"build_id\": ");
	json_str(build_id);
	printf(", \"path\": \"" KCIDB_PATH "%s\", \"status\": \"DONE\"",
	       t->name);
	printf(",\n     \"number\": {\"value\": ");
	json_num(median(v, n), dec + on_half_unit(median(v, n), dec));
	printf(", \"unit\": \"%s\"}", clock_names[set->clock]);
	printf(",\n     \"misc\": {\"instrument\": \"%s\", \"load_stat\": \"%s\"",
	       ins, o->load_stat == LOAD_MIN ? "min" : "median");
	printf(", \"loads\": %zu, \"min\": ", n);
	json_num(sorted[0], dec);
	printf(", \"max\": ");
	json_num(sorted[n - 1], dec);
	printf(", \"per_load\": ");
	put_values(v, n, dec);
	printf("}}");
	free(sorted);
	free(v);
}

/*
 * A test no load gave a value for, skipped: status SKIP, the first
 * reason a load gave in its comment.  Its id ends in a digest of it.
 */
static void put_skip(const struct bench_set *set, size_t i,
		     const struct kcidb_opts *o, const char *build_id,
		     size_t nth)
{
	const char *name = set->skipped.str[i], *why = set->skip_reasons[i];
	char *id;

	id = xasprintf("%s:%s:%016llx", build_id, name,
		       (unsigned long long)siphash24(kcidb_key, why,
						     strlen(why)));
	printf("%s\n    {\"id\": ", nth ? "," : "");
	json_str(id);
	free(id);
	printf(", \"origin\": ");
	json_str(o->origin);
	printf(", \"build_id\": ");
	json_str(build_id);
	printf(", \"path\": \"" KCIDB_PATH "%s\", \"status\": \"SKIP\"", name);
	printf(",\n     \"comment\": ");
	json_str(why);
	printf("}");
}

/* Whether some load gave a value for test @name. */
static bool measured(const struct bench_set *set, const char *name)
{
	size_t id;

	return strtab_find(&set->names, name, strlen(name), &id) &&
	       set->tests[id].val[SIDE_BEFORE][MET_CYCLES].nr_loads;
}

/*
 * The checkout: --commit and its name where given, else the kernel
 * release it was built from; its id, into *@id.
 */
static void put_checkout(const struct kcidb_opts *o, const char *kernel,
			 char **id)
{
	*id = o->commit ? xasprintf("%s:%s", o->origin, o->commit) :
			  xasprintf("%s:%s", o->origin, kernel ?: "unknown");
	printf("  \"checkouts\": [\n    {\"id\": ");
	json_str(*id);
	printf(", \"origin\": ");
	json_str(o->origin);
	if (o->commit) {
		printf(", \"git_commit_hash\": ");
		json_str(o->commit);
	}
	if (o->commit_name) {
		printf(", \"git_commit_name\": ");
		json_str(o->commit_name);
	}
	printf(", \"misc\": {\"kernel\": ");
	json_str(kernel ?: "unknown");
	printf("}}\n  ],\n");
}

/* The build: its config, fingerprinted; its id into *@id. */
static void put_build(const struct kcidb_opts *o, const char *checkout_id,
		      const char *config, char **id)
{
	u64 fp = siphash24(kcidb_key, config, strlen(config));
	const char *w = config;

	*id = xasprintf("%s:config-%016llx", checkout_id,
			(unsigned long long)fp);
	printf("  \"builds\": [\n    {\"id\": ");
	json_str(*id);
	printf(", \"origin\": ");
	json_str(o->origin);
	printf(", \"checkout_id\": ");
	json_str(checkout_id);
	printf(", \"config_name\": \"config-%016llx\", \"misc\": {\"config\": {",
	       (unsigned long long)fp);
	while (*w) {
		const char *eq = strchr(w, '='), *nl = strchr(w, '\n');
		char *key = xasprintf("%.*s", (int)(eq - w), w);
		char *val = xasprintf("%.*s", (int)(nl - eq - 1), eq + 1);

		printf("%s", w == config ? "" : ", ");
		json_str(key);
		printf(": ");
		json_str(val);
		free(key);
		free(val);
		w = nl + 1;
	}
	printf("}}}\n  ],\n");
}

/*
 * The document on standard output; 0, or 2 after saying in one line why
 * the loads are no one build.
 */
int print_kcidb(const struct bench_set *set, const struct kcidb_opts *o)
{
	const struct load *first = first_load(set);
	char *config, *why, *checkout_id, *build_id;
	const char *kernel, *ins;
	size_t i, nth = 0;

	if (!first) {
		complain("-f kcidb: no load with a value");
		return 2;
	}
	config = config_words(set, first);
	why = not_one_build(set, config);
	if (why) {
		complain("-f kcidb: the loads are not of one build: %s", why);
		free(why);
		free(config);
		return 2;
	}
	kernel = env_value(set, first, "kernel");
	ins = instrument(set->clock, env_value(set, first, "accel"));
	printf("{\n  \"version\": {\"major\": %d, \"minor\": %d},\n",
	       KCIDB_MAJOR, KCIDB_MINOR);
	put_checkout(o, kernel, &checkout_id);
	put_build(o, checkout_id, config, &build_id);
	printf("  \"tests\": [");
	for (i = 0; i < set->nr; i++) {
		if (set->tests[i].val[SIDE_BEFORE][MET_CYCLES].nr_loads)
			put_test(set, &set->tests[i], o, build_id, ins, nth++);
	}
	for (i = 0; i < set->skipped.nr; i++) {
		if (!measured(set, set->skipped.str[i]))
			put_skip(set, i, o, build_id, nth++);
	}
	printf("%s]\n}\n", nth ? "\n  " : "");
	free(checkout_id);
	free(build_id);
	free(config);
	return 0;
}
