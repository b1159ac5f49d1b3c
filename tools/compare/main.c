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

#define STRINGIFY(x)	#x
#define XSTRINGIFY(x)	STRINGIFY(x)
#define LINE_MAX_TEXT	XSTRINGIFY(INPUT_LINE_MAX)

static const char usage_text[] =
	"usage: " PROG " [-f text|markdown|org|json] [--alpha A] [--fail-above PCT]\n"
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
	"       Each BEFORE and AFTER is a file or a directory of results\n"
	"       files.\n"
	"\n"
	"DESCRIPTION\n"
	"       Reads the results of benchmark runs made before a change (BEFORE)\n"
	"       and after it (AFTER), and prints one row per test found on both\n"
	"       sides: cycles (or instructions, see below) and nanoseconds per\n"
	"       element before and after, the shift between them, the change\n"
	"       in percent, and, where the loads allow one, the interval of\n"
	"       the shift, the number of loads on each side and a verdict on\n"
	"       whether the cycles per element really changed.\n"
	"\n"
	"       The unit of replication is the load: one load of the module\n"
	"       (one boot, or one modprobe). Each load gets an offset of its own\n"
	"       (code and data placement, the pages the pool got), which its\n"
	"       repetitions share; so repetitions only make a load's value more\n"
	"       precise, and never count as independent samples. Each results\n"
	"       block (\"format:\" line) is one load, and so is each results\n"
	"       file of a directory; in a dmesg log an instrument: or\n"
	"       overhead: line starts one, and so does a test that the current\n"
	"       load already printed (see INPUT).\n"
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
	"       nine rows). When no row can have a verdict, a line under the\n"
	"       table says so and gives N.\n"
	"\n"
	"       diff is the Hodges-Lehmann estimate of the shift (the median of\n"
	"       all after - before differences of per-load values), and its\n"
	"       interval the distribution-free confidence interval at level\n"
	"       1 - alpha from the same U distribution: \"+1.000  -2.000..+4.000\"\n"
	"       reads \"one cycle slower, but anything from 2 cycles faster to 4\n"
	"       slower is consistent with these loads\". Before and after are the\n"
	"       medians of the per-load values.\n"
	"\n"
	"       Each load knows its clock: what its cycle counter counted.\n"
	"       Under QEMU's -icount shift=0 the counter advances one tick per\n"
	"       instruction, and the module says \"clock: instructions\"; its\n"
	"       numbers are instructions per element, exact and the same on\n"
	"       every boot. Otherwise they are cycles. Numbers of two clocks\n"
	"       are never compared: loads of different clocks are an error.\n"
	"       Under instructions every label says \"instructions\", and the\n"
	"       ns columns are left out (the guest's clock then follows the\n"
	"       instruction count too).\n"
	"\n"
	"       All input is read before anything is printed; any bad input\n"
	"       line stops the program with no table.\n"
	"\n"
	"OPTIONS\n"
	"       -f, --format FORMAT\n"
	"              Table format: text (the default, aligned columns),\n"
	"              markdown or md (GitHub table), org (org-mode table) or\n"
	"              json (one JSON object for machines, see OUTPUT).\n"
	"\n"
	"       --alpha A\n"
	"              Family-wise significance level, 0 < A < 1, and 1 - A is\n"
	"              the level of the intervals. Default: 0.05.\n"
	"\n"
	"       --fail-above PCT\n"
	"              Exit with status 1 if a test's % change (the ns diff in %\n"
	"              of ns before; instructions under instructions) is above\n"
	"              PCT and its verdict is \"change\"; such tests are listed\n"
	"              on stderr.\n"
	"              When no row can be judged (no test on both sides, or\n"
	"              every row n/a), it says so and exits with status 1 too;\n"
	"              rows that are n/a beside judged ones are counted on\n"
	"              stderr. A row with a verdict but no % change (ns that\n"
	"              not all its loads carried, see OUTPUT) is not judged:\n"
	"              a line on stderr names it and says why.\n"
	"\n"
	"       --dry-run\n"
	"              Check the options and exit: 0 if they are valid, 2 with\n"
	"              the usage error if not. Reads no file; make ab asks this\n"
	"              before its first guest.\n"
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
	"       A directory in place of a file stands for the files in it\n"
	"       whose names end in \".results\" (not starting with \".\"), read\n"
	"       in the order of their names: the kselftest wrapper's -o DIR\n"
	"       and the guest runner keep one such file per load. Each must\n"
	"       be a regular file holding exactly one results block (one\n"
	"       load); files of other names are not read. A directory without\n"
	"       any *.results file, an entry of that name that is not a\n"
	"       regular file, or a file of more or fewer loads, is an error.\n"
	"\n"
	"INPUT\n"
	"       Each line is recognized on its own, so files may mix:\n"
	"\n"
	"       Results files of the module\n"
	"              (/sys/kernel/debug/bench_page_pool_simple/results),\n"
	"              formats 1 to 4. \"format: bench_page_pool_simple N\"\n"
	"              starts one load; other versions are an error. Each\n"
	"              \"test: key=value ...\" line needs name= and either\n"
	"              cycles= with invoke_count= (cycles/elem is their\n"
	"              quotient) or cycles_per_elem=; ns= with invoke_count=, or\n"
	"              ns_per_elem=, give ns/elem. Where both are given,\n"
	"              cycles_per_elem (ns_per_elem) must agree with the\n"
	"              quotient to its last digit. With cycles_samples=X,Y,...\n"
	"              (and ns_samples=), formats 2 and 3, the load's value is\n"
	"              reduced from those repetitions; their count must equal\n"
	"              reps= if given. A test may appear once per load, a field\n"
	"              once per line. \"clock: instructions\" or \"clock:\n"
	"              cycles\" is the load's clock (format 3 must have it;\n"
	"              formats 1 and 2 count cycles). The lines kernel:,\n"
	"              cpu_model:, accel:, cmdline: (the rest of the line) and\n"
	"              params:, config:, runtime:, platform:, mitigations:\n"
	"              (each key=value a key of its own, config.kasan, ...)\n"
	"              are the load's environment. Unknown keys and other lines\n"
	"              (cpu:, selected:, ...) are ignored.\n"
	"\n"
	"              Format 3 says when a block is whole: it ends with\n"
	"              \"end: tests=T skips=S\", T and S counting its test: and\n"
	"              skip: lines, and each test: line has every field the\n"
	"              module always writes (name, run_flags_bit, context, cpu,\n"
	"              reps, loops, invoke_count, total_invoke_count, cycles,\n"
	"              ns, cycles_per_elem, ns_per_elem, cycles_samples,\n"
	"              ns_samples, path, pages_allocated, pages_released,\n"
	"              expect_path, expect_allocated_max, expect_released,\n"
	"              expect_stats, cheaper_than). A block without its end:\n"
	"              line, with other counts, or a line without one of these\n"
	"              fields was cut short: an error. Formats 1 and 2 carry no\n"
	"              such guarantee: a line cut inside a field but ending in\n"
	"              a newline cannot be told from a whole one there.\n"
	"\n"
	"              Format 4 is format 3 with the exact profile (QEMU\n"
	"              -icount, tools/profile) before its end: line: one\n"
	"              \"profile: l1i=SIZE:WAYS l1d=SIZE:WAYS llc=SIZE:WAYS\n"
	"              line=BYTES\" (the modelled caches, no environment), then\n"
	"              per test of the block \"prof: name=TEST windows=N insns=X\n"
	"              loads=X stores=X atomics=X l1i_miss=X l1d_miss=X\n"
	"              llc_miss=X\" followed by its \"prof_fn: name=TEST\n"
	"              fn=FUNCTION ...\" lines, the same counts of one function\n"
	"              (a kernel symbol, [module] after it, or ?). Each X is per\n"
	"              element with three decimals; a function's counts must\n"
	"              add up to the test's within their rounding. A test of the\n"
	"              block without its prof: line, a test, function or\n"
	"              profile: line given twice, a prof: line of a test without\n"
	"              a test: line in the block, a test: line after the prof:\n"
	"              lines, and these lines in a format 3 block or after an\n"
	"              end: line are errors; after formats 1 and 2 and in logs\n"
	"              they are not read.\n"
	"\n"
	"       dmesg logs\n"
	"              with or without timestamps, with the lines\n"
	"              \"MODULE: Type:NAME Per elem: C cycles(tsc) N ns\n"
	"              (step:S) - (measurement period time:T sec\n"
	"              time_interval:I) - (invoke count:K tsc_interval:Z)\",\n"
	"              MODULE being time_bench (this suite), bench_page_pool\n"
	"              (upstream's kselftest module) or any other module name.\n"
	"              Each is the load's value: Z/K cycles per element (three\n"
	"              decimals, finer than C) and the printed N ns per element.\n"
	"              A line must be complete to its closing \")\", and C must\n"
	"              be floor(Z/K); a line cut short anywhere is an error,\n"
	"              never read from what is left of it. The lines\n"
	"              \"Type:NAME Spread over N reps: ...\", the per-CPU\n"
	"              \"Type:NAME CPU(N) ...\" and \"Sum Type:...\" lines, other\n"
	"              drivers' \"MODULE: Type: 5\" (a blank after Type:) and\n"
	"              all other lines are ignored.\n"
	"\n"
	"       Upstream's test script\n"
	"              (tools/testing/selftests/net/bench/page_pool) prints\n"
	"              \"NAME Per elem: C cycles(tsc) N ns\", in CI logs with the\n"
	"              kselftest runner's \"# \" in front: C cycles (whole, as\n"
	"              printed) and N ns per element, the whole line or an\n"
	"              error. Loads are grouped as in dmesg logs; a trimmed\n"
	"              line that repeats, with the same C and N, the Type:\n"
	"              line its load already gave (the script prints both) is\n"
	"              no second value.\n"
	"\n"
	"              \"MODULE: instrument: clock=C accel=A\", printed once per\n"
	"              load before its overhead: line, starts a load whose\n"
	"              clock is C (instructions or cycles) and whose\n"
	"              environment has accel A; the loads of a log without it\n"
	"              count cycles. \"bench_page_pool_simple: overhead:\" also\n"
	"              starts a load, and so does a test that the open load\n"
	"              already printed (module versions that print neither).\n"
	"\n"
	"       Input is hostile until parsed. Every line that is read must\n"
	"       end in a newline (the last line of a file too: a file cut\n"
	"       short ends without one), and may hold no NUL byte and no\n"
	"       control character (tab aside) or byte that is not printable\n"
	"       UTF-8; test names are printable ASCII. Numbers are plain\n"
	"       decimals (no sign, no inf or nan), per-element values at most\n"
	"       18446744073709551615 (what a u64 per element can be), integer\n"
	"       fields at most that. CRLF line ends are accepted. Anything\n"
	"       else is an error, and so is a file without any value.\n"
	"\n"
	"       A line holds at most " LINE_MAX_TEXT " bytes, its newline not\n"
	"       counted (the module's longest stays under 48 KB): a longer\n"
	"       one is an error \"FILE:LINE: line longer than the limit\",\n"
	"       and the rest of its file is not read, so that /dev/zero or a\n"
	"       line without end costs 64 KiB of memory and no more. A read\n"
	"       that fails (an I/O error, a directory as standard input) is\n"
	"       an error \"FILE:LINE: read error: REASON\" at the line it\n"
	"       cut, never the end of the file.\n"
	"\n"
