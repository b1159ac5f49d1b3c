// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: the picture (--plot FILE.svg or FILE.png), drawn by
 * gnuplot.
 *
 * One column per row of the table: each side's per-load cycles/elem (or
 * instructions/elem, as the clock of the loads says) as
 * points, before on the left, after on the right, and each side's median
 * as a bar. Values are in percent of the before median, so that tests of
 * 100 and of 30000 cycles share one axis and a shift reads as a percent.
 *
 * Nothing that came from the input is ever part of gnuplot's script:
 * gnuplot expands backquotes and macros in its commands, so test names
 * travel in data files, which it reads as data, and the output path is
 * never named to it at all. It runs in a private temporary directory
 * and writes the picture to its standard output, a temporary file
 * beside @path that replaces @path only once the picture is complete.
 *
 * Layer: an output, called by main.c; it calls util.c only.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_compare.h"

#define PLOT_OFFSET	0.2	/* of each side from the test's column */
#define PLOT_LOG_SPAN	4	/* largest / smallest value: log scale above */
/*
 * Width: PLOT_MARGIN_PX and PLOT_ROW_PX a row, at most PLOT_MAX_PX (what
 * cairo draws: pngcairo fails beyond it, at 467 rows); more rows get
 * fewer pixels and a smaller font for their names, down to PLOT_MIN_ROW_PX.
 */
#define PLOT_MARGIN_PX	320
#define PLOT_ROW_PX	70
#define PLOT_MIN_ROW_PX	8
#define PLOT_MAX_PX	32767
#define PLOT_MAX_ROWS	((PLOT_MAX_PX - PLOT_MARGIN_PX) / PLOT_MIN_ROW_PX)
#define PLOT_POINTS	"points.dat"
#define PLOT_MEDIANS	"medians.dat"

/* What a signal must not leave behind: async-signal-safe to remove. */
static char *plot_tmp_dir;
static char *plot_tmp_files[2];
static char *plot_tmp_out;

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

static void plot_remove_temporaries(void)
{
	size_t i;

	if (plot_tmp_out)
		unlink(plot_tmp_out);
	for (i = 0; i < ARRAY_SIZE(plot_tmp_files); i++) {
		if (plot_tmp_files[i])
			unlink(plot_tmp_files[i]);
	}
	if (plot_tmp_dir)
		rmdir(plot_tmp_dir);
}

static void plot_on_signal(int sig)
{
	plot_remove_temporaries();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void plot_catch_signals(void (*handler)(int))
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], handler);
}

static void plot_forget_temporaries(void)
{
	size_t i;

	plot_catch_signals(SIG_DFL);
	free(plot_tmp_out);
	for (i = 0; i < ARRAY_SIZE(plot_tmp_files); i++)
		free(plot_tmp_files[i]);
	free(plot_tmp_dir);
	plot_tmp_out = NULL;
	memset(plot_tmp_files, 0, sizeof(plot_tmp_files));
	plot_tmp_dir = NULL;
}

/*
 * gnuplot reads a data field that begins with a double quote as a
 * quoted string and drops backslashes: such a name would be drawn as
 * another one. Names never contain white space (the parsers split on
 * it), so anything else reaches the picture as it is.
 */
static bool plot_names_ok(const struct comparison *cmp)
{
	size_t i;

	for (i = 0; i < cmp->nr; i++) {
		const char *name = cmp->rows[i].test->name;

		if (strpbrk(name, "\"\\")) {
			fprintf(stderr, PROG ": --plot: test name '%s' cannot be drawn: %s\n",
				name, "it holds '\"' or '\\'");
			return false;
		}
	}
	return true;
}

/* x y side: one line per unit and side, in % of the before median. */
static void put_points(FILE *f, const struct comparison *cmp)
{
	size_t i, j;
	int s;

	for (i = 0; i < cmp->nr; i++) {
		const struct row *r = &cmp->rows[i];
		double ref = r->m[cmp->figure].before;

		for (s = 0; s < NR_SIDES; s++) {
			const struct vec *v = &r->m[cmp->figure].v[s];
			double x = (double)i + (s ? PLOT_OFFSET : -PLOT_OFFSET);

			for (j = 0; j < v->n; j++) {
				double y = ref ? v->v[j] / ref * 100 : 0;

				if (isfinite(y))
					fprintf(f, "%g %.6g %d\n", x, y, s);
			}
		}
	}
}

