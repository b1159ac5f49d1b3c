// SPDX-License-Identifier: GPL-2.0
/*
 * Micro-benchmark of page_pool's recycle paths.
 *
 * Each test is one row of bench_tests[]: a name, the run_flags bit that
 * selects it, the context its timed loop runs in and its loop body.
 * The whole run happens while the module loads, so the load returns
 * once every selected test has reported, and "perf record modprobe"
 * sees all of it.  The module then stays loaded, its results readable
 * in debugfs, until it is removed: rmmod it before the next run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/interrupt.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/stringify.h>
#include <linux/utsname.h>
#ifdef CONFIG_X86
#include <asm/processor.h>
#endif

#include "bench_page_pool_compat.h"
#include "time_bench.h"

/* Below this many iterations the timer reads weigh on the result. */
#define BENCH_MIN_LOOPS		1000
#define BENCH_MAX_TIME_MS	60000
/* Longest stay in one timed stretch, well below RCU stall and soft lockup
 * limits, so that any loops value is split into short chunks.
 */
#define BENCH_CHUNK_NS		(10 * NSEC_PER_MSEC)
/* Untimed first chunk: fills the pool's cache and measures the speed. */
#define BENCH_WARMUP_LOOPS	1024
#define BENCH_POOL_SIZE		1024
#define BENCH_GFP		(GFP_ATOMIC | __GFP_NOWARN)
/* " name=value" for each page_pool counter */
#define BENCH_PP_STATS_LEN	(BENCH_PP_NR_STATS * 48)

#define BENCH_BIT_BASELINE		BIT(0)
#define BENCH_BIT_PROCESS_FAST_PATH	BIT(1)
#define BENCH_BIT_PROCESS_PTR_RING	BIT(2)
#define BENCH_BIT_PROCESS_SLOW		BIT(3)
#define BENCH_BIT_SOFTIRQ_FAST_PATH	BIT(4)
#define BENCH_BIT_SOFTIRQ_PTR_RING	BIT(5)
#define BENCH_BIT_SOFTIRQ_SLOW		BIT(6)
#define BENCH_ALL_BITS			GENMASK(6, 0)

enum bench_context {
	BENCH_PROCESS,
	BENCH_SOFTIRQ,
};

/* How a page_pool test gives each page back. */
enum bench_return {
	BENCH_RETURN_NONE,	/* not a page_pool test */
	BENCH_RETURN_DIRECT,	/* page_pool_recycle_direct() */
	BENCH_RETURN_RING,	/* page_pool_put_full_page(, false) */
	BENCH_RETURN_ALLOCATOR,	/* extra reference: not recyclable */
};

/* Where the probe saw a returned page go. */
enum bench_path {
	BENCH_PATH_NONE,
	BENCH_PATH_CACHE,
	BENCH_PATH_RING,
	BENCH_PATH_ALLOCATOR,
	BENCH_PATH_UNKNOWN,
};

static const char * const bench_path_names[] = {
	[BENCH_PATH_NONE] = "-",
	[BENCH_PATH_CACHE] = "cache",
	[BENCH_PATH_RING] = "ring",
	[BENCH_PATH_ALLOCATOR] = "allocator",
	[BENCH_PATH_UNKNOWN] = "unknown",
};

enum bench_chunk_kind {
	BENCH_CHUNK_WARMUP,	/* run untimed, to fill caches and size chunks */
	BENCH_CHUNK_TIMED,	/* run and add to the result */
	BENCH_CHUNK_PROBE,	/* find out which path a page takes */
};

static const char * const bench_pp_stat_names[BENCH_PP_NR_STATS] = {
	[BENCH_PP_ALLOC_FAST] = "alloc_fast",
	[BENCH_PP_ALLOC_SLOW] = "alloc_slow",
	[BENCH_PP_ALLOC_SLOW_HIGH_ORDER] = "alloc_slow_high_order",
	[BENCH_PP_ALLOC_EMPTY] = "alloc_empty",
	[BENCH_PP_ALLOC_REFILL] = "alloc_refill",
	[BENCH_PP_ALLOC_WAIVE] = "alloc_waive",
	[BENCH_PP_RECYCLE_CACHED] = "recycle_cached",
	[BENCH_PP_RECYCLE_CACHE_FULL] = "recycle_cache_full",
	[BENCH_PP_RECYCLE_RING] = "recycle_ring",
	[BENCH_PP_RECYCLE_RING_FULL] = "recycle_ring_full",
	[BENCH_PP_RECYCLE_RELEASED_REFCNT] = "recycle_released_refcnt",
};

