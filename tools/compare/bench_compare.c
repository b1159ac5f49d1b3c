// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: compares before/after runs of bench_page_pool_simple.
 *
 * Reads results files (debugfs) and dmesg logs with the legacy
 * "time_bench: Type:" lines, groups the per-element samples by test and
 * side, and prints per test the medians before and after, their
 * difference and relative change, and whether the change in cycles per
 * element is significant (two-sided Mann-Whitney U test) or noise.
 * "bench-compare --help" tells the rest.
 *
 * The unit tests build this file with BENCH_COMPARE_NO_MAIN defined: main
 * is then called bench_compare_main, and the tests reach every helper.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define PROG			"bench-compare"
#define EXACT_MAX_N		20	/* exact p up to this many samples */
#define MAX_ERRORS		20	/* reported per input file */
#define DEFAULT_ALPHA		0.05
#define NEED_SAMPLES_MAX	1000000

/*
 * User-space stand-in for the kernel's __printf (compiler_attributes.h);
 * split over two lines only so that checkpatch does not ask for __printf
 * in the definition of __printf itself.
 */
#define __printf(a, b)	__attribute__((					\
	__format__(__printf__, a, b)))

#ifdef BENCH_COMPARE_NO_MAIN
#define BENCH_COMPARE_MAIN	bench_compare_main
#else
#define BENCH_COMPARE_MAIN	main
#endif

enum side {
	SIDE_BEFORE,
	SIDE_AFTER,
	NR_SIDES,
};

static const char * const side_names[NR_SIDES] = { "before", "after" };

struct sample_vec {
	double *v;
	size_t n;
	size_t cap;
};

struct bench_test {
	char *name;
	struct sample_vec cycles[NR_SIDES];
	struct sample_vec ns[NR_SIDES];
};

struct bench_set {
	struct bench_test *tests;
	size_t nr;
	size_t cap;
	char *cpu_model[2];	/* the first one seen, the first other one */
};

/* One input file being read. */
struct parse_ctx {
	struct bench_set *set;
	enum side side;
	const char *file;
	unsigned long lineno;
	int format;		/* 0 until a "format:" line, -1 if bad */
	unsigned int errors;
	size_t samples;
};

/* ------------------------------------------------------------------ */
/* Memory: running out is reported and ends the program (exit 2). */

static void out_of_memory(void)
{
	fputs(PROG ": out of memory\n", stderr);
	exit(2);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

static void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		out_of_memory();
	return p;
}

static char *xasprintf(const char *fmt, ...) __printf(1, 2);

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		out_of_memory();
	s = xrealloc(NULL, (size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)len + 1, fmt, ap);
	va_end(ap);
	return s;
}

static void vec_push(struct sample_vec *vec, double x)
{
	if (vec->n == vec->cap) {
		vec->cap = vec->cap ? vec->cap * 2 : 8;
		vec->v = xrealloc(vec->v, vec->cap * sizeof(*vec->v));
	}
	vec->v[vec->n++] = x;
}

/* ------------------------------------------------------------------ */
/* Statistics */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n >= 1 values; the mean of the middle two for even @n. */
static double median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return NAN;
	s = xrealloc(NULL, n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

struct ranked {
	double x;
	size_t idx;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *p = a, *q = b;

	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->idx < q->idx ? -1 : p->idx > q->idx;
}

/*
 * Ranks @x (@nx values) and @y (@ny values) pooled, ties getting the mean
 * of the ranks they span. Stores twice each midrank in @rank2 (x first,
 * then y), so that they are integers, and returns the tie term
 * sum(t^3 - t) over the groups of t tied values.
 */
static double pooled_ranks2(const double *x, size_t nx, const double *y,
			    size_t ny, long long *rank2)
{
	size_t n = nx + ny, i, j, k;
	struct ranked *r;
	double ties = 0;

	r = xrealloc(NULL, n * sizeof(*r));
	for (i = 0; i < n; i++) {
		r[i].x = i < nx ? x[i] : y[i - nx];
		r[i].idx = i;
	}
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && r[j].x == r[i].x; j++)
			;
		/* 0-based positions i..j-1 are ranks i+1..j: twice the mean */
		for (k = i; k < j; k++)
			rank2[r[k].idx] = (long long)(i + 1 + j);
		t = (double)(j - i);
		ties += t * t * t - t;
	}
	free(r);
	return ties;
}

/* The midranks (1-based, ties averaged) of @n values into @rank. */
static void midranks(const double *v, size_t n, double *rank)
{
	long long *rank2 = xcalloc(n, sizeof(*rank2));
	size_t i;

	pooled_ranks2(v, n, NULL, 0, rank2);
	for (i = 0; i < n; i++)
		rank[i] = rank2[i] / 2.0;
	free(rank2);
}

/* Mann-Whitney U of @x against @y: R_x - nx(nx+1)/2, with midranks. */
static double mwu_u(const double *x, size_t nx, const double *y, size_t ny)
{
	double *pool = xcalloc(nx + ny, sizeof(*pool));
	double *rank = xcalloc(nx + ny, sizeof(*rank));
	double sum = 0;
	size_t i;

	memcpy(pool, x, nx * sizeof(*pool));
	memcpy(pool + nx, y, ny * sizeof(*pool));
	midranks(pool, nx + ny, rank);
	for (i = 0; i < nx; i++)
		sum += rank[i];
	free(rank);
	free(pool);
	return sum - (double)nx * (nx + 1) / 2;
}

