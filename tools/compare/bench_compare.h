/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench-compare: compares before/after runs of bench_page_pool_simple.
 *
 * Shared types and prototypes. The program is split by concern:
 * util.c (memory, numbers, strings), input.c (files, lines and loads)
 * with results.c (results files) and dmesg.c (kernel log lines) behind
 * it and line.c (what those two share: line.h) below them, env.c
 * (environment fingerprints), stats.c (pure statistics), compare.c
 * (one row per test), profile.c (the exact profiles of a row), table.c
 * (text, markdown and org tables), json.c, kcidb.c (KernelCI's
 * results), plot.c (gnuplot), main.c (command line) and help.c (its
 * help text).
 *
 * Calls only go down (each file says its layer at its top):
 *
 *   main.c             help.c input.c compare.c table.c json.c plot.c
 *                      kcidb.c
 *   input.c            results.c dmesg.c (parsers.h) line.c strtab.c
 *   results.c dmesg.c  line.c (line.h) env.c, results.c strtab.c too
 *   table.c json.c     compare.c env.c, table.c profile.c too
 *   kcidb.c            env.c stats.c strtab.c
 *   compare.c          profile.c stats.c
 *   line.c env.c       strtab.c
 *   profile.c          stats.c
 *   all of them        util.c
 *
 * One reference goes sideways: json.c reads prof_keys of results.c.
 */
#ifndef BENCH_COMPARE_H
#define BENCH_COMPARE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PROG			"bench-compare"
#define EXACT_MAX_N		40	/* exact null distribution up to this */
#define MAX_ERRORS		20	/* reported per input file */
#define DEFAULT_ALPHA		0.05
/*
 * The smallest --alpha: its level prints as 99.9999999999 (never a
 * rounded 100) and alpha / rows stays a normal double for any count.
 */
#define ALPHA_MIN		(1 / 1e12)
#define ALPHA_MIN_STR		"1e-12"
#define NEED_LOADS_MAX		1000000
#define INT_DECIMALS		3	/* a quotient of integer totals */
/* The largest per-element value: what a u64 count per element can be */
#define VALUE_MAX		18446744073709551615.0
/* The smallest but 0: one count over a u64 of elements */
#define VALUE_MIN		(1 / VALUE_MAX)
/* The most decimals a value is written with (and shown with) */
#define VALUE_DECIMALS_MAX	99
#define ECHO_MAX		40	/* input shown in an error, at most */
#define TEST_NAME_MAX		64	/* bytes of a test name, at most */
#define ENV_LIST_MAX		8	/* values of a key listed per side */
#define RESULTS_SUFFIX		".results"	/* the loads in a directory */
/*
 * The longest input line, its newline not counted. The module's longest,
 * a test: line of 1000 repetitions (two lists of 1000 samples of at most
 * 21 characters and a comma each), stays under 48 KB.
 */
#define INPUT_LINE_MAX		65536

#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))

/* The kernel's names of the exact-width integers, as checkpatch asks. */
typedef __UINT64_TYPE__ u64;
typedef __UINT32_TYPE__ u32;

/*
 * User-space stand-in for the kernel's __printf (compiler_attributes.h);
 * split over two lines only so that checkpatch does not ask for __printf
 * in the definition of __printf itself.
 */
#define __printf(a, b)	__attribute__((					\
	__format__(__printf__, a, b)))
#define __noreturn	__attribute__((					\
	__noreturn__))

enum side {
	SIDE_BEFORE,
	SIDE_AFTER,
	NR_SIDES,
};

extern const char * const side_names[NR_SIDES];

/*
 * The figures of a test per load: the cycle counter's (cycles_*, what
 * clock: says it counts) and ns, which carry repetitions, and the PMU's
 * core cycles and retired instructions per element (pmu_cycles_per_elem,
 * instructions_per_elem), one value a load, where the PMU counted.
 */
enum metric {
	MET_CYCLES,
	MET_NS,
	MET_CORE_CYCLES,
	MET_PMU_INSNS,
	NR_METRICS,
};

/* The names --figure takes, by metric (NULL: not a figure: ns). */
extern const char * const figure_names[NR_METRICS];
/* The unit of a figure's columns; MET_CYCLES's is the clock's name. */
extern const char * const figure_units[NR_METRICS];

