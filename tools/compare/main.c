// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: the command line: its options, then the flow from
 * reading the inputs to the table and the exit status. Its help text
 * is help.c's; "bench-compare --help" tells the rest.
 *
 * Layer: the top; it calls input.c, compare.c, the output files and
 * help.c, and nothing calls it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

/* -f kcidb's values are the cycle counter's, per load */
#define KCIDB_ONE_FIGURE "-f kcidb writes the cycle counter's per-load values: no --figure or --unit"

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	print_usage(stderr);
	fputs("Try '" PROG " --help' for more.\n", stderr);
	return 2;
}

/*
 * The value of option @opt (long "--name" or short "-f") at argv[*i]:
 * "--name=V", "--name V", "-fV" or "-f V". NULL if the argument is not
 * this option; sets *@missing if it is but the value is missing.
 */
static const char *opt_value(char **argv, int argc, int *i, const char *opt,
			     bool *missing)
{
	const char *a = argv[*i];
	size_t len = strlen(opt);

	if (strncmp(a, opt, len))
		return NULL;
	if (a[len] == '=' && opt[1] == '-')
		return a + len + 1;
	if (a[len] && opt[1] == '-')
		return NULL;
	if (a[len])
		return a + len;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

struct options {
	enum out_format fmt;
	double alpha;
	double fail_above;	/* NAN: not given */
	enum load_stat load_stat;
	enum metric figure;	/* what the verdict is of */
	enum unit unit;		/* the unit of replication */
	const char *plot;	/* NULL: no picture */
	bool dry_run;		/* check the options, read nothing */
	bool check;		/* read the files, print nothing */
	struct kcidb_opts kcidb;
	char **files[NR_SIDES];
	int nr_files[NR_SIDES];
};

static int opt_format(struct options *o, const char *v)
{
	static const struct {
		const char *name;
		enum out_format fmt;
	} formats[] = {
		{ "text", OUT_TEXT }, { "markdown", OUT_MARKDOWN },
		{ "md", OUT_MARKDOWN }, { "org", OUT_ORG }, { "json", OUT_JSON },
		{ "kcidb", OUT_KCIDB },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		if (!strcmp(v, formats[i].name)) {
			o->fmt = formats[i].fmt;
			return 0;
		}
	}
	return usage_error("unknown format '%s' (text, markdown, org, json or kcidb)",
			   v);
}

static int opt_alpha(struct options *o, const char *v)
{
	char *end;

	o->alpha = strtod(v, &end);
	if (!*v || *end || !(o->alpha > 0 && o->alpha < 1))
		return usage_error("bad --alpha '%s': need 0 < A < 1", v);
	if (o->alpha < ALPHA_MIN)
		return usage_error("bad --alpha '%s': the smallest accepted is "
				   ALPHA_MIN_STR, v);
	return 0;
}

static int opt_fail_above(struct options *o, const char *v)
{
	char *end;

	o->fail_above = strtod(v, &end);
	if (!*v || *end || !(o->fail_above >= 0) || !isfinite(o->fail_above))
		return usage_error("bad --fail-above '%s': need a percentage >= 0",
				   v);
	return 0;
}

static int opt_load_stat(struct options *o, const char *v)
{
	if (load_stat_parse(v, &o->load_stat))
		return usage_error("bad --load-stat '%s': min or median", v);
	return 0;
}

/* --figure tsc|core-cycles|instructions: what the verdict is of. */
static int opt_figure(struct options *o, const char *v)
{
	int m;

	for (m = 0; m < NR_METRICS; m++) {
		if (figure_names[m] && !strcmp(v, figure_names[m])) {
			o->figure = (enum metric)m;
			return 0;
		}
	}
	return usage_error("bad --figure '%s': tsc, core-cycles or instructions",
			   v);
}

/* --unit auto|boot|load: what one sample of the verdict is. */
static int opt_unit(struct options *o, const char *v)
{
	static const char * const names[] = {
		[UNIT_AUTO] = "auto", [UNIT_BOOT] = "boot", [UNIT_LOAD] = "load",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(v, names[i])) {
			o->unit = (enum unit)i;
			return 0;
		}
	}
	return usage_error("bad --unit '%s': auto, boot or load", v);
}

static int opt_plot(struct options *o, const char *v)
{
	if (!plot_path_ok(v))
		return usage_error("bad --plot '%s': the name must end in .svg or .png",
				   v);
	o->plot = v;
	return 0;
}

/* A KCIDB origin: what KCIDB's schema takes, [a-z0-9_]+. */
static int opt_origin(struct options *o, const char *v)
{
	if (!*v || strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
		   strlen(v))
		return usage_error("bad --origin '%s': a-z, 0-9 and _ only", v);
	o->kcidb.origin = v;
	return 0;
}

