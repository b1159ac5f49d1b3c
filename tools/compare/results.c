// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: the results files of the module, formats 1 to 4 (4 is
 * 3 with the exact profile's lines, which the host adds: doc/profile.rst).
 *
 * "format: bench_page_pool_simple N" opens a block, which is one load;
 * format 3 closes it with "end: tests=T skips=S". Its header lines are
 * the load's environment, each "test:" line one test's repetitions.
 * A line is taken whole or refused: cut short, a field missing that
 * format 3 always writes, a number that is no number or out of range,
 * counts that disagree, are errors.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

#define FORMAT_MAX	4

enum test_field {
	F_NAME,
	F_RUN_FLAGS_BIT,
	F_CONTEXT,
	F_CPU,
	F_REPS,
	F_LOOPS,
	F_INVOKE_COUNT,
	F_TOTAL_INVOKE_COUNT,
	F_CYCLES,
	F_NS,
	F_CYCLES_PER_ELEM,
	F_NS_PER_ELEM,
	F_CYCLES_SAMPLES,
	F_NS_SAMPLES,
	F_PATH,
	F_PAGES_ALLOCATED,
	F_PAGES_RELEASED,
	F_EXPECT_PATH,
	F_EXPECT_ALLOCATED_MAX,
	F_EXPECT_RELEASED,
	F_EXPECT_STATS,
	F_CHEAPER_THAN,
	NR_FIELDS,
};

/* The fields of a test: line that are read; format 3 always has each. */
static const char * const field_names[NR_FIELDS] = {
	[F_NAME] = "name",
	[F_RUN_FLAGS_BIT] = "run_flags_bit",
	[F_CONTEXT] = "context",
	[F_CPU] = "cpu",
	[F_REPS] = "reps",
	[F_LOOPS] = "loops",
	[F_INVOKE_COUNT] = "invoke_count",
	[F_TOTAL_INVOKE_COUNT] = "total_invoke_count",
	[F_CYCLES] = "cycles",
	[F_NS] = "ns",
	[F_CYCLES_PER_ELEM] = "cycles_per_elem",
	[F_NS_PER_ELEM] = "ns_per_elem",
	[F_CYCLES_SAMPLES] = "cycles_samples",
	[F_NS_SAMPLES] = "ns_samples",
	[F_PATH] = "path",
	[F_PAGES_ALLOCATED] = "pages_allocated",
	[F_PAGES_RELEASED] = "pages_released",
	[F_EXPECT_PATH] = "expect_path",
	[F_EXPECT_ALLOCATED_MAX] = "expect_allocated_max",
	[F_EXPECT_RELEASED] = "expect_released",
	[F_EXPECT_STATS] = "expect_stats",
	[F_CHEAPER_THAN] = "cheaper_than",
};

/* Where a metric's values are: a total, a per-element value, a list. */
static const struct {
	enum test_field total, per_elem, samples;
} metric_fields[NR_METRICS] = {
	[MET_CYCLES] = { F_CYCLES, F_CYCLES_PER_ELEM, F_CYCLES_SAMPLES },
	[MET_NS] = { F_NS, F_NS_PER_ELEM, F_NS_SAMPLES },
};

/*
 * The header lines read: the clock of the load, and its environment,
 * each the rest of the line or its key=value words.
 */
enum header_kind {
	HDR_TEXT,
	HDR_WORDS,
	HDR_CLOCK,
};

static const struct {
	const char *key;
	enum header_kind kind;
} headers[] = {
	{ "kernel", HDR_TEXT },
	{ "cpu_model", HDR_TEXT },
	{ "clock", HDR_CLOCK },
	{ "accel", HDR_TEXT },
	{ "cmdline", HDR_TEXT },
	{ "params", HDR_WORDS },
	{ "config", HDR_WORDS },
	{ "runtime", HDR_WORDS },
	{ "platform", HDR_WORDS },
	{ "mitigations", HDR_WORDS },
};