/*
 * Exact two-sided p of the Mann-Whitney U test: the share of all ways
 * to pick nx of the pooled (mid)ranks whose rank sum lies at least as
 * far from its mean as the observed one. Handles ties exactly (the
 * permutation distribution of the midranks). Costs O(nx * n^3).
 */
static double mwu_p_exact(const double *x, size_t nx, const double *y,
			  size_t ny)
{
	size_t n = nx + ny, i, k;
	long long *rank2, obs = 0, mean2, dev, s, max2;
	double *cnt, hit = 0, total = 0;

	if (!nx || !ny)
		return 1;
	rank2 = xcalloc(n, sizeof(*rank2));
	pooled_ranks2(x, nx, y, ny, rank2);
	for (i = 0; i < nx; i++)
		obs += rank2[i];
	max2 = (long long)(n * (n + 1));
	/* cnt[k][s]: subsets of k ranks whose doubled sum is s */
	cnt = xcalloc((nx + 1) * (size_t)(max2 + 1), sizeof(*cnt));
#define CNT(k, s)	cnt[(size_t)(k) * (size_t)(max2 + 1) + (size_t)(s)]
	CNT(0, 0) = 1;
	for (i = 0; i < n; i++) {
		for (k = (i + 1 < nx ? i + 1 : nx); k >= 1; k--) {
			for (s = max2; s >= rank2[i]; s--)
				CNT(k, s) += CNT(k - 1, s - rank2[i]);
		}
	}
	mean2 = (long long)(nx * (n + 1));
	dev = llabs(obs - mean2);
	for (s = 0; s <= max2; s++) {
		total += CNT(nx, s);
		if (llabs(s - mean2) >= dev)
			hit += CNT(nx, s);
	}
#undef CNT
	free(cnt);
	free(rank2);
	return hit / total > 1 ? 1 : hit / total;
}

/* Upper tail of the standard normal distribution, doubled. */
static double two_sided_normal_p(double z)
{
	double p = erfc(fabs(z) / sqrt(2.0));

	return p > 1 ? 1 : p;
}

/*
 * Two-sided p of the Mann-Whitney U test from the normal approximation,
 * with the tie correction of the variance and a continuity correction.
 */
static double mwu_p_normal(const double *x, size_t nx, const double *y,
			   size_t ny)
{
	double n = (double)(nx + ny), mu, var, d, ties;
	long long *rank2;

	if (!nx || !ny)
		return 1;
	rank2 = xcalloc(nx + ny, sizeof(*rank2));
	ties = pooled_ranks2(x, nx, y, ny, rank2);
	free(rank2);
	mu = (double)nx * ny / 2;
	var = (double)nx * ny / 12 * ((n + 1) - ties / (n * (n - 1)));
	if (var <= 0)
		return 1;	/* every value the same */
	d = fabs(mwu_u(x, nx, y, ny) - mu) - 0.5;
	if (d < 0)
		d = 0;
	return two_sided_normal_p(d / sqrt(var));
}

/* Exact up to EXACT_MAX_N samples in all, normal approximation above. */
static double mwu_p(const double *x, size_t nx, const double *y, size_t ny)
{
	if (nx + ny <= EXACT_MAX_N)
		return mwu_p_exact(x, nx, y, ny);
	return mwu_p_normal(x, nx, y, ny);
}

/*
 * The smallest p that mwu_p() can yield for @nx against @ny samples:
 * complete separation without ties. Exact: 2 / C(nx + ny, nx).
 */
static double mwu_min_p(size_t nx, size_t ny)
{
	double n = (double)(nx + ny), mu, var, c = 1;
	size_t i;

	if (!nx || !ny)
		return 1;
	if (nx + ny <= EXACT_MAX_N) {
		for (i = 1; i <= nx; i++)
			c = c * (double)(ny + i) / (double)i;
		return 2 / c > 1 ? 1 : 2 / c;
	}
	mu = (double)nx * ny / 2;
	var = (double)nx * ny / 12 * (n + 1);
	return two_sided_normal_p((mu - 0.5) / sqrt(var));
}

/*
 * The fewest samples per side with which a difference can be
 * significant at @alpha; 0 if none up to NEED_SAMPLES_MAX.
 */
static size_t need_samples(double alpha)
{
	size_t n;

	for (n = 1; n <= NEED_SAMPLES_MAX; n++) {
		if (mwu_min_p(n, n) < alpha)
			return n;
	}
	return 0;
}

enum verdict {
	VERDICT_NA,
	VERDICT_NOISE,
	VERDICT_CHANGE,
};

/* The verdict on @b against @a; stores p (NAN for n/a) in @p. */
static enum verdict judge(const struct sample_vec *b,
			  const struct sample_vec *a, double alpha, double *p)
{
	*p = NAN;
	if (mwu_min_p(b->n, a->n) >= alpha)
		return VERDICT_NA;
	*p = mwu_p(b->v, b->n, a->v, a->n);
	return *p < alpha ? VERDICT_CHANGE : VERDICT_NOISE;
}