/* x 100 after-median name: one line per row; the name labels the x axis. */
static void put_medians(FILE *f, const struct comparison *cmp)
{
	size_t i;

	for (i = 0; i < cmp->nr; i++) {
		const struct metric_cmp *mc = &cmp->rows[i].m[cmp->figure];
		double y = mc->before ? mc->after / mc->before * 100 : 0;

		fprintf(f, "%zu 100 %.6g %s\n", i, isfinite(y) ? y : 0,
			cmp->rows[i].test->name);
	}
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
			const struct vec *v = &r->m[cmp->figure].v[s];

			for (j = 0; j < v->n && r->m[cmp->figure].before > 0; j++) {
				y = v->v[j] / r->m[cmp->figure].before * 100;
				if (!isfinite(y))
					continue;
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

/* The pixels of a row: PLOT_ROW_PX, fewer if that is too wide. */
static size_t plot_row_px(size_t nr)
{
	size_t fit = nr ? (PLOT_MAX_PX - PLOT_MARGIN_PX) / nr : PLOT_ROW_PX;

	return fit < PLOT_ROW_PX ? fit : PLOT_ROW_PX;
}

/* The script: only the program's own words and numbers. */
static void put_script(FILE *gp, const struct comparison *cmp, bool svg)
{
	size_t row_px = plot_row_px(cmp->nr);
	size_t width = PLOT_MARGIN_PX + row_px * cmp->nr;
	double lo, hi;

	if (width < 640)
		width = 640;
	if (svg)
		fprintf(gp, "set terminal svg size %zu,560 dynamic background rgb 'white'\n",
			width);
	else
		fprintf(gp, "set terminal pngcairo size %zu,560\n", width);
	fputs("set termoption noenhanced\n", gp);
	/* names at most as high as their column is wide, 12 points */
	if (row_px < 20)
		fprintf(gp, "set xtics font \",%zu\"\n",
			row_px * 3 / 5 < 4 ? 4 : row_px * 3 / 5);
	fprintf(gp,
		"set title \"%s/elem of each %s, in %% of the before median (%s of each load)\"\n",
		figure_unit(cmp->figure, cmp->clock), unit_name(cmp, 1),
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
	fprintf(gp,
		"plot '%s' using 1:($3 == 0 ? $2 : NaN) with points pt 6 ps 0.8 lc rgb '#1f77b4' title 'before, per load', \\\n"
		"     '%s' using 1:($3 == 1 ? $2 : NaN) with points pt 4 ps 0.8 lc rgb '#d62728' title 'after, per load', \\\n"
		"     '%s' using ($1 - %g):2:(0.15):(0):xticlabels(4) with vectors nohead lw 3 lc rgb '#1f77b4' title 'before median', \\\n"
		"     '%s' using ($1 + %g):3:(0.15):(0) with vectors nohead lw 3 lc rgb '#d62728' title 'after median'\n",
		PLOT_POINTS, PLOT_POINTS, PLOT_MEDIANS, PLOT_OFFSET + 0.075,
		PLOT_MEDIANS, PLOT_OFFSET - 0.075);
}

/* Writes @name in the private directory with @put; false on failure. */
static bool plot_data_file(size_t slot, const char *name,
			   void (*put)(FILE *f, const struct comparison *cmp),
			   const struct comparison *cmp)
{
	FILE *f;
	int fd;

	plot_tmp_files[slot] = xasprintf("%s/%s", plot_tmp_dir, name);
	fd = open(plot_tmp_files[slot], O_WRONLY | O_CREAT | O_EXCL, 0600);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	put(f, cmp);
	return !fclose(f);
}

/*
 * Runs gnuplot in the private directory with the script on its standard
 * input and @out_fd as its standard output; true if it drew something.
 */
static bool plot_run_gnuplot(const struct comparison *cmp, bool svg,
			     int out_fd)
{
	int pipefd[2], status;
	struct stat st;
	pid_t pid;
	FILE *gp;

	if (pipe(pipefd))
		return false;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return false;
	}
	if (!pid) {
		plot_catch_signals(SIG_DFL);
		if (chdir(plot_tmp_dir) || dup2(pipefd[0], 0) < 0 ||
		    dup2(out_fd, 1) < 0)
			_exit(127);
		close(pipefd[0]);
		close(pipefd[1]);
		close(out_fd);
		execlp("gnuplot", "gnuplot", (char *)NULL);
		_exit(127);
	}
	close(pipefd[0]);
	gp = fdopen(pipefd[1], "w");
	if (gp) {
		/* a gnuplot that dies early must not kill us with SIGPIPE */
		signal(SIGPIPE, SIG_IGN);
		put_script(gp, cmp, svg);
		fclose(gp);
		signal(SIGPIPE, plot_on_signal);
	} else {
		close(pipefd[1]);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return false;
	}
	return gp && WIFEXITED(status) && !WEXITSTATUS(status) &&
	       !fstat(out_fd, &st) && st.st_size > 0;
}

/* An existing @path may be replaced only if it is a regular file. */
static bool plot_target_ok(const char *path)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return true;
		fprintf(stderr, PROG ": --plot %s: %s\n", path, strerror(errno));
		return false;
	}
	if (S_ISREG(st.st_mode))
		return true;
	fprintf(stderr, PROG ": --plot %s: exists and is not a regular file; not replaced\n",
		path);
	return false;
}