struct bench_run;

struct bench_test {
	const char *name;
	unsigned long bit;
	enum bench_context context;
	enum bench_return page_return;
	/* Runs @loops iterations, returns how many completed. */
	u64 (*body)(struct bench_run *run, u64 loops);
};

struct bench_result {
	bool valid;
	struct time_bench_record rec;
	u64 loops;		/* iterations asked for, or sized by time */
	u32 softirq_chunks;	/* chunks seen running in softirq */
	int cpu;		/* CPU of the first timed chunk */
	u32 cpu_moves;		/* timed chunks run on another CPU */
	enum bench_path path;
	u64 pages_allocated;	/* from the page allocator while timed */
	u64 pages_released;	/* back to the page allocator while timed */
	/* page_pool's counters over the timed loop, if it keeps them */
	u64 pp_stats[BENCH_PP_NR_STATS];
};

/* State of the test being run; chunks run in its context. */
struct bench_run {
	const struct bench_test *test;
	struct bench_result *result;
	struct page_pool *pool;
	atomic_t counter;
	spinlock_t lock;	/* only the "lock" baseline takes it */
	struct tasklet_struct tasklet;
	struct completion chunk_done;
	enum bench_chunk_kind chunk_kind;	/* in */
	u64 chunk_loops;	/* in: iterations for the next chunk */
	u64 chunk_completed;	/* out: iterations it completed */
	u64 chunk_ns;		/* out: how long they took */
};

static unsigned int loops;
static bool loops_given;
static unsigned int run_flags = BENCH_ALL_BITS;
static unsigned int time_ms = 200;

#define BENCH_LOOPS_ACCEPTED	__stringify(BENCH_MIN_LOOPS) "..4294967295"
#define BENCH_RUN_FLAGS_ACCEPTED "a mask of bits 0-6 (0x1..0x7f)"
#define BENCH_TIME_MS_ACCEPTED	"1.." __stringify(BENCH_MAX_TIME_MS)

/* Parses an unsigned int parameter; @accepted ends the error line. */
static int bench_param_parse(const char *val, const struct kernel_param *kp,
			     const char *accepted)
{
	int ret = param_set_uint(val, kp);

	if (ret)
		pr_err("%s=%s invalid: not an unsigned 32-bit number; accepted: %s\n",
		       kp->name, val, accepted);
	return ret;
}

static int bench_param_set_loops(const char *val, const struct kernel_param *kp)
{
	int ret = bench_param_parse(val, kp, BENCH_LOOPS_ACCEPTED);

	if (!ret)
		loops_given = true;
	return ret;
}

static int bench_param_set_run_flags(const char *val,
				     const struct kernel_param *kp)
{
	return bench_param_parse(val, kp, BENCH_RUN_FLAGS_ACCEPTED);
}

static int bench_param_set_time_ms(const char *val,
				   const struct kernel_param *kp)
{
	return bench_param_parse(val, kp, BENCH_TIME_MS_ACCEPTED);
}

static const struct kernel_param_ops bench_loops_ops = {
	.set = bench_param_set_loops,
	.get = param_get_uint,
};

static const struct kernel_param_ops bench_run_flags_ops = {
	.set = bench_param_set_run_flags,
	.get = param_get_uint,
};

static const struct kernel_param_ops bench_time_ms_ops = {
	.set = bench_param_set_time_ms,
	.get = param_get_uint,
};

module_param_cb(loops, &bench_loops_ops, &loops, 0444);
__MODULE_PARM_TYPE(loops, "uint");
MODULE_PARM_DESC(loops, "Iterations per test, " BENCH_LOOPS_ACCEPTED
		 " (default: as many as fit in time_ms)");
module_param_cb(run_flags, &bench_run_flags_ops, &run_flags, 0444);
__MODULE_PARM_TYPE(run_flags, "uint");
MODULE_PARM_DESC(run_flags,
		 "Tests to run, a bit mask (default 0x7f, all): bit 0 baselines (for_loop, atomic_inc, lock); bits 1-3 page_pool fast path, ptr_ring, slow path in process context; bits 4-6 the same in softirq (tasklet) context");
