// SPDX-License-Identifier: GPL-2.0
/*
 * The module's results writer, time_bench_results.c, built as is in user
 * space with the engine's time_bench_env.c, time_bench_output.c,
 * time_bench_math.c and time_bench_driver.c (the shims in tests/include/
 * stand in for the kernel), run on made-up loads.  Each test of a load
 * goes through the engine's own loop driver on a fake clock; the results
 * file is then read back through its debugfs file operations, as cat
 * reads /sys/kernel/debug/<suite>/results, into DIR/<load>.results.
 * "make -C tests check-writers" checks those files against
 * results.schema (tools/results/schema.py check).
 *
 * The loads cover what the writer can write: tests that ran, with
 * several repetitions or one; PMU counts, or pmu=- (no PMU, or every
 * chunk left to ksoftirqd); chunks retried, kept perturbed, on another
 * CPU and out of their context; a test of two CPUs with its cpu: lines;
 * skipped tests, and a load of skipped tests only; parameters given and
 * left at their defaults; page_pool stats or none.
 *
 * The page_pool family's own part of the file (page_pool_stats:, path=,
 * pages_*=, its counters and expect_*=) comes from the hooks of
 * bench_page_pool_simple.c, which needs the kernel's page_pool:
 * fake_seq_*() below write the same fields in its stead.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/utsname.h>
#include <asm/tsc.h>

#include "time_bench_internal.h"

#define SUITE_NAME	"bench_page_pool_simple"
#define MS		1000000ULL	/* ns */
#define MAX_TESTS	32
#define XCPU_CPUS	2	/* of the test of several CPUs */

/* What happens to one test of a made-up load. */
struct fake_test {
	const char *name;
	unsigned int bit;
	const struct time_bench_context *context;
	const char *cheaper_than;
	const char *twin;
	bool unselected;	/* in the table, not asked for */
	const char *skip_reason;	/* selected, and skipped */
	u64 ps_per_iter;	/* what an iteration costs, picoseconds */
	u64 insns_per_iter;	/* what the PMU counts, where it counts */
	bool ksoftirqd;		/* every chunk left to it: no PMU count */
	u32 switched;		/* timed chunks in a row switched out */
	bool wanders;		/* every third chunk elsewhere, in process */
	/* The family's part, bench_page_pool_simple.c's */
	const char *path;	/* the probe's; "-" for a baseline */
	bool slow;		/* every page from and to the page allocator */
	const char *expect_path;
	const char *expect_allocated_max;
	const char *expect_stat;	/* a sum of counters, one per iteration */
};

/* A made-up load: its machine, its parameters and its table. */
struct fake_load {
	const char *file;
	const char *release;
	const char *cpu_model;
	enum time_bench_accel accel;
	enum time_bench_clock clock;
	const char *signature;
	int pmu_error;
	bool page_pool_stats;
	unsigned int online_cpus;
	bool init_on_alloc;
	struct time_bench_params params;
	const struct fake_test *tests;
	unsigned int nr_tests;
};

/* The load being written: the machine and the family's hooks read it. */
static const struct fake_load *load;

/* The machine, as the kernel would tell time_bench_env.c */
struct cpuinfo_x86 boot_cpu_data;

struct new_utsname *init_utsname(void)
{
	static struct new_utsname uts;

	snprintf(uts.release, sizeof(uts.release), "%s", load->release);
	return &uts;
}

unsigned int num_online_cpus(void)
{
	return load->online_cpus;
}

bool want_init_on_alloc(unsigned int __always_unused flags)
{
	return load->init_on_alloc;
}

bool want_init_on_free(void)
{
	return false;
}

bool debug_pagealloc_enabled(void)
{
	return false;
}

/* debugfs: a few entries, each a directory or a file and its reader */
struct dentry {
	char path[128];
	bool used;
	unsigned short mode;
	void *data;
	const struct file_operations *fops;
};

static struct dentry debugfs[4];

static struct dentry *debugfs_add(const char *name, struct dentry *parent)
{
	unsigned int i;
	int len;

