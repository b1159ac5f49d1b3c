// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: what the parsers of results files (results.c) and
 * kernel log lines (dmesg.c) share: errors naming FILE:LINE, the checks
 * that every line they read and every test name pass, and the loads and
 * tests they add to the set.
 *
 * Layer: below the parsers (and input.c, which reports its read errors
 * here); it calls only util.c and strtab.c, never up.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "line.h"

static void vparse_error(struct parse_ctx *ctx, unsigned long line,
			 const char *fmt, va_list ap) __printf(3, 0);

static void vparse_error(struct parse_ctx *ctx, unsigned long line,
			 const char *fmt, va_list ap)
{
	ctx->errors++;
	if (ctx->errors > MAX_ERRORS)
		return;
	fprintf(stderr, PROG ": %s:%lu: ", ctx->file, line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void parse_error(struct parse_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vparse_error(ctx, ctx->lineno, fmt, ap);
	va_end(ap);
}

/* An error of an earlier line @line, found only now. */
void parse_error_at(struct parse_ctx *ctx, unsigned long line,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vparse_error(ctx, line, fmt, ap);
	va_end(ap);
}

struct echo echo(const char *s)
{
	struct echo e;
	size_t len = strlen(s);

	if (len <= ECHO_MAX) {
		memcpy(e.s, s, len + 1);
	} else {
		memcpy(e.s, s, ECHO_MAX);
		memcpy(e.s + ECHO_MAX, "...", 4);
	}
	return e;
}

/*
 * A line (from @line on) that a parser reads must be whole and safe to
 * print; false, reported as @what, if it is not.
 */
bool data_line_ok(struct parse_ctx *ctx, const char *line, const char *what)
{
	const char *bad;
	unsigned int cp;

	if (ctx->cut) {
		parse_error(ctx, "%s cut short: no newline at its end", what);
		return false;
	}
	bad = find_unprintable(line);
	if (!bad)
		return true;
	cp = format_control_at(bad);
	if (cp) {
		parse_error(ctx, "%s holds a Unicode format control U+%04X (%s) at column %zu",
			    what, cp, "bidi, invisible or line break",
			    (size_t)(bad - ctx->line) + 1);
		return false;
	}
	parse_error(ctx, "%s holds a control or non-printable byte 0x%02x at column %zu",
		    what, (unsigned char)*bad, (size_t)(bad - ctx->line) + 1);
	return false;
}

/*
 * A test name is 1 to TEST_NAME_MAX letters, digits, "_" and "-", as
 * the module's are (results_lib.sh's name_ok() says the same); false,
 * reported, if @name is not.
 */
bool name_ok(struct parse_ctx *ctx, const char *name, size_t len)
{
	const char *bad = find_nonname(name, len);

	if (!len) {
		parse_error(ctx, "empty test name");
		return false;
	}
	if (bad) {
		parse_error(ctx, "test name holds the byte 0x%02x: %s",
			    (unsigned char)*bad,
			    "a test name is letters, digits, _ and -");
		return false;
	}
	if (len > TEST_NAME_MAX) {
		parse_error(ctx, "test name of %zu bytes: at most %d",
			    len, TEST_NAME_MAX);
		return false;
	}
	return true;
}

/* Opens a new load of this file's side; returns 1 + its index. */
size_t new_load(struct parse_ctx *ctx)
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
	l->clock = CLOCK_CYCLES;
	l->file = ctx->file;
	l->line = ctx->lineno;
	return set->nr_loads;
}

/* The test of the @len characters at @name, added if new. */
struct bench_test *find_test(struct bench_set *set, const char *name,
			     size_t len)
{
	struct bench_test *t;
	bool added;
	size_t id = strtab_id(&set->names, name, len, &added);
	int m;

	if (!added)
		return &set->tests[id];
	if (set->nr == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 16;
		set->tests = xrealloc(set->tests,
				      set->cap * sizeof(*set->tests));
	}
	t = &set->tests[set->nr++];
	memset(t, 0, sizeof(*t));
	t->name = set->names.str[id];
	for (m = 0; m < NR_METRICS; m++)
		t->decimals[m] = -1;
	return t;
}

/*
 * Load @load's (1 + its index) @n repetitions (@decimals) of metric @m
 * of @t.
 */
void add_reps(struct parse_ctx *ctx, struct bench_test *t, enum metric m,
	      size_t load, const double *reps, size_t n, int decimals)
{
	series_add_at(&t->val[ctx->side][m], reps, n, load);
	if (decimals > t->decimals[m])
		t->decimals[m] = decimals;
}