module_param_cb(time_ms, &bench_time_ms_ops, &time_ms, 0444);
__MODULE_PARM_TYPE(time_ms, "uint");
MODULE_PARM_DESC(time_ms, "Timed duration per test in ms when loops is not given, "
		 BENCH_TIME_MS_ACCEPTED " (default 200)");

static u64 bench_for_loop(struct bench_run *run, u64 loops)
{
	u64 i;

	for (i = 0; i < loops; i++)
		barrier();
	return i;
}

static u64 bench_atomic_inc(struct bench_run *run, u64 loops)
{
	u64 i;

	for (i = 0; i < loops; i++)
		atomic_inc(&run->counter);
	return i;
}

static u64 bench_lock(struct bench_run *run, u64 loops)
{
	u64 i;

	for (i = 0; i < loops; i++) {
		spin_lock(&run->lock);
		barrier();
		spin_unlock(&run->lock);
	}
	return i;
}

/* Gives @page back to @pool the way the test says. */
static __always_inline void bench_pp_return(struct page_pool *pool,
					    struct page *page,
					    enum bench_return page_return)
{
	switch (page_return) {
	case BENCH_RETURN_DIRECT:
		page_pool_recycle_direct(pool, page);
		break;
	case BENCH_RETURN_ALLOCATOR:
		get_page(page);
		page_pool_put_full_page(pool, page, false);
		put_page(page);
		break;
	default:
		page_pool_put_full_page(pool, page, false);
		break;
	}
}

/* One page through the pool and back; false if no page could be had. */
static __always_inline bool bench_pp_cycle(struct page_pool *pool,
					   enum bench_return page_return)
{
	struct page *page = page_pool_alloc_pages(pool, BENCH_GFP);

	if (unlikely(!page))
		return false;
	bench_pp_return(pool, page, page_return);
	return true;
}

/* The bodies below differ only in a constant, so each compiles to its own
 * branch-free loop.
 */
static __always_inline u64 bench_pp_loop(struct bench_run *run, u64 loops,
					 enum bench_return page_return)
{
	u64 i;

	for (i = 0; i < loops; i++)
		if (unlikely(!bench_pp_cycle(run->pool, page_return)))
			break;
	return i;
}

static u64 bench_pp_fast_path(struct bench_run *run, u64 loops)
{
	return bench_pp_loop(run, loops, BENCH_RETURN_DIRECT);
}

static u64 bench_pp_ptr_ring(struct bench_run *run, u64 loops)
{
	return bench_pp_loop(run, loops, BENCH_RETURN_RING);
}

static u64 bench_pp_slow(struct bench_run *run, u64 loops)
{
	return bench_pp_loop(run, loops, BENCH_RETURN_ALLOCATOR);
}

static const struct bench_test bench_tests[] = {
	{ "for_loop", BENCH_BIT_BASELINE, BENCH_PROCESS,
	  BENCH_RETURN_NONE, bench_for_loop },
	{ "atomic_inc", BENCH_BIT_BASELINE, BENCH_PROCESS,
	  BENCH_RETURN_NONE, bench_atomic_inc },
	{ "lock", BENCH_BIT_BASELINE, BENCH_PROCESS,
	  BENCH_RETURN_NONE, bench_lock },
	{ "no-softirq-page_pool01", BENCH_BIT_PROCESS_FAST_PATH, BENCH_PROCESS,
	  BENCH_RETURN_DIRECT, bench_pp_fast_path },
	{ "no-softirq-page_pool02", BENCH_BIT_PROCESS_PTR_RING, BENCH_PROCESS,
	  BENCH_RETURN_RING, bench_pp_ptr_ring },
	{ "no-softirq-page_pool03", BENCH_BIT_PROCESS_SLOW, BENCH_PROCESS,
	  BENCH_RETURN_ALLOCATOR, bench_pp_slow },
	{ "tasklet_page_pool01_fast_path", BENCH_BIT_SOFTIRQ_FAST_PATH,
	  BENCH_SOFTIRQ, BENCH_RETURN_DIRECT, bench_pp_fast_path },
	{ "tasklet_page_pool02_ptr_ring", BENCH_BIT_SOFTIRQ_PTR_RING,
	  BENCH_SOFTIRQ, BENCH_RETURN_RING, bench_pp_ptr_ring },
	{ "tasklet_page_pool03_slow", BENCH_BIT_SOFTIRQ_SLOW,
	  BENCH_SOFTIRQ, BENCH_RETURN_ALLOCATOR, bench_pp_slow },
};

