/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generated from results.schema by tools/results/schema.py write;
 * do not edit.  The fields of a test: line that format 3 always
 * has, in the order the module writes them; the type of every
 * declared field.
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

/*
 * Every field results.schema declares on test:, skip:, cpu: and
 * failed: lines, with its type: an extended regular expression
 * its whole value matches, and what that is in words.
 */
enum field_type {
	T_NAME,
	T_NAME_OR_DASH,
	T_NAMES_OR_DASH,
	T_UINT,
	T_INT,
	T_UINT_OR_DASH,
	T_WORD,
	T_DASH,
	T_MILLI2,
	T_MILLI3,
	T_MILLI3_LIST,
	T_PATHS_OR_DASH,
	T_STAT_SUMS,
	T_ENTERED,
	T_TEXT,
	NR_FIELD_TYPES,
};

static const struct field_type_def {
	const char *ere;
	const char *what;
} field_types[NR_FIELD_TYPES] = {
	[T_NAME] = {
		"^([A-Za-z0-9_-]{1,64})$",
		"a test name (1 to 64 of A-Z a-z 0-9 _ -)",
	},
	[T_NAME_OR_DASH] = {
		"^([A-Za-z0-9_-]{1,64}|-)$",
		"a test name or -",
	},
	[T_NAMES_OR_DASH] = {
		"^([A-Za-z0-9_-]{1,64}(,[A-Za-z0-9_-]{1,64})*|-)$",
		"a list of test names or -",
	},
	[T_UINT] = {
		"^([0-9]+)$",
		"a whole number",
	},
	[T_INT] = {
		"^(-?[0-9]+)$",
		"a whole number, - before a negative one",
	},
	[T_UINT_OR_DASH] = {
		"^([0-9]+|-)$",
		"a whole number or -",
	},
	[T_WORD] = {
		"^([a-z0-9_]+)$",
		"a word of a-z, 0-9 and _",
	},
	[T_DASH] = {
		"^(-)$",
		"-",
	},
	[T_MILLI2] = {
		"^([0-9]+\\.[0-9]{2})$",
		"a number with two decimals",
	},
	[T_MILLI3] = {
		"^([0-9]+\\.[0-9]{3})$",
		"a number with three decimals",
	},
	[T_MILLI3_LIST] = {
		"^([0-9]+\\.[0-9]{3}(,[0-9]+\\.[0-9]{3})*)$",
		"a list of numbers with three decimals",
	},
	[T_PATHS_OR_DASH] = {
		"^((cache|ring|allocator|frag|unknown)(,(cache|ring|allocator|frag|unknown))*|-)$",
		"a list of paths (cache, ring, allocator, frag, unknown) or -",
	},
	[T_STAT_SUMS] = {
		"^([a-z_]+(\\+[a-z_]+)*:[0-9]+(,[a-z_]+(\\+[a-z_]+)*:[0-9]+)*|-)$",
		"a list of counter sums (name+name:N) or -",
	},
	[T_ENTERED] = {
		"^((switch|irq|timer|ipi|nmi|softirq|smi):[0-9]+(,(switch|irq|timer|ipi|nmi|softirq|smi):[0-9]+)*|-)$",
		"a list of kinds and counts (switch, irq, timer, ipi, nmi, softirq, smi:N) or -",
	},
	[T_TEXT] = {
		"^(.+)$",
		"text",
	},
};

