// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: the results files of the module, formats 1 to 4 (4 is
 * 3 with the exact profile's lines, which the host adds: doc/profile.rst).
 *
 * "format: bench_page_pool_simple N" opens a block, which is one load;
 * format 3 closes it with "end: tests=T skips=S". Its header lines are
 * the load's environment, each "test:" line one test's repetitions.
 * Format 4 adds, after the test: lines, the exact profile: its caches
 * ("profile:"), per test its counts ("prof:") and per function those
 * of the function ("prof_fn:").
 * A line is taken whole or refused: cut short, a field missing that
 * format 3 always writes, a number that is no number or out of range,
 * counts that disagree, are errors.
 *
 * Layer: a parser, called by input.c (parsers.h); it calls line.c,
 * env.c, strtab.c and util.c below it, never input.c.
 */
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"
#include "parsers.h"

#define FORMAT_MAX	4

/* The bytes of a key: "KEY:" lines and the keys of key=value fields. */
#define KEY_HEAD	"abcdefghijklmnopqrstuvwxyz_"
#define KEY_CHARS	KEY_HEAD "0123456789"

/*
 * enum test_field and field_names[]: the test: fields format 3 has;
 * declared_fields[] and field_types[]: every field results.schema
 * declares, with its type
 */
#include "results_fields.h"

/*
 * The fields read besides those format 3 always has: the PMU's figures,
 * which a test: line has where the PMU counted (pmu=- where not).
 */
enum pmu_field {
	F_PMU_INSNS = NR_FIELDS,
	F_PMU_CYCLES,
	NR_READ_FIELDS,
};

/* Where a metric's values are: a total, a per-element value, a list. */
static const struct {
	enum test_field total, per_elem, samples;
} metric_fields[MET_CORE_CYCLES] = {
	[MET_CYCLES] = { F_CYCLES, F_CYCLES_PER_ELEM, F_CYCLES_SAMPLES },
	[MET_NS] = { F_NS, F_NS_PER_ELEM, F_NS_SAMPLES },
};

/* The PMU's metrics and their fields: one value per load. */
static const struct {
	enum metric metric;
	int field;
} pmu_fields[] = {
	{ MET_CORE_CYCLES, F_PMU_CYCLES },
	{ MET_PMU_INSNS, F_PMU_INSNS },
};

/* The keys of the fields read, field_names[] and the PMU's. */
static const char * const *read_keys(void)
{
	static const char *keys[NR_READ_FIELDS];

	if (!keys[0]) {
		memcpy(keys, field_names, sizeof(field_names));
		keys[F_PMU_INSNS] = "instructions_per_elem";
		keys[F_PMU_CYCLES] = "pmu_cycles_per_elem";
	}
	return keys;
}

/*
 * The boot a block says it ran in: "boot_id: UUID", the kernel's
 * /proc/sys/kernel/random/boot_id (env_lib.sh), lowercase as the kernel
 * writes it.
 */
#define BOOT_ID_LEN	36

/*
 * The header lines read: the clock of the load, and its environment,
 * each the rest of the line or its key=value words.
 */
enum header_kind {
	HDR_TEXT,
	HDR_WORDS,
	HDR_CLOCK,
	HDR_ACCEL,
	HDR_SELECTED,
};

static const struct {
	const char *key;
	enum header_kind kind;
} headers[] = {
	{ "kernel", HDR_TEXT },
	{ "cpu_model", HDR_TEXT },
	{ "clock", HDR_CLOCK },
	{ "accel", HDR_ACCEL },
	{ "cmdline", HDR_TEXT },
	{ "params", HDR_WORDS },
	{ "config", HDR_WORDS },
	{ "runtime", HDR_WORDS },
	{ "platform", HDR_WORDS },
	{ "mitigations", HDR_WORDS },
	{ "selected", HDR_SELECTED },
};

/*
 * The fields of prof: and prof_fn: lines: the test, the function or the
 * test's window count, then the counts, in the order of enum prof_count.
 */
enum prof_field {
	PF_NAME,
	PF_FN,
	PF_WINDOWS,
	PF_COUNT,
	NR_PROF_FIELDS = PF_COUNT + NR_PROF_COUNTS,
};

static const char * const prof_fields[NR_PROF_FIELDS] = {
	[PF_NAME] = "name",
	[PF_FN] = "fn",
	[PF_WINDOWS] = "windows",
	[PF_COUNT + PROF_INSNS] = "insns",
	[PF_COUNT + PROF_LOADS] = "loads",
	[PF_COUNT + PROF_STORES] = "stores",
	[PF_COUNT + PROF_ATOMICS] = "atomics",
	[PF_COUNT + PROF_L1I_MISS] = "l1i_miss",
	[PF_COUNT + PROF_L1D_MISS] = "l1d_miss",
	[PF_COUNT + PROF_LLC_MISS] = "llc_miss",
};

const char * const *const prof_keys = prof_fields + PF_COUNT;