static struct bench_result bench_results[ARRAY_SIZE(bench_tests)];
static struct dentry *bench_debugfs_dir;

/*
 * Gives one page back the test's way and looks where it went: the
 * lockless cache grew, the ring's producer index moved, or the pool
 * released the page to the page allocator.  Runs in the test's context.
 */
static enum bench_path bench_probe_path(struct bench_run *run)
{
	struct page_pool *pool = run->pool;
	u32 cached, released;
	struct page *page;
	int producer;

	page = page_pool_alloc_pages(pool, BENCH_GFP);
	if (!page)
		return BENCH_PATH_UNKNOWN;
	/* Read after the alloc, which may have refilled the cache. */
	cached = bench_pp_cache_count(pool);
	producer = bench_pp_ring_producer(pool);
	released = bench_pp_pages_released(pool);

	bench_pp_return(pool, page, run->test->page_return);

	if (bench_pp_cache_count(pool) == cached + 1)
		return BENCH_PATH_CACHE;
	if (bench_pp_ring_producer(pool) != producer)
		return BENCH_PATH_RING;
	if (bench_pp_pages_released(pool) != released)
		return BENCH_PATH_ALLOCATOR;
	return BENCH_PATH_UNKNOWN;
}

/* Runs one chunk in the current context, the test's one. */
static void bench_chunk(struct bench_run *run)
{
	struct bench_result *res = run->result;
	struct time_bench_stamp start, stop;
	u64 done;
	int cpu;

	if (run->chunk_kind == BENCH_CHUNK_PROBE) {
		res->path = bench_probe_path(run);
		return;
	}

	time_bench_start(&start);
	done = run->test->body(run, run->chunk_loops);
	time_bench_stop(&stop);

	run->chunk_completed = done;
	run->chunk_ns = stop.ns - start.ns;
	if (run->chunk_kind != BENCH_CHUNK_TIMED)
		return;

	time_bench_account(&res->rec, &start, &stop, done);
	cpu = raw_smp_processor_id();
	if (res->rec.chunks == 1)
		res->cpu = cpu;
	else if (cpu != res->cpu)
		res->cpu_moves++;
	if (in_serving_softirq())
		res->softirq_chunks++;
}

static void bench_tasklet_fn(struct tasklet_struct *t)
{
	struct bench_run *run = from_tasklet(run, t, tasklet);

	bench_chunk(run);
	complete(&run->chunk_done);
}

/* Runs a chunk in the test's context, returns the iterations completed. */
static u64 bench_run_chunk(struct bench_run *run, enum bench_chunk_kind kind,
			   u64 chunk_loops)
{
	run->chunk_kind = kind;
	run->chunk_loops = chunk_loops;
	run->chunk_completed = 0;

	if (run->test->context == BENCH_PROCESS) {
		bench_chunk(run);
		return run->chunk_completed;
	}

	/* Scheduled with BH off, the tasklet runs at local_bh_enable() in
	 * this task when it can, so profilers of the loading task see it;
	 * otherwise ksoftirqd runs it.  Either way the completion says when.
	 */
	reinit_completion(&run->chunk_done);
	local_bh_disable();
	tasklet_schedule(&run->tasklet);
	local_bh_enable();
	wait_for_completion(&run->chunk_done);
	return run->chunk_completed;
}

static int bench_setup(struct bench_run *run)
{
	struct page_pool_params pp_params = {
		.order = 0,
		.pool_size = BENCH_POOL_SIZE,
		.nid = NUMA_NO_NODE,
		.dma_dir = DMA_BIDIRECTIONAL,
	};

	atomic_set(&run->counter, 0);
	spin_lock_init(&run->lock);
	init_completion(&run->chunk_done);
	tasklet_setup(&run->tasklet, bench_tasklet_fn);
	if (run->test->page_return == BENCH_RETURN_NONE)
		return 0;

	/* May sleep: always in process context, never in the tasklet. */
	run->pool = page_pool_create(&pp_params);
	if (IS_ERR(run->pool)) {
		int err = PTR_ERR(run->pool);

		run->pool = NULL;
		pr_err("%s: page_pool_create failed: %d\n", run->test->name,
		       err);
		return err;
	}
	return 0;
}

