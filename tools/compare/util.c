// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: memory that ends the program when it runs out, growing
 * arrays and strings, the bytes a line or a name may hold, and the
 * parsing and printing of numbers with the decimals they came with.
 *
 * Layer: the bottom: it calls no other file of the program.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

const char * const side_names[NR_SIDES] = { "before", "after" };
/* --figure's names of the metrics, and the unit of their columns */
const char * const figure_names[NR_METRICS] = {
	[MET_CYCLES] = "tsc",
	[MET_CORE_CYCLES] = "core-cycles",
	[MET_PMU_INSNS] = "instructions",
};

const char * const figure_units[NR_METRICS] = {
	[MET_NS] = "ns",
	[MET_CORE_CYCLES] = "core-cycles",
	[MET_PMU_INSNS] = "pmu-instructions",
};

const char * const clock_names[NR_CLOCKS] = {
	[CLOCK_CYCLES] = "cycles",
	[CLOCK_INSTRUCTIONS] = "instructions",
};

/* "bench-compare: MESSAGE" on stderr. */
void complain(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Running out of memory is reported and ends the program (exit 2). */
void out_of_memory(void)
{
	fputs(PROG ": out of memory\n", stderr);
	exit(2);
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		out_of_memory();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct sbuf b = { NULL };
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	return sbuf_take(&b);
}

void vec_push(struct vec *vec, double x)
{
	if (vec->n == vec->cap) {
		vec->cap = vec->cap ? vec->cap * 2 : 8;
		vec->v = xrealloc(vec->v, vec->cap * sizeof(*vec->v));
	}
	vec->v[vec->n++] = x;
}

/* Room for @n more items in *@p of @size each, holding @nr of *@cap. */
static void grow(void **p, size_t size, size_t nr, size_t *cap, size_t n)
{
	size_t want = nr + n, c = *cap ? *cap : 8;

	if (want < nr || want > (size_t)-1 / 2 / size)
		out_of_memory();
	if (want <= *cap)
		return;
	while (c < want)
		c *= 2;
	*p = xrealloc(*p, c * size);
	*cap = c;
}

/* Appends one load's @n repetitions; @load is 1 + its index in the set, or 0. */
void series_add_at(struct series *s, const double *reps, size_t n,
		   size_t load)
{
	size_t cap = s->cap_loads;

	grow((void **)&s->reps, sizeof(*s->reps), s->nr_reps, &s->cap_reps, n);
	grow((void **)&s->ends, sizeof(*s->ends), s->nr_loads, &s->cap_loads,
	     1);
	if (s->cap_loads != cap || !s->load_of)
		s->load_of = xrealloc(s->load_of,
				      s->cap_loads * sizeof(*s->load_of));
	memcpy(s->reps + s->nr_reps, reps, n * sizeof(*reps));
	s->nr_reps += n;
	s->load_of[s->nr_loads] = load;
	s->ends[s->nr_loads++] = s->nr_reps;
}

/* One load's @n repetitions, the load not known. */
void series_add(struct series *s, const double *reps, size_t n)
{
	series_add_at(s, reps, n, 0);
}

/* The repetitions of load @i, *@n of them. */
const double *series_load(const struct series *s, size_t i, size_t *n)
{
	size_t start = i ? s->ends[i - 1] : 0;

	*n = s->ends[i] - start;
	return s->reps + start;
}

void series_free(struct series *s)
{
	free(s->reps);
	free(s->ends);
	free(s->load_of);
	memset(s, 0, sizeof(*s));
}

void sbuf_add(struct sbuf *b, const char *s, size_t len)
{
	grow((void **)&b->s, 1, b->len, &b->cap, len + 1);
	memcpy(b->s + b->len, s, len);
	b->len += len;
	b->s[b->len] = '\0';
}

void sbuf_vaddf(struct sbuf *b, const char *fmt, va_list ap)
{
	va_list again;
	int len;

	va_copy(again, ap);
	len = vsnprintf(NULL, 0, fmt, ap);
	if (len < 0)
		out_of_memory();
	grow((void **)&b->s, 1, b->len, &b->cap, (size_t)len + 1);
	vsnprintf(b->s + b->len, (size_t)len + 1, fmt, again);
	va_end(again);
	b->len += (size_t)len;
}

void sbuf_addf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(b, fmt, ap);
	va_end(ap);
}

