// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: reading input files into loads.
 *
 * Every input is split into loads, a load being one load of the module:
 * a results block (results.c) or the kernel log lines of one load
 * (dmesg.c). Loads never span files. Each load gives each test it ran
 * its repetitions per metric, kept as they are until the comparison.
 *
 * Input is hostile until parsed: every line the parsers read must be
 * complete (a newline at its end), hold no NUL byte and nothing that a
 * terminal would obey, and test names are 1 to TEST_NAME_MAX letters,
 * digits, "_" and "-". Anything
 * else is an error naming FILE:LINE, and any error means no table.
 *
 * Layer: above the parsers. It opens files and directories, reads their
 * lines and hands each to results.c, else dmesg.c (parsers.h); they and
 * it report through line.c, below them all.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "line.h"
#include "parsers.h"

/* A load without the PMU's figures that --figure asks for */
#define NO_PMU_FIGURES "%s:%lu: --figure %s: this load has no PMU figures for %zu of its %zu tests (%s)"

/*
 * One line of @len bytes as getline() gave it: its newline (and the CR
 * of a CRLF) taken off, refused if it holds a NUL byte, then read.
 */
static void parse_line(struct parse_ctx *ctx, char *line, size_t len)
{
	ctx->lineno++;
	ctx->line = line;
	if (strlen(line) != len) {
		parse_error(ctx, "NUL byte in the line");
		return;
	}
	ctx->cut = !len || line[len - 1] != '\n';
	if (!ctx->cut)
		line[--len] = '\0';
	if (len && line[len - 1] == '\r')
		line[--len] = '\0';
	if (!results_line(ctx, line))
		dmesg_line(ctx, line);
}

enum line_status {
	LINE_OK,	/* a line, or what a file without a last newline ends in */
	LINE_EOF,
	LINE_LONG,	/* longer than INPUT_LINE_MAX: the rest is not read */
	LINE_ERROR,	/* the stream failed: errno says why */
};

/*
 * The next line of @f into @buf (INPUT_LINE_MAX + 2 bytes), its newline
 * kept, its length in *@len. The buffer never grows: a line longer than
 * the limit is refused as soon as it is, so that /dev/zero or a line
 * without end costs 64 KiB and no more. A failed read is an error, never
 * an end of file, and what it cut is not read.
 */
static enum line_status next_line(FILE *f, char *buf, size_t *len)
{
	size_t n = 0;
	int c;

	while ((c = getc_unlocked(f)) != EOF) {
		buf[n++] = (char)c;
		if (c == '\n')
			break;
		if (n > INPUT_LINE_MAX)
			return LINE_LONG;
	}
	buf[n] = '\0';
	*len = n;
	if (c == EOF && ferror(f))
		return LINE_ERROR;
	return n ? LINE_OK : LINE_EOF;
}

/* Reads the lines of @f into @ctx, until its end or an error. */
static void read_lines(struct parse_ctx *ctx, FILE *f)
{
	char *line = xrealloc(NULL, INPUT_LINE_MAX + 2);
	enum line_status st;
	size_t len;

	while ((st = next_line(f, line, &len)) == LINE_OK) {
		parse_line(ctx, line, len);
		if (ctx->errors > MAX_ERRORS) {
			fprintf(stderr, PROG ": %s: too many errors, skipping the rest\n",
				ctx->file);
			break;
		}
	}
	if (st == LINE_LONG || st == LINE_ERROR) {
		/* errno first: reporting may call what sets it */
		const char *why = st == LINE_ERROR ? strerror(errno) : NULL;

		ctx->stopped = true;
		ctx->lineno++;
		if (why)
			parse_error(ctx, "read error: %s", why);
		else
			parse_error(ctx, "line longer than the limit of %d bytes: %s",
				    INPUT_LINE_MAX, "the rest of the file is not read");
	}
	free(line);
	results_end(ctx);
	dmesg_end(ctx);
}

/*
 * Reads the open stream @f, named @name in errors, as one input of
 * @side; 0, or -1 if it is bad. The caller closes @f.
 */
int read_stream(struct bench_set *set, enum side side, const char *name,
		FILE *f)
{
	size_t id = strtab_id(&set->paths, name, strlen(name), NULL);
	struct parse_ctx ctx = {
		.set = set,
		.side = side,
		.file = set->paths.str[id],
	};
	size_t i, before = set->nr_loads;
	bool blocks = false;

	read_lines(&ctx, f);
	if (ctx.errors)
		return -1;
	/* a results block whose tests were all skipped is a load too */
	for (i = before; i < set->nr_loads; i++)
		blocks |= !set->loads[i].dmesg;
	if (!ctx.samples && !blocks) {
		fprintf(stderr, PROG ": no benchmark results in %s\n", ctx.file);
		return -1;
	}
	return 0;
}

/* Reads one file ("-": standard input); 0, or -1 if it is bad. */
static int read_file(struct bench_set *set, enum side side, const char *path)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *f;
	int ret;

	f = is_stdin ? stdin : fopen(path, "r");
	if (!f) {
		fprintf(stderr, PROG ": %s: cannot open: %s\n", path,
			strerror(errno));
		return -1;
	}
	ret = read_stream(set, side, is_stdin ? "<stdin>" : path, f);
	if (!is_stdin)
		fclose(f);
	return ret;
}