static const struct declared_field {
	const char *kind;
	const char *key;
	enum field_type type;
} declared_fields[] = {
	{ "test:", "name", T_NAME },
	{ "test:", "run_flags_bit", T_UINT_OR_DASH },
	{ "test:", "row", T_UINT_OR_DASH },
	{ "test:", "context", T_WORD },
	{ "test:", "wanted_context", T_WORD },
	{ "test:", "cpu", T_INT },
	{ "test:", "cpu_moves", T_UINT },
	{ "test:", "reps", T_UINT },
	{ "test:", "loops", T_UINT },
	{ "test:", "invoke_count", T_UINT },
	{ "test:", "total_invoke_count", T_UINT },
	{ "test:", "cycles", T_UINT },
	{ "test:", "ns", T_UINT },
	{ "test:", "chunks", T_UINT },
	{ "test:", "cycles_per_elem", T_MILLI3 },
	{ "test:", "ns_per_elem", T_MILLI3 },
	{ "test:", "preemptible_chunks", T_UINT },
	{ "test:", "retried_chunks", T_UINT },
	{ "test:", "perturbed_chunks", T_UINT },
	{ "test:", "retried_entered", T_ENTERED },
	{ "test:", "perturbed_entered", T_ENTERED },
	{ "test:", "cycles_min", T_MILLI2 },
	{ "test:", "cycles_median", T_MILLI2 },
	{ "test:", "cycles_mean", T_MILLI2 },
	{ "test:", "cycles_stddev", T_MILLI2 },
	{ "test:", "cycles_max", T_MILLI2 },
	{ "test:", "ns_min", T_MILLI2 },
	{ "test:", "ns_median", T_MILLI2 },
	{ "test:", "ns_mean", T_MILLI2 },
	{ "test:", "ns_stddev", T_MILLI2 },
	{ "test:", "ns_max", T_MILLI2 },
	{ "test:", "cycles_samples", T_MILLI3_LIST },
	{ "test:", "ns_samples", T_MILLI3_LIST },
	{ "test:", "pmu", T_DASH },
	{ "test:", "instructions_per_elem", T_MILLI2 },
	{ "test:", "pmu_cycles_per_elem", T_MILLI2 },
	{ "test:", "ipc", T_MILLI2 },
	{ "test:", "pmu_skipped_chunks", T_UINT },
	{ "test:", "other_ns", T_UINT },
	{ "test:", "path", T_PATHS_OR_DASH },
	{ "test:", "pages_allocated", T_UINT_OR_DASH },
	{ "test:", "pages_released", T_UINT_OR_DASH },
	{ "test:", "alloc_fast", T_UINT },
	{ "test:", "alloc_slow", T_UINT },
	{ "test:", "alloc_slow_high_order", T_UINT },
	{ "test:", "alloc_empty", T_UINT },
	{ "test:", "alloc_refill", T_UINT },
	{ "test:", "alloc_waive", T_UINT },
	{ "test:", "recycle_cached", T_UINT },
	{ "test:", "recycle_cache_full", T_UINT },
	{ "test:", "recycle_ring", T_UINT },
	{ "test:", "recycle_ring_full", T_UINT },
	{ "test:", "recycle_released_refcnt", T_UINT },
	{ "test:", "check_packets", T_UINT },
	{ "test:", "pp_refills", T_UINT },
	{ "test:", "pp_put_pages", T_UINT },
	{ "test:", "pp_alloc_pages", T_UINT },
	{ "test:", "pp_alloc_frags", T_UINT },
	{ "test:", "expect_path", T_PATHS_OR_DASH },
	{ "test:", "expect_allocated_max", T_UINT_OR_DASH },
	{ "test:", "expect_released", T_UINT_OR_DASH },
	{ "test:", "expect_stats", T_STAT_SUMS },
	{ "test:", "cheaper_than", T_NAMES_OR_DASH },
	{ "test:", "twin", T_NAME_OR_DASH },
	{ "test:", "cpus", T_UINT },
	{ "skip:", "name", T_NAME },
	{ "skip:", "run_flags_bit", T_UINT_OR_DASH },
	{ "skip:", "wanted_context", T_WORD },
	{ "skip:", "expect_path", T_PATHS_OR_DASH },
	{ "skip:", "cheaper_than", T_NAMES_OR_DASH },
	{ "skip:", "twin", T_NAME_OR_DASH },
	{ "skip:", "cpus", T_UINT },
	{ "skip:", "reason", T_TEXT },
	{ "cpu:", "name", T_NAME },
	{ "cpu:", "cpu", T_INT },
	{ "cpu:", "role", T_WORD },
	{ "cpu:", "invoke_count", T_UINT },
	{ "cpu:", "cycles", T_UINT },
	{ "cpu:", "ns", T_UINT },
	{ "cpu:", "cycles_per_elem", T_MILLI3 },
	{ "cpu:", "ns_per_elem", T_MILLI3 },
	{ "failed:", "name", T_NAME },
	{ "failed:", "reason", T_TEXT },
};

#endif
