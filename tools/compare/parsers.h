/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench-compare: the parsers' entry points, which input.c calls for
 * each line of a file and at its end: results.c (results files) and
 * dmesg.c (kernel log lines). Their state lives in the parse context
 * (line.h) and is theirs to free.
 *
 * Layer: the parsers, between input.c above and line.c below.
 */
#ifndef BENCH_COMPARE_PARSERS_H
#define BENCH_COMPARE_PARSERS_H

#include "line.h"

bool results_line(struct parse_ctx *ctx, char *line);
void results_end(struct parse_ctx *ctx);
void dmesg_line(struct parse_ctx *ctx, const char *line);
void dmesg_end(struct parse_ctx *ctx);

#endif /* BENCH_COMPARE_PARSERS_H */