static void bench_teardown(struct bench_run *run)
{
	tasklet_kill(&run->tasklet);
	if (run->pool)
		page_pool_destroy(run->pool);
	run->pool = NULL;
}

/*
 * Runs the test's loop chunk by chunk until the asked-for iterations,
 * or time_ms of timed work, are done.  Between chunks the task may be
 * scheduled out, and a fatal signal ends the run.
 */
static int bench_measure(struct bench_run *run)
{
	struct bench_result *res = run->result;
	const char *name = run->test->name;
	u64 target = loops_given ? loops : U64_MAX;
	u64 time_target_ns = (u64)time_ms * NSEC_PER_MSEC;
	u64 chunk = BENCH_WARMUP_LOOPS, done;
	u64 stats_before[BENCH_PP_NR_STATS];
	u32 allocated = 0, released = 0;
	int i;

	done = bench_run_chunk(run, BENCH_CHUNK_WARMUP, chunk);
	if (done < chunk)
		goto alloc_failed;
	if (run->pool) {
		allocated = bench_pp_pages_allocated(run->pool);
		released = bench_pp_pages_released(run->pool);
		bench_pp_stats_read(run->pool, stats_before);
	}

	while (res->rec.invocations < target) {
		chunk = time_bench_next_chunk(chunk, run->chunk_ns,
					      BENCH_CHUNK_NS,
					      target - res->rec.invocations);
		cond_resched();
		if (fatal_signal_pending(current)) {
			pr_err("%s: interrupted by a signal after %llu iterations\n",
			       name, res->rec.invocations);
			return -EINTR;
		}
		done = bench_run_chunk(run, BENCH_CHUNK_TIMED, chunk);
		if (done < chunk)
			goto alloc_failed;
		if (!loops_given && res->rec.ns >= time_target_ns)
			break;
	}
	res->loops = loops_given ? loops : res->rec.invocations;

	if (run->pool) {
		res->pages_allocated = bench_pp_pages_allocated(run->pool) -
				       allocated;
		res->pages_released = bench_pp_pages_released(run->pool) -
				      released;
		bench_pp_stats_read(run->pool, res->pp_stats);
		for (i = 0; i < BENCH_PP_NR_STATS; i++)
			res->pp_stats[i] -= stats_before[i];
		bench_run_chunk(run, BENCH_CHUNK_PROBE, 0);
	}
	return 0;

alloc_failed:
	pr_err("%s: page allocation failed after %llu iterations\n", name,
	       res->rec.invocations + done);
	return -ENOMEM;
}

/* Formats the page_pool counters as " name=value..." into @buf. */
static void bench_format_pp_stats(char *buf, size_t size,
				  const struct bench_result *res)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < BENCH_PP_NR_STATS; i++)
		len += scnprintf(buf + len, size - len, " %s=%llu",
				 bench_pp_stat_names[i], res->pp_stats[i]);
}

static void bench_print_pp_stats(const char *name,
				 const struct bench_result *res)
{
	char buf[BENCH_PP_STATS_LEN];

	bench_format_pp_stats(buf, sizeof(buf), res);
	pr_info("%s page_pool stats:%s\n", name, buf);
}

static int bench_run_test(const struct bench_test *test,
			  struct bench_result *res)
{
	struct bench_run *run;
	int ret;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	run->test = test;
	run->result = res;
	memset(res, 0, sizeof(*res));

	ret = bench_setup(run);
	if (!ret)
		ret = bench_measure(run);
	bench_teardown(run);
	kfree(run);
	if (ret)
		return ret;

	res->valid = true;
	time_bench_print(test->name, &res->rec);
	if (test->page_return != BENCH_RETURN_NONE && BENCH_HAVE_PP_STATS)
		bench_print_pp_stats(test->name, res);
	return 0;
}

static const char *bench_context_name(const struct bench_result *res)
{
	if (res->softirq_chunks == res->rec.chunks)
		return "softirq";
	return res->softirq_chunks ? "mixed" : "process";
}

static const char *bench_cpu_model(void)
{
#ifdef CONFIG_X86
	if (boot_cpu_data.x86_model_id[0])
		return boot_cpu_data.x86_model_id;
#endif
	return "unknown";
}

