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
 * columns are left out. Under it come the exact profiles' tables, one
 * per test with a function that moved, in the same format.
 *
 * Layer: an output, called by main.c; it calls compare.c,
 * profile.c, env.c and util.c, never main.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

/* The footer's unit where loads are the samples, by what chose it */
#define UNIT_LOAD_INSTRUCTIONS "unit: the load: counting instructions, the boot does not move the count, so loads of one boot are samples of their own (--unit boot counts boots)"
#define UNIT_LOAD_ASKED "unit: the load (--unit load): loads of one boot are taken as independent samples, their boot's offset left out of the noise"

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
	COL_BOOTS,
	COL_SD_BETWEEN,
	COL_SD_WITHIN,
	COL_P,
	COL_VERDICT,
	NR_COLS,
};

/* Headers: %1$s is the unit of the figure, %2$s the interval's level. */
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
	[COL_BOOTS] = "boots",
	[COL_SD_BETWEEN] = "%1$s sd between boots",
	[COL_SD_WITHIN] = "%1$s sd within boots",
	[COL_P] = "p (Holm)",
	[COL_VERDICT] = "verdict",
};

/* How the columns of a table are printed: the report has several. */
struct grid {
	enum out_format fmt;
	int nr;			/* columns */
	const bool *shown;
	const bool *left;	/* text, aligned left */
	const size_t *width;
};

/* A table being printed: its columns, cells and widths. */
struct table {
	const struct bench_set *set;
	const struct comparison *cmp;
	enum out_format fmt;
	const char *unit;	/* of the figure the verdict is of */
	const char *pct_unit;	/* what % change is of */
	char *level;		/* of the interval, in percent */
	bool shown[NR_COLS];
	char *head[NR_COLS];
	char **cells;		/* cmp->nr rows of NR_COLS */
	size_t width[NR_COLS];
	bool left[NR_COLS];
	struct grid grid;
};

/*
 * The escape of @c in a cell of @fmt, or NULL if it stands for itself.
 * The escape character is escaped too, so that no two names give one
 * cell: a|b and a\vert{}b differ in org (a\backslash{}vert{}b), a\|b
 * and a|b in markdown (a\\\|b): every backslash of a cell begins an
 * escape, and decoding them gives the name back.
 */
static const char *cell_escape(char c, enum out_format fmt)
{
	if (fmt == OUT_MARKDOWN)
		return c == '|' ? "\\|" : c == '\\' ? "\\\\" : NULL;
	return c == '|' ? "\\vert{}" : c == '\\' ? "\\backslash{}" : NULL;
}

/* A cell as it must appear in @fmt: '|' and '\\' escaped in tables. */
char *escape_cell(const char *s, enum out_format fmt)
{
	struct sbuf out = { NULL };
	const char *esc;
	size_t i;

	if (fmt == OUT_TEXT || !strpbrk(s, "|\\"))
		return xstrdup(s);
	for (i = 0; s[i]; i++) {
		esc = cell_escape(s[i], fmt);
		if (esc)
			sbuf_add(&out, esc, strlen(esc));
		else
			sbuf_add(&out, s + i, 1);
	}
	return out.s;
}

static void print_dashes(size_t n)
{
	while (n--)
		putchar('-');
}

static int last_column(const struct grid *g)
{
	int c = g->nr - 1;

	while (c > 0 && !g->shown[c])
		c--;
	return c;
}

static void print_cells(const struct grid *g, char * const *cell)
{
	int c, last = last_column(g);

	for (c = 0; c < g->nr; c++) {
		int w = (int)g->width[c];

		if (!g->shown[c])
			continue;
		if (g->fmt != OUT_TEXT)
			printf(g->left[c] ? "| %-*s " : "| %*s ", w, cell[c]);
		else if (c == last && g->left[c])	/* no trailing blanks */
			printf("%s%s", c ? "  " : "", cell[c]);
		else
			printf(g->left[c] ? "%s%-*s" : "%s%*s", c ? "  " : "",
			       w, cell[c]);
	}
	puts(g->fmt == OUT_TEXT ? "" : "|");
}