	for (i = 0; i < ARRAY_SIZE(debugfs); i++) {
		struct dentry *d = &debugfs[i];

		if (d->used)
			continue;
		memset(d, 0, sizeof(*d));
		len = snprintf(d->path, sizeof(d->path), "%s%s%s",
			       parent ? parent->path : "",
			       parent ? "/" : "", name);
		if (len >= (int)sizeof(d->path))
			break;
		d->used = true;
		return d;
	}
	fprintf(stderr, "debugfs: no room for %s\n", name);
	exit(1);
}

struct dentry *debugfs_create_dir(const char *name, struct dentry *parent)
{
	return debugfs_add(name, parent);
}

struct dentry *debugfs_create_file(const char *name, unsigned short mode,
				   struct dentry *parent, void *data,
				   const struct file_operations *fops)
{
	struct dentry *d = debugfs_add(name, parent);

	d->mode = mode;
	d->data = data;
	d->fops = fops;
	return d;
}

void debugfs_remove_recursive(struct dentry *dentry)
{
	char top[sizeof(dentry->path)];
	size_t len = strlen(dentry->path);
	unsigned int i;

	memcpy(top, dentry->path, sizeof(top));
	for (i = 0; i < ARRAY_SIZE(debugfs); i++)
		if (debugfs[i].used && !strncmp(debugfs[i].path, top, len) &&
		    (!debugfs[i].path[len] || debugfs[i].path[len] == '/'))
			debugfs[i].used = false;
}

/* Debugfs file @path into @out as cat reads it: open, read, release. */
static int debugfs_cat(const char *path, FILE *out)
{
	struct inode inode = { 0 };
	struct file file = { 0 };
	struct dentry *d = NULL;
	char buf[1024];		/* less than a file: read() is called again */
	loff_t pos = 0;
	unsigned int i;
	ssize_t n;
	int ret;

	for (i = 0; i < ARRAY_SIZE(debugfs); i++)
		if (debugfs[i].used && debugfs[i].fops &&
		    !strcmp(debugfs[i].path, path))
			d = &debugfs[i];
	if (!d || d->mode != 0444) {
		fprintf(stderr, "%s: no such file, mode 0444, in debugfs\n",
			path);
		return -ENOENT;
	}
	inode.i_private = d->data;
	ret = d->fops->open(&inode, &file);
	if (ret)
		return ret;
	while ((n = d->fops->read(&file, buf, sizeof(buf), &pos)) > 0)
		fwrite(buf, 1, n, out);
	d->fops->release(&inode, &file);
	return n < 0 ? n : 0;
}

/* The contexts, by name: the driver below decides where chunks run. */
static const struct time_bench_context fake_process = { .name = "process" };
static const struct time_bench_context fake_softirq = { .name = "softirq" };
static const struct time_bench_context fake_napi = { .name = "napi" };

static unsigned int fake_nr_cpus(void)
{
	return XCPU_CPUS;
}

static const struct time_bench_cpus_ops fake_cpus_ops = {
	.roles = { "alloc", "return" },
	.nr_cpus = fake_nr_cpus,
};

static const struct time_bench_context fake_cpus =
	TIME_BENCH_CPUS_CONTEXT(&fake_cpus_ops);

/* A test's fake clock: the cycle counter ticks per microsecond. */
struct fake_clock {
	const struct fake_test *t;
	bool pmu;
	u64 ticks_per_us;
	u64 now_ns;
	u64 insns;
	u32 chunks;
	u32 switched_left;
};

static void fake_stamp(const struct fake_clock *f,
		       struct time_bench_stamp *s, bool pmu)
{
	s->ns = f->now_ns;
	s->cycles = f->now_ns * f->ticks_per_us / 1000;
	s->pmu_instructions = f->insns;
	s->pmu_cycles = s->cycles;
	s->pmu_valid = pmu;
}

static void fake_run_chunk(void *arg, struct time_bench_chunk *c,
			   bool timed)
{
	struct fake_clock *f = arg;
	const struct fake_test *t = f->t;
	bool elsewhere = t->wanders && f->chunks % 3 == 2;
	bool pmu = f->pmu && !t->ksoftirqd;
	/* up to 6% slower from chunk to chunk: repetitions differ */
	u64 ps = t->ps_per_iter + t->ps_per_iter * (f->chunks % 7) / 100;

	f->chunks++;
	fake_stamp(f, &c->start, pmu);
	f->now_ns += c->loops * ps / 1000;
	f->insns += c->loops * t->insns_per_iter;
	fake_stamp(f, &c->stop, pmu);
	c->completed = c->loops;
	c->cpu = elsewhere ? 1 : 0;
	c->in_softirq = t->context != &fake_process && !elsewhere;
	c->in_context = !elsewhere;
	if (timed && f->switched_left) {
		f->switched_left--;
		c->entered.n[TIME_BENCH_SWITCH] = 1;
		c->entered.n[TIME_BENCH_TIMER] = 1;
	}
}