/* The results file: see "Results file" in README.rst for the format. */
static int bench_results_show(struct seq_file *m, void *v)
{
	size_t i;

	seq_puts(m, "format: bench_page_pool_simple 1\n");
	seq_printf(m, "kernel: %s\n", init_utsname()->release);
	seq_printf(m, "cpu_model: %s\n", bench_cpu_model());
	seq_printf(m, "page_pool_stats: %s\n",
		   BENCH_HAVE_PP_STATS ? "yes" : "no");
	if (loops_given)
		seq_printf(m, "params: loops=%u run_flags=0x%x time_ms=-\n",
			   loops, run_flags);
	else
		seq_printf(m, "params: loops=- run_flags=0x%x time_ms=%u\n",
			   run_flags, time_ms);

	for (i = 0; i < ARRAY_SIZE(bench_tests); i++) {
		const struct bench_result *res = &bench_results[i];
		struct time_bench_fixed cyc, ns;

		if (!res->valid)
			continue;
		cyc = time_bench_div_fixed(res->rec.cycles,
					   res->rec.invocations, 3, true);
		ns = time_bench_div_fixed(res->rec.ns, res->rec.invocations,
					  3, true);
		seq_printf(m, "test: name=%s run_flags_bit=%lu context=%s cpu=%d cpu_moves=%u loops=%llu invoke_count=%llu cycles=%llu ns=%llu chunks=%u cycles_per_elem=%llu.%03u ns_per_elem=%llu.%03u path=%s pages_allocated=%llu pages_released=%llu",
			   bench_tests[i].name, __ffs(bench_tests[i].bit),
			   bench_context_name(res), res->cpu, res->cpu_moves,
			   res->loops, res->rec.invocations, res->rec.cycles,
			   res->rec.ns, res->rec.chunks, cyc.whole, cyc.frac,
			   ns.whole, ns.frac, bench_path_names[res->path],
			   res->pages_allocated, res->pages_released);
		if (bench_tests[i].page_return != BENCH_RETURN_NONE &&
		    BENCH_HAVE_PP_STATS) {
			char buf[BENCH_PP_STATS_LEN];

			bench_format_pp_stats(buf, sizeof(buf), res);
			seq_puts(m, buf);
		}
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(bench_results);

/* Ranges the parsers cannot know; one dmesg line per bad value. */
static int bench_check_params(void)
{
	if (loops_given && loops < BENCH_MIN_LOOPS) {
		pr_err("loops=%u invalid: too few to time; accepted: %s\n",
		       loops, BENCH_LOOPS_ACCEPTED);
		return -EINVAL;
	}
	if (!run_flags) {
		pr_err("run_flags=0x0 invalid: selects no test; accepted: %s\n",
		       BENCH_RUN_FLAGS_ACCEPTED);
		return -EINVAL;
	}
	if (run_flags & ~BENCH_ALL_BITS) {
		pr_err("run_flags=0x%x invalid: unknown bit(s) 0x%lx; accepted: %s\n",
		       run_flags, run_flags & ~BENCH_ALL_BITS,
		       BENCH_RUN_FLAGS_ACCEPTED);
		return -EINVAL;
	}
	if (!time_ms || time_ms > BENCH_MAX_TIME_MS) {
		pr_err("time_ms=%u invalid: out of range; accepted: %s\n",
		       time_ms, BENCH_TIME_MS_ACCEPTED);
		return -EINVAL;
	}
	return 0;
}

static int __init bench_page_pool_simple_init(void)
{
	size_t i;
	int ret;

	ret = bench_check_params();
	if (ret)
		return ret;
	if (!BENCH_HAVE_PP_STATS)
		pr_info("page_pool stats unavailable: kernel built without CONFIG_PAGE_POOL_STATS\n");

	for (i = 0; i < ARRAY_SIZE(bench_tests); i++) {
		if (!(run_flags & bench_tests[i].bit))
			continue;
		ret = bench_run_test(&bench_tests[i], &bench_results[i]);
		if (ret)
			return ret;
	}

	bench_debugfs_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("results", 0444, bench_debugfs_dir, NULL,
			    &bench_results_fops);
	return 0;
}
module_init(bench_page_pool_simple_init);

static void __exit bench_page_pool_simple_exit(void)
{
	debugfs_remove_recursive(bench_debugfs_dir);
}
module_exit(bench_page_pool_simple_exit);

MODULE_DESCRIPTION("Micro-benchmark of page_pool recycle paths");
MODULE_LICENSE("GPL");