/* One test: line, its fields split, its numbers read. */
struct test_line {
	const char *val[NR_READ_FIELDS];
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

static int cmp_prof_fn(const void *a, const void *b)
{
	const struct prof_fn *p = a, *q = b;

	if (p->fn != q->fn)
		return p->fn < q->fn ? -1 : 1;
	return p->line < q->line ? -1 : p->line > q->line;
}

/*
 * Whether the functions' counts @fns of a test add up to its own counts
 * @pl: each line's count was rounded to PROF_DECIMALS on its own, so
 * they may differ by half a unit per line; a prof_fn: line lost in
 * between would otherwise go unseen. False after an error.
 */
static bool prof_sums_ok(struct parse_ctx *ctx, const char *name,
			 const struct prof_load *pl)
{
	unsigned long long sum, total, d, x;
	size_t i;
	int c;

	for (c = 0; c < NR_PROF_COUNTS; c++) {
		char *got, *want;

		for (sum = 0, i = 0; i < pl->nr_fns; i++) {
			x = (unsigned long long)pl->fns[i].count[c];
			sum = sum > ~0ULL - x ? ~0ULL : sum + x;
		}
		total = (unsigned long long)pl->total[c];
		d = total > sum ? total - sum : sum - total;
		if (d <= (pl->nr_fns + 1) / 2)
			continue;
		got = fmt_fixed((double)sum / 1000, PROF_DECIMALS, false);
		want = fmt_fixed(pl->total[c] / 1000, PROF_DECIMALS, false);
		parse_error_at(ctx, pl->line,
			       "prof: test %s: its functions' %s add up to %s, not %s (a prof_fn: line lost?)",
			       name, prof_keys[c], got, want);
		free(got);
		free(want);
		return false;
	}
	return true;
}

/*
 * Ends the prof: line's group of the open block, if any: its functions
 * sorted, each at most once, and (@check, the group being whole) their
 * counts adding up to the test's.
 */
static void close_prof(struct parse_ctx *ctx, bool check)
{
	struct results_block *b = &ctx->res;
	struct bench_test *t;
	struct prof_load *pl;
	size_t i;

	if (!b->prof_test)
		return;
	t = &ctx->set->tests[b->prof_test - 1];
	b->prof_test = 0;
	pl = &t->prof[ctx->side].loads[t->prof[ctx->side].nr - 1];
	if (pl->nr_fns > 1)
		qsort(pl->fns, pl->nr_fns, sizeof(*pl->fns), cmp_prof_fn);
	for (i = 1; i < pl->nr_fns; i++) {
		if (pl->fns[i].fn != pl->fns[i - 1].fn)
			continue;
		parse_error_at(ctx, pl->fns[i].line,
			       "prof_fn: test %s: function %s given twice in this block (also at line %lu)",
			       t->name, ctx->set->fns.str[pl->fns[i].fn],
			       pl->fns[i - 1].line);
		return;
	}
	if (check && !b->prof_fn_bad)
		prof_sums_ok(ctx, t->name, pl);
}

static void close_block(struct parse_ctx *ctx)
{
	struct results_block *b = &ctx->res;

	close_prof(ctx, false);
	if (!b->ended)
		env_close(ctx->set, &ctx->env, b->load);
	/* a file not read to its end says nothing of its blocks' ends */
	if (b->format >= 3 && !b->ended && !ctx->stopped)
		parse_error_at(ctx, b->line,
			       "results block cut short: no end: line");
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
	if (*s != ' ' && *s != '\t') {
		parse_error(ctx, "bad format line: expected \"format: %s N\"",
			    name);
		return;
	}
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
	/* one digit, as the module writes it: "03" is no version */
	if (len != 1 || scan_ull(&s, &v) <= 0 || v < 1 || v > FORMAT_MAX) {
		parse_error(ctx,
			    "unsupported results format version %.*s (supported: 1 to %d)",
			    len > ECHO_MAX ? ECHO_MAX : (int)len, num,
			    FORMAT_MAX);
		return;
	}
	ctx->res.format = (int)v;
	ctx->res.load = new_load(ctx);
}

/* The @n bytes at @s without the blanks around them: *@len from the start */
static const char *trimmed_span(const char *s, size_t n, size_t *len)
{
	size_t lead = strspn(s, " \t");

	if (lead > n)
		lead = n;
	s += lead;
	n -= lead;
	while (n && strchr(" \t", s[n - 1]))
		n--;
	*len = n;
	return s;
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

/* "accel: none|kvm|tcg|other": how the guest ran, if it was one. */
static void parse_accel(struct parse_ctx *ctx, const char *s)
{
	static const char * const names[] = { "none", "kvm", "tcg", "other" };
	size_t i, len;

	s = trimmed(s, &len);
	ctx->res.has_accel = true;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (len == strlen(names[i]) && !strncmp(s, names[i], len)) {
			env_add(ctx->set, &ctx->env, "accel", s, len);
			return;
		}
	}
	parse_error(ctx, "unknown accel '%s': none, kvm, tcg or other",
		    echo(s).s);
}

/*
 * "selected: A,B,...": the tests of the load, each a test name, blanks
 * around it aside; nothing but blanks names none.
 */
static void parse_selected(struct parse_ctx *ctx, const char *s)
{
	size_t len;

	if (!s[strspn(s, " \t")])
		return;
	for (;;) {
		const char *name = trimmed_span(s, strcspn(s, ","), &len);

		if (!name_ok(ctx, name, len))
			return;
		s += strcspn(s, ",");
		if (!*s++)
			return;
	}
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

/* Whether @s is a boot id: 8-4-4-4-12 lowercase hex digits. */
static bool boot_id_ok(const char *s, size_t len)
{
	size_t i;

	if (len != BOOT_ID_LEN)
		return false;
	for (i = 0; i < len; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return false;
		} else if (!s[i] || !strchr("0123456789abcdef", s[i])) {
			return false;
		}
	}
	return true;
}

/*
 * "boot_id: UUID": the boot the load ran in, once per block, or
 * "unavailable" where the collector could not read it (a load apart).
 * Loads of one boot share its offset (doc/comparing.rst): the
 * comparison counts boots where the files say them.
 */
static void parse_boot(struct parse_ctx *ctx, const char *s)
{
	static const char none[] = "unavailable";
	struct results_block *b = &ctx->res;
	struct load *l = &ctx->set->loads[b->load - 1];
	size_t len;

	s = trimmed(s, &len);
	if (b->has_boot) {
		parse_error(ctx, "boot_id: line given twice in its block");
		return;
	}
	b->has_boot = true;
	if (len == strlen(none) && !strncmp(s, none, len))
		return;
	if (!boot_id_ok(s, len)) {
		parse_error(ctx,
			    "bad boot_id '%s': expected the kernel's boot_id, a UUID (8-4-4-4-12 lowercase hex digits), or unavailable",
			    echo(s).s);
		return;
	}
	l->boot = strtab_id(&ctx->set->boots, s, len, NULL) + 1;
}

/* The environment lines of an open block; false if @line is none. */
static bool parse_header(struct parse_ctx *ctx, const char *line)
{
	size_t i, len;

	if (ctx->res.format <= 0 || ctx->res.ended)
		return false;
	if (starts(line, "boot_id:")) {
		if (data_line_ok(ctx, line, "results line"))
			parse_boot(ctx, line + 8);
		return true;
	}
	for (i = 0; i < ARRAY_SIZE(headers); i++) {
		len = strlen(headers[i].key);
		if (strncmp(line, headers[i].key, len) || line[len] != ':')
			continue;
		if (!data_line_ok(ctx, line, "results line"))
			return true;
		if (headers[i].kind == HDR_CLOCK)
			parse_clock(ctx, line + len + 1);
		else if (headers[i].kind == HDR_ACCEL)
			parse_accel(ctx, line + len + 1);
		else if (headers[i].kind == HDR_SELECTED)
			parse_selected(ctx, line + len + 1);
		else if (headers[i].kind == HDR_WORDS)
			parse_env_words(ctx, headers[i].key, line + len + 1);
		else
			parse_env_text(ctx, headers[i].key, line + len + 1);
		return true;
	}
	return false;
}

/* A key of a key=value word, for finding one given twice. */
struct word_key {
	const char *s;
	size_t len;
};

static int cmp_word_key(const void *a, const void *b)
{
	const struct word_key *p = a, *q = b;
	int c = memcmp(p->s, q->s, p->len < q->len ? p->len : q->len);

	return c ? c : (p->len > q->len) - (p->len < q->len);
}

/* The declared field @key (@len bytes) of a @kind line, or NULL. */
static const struct declared_field *declared_field(const char *kind,
						   const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(declared_fields); i++) {
		const struct declared_field *d = &declared_fields[i];

		if (!strcmp(d->kind, kind) && strlen(d->key) == len &&
		    !memcmp(d->key, key, len))
			return d;
	}
	return NULL;
}

