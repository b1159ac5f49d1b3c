/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generated from results.schema by tools/results-schema.py write;
 * do not edit.  The fields of a test: line that format 3 always
 * has, in the order the module writes them.
 */
#ifndef RESULTS_FIELDS_H
#define RESULTS_FIELDS_H

enum test_field {
	F_NAME,
	F_RUN_FLAGS_BIT,
	F_CONTEXT,
	F_CPU,
	F_REPS,
	F_LOOPS,
	F_INVOKE_COUNT,
	F_TOTAL_INVOKE_COUNT,
	F_CYCLES,
	F_NS,
	F_CYCLES_PER_ELEM,
	F_NS_PER_ELEM,
	F_CYCLES_SAMPLES,
	F_NS_SAMPLES,
	F_PATH,
	F_PAGES_ALLOCATED,
	F_PAGES_RELEASED,
	F_EXPECT_PATH,
	F_EXPECT_ALLOCATED_MAX,
	F_EXPECT_RELEASED,
	F_EXPECT_STATS,
	F_CHEAPER_THAN,
	NR_FIELDS,
};

static const char * const field_names[NR_FIELDS] = {
	[F_NAME] = "name",
	[F_RUN_FLAGS_BIT] = "run_flags_bit",
	[F_CONTEXT] = "context",
	[F_CPU] = "cpu",
	[F_REPS] = "reps",
	[F_LOOPS] = "loops",
	[F_INVOKE_COUNT] = "invoke_count",
	[F_TOTAL_INVOKE_COUNT] = "total_invoke_count",
	[F_CYCLES] = "cycles",
	[F_NS] = "ns",
	[F_CYCLES_PER_ELEM] = "cycles_per_elem",
	[F_NS_PER_ELEM] = "ns_per_elem",
	[F_CYCLES_SAMPLES] = "cycles_samples",
	[F_NS_SAMPLES] = "ns_samples",
	[F_PATH] = "path",
	[F_PAGES_ALLOCATED] = "pages_allocated",
	[F_PAGES_RELEASED] = "pages_released",
	[F_EXPECT_PATH] = "expect_path",
	[F_EXPECT_ALLOCATED_MAX] = "expect_allocated_max",
	[F_EXPECT_RELEASED] = "expect_released",
	[F_EXPECT_STATS] = "expect_stats",
	[F_CHEAPER_THAN] = "cheaper_than",
};

#endif
