// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: the command line. "bench-compare --help" tells the rest.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

static const char usage_text[] =
	"usage: " PROG " [-f text|markdown|org] [--alpha A] [--fail-above PCT]\n"
	"       " PROG " [--load-stat min|median] [--plot FILE.svg|FILE.png]\n"
	"       " PROG " ... BEFORE AFTER\n"
	"       " PROG " ... BEFORE... -- AFTER...\n";

static const char help_text[] =
	"NAME\n"
	"       " PROG " - compare before/after runs of bench_page_pool_simple\n"
	"\n"
	"SYNOPSIS\n"
	"       " PROG " [OPTIONS] BEFORE AFTER\n"
	"       " PROG " [OPTIONS] BEFORE... -- AFTER...\n"
	"\n"
	"DESCRIPTION\n"
	"       Reads the results of benchmark runs made before a change (BEFORE)\n"
	"       and after it (AFTER), and prints one row per test found on both\n"
	"       sides: cycles and nanoseconds per element before and after, the\n"
	"       shift between them with its confidence interval, the change in\n"
	"       percent, the number of loads on each side, and a verdict on\n"
	"       whether the cycles per element really changed.\n"
	"\n"
	"       The unit of replication is the load: one load of the module\n"
	"       (one boot, or one modprobe). Each load gets an offset of its own\n"
	"       (code and data placement, the pages the pool got), which its\n"
	"       repetitions share; so repetitions only make a load's value more\n"
	"       precise, and never count as independent samples. Each results\n"
	"       block (\"format:\" line) is one load; in a dmesg log each\n"
	"       \"bench_page_pool_simple: overhead:\" line starts one, and so does\n"
	"       a test that the current load already printed.\n"
	"\n"
	"       Each load is reduced to one value per test: by default the\n"
	"       cheapest of its repetitions (--load-stat min). Measured on 24\n"
	"       loads of Debian's 6.12 in QEMU, the spread of the per-load\n"
	"       values across loads (robust coefficient of variation) was 2.9-7%\n"
	"       with the minimum and 5.3-16% with the median of the repetitions:\n"
	"       the cheapest repetition is the one least disturbed by the host,\n"
	"       so the minimum sees smaller changes with as many loads.\n"
	"\n"
	"       The per-load values of the two sides are compared per test with\n"
	"       a two-sided Mann-Whitney U test, exact (permutation distribution\n"
	"       of the midranks, ties included) up to 40 loads in all, normal\n"
	"       approximation above. The p values of all rows of the table are\n"
	"       adjusted by Holm-Bonferroni, so that the chance that any row of\n"
	"       an unchanged pair says \"change\" is at most alpha. The verdict is\n"
	"       \"change\" when the adjusted p < alpha, \"noise\" otherwise, and\n"
	"       \"n/a (need N loads)\" when the loads of a row could not reach\n"
	"       alpha / rows even if they did not overlap at all; N is the fewest\n"
	"       loads per side that could (4 for one row at alpha 0.05, 6 for\n"
	"       nine rows).\n"
	"\n"
	"       diff is the Hodges-Lehmann estimate of the shift (the median of\n"
	"       all after - before differences of per-load values), and its\n"
	"       interval the distribution-free confidence interval at level\n"
	"       1 - alpha from the same U distribution: \"+1.000  -2.000..+4.000\"\n"
	"       reads \"one cycle slower, but anything from 2 cycles faster to 4\n"
	"       slower is consistent with these loads\". Before and after are the\n"
	"       medians of the per-load values.\n"
	"\n"
	"       All input is read before anything is printed; any bad input\n"
	"       line stops the program with no table.\n"
	"\n"
	"OPTIONS\n"
	"       -f, --format FORMAT\n"
	"              Table format: text (the default, aligned columns),\n"
	"              markdown or md (GitHub table) or org (org-mode table).\n"
	"\n"
	"       --alpha A\n"
	"              Family-wise significance level, 0 < A < 1, and 1 - A is\n"
	"              the level of the intervals. Default: 0.05.\n"
	"\n"
	"       --fail-above PCT\n"
	"              Exit with status 1 if a test's cycles/elem got worse\n"
	"              (a positive shift) by more than PCT percent of before and\n"
	"              its verdict is \"change\"; such tests are listed on stderr.\n"
	"\n"
	"       --load-stat min|median\n"
	"              How a load's repetitions (cycles_samples=) become its one\n"
	"              value. Default: min.\n"
	"\n"
	"       --plot FILE\n"
	"              Also draw, with gnuplot, each test's per-load values of\n"
	"              both sides and their medians, in percent of the before\n"
	"              median, into FILE: SVG if it ends in .svg, PNG in .png.\n"
	"              Test names reach gnuplot as data, never as commands, and\n"
	"              FILE not at all: gnuplot draws into a new file beside it,\n"
	"              which replaces FILE once complete. When it cannot be drawn\n"
	"              (a name holding '\"' or '\\', FILE a directory or in a\n"
	"              missing one), nothing is printed and no file is left.\n"
	"\n"
	"       -h, --help\n"
	"              Print this help and exit.\n"
	"\n"
	"       Options may come anywhere before \"--\". Without \"--\", exactly\n"
	"       two files are needed: BEFORE and AFTER. With it, the files\n"
	"       before it are the before side and those after it the after\n"
	"       side, each side needing at least one; everything after \"--\" is\n"
	"       a file. A file named \"-\" is standard input (once at most).\n"
	"\n"
	"INPUT\n"
	"       Each line is recognized on its own, so files may mix:\n"
	"\n"
	"       Results files of the module\n"
	"              (/sys/kernel/debug/bench_page_pool_simple/results),\n"
	"              formats 1 and 2. \"format: bench_page_pool_simple N\"\n"
	"              starts one load; other versions are an error. Each\n"
	"              \"test: key=value ...\" line needs name= and either\n"
	"              cycles= with invoke_count= (cycles/elem is their\n"
	"              quotient) or cycles_per_elem=; ns= with invoke_count=, or\n"
	"              ns_per_elem=, give ns/elem. With cycles_samples=X,Y,...\n"
	"              (and ns_samples=), format 2, the load's value is reduced\n"
	"              from those repetitions; their count must equal reps= if\n"
	"              given. A test may appear once per load. The lines\n"
	"              kernel:, cpu_model:, cmdline:, params:, config: and\n"
	"              runtime: are the load's environment. Unknown keys and\n"
	"              other lines (skip:, cpu:, selected:) are ignored.\n"
	"\n"
	"       dmesg logs\n"
	"              with or without timestamps, with the lines\n"
	"              \"time_bench: Type:NAME Per elem: C cycles(tsc) N ns ...\n"
	"              time_interval:I) - (invoke count:K tsc_interval:Z)\".\n"
	"              Each is the load's value: Z/K cycles and I/K ns per\n"
	"              element. A line cut short before I, K or Z are complete\n"
	"              gives the printed C and N instead, if \"Per elem: C\n"
	"              cycles(tsc) N ns\" is complete; otherwise it is an error.\n"
	"              The lines \"Type:NAME Spread over N reps: ...\", the\n"
	"              per-CPU \"Type:NAME CPU(N) ...\" and \"Sum Type:...\" lines,\n"
	"              and all other lines are ignored.\n"
	"\n"
	"       CRLF line ends are accepted. A file without any value is an\n"
	"       error.\n"
	"\n"
	"OUTPUT\n"
	"       First a line \"environment differs: KEY: before X, after Y\" for\n"
	"       each part of the results files' environment (kernel, CPU model,\n"
	"       command line, parameters, kernel options, runtime settings) that\n"
	"       is not the same in every load of both sides. Then the table:\n"
	"       test, cycles before, after and diff, ns before, after and diff,\n"
	"       % change (cycles diff in % of cycles before), the interval of\n"
	"       the cycles diff, loads before/after, the Holm-adjusted p and the\n"
	"       verdict. Values keep the decimals of their input (three for a\n"
	"       quotient of integer totals); diff and % carry a sign; \"-\" marks\n"
	"       a value that cannot be computed. Rows follow the order in which\n"
	"       tests first appear in the before input. Tests found on one side\n"
	"       only are listed after the table (\"only in before: NAME\"), then\n"
	"       lines say what the columns and the verdict are.\n"
	"\n"
	"EXIT STATUS\n"
	"       0      Success.\n"
	"       1      --fail-above was given and a test regressed beyond it\n"
	"              with a \"change\" verdict.\n"
	"       2      Usage error, an input file missing, unreadable or bad\n"
	"              (\"" PROG ": FILE:LINE: what is wrong\" on stderr), or the\n"
	"              plot could not be drawn.\n"
	"\n"
	"EXAMPLES\n"
	"       Two kernels, eight fresh guests each, interleaved (the project's\n"
	"       make ab does this and calls " PROG "):\n"
	"              " PROG " before-*.txt -- after-*.txt\n"
	"\n"
	"       Keep the results of each load (the module runs on load):\n"
	"              modprobe bench_page_pool_simple\n"
	"              cat /sys/kernel/debug/bench_page_pool_simple/results >b1\n"
	"              rmmod bench_page_pool_simple\n"
	"\n"
	"       Many loads in one dmesg log against an earlier one:\n"
	"              dmesg | " PROG " old-dmesg.log -\n"
	"\n"
	"       As a table for a GitHub review, with a picture:\n"
	"              " PROG " -f markdown --plot ab.svg b1 b2 b3 b4 -- a1 a2 a3 a4\n"
	"\n"
	"       Fail a CI job on a significant slowdown above 5%:\n"
	"              " PROG " --fail-above 5 before.log after.log\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%sTry '" PROG " --help' for more.\n", usage_text);
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
	const char *plot;	/* NULL: no picture */
	char **files[NR_SIDES];
	int nr_files[NR_SIDES];
};