/* The compiled pattern of a field type, compiled on first use. */
static const regex_t *field_type_re(enum field_type type)
{
	static regex_t re[NR_FIELD_TYPES];
	static bool compiled[NR_FIELD_TYPES];

	if (!compiled[type]) {
		/* generated from results.schema: a failure is the generator's */
		if (regcomp(&re[type], field_types[type].ere,
			    REG_EXTENDED | REG_NOSUB)) {
			fprintf(stderr, PROG ": cannot compile \"%s\"\n",
				field_types[type].ere);
			exit(2);
		}
		compiled[type] = true;
	}
	return &re[type];
}

/* A field of a line: its kind ("test:"), its test's name, key and value. */
struct field_word {
	const char *kind;
	const char *name, *key, *val;
	size_t name_len, key_len, val_len;
};

/*
 * Whether the value of the field @w is of its declared type; false,
 * reported, if not.  A key the schema does not declare is a field added
 * after this reader: not judged, as split_words() ignores it.
 */
static bool value_ok(struct parse_ctx *ctx, const struct field_word *w)
{
	const struct declared_field *d;
	char *v;
	bool ok;

	d = declared_field(w->kind, w->key, w->key_len);
	if (!d)
		return true;
	v = xasprintf("%.*s", (int)w->val_len, w->val);
	ok = !regexec(field_type_re(d->type), v, 0, NULL, 0);
	if (!ok)
		parse_error(ctx, "%.*s %.*s: %s=%s is not %s",
			    (int)strlen(w->kind) - 1, w->kind,
			    (int)w->name_len, w->name, d->key, echo(v).s,
			    field_types[d->type].what);
	free(v);
	return ok;
}

