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
	BENCH_CHUNK_LOOP,	/* run and time the test's loop */
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
	u32 reps;
	u64 loops;		/* iterations per repetition */
	struct time_bench_record *rep_recs;	/* one per repetition */
	u64 *cycles_milli;	/* per repetition, in rep order */
	u64 *ns_milli;
	u32 median_rep;		/* the one the legacy line shows */
	struct time_bench_summary cycles;	/* thousandths per element */
	struct time_bench_summary ns;
	u64 total_invocations;
	u32 chunks;		/* timed chunks of all repetitions */
	u32 softirq_chunks;	/* of which seen running in softirq */
	int cpu;		/* CPU of the first timed chunk */
	u32 cpu_moves;		/* timed chunks run on another CPU */
	enum bench_path path;
	u64 pages_allocated;	/* from the page allocator while timed */
	u64 pages_released;	/* back to the page allocator while timed */
	/* page_pool's counters over the timed loops, if it keeps them */
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
	u64 next_chunk;		/* iterations the next chunk should run */
	/* One chunk's orders and report, handed to and from the tasklet */
	enum bench_chunk_kind chunk_kind;
	u64 chunk_loops;
	struct time_bench_stamp chunk_start;
	struct time_bench_stamp chunk_stop;
	u64 chunk_completed;
	int chunk_cpu;
	bool chunk_in_softirq;
	struct task_struct *chunk_task;
};

static unsigned int loops;
static bool loops_given;
static unsigned int run_flags = BENCH_ALL_BITS;
static unsigned int time_ms = 200;
static unsigned int reps;
static bool reps_given;

#define BENCH_LOOPS_ACCEPTED	__stringify(BENCH_MIN_LOOPS) "..4294967295"
#define BENCH_RUN_FLAGS_ACCEPTED "a mask of bits 0-6 (0x1..0x7f)"
#define BENCH_TIME_MS_ACCEPTED	"1.." __stringify(BENCH_MAX_TIME_MS)
#define BENCH_REPS_ACCEPTED	"1.." __stringify(TIME_BENCH_MAX_REPS)
/* Repetitions when sized by time; an explicit loops runs once, as the
 * legacy benchmark did, unless reps says otherwise.
 */
#define BENCH_DEFAULT_REPS	5

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