static bool is_results_name(const char *name)
{
	size_t n = strlen(name), m = strlen(RESULTS_SUFFIX);

	return name[0] != '.' && n > m && !strcmp(name + n - m, RESULTS_SUFFIX);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* The names of the results files in @dir, sorted, *@nr; -1 on error. */
static int results_names(const char *dir, char ***names, size_t *nr)
{
	struct dirent *e;
	char **v = NULL;
	size_t n = 0;
	DIR *d = opendir(dir);

	if (!d) {
		fprintf(stderr, PROG ": %s: cannot open: %s\n", dir,
			strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (!is_results_name(e->d_name))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (!n)
		fprintf(stderr, PROG ": %s: no *%s file in the directory\n", dir,
			RESULTS_SUFFIX);
	else
		qsort(v, n, sizeof(*v), cmp_names);
	*names = v;
	*nr = n;
	return n ? 0 : -1;
}

/* Whether a load from @first on was read from kernel log lines. */
static bool has_dmesg_load(const struct bench_set *set, size_t first)
{
	size_t i;

	for (i = first; i < set->nr_loads; i++) {
		if (set->loads[i].dmesg)
			return true;
	}
	return false;
}

/*
 * A directory as one side: each regular file named *.results in it, in
 * the order of their names, gives its results blocks, each one load, as
 * a file named on the command line does. Other names are not read. 0, or -1 if any is bad.
 */
static int read_dir(struct bench_set *set, enum side side, const char *dir)
{
	size_t i, n = 0, before;
	char **names = NULL;
	struct stat st;
	int ret = results_names(dir, &names, &n);

	for (i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);

		before = set->nr_loads;
		if (stat(path, &st) || !S_ISREG(st.st_mode)) {
			fprintf(stderr, PROG ": %s: not a regular file\n", path);
			ret = -1;
		} else if (read_file(set, side, path)) {
			ret = -1;
		} else if (has_dmesg_load(set, before)) {
			complain("%s: %s", path,
				 "a kernel log, not a results file: a directory holds results files");
			ret = -1;
		}
		free(path);
		free(names[i]);
	}
	free(names);
	return ret;
}

/*
 * Reads one input: a file ("-": standard input) or a directory of
 * results files; 0, or -1 if it is bad.
 */
int read_input(struct bench_set *set, enum side side, const char *path)
{
	struct stat st;

	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode))
		return read_dir(set, side, path);
	return read_file(set, side, path);
}

static void prof_side_free(struct prof_side *ps)
{
	size_t i;

	for (i = 0; i < ps->nr; i++)
		free(ps->loads[i].fns);
	free(ps->loads);
}

void free_set(struct bench_set *set)
{
	size_t i;
	int s, m;

	for (i = 0; i < set->nr; i++) {
		for (s = 0; s < NR_SIDES; s++) {
			for (m = 0; m < NR_METRICS; m++)
				series_free(&set->tests[i].val[s][m]);
			prof_side_free(&set->tests[i].prof[s]);
		}
	}
	for (i = 0; i < set->skipped.nr; i++)
		free(set->skip_reasons[i]);
	free(set->skip_reasons);
	strtab_free(&set->skipped);
	free(set->tests);
	free(set->loads);
	strtab_free(&set->names);
	strtab_free(&set->env_keys);
	strtab_free(&set->env_vals);
	strtab_free(&set->envs);
	strtab_free(&set->paths);
	strtab_free(&set->fns);
	strtab_free(&set->caches);
	strtab_free(&set->boots);
	memset(set, 0, sizeof(*set));
}

/*
 * Numbers of two clocks cannot be compared: every load with values must
 * have the same clock, which becomes the set's. 0, or -1 after saying
 * which two loads differ, in one line.
 */
int check_clocks(struct bench_set *set)
{
	const struct load *first = NULL;
	size_t i;

	for (i = 0; i < set->nr_loads; i++) {
		const struct load *l = &set->loads[i];

		if (!l->values)
			continue;
		if (!first) {
			first = l;
			set->clock = l->clock;
		} else if (l->clock != first->clock) {
			complain("%s: %s:%lu counts %s, %s:%lu %s",
				 "loads of different clocks cannot be compared",
				 first->file, first->line,
				 clock_names[first->clock], l->file, l->line,
				 clock_names[l->clock]);
			return -1;
		}
	}
	return 0;
}

/*
 * A figure of the PMU (--figure core-cycles or instructions) is in
 * every test of every load with values, or there is no comparison of
 * it: 0, or -1 after naming the first load without it, in one line.
 */
int check_figure(const struct bench_set *set, enum metric figure)
{
	size_t i;

	if (figure != MET_CORE_CYCLES && figure != MET_PMU_INSNS)
		return 0;
	for (i = 0; i < set->nr_loads; i++) {
		const struct load *l = &set->loads[i];

		if (l->values == l->pmu_values)
			continue;
		complain(NO_PMU_FIGURES,
			 l->file, l->line, figure_names[figure],
			 l->values - l->pmu_values, l->values,
			 l->dmesg ? "a kernel log has none" :
			 "pmu=-: the module counted no PMU events here, as in an emulated guest");
		return -1;
	}
	return 0;
}