/* One test: line, its fields split, its numbers read. */
struct test_line {
	const char *val[NR_FIELDS];
	const char *name;
	unsigned long long invokes;
	unsigned long long reps;
	struct vec rep[NR_METRICS];	/* repetitions, or the one value */
	int decimals[NR_METRICS];
};

static bool starts(const char *line, const char *word)
{
	return !strncmp(line, word, strlen(word));
}

/*
 * Ends the open block: its environment is complete. A format 3 block
 * that never reached its end: line was cut short.
 */
static void close_block(struct parse_ctx *ctx)
{
	struct results_block *b = &ctx->res;

	if (!b->ended)
		env_close(ctx->set, &ctx->env, b->load);
	if (b->format >= 3 && !b->ended) {
		unsigned long at = ctx->lineno;

		ctx->lineno = b->line;
		parse_error(ctx, "results block cut short: no end: line");
		ctx->lineno = at;
	}
	memset(b, 0, sizeof(*b));
}

/* "format: bench_page_pool_simple N" opens a block (-1: a bad one). */
static void parse_format(struct parse_ctx *ctx, const char *s)
{
	static const char name[] = "bench_page_pool_simple";
	unsigned long long v;
	const char *num;
	size_t len;

	close_block(ctx);
	ctx->res.format = -1;
	ctx->res.line = ctx->lineno;
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
	if (scan_ull(&s, &v) <= 0 || s != num + len || v < 1 ||
	    v > FORMAT_MAX) {
		parse_error(ctx,
			    "unsupported results format version %.*s (supported: 1 to %d)",
			    len > ECHO_MAX ? ECHO_MAX : (int)len, num,
			    FORMAT_MAX);
		return;
	}
	ctx->res.format = (int)v;
	ctx->res.load = new_load(ctx);
}

/* The rest of the line @s, trimmed: its start, *@len bytes. */
static const char *trimmed(const char *s, size_t *len)
{
	s += strspn(s, " \t");
	*len = strlen(s);
	while (*len && strchr(" \t", s[*len - 1]))
		(*len)--;
	return s;
}

/* "kernel: REL": the rest of the line, trimmed, is one value. */
static void parse_env_text(struct parse_ctx *ctx, const char *key,
			   const char *s)
{
	size_t len;

	s = trimmed(s, &len);
	env_add(ctx->set, &ctx->env, key, s, len);
}

/* "clock: instructions" or "clock: cycles": what the counts count. */
static void parse_clock(struct parse_ctx *ctx, const char *s)
{
	size_t len;
	int c;

	s = trimmed(s, &len);
	for (c = 0; c < NR_CLOCKS; c++) {
		if (len == strlen(clock_names[c]) &&
		    !strncmp(s, clock_names[c], len)) {
			ctx->set->loads[ctx->res.load - 1].clock = (enum clock)c;
			ctx->res.has_clock = true;
			return;
		}
	}
	parse_error(ctx, "unknown clock '%s': instructions or cycles",
		    echo(s).s);
}

/* "config: k=v k=v": each k=v is key PREFIX.k; other words are ignored. */
static void parse_env_words(struct parse_ctx *ctx, const char *prefix,
			    const char *s)
{
	struct sbuf key = { NULL };

	for (;;) {
		size_t len, klen;
		const char *eq;

		s += strspn(s, " \t");
		len = strcspn(s, " \t");
		if (!len)
			break;
		eq = memchr(s, '=', len);
		if (eq && eq != s) {
			klen = (size_t)(eq - s);
			key.len = 0;
			sbuf_addf(&key, "%s.%.*s", prefix, (int)klen, s);
			env_add(ctx->set, &ctx->env, key.s, eq + 1,
				len - klen - 1);
		}
		s += len;
	}
	free(key.s);
}

