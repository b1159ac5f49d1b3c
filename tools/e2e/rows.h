/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench-e2e's results writer (rows.c): the module's file it joins, and
 * what a run measured as that file's lines (doc/output.rst).  Apart from
 * the measuring, so that tests/e2e_rows_test.c runs it on the host.
 */
#ifndef BENCH_E2E_ROWS_H
#define BENCH_E2E_ROWS_H

#include <stdio.h>

#include "e2e.h"

#define E2E_MAX_REPS 100

struct e2e_params {
	u32 packets, reps, check_packets;
};

struct e2e_rep {
	u64 cycles, ns;	/* of the threads doing the work */
	u64 other_ns;	/* the rest of the interval: idle, others */
	int cpu;
};

struct e2e_outcome {
	u32 row;	/* the id its profile markers carry (doc/profile.rst) */
	struct e2e_rep reps[E2E_MAX_REPS];
	u64 probe[E2E_NR_PROBES];
	const char *path;	/* "unknown" without probes */
	u64 off_cpu;	/* packets whose program ran off the timed CPU */
};

/*
 * The module's results file: one format 3 block, read whole; its lines
 * are written again with the scenarios' rows joined to them.
 */
struct e2e_module_file {
	char *text;
	size_t len;		/* up to its end: line */
	const char *params_end, *selected_end;	/* their lines' '\n' */
	unsigned long tests, skips;
};

int e2e_read_module_file(const char *path, struct e2e_module_file *mf);

/* The path (doc/output.rst) a check pass's probe counts say. */
const char *e2e_path_of(const u64 *probe);

/* The module's lines, with the run's sizes and scenarios added. */
void e2e_put_header(FILE *f, const struct e2e_module_file *mf,
		    const struct e2e_params *p, const char *const *names,
		    size_t nr_names);
void e2e_put_test(FILE *f, const char *name, const char *expect_path,
		  const struct e2e_params *p, const struct e2e_outcome *o);
void e2e_put_skip(FILE *f, const char *name, const char *why);
/* no row: a failure never reads as a cost */
void e2e_put_failed(FILE *f, const char *name, const char *why);
void e2e_put_end(FILE *f, const struct e2e_module_file *mf,
		 unsigned long ran, unsigned long skipped);

#endif /* BENCH_E2E_ROWS_H */