/* The string built so far (never NULL); @b is empty again. */
char *sbuf_take(struct sbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	memset(b, 0, sizeof(*b));
	return s;
}

bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Code points that are format controls rather than text: they reorder
 * what a terminal shows (bidi marks, embeddings, overrides and
 * isolates: "a\u202eb" shows b before a), break its lines (the line and
 * paragraph separators), or hide (zero-width characters, the byte
 * order mark, soft hyphen, tags). results_lib.sh's __RESULTS_STRICT
 * refuses the same ones.
 */
static bool is_format_control(unsigned int cp)
{
	static const unsigned int ranges[][2] = {
		{ 0x00ad, 0x00ad },	/* soft hyphen */
		{ 0x061c, 0x061c },	/* Arabic letter mark */
		{ 0x180e, 0x180e },	/* Mongolian vowel separator */
		{ 0x200b, 0x200f },	/* zero-width, LRM, RLM */
		{ 0x2028, 0x202e },	/* line/paragraph sep., LRE..RLO */
		{ 0x2060, 0x206f },	/* word joiner.., LRI..PDI, deprecated */
		{ 0xfeff, 0xfeff },	/* byte order mark */
		{ 0xfff9, 0xfffb },	/* interlinear annotation */
		{ 0xe0000, 0xe007f },	/* tags */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ranges); i++) {
		if (cp >= ranges[i][0] && cp <= ranges[i][1])
			return true;
	}
	return false;
}

/*
 * The length of the UTF-8 sequence at @s, its code point in *@cp: a lead
 * byte and its continuation bytes; 0 if it is none.
 */
static size_t utf8_decode(const unsigned char *s, unsigned int *cp)
{
	unsigned int i, n;

	if (*s >= 0xc2 && *s <= 0xdf)
		n = 2, *cp = *s & 0x1f;
	else if (*s >= 0xe0 && *s <= 0xef)
		n = 3, *cp = *s & 0x0f;
	else if (*s >= 0xf0 && *s <= 0xf4)
		n = 4, *cp = *s & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	return n;
}

/* The code point of the UTF-8 sequence at @s if a format control, else 0 */
unsigned int format_control_at(const char *s)
{
	unsigned int cp;

	if (!utf8_decode((const unsigned char *)s, &cp))
		return 0;
	return is_format_control(cp) ? cp : 0;
}

/*
 * The length of the UTF-8 sequence at @s that encodes a printable code
 * point: not a C1 control (U+0080..U+009F, which terminals obey) nor a
 * format control (is_format_control()), no overlong form, no
 * surrogate, at most U+10FFFF. 0 if it is none.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned int cp;
	size_t n = utf8_decode(s, &cp);

	if (!n || cp < 0xa0 || (n == 3 && cp < 0x800) ||
	    (n == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp > 0x10ffff || is_format_control(cp))
		return 0;
	return n;
}

/*
 * The first byte of @s that must not reach a terminal: a control
 * character but tab, DEL, or a byte that is not part of a printable
 * UTF-8 character (C1 and format controls are not). NULL if there is
 * none.
 */
const char *find_unprintable(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = 1;

		if (*p >= 0x80)
			n = utf8_len(p);
		else if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
			n = 0;
		if (!n)
			return (const char *)p;
		p += n;
	}
	return NULL;
}

/*
 * The first byte of a test name that no test name holds, or NULL: the
 * module's names are letters, digits, "_" and "-", what a tests= word,
 * a selected: list and a KTAP line carry as they are.
 */
