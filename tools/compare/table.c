// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: the report, as an aligned text table, a Markdown table
 * or an org-mode table.
 *
 * The columns start with the layout reviewers paste on the list (test,
 * cycles before/after/diff, ns before/after/diff, % change) and go on
 * with what makes the verdict readable: the interval of the cycles
 * shift, the loads per side, the adjusted p and the verdict itself.
 * What the columns mean is said under the table. When the counter
 * counted instructions (QEMU -icount), every label says so and the ns
 * columns are left out.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

enum column {
	COL_TEST,
	COL_CYC_BEFORE,
	COL_CYC_AFTER,
	COL_CYC_DIFF,
	COL_NS_BEFORE,
	COL_NS_AFTER,
	COL_NS_DIFF,
	COL_PCT,
	COL_CI,
	COL_LOADS,
	COL_P,
	COL_VERDICT,
	NR_COLS,
};

/* Headers: %1$s is the unit of the counter, %2$s the interval's level. */
static const char * const col_heads[NR_COLS] = {
	[COL_TEST] = "test",
	[COL_CYC_BEFORE] = "%1$s before",
	[COL_CYC_AFTER] = "%1$s after",
	[COL_CYC_DIFF] = "%1$s diff",
	[COL_NS_BEFORE] = "ns before",
	[COL_NS_AFTER] = "ns after",
	[COL_NS_DIFF] = "ns diff",
	[COL_PCT] = "%% change",
	[COL_CI] = "%1$s diff %2$s%% CI",
	[COL_LOADS] = "loads",
	[COL_P] = "p (Holm)",
	[COL_VERDICT] = "verdict",
};

/* A table being printed: its columns, cells and widths. */
struct table {
	const struct bench_set *set;
	const struct comparison *cmp;
	enum out_format fmt;
	const char *unit;	/* what the counter counted */
	const char *pct_unit;	/* what % change is of */
	char *level;		/* of the interval, in percent */
	bool shown[NR_COLS];
	char *head[NR_COLS];
	char **cells;		/* cmp->nr rows of NR_COLS */
	size_t width[NR_COLS];
};

