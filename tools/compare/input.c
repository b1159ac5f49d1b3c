// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: reading results files and dmesg logs.
 *
 * Every input is split into loads, a load being one load of the module:
 * in a results file each "format:" line starts one; in a dmesg log the
 * line "bench_page_pool_simple: overhead:" does (printed once per load
 * before any test), and so does a test name already seen in the current
 * load, for the versions that do not print it. Loads never span files.
 * Each load gives one value per test and metric: the reduction
 * (--load-stat) of its repetitions, or the one value it has.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "bench_compare.h"

/* One input file being read. */
struct parse_ctx {
	struct bench_set *set;
	enum side side;
	const char *file;
	unsigned long lineno;
	int format;		/* 0 until a "format:" line, -1 if bad */
	unsigned int errors;
	size_t samples;
	size_t res_load;	/* 1 + index of the open results load, or 0 */
	size_t dmesg_load;	/* 1 + index of the open dmesg load, or 0 */
};

static void parse_error(struct parse_ctx *ctx, const char *fmt, ...) __printf(2, 3);

static void parse_error(struct parse_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	ctx->errors++;
	if (ctx->errors > MAX_ERRORS)
		return;
	fprintf(stderr, PROG ": %s:%lu: ", ctx->file, ctx->lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Opens a new load of this file's side; returns 1 + its index. */
static size_t new_load(struct parse_ctx *ctx, bool has_env)
{
	struct bench_set *set = ctx->set;
	struct load *l;

	if (set->nr_loads == set->cap_loads) {
		set->cap_loads = set->cap_loads ? set->cap_loads * 2 : 16;
		set->loads = xrealloc(set->loads,
				      set->cap_loads * sizeof(*set->loads));
	}
	l = &set->loads[set->nr_loads++];
	memset(l, 0, sizeof(*l));
	l->side = ctx->side;
	l->has_env = has_env;
	return set->nr_loads;
}

static struct bench_test *find_test(struct bench_set *set, const char *name)
{
	struct bench_test *t;
	size_t i;
	int m;

	for (i = 0; i < set->nr; i++) {
		if (!strcmp(set->tests[i].name, name))
			return &set->tests[i];
	}
	if (set->nr == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 16;
		set->tests = xrealloc(set->tests,
				      set->cap * sizeof(*set->tests));
	}
	t = &set->tests[set->nr++];
	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	for (m = 0; m < NR_METRICS; m++)
		t->decimals[m] = -1;
	return t;
}

/* Adds the current load's value @x (@decimals) of metric @m to @t. */
static void add_value(struct parse_ctx *ctx, struct bench_test *t,
		      enum metric m, double x, int decimals)
{
	vec_push(&t->val[ctx->side][m], x);
	if (decimals > t->decimals[m])
		t->decimals[m] = decimals;
}

/* ------------------------------------------------------------------ */
/* Results files */

/*
 * "format: bench_page_pool_simple N" starts a load. After a bad one,
 * ctx->format is -1: its "test:" lines are skipped, the error having
 * been reported.
 */
static void parse_format(struct parse_ctx *ctx, const char *s)
{
	static const char name[] = "bench_page_pool_simple";
	unsigned long long v;
	const char *num;
	size_t len;

	ctx->format = -1;
	ctx->res_load = 0;
	s += strspn(s, " \t");
	len = strcspn(s, " \t");
	num = s + len + strspn(s + len, " \t");
	len = strcspn(num, " \t");
	if (strncmp(s, name, strlen(name)) || !strchr(" \t", s[strlen(name)]) ||
	    !len || num[len + strspn(num + len, " \t")]) {
		parse_error(ctx, "bad format line: expected \"format: %s N\"",
			    name);
		return;
	}
	s = num;
	if (scan_ull(&s, &v) <= 0 || s != num + len || v < 1 || v > 2) {
		parse_error(ctx,
			    "unsupported results format version %.*s (supported: 1, 2)",
			    (int)len, num);
		return;
	}
	ctx->format = (int)v;
	ctx->res_load = new_load(ctx, true);
}

/* Sets fingerprint key @key of load @l to the @len characters at @val. */
static void env_set(struct load *l, const char *key, const char *val,
		    size_t len)
{
	struct env_kv *kv = NULL;
	size_t i;

	for (i = 0; i < l->nr_env; i++) {
		if (!strcmp(l->env[i].key, key)) {
			kv = &l->env[i];
			free(kv->val);
			break;
		}
	}
	if (!kv) {
		if (l->nr_env == l->cap_env) {
			l->cap_env = l->cap_env ? l->cap_env * 2 : 16;
			l->env = xrealloc(l->env,
					  l->cap_env * sizeof(*l->env));
		}
		kv = &l->env[l->nr_env++];
		kv->key = xstrdup(key);
	}
	kv->val = xasprintf("%.*s", (int)len, val);
}

/* "kernel: REL": the rest of the line, trimmed, is one value. */
static void parse_env_text(struct load *l, const char *key, const char *s)
{
	size_t len;

	s += strspn(s, " \t");
	len = strlen(s);
	while (len && strchr(" \t", s[len - 1]))
		len--;
	env_set(l, key, s, len);
}

/* "config: k=v k=v": each k=v is key PREFIX.k; other words are ignored. */
static void parse_env_words(struct load *l, const char *prefix,
			    const char *s)
{
	for (;;) {
		size_t len, klen;
		const char *eq;
		char *key;

		s += strspn(s, " \t");
		len = strcspn(s, " \t");
		if (!len)
			return;
		eq = memchr(s, '=', len);
		if (eq && eq != s) {
			klen = (size_t)(eq - s);
			key = xasprintf("%s.%.*s", prefix, (int)klen, s);
			env_set(l, key, eq + 1, len - klen - 1);
			free(key);
		}
		s += len;
	}
}

/* The fingerprint lines of a results file; false if @line is none. */
static bool parse_header(struct parse_ctx *ctx, const char *line)
{
	static const char * const text[] = { "kernel", "cpu_model", "cmdline" };
	static const char * const words[] = { "params", "config", "runtime" };
	struct load *l;
	size_t i, len;

	if (ctx->format <= 0 || !ctx->res_load)
		return false;
	l = &ctx->set->loads[ctx->res_load - 1];
	for (i = 0; i < 3; i++) {
		len = strlen(text[i]);
		if (!strncmp(line, text[i], len) && line[len] == ':') {
			parse_env_text(l, text[i], line + len + 1);
			return true;
		}
		len = strlen(words[i]);
		if (!strncmp(line, words[i], len) && line[len] == ':') {
			parse_env_words(l, words[i], line + len + 1);
			return true;
		}
	}
	return false;
}

enum test_field {
	F_NAME,
	F_CYCLES,
	F_NS,
	F_INVOKE_COUNT,
	F_CYCLES_PER_ELEM,
	F_NS_PER_ELEM,
	F_REPS,
	F_CYCLES_SAMPLES,
	F_NS_SAMPLES,
	NR_FIELDS,
};

static const char * const field_names[NR_FIELDS] = {
	[F_NAME] = "name",
	[F_CYCLES] = "cycles",
	[F_NS] = "ns",
	[F_INVOKE_COUNT] = "invoke_count",
	[F_CYCLES_PER_ELEM] = "cycles_per_elem",
	[F_NS_PER_ELEM] = "ns_per_elem",
	[F_REPS] = "reps",
	[F_CYCLES_SAMPLES] = "cycles_samples",
	[F_NS_SAMPLES] = "ns_samples",
};

/*
 * Parses the comma-separated numbers of field @f into @out (cleared
 * first) and the most decimals among them into @decimals. False, with
 * the error reported, on a bad value.
 */
static bool parse_list(struct parse_ctx *ctx, const char *test,
		       enum test_field f, const char *val, struct vec *out,
		       int *decimals)
{
	const char *p = val;

	out->n = 0;
	*decimals = 0;
	for (;;) {
		size_t len = number_len(p);
		int d;
		double x;

		if (!len || (p[len] && p[len] != ',')) {
			parse_error(ctx, "test %s: bad number in %s=%s", test,
				    field_names[f], val);
			return false;
		}
		x = strtod(p, NULL);
		if (!isfinite(x)) {
			parse_error(ctx, "test %s: bad number in %s=%s", test,
				    field_names[f], val);
			return false;
		}
		vec_push(out, x);
		d = number_decimals(p, len);
		if (d > *decimals)
			*decimals = d;
		p += len;
		if (!*p)
			return true;
		p++;
	}
}

/* Field @f of @val as an integer: true if absent or valid, else reported. */
static bool field_ull(struct parse_ctx *ctx, const char *test,
		      enum test_field f, const char * const *val,
		      unsigned long long *out)
{
	if (!val[f] || parse_ull(val[f], out))
		return true;
	parse_error(ctx, "test %s: bad number in %s=%s", test, field_names[f],
		    val[f]);
	return false;
}

/* Field @f of @val as a number: true if absent or valid, else reported. */
static bool field_double(struct parse_ctx *ctx, const char *test,
			 enum test_field f, const char * const *val,
			 double *out, int *decimals)
{
	if (!val[f] || parse_double(val[f], out, decimals))
		return true;
	parse_error(ctx, "test %s: bad number in %s=%s", test, field_names[f],
		    val[f]);
	return false;
}

/*
 * "test: key=value ..." of a results file: one value per metric for the
 * results block's load, from the cycles_samples= (ns_samples=) list if
 * there is one, else from the line's single measurement.
 */
static void parse_test(struct parse_ctx *ctx, char *s)
{
	const char *val[NR_FIELDS] = { NULL };
	unsigned long long cycles = 0, ns = 0, invokes = 0, reps = 0;
	double cpe = 0, npe = 0;
	int cpe_dec = 0, npe_dec = 0, cs_dec = 0, nss_dec = 0;
	struct vec cs = { NULL }, nss = { NULL };
	enum load_stat ls = ctx->set->load_stat;
	struct bench_test *t;
	const char *name;
	char *tok, *save;
	int f;

	if (!ctx->format) {
		parse_error(ctx, "test: line before any format: line");
		return;
	}
	if (ctx->format < 0)
		return;
	for (tok = strtok_r(s, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok) {
			parse_error(ctx, "malformed field '%s': expected key=value",
				    tok);
			return;
		}
		*eq = '\0';
		for (f = 0; f < NR_FIELDS; f++) {
			if (!strcmp(tok, field_names[f]))
				val[f] = eq + 1;
		}
	}
	name = val[F_NAME];
	if (!name || !*name) {
		parse_error(ctx, "test: line without name=");
		return;
	}

	if (!field_ull(ctx, name, F_CYCLES, val, &cycles) ||
	    !field_ull(ctx, name, F_NS, val, &ns) ||
	    !field_ull(ctx, name, F_INVOKE_COUNT, val, &invokes) ||
	    !field_ull(ctx, name, F_REPS, val, &reps) ||
	    !field_double(ctx, name, F_CYCLES_PER_ELEM, val, &cpe, &cpe_dec) ||
	    !field_double(ctx, name, F_NS_PER_ELEM, val, &npe, &npe_dec))
		return;

	if (!val[F_CYCLES_SAMPLES] && !val[F_CYCLES_PER_ELEM] &&
	    !(val[F_CYCLES] && val[F_INVOKE_COUNT])) {
		parse_error(ctx,
			    "test %s: no cycles (need cycles= and invoke_count=, or cycles_per_elem=)",
			    name);
		return;
	}
	if (val[F_INVOKE_COUNT] && !invokes &&
	    ((!val[F_CYCLES_SAMPLES] && val[F_CYCLES]) ||
	     (!val[F_NS_SAMPLES] && val[F_NS]))) {
		parse_error(ctx, "test %s: invoke_count=0", name);
		return;
	}
	if (val[F_CYCLES_SAMPLES] &&
	    !parse_list(ctx, name, F_CYCLES_SAMPLES, val[F_CYCLES_SAMPLES],
			&cs, &cs_dec))
		goto out;
	if (val[F_NS_SAMPLES] &&
	    !parse_list(ctx, name, F_NS_SAMPLES, val[F_NS_SAMPLES], &nss,
			&nss_dec))
		goto out;
	if (val[F_REPS] && val[F_CYCLES_SAMPLES] && cs.n != reps) {
		parse_error(ctx, "test %s: cycles_samples has %zu values, reps=%llu",
			    name, cs.n, reps);
		goto out;
	}
	if (val[F_REPS] && val[F_NS_SAMPLES] && nss.n != reps) {
		parse_error(ctx, "test %s: ns_samples has %zu values, reps=%llu",
			    name, nss.n, reps);
		goto out;
	}
	if (val[F_CYCLES_SAMPLES] && val[F_NS_SAMPLES] && cs.n != nss.n) {
		parse_error(ctx,
			    "test %s: cycles_samples has %zu values, ns_samples %zu",
			    name, cs.n, nss.n);
		goto out;
	}

	t = find_test(ctx->set, name);
	if (t->last_res_load == ctx->res_load) {
		parse_error(ctx,
			    "test %s: appears twice in one results block (also at line %lu)",
			    name, t->last_line);
		goto out;
	}
	t->last_res_load = ctx->res_load;
	t->last_line = ctx->lineno;
	ctx->set->loads[ctx->res_load - 1].values++;
	ctx->samples++;

	if (val[F_CYCLES_SAMPLES])
		add_value(ctx, t, MET_CYCLES, reduce_load(cs.v, cs.n, ls),
			  cs_dec);
	else if (val[F_CYCLES] && val[F_INVOKE_COUNT])
		add_value(ctx, t, MET_CYCLES,
			  (double)cycles / (double)invokes, INT_DECIMALS);
	else
		add_value(ctx, t, MET_CYCLES, cpe, cpe_dec);

	if (val[F_NS_SAMPLES])
		add_value(ctx, t, MET_NS, reduce_load(nss.v, nss.n, ls),
			  nss_dec);
	else if (val[F_NS] && val[F_INVOKE_COUNT])
		add_value(ctx, t, MET_NS, (double)ns / (double)invokes,
			  INT_DECIMALS);
	else if (val[F_NS_PER_ELEM])
		add_value(ctx, t, MET_NS, npe, npe_dec);
out:
	free(cs.v);
	free(nss.v);
}

/* ------------------------------------------------------------------ */
/* dmesg logs */

/*
 * Matches the literal @lit at *@s: 1 and *@s advanced past it, 0 if the
 * line ends inside it (truncated), -1 if it differs.
 */
static int expect_lit(const char **s, const char *lit)
{
	size_t i;

	for (i = 0; lit[i]; i++) {
		if (!(*s)[i])
			return 0;
		if ((*s)[i] != lit[i])
			return -1;
	}
	*s += i;
	return 1;
}

/*
 * The number after @key in a legacy line: 1 with @val set if it is
 * complete (something follows it), 0 if @key is missing or the line ends
 * in the number, -1 if no number follows @key, -2 if it is too large.
 */
static int legacy_field(const char *s, const char *key,
			unsigned long long *val)
{
	const char *p = strstr(s, key);
	int digits;

	if (!p)
		return 0;
	p += strlen(key);
	digits = scan_ull(&p, val);
	if (digits < 0)
		return -2;
	if (!*p)
		return 0;
	return digits ? 1 : -1;
}

/* Where the legacy record starts ("time_bench: Type:"), after "Type:". */
static const char *find_legacy(const char *line)
{
	static const char tag[] = "time_bench:";
	const char *p = line;

	while ((p = strstr(p, tag))) {
		p += strlen(tag);
		p += strspn(p, " \t");
		if (!strncmp(p, "Type:", 5))
			return p + 5;
	}
	return NULL;
}

/*
 * "Type:NAME Per elem: C cycles(tsc) N ns (step:S) - (measurement period
 * time:T sec time_interval:I) - (invoke count:K tsc_interval:Z)"
 *
 * One value per metric of the current dmesg load: Z/K cycles and I/K ns
 * per element when I, K and Z are complete, else the printed C and N if
 * they are. The summary line "Type:NAME Spread over N reps: ..." that
 * follows it with reps > 1, and the per-CPU lines "Type:NAME CPU(N) ..."
 * of concurrent tests, are no values.
 */
static void parse_legacy(struct parse_ctx *ctx, const char *s)
{
	static const char * const keys[3] = {
		"time_interval:", "invoke count:", "tsc_interval:"
	};
	unsigned long long c = 0, v[3];
	int r, i, have = 0, ns_dec = 0;
	struct bench_test *t;
	double ns = 0, cycles;
	const char *p;
	size_t len;
	char *name;

	len = strcspn(s, " \t");
	if (!len) {
		if (*s)
			parse_error(ctx, "malformed legacy line: no test name after Type:");
		else
			parse_error(ctx, "truncated legacy line: no test name");
		return;
	}
	p = s + len;
	if (!strncmp(p, " Spread over ", 13) || !strncmp(p, " CPU(", 5))
		return;

	r = expect_lit(&p, " Per elem: ");
	if (r > 0) {
		r = scan_ull(&p, &c);
		if (r < 0) {
			parse_error(ctx, "malformed legacy line: cycles out of range");
			return;
		}
		if (!r && *p) {
			parse_error(ctx, "malformed legacy line: non-numeric cycles");
			return;
		}
		if (r)
			r = expect_lit(&p, " cycles(tsc)");
	}
	if (!r) {
		parse_error(ctx, "truncated legacy line: no cycles");
		return;
	}
	if (r < 0) {
		parse_error(ctx,
			    "malformed legacy line: expected \"Per elem: C cycles(tsc) N ns\" after the test name");
		return;
	}

	r = expect_lit(&p, " ");
	if (r > 0) {
		len = number_len(p);
		if (!len && *p) {
			parse_error(ctx, "malformed legacy line: non-numeric ns");
			return;
		}
		ns = strtod(p, NULL);
		ns_dec = number_decimals(p, len);
		p += len;
		r = len ? expect_lit(&p, " ns") : 0;
	}
	if (!r) {
		parse_error(ctx, "truncated legacy line: no ns");
		return;
	}
	if (r < 0) {
		parse_error(ctx,
			    "malformed legacy line: expected \"Per elem: C cycles(tsc) N ns\" after the test name");
		return;
	}

	for (i = 0; i < 3; i++) {
		r = legacy_field(p, keys[i], &v[i]);
		if (r < 0) {
			parse_error(ctx, "malformed legacy line: %s value after \"%s\"",
				    r == -1 ? "non-numeric" : "out-of-range",
				    keys[i]);
			return;
		}
		have += r;
	}

	cycles = (double)c;
	if (have == 3) {
		if (!v[1]) {
			parse_error(ctx, "legacy line with invoke count 0");
			return;
		}
		ns = (double)v[0] / (double)v[1];
		cycles = (double)v[2] / (double)v[1];
		ns_dec = INT_DECIMALS;
	}
	name = xasprintf("%.*s", (int)strcspn(s, " \t"), s);
	t = find_test(ctx->set, name);
	/* each load prints a test once: a repeated one is the next load */
	if (!ctx->dmesg_load || t->last_dmesg_load == ctx->dmesg_load)
		ctx->dmesg_load = new_load(ctx, false);
	t->last_dmesg_load = ctx->dmesg_load;
	ctx->set->loads[ctx->dmesg_load - 1].values++;
	add_value(ctx, t, MET_CYCLES, cycles, have == 3 ? INT_DECIMALS : 0);
	add_value(ctx, t, MET_NS, ns, ns_dec);
	ctx->samples++;
	free(name);
}

static void parse_line(struct parse_ctx *ctx, char *line)
{
	const char *legacy;

	if (!strncmp(line, "format:", 7)) {
		parse_format(ctx, line + 7);
		return;
	}
	if (!strncmp(line, "test:", 5)) {
		parse_test(ctx, line + 5);
		return;
	}
	if (parse_header(ctx, line))
		return;
	/* printed once per load, before its first test */
	if (strstr(line, "bench_page_pool_simple: overhead:")) {
		ctx->dmesg_load = 0;
		return;
	}
	legacy = find_legacy(line);
	if (legacy)
		parse_legacy(ctx, legacy);
}

/* Reads one input file ("-": standard input); 0, or -1 if it is bad. */
int read_input(struct bench_set *set, enum side side, const char *path)
{
	struct parse_ctx ctx = {
		.set = set,
		.side = side,
		.file = strcmp(path, "-") ? path : "<stdin>",
	};
	bool is_stdin = !strcmp(path, "-");
	size_t cap = 0;
	char *line = NULL;
	ssize_t len;
	FILE *f;
	int ret = 0;

	f = is_stdin ? stdin : fopen(path, "r");
	if (!f) {
		fprintf(stderr, PROG ": %s: cannot open: %s\n", path,
			strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		ctx.lineno++;
		while (len > 0 &&
		       (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		parse_line(&ctx, line);
		if (ctx.errors > MAX_ERRORS) {
			fprintf(stderr, PROG ": %s: too many errors, skipping the rest\n",
				ctx.file);
			break;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, PROG ": %s: read error: %s\n", ctx.file,
			strerror(errno));
		ret = -1;
	}
	free(line);
	if (!is_stdin)
		fclose(f);
	if (ctx.errors)
		return -1;
	if (!ret && !ctx.samples) {
		fprintf(stderr, PROG ": no benchmark results in %s\n", ctx.file);
		ret = -1;
	}
	return ret;
}

void free_set(struct bench_set *set)
{
	size_t i, j;
	int s, m;

	for (i = 0; i < set->nr; i++) {
		for (s = 0; s < NR_SIDES; s++) {
			for (m = 0; m < NR_METRICS; m++)
				free(set->tests[i].val[s][m].v);
		}
		free(set->tests[i].name);
	}
	free(set->tests);
	for (i = 0; i < set->nr_loads; i++) {
		for (j = 0; j < set->loads[i].nr_env; j++) {
			free(set->loads[i].env[j].key);
			free(set->loads[i].env[j].val);
		}
		free(set->loads[i].env);
	}
	free(set->loads);
	memset(set, 0, sizeof(*set));
}