const char *find_nonname(const char *s, size_t len)
{
	static const char chars[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
	size_t n = strspn(s, chars);

	return n < len ? s + n : NULL;
}

/*
 * Parses the decimal digits at *@s into @val, advancing *@s. Returns the
 * number of digits, or -1 on overflow.
 */
int scan_ull(const char **s, unsigned long long *val)
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

/* A whole string of digits: NUM_OK and @val set, else why not. */
enum num_status parse_ull(const char *s, unsigned long long *val)
{
	const char *p = s;
	int digits = scan_ull(&p, val);

	if (digits < 0)
		return is_digit(*p) ? NUM_RANGE : NUM_BAD;
	return digits && !*p ? NUM_OK : NUM_BAD;
}

/*
 * The length of the plain decimal number at @s ("12", "12.5", "1.5e3";
 * no sign, no hex, no inf/nan), 0 if there is none.
 */
size_t number_len(const char *s)
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

/*
 * The decimals the number of @len characters at @s was written with:
 * the digits after its point, less a positive exponent ("1.25e1" has 1).
 * Past VALUE_DECIMALS_MAX it says VALUE_DECIMALS_MAX + 1: too many.
 */
int number_decimals(const char *s, size_t len)
{
	const char *end = s + len, *p = s;
	long frac = 0, exp = 0;
	bool neg = false;

	while (p < end && is_digit(*p))
		p++;
	if (p < end && *p == '.')
		for (p++; p < end && is_digit(*p); p++)
			frac++;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			neg = *p++ == '-';
		/* saturated: a line holds far fewer digits than this */
		for (; p < end && is_digit(*p); p++)
			if (exp < 1000000)
				exp = exp * 10 + (*p - '0');
		if (neg)
			exp = -exp;
	}
	frac -= exp;
	if (frac < 0)
		return 0;
	return frac > VALUE_DECIMALS_MAX ? VALUE_DECIMALS_MAX + 1 : (int)frac;
}

/*
 * The plain decimal number of @len characters at @s as printf("%.*f")
 * writes it with its @decimals (number_decimals(), at most
 * VALUE_DECIMALS_MAX): no exponent, no leading zeros but the one before
 * the point. NULL if that takes over 200 digits (never for a value of at
 * most VALUE_MAX).
 */
static char *number_written(const char *s, size_t len, int decimals)
{
	const char *end = s + len, *p;
	struct sbuf num = { NULL }, out = { NULL };
	long frac = -1, exp = 0, zeros;
	bool neg = false;
	size_t d = (size_t)decimals;

	/* value = digits * 10^(exp - frac) */
	for (p = s; p < end && *p != 'e' && *p != 'E'; p++) {
		if (*p == '.')
			frac = 0;
		else if (num.len || *p != '0')
			sbuf_add(&num, p, 1);
		if (is_digit(*p) && frac >= 0)
			frac++;
	}
	if (frac < 0)
		frac = 0;
	if (p < end) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			neg = *p++ == '-';
		for (; p < end; p++)
			if (exp < 1000000)
				exp = exp * 10 + (*p - '0');
		if (neg)
			exp = -exp;
	}
	/* value * 10^decimals = digits followed by this many zeros */
	zeros = num.len ? exp - frac + decimals : 0;
	if (zeros < 0 || zeros > 200 || num.len > 200) {
		free(num.s);
		return NULL;
	}
	for (; zeros > 0; zeros--)
		sbuf_add(&num, "0", 1);
	/* at least one digit before the point */
	while (out.len + num.len < d + 1)
		sbuf_add(&out, "0", 1);
	sbuf_add(&out, num.s ? num.s : "", num.len);
	free(num.s);
	if (d) {
		sbuf_add(&out, "0", 1);
		memmove(out.s + out.len - d, out.s + out.len - d - 1, d);
		out.s[out.len - d - 1] = '.';
	}
	return out.s;
}

/*
 * The @len characters at @s as a per-element value: exactly a plain
 * decimal number (number_len()), 0 or from VALUE_MIN to VALUE_MAX, with
 * at most VALUE_DECIMALS_MAX decimals (what a value is shown with), and
 * a double that printf() shows with those decimals as the number was
 * written: 18446744073709551615 would be shown as ...616, so it is
 * NUM_INEXACT. Sets *@decimals.
 */
