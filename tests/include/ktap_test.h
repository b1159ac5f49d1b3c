/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small header-only KTAP harness for the project's user-space C tests
 * (tests/time_bench_test.c, tools/compare/tests/compare_test.c).
 *
 * Output: "TAP version 13", then "ok N - what" or "not ok N - what" per
 * check and "# ..." diagnostics, then the plan "1..N" (at the start if
 * ktap_plan() was called, else at the end, which TAP allows) and
 * "# totals: P passed, F failed". ktap_finish() returns the exit status.
 *
 * Also the one random generator of the tests, splitmix64: deterministic
 * for a given seed, so that randomized checks always see the same cases.
 *
 * Only standard C types: the kernel-style u64 of tests/include/linux/ is
 * unsigned long long, ktap_u64 may be unsigned long, and both mix freely
 * in arithmetic.
 */
#ifndef KTAP_TEST_H
#define KTAP_TEST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* 64 bits in both programs, whatever their own u64 is */
#define ktap_u64	unsigned long long

#ifndef __printf
/* User-space stand-in for the kernel's __printf, as in bench_compare.h. */
#define __printf(a, b)	__attribute__((					\
	__format__(__printf__, a, b)))
#endif

static unsigned int ktap_passed, ktap_failed;
static unsigned int ktap_planned;	/* 0: no plan yet */
static bool ktap_started;

/* "TAP version 13", once, before anything else. */
static inline void ktap_header(void)
{
	if (ktap_started)
		return;
	ktap_started = true;
	puts("TAP version 13");
}

/* Announces @n checks up front; ktap_finish() then checks the count. */
static inline void ktap_plan(unsigned int n)
{
	ktap_header();
	ktap_planned = n;
	printf("1..%u\n", n);
}

static inline void ktap_diag(const char *fmt, ...) __printf(1, 2);

/* A diagnostic line "# ...", shown under the check it explains. */
static inline void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	ktap_header();
	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline bool ktap_check(bool ok, const char *fmt, ...) __printf(2, 3);

/* "ok N - what" if @ok, else "not ok N - what"; yields @ok. */
static inline bool ktap_check(bool ok, const char *fmt, ...)
{
	va_list ap;

	ktap_header();
	if (ok)
		ktap_passed++;
	else
		ktap_failed++;
	printf("%s %u - ", ok ? "ok" : "not ok", ktap_passed + ktap_failed);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return ok;
}

/* One check: the description is a printf format; yields !!@cond. */
#define KTAP_CHECK(cond, fmt, ...)					\
	ktap_check(!!(cond), fmt, ##__VA_ARGS__)

/*
 * Ends the output: the plan if none was given (else a failure if the
 * count differs), the totals; the exit status, 0 if all checks passed
 * and the output could be written, else 1.
 */
static inline int ktap_finish(void)
{
	unsigned int ran = ktap_passed + ktap_failed;
	bool bad = ktap_failed != 0;

	ktap_header();
	if (!ktap_planned) {
		printf("1..%u\n", ran);
	} else if (ran != ktap_planned) {
		printf("# planned %u checks, ran %u\n", ktap_planned, ran);
		bad = true;
	}
	printf("# totals: %u passed, %u failed\n", ktap_passed, ktap_failed);
	if (fflush(stdout) || ferror(stdout))
		bad = true;
	return bad ? 1 : 0;
}

/* splitmix64 (Steele, Lea, Flood 2014): the next value of *@state. */
static inline ktap_u64 ktap_rand_u64(ktap_u64 *state)
{
	ktap_u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A default stream of the same generator, for tests with one stream. */
static ktap_u64 ktap_rand_state;

static inline void ktap_rand_seed(ktap_u64 seed)
{
	ktap_rand_state = seed;
}

static inline ktap_u64 ktap_rand(void)
{
	return ktap_rand_u64(&ktap_rand_state);
}

#endif /* KTAP_TEST_H */