/*
 * The unit of replication, the sample the verdict counts (--unit):
 * auto is the boot where the clock counts cycles and the load where it
 * counts instructions (a count that does not depend on the boot).
 */
enum unit {
	UNIT_AUTO,
	UNIT_BOOT,
	UNIT_LOAD,
};

/* What the cycle counter counted: see the clock: line of format 3. */
enum clock {
	CLOCK_CYCLES,
	CLOCK_INSTRUCTIONS,
	NR_CLOCKS,
};

extern const char * const clock_names[NR_CLOCKS];

enum load_stat {
	LOAD_MIN,
	LOAD_MEDIAN,
};

/*
 * The counts of the exact profile (QEMU -icount, tools/profile) that a
 * results file of format 4 gives per test and per function, per
 * element. They are kept in thousandths, whole numbers, so that sums,
 * medians and differences are exact.
 */
enum prof_count {
	PROF_INSNS,
	PROF_LOADS,
	PROF_STORES,
	PROF_ATOMICS,
	PROF_L1I_MISS,
	PROF_L1D_MISS,
	PROF_LLC_MISS,
	NR_PROF_COUNTS,
};

extern const char * const *const prof_keys;	/* insns, ...: results.c */
extern const char * const prof_labels[NR_PROF_COUNTS];	/* instructions */

#define PROF_DECIMALS		3	/* of every count in the file */
#define PROF_MILLI_MAX		9007199254740991ULL	/* 2^53 - 1: exact */
/* A count moved: half an event per element (profile.c says why) */
#define PROF_MOVED_MILLI	500

struct vec {
	double *v;
	size_t n;
	size_t cap;
};

/*
 * The repetitions of one test and metric on one side, load after load:
 * load i measured reps[ends[i - 1]] .. reps[ends[i] - 1] (ends[-1] = 0),
 * and was the set's load load_of[i] - 1 (0: not known, a load apart).
 * They stay apart until the comparison reduces each load to one value.
 */
struct series {
	double *reps;
	size_t nr_reps;
	size_t cap_reps;
	size_t *ends;
	size_t *load_of;
	size_t nr_loads;
	size_t cap_loads;
};

/* A string being built, always NUL-terminated once anything was added. */
struct sbuf {
	char *s;
	size_t len;
	size_t cap;
};

enum num_status {
	NUM_OK,
	NUM_BAD,	/* not a plain decimal number */
	NUM_RANGE,	/* a number, beyond VALUE_MAX, below VALUE_MIN or with
			 * more than VALUE_DECIMALS_MAX decimals
			 */
	NUM_INEXACT,	/* a number a double cannot hold as written */
};

/* ------------------------------------------------------------------ */
/* util.c */