/* The environment lines of an open block; false if @line is none. */
static bool parse_header(struct parse_ctx *ctx, const char *line)
{
	size_t i, len;

	if (ctx->res.format <= 0 || ctx->res.ended)
		return false;
	for (i = 0; i < ARRAY_SIZE(headers); i++) {
		len = strlen(headers[i].key);
		if (strncmp(line, headers[i].key, len) || line[len] != ':')
			continue;
		if (!data_line_ok(ctx, line, "results line"))
			return true;
		if (headers[i].kind == HDR_CLOCK)
			parse_clock(ctx, line + len + 1);
		else if (headers[i].kind == HDR_WORDS)
			parse_env_words(ctx, headers[i].key, line + len + 1);
		else
			parse_env_text(ctx, headers[i].key, line + len + 1);
		return true;
	}
	return false;
}

/* Splits "key=value ..." into @tl->val; false after an error. */
static bool split_fields(struct parse_ctx *ctx, char *s,
			 struct test_line *tl)
{
	char *tok, *save;
	int f;

	for (tok = strtok_r(s, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok) {
			parse_error(ctx, "malformed field '%s': expected key=value",
				    echo(tok).s);
			return false;
		}
		*eq = '\0';
		for (f = 0; f < NR_FIELDS && strcmp(tok, field_names[f]); f++)
			;
		if (f == NR_FIELDS)
			continue;
		if (tl->val[f]) {
			parse_error(ctx, "field %s= given twice", tok);
			return false;
		}
		tl->val[f] = eq + 1;
	}
	tl->name = tl->val[F_NAME];
	if (!tl->name || !*tl->name) {
		parse_error(ctx, "test: line without name=");
		return false;
	}
	return name_ok(ctx, tl->name, strlen(tl->name));
}

static void number_error(struct parse_ctx *ctx, const struct test_line *tl,
			 enum test_field f, enum num_status st)
{
	parse_error(ctx, "test %s: %s in %s=%s", tl->name,
		    st == NUM_RANGE ? "number out of range" : "bad number",
		    field_names[f], echo(tl->val[f]).s);
}

/* Integer field @f into *@out if given; false after an error. */
static bool get_ull(struct parse_ctx *ctx, const struct test_line *tl,
		    enum test_field f, unsigned long long *out)
{
	enum num_status st;

	if (!tl->val[f])
		return true;
	st = parse_ull(tl->val[f], out);
	if (st != NUM_OK)
		number_error(ctx, tl, f, st);
	return st == NUM_OK;
}

/*
 * The comma-separated values of field @f pushed onto @out, their most
 * decimals in *@decimals; false after an error.
 */
static bool get_values(struct parse_ctx *ctx, const struct test_line *tl,
		       enum test_field f, struct vec *out, int *decimals)
{
	const char *p = tl->val[f];

	for (;;) {
		size_t len = strcspn(p, ",");
		enum num_status st;
		double x;
		int d;

		st = parse_value(p, len, &x, &d);
		if (st != NUM_OK) {
			number_error(ctx, tl, f, st);
			return false;
		}
		vec_push(out, x);
		if (d > *decimals)
			*decimals = d;
		if (!p[len])
			return true;
		p += len + 1;
	}
}

/*
 * The per-element value of @m that the totals give (INT_DECIMALS) and
 * that cycles_per_elem (ns_per_elem) must agree with, within a unit of
 * its last digit; false after an error. NAN if there are no totals.
 */
static bool quotient(struct parse_ctx *ctx, struct test_line *tl,
		     enum metric m, double *q)
{
	enum test_field tf = metric_fields[m].total;
	enum test_field pf = metric_fields[m].per_elem;
	unsigned long long total;
	struct vec pe = { NULL };
	int d = 0;