"OUTPUT\n"
	"       First a line \"environment differs: KEY: before X, after Y\" for\n"
	"       each part of the results files' environment (kernel, CPU model,\n"
	"       command line, parameters, kernel options, runtime settings) that\n"
	"       is not the same in every load of both sides (with more than\n"
	"       eight values on a side, the eight commonest and the rest summed\n"
	"       up). Then the table. Its first eight columns are those\n"
	"       reviewers paste on the list: test, cycles before, after and\n"
	"       diff, ns before, after and diff, % change. The verdict's\n"
	"       columns follow where they add to these: the interval of the\n"
	"       cycles diff where a row has one, p (Holm-adjusted) and verdict\n"
	"       where a row has a verdict, loads before/after with them or\n"
	"       where a row has fewer loads than its side; when no row can\n"
	"       have a verdict (one load a side, say), a line under the table\n"
	"       says how many loads it would take.\n"
	"\n"
	"       % change is the ns diff in % of ns before, in every format:\n"
	"       the figure reviewers compute (org: $8=(($7/$5)*100)), and the\n"
	"       one a dmesg line prints with decimals (C is truncated). Under\n"
	"       instructions it is the instructions diff in % of\n"
	"       instructions before. The verdict and the interval are of the\n"
	"       cycles (instructions): the counter the module reads, which ns\n"
	"       follow within a load; --fail-above gates on % change.\n"
	"\n"
	"       Values keep the decimals of their input (three for a\n"
	"       quotient of integer totals), one more in a row whose median\n"
	"       or shift lies halfway between two such values (103.5 of 103\n"
	"       and 104 is never shown as 104); diff and % carry a sign; \"-\"\n"
	"       marks a value that cannot be computed. The interval's label\n"
	"       gives its level 1 - alpha with the digits it takes (99.9999%,\n"
	"       never a rounded 100%). Rows follow the order in which tests\n"
	"       first appear in the before input. Tests found on one side\n"
	"       only are listed after the table (\"only in before: NAME\"),\n"
	"       then lines say what the columns and the verdict are.\n"
	"\n"
	"       Every figure of a row comes from the loads the row counts\n"
	"       (loads before/after, the loads that gave the test's cycles).\n"
	"       The ns columns, and % change of them, are shown only when\n"
	"       every one of those loads carried ns (ns= or ns_per_elem=, or\n"
	"       a dmesg line); where only some did, the row shows \"-\" there\n"
	"       and a line under the table says \"TEST: ns/elem in K of N\n"
	"       loads before, M of N after: no ns or % change shown\" (a\n"
	"       row that counts five loads never shows the ns of one).\n"
	"\n"
	"       When both sides have exact profiles (format 4), the profile\n"
	"       follows: per test profiled on both sides with a function that\n"
	"       moved, a line \"TEST (B/A profiled loads): instructions X -> Y,\n"
	"       ...\" with the test's counts that moved, and a table of those\n"
	"       functions: instructions before, after and diff, and the diff\n"
	"       of loads, stores, atomics and L1I, L1D and LLC misses, by\n"
	"       |instructions diff|, largest first. Counts are per element;\n"
	"       before and after are medians over each side's profiled loads,\n"
	"       a function absent from a load counting 0 there. A function\n"
	"       moved when any of its counts changed by 0.5 or more: a change\n"
	"       of code moves instructions, loads, stores and atomics by whole\n"
	"       events per element, interrupt work inside a measured window\n"
	"       adds about 0.02. Without a moved function one line says so,\n"
	"       and so it does when only one side has profiles.\n"
	"\n"
	"       org tables are the reviewers' org tables: diffs without a\n"
	"       sign, % change with one decimal and no \"%\", and under the\n"
	"       table the formula that computes it,\n"
	"       \"#+TBLFM: $8=(($7/$5)*100);%.1f\", so that org-mode's\n"
	"       recalculation (C-c C-c on it) changes nothing.\n"
	"\n"
	"       -f json prints one object instead: \"format\": \"bench-compare\n"
	"       1\"; \"settings\": {\"clock\", \"load_stat\", \"alpha\",\n"
	"       \"interval_level_percent\", \"pct_change_of\"}; \"loads\":\n"
	"       {\"before\", \"after\"}; \"environment_differences\": [{\"key\",\n"
	"       \"before\": [{\"value\", \"loads\"}...], \"after\": [...]}...], value\n"
	"       null for loads without the key; \"rows\": [{\"test\", CLOCK:\n"
	"       {\"before\", \"after\", \"diff\", \"ci\": [LO, HI] or null}, \"ns\":\n"
	"       {\"before\", \"after\", \"diff\"} and \"ns_loads\": {\"before\",\n"
	"       \"after\"}, the loads that carried ns (both not under\n"
	"       instructions), \"pct_change\", \"null_reason\" (why ns and\n"
	"       pct_change are null although loads carried ns: the table's\n"
	"       line, else null), \"loads\": {\"before\", \"after\"}, \"p_raw\",\n"
	"       \"p_holm\", \"verdict\": \"change\", \"noise\" or \"n/a\",\n"
	"       \"need_loads\"}...], CLOCK being \"cycles\" or \"instructions\";\n"
	"       \"only_in\": {\"before\": [names], \"after\": [names]}. Every row has\n"
	"       every column; numbers carry the table's decimals, and null is\n"
	"       what cannot be computed (the table's \"-\"). A row profiled on\n"
	"       both sides also has \"profile\": {\"profiled_loads\": {\"before\",\n"
	"       \"after\"}, \"totals\": COUNTS, \"moved\": [{\"function\",\n"
	"       \"counts\": COUNTS}...]}, COUNTS being {\"insns\", \"loads\",\n"
	"       \"stores\", \"atomics\", \"l1i_miss\", \"l1d_miss\", \"llc_miss\"},\n"
	"       each {\"before\", \"after\", \"diff\"} per element.\n"
	"\n"
	"EXIT STATUS\n"
	"       0      Success.\n"
	"       1      --fail-above was given and a test regressed beyond it\n"
	"              with a \"change\" verdict, or no row could be judged (no\n"
	"              test on both sides, or every row n/a): a gate that\n"
	"              checked nothing fails.\n"
	"       2      Usage error, an input file missing, unreadable or bad\n"
	"              (\"" PROG ": FILE:LINE: what is wrong\" on stderr), loads\n"
	"              of different clocks, or the plot could not be drawn.\n"
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
	"       A/B on a test box, ten loads each, collected by the kselftest\n"
	"       wrapper into one directory per kernel:\n"
	"              " PROG " results-A/ results-B/\n"
	"\n"
	"       The kselftest output of upstream's benchmark on two kernels,\n"
	"       as an org table to paste beside the reviewers' (% change as\n"
	"       their #+TBLFM computes it):\n"
	"              " PROG " -f org ksft-A.log ksft-B.log\n"
	"\n"
	"       Many loads in one dmesg log against an earlier one:\n"
	"              dmesg | " PROG " old-dmesg.log -\n"
	"\n"
	"       As a table for a GitHub review, with a picture:\n"
	"              " PROG " -f markdown --plot ab.svg b1 b2 b3 b4 -- a1 a2 a3 a4\n"
	"\n"
	"       Track the numbers of a CI job, one JSON object per run:\n"
	"              " PROG " -f json base/ new/ | jq '.rows[] | {test, pct_change}'\n"
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
	bool dry_run;		/* check the options, read nothing */
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
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		if (!strcmp(v, formats[i].name)) {
			o->fmt = formats[i].fmt;
			return 0;
		}
	}
	return usage_error("unknown format '%s' (text, markdown, org or json)",
			   v);
}

