// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: the kernel log lines of the benchmark.
 *
 *   time_bench: Type:NAME Per elem: C cycles(tsc) N ns (step:S) -
 *   (measurement period time:T sec time_interval:I) - (invoke count:K
 *   tsc_interval:Z)
 *
 * (one line) gives one load's value of test NAME: Z/K cycles per
 * element, finer than the printed C, which must be floor(Z/K), and the
 * printed N ns, what a reader of the log sees. A line is taken whole,
 * to its closing parenthesis and newline, or refused.
 *
 * Upstream's module prints the same line with its own prefix
 * ("bench_page_pool: Type:..."), and its test script the trimmed
 * "NAME Per elem: C cycles(tsc) N ns" (with the kselftest runner's "# "
 * in front in CI logs): C cycles and N ns, all that is left.
 *
 * A load is the lines of one load of the module: the line
 * "bench_page_pool_simple: instrument: clock=C accel=A" starts one and
 * says what its cycles(tsc) count (cycles when no such line came), the
 * "overhead:" line after it starts one for versions without it, and so
 * does a test that the open load already printed, for versions that
 * print neither.
 *
 * Layer: a parser, called by input.c (parsers.h); it calls line.c,
 * env.c and util.c below it, never input.c.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"
#include "parsers.h"

/*
 * A cursor over a line that reads literals and numbers until the first
 * that is not there: state 1 while all were, 0 if the line ended first
 * (cut short), -1 if it differs, -2 if a number is out of range, -3 if
 * a double cannot hold it as written; what names where it stopped.
 */
struct scan {
	const char *p;
	int state;
	const char *what;
	const char *lit;	/* the literal it stopped at, or NULL */
};

static void scan_stop(struct scan *sc, int state, const char *what,
		      const char *lit)
{
	sc->state = state;
	sc->what = what;
	sc->lit = lit;
}

static void scan_lit(struct scan *sc, const char *lit, const char *what)
{
	size_t i;

	for (i = 0; sc->state > 0 && lit[i]; i++) {
		if (!sc->p[i])
			scan_stop(sc, 0, what, lit);
		else if (sc->p[i] != lit[i])
			scan_stop(sc, -1, what, lit);
	}
	if (sc->state > 0)
		sc->p += i;
}

static void scan_ull_at(struct scan *sc, unsigned long long *v,
			const char *what)
{
	int digits;

	if (sc->state <= 0)
		return;
	digits = scan_ull(&sc->p, v);
	if (digits < 0)
		scan_stop(sc, -2, what, NULL);
	else if (!digits)
		scan_stop(sc, *sc->p ? -1 : 0, what, NULL);
}

static void scan_value(struct scan *sc, double *v, int *decimals,
		       const char *what)
{
	enum num_status st;
	size_t len;

	if (sc->state <= 0)
		return;
	len = number_len(sc->p);
	if (!len) {
		scan_stop(sc, *sc->p ? -1 : 0, what, NULL);
		return;
	}
	st = parse_value(sc->p, len, v, decimals);
	if (st != NUM_OK)
		scan_stop(sc, st == NUM_INEXACT ? -3 : -2, what, NULL);
	else
		sc->p += len;
}

/* A Type: line read whole. */
struct legacy_rec {
	const char *name;
	size_t name_len;
	unsigned long long cycles;	/* C */
	double ns;			/* N */
	int ns_decimals;
	unsigned long long interval_ns;	/* I */
	unsigned long long invokes;	/* K */
	unsigned long long interval_cycles;	/* Z */
};

/* "Per elem: C cycles(tsc) N ns", after the name */
static void scan_head(struct scan *sc, struct legacy_rec *r)
{
	scan_lit(sc, " Per elem: ", "cycles");
	scan_ull_at(sc, &r->cycles, "cycles");
	scan_lit(sc, " cycles(tsc)", "cycles");
	scan_lit(sc, " ", "ns");
	scan_value(sc, &r->ns, &r->ns_decimals, "ns");
	scan_lit(sc, " ns", "ns");
}