/* A cell as it must appear in @fmt: '|' escaped in tables. */
char *escape_cell(const char *s, enum out_format fmt)
{
	const char *esc = fmt == OUT_MARKDOWN ? "\\|" : "\\vert{}";
	size_t n = 0, i;
	char *out, *o;

	if (fmt == OUT_TEXT || !strchr(s, '|'))
		return xstrdup(s);
	for (i = 0; s[i]; i++)
		n += s[i] == '|' ? strlen(esc) : 1;
	out = xrealloc(NULL, n + 1);
	for (o = out, i = 0; s[i]; i++) {
		if (s[i] == '|') {
			memcpy(o, esc, strlen(esc));
			o += strlen(esc);
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

/*
 * The before, after and diff cells of metric @mc from column @first;
 * the diff signed but in org, whose calc reads it (as the seed's table
 * shows it).
 */
static void fill_metric(char **cell, enum column first,
			const struct metric_cmp *mc, enum out_format fmt)
{
	if (!mc->have) {
		cell[first] = xstrdup("-");
		cell[first + 1] = xstrdup("-");
		cell[first + 2] = xstrdup("-");
		return;
	}
	cell[first] = fmt_fixed(mc->before, mc->decimals, false);
	cell[first + 1] = fmt_fixed(mc->after, mc->decimals, false);
	cell[first + 2] = fmt_fixed(mc->shift.est, mc->decimals,
				    fmt != OUT_ORG);
}

/*
 * % change in org: what org-mode computes from the printed cells under
 * "#+TBLFM: $8=(($7/$5)*100);%.1f" (calc with 12 significant digits,
 * then %.1f), so that recalculating the table changes nothing.
 */
static char *org_pct(const char *diff, const char *before)
{
	char *end, num[32];
	double d = strtod(diff, &end), b;

	if (*end || end == diff)
		return xstrdup("-");
	b = strtod(before, &end);
	if (*end || end == before || b == 0)
		return xstrdup("-");
	snprintf(num, sizeof(num), "%.12g", d / b * 100);
	return xasprintf("%.1f", strtod(num, NULL));
}

/* "LO..HI" of the cycles shift, "-" when the loads allow no interval. */
static char *fmt_interval(const struct metric_cmp *mc)
{
	char *lo, *hi, *s;

	if (!mc->have || !mc->shift.k)
		return xstrdup("-");
	lo = fmt_fixed(mc->shift.lo, mc->decimals, true);
	hi = fmt_fixed(mc->shift.hi, mc->decimals, true);
	s = xasprintf("%s..%s", lo, hi);
	free(lo);
	free(hi);
	return s;
}

static char *fmt_verdict(const struct row *r)
{
	switch (r->verdict) {
	case VERDICT_CHANGE:
		return xstrdup("change");
	case VERDICT_NOISE:
		return xstrdup("noise");
	default:
		if (!r->need)
			return xstrdup("n/a (too many rows for any load count)");
		return xasprintf("n/a (need %zu loads)", r->need);
	}
}

/* The first column of the metric that % change is of. */
static enum column pct_column(const struct row *r)
{
	return r->pct_of == MET_NS ? COL_NS_BEFORE : COL_CYC_BEFORE;
}

static void fill_row(char **cell, const struct row *r, enum out_format fmt)
{
	enum column base = pct_column(r);

	cell[COL_TEST] = escape_cell(r->test->name, fmt);
	fill_metric(cell, COL_CYC_BEFORE, &r->m[MET_CYCLES], fmt);
	fill_metric(cell, COL_NS_BEFORE, &r->m[MET_NS], fmt);
	if (fmt == OUT_ORG)
		cell[COL_PCT] = org_pct(cell[base + 2], cell[base]);
	else
		cell[COL_PCT] = fmt_pct(r->pct);
	cell[COL_CI] = fmt_interval(&r->m[MET_CYCLES]);
	cell[COL_LOADS] = xasprintf("%zu/%zu", r->loads[SIDE_BEFORE],
				    r->loads[SIDE_AFTER]);
	cell[COL_P] = isnan(r->p_adj) ? xstrdup("-") :
				       xasprintf("%.3g", r->p_adj);
	cell[COL_VERDICT] = fmt_verdict(r);
}

/*
 * Which columns the table has. First the reviewers' eight (the ns
 * ones not when the counter counts instructions: the clock then
 * follows the instructions too), then the verdict's where they add to
 * them: the interval where a row has one, p and verdict where a row
 * has a verdict, loads with them or where a row has fewer than its
 * side. With one load a side that leaves the reviewers' table alone.
 */
static void pick_columns(struct table *t)
{
	bool ns = t->cmp->clock != CLOCK_INSTRUCTIONS;
	bool ci = false, verdict = false, loads = false;
	const size_t *total = t->cmp->loads;
	size_t i;
	int c;

	for (i = 0; i < t->cmp->nr; i++) {
		const struct row *r = &t->cmp->rows[i];

		ci = ci || r->m[MET_CYCLES].shift.k;
		verdict = verdict || r->verdict != VERDICT_NA;
		loads = loads || r->loads[SIDE_BEFORE] != total[SIDE_BEFORE] ||
			r->loads[SIDE_AFTER] != total[SIDE_AFTER];
	}
	for (c = 0; c < NR_COLS; c++)
		t->shown[c] = ns || c < COL_NS_BEFORE || c > COL_NS_DIFF;
	t->shown[COL_CI] = ci;
	t->shown[COL_P] = verdict;
	t->shown[COL_VERDICT] = verdict;
	t->shown[COL_LOADS] = verdict || loads;
}

/* The 1-based org column number of @col ($N in a formula). */
static int org_column(const struct table *t, enum column col)
{
	int c, n = 0;

	for (c = 0; c <= (int)col; c++)
		n += t->shown[c];
	return n;
}

/* The formula of % change, as the reviewers' org tables have it. */
static void print_tblfm(const struct table *t)
{
	enum column base;

	if (t->fmt != OUT_ORG || !t->cmp->nr)
		return;
	base = pct_column(&t->cmp->rows[0]);
	printf("#+TBLFM: $%d=(($%d/$%d)*100);%%.1f\n",
	       org_column(t, COL_PCT), org_column(t, base + 2),
	       org_column(t, base));
}

/* The headers, the cells and the width of each column. */
static void fill_table(struct table *t)
{
	size_t i, w;
	int c;

	t->cells = xcalloc(t->cmp->nr * NR_COLS + 1, sizeof(*t->cells));
	for (i = 0; i < t->cmp->nr; i++)
		fill_row(t->cells + i * NR_COLS, &t->cmp->rows[i], t->fmt);
	for (c = 0; c < NR_COLS; c++) {
		t->head[c] = xasprintf(col_heads[c], t->unit, t->level);
		t->width[c] = strlen(t->head[c]);
		if (t->fmt != OUT_TEXT && t->width[c] < 3)
			t->width[c] = 3;
		for (i = 0; i < t->cmp->nr; i++) {
			w = strlen(t->cells[i * NR_COLS + c]);
			if (w > t->width[c])
				t->width[c] = w;
		}
	}
}

static void free_table(struct table *t)
{
	size_t i;
	int c;

	for (i = 0; i < t->cmp->nr * NR_COLS; i++)
		free(t->cells[i]);
	free(t->cells);
	for (c = 0; c < NR_COLS; c++)
		free(t->head[c]);
	free(t->level);
}

/* Text left, numbers right; org aligns "6/6" left, as text, itself. */
static bool col_left(const struct table *t, int col)
{
	return col == COL_TEST || col == COL_VERDICT ||
	       (col == COL_LOADS && t->fmt == OUT_ORG);
}

static void print_dashes(size_t n)
{
	while (n--)
		putchar('-');
}

static int last_column(const struct table *t)
{
	int c = NR_COLS - 1;

	while (c > 0 && !t->shown[c])
		c--;
	return c;
}

static void print_cells(const struct table *t, char * const *cell)
{
	int c, last = last_column(t);

	for (c = 0; c < NR_COLS; c++) {
		int w = (int)t->width[c];

		if (!t->shown[c])
			continue;
		if (t->fmt != OUT_TEXT)
			printf(col_left(t, c) ? "| %-*s " : "| %*s ", w, cell[c]);
		else if (c == last && col_left(t, c))	/* no trailing blanks */
			printf("%s%s", c ? "  " : "", cell[c]);
		else
			printf(col_left(t, c) ? "%s%-*s" : "%s%*s", c ? "  " : "",
			       w, cell[c]);
	}
	puts(t->fmt == OUT_TEXT ? "" : "|");
}

static void print_rule(const struct table *t)
{
	bool first = true;
	int c;

	for (c = 0; c < NR_COLS; c++) {
		if (!t->shown[c])
			continue;
		if (t->fmt == OUT_ORG) {
			fputs(first ? "|" : "+", stdout);
			print_dashes(t->width[c] + 2);
		} else if (col_left(t, c)) {
			fputs("| :", stdout);
			print_dashes(t->width[c] - 1);
			putchar(' ');
		} else {
			fputs("| ", stdout);
			print_dashes(t->width[c] - 1);
			fputs(": ", stdout);
		}
		first = false;
	}
	puts("|");
}

static void print_footer_line(enum out_format fmt, bool *first,
			      const char *fmtstr, ...) __printf(3, 4);

/* Footer lines: after a blank line; separate paragraphs in Markdown. */
static void print_footer_line(enum out_format fmt, bool *first,
			      const char *fmtstr, ...)
{
	va_list ap;

	if (*first || fmt == OUT_MARKDOWN)
		putchar('\n');
	*first = false;
	va_start(ap, fmtstr);
	vprintf(fmtstr, ap);
	va_end(ap);
	putchar('\n');
}

static void print_footer(const struct table *t)
{
	const struct bench_set *set = t->set;
	const struct comparison *cmp = t->cmp;
	enum out_format fmt = t->fmt;
	const char *u = t->unit;
	bool first = true;
	char *ci;
	size_t i;
	int s;

	if (!cmp->nr)
		print_footer_line(fmt, &first, "no test present on both sides");
	for (s = 0; s < NR_SIDES; s++) {
		for (i = 0; i < set->nr; i++) {
			const struct bench_test *t = &set->tests[i];

			if (t->val[s][MET_CYCLES].nr_loads &&
			    !t->val[!s][MET_CYCLES].nr_loads)
				print_footer_line(fmt, &first, "only in %s: %s",
						  side_names[s], t->name);
		}
	}
	print_footer_line(fmt, &first,
			  "loads: before %zu, after %zu; one value per test and load: %s (--load-stat %s)",
			  cmp->loads[SIDE_BEFORE], cmp->loads[SIDE_AFTER],
			  load_stat_words(cmp->load_stat),
			  cmp->load_stat == LOAD_MIN ? "min" : "median");
	ci = t->shown[COL_CI] ?
	     xasprintf("; CI: distribution-free %s%% interval of the %s shift",
		       t->level, u) : xstrdup("");
	print_footer_line(fmt, &first,
			  "before, after: medians over loads; diff: Hodges-Lehmann shift after - before; %% change: %s diff in %% of %s before%s",
			  t->pct_unit, t->pct_unit, ci);
	free(ci);
	if (t->shown[COL_VERDICT] || !cmp->nr)
		print_footer_line(fmt, &first,
				  "verdict: two-sided Mann-Whitney U of the per-load %s/elem, p adjusted by Holm-Bonferroni over the %zu row%s, family-wise alpha %g",
				  u, cmp->nr, cmp->nr == 1 ? "" : "s",
				  cmp->alpha);
	else if (cmp->rows[0].need)
		print_footer_line(fmt, &first,
				  "verdict: none: with these loads no row can reach p < alpha / %zu (two-sided Mann-Whitney U of the per-load %s/elem, Holm-Bonferroni, family-wise alpha %g); that takes %zu loads per side",
				  cmp->nr, u, cmp->alpha, cmp->rows[0].need);
	else
		print_footer_line(fmt, &first,
				  "verdict: none: no number of loads can reach p < alpha / %zu (family-wise alpha %g over %zu rows)",
				  cmp->nr, cmp->alpha, cmp->nr);
}

/*
 * "X" when a side has one value, else "X (n loads), Y (m loads)" of the
 * ENV_LIST_MAX commonest, the rest summed up.
 */
static char *describe(const struct env_count *c, size_t nr)
{
	struct sbuf b = { NULL };
	size_t i, rest = 0;

	for (i = 0; i < nr; i++) {
		const char *v = !c[i].val ? "unknown" :
				*c[i].val ? c[i].val : "(empty)";

		if (nr == 1)
			sbuf_addf(&b, "%s", v);
		else if (i < ENV_LIST_MAX)
			sbuf_addf(&b, "%s%s (%zu load%s)", i ? ", " : "", v,
				  c[i].loads, c[i].loads == 1 ? "" : "s");
		else
			rest += c[i].loads;
	}
	if (nr > ENV_LIST_MAX)
		sbuf_addf(&b, " and %zu more values (%zu load%s)",
			  nr - ENV_LIST_MAX, rest, rest == 1 ? "" : "s");
	return sbuf_take(&b);
}

/* "environment differs: KEY: before X, after Y" for each key. */
static void print_env(const struct bench_set *set)
{
	struct env_diff *d;
	size_t i, nr;
	char *desc[NR_SIDES];
	int s;

	d = env_differences(set, &nr);
	for (i = 0; i < nr; i++) {
		for (s = 0; s < NR_SIDES; s++)
			desc[s] = describe(d[i].side[s], d[i].nr[s]);
		printf("environment differs: %s: before %s, after %s\n",
		       d[i].key, desc[0], desc[1]);
		free(desc[0]);
		free(desc[1]);
	}
	if (nr)
		putchar('\n');
	env_diffs_free(d, nr);
}

/*
 * Prints where the environments differ, then the table and its footer,
 * to standard output.
 */
void print_report(const struct bench_set *set, const struct comparison *cmp,
		  enum out_format fmt)
{
	struct table t = {
		.set = set,
		.cmp = cmp,
		.fmt = fmt,
		.unit = clock_names[cmp->clock],
		.pct_unit = cmp->clock == CLOCK_CYCLES ? "ns" :
			    clock_names[cmp->clock],
		.level = fmt_level(cmp->alpha),
	};
	size_t i;

	print_env(set);
	pick_columns(&t);
	fill_table(&t);
	print_cells(&t, t.head);
	if (fmt != OUT_TEXT)
		print_rule(&t);
	for (i = 0; i < cmp->nr; i++)
		print_cells(&t, t.cells + i * NR_COLS);
	print_tblfm(&t);
	print_footer(&t);
	free_table(&t);
}