/* Whether two of the @nr keys at @keys are one; false, reported, if so. */
static bool keys_once(struct parse_ctx *ctx, struct word_key *keys, size_t nr)
{
	size_t i;

	qsort(keys, nr, sizeof(*keys), cmp_word_key);
	for (i = 1; i < nr; i++) {
		if (!cmp_word_key(&keys[i - 1], &keys[i])) {
			parse_error(ctx, "field %.*s= given twice",
				    (int)keys[i].len, keys[i].s);
			return false;
		}
	}
	return true;
}

/*
 * The words of a test:, skip:, cpu:, prof: or prof_fn: line @s (after
 * its @kind): "name=TEST" first, then "key=value" words, a key of a-z,
 * 0-9 and _ (not a digit first) and a value of at least one byte, no key
 * twice; a skip: line ends in "reason=TEXT", the rest of the line.
 * results_lib.sh's results_check() judges the same. False, reported, if
 * the line is none of these.
 */
static bool words_ok(struct parse_ctx *ctx, const char *kind, const char *s)
{
	bool skip = !strcmp(kind, "skip:"), reason = false, ok = true;
	struct field_word w = { .kind = kind };
	struct word_key *keys = NULL;
	size_t nr = 0, cap = 0, len, key;

	s += strspn(s, " \t");
	len = strcspn(s, " \t");
	if (len < 5 || strncmp(s, "name=", 5)) {
		parse_error(ctx, "%s line without name=TEST first", kind);
		return false;
	}
	if (!name_ok(ctx, s + 5, len - 5))
		return false;
	w.name = s + 5;
	w.name_len = len - 5;
	for (key = 4;; key = strspn(s, KEY_HEAD) ? strspn(s, KEY_CHARS) : 0) {
		if (!key || key + 1 >= len || s[key] != '=') {
			parse_error(ctx, "malformed field '%.*s': %s",
				    len > ECHO_MAX ? ECHO_MAX : (int)len, s,
				    "expected key=value (a key of a-z, 0-9 and _, a value)");
			ok = false;
			break;
		}
		if (nr == cap) {
			cap = cap ? cap * 2 : 32;
			keys = xrealloc(keys, cap * sizeof(*keys));
		}
		keys[nr].s = s;
		keys[nr++].len = key;
		w.key = s;
		w.key_len = key;
		w.val = s + key + 1;
		w.val_len = len - key - 1;
		if (ctx->res.format >= 3 && !value_ok(ctx, &w)) {
			ok = false;
			break;
		}
		s += len;
		s += strspn(s, " \t");
		len = strcspn(s, " \t");
		if (!len)
			break;
		if (skip && len > 7 && !strncmp(s, "reason=", 7)) {
			reason = true;
			break;
		}
	}
	if (ok && skip && !reason) {
		parse_error(ctx, "skip: line without reason=");
		ok = false;
	}
	ok = ok && keys_once(ctx, keys, nr);
	free(keys);
	return ok;
}

/*
 * Splits "key=value ..." at @s: the value of key @keys[i] into @val[i],
 * other keys ignored (new fields are only ever added); false after an
 * error.
 */
static bool split_words(struct parse_ctx *ctx, char *s,
			const char * const *keys, int nr, const char **val)
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
		for (f = 0; f < nr && strcmp(tok, keys[f]); f++)
			;
		if (f == nr)
			continue;
		if (val[f]) {
			parse_error(ctx, "field %s= given twice", tok);
			return false;
		}
		val[f] = eq + 1;
	}
	return true;
}

/* Splits a test: line into @tl->val; false after an error. */
static bool split_fields(struct parse_ctx *ctx, char *s,
			 struct test_line *tl)
{
	if (!split_words(ctx, s, read_keys(), NR_READ_FIELDS, tl->val))
		return false;
	tl->name = tl->val[F_NAME];
	if (!tl->name || !*tl->name) {
		parse_error(ctx, "test: line without name=");
		return false;
	}
	return name_ok(ctx, tl->name, strlen(tl->name));
}