/* " (step:S) - (...time:T sec time_interval:I) - (invoke count:K tsc_interval:Z)" */
static void scan_tail(struct scan *sc, struct legacy_rec *r)
{
	unsigned long long step;
	double period;
	int d;

	scan_lit(sc, " (step:", "step");
	if (sc->state > 0 && *sc->p == '-')
		sc->p++;
	scan_ull_at(sc, &step, "step");
	scan_lit(sc, ") - (measurement period time:", "measurement period");
	scan_value(sc, &period, &d, "measurement period");
	scan_lit(sc, " sec time_interval:", "time_interval");
	scan_ull_at(sc, &r->interval_ns, "time_interval");
	scan_lit(sc, ") - (invoke count:", "invoke count");
	scan_ull_at(sc, &r->invokes, "invoke count");
	scan_lit(sc, " tsc_interval:", "tsc_interval");
	scan_ull_at(sc, &r->interval_cycles, "tsc_interval");
	scan_lit(sc, ")", "closing \")\"");
	if (sc->state > 0 && sc->p[strspn(sc->p, " \t")])
		scan_stop(sc, -1, "closing \")\"", NULL);
}

static void scan_error(struct parse_ctx *ctx, const struct scan *sc)
{
	if (!sc->state)
		parse_error(ctx, "truncated legacy line: no %s", sc->what);
	else if (sc->state == -2)
		parse_error(ctx, "malformed legacy line: %s out of range",
			    sc->what);
	else if (sc->state == -3)
		parse_error(ctx, "malformed legacy line: %s has more digits than a double holds",
			    sc->what);
	else if (!sc->lit)
		parse_error(ctx, "malformed legacy line: non-numeric %s",
			    sc->what);
	else if (!strcmp(sc->what, "cycles") || !strcmp(sc->what, "ns"))
		parse_error(ctx,
			    "malformed legacy line: expected \"Per elem: C cycles(tsc) N ns\" after the test name");
	else
		parse_error(ctx, "malformed legacy line: expected \"%s\" at the %s",
			    sc->lit, sc->what);
}

/*
 * The name after "Type:" at @s; false if the line is no value (the
 * "Spread over" and "CPU(N)" lines) or bad (reported).
 */
static bool scan_name(struct parse_ctx *ctx, const char *s,
		      struct legacy_rec *r)
{
	const char *rest;

	r->name = s;
	r->name_len = strcspn(s, " \t");
	rest = s + r->name_len;
	if (!r->name_len) {
		parse_error(ctx, *s ? "malformed legacy line: no test name after Type:" :
				      "truncated legacy line: no test name");
		return false;
	}
	if (!strncmp(rest, " Spread over ", 13) || !strncmp(rest, " CPU(", 5))
		return false;
	return name_ok(ctx, r->name, r->name_len);
}

/* C must be what Z/K gives; false after an error. */
static bool legacy_consistent(struct parse_ctx *ctx,
			      const struct legacy_rec *r)
{
	if (!r->invokes) {
		parse_error(ctx, "legacy line with invoke count 0");
		return false;
	}
	if (r->interval_cycles / r->invokes == r->cycles)
		return true;
	parse_error(ctx, "legacy line: %llu cycles(tsc) is not tsc_interval/invoke count = %llu",
		    r->cycles, r->interval_cycles / r->invokes);
	return false;
}

/*
 * A new dmesg load, with the clock and accelerator of the instrument
 * line before it if there was one.
 */
static size_t open_load(struct parse_ctx *ctx)
{
	struct env_scratch env = { NULL };
	size_t load = new_load(ctx);
	struct load *l = &ctx->set->loads[load - 1];

	l->dmesg = true;
	if (!ctx->instrument)
		return load;
	l->clock = ctx->next_clock;
	l->line = ctx->instrument_line;
	env_add(ctx->set, &env, "accel", ctx->next_accel,
		strlen(ctx->next_accel));
	env_close(ctx->set, &env, load);
	free(env.item);
	ctx->instrument = false;
	return load;
}