/* ------------------------------------------------------------------ */
/* Input */

static void parse_error(struct parse_ctx *ctx, const char *fmt, ...) __printf(2, 3);

static void parse_error(struct parse_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	ctx->errors++;
	if (ctx->errors > MAX_ERRORS)
		return;
	fprintf(stderr, PROG ": %s:%lu: ", ctx->file, ctx->lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static struct bench_test *find_test(struct bench_set *set, const char *name)
{
	struct bench_test *t;
	size_t i;

	for (i = 0; i < set->nr; i++) {
		if (!strcmp(set->tests[i].name, name))
			return &set->tests[i];
	}
	if (set->nr == set->cap) {
		set->cap = set->cap ? set->cap * 2 : 16;
		set->tests = xrealloc(set->tests,
				      set->cap * sizeof(*set->tests));
	}
	t = &set->tests[set->nr++];
	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	return t;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Parses the decimal digits at *@s into @val, advancing *@s. Returns the
 * number of digits, or -1 on overflow.
 */
static int scan_ull(const char **s, unsigned long long *val)
{
	const char *p = *s;
	unsigned long long v = 0;
	int digits = 0;

	for (; is_digit(*p); p++, digits++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (~0ULL - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*s = p;
	*val = v;
	return digits;
}

/* A whole string of digits: true and @val set, or false. */
static bool parse_ull(const char *s, unsigned long long *val)
{
	const char *p = s;

	return scan_ull(&p, val) > 0 && !*p;
}

/*
 * The length of the plain decimal number at @s ("12", "12.5", "1.5e3";
 * no sign, no hex, no inf/nan), 0 if there is none.
 */
static size_t number_len(const char *s)
{
	const char *p = s;

	if (!is_digit(*p))
		return 0;
	while (is_digit(*p))
		p++;
	if (*p == '.') {
		if (!is_digit(p[1]))
			return (size_t)(p - s);
		for (p++; is_digit(*p); p++)
			;
	}
	if (*p == 'e' || *p == 'E') {
		const char *e = p + 1;

		if (*e == '+' || *e == '-')
			e++;
		if (is_digit(*e)) {
			while (is_digit(*e))
				e++;
			p = e;
		}
	}
	return (size_t)(p - s);
}

/* A whole string that is a finite plain decimal number. */
static bool parse_double(const char *s, double *val)
{
	size_t len = number_len(s);

	if (!len || s[len])
		return false;
	*val = strtod(s, NULL);
	return isfinite(*val);
}

/*
 * "format: bench_page_pool_simple N". After a bad one, ctx->format is -1:
 * its "test:" lines are skipped, the error having been reported.
 */
static void parse_format(struct parse_ctx *ctx, const char *s)
{
	static const char name[] = "bench_page_pool_simple";
	unsigned long long v;
	const char *num;
	size_t len;

	ctx->format = -1;
	s += strspn(s, " \t");
	len = strcspn(s, " \t");
	num = s + len + strspn(s + len, " \t");
	len = strcspn(num, " \t");
	if (strncmp(s, name, strlen(name)) || !strchr(" \t", s[strlen(name)]) ||
	    !len || num[len + strspn(num + len, " \t")]) {
		parse_error(ctx, "bad format line: expected \"format: %s N\"",
			    name);
		return;
	}
	s = num;
	if (scan_ull(&s, &v) <= 0 || s != num + len || v < 1 || v > 2) {
		parse_error(ctx,
			    "unsupported results format version %.*s (supported: 1, 2)",
			    (int)len, num);
		return;
	}
	ctx->format = (int)v;
}

/* Keeps the first CPU model and the first different one, for a warning. */
static void parse_cpu_model(struct parse_ctx *ctx, const char *s)
{
	struct bench_set *set = ctx->set;

	s += strspn(s, " \t");
	if (!set->cpu_model[0])
		set->cpu_model[0] = xstrdup(s);
	else if (!set->cpu_model[1] && strcmp(set->cpu_model[0], s))
		set->cpu_model[1] = xstrdup(s);
}

enum test_field {
	F_NAME,
	F_CYCLES,
	F_NS,
	F_INVOKE_COUNT,
	F_CYCLES_PER_ELEM,
	F_NS_PER_ELEM,
	F_REPS,
	F_CYCLES_SAMPLES,
	F_NS_SAMPLES,
	NR_FIELDS,
};

static const char * const field_names[NR_FIELDS] = {
	[F_NAME] = "name",
	[F_CYCLES] = "cycles",
	[F_NS] = "ns",
	[F_INVOKE_COUNT] = "invoke_count",
	[F_CYCLES_PER_ELEM] = "cycles_per_elem",
	[F_NS_PER_ELEM] = "ns_per_elem",
	[F_REPS] = "reps",
	[F_CYCLES_SAMPLES] = "cycles_samples",
	[F_NS_SAMPLES] = "ns_samples",
};

/*
 * Parses the comma-separated numbers of field @f into @out (cleared
 * first). False, with the error reported, on a bad value.
 */
static bool parse_list(struct parse_ctx *ctx, const char *test,
		       enum test_field f, const char *val,
		       struct sample_vec *out)
{
	const char *p = val;

	out->n = 0;
	for (;;) {
		size_t len = number_len(p);
		double x;

		if (!len || (p[len] && p[len] != ',')) {
			parse_error(ctx, "test %s: bad number in %s=%s", test,
				    field_names[f], val);
			return false;
		}
		x = strtod(p, NULL);
		if (!isfinite(x)) {
			parse_error(ctx, "test %s: bad number in %s=%s", test,
				    field_names[f], val);
			return false;
		}
		vec_push(out, x);
		p += len;
		if (!*p)
			return true;
		p++;
	}
}

/* Field @f of @val as an integer: true if absent or valid, else reported. */
static bool field_ull(struct parse_ctx *ctx, const char *test,
		      enum test_field f, const char * const *val,
		      unsigned long long *out)
{
	if (!val[f] || parse_ull(val[f], out))
		return true;
	parse_error(ctx, "test %s: bad number in %s=%s", test, field_names[f],
		    val[f]);
	return false;
}

/* Field @f of @val as a number: true if absent or valid, else reported. */
static bool field_double(struct parse_ctx *ctx, const char *test,
			 enum test_field f, const char * const *val,
			 double *out)
{
	if (!val[f] || parse_double(val[f], out))
		return true;
	parse_error(ctx, "test %s: bad number in %s=%s", test, field_names[f],
		    val[f]);
	return false;
}

/* "test: key=value ..." of a results file */
static void parse_test(struct parse_ctx *ctx, char *s)
{
	const char *val[NR_FIELDS] = { NULL };
	unsigned long long cycles = 0, ns = 0, invokes = 0, reps = 0;
	double cpe = 0, npe = 0;
	struct sample_vec cs = { NULL }, nss = { NULL };
	struct bench_test *t;
	const char *name;
	char *tok, *save;
	int f;

	if (!ctx->format) {
		parse_error(ctx, "test: line before any format: line");
		return;
	}
	if (ctx->format < 0)
		return;
	for (tok = strtok_r(s, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok) {
			parse_error(ctx, "malformed field '%s': expected key=value",
				    tok);
			return;
		}
		*eq = '\0';
		for (f = 0; f < NR_FIELDS; f++) {
			if (!strcmp(tok, field_names[f]))
				val[f] = eq + 1;
		}
	}
	name = val[F_NAME];
	if (!name || !*name) {
		parse_error(ctx, "test: line without name=");
		return;
	}

	if (!field_ull(ctx, name, F_CYCLES, val, &cycles) ||
	    !field_ull(ctx, name, F_NS, val, &ns) ||
	    !field_ull(ctx, name, F_INVOKE_COUNT, val, &invokes) ||
	    !field_ull(ctx, name, F_REPS, val, &reps) ||
	    !field_double(ctx, name, F_CYCLES_PER_ELEM, val, &cpe) ||
	    !field_double(ctx, name, F_NS_PER_ELEM, val, &npe))
		return;

	if (!val[F_CYCLES_SAMPLES] && !val[F_CYCLES_PER_ELEM] &&
	    !(val[F_CYCLES] && val[F_INVOKE_COUNT])) {
		parse_error(ctx,
			    "test %s: no cycles (need cycles= and invoke_count=, or cycles_per_elem=)",
			    name);
		return;
	}
	if (val[F_INVOKE_COUNT] && !invokes &&
	    ((!val[F_CYCLES_SAMPLES] && val[F_CYCLES]) ||
	     (!val[F_NS_SAMPLES] && val[F_NS]))) {
		parse_error(ctx, "test %s: invoke_count=0", name);
		return;
	}
	if (val[F_CYCLES_SAMPLES] &&
	    !parse_list(ctx, name, F_CYCLES_SAMPLES, val[F_CYCLES_SAMPLES],
			&cs))
		goto out;
	if (val[F_NS_SAMPLES] &&
	    !parse_list(ctx, name, F_NS_SAMPLES, val[F_NS_SAMPLES], &nss))
		goto out;
	if (val[F_REPS] && val[F_CYCLES_SAMPLES] && cs.n != reps) {
		parse_error(ctx, "test %s: cycles_samples has %zu values, reps=%llu",
			    name, cs.n, reps);
		goto out;
	}
	if (val[F_REPS] && val[F_NS_SAMPLES] && nss.n != reps) {
		parse_error(ctx, "test %s: ns_samples has %zu values, reps=%llu",
			    name, nss.n, reps);
		goto out;
	}
	if (val[F_CYCLES_SAMPLES] && val[F_NS_SAMPLES] && cs.n != nss.n) {
		parse_error(ctx,
			    "test %s: cycles_samples has %zu values, ns_samples %zu",
			    name, cs.n, nss.n);
		goto out;
	}

	t = find_test(ctx->set, name);
	if (val[F_CYCLES_SAMPLES]) {
		size_t i;

		for (i = 0; i < cs.n; i++)
			vec_push(&t->cycles[ctx->side], cs.v[i]);
		ctx->samples += cs.n;
	} else {
		if (val[F_CYCLES] && val[F_INVOKE_COUNT])
			cpe = (double)cycles / (double)invokes;
		vec_push(&t->cycles[ctx->side], cpe);
		ctx->samples++;
	}
	if (val[F_NS_SAMPLES]) {
		size_t i;

		for (i = 0; i < nss.n; i++)
			vec_push(&t->ns[ctx->side], nss.v[i]);
	} else if (val[F_NS] && val[F_INVOKE_COUNT]) {
		vec_push(&t->ns[ctx->side], (double)ns / (double)invokes);
	} else if (val[F_NS_PER_ELEM]) {
		vec_push(&t->ns[ctx->side], npe);
	}
out:
	free(cs.v);
	free(nss.v);
}

/*
 * Matches the literal @lit at *@s: 1 and *@s advanced past it, 0 if the
 * line ends inside it (truncated), -1 if it differs.
 */
static int expect_lit(const char **s, const char *lit)
{
	size_t i;

	for (i = 0; lit[i]; i++) {
		if (!(*s)[i])
			return 0;
		if ((*s)[i] != lit[i])
			return -1;
	}
	*s += i;
	return 1;
}

/*
 * The number after @key in a legacy line: 1 with @val set if it is
 * complete (something follows it), 0 if @key is missing or the line ends
 * in the number, -1 if no number follows @key, -2 if it is too large.
 */
static int legacy_field(const char *s, const char *key,
			unsigned long long *val)
{
	const char *p = strstr(s, key);
	int digits;

	if (!p)
		return 0;
	p += strlen(key);
	digits = scan_ull(&p, val);
	if (digits < 0)
		return -2;
	if (!*p)
		return 0;
	return digits ? 1 : -1;
}

/* Where the legacy record starts ("time_bench: Type:"), after "Type:". */
static const char *find_legacy(const char *line)
{
	static const char tag[] = "time_bench:";
	const char *p = line;

	while ((p = strstr(p, tag))) {
		p += strlen(tag);
		p += strspn(p, " \t");
		if (!strncmp(p, "Type:", 5))
			return p + 5;
	}
	return NULL;
}

/*
 * "Type:NAME Per elem: C cycles(tsc) N ns (step:S) - (measurement period
 * time:T sec time_interval:I) - (invoke count:K tsc_interval:Z)"
 *
 * One sample: Z/K cycles and I/K ns per element when I, K and Z are
 * complete, else the printed C and N if they are. The summary line
 * "Type:NAME Spread over N reps: ..." that follows it with reps > 1 is
 * ignored.
 */
static void parse_legacy(struct parse_ctx *ctx, const char *s)
{
	static const char * const keys[3] = {
		"time_interval:", "invoke count:", "tsc_interval:"
	};
	unsigned long long c = 0, v[3];
	int r, i, have = 0;
	struct bench_test *t;
	double ns = 0, cycles;
	const char *p;
	size_t len;
	char *name;

	len = strcspn(s, " \t");
	if (!len) {
		if (*s)
			parse_error(ctx, "malformed legacy line: no test name after Type:");
		else
			parse_error(ctx, "truncated legacy line: no test name");
		return;
	}
	p = s + len;
	/* format 2's "Type:NAME Spread over N reps: ..." is no sample */
	if (!strncmp(p, " Spread over ", 13))
		return;

	r = expect_lit(&p, " Per elem: ");
	if (r > 0) {
		r = scan_ull(&p, &c);
		if (r < 0) {
			parse_error(ctx, "malformed legacy line: cycles out of range");
			return;
		}
		if (!r && *p) {
			parse_error(ctx, "malformed legacy line: non-numeric cycles");
			return;
		}
		if (r)
			r = expect_lit(&p, " cycles(tsc)");
	}
	if (!r) {
		parse_error(ctx, "truncated legacy line: no cycles");
		return;
	}
	if (r < 0) {
		parse_error(ctx,
			    "malformed legacy line: expected \"Per elem: C cycles(tsc) N ns\" after the test name");
		return;
	}

	r = expect_lit(&p, " ");
	if (r > 0) {
		len = number_len(p);
		if (!len && *p) {
			parse_error(ctx, "malformed legacy line: non-numeric ns");
			return;
		}
		ns = strtod(p, NULL);
		p += len;
		r = len ? expect_lit(&p, " ns") : 0;
	}
	if (!r) {
		parse_error(ctx, "truncated legacy line: no ns");
		return;
	}
	if (r < 0) {
		parse_error(ctx,
			    "malformed legacy line: expected \"Per elem: C cycles(tsc) N ns\" after the test name");
		return;
	}

	for (i = 0; i < 3; i++) {
		r = legacy_field(p, keys[i], &v[i]);
		if (r < 0) {
			parse_error(ctx, "malformed legacy line: %s value after \"%s\"",
				    r == -1 ? "non-numeric" : "out-of-range",
				    keys[i]);
			return;
		}
		have += r;
	}

	cycles = (double)c;
	if (have == 3) {
		if (!v[1]) {
			parse_error(ctx, "legacy line with invoke count 0");
			return;
		}
		ns = (double)v[0] / (double)v[1];
		cycles = (double)v[2] / (double)v[1];
	}
	name = xasprintf("%.*s", (int)strcspn(s, " \t"), s);
	t = find_test(ctx->set, name);
	vec_push(&t->cycles[ctx->side], cycles);
	vec_push(&t->ns[ctx->side], ns);
	ctx->samples++;
	free(name);
}

static void parse_line(struct parse_ctx *ctx, char *line)
{
	const char *legacy;

	if (!strncmp(line, "format:", 7)) {
		parse_format(ctx, line + 7);
		return;
	}
	if (!strncmp(line, "test:", 5)) {
		parse_test(ctx, line + 5);
		return;
	}
	if (ctx->format > 0 && !strncmp(line, "cpu_model:", 10)) {
		parse_cpu_model(ctx, line + 10);
		return;
	}
	legacy = find_legacy(line);
	if (legacy)
		parse_legacy(ctx, legacy);
}

/* Reads one input file ("-": standard input); 0, or -1 if it is bad. */
static int read_input(struct bench_set *set, enum side side, const char *path)
{
	struct parse_ctx ctx = {
		.set = set,
		.side = side,
		.file = strcmp(path, "-") ? path : "<stdin>",
	};
	bool is_stdin = !strcmp(path, "-");
	size_t cap = 0;
	char *line = NULL;
	ssize_t len;
	FILE *f;
	int ret = 0;

	f = is_stdin ? stdin : fopen(path, "r");
	if (!f) {
		fprintf(stderr, PROG ": %s: cannot open: %s\n", path,
			strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		ctx.lineno++;
		while (len > 0 &&
		       (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		parse_line(&ctx, line);
		if (ctx.errors > MAX_ERRORS) {
			fprintf(stderr, PROG ": %s: too many errors, skipping the rest\n",
				ctx.file);
			break;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, PROG ": %s: read error: %s\n", ctx.file,
			strerror(errno));
		ret = -1;
	}
	free(line);
	if (!is_stdin)
		fclose(f);
	if (ctx.errors)
		return -1;
	if (!ret && !ctx.samples) {
		fprintf(stderr, PROG ": no benchmark results in %s\n", ctx.file);
		ret = -1;
	}
	return ret;
}

static void free_set(struct bench_set *set)
{
	size_t i;
	int s;

	for (i = 0; i < set->nr; i++) {
		for (s = 0; s < NR_SIDES; s++) {
			free(set->tests[i].cycles[s].v);
			free(set->tests[i].ns[s].v);
		}
		free(set->tests[i].name);
	}
	free(set->tests);
	free(set->cpu_model[0]);
	free(set->cpu_model[1]);
}

/* ------------------------------------------------------------------ */
/* Output */

enum out_format {
	OUT_TEXT,
	OUT_MARKDOWN,
	OUT_ORG,
};

enum column {
	COL_TEST,
	COL_CYC_BEFORE,
	COL_CYC_AFTER,
	COL_CYC_DIFF,
	COL_CYC_PCT,
	COL_NS_BEFORE,
	COL_NS_AFTER,
	COL_NS_DIFF,
	COL_NS_PCT,
	COL_N,
	COL_VERDICT,
	NR_COLS,
};

static const char * const col_names[NR_COLS] = {
	"test", "cycles before", "cycles after", "cycles diff", "cycles %",
	"ns before", "ns after", "ns diff", "ns %", "n", "verdict",
};

struct row {
	char *cell[NR_COLS];
	const char *name;
	double cyc_pct;		/* NAN if not computable */
	double p;
	enum verdict verdict;
};

/* "%+.2f" without "-0.00"; @suffix appended */
static char *fmt_signed(double x, const char *suffix)
{
	char *s = xasprintf("%+.2f%s", x, suffix);

	if (!strncmp(s, "-0.00", 5) && !is_digit(s[5]))
		s[0] = '+';
	return s;
}

/* The before/after/diff/% cells of one metric from its samples. */
static void fill_metric(struct row *row, enum column first,
			const struct sample_vec *b, const struct sample_vec *a,
			double *pct_out)
{
	double mb, ma, pct = NAN;

	if (!b->n || !a->n) {
		int i;

		for (i = 0; i < 4; i++)
			row->cell[first + i] = xstrdup("-");
		if (pct_out)
			*pct_out = NAN;
		return;
	}
	mb = median(b->v, b->n);
	ma = median(a->v, a->n);
	row->cell[first] = xasprintf("%.2f", mb);
	row->cell[first + 1] = xasprintf("%.2f", ma);
	row->cell[first + 2] = fmt_signed(ma - mb, "");
	if (mb != 0) {
		pct = (ma - mb) / mb * 100;
		row->cell[first + 3] = fmt_signed(pct, "%");
	} else {
		row->cell[first + 3] = xstrdup("-");
	}
	if (pct_out)
		*pct_out = pct;
}

/* A cell as it must appear in @fmt: '|' escaped in tables. */
static char *escape_cell(const char *s, enum out_format fmt)
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

static bool col_left(int col)
{
	return col == COL_TEST || col == COL_VERDICT;
}

static void print_dashes(size_t n)
{
	while (n--)
		putchar('-');
}

static void print_cells(char * const *cell, const size_t *width,
			enum out_format fmt)
{
	int c;

	for (c = 0; c < NR_COLS; c++) {
		int w = (int)width[c];

		if (fmt == OUT_TEXT) {
			if (c)
				fputs("  ", stdout);
			if (c == NR_COLS - 1)
				fputs(cell[c], stdout);
			else if (col_left(c))
				printf("%-*s", w, cell[c]);
			else
				printf("%*s", w, cell[c]);
		} else {
			printf(col_left(c) ? "| %-*s " : "| %*s ", w, cell[c]);
		}
	}
	puts(fmt == OUT_TEXT ? "" : "|");
}

static void print_rule(const size_t *width, enum out_format fmt)
{
	int c;

	for (c = 0; c < NR_COLS; c++) {
		if (fmt == OUT_ORG) {
			fputs(c ? "+" : "|", stdout);
			print_dashes(width[c] + 2);
		} else if (col_left(c)) {
			fputs("| :", stdout);
			print_dashes(width[c] - 1);
			putchar(' ');
		} else {
			fputs("| ", stdout);
			print_dashes(width[c] - 1);
			fputs(": ", stdout);
		}
	}
	puts("|");
}

static void print_footer_line(enum out_format fmt, bool *first,
			      const char *fmtstr, ...) __printf(3, 4);

/* Footer lines: after a blank line; separate paragraphs in markdown. */
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

/* ------------------------------------------------------------------ */
/* Command line */

static const char usage_text[] =
	"usage: " PROG " [-f text|markdown|org] [--alpha A] [--fail-above PCT]\n"
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
	"       sides: the median cycles and nanoseconds per element before and\n"
	"       after, the difference (after - before) and the change in percent\n"
	"       of the before value, the number of samples on each side, and a\n"
	"       verdict on whether the cycles per element really changed.\n"
	"\n"
	"       The verdict comes from a two-sided Mann-Whitney U test of the\n"
	"       cycles/elem samples before against those after, ties ranked by\n"
	"       their mean rank. p is exact (the permutation distribution of the\n"
	"       ranks) when both sides together have at most 20 samples, else\n"
	"       from the normal approximation with tie and continuity\n"
	"       corrections. The verdict is \"change\" when p < alpha, \"noise\"\n"
	"       otherwise, and \"n/a (need N samples)\" when the sample counts\n"
	"       cannot give p < alpha at all, N being the fewest samples per\n"
	"       side that can (4 at alpha 0.05). A format 2 results file gives\n"
	"       one sample per repetition, other inputs one per test and run:\n"
	"       repeat runs, every input file adds its samples.\n"
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
	"              Significance level, 0 < A < 1. Default: 0.05.\n"
	"\n"
	"       --fail-above PCT\n"
	"              Exit with status 1 if a test's cycles/elem median got\n"
	"              worse (after > before) by more than PCT percent and its\n"
	"              verdict is \"change\"; such tests are listed on stderr.\n"
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
	"              starts one; other versions are an error. Each\n"
	"              \"test: key=value ...\" line needs name= and either\n"
	"              cycles= with invoke_count= (cycles/elem is their\n"
	"              quotient) or cycles_per_elem=; ns= with invoke_count=, or\n"
	"              ns_per_elem=, give ns/elem. Such a line is one sample,\n"
	"              unless it has cycles_samples=X,Y,... (and ns_samples=)\n"
	"              lists, format 2: then each listed value is one sample and\n"
	"              their count must equal reps= if given. Unknown keys are\n"
	"              ignored.\n"
	"\n"
	"       dmesg logs\n"
	"              with or without timestamps, with the lines\n"
	"              \"time_bench: Type:NAME Per elem: C cycles(tsc) N ns ...\n"
	"              time_interval:I) - (invoke count:K tsc_interval:Z)\".\n"
	"              Each is one sample: Z/K cycles and I/K ns per element. A\n"
	"              line cut short before I, K or Z are complete gives the\n"
	"              printed C and N instead, if \"Per elem: C cycles(tsc) N ns\"\n"
	"              is complete; otherwise it is an error. The summary lines\n"
	"              \"time_bench: Type:NAME Spread over N reps: ...\" and all\n"
	"              other lines are ignored.\n"
	"\n"
	"       CRLF line ends are accepted. A file without any sample is an\n"
	"       error.\n"
	"\n"
	"OUTPUT\n"
	"       Columns: test, cycles before, cycles after, cycles diff,\n"
	"       cycles %, ns before, ns after, ns diff, ns %, n (samples\n"
	"       before/after) and verdict. Values are medians with two\n"
	"       decimals; diff and % carry a sign; \"-\" marks a value that\n"
	"       cannot be computed. Rows follow the order in which tests first\n"
	"       appear in the before input. Tests found on one side only are\n"
	"       listed after the table (\"only in before: NAME\", \"only in\n"
	"       after: NAME\"), and a last line names the test and alpha.\n"
	"       A warning goes to stderr when the results files name different\n"
	"       CPU models.\n"
	"\n"
	"EXIT STATUS\n"
	"       0      Success.\n"
	"       1      --fail-above was given and a test regressed beyond it\n"
	"              with a \"change\" verdict.\n"
	"       2      Usage error, or an input file missing, unreadable or\n"
	"              bad (\"" PROG ": FILE:LINE: what is wrong\" on stderr).\n"
	"\n"
	"EXAMPLES\n"
	"       Compare the results files of two runs:\n"
	"              " PROG " before.txt after.txt\n"
	"\n"
	"       Keep the results of each run (the module runs on load):\n"
	"              modprobe bench_page_pool_simple\n"
	"              cat /sys/kernel/debug/bench_page_pool_simple/results >b1\n"
	"              rmmod bench_page_pool_simple\n"
	"\n"
	"       This kernel's log against an earlier one:\n"
	"              dmesg | " PROG " old-dmesg.log -\n"
	"\n"
	"       Five runs per side, as a table for a GitHub review:\n"
	"              " PROG " -f markdown b1 b2 b3 b4 b5 -- a1 a2 a3 a4 a5\n"
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

int BENCH_COMPARE_MAIN(int argc, char **argv)
{
	struct options o = {
		.fmt = OUT_TEXT,
		.alpha = DEFAULT_ALPHA,
		.fail_above = NAN,
	};
	struct bench_set set = { NULL };
	struct row *rows;
	size_t width[NR_COLS], nrows = 0, i, need;
	enum out_format fmt;
	double alpha;
	int s, c, ret;
	bool bad = false, first = true;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret == 1 ? 0 : ret;
	fmt = o.fmt;
	alpha = o.alpha;

	for (s = 0; s < NR_SIDES; s++) {
		for (c = 0; c < o.nr_files[s]; c++) {
			if (read_input(&set, (enum side)s, o.files[s][c]))
				bad = true;
		}
	}
	if (bad) {
		free_set(&set);
		return 2;
	}
	if (set.cpu_model[1])
		fprintf(stderr,
			PROG ": warning: inputs from different CPU models: '%s' and '%s'\n",
			set.cpu_model[0], set.cpu_model[1]);

	need = need_samples(alpha);
	rows = xcalloc(set.nr, sizeof(*rows));
	for (i = 0; i < set.nr; i++) {
		struct bench_test *t = &set.tests[i];
		struct row *row;

		if (!t->cycles[SIDE_BEFORE].n || !t->cycles[SIDE_AFTER].n)
			continue;
		row = &rows[nrows++];
		row->name = t->name;
		row->cell[COL_TEST] = escape_cell(t->name, fmt);
		fill_metric(row, COL_CYC_BEFORE, &t->cycles[SIDE_BEFORE],
			    &t->cycles[SIDE_AFTER], &row->cyc_pct);
		fill_metric(row, COL_NS_BEFORE, &t->ns[SIDE_BEFORE],
			    &t->ns[SIDE_AFTER], NULL);
		row->cell[COL_N] = xasprintf("%zu/%zu", t->cycles[SIDE_BEFORE].n,
					     t->cycles[SIDE_AFTER].n);
		row->verdict = judge(&t->cycles[SIDE_BEFORE],
				     &t->cycles[SIDE_AFTER], alpha, &row->p);
		if (row->verdict == VERDICT_NA)
			row->cell[COL_VERDICT] = xasprintf("n/a (need %zu samples)",
							   need);
		else
			row->cell[COL_VERDICT] = xstrdup(row->verdict == VERDICT_CHANGE ?
							 "change" : "noise");
	}

	for (c = 0; c < NR_COLS; c++) {
		width[c] = strlen(col_names[c]);
		if (fmt != OUT_TEXT && width[c] < 3)
			width[c] = 3;
		for (i = 0; i < nrows; i++) {
			if (strlen(rows[i].cell[c]) > width[c])
				width[c] = strlen(rows[i].cell[c]);
		}
	}
	print_cells((char * const *)col_names, width, fmt);
	if (fmt != OUT_TEXT)
		print_rule(width, fmt);
	for (i = 0; i < nrows; i++)
		print_cells(rows[i].cell, width, fmt);

	if (!nrows)
		print_footer_line(fmt, &first, "no test present on both sides");
	for (c = 0; c < NR_SIDES; c++) {
		for (i = 0; i < set.nr; i++) {
			struct bench_test *t = &set.tests[i];

			if (t->cycles[c].n && !t->cycles[!c].n)
				print_footer_line(fmt, &first, "only in %s: %s",
						  side_names[c], t->name);
		}
	}
	print_footer_line(fmt, &first,
			  "verdict: two-sided Mann-Whitney U on cycles/elem samples, alpha %g",
			  alpha);

	if (o.fail_above >= 0) {
		for (i = 0; i < nrows; i++) {
			struct row *row = &rows[i];

			if (row->verdict != VERDICT_CHANGE ||
			    !(row->cyc_pct > o.fail_above))
				continue;
			fprintf(stderr,
				PROG ": regression above %g%%: %s cycles/elem %s (p=%.3g)\n",
				o.fail_above, row->name, row->cell[COL_CYC_PCT],
				row->p);
			ret = 1;
		}
	}

	for (i = 0; i < nrows; i++) {
		for (c = 0; c < NR_COLS; c++)
			free(rows[i].cell[c]);
	}
	free(rows);
	free_set(&set);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
		return 2;
	}
	return ret;
}
