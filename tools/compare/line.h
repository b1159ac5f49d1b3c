/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench-compare: what the parsers (results.c, dmesg.c) share, line.c:
 * the file and line being read, errors naming them, the checks every
 * line and test name pass, and the loads and tests they add to the set.
 *
 * Layer: below the parsers, which include it; it calls nothing above.
 */
#ifndef BENCH_COMPARE_LINE_H
#define BENCH_COMPARE_LINE_H

#include <string.h>

#include "bench_compare.h"

/* The open results block of a file. */
struct results_block {
	int format;		/* 0 outside a block, -1 in a bad one */
	size_t load;		/* 1 + index of its load, or 0 */
	unsigned long line;	/* of its format: line */
	size_t tests;		/* its test: lines so far */
	size_t skips;		/* its skip: lines so far */
	bool has_clock;		/* its clock: line was read */
	bool has_accel;		/* its accel: line was read */
	bool has_boot;		/* its boot_id: line was read */
	bool ended;		/* format 3: its end: line was read */
	size_t stored;		/* its test: lines taken */
	/* format 4: its profile */
	bool has_caches;	/* its profile: line was read */
	bool prof_started;	/* a prof: or prof_fn: line came */
	bool prof_bad;		/* the last prof: line was refused */
	bool prof_fn_bad;	/* a prof_fn: line of its group was */
	size_t profiled;	/* its prof: lines taken */
	size_t prof_test;	/* 1 + index of the last one's test, or 0 */
};

/* One input file being read. */
struct parse_ctx {
	struct bench_set *set;
	enum side side;
	const char *file;
	unsigned long lineno;
	const char *line;	/* the line being read */
	bool cut;		/* the line has no newline at its end */
	bool stopped;		/* the rest of the file is not read */
	unsigned int errors;
	size_t samples;		/* values read from this file */
	struct results_block res;
	struct env_scratch env;	/* of the open results block */
	size_t dmesg_load;	/* 1 + index of the open dmesg load, or 0 */
	/* the instrument line of the next dmesg load, if there was one */
	bool instrument;
	enum clock next_clock;
	char *next_accel;
	unsigned long instrument_line;
};

/* Input shown in an error: at most ECHO_MAX characters, "..." if cut. */
struct echo {
	char s[ECHO_MAX + 4];
};

struct echo echo(const char *s);

void parse_error(struct parse_ctx *ctx, const char *fmt, ...) __printf(2, 3);
void parse_error_at(struct parse_ctx *ctx, unsigned long line,
		    const char *fmt, ...) __printf(3, 4);
bool data_line_ok(struct parse_ctx *ctx, const char *line, const char *what);
bool name_ok(struct parse_ctx *ctx, const char *name, size_t len);
size_t new_load(struct parse_ctx *ctx);
struct bench_test *find_test(struct bench_set *set, const char *name,
			     size_t len);
void add_reps(struct parse_ctx *ctx, struct bench_test *t, enum metric m,
	      size_t load, const double *reps, size_t n, int decimals);

#endif /* BENCH_COMPARE_LINE_H */
