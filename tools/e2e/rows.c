// SPDX-License-Identifier: GPL-2.0
/*
 * bench-e2e's results writer: the module's file read whole and checked
 * for one block, its lines written again with the run's sizes, its
 * scenarios and their rows joined (doc/output.rst).  Nothing here
 * measures: tests/e2e_rows_test.c runs it on the host on made-up
 * outcomes, and results.schema checks what it wrote.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "time_bench_math.h"

#define LINE_MAX_LEN 65536

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* " key=x.yy" from thousandths */
static void put_milli2(FILE *f, const char *unit, const char *stat,
		       u64 milli)
{
	u64 hundredths = (milli + 5) / 10;

	fprintf(f, " %s_%s=%llu.%02llu", unit, stat,
		(unsigned long long)(hundredths / 100),
		(unsigned long long)(hundredths % 100));
}

/* min, median, mean, stddev, max: the module's own summary */
static void put_summary(FILE *f, const char *unit, const u64 *milli,
			u32 n)
{
	struct time_bench_summary sum;
	u64 v[E2E_MAX_REPS];

	memcpy(v, milli, n * sizeof(*v));
	sum = time_bench_summarize(v, n);
	put_milli2(f, unit, "min", sum.min);
	put_milli2(f, unit, "median", sum.median);
	put_milli2(f, unit, "mean", sum.mean);
	put_milli2(f, unit, "stddev", sum.stddev);
	put_milli2(f, unit, "max", sum.max);
}

static void put_samples(FILE *f, const char *key, const u64 *milli,
			u32 n)
{
	u32 i;

	fprintf(f, " %s=", key);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%llu.%03llu", i ? "," : "",
			(unsigned long long)(milli[i] / 1000),
			(unsigned long long)(milli[i] % 1000));
}

/* What the check pass counted, beside the module's fields. */
static void put_probes(FILE *f, const struct e2e_params *p,
		       const struct e2e_outcome *o)
{
	static const char *const keys[E2E_NR_PROBES] = {
		[E2E_PROBE_REFILL] = "pp_refills",
		[E2E_PROBE_PUT] = "pp_put_pages",
		[E2E_PROBE_ALLOC_PAGE] = "pp_alloc_pages",
		[E2E_PROBE_ALLOC_FRAG] = "pp_alloc_frags",
	};
	int i;

	fprintf(f, " pages_allocated=%llu pages_released=%llu",
		(unsigned long long)o->probe[E2E_PROBE_SLOW],
		(unsigned long long)o->probe[E2E_PROBE_RELEASE]);
	fprintf(f, " check_packets=%u", p->check_packets);
	for (i = 0; i < E2E_PROBE_SLOW; i++)
		fprintf(f, " %s=%llu", keys[i],
			(unsigned long long)o->probe[i]);
}

/*
 * The path the probes saw over a pass of the check.  Pages from the page
 * allocator in a warm pool: recycling failed.  Fragments returned
 * without a whole page ever coming back: the fragment page is reused in
 * place.  Refills of the alloc cache: the pages came back through the
 * ring; else through the cache.  Nothing allocated: no page_pool.
 */
const char *e2e_path_of(const u64 *probe)
{
	u64 allocs = probe[E2E_PROBE_ALLOC_PAGE] + probe[E2E_PROBE_ALLOC_FRAG];

	if (!allocs)
		return "-";
	/* test_run fills a pool of its own per call: not a page a packet */
	if (probe[E2E_PROBE_SLOW] * 2 > allocs)
		return "allocator";
	if (!probe[E2E_PROBE_PUT] && !probe[E2E_PROBE_REFILL])
		return probe[E2E_PROBE_ALLOC_FRAG] ? "frag" : "unknown";
	if (probe[E2E_PROBE_REFILL])
		return "ring";
	return "cache";
}

void e2e_put_test(FILE *f, const char *name, const char *expect_path,
		  const struct e2e_params *p, const struct e2e_outcome *o)
{
	u64 cyc[E2E_MAX_REPS], ns[E2E_MAX_REPS], sorted[E2E_MAX_REPS];
	u32 i, med = 0, moves = 0;
	const struct e2e_rep *m;
	u64 other;

	for (i = 0; i < p->reps; i++) {
		cyc[i] = time_bench_milli_per_elem(o->reps[i].cycles,
						   p->packets);
		ns[i] = time_bench_milli_per_elem(o->reps[i].ns, p->packets);
		moves += o->reps[i].cpu != o->reps[0].cpu;
	}
	/* the repetition of median cost gives the totals (lower middle) */
	memcpy(sorted, cyc, p->reps * sizeof(*cyc));
	qsort(sorted, p->reps, sizeof(*sorted), cmp_u64);
	while (cyc[med] != sorted[(p->reps - 1) / 2])
		med++;
	m = &o->reps[med];
	/* the module's fields, in its order (doc/output.rst) */
	/* e2e: every packet's program ran on the CPU whose time is counted */
	fprintf(f, "test: name=%s run_flags_bit=- row=%u context=%s", name,
		o->row, o->off_cpu ? "e2e_off_cpu" : "e2e");
	fprintf(f, " wanted_context=e2e cpu=%d cpu_moves=%u reps=%u loops=%u",
		o->reps[0].cpu, moves, p->reps, p->packets);
	fprintf(f, " invoke_count=%u total_invoke_count=%llu", p->packets,
		(unsigned long long)p->reps * p->packets);
	fprintf(f, " cycles=%llu ns=%llu chunks=%u",
		(unsigned long long)m->cycles, (unsigned long long)m->ns,
		p->reps);
	put_samples(f, "cycles_per_elem", &cyc[med], 1);
	put_samples(f, "ns_per_elem", &ns[med], 1);
	put_summary(f, "cycles", cyc, p->reps);
	put_summary(f, "ns", ns, p->reps);
	put_samples(f, "cycles_samples", cyc, p->reps);
	put_samples(f, "ns_samples", ns, p->reps);
	for (i = 0, other = 0; i < p->reps; i++)
		other += o->reps[i].other_ns;
	fprintf(f, " pmu=- other_ns=%llu path=%s", (unsigned long long)other,
		o->path);
	if (strcmp(o->path, "unknown"))
		put_probes(f, p, o);
	else
		fprintf(f, " pages_allocated=- pages_released=-");
	fprintf(f, " expect_path=%s expect_allocated_max=-", expect_path);
	fputs(" expect_released=- expect_stats=- cheaper_than=-\n", f);
}