static void number_error(struct parse_ctx *ctx, const struct test_line *tl,
			 int f, enum num_status st)
{
	parse_error(ctx, "test %s: %s in %s=%s", tl->name,
		    num_status_words(st),
		    read_keys()[f], echo(tl->val[f]).s);
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
		       int f, struct vec *out, int *decimals)
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
	for (m = 0; m < MET_CORE_CYCLES; m++) {
		if (!metric_reps(ctx, tl, (enum metric)m))
			return false;
	}
	for (m = 0; m < (int)ARRAY_SIZE(pmu_fields); m++) {
		int f = pmu_fields[m].field;
		enum metric pm = pmu_fields[m].metric;

		if (tl->val[f] &&
		    !get_values(ctx, tl, f, &tl->rep[pm], &tl->decimals[pm]))
			return false;
		if (tl->rep[pm].n > 1) {
			parse_error(ctx, "test %s: %s=%s is one value per load",
				    tl->name, read_keys()[f], echo(tl->val[f]).s);
			return false;
		}
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
	ctx->res.stored++;
	ctx->set->loads[ctx->res.load - 1].values++;
	if (tl->rep[MET_CORE_CYCLES].n && tl->rep[MET_PMU_INSNS].n)
		ctx->set->loads[ctx->res.load - 1].pmu_values++;
	ctx->samples++;
	for (m = 0; m < NR_METRICS; m++) {
		if (tl->rep[m].n)
			add_reps(ctx, t, (enum metric)m, ctx->res.load,
				 tl->rep[m].v, tl->rep[m].n, tl->decimals[m]);
	}
}

/*
 * A skip: line words_ok() accepted: its test's name and, the first time
 * that name is skipped, its reason (the rest of the line).
 */
static void store_skip(struct bench_set *set, const char *s)
{
	const char *name = s + strspn(s, " \t") + 5, *reason = name;
	size_t len = strcspn(name, " \t"), id, end;
	bool added;

	do
		reason = strstr(reason + 1, "reason=");
	while (reason[-1] != ' ' && reason[-1] != '\t');
	reason += 7;
	end = strlen(reason);
	while (end && strchr(" \t\r\n", reason[end - 1]))
		end--;
	id = strtab_id(&set->skipped, name, len, &added);
	if (!added)
		return;
	set->skip_reasons = xrealloc(set->skip_reasons,
				     set->skipped.nr * sizeof(char *));
	set->skip_reasons[id] = xasprintf("%.*s", (int)end, reason);
}

/* Whether a test: or skip: line may come here; false after an error. */
static bool in_block(struct parse_ctx *ctx, const char *what)
{
	if (!ctx->res.format) {
		parse_error(ctx, "%s line before any format: line", what);
		return false;
	}
	/* after its end: line, block_line() refused it */
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
	if (!words_ok(ctx, "test:", s))
		return;
	if (ctx->res.prof_started) {
		parse_error(ctx,
			    "test: line after the block's prof: lines (format 4 profiles follow every test: line)");
		return;
	}
	memset(&tl, 0, sizeof(tl));
	if (split_fields(ctx, s, &tl) && read_test(ctx, &tl))
		store_test(ctx, &tl);
	for (m = 0; m < NR_METRICS; m++)
		free(tl.rep[m].v);
}

/*
 * Whether a line of the profile is read here: in a format 4 block, up
 * to its end: line (block_line() refuses any line after it). In format
 * 3, which is whole without them (a tool wrote them without saying
 * format 4), they would be lost unread: errors. A bad block's are not read either. Formats 1
 * and 2 have no end: line, so what follows their blocks may be any log:
 * there, as outside blocks, they are no results lines (results_line()).
 */
static bool prof_in_block(struct parse_ctx *ctx, const char *what)
{
	const struct results_block *b = &ctx->res;

	if (b->format < 3)
		return false;
	if (b->format == 3) {
		parse_error(ctx, "%s line in a format 3 block (profiles come with format 4)",
			    what);
		return false;
	}
	return true;
}

/*
 * "profile: l1i=SIZE:WAYS l1d=SIZE:WAYS llc=SIZE:WAYS line=BYTES": the
 * caches the profile's misses were modelled with, once per load, kept
 * as the numbers say them. It is no part of the environment: loads
 * without a profile have none.
 */
static void parse_caches(struct parse_ctx *ctx, const char *s)
{
	static const char * const key[] = { "l1i=", "l1d=", "llc=", "line=" };
	struct results_block *b = &ctx->res;
	struct sbuf geo = { NULL };
	unsigned long long size, ways;
	size_t i;

	if (!prof_in_block(ctx, "profile:"))
		return;
	if (b->has_caches || b->prof_started) {
		parse_error(ctx, "profile: line %s",
			    b->has_caches ? "given twice in its block" :
			    "after the block's prof: lines");
		b->has_caches = true;
		return;
	}
	b->has_caches = true;
	for (i = 0; i < ARRAY_SIZE(key); i++) {
		s += strspn(s, " \t");
		if (strncmp(s, key[i], strlen(key[i])))
			goto bad;
		s += strlen(key[i]);
		if (scan_ull(&s, &size) <= 0 || !size)
			goto bad;
		if (i + 1 == ARRAY_SIZE(key)) {
			sbuf_addf(&geo, "%s%llu", key[i], size);
			break;
		}
		if (*s++ != ':' || scan_ull(&s, &ways) <= 0 || !ways ||
		    !strchr(" \t", *s))
			goto bad;
		sbuf_addf(&geo, "%s%llu:%llu ", key[i], size, ways);
	}
	if (s[strspn(s, " \t")])
		goto bad;
	i = strtab_id(&ctx->set->caches, geo.s, geo.len, NULL);
	ctx->set->loads[b->load - 1].caches = i + 1;
	free(geo.s);
	return;
bad:
	free(geo.s);
	parse_error(ctx,
		    "bad profile: line: expected \"profile: l1i=SIZE:WAYS l1d=SIZE:WAYS llc=SIZE:WAYS line=BYTES\"");
}