static int bench_param_set_reps(const char *val, const struct kernel_param *kp)
{
	int ret = bench_param_parse(val, kp, BENCH_REPS_ACCEPTED);

	if (!ret)
		reps_given = true;
	return ret;
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

static const struct kernel_param_ops bench_reps_ops = {
	.set = bench_param_set_reps,
	.get = param_get_uint,
};

module_param_cb(loops, &bench_loops_ops, &loops, 0444);
__MODULE_PARM_TYPE(loops, "uint");
MODULE_PARM_DESC(loops, "Iterations per repetition, " BENCH_LOOPS_ACCEPTED
		 " (default: as many as fit in time_ms)");
module_param_cb(run_flags, &bench_run_flags_ops, &run_flags, 0444);
__MODULE_PARM_TYPE(run_flags, "uint");
MODULE_PARM_DESC(run_flags,
		 "Tests to run, a bit mask (default 0x7f, all): bit 0 baselines (for_loop, atomic_inc, lock); bits 1-3 page_pool fast path, ptr_ring, slow path in process context; bits 4-6 the same in softirq (tasklet) context");
module_param_cb(time_ms, &bench_time_ms_ops, &time_ms, 0444);
__MODULE_PARM_TYPE(time_ms, "uint");
MODULE_PARM_DESC(time_ms, "Timed duration per test in ms, all repetitions together, when loops is not given, "
		 BENCH_TIME_MS_ACCEPTED " (default 200)");
module_param_cb(reps, &bench_reps_ops, &reps, 0444);
__MODULE_PARM_TYPE(reps, "uint");
MODULE_PARM_DESC(reps, "Repetitions of each test, " BENCH_REPS_ACCEPTED
		 " (default: " __stringify(BENCH_DEFAULT_REPS)
		 ", or 1 when loops is given)");

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
	if (run->chunk_kind == BENCH_CHUNK_PROBE) {
		run->result->path = bench_probe_path(run);
		return;
	}

	time_bench_start(&run->chunk_start);
	run->chunk_completed = run->test->body(run, run->chunk_loops);
	time_bench_stop(&run->chunk_stop);

	run->chunk_cpu = raw_smp_processor_id();
	run->chunk_in_softirq = in_serving_softirq();
	run->chunk_task = current;
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

	time_bench_pmu_read(&run->chunk_start);
	if (run->test->context == BENCH_PROCESS) {
		bench_chunk(run);
		time_bench_pmu_read(&run->chunk_stop);
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
	time_bench_pmu_read(&run->chunk_stop);
	/* This task's counters missed a chunk that ksoftirqd ran. */
	if (run->chunk_task != current)
		run->chunk_stop.pmu_valid = false;
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

/* Notes where a timed chunk ran, to report the test's real context. */
static void bench_note_context(struct bench_run *run)
{
	struct bench_result *res = run->result;

	if (!res->chunks++)
		res->cpu = run->chunk_cpu;
	else if (run->chunk_cpu != res->cpu)
		res->cpu_moves++;
	if (run->chunk_in_softirq)
		res->softirq_chunks++;
}

/* Aims the next chunk at BENCH_CHUNK_NS from the speed of the last one. */
static void bench_size_next_chunk(struct bench_run *run, u64 last_loops)
{
	u64 last_ns = run->chunk_stop.ns - run->chunk_start.ns;

	run->next_chunk = time_bench_next_chunk(last_loops, last_ns,
						BENCH_CHUNK_NS, U64_MAX);
}

/*
 * Runs the test's loop into @rec, chunk by chunk, until @max_loops
 * iterations or @max_ns of timed work are done.  Between chunks the task
 * may be scheduled out, and a fatal signal ends the run.
 */
static int bench_run_loops(struct bench_run *run, u64 max_loops, u64 max_ns,
			   struct time_bench_record *rec, bool count_context)
{
	const char *name = run->test->name;
	u64 chunk, done;

	while (rec->invocations < max_loops && rec->ns < max_ns) {
		chunk = min(run->next_chunk, max_loops - rec->invocations);
		cond_resched();
		if (fatal_signal_pending(current)) {
			pr_err("%s: interrupted by a signal\n", name);
			return -EINTR;
		}
		done = bench_run_chunk(run, BENCH_CHUNK_LOOP, chunk);
		time_bench_account(rec, &run->chunk_start, &run->chunk_stop,
				   done);
		if (done < chunk) {
			pr_err("%s: page allocation failed after %llu iterations\n",
			       name, rec->invocations);
			return -ENOMEM;
		}
		if (count_context)
			bench_note_context(run);
		bench_size_next_chunk(run, chunk);
	}
	return 0;
}

/* Iterations per repetition: loops, or what fits in its share of
 * time_ms at the speed a short calibration run measures.
 */
static int bench_loops_per_rep(struct bench_run *run, u32 nreps, u64 *per_rep)
{
	u64 rep_ns = div_u64((u64)time_ms * NSEC_PER_MSEC, nreps);
	struct time_bench_record cal = { };
	int ret;

	if (loops_given) {
		*per_rep = loops;
		return 0;
	}
	ret = bench_run_loops(run, U64_MAX, min_t(u64, rep_ns, BENCH_CHUNK_NS),
			      &cal, false);
	if (ret)
		return ret;
	*per_rep = mul_u64_u64_div_u64(cal.invocations, rep_ns,
				       max_t(u64, cal.ns, 1));
	*per_rep = clamp_t(u64, *per_rep, BENCH_MIN_LOOPS, U32_MAX);
	return 0;
}

static u32 bench_reps(void)
{
	if (reps_given)
		return reps;
	return loops_given ? 1 : BENCH_DEFAULT_REPS;
}

/* Spread over the repetitions, and the one the legacy line shows: the
 * median, or the lower of the two middle ones.
 */
static int bench_summarize(struct bench_result *res)
{
	u64 *sorted;
	u32 r;

	sorted = kmalloc_array(res->reps, sizeof(*sorted), GFP_KERNEL);
	if (!sorted)
		return -ENOMEM;
	for (r = 0; r < res->reps; r++) {
		const struct time_bench_record *rec = &res->rep_recs[r];

		res->cycles_milli[r] =
			time_bench_milli_per_elem(rec->cycles, rec->invocations);
		res->ns_milli[r] =
			time_bench_milli_per_elem(rec->ns, rec->invocations);
		res->total_invocations += rec->invocations;
	}

	memcpy(sorted, res->ns_milli, res->reps * sizeof(*sorted));
	res->ns = time_bench_summarize(sorted, res->reps);
	memcpy(sorted, res->cycles_milli, res->reps * sizeof(*sorted));
	res->cycles = time_bench_summarize(sorted, res->reps);
	for (r = 0; r < res->reps; r++)
		if (res->cycles_milli[r] == sorted[(res->reps - 1) / 2])
			break;
	res->median_rep = r;
	kfree(sorted);
	return 0;
}

static int bench_measure(struct bench_run *run)
{
	struct bench_result *res = run->result;
	u64 stats_before[BENCH_PP_NR_STATS];
	u32 allocated = 0, released = 0, r;
	int i, ret;

	res->reps = bench_reps();
	res->rep_recs = kcalloc(res->reps, sizeof(*res->rep_recs), GFP_KERNEL);
	res->cycles_milli = kcalloc(res->reps, sizeof(u64), GFP_KERNEL);
	res->ns_milli = kcalloc(res->reps, sizeof(u64), GFP_KERNEL);
	if (!res->rep_recs || !res->cycles_milli || !res->ns_milli)
		return -ENOMEM;

	/* Not counted: fills the pool's cache and sizes the first chunk. */
	if (bench_run_chunk(run, BENCH_CHUNK_LOOP, BENCH_WARMUP_LOOPS) <
	    BENCH_WARMUP_LOOPS) {
		pr_err("%s: page allocation failed while warming up\n",
		       run->test->name);
		return -ENOMEM;
	}
	bench_size_next_chunk(run, BENCH_WARMUP_LOOPS);

	ret = bench_loops_per_rep(run, res->reps, &res->loops);
	if (ret)
		return ret;

	if (run->pool) {
		allocated = bench_pp_pages_allocated(run->pool);
		released = bench_pp_pages_released(run->pool);
		bench_pp_stats_read(run->pool, stats_before);
	}
	for (r = 0; r < res->reps; r++) {
		ret = bench_run_loops(run, res->loops, U64_MAX,
				      &res->rep_recs[r], true);
		if (ret)
			return ret;
	}
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
	return bench_summarize(res);
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
	time_bench_print(test->name, &res->rep_recs[res->median_rep]);
	if (res->reps > 1)
		time_bench_print_summary(test->name, res->reps, &res->cycles,
					 &res->ns);
	if (test->page_return != BENCH_RETURN_NONE && BENCH_HAVE_PP_STATS)
		bench_print_pp_stats(test->name, res);
	return 0;
}

static void bench_free_results(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bench_results); i++) {
		kfree(bench_results[i].rep_recs);
		kfree(bench_results[i].cycles_milli);
		kfree(bench_results[i].ns_milli);
		memset(&bench_results[i], 0, sizeof(bench_results[i]));
	}
}