/* A new file in @path's directory that rename() can move onto @path. */
static int plot_open_output(const char *path)
{
	const char *slash = strrchr(path, '/');
	int fd;

	if (slash)
		plot_tmp_out = xasprintf("%.*s/.bench-compare-plot.XXXXXX",
					 (int)(slash - path), path);
	else
		plot_tmp_out = xstrdup(".bench-compare-plot.XXXXXX");
	fd = mkstemp(plot_tmp_out);
	if (fd < 0) {
		fprintf(stderr, PROG ": --plot %s: cannot create a file there: %s\n",
			path, strerror(errno));
		free(plot_tmp_out);
		plot_tmp_out = NULL;
	}
	return fd;
}

/* The mode a new file gets: 0666 less the umask. */
static mode_t plot_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/*
 * Draws @cmp into @path; 0, or -1 with the reason on stderr. Nothing is
 * left behind on failure, and @path is only ever replaced whole.
 */
int plot_write(const struct comparison *cmp, const char *path)
{
	const char *tmp = getenv("TMPDIR");
	bool ok = false;
	int out_fd;

	if (!cmp->nr) {
		fprintf(stderr, PROG ": --plot %s: no test present on both sides\n",
			path);
		return -1;
	}
	if (cmp->nr > PLOT_MAX_ROWS) {
		fprintf(stderr, PROG ": --plot %s: %zu rows %s (at most %d: %d %s, %d wide)\n",
			path, cmp->nr, "do not fit in one picture", PLOT_MAX_ROWS,
			PLOT_MIN_ROW_PX, "pixels a row", PLOT_MAX_PX);
		return -1;
	}
	if (!plot_names_ok(cmp) || !plot_target_ok(path))
		return -1;
	plot_catch_signals(plot_on_signal);
	out_fd = plot_open_output(path);
	if (out_fd < 0)
		goto out;
	plot_tmp_dir = xasprintf("%s/bench-compare.XXXXXX",
				 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(plot_tmp_dir)) {
		fprintf(stderr, PROG ": --plot: cannot make a temporary directory: %s\n",
			strerror(errno));
		free(plot_tmp_dir);
		plot_tmp_dir = NULL;
		goto out_fd;
	}
	if (!plot_data_file(0, PLOT_POINTS, put_points, cmp) ||
	    !plot_data_file(1, PLOT_MEDIANS, put_medians, cmp)) {
		fprintf(stderr, PROG ": --plot: cannot write its data: %s\n",
			strerror(errno));
		goto out_fd;
	}
	if (!plot_run_gnuplot(cmp, has_suffix(path, ".svg"), out_fd)) {
		fprintf(stderr, PROG ": --plot %s: gnuplot failed to draw it\n",
			path);
		goto out_fd;
	}
	if (fchmod(out_fd, plot_file_mode()) ||
	    rename(plot_tmp_out, path)) {
		fprintf(stderr, PROG ": --plot %s: cannot put it in place: %s\n",
			path, strerror(errno));
		goto out_fd;
	}
	free(plot_tmp_out);
	plot_tmp_out = NULL;
	ok = true;
out_fd:
	close(out_fd);
out:
	plot_remove_temporaries();
	plot_forget_temporaries();
	return ok ? 0 : -1;
}