void complain(const char *fmt, ...) __printf(1, 2);
void __noreturn out_of_memory(void);
void *xrealloc(void *p, size_t size);
void *xcalloc(size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __printf(1, 2);
void vec_push(struct vec *vec, double x);
void series_add(struct series *s, const double *reps, size_t n);
void series_add_at(struct series *s, const double *reps, size_t n,
		   size_t load);
const double *series_load(const struct series *s, size_t i, size_t *n);
void series_free(struct series *s);
void sbuf_add(struct sbuf *b, const char *s, size_t len);
void sbuf_vaddf(struct sbuf *b, const char *fmt, va_list ap) __printf(2, 0);
void sbuf_addf(struct sbuf *b, const char *fmt, ...) __printf(2, 3);
char *sbuf_take(struct sbuf *b);
bool is_digit(char c);
const char *find_unprintable(const char *s);
unsigned int format_control_at(const char *s);
const char *find_nonname(const char *s, size_t len);
int scan_ull(const char **s, unsigned long long *val);
enum num_status parse_ull(const char *s, unsigned long long *val);
size_t number_len(const char *s);
int number_decimals(const char *s, size_t len);
const char *num_status_words(enum num_status st);
enum num_status parse_value(const char *s, size_t len, double *val,
			    int *decimals);
bool parse_double(const char *s, double *val, int *decimals);
char *fmt_fixed(double x, int decimals, bool sign);
char *fmt_pct(double x);
bool on_half_unit(double x, int decimals);
char *fmt_level(double alpha);
int load_stat_parse(const char *s, enum load_stat *out);
const char *load_stat_words(enum load_stat ls);
void json_str(const char *s);
void json_num(double x, int decimals);

/* ------------------------------------------------------------------ */
/* strtab.c */

/*
 * Distinct byte strings, numbered in the order first seen. All zero is
 * an empty table; the key of its hash is drawn with its first slots,
 * unless a test set one (and keyed) before.
 */
struct strtab {
	char **str;		/* by number, NUL-terminated copies */
	size_t *len;
	size_t nr;
	size_t cap;
	size_t *slots;		/* 1 + number, 0 for an empty slot */
	size_t nr_slots;
	u64 key[2];		/* of SipHash-2-4 */
	bool keyed;
};

u64 siphash24(const u64 key[2], const void *s, size_t len);
size_t strtab_id(struct strtab *t, const void *s, size_t len, bool *added);
bool strtab_find(const struct strtab *t, const void *s, size_t len,
		 size_t *id);
void strtab_probes(const struct strtab *t, size_t *longest, size_t *total);
void strtab_free(struct strtab *t);

/* ------------------------------------------------------------------ */
/* stats.c: pure, no I/O */

int cmp_double(const void *a, const void *b);
double median(const double *v, size_t n);
double min_of(const double *v, size_t n);
double reduce_load(const double *v, size_t n, enum load_stat ls);
double pooled_ranks2(const double *x, size_t nx, const double *y,
		     size_t ny, long long *rank2);
void midranks(const double *v, size_t n, double *rank);
double mwu_u(const double *x, size_t nx, const double *y, size_t ny);
double mwu_p_exact(const double *x, size_t nx, const double *y, size_t ny);
double mwu_p_normal(const double *x, size_t nx, const double *y,
		    size_t ny);
double mwu_p(const double *x, size_t nx, const double *y, size_t ny);
double mwu_min_p(size_t nx, size_t ny);
size_t need_loads(double level);
void mwu_null_counts(size_t n1, size_t n2, double *cnt);
size_t mwu_ci_k(size_t n1, size_t n2, double alpha);

struct shift {
	double est;	/* Hodges-Lehmann estimate of after - before */
	double lo, hi;	/* -INFINITY, INFINITY: no interval (k = 0) */
	size_t k;	/* the interval is [D(k), D(N + 1 - k)] */
};

void hl_shift(const double *b, size_t nb, const double *a, size_t na,
	      double alpha, struct shift *out);
double hl_kth_difference(const double *b, size_t nb, const double *a,
			 size_t na, size_t k);
void holm_adjust(const double *p, size_t m, double *adj);
size_t group_medians(const double *v, const size_t *group, size_t n,
		     double *out);

/*
 * How the per-load values of a row spread: between the boots and within
 * one (one-way random effects, each side about its own mean). NAN where
 * the loads cannot tell: within needs a boot of two loads, between two
 * boots on a side and the within figure.
 */
struct spread {
	double sd_between;	/* of the boots' true means */
	double sd_within;	/* of loads about their boot's mean */
	double share;		/* between / (between + within), variances */
};

void boot_spread(const double *v, const size_t *group, const int *stratum,
		 size_t n, struct spread *out);

/* ------------------------------------------------------------------ */
/* input.c */

/* One key=value of an environment, as numbers of the set's tables. */
struct env_kv {
	size_t key;
	size_t val;
};

/* One load of the module: one results block, or its dmesg lines. */
struct load {
	enum side side;
	enum clock clock;
	bool dmesg;		/* from kernel log lines, not a results block */
	size_t values;		/* tests it gave a value for */
	size_t profiles;	/* tests it gave a profile for (prof: lines) */
	size_t caches;		/* 1 + number of its profile: line, or 0 */
	size_t env;		/* 1 + number of its environment, or 0 */
	size_t boot;		/* 1 + number of its boot_id: line, or 0 */
	size_t pmu_values;	/* tests it gave the PMU's figures for */
	const char *file;	/* where it starts */
	unsigned long line;
};

/* What the dmesg parser remembers of a test in the open dmesg load. */
struct dmesg_seen {
	size_t load;		/* 1 + index of that load, or 0 */
	unsigned long long printed_cycles;
	double printed_ns;
	bool full;		/* from a complete Type: line */
};

/* One function's counts in one load's profile of a test. */
struct prof_fn {
	size_t fn;			/* number in the set's fns */
	unsigned long line;		/* of its prof_fn: line */
	double count[NR_PROF_COUNTS];	/* thousandths per element */
};

/* A test's profile in one load: a prof: line and its prof_fn: lines. */
struct prof_load {
	size_t load;			/* 1 + index of the load */
	unsigned long line;		/* of the prof: line */
	double total[NR_PROF_COUNTS];	/* thousandths per element */
	struct prof_fn *fns;		/* sorted by fn once all are read */
	size_t nr_fns;
	size_t cap_fns;
};

/* The profiled loads of a test on one side. */
struct prof_side {
	struct prof_load *loads;
	size_t nr;
	size_t cap;
};

struct bench_test {
	char *name;
	struct series val[NR_SIDES][NR_METRICS];	/* per load */
	int decimals[NR_METRICS];		/* -1 until a value */
	size_t last_res_load;	/* 1 + load index of its last value */
	struct dmesg_seen dmesg;
	unsigned long last_line;
	struct prof_side prof[NR_SIDES];
	size_t last_prof_load;	/* 1 + load index of its last prof: line */
};

struct bench_set {
	struct bench_test *tests;
	size_t nr;
	size_t cap;
	struct strtab names;	/* the tests' names, numbered as tests[] */
	struct load *loads;
	size_t nr_loads;
	size_t cap_loads;
	struct strtab env_keys;	/* "kernel", "config.kasan", ... */
	struct strtab env_vals;
	struct strtab envs;	/* each distinct environment: env_kv[] */
	struct strtab paths;	/* the names of the files read */
	struct strtab fns;	/* the functions of the profiles */
	struct strtab caches;	/* the cache geometries of profile: lines */
	struct strtab boots;	/* the boot ids of boot_id: lines */
	struct strtab skipped;	/* the tests a load skipped (skip: lines) */
	char **skip_reasons;	/* the first reason given for each */
	enum clock clock;	/* of every load, once check_clocks() agreed */
};

int read_input(struct bench_set *set, enum side side, const char *path);
int read_stream(struct bench_set *set, enum side side, const char *name,
		FILE *f);
int check_clocks(struct bench_set *set);
int check_figure(const struct bench_set *set, enum metric figure);
void free_set(struct bench_set *set);

/* ------------------------------------------------------------------ */
/* env.c */

/* The environment lines of a load being read. */
struct env_scratch {
	struct env_item {
		size_t key, val, pos;
	} *item;
	size_t nr;
	size_t cap;
};

/* How many loads of a side have a value of a key (NULL: none). */
struct env_count {
	const char *val;
	size_t loads;
	size_t seen;		/* order first seen; unknown last */
};

/* A key that is not the same in every load of both sides. */
struct env_diff {
	const char *key;
	struct env_count *side[NR_SIDES];	/* most loads first */
	size_t nr[NR_SIDES];
};

void env_add(struct bench_set *set, struct env_scratch *sc,
	     const char *key, const char *val, size_t len);
void env_close(struct bench_set *set, struct env_scratch *sc, size_t load);
struct env_diff *env_differences(const struct bench_set *set, size_t *nr);
const char *env_value(const struct bench_set *set, const struct load *l,
		      const char *key);
void env_diffs_free(struct env_diff *d, size_t nr);

/* ------------------------------------------------------------------ */
/* compare.c */

enum verdict {
	VERDICT_NA,
	VERDICT_NOISE,
	VERDICT_CHANGE,
};

struct metric_cmp {
	bool have;		/* values on both sides */
	struct vec v[NR_SIDES];	/* one value per unit: load, or boot */
	size_t loads[NR_SIDES];	/* the loads they come from */
	double before, after;	/* medians of the per-unit values */
	struct spread spread;	/* of the per-load values */
	struct shift shift;	/* after - before */
	int decimals;		/* shown */
};

/* Medians over each side's profiled loads, and after - before. */
struct prof_counts {
	double before[NR_PROF_COUNTS];	/* thousandths per element */
	double after[NR_PROF_COUNTS];
	double diff[NR_PROF_COUNTS];
};

/* A function whose counts moved. */
struct prof_moved {
	const char *fn;
	struct prof_counts c;
};

/* The profiles of a row's test, compared. */
struct prof_cmp {
	size_t loads[NR_SIDES];		/* profiled loads */
	struct prof_counts total;	/* of the prof: lines */
	struct prof_moved *moved;	/* by |instructions diff|, then name */
	size_t nr_moved;
	size_t nr_fns;			/* functions compared */
	int decimals;			/* shown: one more for a half unit */
};

struct row {
	const struct bench_test *test;
	struct metric_cmp m[NR_METRICS];
	struct prof_cmp *prof;	/* NULL: not profiled on both sides */
	/* % change: the shift of @pct_of in % of its before; NAN if none */
	double pct;
	enum metric pct_of;
	size_t loads[NR_SIDES];
	size_t units[NR_SIDES];	/* the samples of the verdict: boots, loads */
	/*
	 * The loads that carried ns, per side. Unless every load counted in
	 * loads[] did, the row shows no ns (nor % change of them): each
	 * figure of a row comes from the loads it counts.
	 */
	size_t ns_loads[NR_SIDES];
	bool ns_dropped;	/* some loads carried ns: not shown */
	double p_raw, p_adj;	/* NAN for n/a */
	enum verdict verdict;
	size_t need;		/* units per side that n/a needs */
};

struct comparison {
	struct row *rows;
	size_t nr;
	double alpha;
	enum load_stat load_stat;
	enum clock clock;	/* the unit of the cycles metric */
	enum metric figure;	/* what the verdict is of (--figure) */
	enum unit unit;		/* UNIT_BOOT or UNIT_LOAD, auto resolved */
	bool by_boot;		/* the unit is the boot, and some boot has
				 * several loads: boots are counted
				 */
	bool split;		/* a row has a between or within figure */
	size_t loads[NR_SIDES];	/* with values, per side */
	size_t boots[NR_SIDES];	/* of them, the boots (a load that says
				 * none counts as one of its own)
				 */
	size_t no_boot[NR_SIDES];	/* of the loads, those saying none */
	const char *one_boot[NR_SIDES];	/* the id, when several loads of a
					 * side all come from one boot
					 */
	size_t prof_loads[NR_SIDES];	/* with a profile, per side */
	size_t prof_rows;	/* rows profiled on both sides */
	size_t prof_moved_rows;	/* of them, rows with a function moved */
	const char *caches;	/* the profiled loads' caches, if all alike */
	const struct load *caches_differ[2];	/* two that differ, or NULL */
};

void compare_build(const struct bench_set *set, double alpha,
		   enum load_stat load_stat, struct comparison *cmp);
void compare_build_by(const struct bench_set *set, double alpha,
		      enum load_stat load_stat, enum metric figure,
		      enum unit unit, struct comparison *cmp);
const char *figure_unit(enum metric figure, enum clock clock);
const char *unit_name(const struct comparison *cmp, size_t n);
void compare_free(struct comparison *cmp);
char *ns_dropped_note(const struct row *r);

/* ------------------------------------------------------------------ */
/* profile.c */

bool prof_has_moved(const double diff[NR_PROF_COUNTS]);
void profile_build(const struct bench_set *set, struct comparison *cmp);
void profile_free(struct comparison *cmp);

/* ------------------------------------------------------------------ */
/* table.c */

enum out_format {
	OUT_TEXT,
	OUT_MARKDOWN,
	OUT_ORG,
	OUT_JSON,
	OUT_KCIDB,
};

char *escape_cell(const char *s, enum out_format fmt);
void print_report(const struct bench_set *set, const struct comparison *cmp,
		  enum out_format fmt);

/* ------------------------------------------------------------------ */
/* json.c */

void print_json(const struct bench_set *set, const struct comparison *cmp);

/* ------------------------------------------------------------------ */
/* kcidb.c */

struct kcidb_opts {
	const char *origin;	/* the CI system's name: [a-z0-9_]+ */
	const char *commit;	/* 40 hex digits, or NULL */
	const char *commit_name;	/* its subject, or NULL */
	enum load_stat load_stat;
};

#define KCIDB_ORIGIN		"bench_page_pool"

int print_kcidb(const struct bench_set *set, const struct kcidb_opts *o);

/* ------------------------------------------------------------------ */
/* help.c */

void print_usage(FILE *f);
void print_help(FILE *f);

/* ------------------------------------------------------------------ */
/* plot.c */

bool plot_path_ok(const char *path);
bool plot_tool_found(void);
int plot_write(const struct comparison *cmp, const char *path);

#endif /* BENCH_COMPARE_H */