static int opt_alpha(struct options *o, const char *v)
{
	char *end;

	o->alpha = strtod(v, &end);
	if (!*v || *end || !(o->alpha > 0 && o->alpha < 1))
		return usage_error("bad --alpha '%s': need 0 < A < 1", v);
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

static int opt_plot(struct options *o, const char *v)
{
	if (!plot_path_ok(v))
		return usage_error("bad --plot '%s': the name must end in .svg or .png",
				   v);
	o->plot = v;
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
	{ "--plot", NULL, opt_plot },
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
			fputs(help_text, stdout);
			return 1;
		}
		if (!strcmp(a, "--dry-run")) {
			o->dry_run = true;
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
	if (o->dry_run)
		return 0;
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

/*
 * Why row @r, which has a verdict, has no % change for --fail-above to
 * judge: a figure its loads did not all carry, none at all, or 0 before.
 */
static char *no_pct_reason(const struct comparison *cmp, const struct row *r)
{
	const char *unit = r->pct_of == MET_NS ? "ns" : clock_names[cmp->clock];

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
		limit, r->test->name,
		r->pct_of == MET_NS ? "ns" : clock_names[cmp->clock],
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
		fprintf(stderr, PROG ": --fail-above %g: no row could be judged (%s)\n",
			limit, !cmp->nr ? "no test present on both sides" :
			na == cmp->nr ? "every row n/a: too few loads" :
					"no row with a verdict has a % change");
		return 1;
	}
	if (na)
		fprintf(stderr, PROG ": --fail-above %g: %zu of %zu rows not judged (n/a)\n",
			limit, na, cmp->nr);
	return ret;
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
	int s, f, ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (o.dry_run)
		return 0;
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
	if (bad || check_clocks(&set)) {
		free_set(&set);
		return 2;
	}

	compare_build(&set, o.alpha, o.load_stat, &cmp);
	/* all or nothing: no table when the picture cannot be drawn */
	if (o.plot && plot_write(&cmp, o.plot))
		ret = 2;
	else if (o.fmt == OUT_JSON)
		print_json(&set, &cmp);
	else
		print_report(&set, &cmp, o.fmt);

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