/*
 * One value per metric for the open dmesg load, or a new one: Z/K
 * cycles of a complete Type: line (@full), the printed C of a trimmed
 * one, and the printed N ns.
 */
static void store_value(struct parse_ctx *ctx, const struct legacy_rec *r,
			bool full)
{
	struct bench_test *t = find_test(ctx->set, r->name, r->name_len);
	double cycles = full ? (double)r->interval_cycles / (double)r->invokes :
			       (double)r->cycles;

	/* each load prints a test once: a repeated one is the next load */
	if (!ctx->dmesg_load || t->dmesg.load == ctx->dmesg_load)
		ctx->dmesg_load = open_load(ctx);
	t->dmesg.load = ctx->dmesg_load;
	t->dmesg.printed_cycles = r->cycles;
	t->dmesg.printed_ns = r->ns;
	t->dmesg.full = full;
	ctx->set->loads[ctx->dmesg_load - 1].values++;
	ctx->samples++;
	add_reps(ctx, t, MET_CYCLES, ctx->dmesg_load, &cycles, 1,
		 full ? INT_DECIMALS : 0);
	add_reps(ctx, t, MET_NS, ctx->dmesg_load, &r->ns, 1, r->ns_decimals);
}

/* "Type:NAME Per elem: ... tsc_interval:Z)" from after "Type:". */
static void parse_legacy(struct parse_ctx *ctx, const char *s)
{
	struct scan sc = { .state = 1 };
	struct legacy_rec r;

	memset(&r, 0, sizeof(r));
	if (!scan_name(ctx, s, &r))
		return;
	sc.p = s + r.name_len;
	scan_head(&sc, &r);
	scan_tail(&sc, &r);
	if (sc.state <= 0) {
		scan_error(ctx, &sc);
		return;
	}
	if (legacy_consistent(ctx, &r))
		store_value(ctx, &r, true);
}

/*
 * Whether a trimmed line repeats the complete line that the open load
 * already gave its test: upstream's test script prints the dmesg lines
 * of a load, then the same figures trimmed. Such a line is no new value.
 */
static bool echoes(struct parse_ctx *ctx, const struct legacy_rec *r)
{
	struct bench_test *t = find_test(ctx->set, r->name, r->name_len);

	if (!ctx->dmesg_load || t->dmesg.load != ctx->dmesg_load ||
	    !t->dmesg.full || t->dmesg.printed_cycles != r->cycles ||
	    t->dmesg.printed_ns != r->ns)
		return false;
	t->dmesg.full = false;	/* echoed once */
	return true;
}

/* "NAME Per elem: C cycles(tsc) N ns", upstream's test script's line. */
static void parse_trimmed(struct parse_ctx *ctx, const char *s)
{
	struct scan sc = { .state = 1 };
	struct legacy_rec r;

	memset(&r, 0, sizeof(r));
	r.name = s;
	r.name_len = strcspn(s, " \t");
	if (!name_ok(ctx, r.name, r.name_len))
		return;
	sc.p = s + r.name_len;
	scan_head(&sc, &r);
	if (sc.state > 0 && sc.p[strspn(sc.p, " \t")])
		scan_stop(&sc, -1, "ns", " ns");
	if (sc.state <= 0)
		scan_error(ctx, &sc);
	else if (!echoes(ctx, &r))
		store_value(ctx, &r, false);
}

/* A word of the bytes in @set at the cursor, *@len of them. */
static const char *scan_word(struct scan *sc, const char *set, size_t *len,
			     const char *what)
{
	const char *w = sc->p;

	*len = 0;
	if (sc->state <= 0)
		return w;
	*len = strspn(w, set);
	if (!*len)
		scan_stop(sc, *w ? -1 : 0, what, NULL);
	sc->p += *len;
	return w;
}