	*q = NAN;
	if (!tl->val[tf] || !tl->val[F_INVOKE_COUNT])
		return true;
	if (!get_ull(ctx, tl, tf, &total))
		return false;
	if (!tl->invokes) {
		parse_error(ctx, "test %s: invoke_count=0", tl->name);
		return false;
	}
	*q = (double)total / (double)tl->invokes;
	if (!tl->val[pf])
		return true;
	if (!get_values(ctx, tl, pf, &pe, &d))
		goto out;
	if (pe.n == 1 && fabs(pe.v[0] - *q) <= pow(10, -d) * (1 + 1 / 1e9)) {
		free(pe.v);
		return true;
	}
	parse_error(ctx, "test %s: %s=%s disagrees with %s/invoke_count = %.6f",
		    tl->name, field_names[pf], echo(tl->val[pf]).s,
		    field_names[tf], *q);
out:
	free(pe.v);
	return false;
}

/* The repetitions of metric @m, if the line has any; false on error. */
static bool metric_reps(struct parse_ctx *ctx, struct test_line *tl,
			enum metric m)
{
	enum test_field sf = metric_fields[m].samples;
	enum test_field pf = metric_fields[m].per_elem;
	double q;

	if (!quotient(ctx, tl, m, &q))
		return false;
	if (tl->val[sf])
		return get_values(ctx, tl, sf, &tl->rep[m], &tl->decimals[m]);
	if (!isnan(q)) {
		vec_push(&tl->rep[m], q);
		tl->decimals[m] = INT_DECIMALS;
		return true;
	}
	if (tl->val[pf])
		return get_values(ctx, tl, pf, &tl->rep[m], &tl->decimals[m]);
	return true;
}

/* The counts a line must agree with; false after an error. */
static bool check_counts(struct parse_ctx *ctx, const struct test_line *tl)
{
	const struct vec *c = &tl->rep[MET_CYCLES], *n = &tl->rep[MET_NS];

	if (tl->val[F_REPS] && tl->val[F_CYCLES_SAMPLES] && c->n != tl->reps) {
		parse_error(ctx, "test %s: cycles_samples has %zu values, reps=%llu",
			    tl->name, c->n, tl->reps);
		return false;
	}
	if (tl->val[F_REPS] && tl->val[F_NS_SAMPLES] && n->n != tl->reps) {
		parse_error(ctx, "test %s: ns_samples has %zu values, reps=%llu",
			    tl->name, n->n, tl->reps);
		return false;
	}
	if (tl->val[F_CYCLES_SAMPLES] && tl->val[F_NS_SAMPLES] &&
	    c->n != n->n) {
		parse_error(ctx,
			    "test %s: cycles_samples has %zu values, ns_samples %zu",
			    tl->name, c->n, n->n);
		return false;
	}
	return true;
}

/* Reads every number of the line; false after an error. */
static bool read_test(struct parse_ctx *ctx, struct test_line *tl)
{
	int f, m;

	for (f = 0; ctx->res.format >= 3 && f < NR_FIELDS; f++) {
		if (!tl->val[f]) {
			parse_error(ctx, "test %s: no %s= (format 3 always has it: cut short?)",
				    tl->name, field_names[f]);
			return false;
		}
	}
	if (!get_ull(ctx, tl, F_INVOKE_COUNT, &tl->invokes) ||
	    !get_ull(ctx, tl, F_REPS, &tl->reps))
		return false;
	for (m = 0; m < NR_METRICS; m++) {
		if (!metric_reps(ctx, tl, (enum metric)m))
			return false;
	}
	if (!tl->rep[MET_CYCLES].n) {
		parse_error(ctx,
			    "test %s: no cycles (need cycles= and invoke_count=, or cycles_per_elem=)",
			    tl->name);
		return false;
	}
	return check_counts(ctx, tl);
}