/*
 * A count of the profile, DIGITS.DDD (PROF_DECIMALS, as the host writes
 * them), into thousandths in *@out; at most PROF_MILLI_MAX of them, so
 * that they stay exact as doubles.
 */
static enum num_status parse_milli(const char *s, double *out)
{
	size_t n = strspn(s, "0123456789");
	unsigned long long whole, frac;
	const char *p = s;

	if (!n || s[n] != '.' ||
	    strspn(s + n + 1, "0123456789") != PROF_DECIMALS ||
	    s[n + 1 + PROF_DECIMALS])
		return NUM_BAD;
	if (scan_ull(&p, &whole) < 0 || whole > PROF_MILLI_MAX / 1000)
		return NUM_RANGE;
	p = s + n + 1;
	scan_ull(&p, &frac);
	whole = whole * 1000 + frac;
	if (whole > PROF_MILLI_MAX)
		return NUM_RANGE;
	*out = (double)whole;
	return NUM_OK;
}

/* What kallsyms names hold: modules these, symbols these and ".$". */
#define MODULE_CHARS \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

/*
 * A function of a profile: a kernel symbol ("foo", "foo.cold"),
 * "[module]" after it if of a module, or "?" where no symbol was.
 */
static bool fn_name_ok(const char *s)
{
	size_t n, m;

	if (!strcmp(s, "?"))
		return true;
	n = strspn(s, MODULE_CHARS ".$");
	if (!n)
		return false;
	if (!s[n])
		return true;
	m = strspn(s + n + 1, MODULE_CHARS);
	return s[n] == '[' && m && s[n + 1 + m] == ']' && !s[n + 2 + m];
}

static void prof_number_error(struct parse_ctx *ctx, const char *what,
			      const char **val, int f, enum num_status st)
{
	parse_error(ctx, "%s test %s: %s in %s=%s%s", what, val[PF_NAME],
		    num_status_words(st),
		    prof_fields[f], echo(val[f]).s,
		    f >= PF_COUNT && st == NUM_BAD ?
		    " (a count per element has 3 decimals)" : "");
}

/*
 * The fields of a prof: or prof_fn: (@fn) line: each one there, the
 * function a function's name, the windows a count of them, the counts
 * read into @count (thousandths); false after an error.
 */
static bool prof_numbers(struct parse_ctx *ctx, const char *what,
			 const char **val, bool fn, double *count)
{
	unsigned long long windows;
	enum num_status st;
	int f;

	for (f = PF_FN; f < NR_PROF_FIELDS; f++) {
		if (f == (fn ? PF_WINDOWS : PF_FN) || val[f])
			continue;
		parse_error(ctx, "%s test %s: no %s= (format 4 always has it: cut short?)",
			    what, val[PF_NAME], prof_fields[f]);
		return false;
	}
	if (fn && !fn_name_ok(val[PF_FN])) {
		parse_error(ctx,
			    "%s test %s: fn=%s is no function (a kernel symbol, [module] after it, or ?)",
			    what, val[PF_NAME], echo(val[PF_FN]).s);
		return false;
	}
	st = fn ? NUM_OK : parse_ull(val[PF_WINDOWS], &windows);
	if (st != NUM_OK) {
		prof_number_error(ctx, what, val, PF_WINDOWS, st);
		return false;
	}
	if (!fn && !windows) {
		parse_error(ctx, "%s test %s: windows=0 (a profiled test ran in a window)",
			    what, val[PF_NAME]);
		return false;
	}
	for (f = PF_COUNT; f < NR_PROF_FIELDS; f++) {
		st = parse_milli(val[f], &count[f - PF_COUNT]);
		if (st != NUM_OK) {
			prof_number_error(ctx, what, val, f, st);
			return false;
		}
	}
	return true;
}

/*
 * The test of a line of the profile: one with a test: line in this
 * block; NULL, reported unless its test: line was refused, if none.
 */
static struct bench_test *prof_test(struct parse_ctx *ctx, const char *what,
				    const char *name)
{
	struct bench_set *set = ctx->set;
	size_t id;

	if (strtab_find(&set->names, name, strlen(name), &id) &&
	    set->tests[id].last_res_load == ctx->res.load)
		return &set->tests[id];
	if (ctx->res.stored == ctx->res.tests)
		parse_error(ctx, "%s test %s has no test: line in this block",
			    what, name);
	return NULL;
}

