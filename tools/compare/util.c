// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: memory that ends the program when it runs out, and the
 * parsing and printing of numbers with the decimals they came with.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

const char * const side_names[NR_SIDES] = { "before", "after" };

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

void vec_push(struct vec *vec, double x)
{
	if (vec->n == vec->cap) {
		vec->cap = vec->cap ? vec->cap * 2 : 8;
		vec->v = xrealloc(vec->v, vec->cap * sizeof(*vec->v));
	}
	vec->v[vec->n++] = x;
}

bool is_digit(char c)
{
	return c >= '0' && c <= '9';
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

/* A whole string of digits: true and @val set, or false. */
bool parse_ull(const char *s, unsigned long long *val)
{
	const char *p = s;

	return scan_ull(&p, val) > 0 && !*p;
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
		/* more than 99 decimals are never shown anyway */
		for (; p < end && is_digit(*p) && exp < 100; p++)
			exp = exp * 10 + (*p - '0');
		if (neg)
			exp = -exp;
	}
	frac -= exp;
	if (frac < 0)
		return 0;
	return frac > 99 ? 99 : (int)frac;
}

/* A whole string that is a finite plain decimal number, and its decimals. */
bool parse_double(const char *s, double *val, int *decimals)
{
	size_t len = number_len(s);

	if (!len || s[len])
		return false;
	*val = strtod(s, NULL);
	if (decimals)
		*decimals = number_decimals(s, len);
	return isfinite(*val);
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