/* A full git commit id: 40 lowercase hex digits. */
static int opt_commit(struct options *o, const char *v)
{
	if (strlen(v) != 40 || strspn(v, "0123456789abcdef") != 40)
		return usage_error("bad --commit '%s': 40 lowercase hex digits",
				   v);
	o->kcidb.commit = v;
	return 0;
}

static int opt_commit_name(struct options *o, const char *v)
{
	o->kcidb.commit_name = v;
	return 0;
}

/* The options with a value: long name, short name or NULL, handler. */
static const struct {
	const char *name;
	const char *short_name;
	int (*apply)(struct options *o, const char *v);
} value_options[] = {
	{ "--format", "-f", opt_format },
	{ "--alpha", NULL, opt_alpha },
	{ "--fail-above", NULL, opt_fail_above },
	{ "--load-stat", NULL, opt_load_stat },
	{ "--figure", NULL, opt_figure },
	{ "--unit", NULL, opt_unit },
	{ "--plot", NULL, opt_plot },
	{ "--origin", NULL, opt_origin },
	{ "--commit", NULL, opt_commit },
	{ "--commit-name", NULL, opt_commit_name },
};

/* Applies option argv[*i] (and its value); 0, or 2 after a usage error. */
static int parse_option(int argc, char **argv, int *i, struct options *o)
{
	const char *a = argv[*i], *v = NULL;
	bool missing = false;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(value_options) && !v && !missing; k++) {
		v = opt_value(argv, argc, i, value_options[k].name, &missing);
		if (!v && !missing && value_options[k].short_name)
			v = opt_value(argv, argc, i, value_options[k].short_name,
				      &missing);
		if (v)
			return value_options[k].apply(o, v);
	}
	if (missing)
		return usage_error("option '%s' needs a value", a);
	return usage_error("unknown option '%s'", a);
}

/*
 * Options may come anywhere before "--"; the other arguments there are
 * files. 0 to go on, 1 if the help was printed, 2 on a usage error.
 * argv is reordered: the before files first.
 */
static int parse_args(int argc, char **argv, struct options *o)
{
	int i, nr = 0, dashdash = -1, stdin_uses = 0, ret;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			dashdash = i;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_help(stdout);
			return 1;
		}
		if (!strcmp(a, "--dry-run")) {
			o->dry_run = true;
			continue;
		}
		if (!strcmp(a, "--check")) {
			o->check = true;
			continue;
		}
		if (a[0] == '-' && a[1]) {
			ret = parse_option(argc, argv, &i, o);
			if (ret)
				return ret;
			continue;
		}
		argv[1 + nr++] = argv[i];	/* files move down */
	}
	o->files[SIDE_BEFORE] = argv + 1;
	/* KCIDB takes the counter's per-load values: no other figure */
	if (o->fmt == OUT_KCIDB &&
	    (o->figure != MET_CYCLES || o->unit != UNIT_AUTO))
		return usage_error("%s", KCIDB_ONE_FIGURE);
	if (o->dry_run)
		return 0;
	if (o->check || o->fmt == OUT_KCIDB) {
		/* one side, the files that are its loads */
		if (dashdash >= 0 || !nr)
			return usage_error("%s", o->check ?
					   "--check reads FILE...: no --" :
					   "-f kcidb reads one side, FILE...: no --");
		o->nr_files[SIDE_BEFORE] = nr;
	} else if (dashdash < 0) {
		if (nr != 2)
			return usage_error("%s", nr < 2 ?
					   "need a BEFORE and an AFTER file" :
					   "more than two files: separate BEFORE... and AFTER... with --");
		o->nr_files[SIDE_BEFORE] = 1;
		o->files[SIDE_AFTER] = argv + 2;
		o->nr_files[SIDE_AFTER] = 1;
	} else {
		o->nr_files[SIDE_BEFORE] = nr;
		o->files[SIDE_AFTER] = argv + dashdash + 1;
		o->nr_files[SIDE_AFTER] = argc - dashdash - 1;
		if (!nr)
			return usage_error("%s", "no BEFORE file before --");
		if (dashdash == argc - 1)
			return usage_error("%s", "no AFTER file after --");
	}
	for (ret = 0; ret < NR_SIDES; ret++) {
		for (i = 0; i < o->nr_files[ret]; i++)
			stdin_uses += !strcmp(o->files[ret][i], "-");
	}
	if (stdin_uses > 1)
		return usage_error("%s", "standard input ('-') given twice");
	return 0;
}

/*
 * Why row @r, which has a verdict, has no % change for --fail-above to
 * judge: a figure its loads did not all carry, none at all, or 0 before.
 */
static char *no_pct_reason(const struct comparison *cmp, const struct row *r)
{
	const char *unit = figure_unit(r->pct_of, cmp->clock);

	if (r->ns_dropped)
		return ns_dropped_note(r);
	if (!r->m[r->pct_of].have)
		return xasprintf("no %s/elem in its loads", unit);
	return xasprintf("%s before is 0", unit);
}

