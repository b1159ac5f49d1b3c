// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: the picture (--plot FILE.svg or FILE.png), drawn by
 * gnuplot.
 *
 * One column per row of the table: each side's per-load cycles/elem as
 * points, before on the left, after on the right, and each side's median
 * as a bar. Values are in percent of the before median, so that tests of
 * 100 and of 30000 cycles share one axis and a shift reads as a percent.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_compare.h"

#define PLOT_OFFSET	0.2	/* of each side from the test's column */
#define PLOT_LOG_SPAN	4	/* largest / smallest value: log scale above */

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/* The output format follows the name: ".svg" or ".png". */
bool plot_path_ok(const char *path)
{
	return has_suffix(path, ".svg") || has_suffix(path, ".png");
}

/* gnuplot is an executable file in one of the directories of $PATH. */
bool plot_tool_found(void)
{
	const char *path = getenv("PATH");
	char *dirs, *dir, *save;
	bool found = false;

	if (!path)
		return false;
	dirs = xstrdup(path);
	for (dir = strtok_r(dirs, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *exe = xasprintf("%s/gnuplot", *dir ? dir : ".");

		found = !access(exe, X_OK);
		free(exe);
	}
	free(dirs);
	return found;
}

/* @s inside a gnuplot double-quoted string: no quote, no backslash. */
static void put_label(FILE *gp, const char *s)
{
	for (; *s; s++)
		fputc(*s == '"' || *s == '\\' ? '_' : *s, gp);
}

/* The datablock $LOADS: x y side, one line per load and side. */
static void put_points(FILE *gp, const struct comparison *cmp)
{
	size_t i, j;
	int s;

	fputs("$LOADS << EOD\n", gp);
	for (i = 0; i < cmp->nr; i++) {
		const struct row *r = &cmp->rows[i];
		double ref = r->m[MET_CYCLES].before;

		for (s = 0; s < NR_SIDES; s++) {
			const struct vec *v = &r->test->val[s][MET_CYCLES];
			double x = (double)i + (s ? PLOT_OFFSET : -PLOT_OFFSET);

			for (j = 0; j < v->n; j++)
				fprintf(gp, "%g %.6g %d\n", x,
					ref ? v->v[j] / ref * 100 : 0, s);
		}
	}
	fputs("EOD\n$MEDIANS << EOD\n", gp);
	for (i = 0; i < cmp->nr; i++) {
		const struct metric_cmp *mc = &cmp->rows[i].m[MET_CYCLES];

		fprintf(gp, "%zu 100 %.6g\n", i,
			mc->before ? mc->after / mc->before * 100 : 0);
	}
	fputs("EOD\n", gp);
}

/* The smallest and largest value plotted, in % of before; false if none. */
static bool plot_range(const struct comparison *cmp, double *plo, double *phi)
{
	double lo = INFINITY, hi = 0, y;
	size_t i, j;
	int s;

	for (i = 0; i < cmp->nr; i++) {
		const struct row *r = &cmp->rows[i];

		for (s = 0; s < NR_SIDES; s++) {
			const struct vec *v = &r->test->val[s][MET_CYCLES];

			for (j = 0; j < v->n && r->m[MET_CYCLES].before > 0; j++) {
				y = v->v[j] / r->m[MET_CYCLES].before * 100;
				if (y > 0 && y < lo)
					lo = y;
				if (y > hi)
					hi = y;
			}
		}
	}
	*plo = lo;
	*phi = hi;
	return hi > 0 && isfinite(lo);
}

static void put_script(FILE *gp, const struct comparison *cmp,
		       const char *path)
{
	size_t i, width = 320 + 70 * cmp->nr;
	double lo, hi;

	if (has_suffix(path, ".svg"))
		fprintf(gp, "set terminal svg size %zu,560 dynamic background rgb 'white'\n",
			width);
	else
		fprintf(gp, "set terminal pngcairo size %zu,560\n", width);
	fputs("set output \"", gp);
	put_label(gp, path);
	fputs("\"\nset termoption noenhanced\n", gp);
	put_points(gp, cmp);
	fprintf(gp,
		"set title \"cycles/elem of each load, in %% of the before median (%s of each load)\"\n",
		cmp->load_stat == LOAD_MIN ? "cheapest repetition" :
					     "median repetition");
	fputs("set ylabel \"% of before median\"\n"
	      "set offsets 0, 0, graph 0.05, graph 0.05\n"
	      "set grid ytics\n", gp);
	/* a tenfold change would flatten all the others on a linear axis */
	if (plot_range(cmp, &lo, &hi) && hi / lo > PLOT_LOG_SPAN)
		fprintf(gp, "set logscale y\nset yrange [%g:%g]\n", lo / 1.25,
			hi * 1.25);
	fputs("set key outside top center horizontal\n"
	      "set bmargin 14\n"
	      "set xtics rotate by -40 left nomirror\n", gp);
	fprintf(gp, "set xrange [-0.6:%zu.6]\n", cmp->nr ? cmp->nr - 1 : 0);
	fputs("set xtics (", gp);
	for (i = 0; i < cmp->nr; i++) {
		fputs(i ? ", \"" : "\"", gp);
		put_label(gp, cmp->rows[i].test->name);
		fprintf(gp, "\" %zu", i);
	}
	fputs(")\n", gp);
	fprintf(gp,
		"plot $LOADS using 1:($3 == 0 ? $2 : NaN) with points pt 6 ps 0.8 lc rgb '#1f77b4' title 'before, per load', \\\n"
		"     $LOADS using 1:($3 == 1 ? $2 : NaN) with points pt 4 ps 0.8 lc rgb '#d62728' title 'after, per load', \\\n"
		"     $MEDIANS using ($1 - %g):2:(0.15):(0) with vectors nohead lw 3 lc rgb '#1f77b4' title 'before median', \\\n"
		"     $MEDIANS using ($1 + %g):3:(0.15):(0) with vectors nohead lw 3 lc rgb '#d62728' title 'after median'\n",
		PLOT_OFFSET + 0.075, PLOT_OFFSET - 0.075);
}

/* Draws @cmp into @path; 0, or -1 with the reason on stderr. */
int plot_write(const struct comparison *cmp, const char *path)
{
	struct stat st;
	FILE *gp;
	int status;

	if (!cmp->nr) {
		fprintf(stderr, PROG ": --plot %s: no test present on both sides\n",
			path);
		return -1;
	}
	if (remove(path) && errno != ENOENT) {
		fprintf(stderr, PROG ": --plot %s: cannot replace: %s\n", path,
			strerror(errno));
		return -1;
	}
	fflush(NULL);
	gp = popen("gnuplot", "w");
	if (!gp) {
		fprintf(stderr, PROG ": --plot: cannot run gnuplot: %s\n",
			strerror(errno));
		return -1;
	}
	put_script(gp, cmp, path);
	status = pclose(gp);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) ||
	    stat(path, &st) || !st.st_size) {
		fprintf(stderr, PROG ": --plot %s: gnuplot failed to draw it\n",
			path);
		return -1;
	}
	return 0;
}