enum num_status parse_value(const char *s, size_t len, double *val,
			    int *decimals)
{
	char buf[64], *copy = buf, *written, *printed;
	enum num_status st = NUM_OK;
	int d;

	if (!len || number_len(s) != len)
		return NUM_BAD;
	if (len >= sizeof(buf))
		copy = xrealloc(NULL, len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	*val = strtod(copy, NULL);
	written = copy;
	d = number_decimals(s, len);
	if (decimals)
		*decimals = d;
	/* not 0 as written (a digit but 0 before the exponent), yet tiny */
	if (*val < VALUE_MIN) {
		written += strspn(copy, "0.");
		if (is_digit(*written))
			st = NUM_RANGE;
	}
	if (copy != buf)
		free(copy);
	if (st != NUM_OK || !isfinite(*val) || *val > VALUE_MAX ||
	    d > VALUE_DECIMALS_MAX)
		return NUM_RANGE;
	written = number_written(s, len, d);
	printed = fmt_fixed(*val, d, false);
	if (!written || strcmp(written, printed))
		st = NUM_INEXACT;
	free(written);
	free(printed);
	return st;
}

/* What a number that is not NUM_OK is, for an error message. */
const char *num_status_words(enum num_status st)
{
	switch (st) {
	case NUM_RANGE:
		return "number out of range";
	case NUM_INEXACT:
		return "number a double cannot hold as written (too many digits)";
	default:
		return "bad number";
	}
}

/* A whole string that is a per-element value (parse_value()). */
bool parse_double(const char *s, double *val, int *decimals)
{
	return parse_value(s, strlen(s), val, decimals) == NUM_OK;
}

/*
 * @x with @decimals decimals, a sign in front if @sign; never "-0.000":
 * a difference that rounds to zero is shown as "+0.000".
 */
char *fmt_fixed(double x, int decimals, bool sign)
{
	char *s = xasprintf(sign ? "%+.*f" : "%.*f", decimals, x);

	if (s[0] == '-' && !s[1 + strspn(s + 1, "0.")]) {
		free(s);
		s = xasprintf(sign ? "%+.*f" : "%.*f", decimals, 0.0);
	}
	return s;
}

/*
 * Whether @x lies on half a unit of its @decimals-th decimal: the mean
 * of two values of that many decimals that differ by an odd number of
 * units (103.5 from 103 and 104), which must not be shown as whole.
 */
bool on_half_unit(double x, int decimals)
{
	double y = fabs(x) * pow(10, decimals);

	return y < 1 / DBL_EPSILON && fabs(y - floor(y) - 0.5) < 1 / 1e6;
}

/*
 * The level 1 - @alpha in percent, with as many digits as it takes to
 * tell it from its neighbours: "95", "99.9", "99.9999999999"; never a
 * rounded "100" (--alpha is at least ALPHA_MIN), nor "0" for an alpha
 * near 1 (1 - alpha is exact from 0.5 on).
 */
char *fmt_level(double alpha)
{
	double want = 100 * alpha;
	double level = alpha >= 0.5 ? (1 - alpha) * 100 : 100 - want;
	double tol = (level < want ? level : want) / 1000;
	char *s = NULL;
	int prec;

	for (prec = 2; prec <= 17; prec++) {
		free(s);
		s = xasprintf("%.*g", prec, level);
		if (fabs(strtod(s, NULL) - level) <= tol)
			break;
	}
	return s;
}

/* A change in percent: two decimals, a sign and "%"; "-" if unknown. */
char *fmt_pct(double x)
{
	char *num, *s;

	if (!isfinite(x))
		return xstrdup("-");
	num = fmt_fixed(x, 2, true);
	s = xasprintf("%s%%", num);
	free(num);
	return s;
}

/* "min" or "median": 0 and @out set, or -1. */
int load_stat_parse(const char *s, enum load_stat *out)
{
	if (!strcmp(s, "min"))
		*out = LOAD_MIN;
	else if (!strcmp(s, "median"))
		*out = LOAD_MEDIAN;
	else
		return -1;
	return 0;
}

/* What one load's value is, in words, for the footer. */
const char *load_stat_words(enum load_stat ls)
{
	return ls == LOAD_MIN ? "the cheapest repetition" :
				"the median of its repetitions";
}

/* @s as a JSON string: quoted, '"', '\' and control characters escaped. */
void json_str(const char *s)
{
	putchar('"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* @x with @decimals decimals, or null if it cannot be computed. */
void json_num(double x, int decimals)
{
	char *s;

	if (!isfinite(x)) {
		fputs("null", stdout);
		return;
	}
	s = fmt_fixed(x, decimals, false);
	fputs(s, stdout);
	free(s);
}
