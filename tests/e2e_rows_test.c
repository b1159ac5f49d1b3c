// SPDX-License-Identifier: GPL-2.0
/*
 * bench-e2e's results writer, tools/e2e/rows.c, run on the host on
 * made-up runs: the module's file it joins (one that results_writer_test
 * wrote), its lines written again with the run's sizes and scenarios,
 * then what each scenario came to.  "make -C tests check-writers" checks
 * the files against results.schema, with the module's.
 *
 * The runs cover what bench-e2e can write: a row whose pages the probes
 * followed, one without probes (path unknown), one whose packets ran on
 * another CPU too, on one repetition or the most it takes; a scenario
 * this kernel lacks (skip:) and one that failed (failed:, no row).
 * A probed row's path is what e2e_path_of() reads from its made-up
 * counts, which must be the path the row was made for; that function's
 * every outcome is checked on counts of its own first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "marks.h"
#include "rows.h"

/* A scenario of a made-up run, and what it came to. */
struct fake_scenario {
	const char *name;
	const char *expect_path;
	const char *skip_reason;	/* the kernel lacks a piece */
	const char *fail_reason;	/* no row */
	bool probes;		/* the check pass's path, else "unknown" */
	u64 off_cpu;		/* packets whose program ran elsewhere */
	u64 ps_per_packet;	/* what a packet costs, picoseconds */
};

struct fake_run {
	const char *name;
	struct e2e_params params;
	struct fake_scenario scenarios[4];
};

static const struct fake_run runs[] = {
	{
		.name = "e2e-probed",
		.params = { .packets = 5000, .reps = 5, .check_packets = 4096 },
		.scenarios = {
			{ "fake_cache_drop", "cache", .probes = true,
			  .ps_per_packet = 412345 },
			{ "fake_ring_drop", "ring", .probes = true,
			  .off_cpu = 3, .ps_per_packet = 987654 },
			{ "fake_lacking", "cache",
			  .skip_reason = "no fake module loaded (modprobe fake)" },
			{ "fake_failing", "frag",
			  .fail_reason = "the XDP program counted 0 of 500 packets asked" },
		},
	},
	{
		.name = "e2e-unprobed-one-rep",
		.params = { .packets = 1, .reps = 1, .check_packets = 1 },
		.scenarios = {
			{ "fake_cache_drop", "cache", .ps_per_packet = 1 },
		},
	},
	{
		.name = "e2e-most-reps",
		.params = { .packets = 100000000, .reps = E2E_MAX_REPS,
			    .check_packets = 100000000 },
		.scenarios = {
			{ "fake_frag_pass", "frag", .probes = true,
			  .ps_per_packet = 1234567890 },
		},
	},
};

/* What the probes would count for @path over @n packets. */
static void fake_probes(const char *path, u64 n, u64 *probe)
{
	memset(probe, 0, E2E_NR_PROBES * sizeof(*probe));
	if (!strcmp(path, "frag")) {
		probe[E2E_PROBE_ALLOC_FRAG] = n;
		return;
	}
	probe[E2E_PROBE_ALLOC_PAGE] = n;
	probe[E2E_PROBE_PUT] = n;
	if (!strcmp(path, "ring"))
		probe[E2E_PROBE_REFILL] = n / 64;
	probe[E2E_PROBE_SLOW] = 2;
	probe[E2E_PROBE_RELEASE] = 1;
}

/* Repetitions around the cost, a little apart, one on another CPU. */
static void fake_outcome(const struct fake_scenario *s,
			 const struct e2e_params *p, struct e2e_outcome *o)
{
	u32 i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < p->reps; i++) {
		u64 ps = s->ps_per_packet + i % 3 * 1000;

		o->reps[i].ns = ps * p->packets / 1000;
		o->reps[i].cycles = o->reps[i].ns * 2;
		o->reps[i].other_ns = i * 17;
		o->reps[i].cpu = i == 1;
	}
	fake_probes(s->expect_path, p->check_packets, o->probe);
	o->path = s->probes ? e2e_path_of(o->probe) : "unknown";
	o->off_cpu = s->off_cpu;
}

/* Counts of a check pass, and the path they say. */
static const struct {
	u64 probe[E2E_NR_PROBES];
	const char *path;
} path_cases[] = {
	{ {}, "-" },
	{ { [E2E_PROBE_ALLOC_PAGE] = 10, [E2E_PROBE_SLOW] = 6 }, "allocator" },
	/* half the pages from the allocator is still a warm pool */
	{ { [E2E_PROBE_ALLOC_PAGE] = 10, [E2E_PROBE_SLOW] = 5,
	    [E2E_PROBE_PUT] = 10 }, "cache" },
	{ { [E2E_PROBE_ALLOC_FRAG] = 10 }, "frag" },
	{ { [E2E_PROBE_ALLOC_PAGE] = 10 }, "unknown" },
	{ { [E2E_PROBE_ALLOC_PAGE] = 10, [E2E_PROBE_PUT] = 10,
	    [E2E_PROBE_REFILL] = 1 }, "ring" },
	{ { [E2E_PROBE_ALLOC_PAGE] = 10, [E2E_PROBE_REFILL] = 1 }, "ring" },
	{ { [E2E_PROBE_ALLOC_PAGE] = 10, [E2E_PROBE_PUT] = 10 }, "cache" },
};

static int check_path_of(void)
{
	int failed = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(path_cases); i++) {
		const char *got = e2e_path_of(path_cases[i].probe);

		if (strcmp(got, path_cases[i].path)) {
			fprintf(stderr, "e2e_path_of: case %zu: %s, want %s\n",
				i, got, path_cases[i].path);
			failed = 1;
		}
	}
	return failed;
}

static int write_run(const struct fake_run *run,
		     const struct e2e_module_file *mf, const char *dir)
{
	const char *names[ARRAY_SIZE(run->scenarios)];
	unsigned long ran = 0, skipped = 0;
	static struct e2e_outcome o;
	size_t i, nr = 0;
	char path[4096];
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(run->scenarios); i++) {
		if (run->scenarios[i].name)
			names[nr++] = run->scenarios[i].name;
	}
	snprintf(path, sizeof(path), "%s/%s.results", dir, run->name);
	f = fopen(path, "we");
	if (!f) {
		perror(path);
		return -1;
	}
	e2e_put_header(f, mf, &run->params, names, nr);
	for (i = 0; i < nr; i++) {
		const struct fake_scenario *s = &run->scenarios[i];

		if (s->skip_reason) {
			e2e_put_skip(f, s->name, s->skip_reason);
			skipped++;
		} else if (s->fail_reason) {
			e2e_put_failed(f, s->name, s->fail_reason);
		} else {
			fake_outcome(s, &run->params, &o);
			o.row = MARK_E2E_ROW_BASE + i;
			if (s->probes && strcmp(o.path, s->expect_path)) {
				fprintf(stderr, "%s: %s: the counts made say %s, not %s\n",
					run->name, s->name, o.path,
					s->expect_path);
				fclose(f);
				return -1;
			}
			e2e_put_test(f, s->name, s->expect_path, &run->params,
				     &o);
			ran++;
		}
	}
	e2e_put_end(f, mf, ran, skipped);
	if (fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct e2e_module_file mf;
	size_t i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s MODULE-RESULTS DIR\n", argv[0]);
		return 2;
	}
	if (check_path_of() || e2e_read_module_file(argv[1], &mf))
		return 1;
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		if (write_run(&runs[i], &mf, argv[2]))
			return 1;
	}
	free(mf.text);
	return 0;
}