static bool fake_stop(void __always_unused *arg)
{
	return false;
}

static const struct time_bench_driver_ops fake_driver_ops = {
	.run_chunk = fake_run_chunk,
	.stop = fake_stop,
};

/* The CPUs of a test of several: the feeding one and the returning one */
static int fake_cpu_records(struct time_bench_result *res)
{
	const struct time_bench_outcome *o = &res->out;
	struct time_bench_record sum = { 0 };
	unsigned int i;
	u32 r;

	res->cpu_ids = calloc(XCPU_CPUS, sizeof(*res->cpu_ids));
	res->cpu_recs = calloc(XCPU_CPUS, sizeof(*res->cpu_recs));
	if (!res->cpu_ids || !res->cpu_recs)
		return -ENOMEM;
	for (r = 0; r < o->reps; r++) {
		sum.invocations += o->recs[r].invocations;
		sum.cycles += o->recs[r].cycles;
		sum.ns += o->recs[r].ns;
	}
	res->nr_cpus = XCPU_CPUS;
	for (i = 0; i < XCPU_CPUS; i++) {
		res->cpu_ids[i] = i;
		res->cpu_recs[i] = sum;
		/* the returning CPU waits less than the feeding one */
		res->cpu_recs[i].cycles -= i * sum.cycles / 5;
		res->cpu_recs[i].ns -= i * sum.ns / 5;
	}
	return 0;
}

/* Runs test @idx of the load through the engine's driver. */
static int fake_run(unsigned int idx, struct time_bench_result *res)
{
	const struct time_bench_params *p = &load->params;
	const struct fake_test *t = &load->tests[idx];
	struct time_bench_outcome *o = &res->out;
	struct fake_clock f = {
		.t = t,
		.pmu = !load->pmu_error,
		.ticks_per_us = load->clock == TIME_BENCH_CLOCK_CYCLES ?
				2100 : 1000,
		.switched_left = t->switched,
	};
	struct time_bench_driver d = {
		.ops = &fake_driver_ops,
		.arg = &f,
		.chunk_ns = 10 * MS,
	};
	struct time_bench_plan plan = {
		.warmup_loops = 1024,
		.loops = p->loops.given ? p->loops.val : 0,
		.time_ns = p->time_ms.val * MS,
		.reps = p->reps.val,
		.min_loops = TIME_BENCH_MIN_LOOPS,
		.max_loops = U32_MAX,
	};

	o->recs = calloc(plan.reps, sizeof(*o->recs));
	o->cycles_milli = calloc(plan.reps, sizeof(u64));
	o->ns_milli = calloc(plan.reps, sizeof(u64));
	o->sorted = calloc(plan.reps, sizeof(u64));
	if (!o->recs || !o->cycles_milli || !o->ns_milli || !o->sorted)
		return -ENOMEM;
	if (time_bench_drive(&d, &plan, o) != TIME_BENCH_DONE) {
		fprintf(stderr, "%s: the driver failed (%d)\n", t->name,
			d.error);
		return -EIO;
	}
	res->valid = true;
	return t->context->cpus ? fake_cpu_records(res) : 0;
}

static void fake_free(struct time_bench_result *res)
{
	free(res->out.recs);
	free(res->out.cycles_milli);
	free(res->out.ns_milli);
	free(res->out.sorted);
	free(res->cpu_ids);
	free(res->cpu_recs);
}

/*
 * Stand-ins for bench_page_pool_simple.c's hooks, which need the
 * kernel's page_pool: the same fields, from the fake table.
 */
static void fake_seq_header(struct seq_file *m)
{
	seq_printf(m, "page_pool_stats: %s\n",
		   load->page_pool_stats ? "yes" : "no");
}