/* Gives the line's repetitions to its test and the block's load. */
static void store_test(struct parse_ctx *ctx, const struct test_line *tl)
{
	struct bench_test *t = find_test(ctx->set, tl->name, strlen(tl->name));
	int m;

	if (t->last_res_load == ctx->res.load) {
		parse_error(ctx,
			    "test %s: appears twice in one results block (also at line %lu)",
			    tl->name, t->last_line);
		return;
	}
	t->last_res_load = ctx->res.load;
	t->last_line = ctx->lineno;
	ctx->set->loads[ctx->res.load - 1].values++;
	ctx->samples++;
	for (m = 0; m < NR_METRICS; m++) {
		if (tl->rep[m].n)
			add_reps(ctx, t, (enum metric)m, tl->rep[m].v,
				 tl->rep[m].n, tl->decimals[m]);
	}
}

/* Whether a test: or skip: line may come here; false after an error. */
static bool in_block(struct parse_ctx *ctx, const char *what)
{
	if (!ctx->res.format) {
		parse_error(ctx, "%s line before any format: line", what);
		return false;
	}
	if (ctx->res.ended) {
		parse_error(ctx, "%s line after the end: line of its block",
			    what);
		return false;
	}
	return ctx->res.format > 0;
}

/* "test: key=value ...": one load's repetitions of one test. */
static void parse_test(struct parse_ctx *ctx, char *s)
{
	struct test_line tl;
	int m;

	if (!in_block(ctx, "test:"))
		return;
	ctx->res.tests++;
	memset(&tl, 0, sizeof(tl));
	if (split_fields(ctx, s, &tl) && read_test(ctx, &tl))
		store_test(ctx, &tl);
	for (m = 0; m < NR_METRICS; m++)
		free(tl.rep[m].v);
}

/* The number of word "KEY=N" in the line @s; false if there is none. */
static bool word_ull(const char *s, const char *key, unsigned long long *n)
{
	size_t klen = strlen(key);

	while (*(s += strspn(s, " \t"))) {
		size_t len = strcspn(s, " \t");
		const char *p = s + klen;

		if (len > klen && !strncmp(s, key, klen) &&
		    scan_ull(&p, n) > 0 && p == s + len)
			return true;
		s += len;
	}
	return false;
}

/* "end: tests=T skips=S" closes a format 3 block that has as many. */
static void parse_end(struct parse_ctx *ctx, const char *s)
{
	static const char * const key[2] = { "tests=", "skips=" };
	size_t have[2] = { ctx->res.tests, ctx->res.skips }, i;
	unsigned long long n;

	env_close(ctx->set, &ctx->env, ctx->res.load);
	ctx->res.ended = true;
	if (!ctx->res.has_clock) {
		parse_error(ctx, "format 3 block without a clock: line");
		return;
	}
	for (i = 0; i < 2; i++) {
		if (!word_ull(s, key[i], &n)) {
			parse_error(ctx, "end: line without %sN", key[i]);
			return;
		}
		if (n != have[i]) {
			parse_error(ctx,
				    "end: line says %s%llu, the block has %zu %s: lines (cut short?)",
				    key[i], n, have[i], i ? "skip" : "test");
			return;
		}
	}
}

/*
 * A line of a results file: true if it was one (read, or reported),
 * false if it is for the other parsers.
 */
bool results_line(struct parse_ctx *ctx, char *line)
{
	if (starts(line, "format:")) {
		if (data_line_ok(ctx, line, "format: line"))
			parse_format(ctx, line + 7);
		return true;
	}
	if (starts(line, "test:")) {
		if (data_line_ok(ctx, line, "test: line"))
			parse_test(ctx, line + 5);
		return true;
	}
	if (starts(line, "skip:")) {
		if (data_line_ok(ctx, line, "skip: line") &&
		    in_block(ctx, "skip:"))
			ctx->res.skips++;
		return true;
	}
	if (starts(line, "end:") && ctx->res.format >= 3 && !ctx->res.ended) {
		if (data_line_ok(ctx, line, "end: line"))
			parse_end(ctx, line + 4);
		return true;
	}
	return parse_header(ctx, line);
}

/* The end of a file ends its block. */
void results_end(struct parse_ctx *ctx)
{
	close_block(ctx);
}