/* "prof: name=T windows=N COUNTS": test @t's profile in this load. */
static bool add_prof(struct parse_ctx *ctx, struct bench_test *t,
		     const double *count)
{
	struct prof_side *ps = &t->prof[ctx->side];
	struct results_block *b = &ctx->res;
	struct prof_load *pl;

	if (t->last_prof_load == b->load) {
		parse_error(ctx, "prof: test %s given twice in this block (also at line %lu)",
			    t->name, ps->loads[ps->nr - 1].line);
		return false;
	}
	if (ps->nr == ps->cap) {
		ps->cap = ps->cap ? ps->cap * 2 : 4;
		ps->loads = xrealloc(ps->loads, ps->cap * sizeof(*ps->loads));
	}
	pl = &ps->loads[ps->nr++];
	memset(pl, 0, sizeof(*pl));
	pl->load = b->load;
	pl->line = ctx->lineno;
	memcpy(pl->total, count, sizeof(pl->total));
	t->last_prof_load = b->load;
	b->profiled++;
	b->prof_test = (size_t)(t - ctx->set->tests) + 1;
	b->prof_bad = false;
	b->prof_fn_bad = false;
	ctx->set->loads[b->load - 1].profiles++;
	return true;
}

/* "prof_fn: name=T fn=F COUNTS": function @fn's part of it. */
static bool add_prof_fn(struct parse_ctx *ctx, struct bench_test *t,
			const char *fn, const double *count)
{
	struct prof_side *ps = &t->prof[ctx->side];
	struct results_block *b = &ctx->res;
	struct prof_load *pl;
	struct prof_fn *f;

	if (b->prof_test != (size_t)(t - ctx->set->tests) + 1) {
		if (b->prof_bad)	/* the prof: line before was refused */
			return false;
		if (t->last_prof_load != b->load)
			parse_error(ctx, "prof_fn: test %s before its prof: line",
				    t->name);
		else
			parse_error(ctx,
				    "prof_fn: test %s after other tests' prof: lines (its prof_fn: lines follow its prof: line)",
				    t->name);
		return false;
	}
	pl = &ps->loads[ps->nr - 1];
	if (pl->nr_fns == pl->cap_fns) {
		pl->cap_fns = pl->cap_fns ? pl->cap_fns * 2 : 8;
		pl->fns = xrealloc(pl->fns, pl->cap_fns * sizeof(*pl->fns));
	}
	f = &pl->fns[pl->nr_fns++];
	f->fn = strtab_id(&ctx->set->fns, fn, strlen(fn), NULL);
	f->line = ctx->lineno;
	memcpy(f->count, count, sizeof(f->count));
	return true;
}

/*
 * Reads a prof: or prof_fn: (@fn) line into its test's profile; false
 * if it is refused, *@name then the test it names, if it names one.
 */
static bool take_prof(struct parse_ctx *ctx, char *s, bool fn,
		      const char **name)
{
	const char *what = fn ? "prof_fn:" : "prof:";
	const char *val[NR_PROF_FIELDS] = { NULL };
	double count[NR_PROF_COUNTS];
	struct bench_test *t;

	if (!words_ok(ctx, what, s) ||
	    !split_words(ctx, s, prof_fields, NR_PROF_FIELDS, val))
		return false;
	*name = val[PF_NAME];
	if (!val[PF_NAME] || !*val[PF_NAME]) {
		parse_error(ctx, "%s line without name=", what);
		return false;
	}
	if (!name_ok(ctx, val[PF_NAME], strlen(val[PF_NAME])))
		return false;
	t = prof_test(ctx, what, val[PF_NAME]);
	if (!t || !prof_numbers(ctx, what, val, fn, count))
		return false;
	if (fn)
		return add_prof_fn(ctx, t, val[PF_FN], count);
	return add_prof(ctx, t, count);
}

/* "prof: ..." (@fn false) or "prof_fn: ..." lines of a format 4 block. */
static void parse_prof(struct parse_ctx *ctx, char *s, bool fn)
{
	struct results_block *b = &ctx->res;
	const char *name = NULL;

	if (!prof_in_block(ctx, fn ? "prof_fn:" : "prof:"))
		return;
	b->prof_started = true;
	if (!fn) {
		close_prof(ctx, true);
		b->prof_bad = true;	/* until it is taken */
	}
	if (take_prof(ctx, s, fn, &name) || !fn || !b->prof_test)
		return;
	/* a line of the open group refused: its counts cannot add up */
	if (!name || !strcmp(name, ctx->set->tests[b->prof_test - 1].name))
		b->prof_fn_bad = true;
}

/*
 * The profile of a format 4 block at its end: line: its profile: line,
 * its last prof: line's group whole, and a prof: line for each test
 * (unless a refused test: line was the reason, reported already).
 */
static void end_profile(struct parse_ctx *ctx)
{
	struct results_block *b = &ctx->res;
	struct bench_set *set = ctx->set;
	size_t i;

	if (b->format < 4)
		return;
	close_prof(ctx, true);
	if (!b->has_caches)
		parse_error(ctx, "format 4 block without a profile: line");
	if (b->stored != b->tests || b->profiled == b->stored)
		return;
	for (i = 0; i < set->nr; i++) {
		const struct bench_test *t = &set->tests[i];

		if (t->last_res_load == b->load && t->last_prof_load != b->load)
			parse_error(ctx,
				    "test %s has no prof: line (format 4 profiles every test of its block)",
				    t->name);
	}
}