static const char *bench_context_name(const struct bench_result *res)
{
	if (res->softirq_chunks == res->chunks)
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

static struct time_bench_overhead bench_overhead;
static int bench_pmu_error;

/* " key=x.yy" from thousandths, two decimals rounded */
static void bench_seq_milli2(struct seq_file *m, const char *key, u64 milli)
{
	char num[TIME_BENCH_NUM_LEN];

	seq_printf(m, " %s=%s", key,
		   time_bench_format_milli(num, sizeof(num), milli));
}

/* PMU counts over all repetitions, as " key=x.yy" fields. */
static void bench_seq_pmu(struct seq_file *m, const struct bench_result *res)
{
	u64 insn = 0, cyc = 0, inv = 0;
	u32 skipped = 0, r;

	for (r = 0; r < res->reps; r++) {
		insn += res->rep_recs[r].pmu_instructions;
		cyc += res->rep_recs[r].pmu_cycles;
		inv += res->rep_recs[r].pmu_invocations;
		skipped += res->rep_recs[r].pmu_skipped_chunks;
	}
	if (!inv) {
		seq_puts(m, " pmu=-");
		return;
	}
	bench_seq_milli2(m, "instructions_per_elem",
			 time_bench_milli_per_elem(insn, inv));
	bench_seq_milli2(m, "pmu_cycles_per_elem",
			 time_bench_milli_per_elem(cyc, inv));
	bench_seq_milli2(m, "ipc", time_bench_milli_per_elem(insn, cyc));
	seq_printf(m, " pmu_skipped_chunks=%u", skipped);
}

static void bench_seq_summary(struct seq_file *m, const char *unit,
			      const struct time_bench_summary *sum)
{
	char key[24];

	snprintf(key, sizeof(key), "%s_min", unit);
	bench_seq_milli2(m, key, sum->min);
	snprintf(key, sizeof(key), "%s_median", unit);
	bench_seq_milli2(m, key, sum->median);
	snprintf(key, sizeof(key), "%s_mean", unit);
	bench_seq_milli2(m, key, sum->mean);
	snprintf(key, sizeof(key), "%s_stddev", unit);
	bench_seq_milli2(m, key, sum->stddev);
	snprintf(key, sizeof(key), "%s_max", unit);
	bench_seq_milli2(m, key, sum->max);
}

/* " key=a.aaa,b.bbb,..." : one value per repetition, in order */
static void bench_seq_samples(struct seq_file *m, const char *key,
			      const u64 *milli, u32 n)
{
	u32 r;

	seq_printf(m, " %s=", key);
	for (r = 0; r < n; r++)
		seq_printf(m, "%s%llu.%03llu", r ? "," : "",
			   div_u64(milli[r], 1000), milli[r] % 1000);
}

/* The results file: see "Results file" in README.rst for the format. */
static int bench_results_show(struct seq_file *m, void *v)
{
	const struct time_bench_overhead *ovh = &bench_overhead;
	size_t i;

	seq_puts(m, "format: bench_page_pool_simple 2\n");
	seq_printf(m, "kernel: %s\n", init_utsname()->release);
	seq_printf(m, "cpu_model: %s\n", bench_cpu_model());
	seq_printf(m, "page_pool_stats: %s\n",
		   BENCH_HAVE_PP_STATS ? "yes" : "no");
	if (loops_given)
		seq_printf(m, "params: loops=%u run_flags=0x%x time_ms=- reps=%u\n",
			   loops, run_flags, bench_reps());
	else
		seq_printf(m, "params: loops=- run_flags=0x%x time_ms=%u reps=%u\n",
			   run_flags, time_ms, bench_reps());
	seq_puts(m, "overhead:");
	bench_seq_milli2(m, "cycle_read_cycles", ovh->cycle_read_milli);
	bench_seq_milli2(m, "clock_read_cycles", ovh->clock_read_milli_cycles);
	bench_seq_milli2(m, "clock_read_ns", ovh->clock_read_milli_ns);
	bench_seq_milli2(m, "empty_loop_cycles", ovh->empty_loop_milli_cycles);
	seq_putc(m, '\n');
	if (bench_pmu_error)
		seq_printf(m, "pmu: unavailable (error %d)\n", bench_pmu_error);
	else
		seq_puts(m, "pmu: instructions cycles\n");

	for (i = 0; i < ARRAY_SIZE(bench_tests); i++) {
		const struct bench_result *res = &bench_results[i];
		const struct time_bench_record *rec;
		struct time_bench_fixed cyc, ns;

		if (!res->valid)
			continue;
		rec = &res->rep_recs[res->median_rep];
		cyc = time_bench_div_fixed(rec->cycles, rec->invocations, 3,
					   true);
		ns = time_bench_div_fixed(rec->ns, rec->invocations, 3, true);
		seq_printf(m, "test: name=%s run_flags_bit=%lu context=%s cpu=%d cpu_moves=%u reps=%u loops=%llu invoke_count=%llu total_invoke_count=%llu cycles=%llu ns=%llu chunks=%u cycles_per_elem=%llu.%03u ns_per_elem=%llu.%03u",
			   bench_tests[i].name, __ffs(bench_tests[i].bit),
			   bench_context_name(res), res->cpu, res->cpu_moves,
			   res->reps, res->loops, rec->invocations,
			   res->total_invocations, rec->cycles, rec->ns,
			   res->chunks, cyc.whole, cyc.frac, ns.whole, ns.frac);
		bench_seq_summary(m, "cycles", &res->cycles);
		bench_seq_summary(m, "ns", &res->ns);
		bench_seq_samples(m, "cycles_samples", res->cycles_milli,
				  res->reps);
		bench_seq_samples(m, "ns_samples", res->ns_milli, res->reps);
		bench_seq_pmu(m, res);
		seq_printf(m, " path=%s pages_allocated=%llu pages_released=%llu",
			   bench_path_names[res->path], res->pages_allocated,
			   res->pages_released);
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

static void bench_print_overhead(const struct time_bench_overhead *ovh)
{
	char v[4][TIME_BENCH_NUM_LEN];

	pr_info("overhead: cycle counter read %s cycles, clock read %s cycles (%s ns), empty loop %s cycles per iteration; two reads of each per chunk of about 10 ms\n",
		time_bench_format_milli(v[0], sizeof(v[0]),
					ovh->cycle_read_milli),
		time_bench_format_milli(v[1], sizeof(v[1]),
					ovh->clock_read_milli_cycles),
		time_bench_format_milli(v[2], sizeof(v[2]),
					ovh->clock_read_milli_ns),
		time_bench_format_milli(v[3], sizeof(v[3]),
					ovh->empty_loop_milli_cycles));
}

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
	if (reps_given && (!reps || reps > TIME_BENCH_MAX_REPS)) {
		pr_err("reps=%u invalid: out of range; accepted: %s\n", reps,
		       BENCH_REPS_ACCEPTED);
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

	time_bench_measure_overhead(&bench_overhead);
	bench_print_overhead(&bench_overhead);
	bench_pmu_error = time_bench_pmu_open();
	if (bench_pmu_error)
		pr_info("PMU counters unavailable (error %d): no instructions or IPC per element\n",
			bench_pmu_error);

	for (i = 0; i < ARRAY_SIZE(bench_tests); i++) {
		if (!(run_flags & bench_tests[i].bit))
			continue;
		ret = bench_run_test(&bench_tests[i], &bench_results[i]);
		if (ret)
			break;
	}
	time_bench_pmu_close();
	if (ret) {
		bench_free_results();
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
	bench_free_results();
}
module_exit(bench_page_pool_simple_exit);

MODULE_DESCRIPTION("Micro-benchmark of page_pool recycle paths");
MODULE_LICENSE("GPL");