static void print_rule(const struct grid *g)
{
	bool first = true;
	int c;

	for (c = 0; c < g->nr; c++) {
		if (!g->shown[c])
			continue;
		if (g->fmt == OUT_ORG) {
			fputs(first ? "|" : "+", stdout);
			print_dashes(g->width[c] + 2);
		} else if (g->left[c]) {
			fputs("| :", stdout);
			print_dashes(g->width[c] - 1);
			putchar(' ');
		} else {
			fputs("| ", stdout);
			print_dashes(g->width[c] - 1);
			fputs(": ", stdout);
		}
		first = false;
	}
	puts("|");
}

/* The header, the rule under it but in text, and the rows' cells. */
static void print_grid(const struct grid *g, char * const *head,
		       char * const *cells, size_t rows)
{
	size_t i;

	print_cells(g, head);
	if (g->fmt != OUT_TEXT)
		print_rule(g);
	for (i = 0; i < rows; i++)
		print_cells(g, cells + i * g->nr);
}

/* The width of each column: its widest cell, 3 at least but in text. */
static void fit_widths(const struct grid *g, char * const *head,
		       char * const *cells, size_t rows, size_t *width)
{
	size_t i, w;
	int c;

	for (c = 0; c < g->nr; c++) {
		width[c] = strlen(head[c]);
		if (g->fmt != OUT_TEXT && width[c] < 3)
			width[c] = 3;
		for (i = 0; i < rows; i++) {
			w = strlen(cells[i * g->nr + c]);
			if (w > width[c])
				width[c] = w;
		}
	}
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

static char *fmt_verdict(const struct comparison *cmp, const struct row *r)
{
	switch (r->verdict) {
	case VERDICT_CHANGE:
		return xstrdup("change");
	case VERDICT_NOISE:
		return xstrdup("noise");
	default:
		if (!r->need)
			return xasprintf("n/a (too many rows for any %s count)",
					 unit_name(cmp, 1));
		return xasprintf("n/a (need %zu %s)", r->need,
				 unit_name(cmp, r->need));
	}
}

/* A standard deviation of the spread, "-" where the loads cannot tell. */
static char *fmt_sd(double sd, int decimals)
{
	if (isnan(sd))
		return xstrdup("-");
	return fmt_fixed(sd, decimals < 2 ? 2 : decimals, false);
}

/* The first column of the metric that % change is of. */
static enum column pct_column(const struct row *r)
{
	return r->pct_of == MET_NS ? COL_NS_BEFORE : COL_CYC_BEFORE;
}

static void fill_row(char **cell, const struct comparison *cmp,
		     const struct row *r, enum out_format fmt)
{
	const struct metric_cmp *fig = &r->m[cmp->figure];
	enum column base = pct_column(r);

	cell[COL_TEST] = escape_cell(r->test->name, fmt);
	fill_metric(cell, COL_CYC_BEFORE, fig, fmt);
	fill_metric(cell, COL_NS_BEFORE, &r->m[MET_NS], fmt);
	if (fmt == OUT_ORG)
		cell[COL_PCT] = org_pct(cell[base + 2], cell[base]);
	else
		cell[COL_PCT] = fmt_pct(r->pct);
	cell[COL_CI] = fmt_interval(fig);
	cell[COL_LOADS] = xasprintf("%zu/%zu", r->loads[SIDE_BEFORE],
				    r->loads[SIDE_AFTER]);
	cell[COL_BOOTS] = xasprintf("%zu/%zu", r->units[SIDE_BEFORE],
				    r->units[SIDE_AFTER]);
	cell[COL_SD_BETWEEN] = fmt_sd(fig->spread.sd_between, fig->decimals);
	cell[COL_SD_WITHIN] = fmt_sd(fig->spread.sd_within, fig->decimals);
	cell[COL_P] = isnan(r->p_adj) ? xstrdup("-") :
				       xasprintf("%.3g", r->p_adj);
	cell[COL_VERDICT] = fmt_verdict(cmp, r);
}

/*
 * Which columns the table has. First the reviewers' eight (the ns
 * ones not when the counter counts instructions: the clock then
 * follows the instructions too), then the verdict's where they add to
 * them: the interval where a row has one, p and verdict where a row
 * has a verdict, loads with them or where a row has fewer than its
 * side. With one load a side that leaves the reviewers' table alone.
 * Where boots are counted, the boots of each row; where some boot has
 * several loads, how the loads spread between boots and within one.
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

		ci = ci || r->m[t->cmp->figure].shift.k;
		verdict = verdict || r->verdict != VERDICT_NA;
		loads = loads || r->loads[SIDE_BEFORE] != total[SIDE_BEFORE] ||
			r->loads[SIDE_AFTER] != total[SIDE_AFTER];
	}
	for (c = 0; c < NR_COLS; c++)
		t->shown[c] = ns || c < COL_NS_BEFORE || c > COL_NS_DIFF;
	t->shown[COL_CI] = ci;
	t->shown[COL_P] = verdict;
	t->shown[COL_VERDICT] = verdict;
	t->shown[COL_LOADS] = verdict || loads || t->cmp->by_boot;
	t->shown[COL_BOOTS] = t->cmp->by_boot;
	t->shown[COL_SD_BETWEEN] = t->cmp->split;
	t->shown[COL_SD_WITHIN] = t->cmp->split;
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

/* Text left, numbers right; org aligns "6/6" left, as text, itself. */
static bool col_left(const struct table *t, int col)
{
	return col == COL_TEST || col == COL_VERDICT ||
	       ((col == COL_LOADS || col == COL_BOOTS) && t->fmt == OUT_ORG);
}

/* The headers, the cells and the width of each column. */
static void fill_table(struct table *t)
{
	size_t i;
	int c;

	t->cells = xcalloc(t->cmp->nr * NR_COLS + 1, sizeof(*t->cells));
	for (i = 0; i < t->cmp->nr; i++)
		fill_row(t->cells + i * NR_COLS, t->cmp, &t->cmp->rows[i],
			 t->fmt);
	for (c = 0; c < NR_COLS; c++) {
		t->head[c] = xasprintf(col_heads[c], t->unit, t->level);
		t->left[c] = col_left(t, c);
	}
	t->grid = (struct grid){
		.fmt = t->fmt,
		.nr = NR_COLS,
		.shown = t->shown,
		.left = t->left,
		.width = t->width,
	};
	fit_widths(&t->grid, t->head, t->cells, t->cmp->nr, t->width);
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

/* Per row whose ns only some of its loads carried: why none are shown. */
static void print_dropped(const struct table *t, bool *first)
{
	size_t i;

	for (i = 0; i < t->cmp->nr; i++) {
		const struct row *r = &t->cmp->rows[i];
		char *note = ns_dropped_note(r);

		if (!note)
			continue;
		print_footer_line(t->fmt, first,
				  "%s: %s: no ns or %% change shown (a row's figures come from all the loads it counts)",
				  r->test->name, note);
		free(note);
	}
}

/*
 * What the boots of each side say, where the unit is the boot (or
 * loads of one boot were taken as apart): a side whose loads all come
 * from one boot is one sample, however many loads it has; loads that
 * say no boot each count as one of their own.
 */
static void print_boots(const struct table *t, bool *first)
{
	const struct comparison *cmp = t->cmp;
	bool shared = cmp->boots[SIDE_BEFORE] < cmp->loads[SIDE_BEFORE] ||
		      cmp->boots[SIDE_AFTER] < cmp->loads[SIDE_AFTER];
	int s;

	if (!shared)
		return;
	if (!cmp->by_boot) {
		print_footer_line(t->fmt, first, "%s",
				  cmp->clock == CLOCK_INSTRUCTIONS ?
				  UNIT_LOAD_INSTRUCTIONS : UNIT_LOAD_ASKED);
		return;
	}
	print_footer_line(t->fmt, first,
			  "boots: before %zu, after %zu (boot_id: lines); the boot is the unit (--unit boot): one value per test and boot, the median of its loads' values",
			  cmp->boots[SIDE_BEFORE], cmp->boots[SIDE_AFTER]);
	for (s = 0; s < NR_SIDES; s++) {
		if (cmp->one_boot[s])
			print_footer_line(t->fmt, first,
					  "%s: its %zu loads all come from one boot (%s): one sample, not %zu; boot again between loads (kexec, make box) to judge",
					  side_names[s], cmp->loads[s],
					  cmp->one_boot[s], cmp->loads[s]);
		if (cmp->no_boot[s])
			print_footer_line(t->fmt, first,
					  "%s: %zu of %zu loads say no boot (no boot_id: line): each counted as a boot of its own",
					  side_names[s], cmp->no_boot[s],
					  cmp->loads[s]);
	}
}

static void print_footer(const struct table *t)
{
	const struct bench_set *set = t->set;
	const struct comparison *cmp = t->cmp;
	enum out_format fmt = t->fmt;
	const char *u = t->unit;
	const char *per = cmp->by_boot ? "boot" : "load";
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
	print_dropped(t, &first);
	print_footer_line(fmt, &first,
			  "loads: before %zu, after %zu; one value per test and load: %s (--load-stat %s)",
			  cmp->loads[SIDE_BEFORE], cmp->loads[SIDE_AFTER],
			  load_stat_words(cmp->load_stat),
			  cmp->load_stat == LOAD_MIN ? "min" : "median");
	print_boots(t, &first);
	ci = t->shown[COL_CI] ?
	     xasprintf("; CI: distribution-free %s%% interval of the %s shift",
		       t->level, u) : xstrdup("");
	print_footer_line(fmt, &first,
			  "before, after: medians over %ss; diff: Hodges-Lehmann shift after - before; %% change: %s diff in %% of %s before%s",
			  per, t->pct_unit, t->pct_unit, ci);
	free(ci);
	if (cmp->split)
		print_footer_line(fmt, &first,
				  "sd between boots, within boots: of the per-load %s/elem, one-way random effects, each side about its own mean; - where the loads cannot tell (within needs a boot of two loads, between also two boots on a side)",
				  u);
	if (cmp->figure != MET_CYCLES)
		print_footer_line(fmt, &first,
				  "figure: %s/elem, the PMU's count of the loading task (--figure %s); the cycle counter's, %s, with --figure tsc",
				  u, figure_names[cmp->figure],
				  clock_names[cmp->clock]);
	if (t->shown[COL_VERDICT] || !cmp->nr)
		print_footer_line(fmt, &first,
				  "verdict: two-sided Mann-Whitney U of the per-%s %s/elem, p adjusted by Holm-Bonferroni over the %zu row%s, family-wise alpha %g",
				  per, u, cmp->nr, cmp->nr == 1 ? "" : "s",
				  cmp->alpha);
	else if (cmp->rows[0].need)
		print_footer_line(fmt, &first,
				  "verdict: none: with these %ss no row can reach p < alpha / %zu (two-sided Mann-Whitney U of the per-%s %s/elem, Holm-Bonferroni, family-wise alpha %g); that takes %zu %s per side",
				  per, cmp->nr, per, u, cmp->alpha,
				  cmp->rows[0].need,
				  unit_name(cmp, cmp->rows[0].need));
	else
		print_footer_line(fmt, &first,
				  "verdict: none: no number of %ss can reach p < alpha / %zu (family-wise alpha %g over %zu rows)",
				  per, cmp->nr, cmp->alpha, cmp->nr);
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

/* The columns of a test's profile: one row per function that moved. */
enum prof_column {
	PCOL_FN,
	PCOL_BEFORE,		/* instructions */
	PCOL_AFTER,
	PCOL_DIFF,
	PCOL_DIFFS,		/* of the other counts, in their order */
	NR_PCOLS = PCOL_DIFFS + NR_PROF_COUNTS - 1,
};

/* Thousandths @x per element, as a count per element. */
static char *fmt_count(double x, int decimals, bool sign)
{
	return fmt_fixed(x / 1000, decimals, sign);
}

/* "instructions 78.002 -> 81.002, ...": the test's counts that moved. */
static char *moved_totals(const struct prof_cmp *pc)
{
	const struct prof_counts *t = &pc->total;
	struct sbuf b = { NULL };
	int c;

	for (c = 0; c < NR_PROF_COUNTS; c++) {
		char *x, *y;

		if (fabs(t->diff[c]) < PROF_MOVED_MILLI)
			continue;
		x = fmt_count(t->before[c], pc->decimals, false);
		y = fmt_count(t->after[c], pc->decimals, false);
		sbuf_addf(&b, "%s%s %s -> %s", b.len ? ", " : "",
			  prof_labels[c], x, y);
		free(x);
		free(y);
	}
	return b.len ? sbuf_take(&b) : xstrdup("no total moved");
}

/* The profile of row @r: its totals, then its functions that moved. */
static void print_prof_row(const struct row *r, enum out_format fmt)
{
	const struct prof_cmp *pc = r->prof;
	size_t width[NR_PCOLS], i;
	bool shown[NR_PCOLS], left[NR_PCOLS];
	char *head[NR_PCOLS], **cells, *totals;
	struct grid g = {
		.fmt = fmt,
		.nr = NR_PCOLS,
		.shown = shown,
		.left = left,
		.width = width,
	};
	bool sign = fmt != OUT_ORG;	/* as the row table's diffs */
	int c;

	totals = moved_totals(pc);
	printf("\n%s (%zu/%zu profiled loads): %s\n%s", r->test->name,
	       pc->loads[SIDE_BEFORE], pc->loads[SIDE_AFTER], totals,
	       fmt == OUT_MARKDOWN ? "\n" : "");
	free(totals);
	for (c = 0; c < NR_PCOLS; c++) {
		shown[c] = true;
		left[c] = c == PCOL_FN;
	}
	head[PCOL_FN] = xstrdup("function");
	head[PCOL_BEFORE] = xasprintf("%s before", prof_labels[PROF_INSNS]);
	head[PCOL_AFTER] = xasprintf("%s after", prof_labels[PROF_INSNS]);
	head[PCOL_DIFF] = xasprintf("%s diff", prof_labels[PROF_INSNS]);
	for (c = PROF_INSNS + 1; c < NR_PROF_COUNTS; c++)
		head[PCOL_DIFFS + c - 1] = xasprintf("%s diff", prof_labels[c]);
	cells = xcalloc(pc->nr_moved * NR_PCOLS, sizeof(*cells));
	for (i = 0; i < pc->nr_moved; i++) {
		const struct prof_moved *m = &pc->moved[i];
		char **cell = cells + i * NR_PCOLS;

		cell[PCOL_FN] = escape_cell(m->fn, fmt);
		cell[PCOL_BEFORE] = fmt_count(m->c.before[PROF_INSNS],
					      pc->decimals, false);
		cell[PCOL_AFTER] = fmt_count(m->c.after[PROF_INSNS],
					     pc->decimals, false);
		for (c = PROF_INSNS; c < NR_PROF_COUNTS; c++)
			cell[PCOL_DIFF + c] = fmt_count(m->c.diff[c],
							pc->decimals, sign);
	}
	fit_widths(&g, head, cells, pc->nr_moved, width);
	print_grid(&g, head, cells, pc->nr_moved);
	for (i = 0; i < pc->nr_moved * NR_PCOLS; i++)
		free(cells[i]);
	free(cells);
	for (c = 0; c < NR_PCOLS; c++)
		free(head[c]);
}

/* The caches a profiled load modelled, as its profile: line says. */
static const char *caches_of(const struct bench_set *set, const struct load *l)
{
	return l->caches ? set->caches.str[l->caches - 1] : "none";
}

/*
 * The profile section under the table, when a side has exact profiles:
 * per test with a function that moved, its totals and those functions;
 * otherwise one line that says why there is none.
 */
static void print_profiles(const struct bench_set *set,
			   const struct comparison *cmp, enum out_format fmt)
{
	const struct load * const *d = cmp->caches_differ;
	bool first = true;
	size_t i, n;
	int s;

	if (!cmp->prof_loads[SIDE_BEFORE] && !cmp->prof_loads[SIDE_AFTER])
		return;
	if (!cmp->prof_loads[SIDE_BEFORE] || !cmp->prof_loads[SIDE_AFTER]) {
		s = cmp->prof_loads[SIDE_BEFORE] ? SIDE_BEFORE : SIDE_AFTER;
		n = cmp->prof_loads[s];
		print_footer_line(fmt, &first,
				  "profile: only %s has an exact profile (QEMU -icount, tools/profile), in %zu load%s: nothing to compare",
				  side_names[s], n, n == 1 ? "" : "s");
		return;
	}
	if (!cmp->prof_moved_rows) {
		print_footer_line(fmt, &first,
				  "profile: no function moved (%zu test%s profiled on both sides)",
				  cmp->prof_rows, cmp->prof_rows == 1 ? "" : "s");
		return;
	}
	print_footer_line(fmt, &first,
			  "profile: the functions that moved, per element (exact profile: QEMU -icount, tools/profile)");
	for (i = 0; i < cmp->nr; i++) {
		if (cmp->rows[i].prof && cmp->rows[i].prof->nr_moved)
			print_prof_row(&cmp->rows[i], fmt);
	}
	first = true;
	print_footer_line(fmt, &first,
			  "profile: before, after: medians over each side's profiled loads (a function absent from a load counts 0 there); diff: after - before; %zu of the %zu tests profiled on both sides ha%s a function that moved",
			  cmp->prof_moved_rows, cmp->prof_rows,
			  cmp->prof_moved_rows == 1 ? "s" : "ve");
	print_footer_line(fmt, &first,
			  "profile: a function moved when any of its counts changed by 0.5 per element or more: a change of code moves instructions, loads, stores and atomics by whole events per element, interrupt work inside a measured window adds about 0.02");
	if (cmp->caches)
		print_footer_line(fmt, &first,
				  "profile: the misses are those of modelled caches %s (SIZE:WAYS, line size in bytes)",
				  cmp->caches);
	else if (d[0])
		print_footer_line(fmt, &first,
				  "profile: the loads modelled different caches (%s:%lu %s, %s:%lu %s): their misses do not compare",
				  d[0]->file, d[0]->line, caches_of(set, d[0]),
				  d[1]->file, d[1]->line, caches_of(set, d[1]));
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
		.unit = figure_unit(cmp->figure, cmp->clock),
		.pct_unit = cmp->clock == CLOCK_CYCLES &&
			    cmp->figure == MET_CYCLES ? "ns" :
			    figure_unit(cmp->figure, cmp->clock),
		.level = fmt_level(cmp->alpha),
	};

	print_env(set);
	pick_columns(&t);
	fill_table(&t);
	print_grid(&t.grid, t.head, t.cells, cmp->nr);
	print_tblfm(&t);
	print_footer(&t);
	free_table(&t);
	print_profiles(set, cmp, fmt);
}