/* "KEY=N" at *@s, then blanks; false if it is not there. */
static bool word_ull(const char **s, const char *key, unsigned long long *n)
{
	const char *p = *s + strlen(key);

	if (strncmp(*s, key, strlen(key)) || scan_ull(&p, n) <= 0 ||
	    !strchr(" \t", *p))
		return false;
	*s = p + strspn(p, " \t");
	return true;
}

/*
 * "end: tests=T skips=S" closes a format 3 block that has as many, and
 * its clock: and accel: lines.
 */
static void parse_end(struct parse_ctx *ctx, const char *s)
{
	size_t have[2] = { ctx->res.tests, ctx->res.skips }, i;
	unsigned long long n[2];

	env_close(ctx->set, &ctx->env, ctx->res.load);
	end_profile(ctx);
	ctx->res.ended = true;
	if (!ctx->res.has_clock) {
		parse_error(ctx, "format 3 block without a clock: line");
		return;
	}
	if (!ctx->res.has_accel) {
		parse_error(ctx, "format 3 block without an accel: line");
		return;
	}
	s += strspn(s, " \t");
	if (!word_ull(&s, "tests=", &n[0]) || !word_ull(&s, "skips=", &n[1]) ||
	    *s) {
		parse_error(ctx, "expected \"end: tests=N skips=N\"");
		return;
	}
	for (i = 0; i < 2; i++) {
		if (n[i] != have[i]) {
			parse_error(ctx,
				    "end: line says %s=%llu, the block has %zu %s: lines (cut short?)",
				    i ? "skips" : "tests", n[i], have[i],
				    i ? "skip" : "test");
			return;
		}
	}
}

/*
 * The length of the key of a "KEY: value" line @line: [a-z_]+, a colon,
 * then a blank or the end of the line; 0 if @line is none.
 */
static size_t line_key(const char *line)
{
	size_t key = strspn(line, KEY_HEAD);

	if (!key || line[key] != ':' || !strchr(" \t", line[key + 1]))
		return 0;
	return key;
}

/*
 * Inside a block every line is a results line: blank, or "KEY: value"
 * from its first column, whole and printable whatever its key (one this
 * version does not know too); after its end: line only a new block's
 * format: line may come. Any other line is refused, as the kselftest's
 * reader refuses it, never read as a log line. True if @line is one of
 * the block's, read here (a key this version does not know is skipped:
 * header lines are only ever added) or refused; false if it is to be
 * read by its key.
 */
static bool block_line(struct parse_ctx *ctx, const char *line)
{
	if (ctx->res.format == 0 || !line[strspn(line, " \t")])
		return false;
	if (ctx->res.ended) {
		if (starts(line, "format:"))
			return false;
		parse_error(ctx, "a line after the end: line");
	} else if (strchr(" \t", *line)) {
		parse_error(ctx, "a line starting with a blank (a results line starts at its key)");
	} else if (!line_key(line)) {
		parse_error(ctx, "expected a \"KEY: value\" line in a results block");
	} else {
		return false;
	}
	return true;
}

/* A line "KEY: ..." of a block that no parser read: skipped if whole. */
static bool unknown_line(struct parse_ctx *ctx, const char *line)
{
	if (ctx->res.format <= 0 || ctx->res.ended)
		return false;
	data_line_ok(ctx, line, "results line");
	return true;
}

/*
 * A line of a results file: true if it was one (read, or reported),
 * false if it is for the other parsers.
 */
bool results_line(struct parse_ctx *ctx, char *line)
{
	if (block_line(ctx, line))
		return true;
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
		    in_block(ctx, "skip:")) {
			ctx->res.skips++;
			if (words_ok(ctx, "skip:", line + 5))
				store_skip(ctx->set, line + 5);
		}
		return true;
	}
	/* a cross-CPU test's records: their words checked, never read */
	if (starts(line, "cpu:") && ctx->res.format > 0) {
		if (data_line_ok(ctx, line, "cpu: line"))
			words_ok(ctx, "cpu:", line + 4);
		return true;
	}
	if (starts(line, "end:") && ctx->res.format >= 3 && !ctx->res.ended) {
		if (data_line_ok(ctx, line, "end: line"))
			parse_end(ctx, line + 4);
		return true;
	}
	/* the profile's lines, in blocks of format 3 on; in others log lines */
	if (ctx->res.format >= 3 || ctx->res.format < 0) {
		if (starts(line, "profile:")) {
			if (data_line_ok(ctx, line, "profile: line"))
				parse_caches(ctx, line + 8);
			return true;
		}
		if (starts(line, "prof:") || starts(line, "prof_fn:")) {
			bool fn = line[4] == '_';

			if (data_line_ok(ctx, line, fn ? "prof_fn: line" :
							"prof: line"))
				parse_prof(ctx, line + (fn ? 8 : 5), fn);
			return true;
		}
	}
	return parse_header(ctx, line) || unknown_line(ctx, line);
}

/* The end of a file ends its block, and what it kept of it. */
void results_end(struct parse_ctx *ctx)
{
	close_block(ctx);
	free(ctx->env.item);
}