/* "clock=C accel=A" of an instrument line: the next load's. */
static void parse_instrument(struct parse_ctx *ctx, const char *s)
{
	static const char lower[] = "abcdefghijklmnopqrstuvwxyz";
	static const char word[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
	struct scan sc = { .p = s, .state = 1 };
	const char *clock, *accel;
	size_t clen, alen;
	int c;

	scan_lit(&sc, "clock=", "clock");
	clock = scan_word(&sc, lower, &clen, "clock");
	scan_lit(&sc, " accel=", "accel");
	accel = scan_word(&sc, word, &alen, "accel");
	if (sc.state > 0 && sc.p[strspn(sc.p, " \t")])
		scan_stop(&sc, -1, "end", NULL);
	for (c = 0; sc.state > 0 && c < NR_CLOCKS; c++) {
		if (clen == strlen(clock_names[c]) &&
		    !strncmp(clock, clock_names[c], clen))
			break;
	}
	if (sc.state <= 0 || c == NR_CLOCKS) {
		parse_error(ctx,
			    "malformed instrument line: expected \"instrument: clock=instructions|cycles accel=WORD\"");
		return;
	}
	ctx->dmesg_load = 0;
	ctx->instrument = true;
	ctx->next_clock = (enum clock)c;
	ctx->instrument_line = ctx->lineno;
	free(ctx->next_accel);
	ctx->next_accel = xasprintf("%.*s", (int)alen, accel);
}

/*
 * The start of "MODULE: @tag" in @line, MODULE a module name at the
 * start of the line or after a blank, ']' or '>' (timestamps, syslog
 * and log levels); NULL if there is none. *@after points past @tag.
 */
static const char *find_tag(const char *line, const char *tag,
			    const char **after)
{
	const char *p = line;

	while ((p = strstr(p, tag))) {
		const char *m = p;

		while (m > line && (isalnum((unsigned char)m[-1]) || m[-1] == '_'))
			m--;
		if (m < p && (m == line || strchr(" \t]>", m[-1]))) {
			*after = p + strlen(tag);
			return m;
		}
		p++;
	}
	return NULL;
}

/*
 * Where a Type: record starts ("time_bench: Type:", "bench_page_pool:
 * Type:", any module), or NULL. "MODULE: Type: 5" of other drivers is
 * none: a record's name follows "Type:" at once.
 */
static const char *find_legacy(const char *line, const char **name)
{
	const char *rec = find_tag(line, ": Type:", name);

	if (rec && strchr(" \t", **name) && **name &&
	    !strstr(*name, " Per elem:"))
		return NULL;
	return rec;
}

/*
 * The name of a trimmed line, "NAME Per elem: ..." at the start of the
 * line after the kselftest runner's "# " (one per level), or NULL.
 */
static const char *find_trimmed(const char *line)
{
	const char *p = line;
	size_t len;

	while (p[0] == '#' && p[1] == ' ')
		p += 2;
	len = strcspn(p, " \t");
	return len && !strncmp(p + len, " Per elem:", 10) ? p : NULL;
}

/* A line of a kernel log; lines of no benchmark are ignored. */
void dmesg_line(struct parse_ctx *ctx, const char *line)
{
	const char *rec, *after;

	/* printed once per load, before its first test */
	rec = find_tag(line, ": instrument: ", &after);
	if (rec) {
		if (data_line_ok(ctx, rec, "instrument line"))
			parse_instrument(ctx, after);
		return;
	}
	if (strstr(line, "bench_page_pool_simple: overhead:")) {
		ctx->dmesg_load = 0;
		return;
	}
	rec = find_legacy(line, &after);
	if (rec) {
		if (data_line_ok(ctx, rec, "legacy line"))
			parse_legacy(ctx, after);
		return;
	}
	rec = find_trimmed(line);
	if (rec && data_line_ok(ctx, rec, "trimmed line"))
		parse_trimmed(ctx, rec);
}

/* The end of a file frees what the last instrument line left. */
void dmesg_end(struct parse_ctx *ctx)
{
	free(ctx->next_accel);
}