static const char * const fake_pp_stat_names[] = {
	"alloc_fast", "alloc_slow", "alloc_slow_high_order", "alloc_empty",
	"alloc_refill", "alloc_waive", "recycle_cached", "recycle_cache_full",
	"recycle_ring", "recycle_ring_full", "recycle_released_refcnt",
};

/* The counters a page on each path moves, once per iteration */
static const char * const fake_path_stats[][3] = {
	{ "cache", "alloc_fast", "recycle_cached" },
	{ "ring", "alloc_fast", "recycle_ring" },
	{ "allocator", "alloc_slow", "recycle_released_refcnt" },
};

static bool fake_stat_counts(const struct fake_test *t, const char *stat)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fake_path_stats); i++)
		if (!strcmp(t->path, fake_path_stats[i][0]))
			return !strcmp(stat, fake_path_stats[i][1]) ||
			       !strcmp(stat, fake_path_stats[i][2]);
	return false;
}

static void fake_seq_test(struct seq_file *m, unsigned int idx,
			  u64 iterations)
{
	const struct fake_test *t = &load->tests[idx];
	u64 pages = t->slow ? iterations : 0;
	unsigned int i;

	seq_printf(m, " path=%s pages_allocated=%llu pages_released=%llu",
		   t->path, pages, pages);
	if (strcmp(t->path, "-") && load->page_pool_stats)
		for (i = 0; i < ARRAY_SIZE(fake_pp_stat_names); i++)
			seq_printf(m, " %s=%llu", fake_pp_stat_names[i],
				   fake_stat_counts(t, fake_pp_stat_names[i]) ?
				   iterations : 0);
	seq_printf(m, " expect_path=%s expect_allocated_max=%s",
		   t->expect_path, t->expect_allocated_max);
	if (t->slow)
		seq_printf(m, " expect_released=%llu", iterations);
	else
		seq_puts(m, " expect_released=-");
	if (t->expect_stat)
		seq_printf(m, " expect_stats=%s:%llu", t->expect_stat,
			   iterations);
	else
		seq_puts(m, " expect_stats=-");
}

static void fake_seq_skip(struct seq_file *m, unsigned int idx)
{
	seq_printf(m, " expect_path=%s", load->tests[idx].expect_path);
}

/* Runs load @l and writes its results file into @dir. */
static int write_load(const struct fake_load *l, const char *dir)
{
	static const struct time_bench_config_opt pp_stats[2][1] = {
		{ { "page_pool_stats", false, false } },
		{ { "page_pool_stats", true, false } },
	};
	unsigned long selected[BITS_TO_LONGS(MAX_TESTS)] = { 0 };
	struct time_bench_result results[MAX_TESTS] = { 0 };
	struct time_bench_test rows[MAX_TESTS] = { 0 };
	struct time_bench_params params = l->params;
	struct time_bench_state state = {
		.selected = selected,
		.results = results,
		.ins = { .accel = l->accel, .clock = l->clock },
		/* what a 2.1 GHz machine's reads cost, in thousandths */
		.overhead = { 25320, 155920, 60180, 2170 },
		.pmu_error = l->pmu_error,
	};
	struct time_bench_suite suite = {
		.name = SUITE_NAME,
		.subject = "page_pool",
		.tests = rows,
		.nr_tests = l->nr_tests,
		.params = &params,
		.config = pp_stats[l->page_pool_stats],
		.nr_config = 1,
		.seq_header = fake_seq_header,
		.seq_test = fake_seq_test,
		.seq_skip = fake_seq_skip,
		.state = &state,
	};
	char path[4096];
	unsigned int i;
	FILE *out;
	int ret = 0;

	if (l->nr_tests > MAX_TESTS) {
		fprintf(stderr, "%s: more than %d tests\n", l->file, MAX_TESTS);
		return -EINVAL;
	}
	load = l;
	snprintf(boot_cpu_data.x86_model_id,
		 sizeof(boot_cpu_data.x86_model_id), "%s", l->cpu_model);
	snprintf(state.ins.signature, sizeof(state.ins.signature), "%s",
		 l->signature);
	for (i = 0; i < l->nr_tests && !ret; i++) {
		const struct fake_test *t = &l->tests[i];

		rows[i] = (struct time_bench_test){
			.name = t->name,
			.bit = t->bit,
			.context = t->context,
			.cheaper_than = t->cheaper_than,
			.twin = t->twin,
		};
		if (t->unselected)
			continue;
		__set_bit(i, selected);
		if (!t->skip_reason) {
			ret = fake_run(i, &results[i]);
			continue;
		}
		results[i].skipped = true;
		snprintf(results[i].skip_reason,
			 sizeof(results[i].skip_reason), "%s", t->skip_reason);
	}
	snprintf(path, sizeof(path), "%s/%s.results", dir, l->file);
	out = ret ? NULL : fopen(path, "w");
	if (out) {
		time_bench_results_create(&suite);
		ret = debugfs_cat(SUITE_NAME "/results", out);
		time_bench_results_remove(&suite);
		if (fclose(out) && !ret)
			ret = -EIO;
	} else if (!ret) {
		perror(path);
		ret = -EIO;
	}
	for (i = 0; i < l->nr_tests; i++)
		fake_free(&results[i]);
	if (!ret)
		printf("wrote %s\n", path);
	return ret;
}