/* The '\n' that ends the line starting after @key's '\n', or NULL. */
static const char *line_end(const struct e2e_module_file *mf,
			    const char *key)
{
	const char *line = strstr(mf->text, key);

	return line && line < mf->text + mf->len ? strchr(line + 1, '\n') :
						  NULL;
}

int e2e_read_module_file(const char *path, struct e2e_module_file *mf)
{
	size_t cap = 1 << 16, lines = 0;
	const char *line, *nl, *end_line = NULL;
	FILE *f = fopen(path, "re");
	size_t got;
	char extra;

	if (!f) {
		fprintf(stderr, "bench-e2e: -m %s: %s\n", path, strerror(errno));
		return -1;
	}
	mf->text = malloc(cap);
	mf->len = 0;
	while (mf->text && (got = fread(mf->text + mf->len, 1,
					cap - 1 - mf->len, f)) > 0) {
		mf->len += got;
		if (mf->len == cap - 1) {
			cap *= 2;
			mf->text = cap <= (1 << 24) ? realloc(mf->text, cap) :
						      NULL;
		}
	}
	fclose(f);
	if (!mf->text) {
		fprintf(stderr, "bench-e2e: -m %s: too large or out of memory\n",
			path);
		return -1;
	}
	mf->text[mf->len] = '\0';
	if (strncmp(mf->text, "format: bench_page_pool_simple 3\n", 33) ||
	    strlen(mf->text) != mf->len || !mf->len ||
	    mf->text[mf->len - 1] != '\n')
		goto bad;
	for (line = mf->text; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (++lines > 1 && !strncmp(line, "format:", 7))
			goto bad;
		if ((size_t)(nl - line) > LINE_MAX_LEN || end_line)
			goto bad;
		if (!strncmp(line, "end: ", 5))
			end_line = line;
	}
	if (!end_line || sscanf(end_line, "end: tests=%lu skips=%lu%c",
				&mf->tests, &mf->skips, &extra) != 3 ||
	    extra != '\n')
		goto bad;
	mf->len = end_line - mf->text;
	mf->params_end = line_end(mf, "\nparams: ");
	mf->selected_end = line_end(mf, "\nselected: ");
	if (!mf->params_end || !mf->selected_end ||
	    mf->selected_end < mf->params_end) {
		fprintf(stderr, "bench-e2e: -m %s: %s\n", path,
			"no params: line followed by a selected: line");
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "bench-e2e: -m %s: %s\n", path,
		"not one whole format 3 block of bench_page_pool_simple ending in its end: line");
	return -1;
}

void e2e_put_header(FILE *f, const struct e2e_module_file *mf,
		    const struct e2e_params *p, const char *const *names,
		    size_t nr_names)
{
	size_t i;

	fwrite(mf->text, 1, mf->params_end - mf->text, f);
	fprintf(f, " e2e_packets=%u e2e_reps=%u e2e_check_packets=%u",
		p->packets, p->reps, p->check_packets);
	fwrite(mf->params_end, 1, mf->selected_end - mf->params_end, f);
	for (i = 0; i < nr_names; i++)
		fprintf(f, ",%s", names[i]);
	fwrite(mf->selected_end, 1, mf->text + mf->len - mf->selected_end, f);
}

void e2e_put_skip(FILE *f, const char *name, const char *why)
{
	fprintf(f, "skip: name=%s run_flags_bit=- wanted_context=e2e reason=%s\n",
		name, why);
}

void e2e_put_failed(FILE *f, const char *name, const char *why)
{
	fprintf(f, "failed: name=%s reason=%s\n", name, why);
}

void e2e_put_end(FILE *f, const struct e2e_module_file *mf,
		 unsigned long ran, unsigned long skipped)
{
	fprintf(f, "end: tests=%lu skips=%lu\n", mf->tests + ran,
		mf->skips + skipped);
}