/* A row with a verdict: 1, said on stderr, if it regressed beyond @limit. */
static int gate_row(const struct comparison *cmp, const struct row *r,
		    double limit)
{
	char *pct;

	if (r->verdict != VERDICT_CHANGE || !(r->pct > limit))
		return 0;
	pct = fmt_pct(r->pct);
	fprintf(stderr,
		PROG ": regression above %g%%: %s %s/elem %s (p=%.3g after Holm)\n",
		limit, r->test->name, figure_unit(r->pct_of, cmp->clock),
		pct, r->p_adj);
	free(pct);
	return 1;
}

/*
 * --fail-above: 1 if a row regressed beyond @limit with a "change"
 * verdict, and 1 too if no row could be judged: a gate that checked
 * nothing must not pass. A row without a % change of all its loads is
 * not judged, and says why. Each finding is one line on stderr.
 */
static int gate_fail_above(const struct comparison *cmp, double limit)
{
	size_t i, judged = 0, na = 0;
	int ret = 0;

	for (i = 0; i < cmp->nr; i++) {
		const struct row *r = &cmp->rows[i];
		char *why;

		if (r->verdict == VERDICT_NA) {
			na++;
			continue;
		}
		if (isnan(r->pct)) {
			why = no_pct_reason(cmp, r);
			fprintf(stderr, PROG ": --fail-above %g: %s not judged: %s (%s)\n",
				limit, r->test->name, "no % change", why);
			free(why);
			continue;
		}
		judged++;
		ret |= gate_row(cmp, r, limit);
	}
	if (!judged) {
		fprintf(stderr, PROG ": --fail-above %g: no row could be judged (%s%s)\n",
			limit, !cmp->nr ? "no test present on both sides" :
			na == cmp->nr ? "every row n/a: too few " :
					"no row with a verdict has a % change",
			cmp->nr && na == cmp->nr ? unit_name(cmp, 2) : "");
		return 1;
	}
	if (na)
		fprintf(stderr, PROG ": --fail-above %g: %zu of %zu rows not judged (n/a)\n",
			limit, na, cmp->nr);
	return ret;
}

/*
 * --check and -f kcidb: the files are one side's loads.  --check reads
 * them, results files only, and prints nothing; 0, or 2 after the first
 * complaint.
 */
static int read_one_side(const struct options *o)
{
	struct kcidb_opts kcidb = o->kcidb;
	struct bench_set set = { NULL };
	size_t before;
	int f, ret = 0;

	kcidb.load_stat = o->load_stat;
	for (f = 0; !ret && f < o->nr_files[SIDE_BEFORE]; f++) {
		before = set.nr_loads;
		if (read_input(&set, SIDE_BEFORE, o->files[SIDE_BEFORE][f]))
			ret = 2;
		while (!ret && o->check && before < set.nr_loads) {
			if (set.loads[before++].dmesg) {
				complain("%s: a kernel log, not a results file",
					 o->files[SIDE_BEFORE][f]);
				ret = 2;
			}
		}
	}
	if (!ret && !o->check)
		ret = check_clocks(&set) ? 2 : print_kcidb(&set, &kcidb);
	free_set(&set);
	if (!ret && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
		return 2;
	}
	return ret;
}

int main(int argc, char **argv)
{
	struct options o = {
		.fmt = OUT_TEXT,
		.alpha = DEFAULT_ALPHA,
		.fail_above = NAN,
		.load_stat = LOAD_MIN,
		.figure = MET_CYCLES,
		.unit = UNIT_AUTO,
		.kcidb.origin = KCIDB_ORIGIN,
	};
	struct bench_set set = { NULL };
	struct comparison cmp;
	bool bad = false;
	int s, f, ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (o.dry_run)
		return 0;
	if (o.check || o.fmt == OUT_KCIDB)
		return read_one_side(&o);
	if (o.plot && !plot_tool_found()) {
		fputs(PROG ": --plot needs gnuplot (Debian: apt-get install gnuplot-nox)\n",
		      stderr);
		return 2;
	}

	for (s = 0; s < NR_SIDES; s++) {
		for (f = 0; f < o.nr_files[s]; f++) {
			if (read_input(&set, (enum side)s, o.files[s][f]))
				bad = true;
		}
	}
	if (bad || check_clocks(&set) || check_figure(&set, o.figure)) {
		free_set(&set);
		return 2;
	}

	compare_build_by(&set, o.alpha, o.load_stat, o.figure, o.unit, &cmp);
	/* the table first: a picture that cannot be drawn must not hide it */
	if (o.fmt == OUT_JSON)
		print_json(&set, &cmp);
	else
		print_report(&set, &cmp, o.fmt);
	if (o.plot && plot_write(&cmp, o.plot))
		ret = 2;

	if (!ret && o.fail_above >= 0)
		ret = gate_fail_above(&cmp, o.fail_above);

	compare_free(&cmp);
	free_set(&set);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
		return 2;
	}
	return ret;
}