/* Bare metal with a PMU and page_pool stats, parameters left alone */
static const struct fake_test metal_tests[] = {
	{ .name = "for_loop", .context = &fake_process,
	  .ps_per_iter = 300, .insns_per_iter = 3,
	  .path = "-", .expect_path = "-", .expect_allocated_max = "-" },
	{ .name = "atomic_inc", .context = &fake_process, .unselected = true },
	{ .name = "no-softirq-page_pool01", .bit = 1,
	  .context = &fake_process, .twin = "tasklet_page_pool01_fast_path",
	  .ps_per_iter = 21000, .insns_per_iter = 180,
	  .path = "ring", .expect_path = "cache,ring",
	  .expect_allocated_max = "-" },
	{ .name = "tasklet_page_pool01_fast_path", .bit = 4,
	  .context = &fake_softirq,
	  .cheaper_than = "tasklet_page_pool02_ptr_ring,tasklet_page_pool04_napi_aware",
	  .ps_per_iter = 5500, .insns_per_iter = 78, .switched = 2,
	  .path = "cache", .expect_path = "cache",
	  .expect_allocated_max = "0", .expect_stat = "recycle_cached" },
	{ .name = "tasklet_page_pool02_ptr_ring", .bit = 5,
	  .context = &fake_softirq, .cheaper_than = "tasklet_page_pool03_slow",
	  .ps_per_iter = 15000, .insns_per_iter = 160, .ksoftirqd = true,
	  .switched = TIME_BENCH_RETRIES + 1, .wanders = true,
	  .path = "ring", .expect_path = "ring",
	  .expect_allocated_max = "-", .expect_stat = "recycle_ring" },
	{ .name = "tasklet_page_pool03_slow", .bit = 6,
	  .context = &fake_softirq,
	  .ps_per_iter = 160000, .insns_per_iter = 2400, .slow = true,
	  .path = "allocator", .expect_path = "allocator",
	  .expect_allocated_max = "-",
	  .expect_stat = "recycle_released_refcnt" },
	{ .name = "tasklet_page_pool04_napi_aware", .bit = 7,
	  .context = &fake_napi, .expect_path = "cache",
	  .skip_reason = "kernel has no page_pool_napi_local() (no page_pool_params.napi)" },
	{ .name = "napi_page_pool01_fast_path", .bit = 14,
	  .context = &fake_napi, .cheaper_than = "napi_page_pool02_ptr_ring",
	  .ps_per_iter = 6000, .insns_per_iter = 85,
	  .path = "cache", .expect_path = "cache",
	  .expect_allocated_max = "0", .expect_stat = "recycle_cached" },
	{ .name = "cross_cpu_page_pool01_return", .bit = 18,
	  .context = &fake_cpus,
	  .ps_per_iter = 40000, .insns_per_iter = 300,
	  .path = "ring", .expect_path = "ring",
	  .expect_allocated_max = "1088",
	  .expect_stat = "recycle_ring+recycle_ring_full" },
};