/* Applies option argv[*i] (and its value); 0, or 2 after a usage error. */
static int parse_option(int argc, char **argv, int *i, struct options *o)
{
	const char *a = argv[*i], *v;
	bool missing = false;
	char *end;

	v = opt_value(argv, argc, i, "--format", &missing);
	if (!v && !missing)
		v = opt_value(argv, argc, i, "-f", &missing);
	if (v) {
		if (!strcmp(v, "text"))
			o->fmt = OUT_TEXT;
		else if (!strcmp(v, "markdown") || !strcmp(v, "md"))
			o->fmt = OUT_MARKDOWN;
		else if (!strcmp(v, "org"))
			o->fmt = OUT_ORG;
		else
			return usage_error("unknown format '%s' (text, markdown or org)",
					   v);
		return 0;
	}
	if (!missing)
		v = opt_value(argv, argc, i, "--alpha", &missing);
	if (v) {
		o->alpha = strtod(v, &end);
		if (!*v || *end || !(o->alpha > 0 && o->alpha < 1))
			return usage_error("bad --alpha '%s': need 0 < A < 1", v);
		return 0;
	}
	if (!missing)
		v = opt_value(argv, argc, i, "--fail-above", &missing);
	if (v) {
		o->fail_above = strtod(v, &end);
		if (!*v || *end || !(o->fail_above >= 0) ||
		    !isfinite(o->fail_above))
			return usage_error("bad --fail-above '%s': need a percentage >= 0",
					   v);
		return 0;
	}
	if (!missing)
		v = opt_value(argv, argc, i, "--load-stat", &missing);
	if (v) {
		if (load_stat_parse(v, &o->load_stat))
			return usage_error("bad --load-stat '%s': min or median",
					   v);
		return 0;
	}
	if (!missing)
		v = opt_value(argv, argc, i, "--plot", &missing);
	if (v) {
		if (!plot_path_ok(v))
			return usage_error("bad --plot '%s': the name must end in .svg or .png",
					   v);
		o->plot = v;
		return 0;
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
			fputs(help_text, stdout);
			return 1;
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
	if (dashdash < 0) {
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

int main(int argc, char **argv)
{
	struct options o = {
		.fmt = OUT_TEXT,
		.alpha = DEFAULT_ALPHA,
		.fail_above = NAN,
		.load_stat = LOAD_MIN,
	};
	struct bench_set set = { NULL };
	struct comparison cmp;
	bool bad = false;
	size_t i;
	int s, f, ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (o.plot && !plot_tool_found()) {
		fputs(PROG ": --plot needs gnuplot (Debian: apt-get install gnuplot-nox)\n",
		      stderr);
		return 2;
	}

	set.load_stat = o.load_stat;
	for (s = 0; s < NR_SIDES; s++) {
		for (f = 0; f < o.nr_files[s]; f++) {
			if (read_input(&set, (enum side)s, o.files[s][f]))
				bad = true;
		}
	}
	if (bad) {
		free_set(&set);
		return 2;
	}

	compare_build(&set, o.alpha, &cmp);
	/* all or nothing: no table when the picture cannot be drawn */
	if (o.plot && plot_write(&cmp, o.plot))
		ret = 2;
	else
		print_report(&set, &cmp, o.fmt);

	for (i = 0; !ret && o.fail_above >= 0 && i < cmp.nr; i++) {
		const struct row *r = &cmp.rows[i];
		char *pct;

		if (r->verdict != VERDICT_CHANGE ||
		    !(r->m[MET_CYCLES].pct > o.fail_above))
			continue;
		pct = fmt_pct(r->m[MET_CYCLES].pct);
		fprintf(stderr,
			PROG ": regression above %g%%: %s cycles/elem %s (p=%.3g after Holm)\n",
			o.fail_above, r->test->name, pct, r->p_adj);
		free(pct);
		ret = 1;
	}

	compare_free(&cmp);
	free_set(&set);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
		return 2;
	}
	return ret;
}