/* QEMU -icount: no PMU, no stats, one repetition of loops= */
static const struct fake_test icount_tests[] = {
	{ .name = "for_loop", .context = &fake_process,
	  .ps_per_iter = 2000, .insns_per_iter = 2,
	  .path = "-", .expect_path = "-", .expect_allocated_max = "-" },
	{ .name = "tasklet_page_pool01_fast_path", .bit = 4,
	  .context = &fake_softirq, .twin = "no-softirq-page_pool01",
	  .ps_per_iter = 78000, .insns_per_iter = 78,
	  .path = "cache", .expect_path = "cache",
	  .expect_allocated_max = "0", .expect_stat = "recycle_cached" },
	{ .name = "cross_cpu_page_pool01_return", .bit = 18,
	  .context = &fake_cpus, .expect_path = "ring",
	  .skip_reason =
		"counting instructions (QEMU -icount), vCPUs run one at a time: no contention between CPUs to measure",
	},
};

/* One vCPU, none of the tests= asked for can run: skip: lines only */
static const struct fake_test skipped_tests[] = {
	{ .name = "for_loop", .context = &fake_process, .unselected = true },
	{ .name = "tasklet_page_pool10_netmem", .bit = 13,
	  .context = &fake_softirq, .expect_path = "cache",
	  .skip_reason = "kernel lacks the netmem API (page_pool_alloc_netmems)" },
	{ .name = "napi_page_pool03_skb_bound", .bit = 16,
	  .context = &fake_napi, .expect_path = "cache",
	  .skip_reason = "kernel cannot bind a page_pool to its NAPI (no page_pool_params.napi)" },
	{ .name = "cross_cpu_page_pool01_return", .bit = 18,
	  .context = &fake_cpus, .expect_path = "ring",
	  .skip_reason = "needs 2 online CPUs, 1 online" },
};

static const struct fake_load loads[] = {
	{
		.file = "metal-pmu-stats",
		.release = "6.12.57+deb12-amd64",
		.cpu_model = "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
		.accel = TIME_BENCH_ACCEL_NONE,
		.clock = TIME_BENCH_CLOCK_CYCLES,
		.signature = "none",
		.page_pool_stats = true,
		.online_cpus = 2,
		.init_on_alloc = true,
		.params = {
			.time_ms = { .val = TIME_BENCH_TIME_MS_CYCLES },
			.reps = { .val = TIME_BENCH_REPS_CYCLES },
		},
		.tests = metal_tests,
		.nr_tests = ARRAY_SIZE(metal_tests),
	},
	{
		.file = "tcg-icount-nopmu",
		.release = "6.12.57+deb12-amd64",
		.cpu_model = "QEMU TCG CPU version 2.5+",
		.accel = TIME_BENCH_ACCEL_TCG,
		.clock = TIME_BENCH_CLOCK_INSTRUCTIONS,
		.signature = "TCGTCGTCGTCG",
		.pmu_error = -ENOENT,
		.online_cpus = 2,
		.params = {
			.loops = { .val = 100000, .given = true },
			.run_flags = { .val = 0x40011, .given = true },
			.time_ms = { .val = TIME_BENCH_TIME_MS_INSNS },
			.reps = { .val = 1, .given = true },
		},
		.tests = icount_tests,
		.nr_tests = ARRAY_SIZE(icount_tests),
	},
	{
		.file = "all-skipped",
		.release = "6.1.0-41-amd64",
		.cpu_model = "QEMU Virtual CPU version 2.5+",
		.accel = TIME_BENCH_ACCEL_TCG,
		.clock = TIME_BENCH_CLOCK_CYCLES,
		.signature = "TCGTCGTCGTCG",
		.pmu_error = -ENOENT,
		.online_cpus = 1,
		.init_on_alloc = true,
		.params = {
			.time_ms = { .val = TIME_BENCH_TIME_MS_CYCLES },
			.reps = { .val = TIME_BENCH_REPS_CYCLES },
			.tests = "tasklet_page_pool10_netmem,napi_page_pool03*,cross_cpu*",
			.tests_given = true,
		},
		.tests = skipped_tests,
		.nr_tests = ARRAY_SIZE(skipped_tests),
	},
};

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (i = 0; i < ARRAY_SIZE(loads); i++)
		if (write_load(&loads[i], argv[1]))
			return 1;
	return 0;
}
