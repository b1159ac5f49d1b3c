// SPDX-License-Identifier: GPL-2.0
/*
 * Micro-benchmark of page_pool's allocation and recycle paths.
 *
 * Each test is one row of BENCH_TESTS: a name, the run_flags bit that
 * selects it, the context its timed chunks run in (process, tasklet or
 * NAPI poll, see struct bench_context), its loop body and the setup it
 * needs.  The run_flags mask, the accepted values and the parameter
 * descriptions are derived from that table.  The whole run happens
 * while the module loads, so the load returns once every selected test
 * has reported, and "perf record modprobe"
 * sees all of it.  The module then stays loaded, its results readable
 * in debugfs, until it is removed: rmmod it before the next run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/platform_device.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
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
/* Two fragments per page in the fragment test */
#define BENCH_FRAG_SIZE		(PAGE_SIZE / 2)
/* Largest batch of the bulk return test: a page pointer array on stack
 * of the run, as XDP's bulk queues are (XDP_BULK_QUEUE_SIZE is 16).
 */
#define BENCH_MAX_BULK		64
/* The run_flags bits of the legacy benchmark's nine tests */
#define BENCH_LEGACY_BITS	GENMASK(6, 0)

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

/*
 * What a test must do, as the results file states it (expect_* fields):
 * the paths the probe may see, the pages the pool may take from the page
 * allocator while timed, whether every page must go back to it, and sums
 * of page_pool counters in multiples of the timed iterations.
 */
enum bench_alloc_bound {
	BENCH_ALLOC_ANY,	/* no bound */
	BENCH_ALLOC_NONE,	/* recycling: no page from the allocator */
	BENCH_ALLOC_IN_FLIGHT,	/* what the cross-CPU queues hold */
};

struct bench_stat_sum {
	unsigned long counters;	/* BIT()s of enum bench_pp_stat, summed */
	unsigned int per_iteration;
};

#define BENCH_MAX_STAT_SUMS	4

struct bench_expect {
	unsigned long paths;	/* BIT()s of enum bench_path */
	enum bench_alloc_bound allocated;
	bool released_all;	/* pages_released == total iterations */
	struct bench_stat_sum stats[BENCH_MAX_STAT_SUMS];
};

#define BENCH_STAT(name)	BIT(BENCH_PP_##name)
/* Counters a path must not move, besides its own */
#define BENCH_STAT_NONE(name)	{ BENCH_STAT(name), 0 }
/* Fragments of one page in the fragment test */
#define BENCH_FRAGS_PER_PAGE	(PAGE_SIZE / BENCH_FRAG_SIZE)

/* Baselines: no page_pool at all. */
static const struct bench_expect bench_expect_none = {
	.allocated = BENCH_ALLOC_ANY,
};

/* Direct recycling into the lockless cache. */
static const struct bench_expect bench_expect_cache = {
	.paths = BIT(BENCH_PATH_CACHE),
	.allocated = BENCH_ALLOC_NONE,
	.stats = { { BENCH_STAT(RECYCLE_CACHED), 1 },
		   BENCH_STAT_NONE(RECYCLE_RING),
		   BENCH_STAT_NONE(RECYCLE_RELEASED_REFCNT) },
};

/* The ptr_ring; a full ring gives the page to the page allocator. */
static const struct bench_expect bench_expect_ring = {
	.paths = BIT(BENCH_PATH_RING),
	.allocated = BENCH_ALLOC_NONE,
	.stats = { { BENCH_STAT(RECYCLE_RING) | BENCH_STAT(RECYCLE_RING_FULL), 1 },
		   BENCH_STAT_NONE(RECYCLE_CACHED),
		   BENCH_STAT_NONE(RECYCLE_RELEASED_REFCNT) },
};

/* Not recyclable: every page back to the page allocator. */
static const struct bench_expect bench_expect_allocator = {
	.paths = BIT(BENCH_PATH_ALLOCATOR),
	.allocated = BENCH_ALLOC_ANY,
	.released_all = true,
	.stats = { { BENCH_STAT(RECYCLE_RELEASED_REFCNT), 1 },
		   BENCH_STAT_NONE(RECYCLE_CACHED),
		   BENCH_STAT_NONE(RECYCLE_RING) },
};

/* Direct recycling outside softirq is the kernel's choice: 6.1 falls
 * back to the ring, 6.12 uses the cache.
 */
static const struct bench_expect bench_expect_any = {
	.paths = BIT(BENCH_PATH_CACHE) | BIT(BENCH_PATH_RING),
	.allocated = BENCH_ALLOC_NONE,
	.stats = { { BENCH_STAT(RECYCLE_CACHED) | BENCH_STAT(RECYCLE_RING), 1 },
		   BENCH_STAT_NONE(RECYCLE_RELEASED_REFCNT) },
};

/* The pool reuses its fragment page in place once both halves are back:
 * the probe sees the cache, the counters one fast allocation per
 * fragment and no recycling.
 */
static const struct bench_expect bench_expect_frag = {
	.paths = BIT(BENCH_PATH_CACHE),
	.allocated = BENCH_ALLOC_NONE,
	.stats = { { BENCH_STAT(ALLOC_FAST), BENCH_FRAGS_PER_PAGE },
		   BENCH_STAT_NONE(RECYCLE_CACHED),
		   BENCH_STAT_NONE(RECYCLE_RING),
		   BENCH_STAT_NONE(RECYCLE_RELEASED_REFCNT) },
};

/* Returned from other CPUs: the ring, and the pool may take from the
 * page allocator what the queues to the returning CPUs hold.
 */
static const struct bench_expect bench_expect_xcpu = {
	.paths = BIT(BENCH_PATH_RING),
	.allocated = BENCH_ALLOC_IN_FLIGHT,
	.stats = { { BENCH_STAT(RECYCLE_RING) | BENCH_STAT(RECYCLE_RING_FULL), 1 },
		   BENCH_STAT_NONE(RECYCLE_CACHED),
		   BENCH_STAT_NONE(RECYCLE_RELEASED_REFCNT) },
};

struct bench_run;
struct bench_xcpu;

/*
 * How a test's chunks run in their context: @run_chunk runs
 * bench_chunk() there and returns once it is done.  @setup and
 * @teardown run in process context around the test.
 */
struct bench_context {
	const char *name;	/* as the results file names it */
	int (*setup)(struct bench_run *run);
	void (*run_chunk)(struct bench_run *run);
	/* Optional: prints and keeps what only this context measures. */
	void (*report)(struct bench_run *run);
	void (*teardown)(struct bench_run *run);
};

struct bench_test {
	const char *name;
	unsigned int bit;		/* of run_flags */
	const struct bench_context *context;
	/* Runs @loops iterations, returns how many completed. */
	u64 (*body)(struct bench_run *run, u64 loops);
	/* What the body needs, e.g. its pool; NULL for nothing. */
	int (*setup)(struct bench_run *run);
	/* Why this kernel cannot run the test, or NULL. */
	const char *unsupported;
	/* What it must do, checked by the kselftest from the results file */
	const struct bench_expect *expect;
	const char *cheaper_than;	/* tests it must cost less than */
};

struct bench_result {
	bool valid;
	bool skipped;		/* selected, but the kernel cannot run it */
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
	u32 napi_chunks;	/* of which seen in the NAPI poll */
	int cpu;		/* CPU of the first timed chunk */
	u32 cpu_moves;		/* timed chunks run on another CPU */
	enum bench_path path;
	u64 pages_allocated;	/* from the page allocator while timed */
	u64 pages_released;	/* back to the page allocator while timed */
	/* page_pool's counters over the timed loops, if it keeps them */
	u64 pp_stats[BENCH_PP_NR_STATS];
	/* Concurrent tests: each CPU's share of the timed repetitions */
	u32 nr_cpus;
	int *cpu_ids;
	struct time_bench_record *cpu_recs;
	/* Why the test was not run, when it was selected */
	const char *skip_reason;
	char skip_buf[80];
};

/* The module's NAPI instance, on a dummy net device. */
struct bench_napi {
	struct net_device *dev;
	struct napi_struct napi;
	struct bench_run *run;	/* whose chunks the poll runs */
};

/* State of the test being run; chunks run in its context. */
struct bench_run {
	const struct bench_test *test;
	struct bench_result *result;
	struct page_pool *pool;
	atomic_t counter;
	spinlock_t lock;	/* only the "lock" baseline takes it */
	struct tasklet_struct tasklet;
	struct bench_napi *napi;	/* while a NAPI context is set up */
	struct bench_xcpu *xcpu;	/* while the cross-CPU one is */
	bool timed;		/* the chunk counts in the results */
	int chunk_error;	/* the context stopped the chunk, and said why */
	int napi_budget;	/* of the poll running the chunk */
	struct completion chunk_done;
	u64 next_chunk;		/* iterations the next chunk should run */
	void *bulk_data[BENCH_MAX_BULK];
	/* One chunk's orders and report, handed to and from its context */
	enum bench_chunk_kind chunk_kind;
	u64 chunk_loops;
	struct time_bench_stamp chunk_start;
	struct time_bench_stamp chunk_stop;
	u64 chunk_completed;
	int chunk_cpu;
	bool chunk_in_softirq;
	bool chunk_in_napi;
	struct task_struct *chunk_task;
};

static unsigned int loops;
static bool loops_given;
static unsigned int run_flags;
static bool run_flags_given;
#define BENCH_TESTS_PARAM_LEN	512
static char tests[BENCH_TESTS_PARAM_LEN];
static bool tests_given;
static unsigned int time_ms = 200;
static unsigned int reps;
static bool reps_given;
/* Measured in this project's guests: see README.rst */
#define BENCH_DEFAULT_BULK	16
static unsigned int bulk = BENCH_DEFAULT_BULK;
static unsigned int return_cpus = 1;
static bool return_cpus_given;

#define BENCH_LOOPS_ACCEPTED	__stringify(BENCH_MIN_LOOPS) "..4294967295"
#define BENCH_TIME_MS_ACCEPTED	"1.." __stringify(BENCH_MAX_TIME_MS)
#define BENCH_REPS_ACCEPTED	"1.." __stringify(TIME_BENCH_MAX_REPS)
#define BENCH_BULK_ACCEPTED	"1.." __stringify(BENCH_MAX_BULK)
#define BENCH_TESTS_ACCEPTED \
	"test names separated by commas, a name prefix ending in '*', legacy or all (see modinfo)"
/* Repetitions when sized by time; an explicit loops runs once, as the
 * legacy benchmark did, unless reps says otherwise.
 */
#define BENCH_DEFAULT_REPS	5

/*
 * The probe: where did the page of one iteration go?  The ring's producer
 * index moved, the pool released a page to the page allocator, or, with
 * neither and no page taken from the allocator, it stayed in the pool's
 * lockless cache.  The producer index, unlike the cache's count, does not
 * move when an allocation refills the cache from the ring.
 */
struct bench_probe {
	u32 allocated;
	u32 released;
	int producer;
};

static void bench_probe_begin(const struct page_pool *pool,
			      struct bench_probe *probe)
{
	probe->allocated = bench_pp_pages_allocated(pool);
	probe->released = bench_pp_pages_released(pool);
	probe->producer = bench_pp_ring_producer(pool);
}

static enum bench_path bench_probe_end(const struct page_pool *pool,
				       const struct bench_probe *probe,
				       bool ran)
{
	if (!ran)
		return BENCH_PATH_UNKNOWN;
	if (bench_pp_pages_released(pool) != probe->released)
		return BENCH_PATH_ALLOCATOR;
	if (bench_pp_ring_producer(pool) != probe->producer)
		return BENCH_PATH_RING;
	if (bench_pp_pages_allocated(pool) == probe->allocated)
		return BENCH_PATH_CACHE;
	return BENCH_PATH_UNKNOWN;
}

static void bench_chunk(struct bench_run *run);

static void bench_tasklet_fn(struct tasklet_struct *t)
{
	struct bench_run *run = from_tasklet(run, t, tasklet);

	bench_chunk(run);
	complete(&run->chunk_done);
}

static int bench_tasklet_setup(struct bench_run *run)
{
	tasklet_setup(&run->tasklet, bench_tasklet_fn);
	return 0;
}

/* Scheduled with BH off, the tasklet runs at local_bh_enable() in this
 * task when it can, so profilers of the loading task see it; otherwise
 * ksoftirqd runs it.  Either way the completion says when.
 */
static void bench_tasklet_run_chunk(struct bench_run *run)
{
	reinit_completion(&run->chunk_done);
	local_bh_disable();
	tasklet_schedule(&run->tasklet);
	local_bh_enable();
	wait_for_completion(&run->chunk_done);
}

static void bench_tasklet_teardown(struct bench_run *run)
{
	tasklet_kill(&run->tasklet);
}

static struct bench_napi bench_napi;

/* Runs one chunk per poll, then completes: the next chunk is scheduled
 * again from process context, so no poll stays long in softirq.
 */
static int bench_napi_poll(struct napi_struct *napi, int budget)
{
	struct bench_napi *bn = container_of(napi, struct bench_napi, napi);
	struct bench_run *run = READ_ONCE(bn->run);

	run->napi_budget = budget;
	bench_chunk(run);
	napi_complete_done(napi, 0);
	complete(&run->chunk_done);
	return 0;
}

/* The dummy device and its NAPI instance, made once, removed on unload. */
static int bench_napi_setup(struct bench_run *run)
{
	if (!bench_napi.dev) {
		bench_napi.dev = bench_alloc_dummy_netdev();
		if (!bench_napi.dev)
			return -ENOMEM;
		netif_napi_add(bench_napi.dev, &bench_napi.napi,
			       bench_napi_poll);
	}
	WRITE_ONCE(bench_napi.run, run);
	run->napi = &bench_napi;
	napi_enable(&bench_napi.napi);
	return 0;
}

/* Like a driver's interrupt handler, with BH off so that the poll runs
 * at local_bh_enable() in this task when it can.
 */
static void bench_napi_run_chunk(struct bench_run *run)
{
	reinit_completion(&run->chunk_done);
	local_bh_disable();
	napi_schedule(&run->napi->napi);
	local_bh_enable();
	wait_for_completion(&run->chunk_done);
}

/* Before the pool goes: a pool bound to a NAPI must see it disabled. */
static void bench_napi_teardown(struct bench_run *run)
{
	if (!run->napi)
		return;
	napi_disable(&run->napi->napi);
	WRITE_ONCE(run->napi->run, NULL);
	run->napi = NULL;
}

static void bench_napi_remove(void)
{
	if (!bench_napi.dev)
		return;
	netif_napi_del(&bench_napi.napi);
	bench_free_dummy_netdev(bench_napi.dev);
	bench_napi.dev = NULL;
}

static const struct bench_context bench_ctx_process = {
	.name = "process",
	.run_chunk = bench_chunk,
};

static const struct bench_context bench_ctx_softirq = {
	.name = "softirq",
	.setup = bench_tasklet_setup,
	.run_chunk = bench_tasklet_run_chunk,
	.teardown = bench_tasklet_teardown,
};

static const struct bench_context bench_ctx_napi = {
	.name = "napi",
	.setup = bench_napi_setup,
	.run_chunk = bench_napi_run_chunk,
	.teardown = bench_napi_teardown,
};

/*
 * Cross-CPU return, as a TX completion or a socket reader on another CPU
 * gives pages back: the first CPU allocates from the pool in softirq and
 * hands each page through a queue of its own to one of return_cpus other
 * CPUs, which give it back with page_pool_put_full_page(, false), in
 * softirq too: into the pool's ptr_ring, under its producer lock.  Each
 * CPU has a worker thread (time_bench_cpus_run() starts them together)
 * that runs its work in batches, each batch in a tasklet on its CPU, so
 * no stay in softirq is longer than a batch.  A worker with nothing to do
 * yields the CPU; one that waits longer than BENCH_XCPU_STALL_NS for the
 * other side ends the run with an error.
 */
#define BENCH_XCPU_QUEUE	256	/* pages in flight to one CPU */
#define BENCH_XCPU_BATCH	32	/* pages per stay in softirq */
#define BENCH_XCPU_STALL_NS	(2 * NSEC_PER_SEC)

struct bench_xcpu_worker {
	struct bench_xcpu *xcpu;
	unsigned int idx;		/* 0 allocates, the others return */
	struct tasklet_struct tasklet;
	struct completion batch_done;
	struct time_bench_record *rec;	/* of the run going on */
	u32 batch;			/* pages the last batch moved */
	bool batch_in_softirq;
	/* The queue from the allocating CPU, in returning workers */
	struct page *slot[BENCH_XCPU_QUEUE];
	u32 head;			/* written by the allocating CPU */
	u32 tail;			/* written by this worker's CPU */
	struct time_bench_record total;	/* of the timed runs */
};

struct bench_xcpu {
	struct bench_run *run;
	struct time_bench_cpus *cpus;
	unsigned int nr;		/* 1 + return_cpus */
	struct time_bench_record *recs;	/* one per worker, of a run */
	u64 target;			/* pages to allocate in this run */
	u64 allocated;
	unsigned int next_queue;	/* where the next page goes */
	bool alloc_done;
	bool in_softirq;		/* every batch of the run was */
	int error;
	const char *error_what;
	struct bench_xcpu_worker w[];
};

/* Fills the returning CPUs' queues, round robin; 0 when all are full. */
static u32 bench_xcpu_alloc_batch(struct bench_xcpu *x)
{
	u32 n = 0, full = 0, want = min_t(u64, BENCH_XCPU_BATCH,
					    x->target - x->allocated);
	struct bench_xcpu_worker *q;
	struct page *page;

	while (n < want && full < x->nr - 1) {
		q = &x->w[1 + x->next_queue];
		x->next_queue = (x->next_queue + 1) % (x->nr - 1);
		/* pairs with the returner's release of tail: slots it freed */
		if (q->head - smp_load_acquire(&q->tail) >= BENCH_XCPU_QUEUE) {
			full++;
			continue;
		}
		full = 0;
		page = page_pool_alloc_pages(x->run->pool, BENCH_GFP);
		if (unlikely(!page)) {
			x->error = -ENOMEM;
			x->error_what = "page allocation failed";
			break;
		}
		q->slot[q->head % BENCH_XCPU_QUEUE] = page;
		/* publishes the slot before the returner sees the new head */
		smp_store_release(&q->head, q->head + 1);
		n++;
	}
	return n;
}

static u32 bench_xcpu_return_batch(struct bench_xcpu_worker *w)
{
	/* pairs with the allocator's release of head: filled slots */
	u32 head = smp_load_acquire(&w->head), n = 0;

	while (w->tail != head && n < BENCH_XCPU_BATCH) {
		page_pool_put_full_page(w->xcpu->run->pool,
					w->slot[w->tail % BENCH_XCPU_QUEUE],
					false);
		/* the slot is free for the allocator once tail passes it */
		smp_store_release(&w->tail, w->tail + 1);
		n++;
	}
	return n;
}

static void bench_xcpu_tasklet_fn(struct tasklet_struct *t)
{
	struct bench_xcpu_worker *w = from_tasklet(w, t, tasklet);
	struct time_bench_stamp start = { }, stop = { };

	time_bench_start(&start);
	if (w->idx)
		w->batch = bench_xcpu_return_batch(w);
	else
		w->batch = bench_xcpu_alloc_batch(w->xcpu);
	time_bench_stop(&stop);
	w->batch_in_softirq = in_serving_softirq();
	if (w->batch)
		time_bench_account(w->rec, &start, &stop, w->batch);
	complete(&w->batch_done);
}

/* One batch in softirq on this worker's CPU. */
static u32 bench_xcpu_batch(struct bench_xcpu_worker *w)
{
	reinit_completion(&w->batch_done);
	local_bh_disable();
	tasklet_schedule(&w->tasklet);
	local_bh_enable();
	wait_for_completion(&w->batch_done);
	if (!w->batch_in_softirq)
		WRITE_ONCE(w->xcpu->in_softirq, false);
	return w->batch;
}

/* False, with the error set, once the other side kept us waiting too long. */
static bool bench_xcpu_wait(struct bench_xcpu *x, u64 *since,
			    const char *what)
{
	u64 now = ktime_get_ns();

	if (!*since)
		*since = now;
	if (now - *since > BENCH_XCPU_STALL_NS) {
		cmpxchg(&x->error, 0, -ETIMEDOUT);
		x->error_what = what;
		return false;
	}
	cond_resched();
	return true;
}

static int bench_xcpu_work(void *data, unsigned int idx,
			   struct time_bench_record *rec)
{
	struct bench_xcpu *x = data;
	struct bench_xcpu_worker *w = &x->w[idx];
	u64 since = 0;
	bool done;

	w->rec = rec;
	if (!idx) {
		while (x->allocated < x->target && !READ_ONCE(x->error)) {
			if (bench_xcpu_batch(w)) {
				x->allocated += w->batch;
				since = 0;
			} else if (!bench_xcpu_wait(x, &since,
						    "the returning CPUs took no page")) {
				break;
			}
		}
		/* after the last head: returners that see it drain all */
		smp_store_release(&x->alloc_done, true);
		return 0;
	}
	for (;;) {
		/* pairs with the allocator's release of head */
		if (smp_load_acquire(&w->head) != w->tail) {
			bench_xcpu_batch(w);
			since = 0;
			continue;
		}
		/* done is released after the last head: heads read after it
		 * are final, so an empty queue then stays empty
		 */
		done = smp_load_acquire(&x->alloc_done);
		/* pairs with the allocator's release of head */
		if (done && smp_load_acquire(&w->head) == w->tail)
			return 0;
		if (!bench_xcpu_wait(x, &since,
				     "the allocating CPU sent no page"))
			return 0;
	}
}

/* Pages a failed run left in the queues go back from process context. */
static void bench_xcpu_drain(struct bench_xcpu *x)
{
	unsigned int i;

	for (i = 1; i < x->nr; i++) {
		struct bench_xcpu_worker *w = &x->w[i];

		while (w->tail != w->head)
			page_pool_put_full_page(x->run->pool,
						w->slot[w->tail++ %
							BENCH_XCPU_QUEUE],
						false);
	}
}

/* The allocating CPU, then return_cpus others: the first online ones. */
static int bench_xcpu_setup(struct bench_run *run)
{
	unsigned int nr = return_cpus + 1, i;
	struct bench_result *res = run->result;
	cpumask_var_t mask;
	struct bench_xcpu *x;
	int cpu, ret = 0;

	if (num_online_cpus() < nr) {
		snprintf(res->skip_buf, sizeof(res->skip_buf),
			 "needs %u online CPUs, %u online", nr,
			 num_online_cpus());
		res->skip_reason = res->skip_buf;
		return -ENODEV;
	}
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	for_each_online_cpu(cpu) {
		if (cpumask_weight(mask) == nr)
			break;
		cpumask_set_cpu(cpu, mask);
	}
	x = kzalloc(struct_size(x, w, nr), GFP_KERNEL);
	res->cpu_ids = kcalloc(nr, sizeof(*res->cpu_ids), GFP_KERNEL);
	res->cpu_recs = kcalloc(nr, sizeof(*res->cpu_recs), GFP_KERNEL);
	if (x)
		x->recs = kcalloc(nr, sizeof(*x->recs), GFP_KERNEL);
	if (!x || !x->recs || !res->cpu_ids || !res->cpu_recs) {
		ret = -ENOMEM;
		goto out;
	}
	x->run = run;
	x->nr = nr;
	for (i = 0; i < nr; i++) {
		x->w[i].xcpu = x;
		x->w[i].idx = i;
		init_completion(&x->w[i].batch_done);
		tasklet_setup(&x->w[i].tasklet, bench_xcpu_tasklet_fn);
	}
	x->cpus = time_bench_cpus_create(mask, bench_xcpu_work, x);
	if (IS_ERR(x->cpus)) {
		ret = PTR_ERR(x->cpus);
		pr_err("%s: cannot start the per-CPU workers: %d\n",
		       run->test->name, ret);
		goto out;
	}
	res->nr_cpus = nr;
	for (i = 0; i < nr; i++)
		res->cpu_ids[i] = time_bench_cpus_cpu(x->cpus, i);
	run->xcpu = x;
	x = NULL;
out:
	if (x)
		kfree(x->recs);
	kfree(x);
	free_cpumask_var(mask);
	return ret;
}

/*
 * One concurrent run of chunk_loops pages.  The chunk's record is the
 * returning CPUs' together: their cycles and time spent returning, over
 * the pages they returned; each CPU's own is kept for the report.
 */
static void bench_xcpu_run_chunk(struct bench_run *run)
{
	bool probing = run->chunk_kind == BENCH_CHUNK_PROBE;
	struct bench_xcpu *x = run->xcpu;
	struct time_bench_record ret_rec = { };
	struct bench_probe probe;
	unsigned int i;
	int err;

	bench_probe_begin(run->pool, &probe);
	x->target = probing ? 1 : run->chunk_loops;
	x->allocated = 0;
	x->alloc_done = false;
	x->in_softirq = true;
	x->error = 0;
	err = time_bench_cpus_run(x->cpus, x->recs);
	if (!err)
		err = x->error;
	bench_xcpu_drain(x);
	if (probing) {
		run->result->path = bench_probe_end(run->pool, &probe, !err);
		return;
	}
	if (err) {
		pr_err("%s: %s (%d)\n", run->test->name,
		       x->error_what ?: "the per-CPU workers did not start",
		       err);
		run->chunk_error = err;
		return;
	}
	for (i = 1; i < x->nr; i++) {
		ret_rec.invocations += x->recs[i].invocations;
		ret_rec.cycles += x->recs[i].cycles;
		ret_rec.ns += x->recs[i].ns;
	}
	for (i = 0; run->timed && i < x->nr; i++) {
		x->w[i].total.invocations += x->recs[i].invocations;
		x->w[i].total.cycles += x->recs[i].cycles;
		x->w[i].total.ns += x->recs[i].ns;
		x->w[i].total.chunks++;
	}
	memset(&run->chunk_start, 0, sizeof(run->chunk_start));
	memset(&run->chunk_stop, 0, sizeof(run->chunk_stop));
	run->chunk_stop.cycles = ret_rec.cycles;
	run->chunk_stop.ns = ret_rec.ns;
	run->chunk_completed = ret_rec.invocations;
	run->chunk_cpu = time_bench_cpus_cpu(x->cpus, 0);
	run->chunk_in_softirq = x->in_softirq;
	run->chunk_in_napi = false;
	run->chunk_task = current;
}

/* Each CPU's share, in the legacy benchmark's concurrent format. */
static void bench_xcpu_report(struct bench_run *run)
{
	struct bench_xcpu *x = run->xcpu;
	struct bench_result *res = run->result;
	char name[64];
	unsigned int i;

	for (i = 0; i < x->nr; i++)
		res->cpu_recs[i] = x->w[i].total;
	snprintf(name, sizeof(name), "%s_alloc", run->test->name);
	time_bench_print_cpu(name, res->cpu_ids[0], &res->cpu_recs[0]);
	time_bench_print_cpu_sum(name, res->cpu_recs, 1);
	for (i = 1; i < x->nr; i++)
		time_bench_print_cpu(run->test->name, res->cpu_ids[i],
				     &res->cpu_recs[i]);
	time_bench_print_cpu_sum(run->test->name, res->cpu_recs + 1,
				 x->nr - 1);
}

static void bench_xcpu_teardown(struct bench_run *run)
{
	struct bench_xcpu *x = run->xcpu;
	unsigned int i;

	if (!x)
		return;
	time_bench_cpus_destroy(x->cpus);
	for (i = 0; i < x->nr; i++)
		tasklet_kill(&x->w[i].tasklet);
	kfree(x->recs);
	kfree(x);
	run->xcpu = NULL;
}

static const struct bench_context bench_ctx_cpus = {
	.name = "softirq",
	.setup = bench_xcpu_setup,
	.run_chunk = bench_xcpu_run_chunk,
	.report = bench_xcpu_report,
	.teardown = bench_xcpu_teardown,
};

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

/* How a page_pool test gives each page back. */
enum bench_return {
	BENCH_RETURN_DIRECT,	/* page_pool_recycle_direct() */
	BENCH_RETURN_RING,	/* page_pool_put_full_page(, false) */
	BENCH_RETURN_ALLOCATOR,	/* extra reference: not recyclable */
};

/* One page through the pool and back; false if no page could be had. */
static __always_inline bool bench_pp_cycle(struct page_pool *pool,
					   enum bench_return page_return)
{
	struct page *page = page_pool_alloc_pages(pool, BENCH_GFP);

	if (unlikely(!page))
		return false;
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
	return true;
}

/* The bodies below differ only in a constant, so each compiles to its own
 * branch-free loop.
 */
static __always_inline u64 bench_pp_loop(struct bench_run *run, u64 loops,
					 enum bench_return page_return)
{
	/* In a register: read through run, the pool would be loaded again
	 * after every call, which may have written to *run.
	 */
	struct page_pool *pool = run->pool;
	u64 i;

	for (i = 0; i < loops; i++)
		if (unlikely(!bench_pp_cycle(pool, page_return)))
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

/* Both halves of one page, each given back on its own, directly. */
static u64 bench_pp_frag(struct bench_run *run, u64 loops)
{
	struct page_pool *pool = run->pool;
	struct page *first, *second;
	unsigned int offset;
	u64 i;

	for (i = 0; i < loops; i++) {
		first = page_pool_alloc_frag(pool, &offset, BENCH_FRAG_SIZE,
					     BENCH_GFP);
		if (unlikely(!first))
			break;
		second = page_pool_alloc_frag(pool, &offset, BENCH_FRAG_SIZE,
					      BENCH_GFP);
		page_pool_recycle_direct(pool, first);
		if (unlikely(!second))
			break;
		page_pool_recycle_direct(pool, second);
	}
	return i;
}

/* Batches of bulk pages, each batch returned in one call. */
static u64 bench_pp_bulk(struct bench_run *run, u64 loops)
{
	struct page_pool *pool = run->pool;
	void **data = run->bulk_data;
	unsigned int batch, n;
	struct page *page;
	u64 done = 0;

	while (done < loops) {
		batch = min_t(u64, bulk, loops - done);
		for (n = 0; n < batch; n++) {
			page = page_pool_alloc_pages(pool, BENCH_GFP);
			if (unlikely(!page))
				break;
			data[n] = page_address(page);
		}
		if (n)
			page_pool_put_page_bulk(pool, data, n);
		done += n;
		if (unlikely(n < batch))
			break;
	}
	return done;
}

static u64 bench_pp_netmem(struct bench_run *run, u64 loops)
{
	struct page_pool *pool = run->pool;
	u64 i;

	for (i = 0; i < loops; i++)
		if (unlikely(!bench_netmem_cycle(pool, BENCH_GFP)))
			break;
	return i;
}

/*
 * What a driver's receive path and the stack do in NAPI: an skb is built
 * around a page from the pool, marked for recycling and consumed, which
 * gives the page back to its pool.
 */
static u64 bench_skb_free(struct bench_run *run, u64 loops)
{
	struct page_pool *pool = run->pool;
	int budget = run->napi_budget;
	struct sk_buff *skb;
	struct page *page;
	u64 i;

	for (i = 0; i < loops; i++) {
		page = page_pool_alloc_pages(pool, BENCH_GFP);
		if (unlikely(!page))
			break;
		skb = napi_build_skb(page_address(page), PAGE_SIZE);
		if (unlikely(!skb)) {
			page_pool_put_full_page(pool, page, false);
			break;
		}
		skb_mark_for_recycle(skb);
		napi_consume_skb(skb, budget);
	}
	return i;
}

static void bench_pool_params(struct page_pool_params *params)
{
	memset(params, 0, sizeof(*params));
	params->order = 0;
	params->pool_size = BENCH_POOL_SIZE;
	params->nid = NUMA_NO_NODE;
	params->dma_dir = DMA_BIDIRECTIONAL;
}

/* May sleep: always in process context, never in the test's context. */
static int bench_pool_create(struct bench_run *run,
			     const struct page_pool_params *params)
{
	run->pool = page_pool_create(params);
	if (IS_ERR(run->pool)) {
		int err = PTR_ERR(run->pool);

		run->pool = NULL;
		pr_err("%s: page_pool_create failed: %d\n", run->test->name,
		       err);
		return err;
	}
	return 0;
}

static int bench_setup_pool(struct bench_run *run)
{
	struct page_pool_params params;

	bench_pool_params(&params);
	return bench_pool_create(run, &params);
}

static int bench_setup_frag_pool(struct bench_run *run)
{
	struct page_pool_params params;

	bench_pool_params(&params);
	params.flags = BENCH_PP_FLAG_FRAG;
	return bench_pool_create(run, &params);
}

/* The pool of the NAPI the test's chunks run in, as drivers bind it. */
static int bench_setup_napi_pool(struct bench_run *run)
{
	struct page_pool_params params;

	bench_pool_params(&params);
	bench_pp_bind_napi(&params, &run->napi->napi);
	return bench_pool_create(run, &params);
}

/* A device with a 64-bit DMA mask, as a NIC has; removed on unload. */
static struct platform_device *bench_dma_pdev;

static int bench_dma_device(struct device **dev)
{
	struct platform_device *pdev;
	int ret;

	if (!bench_dma_pdev) {
		pdev = platform_device_register_simple(KBUILD_MODNAME,
						       PLATFORM_DEVID_NONE,
						       NULL, 0);
		if (IS_ERR(pdev))
			return PTR_ERR(pdev);
		ret = dma_coerce_mask_and_coherent(&pdev->dev,
						   DMA_BIT_MASK(64));
		if (ret) {
			platform_device_unregister(pdev);
			return ret;
		}
		bench_dma_pdev = pdev;
	}
	*dev = &bench_dma_pdev->dev;
	return 0;
}

static void bench_dma_device_remove(void)
{
	if (bench_dma_pdev)
		platform_device_unregister(bench_dma_pdev);
	bench_dma_pdev = NULL;
}

/* What a receive queue asks for: pages mapped for the device, and synced
 * for it each time they are recycled.
 */
static int bench_setup_dma_pool(struct bench_run *run)
{
	struct page_pool_params params;
	int ret;

	bench_pool_params(&params);
	ret = bench_dma_device(&params.dev);
	if (ret) {
		pr_err("%s: cannot register a DMA device: %d\n",
		       run->test->name, ret);
		return ret;
	}
	params.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
	params.dma_dir = DMA_FROM_DEVICE;
	params.max_len = PAGE_SIZE;
	params.offset = 0;
	return bench_pool_create(run, &params);
}

/*
 * The tests, one row each: name, run_flags bit, context, body, setup, why
 * this kernel cannot run it (NULL: it can), what it must do (the
 * bench_expect_* above) and the tests it must be cheaper than.  A plain
 * load runs all of them in this order; bits 0-6 are the legacy
 * benchmark's nine tests.  The run_flags mask, the parameter
 * descriptions and the kselftest's checks derive from here: each use
 * defines BENCH_TEST() to take what it needs from a row.
 */
#define BENCH_TESTS BENCH_TABLE(					\
	BENCH_TEST("for_loop", 0, process, bench_for_loop, NULL, NULL,	\
		   none, NULL)						\
	BENCH_TEST("atomic_inc", 0, process, bench_atomic_inc, NULL, NULL, \
		   none, NULL)						\
	BENCH_TEST("lock", 0, process, bench_lock, NULL, NULL, none, NULL) \
	BENCH_TEST("no-softirq-page_pool01", 1, process, bench_pp_fast_path, \
		   bench_setup_pool, NULL, any, NULL)			\
	BENCH_TEST("no-softirq-page_pool02", 2, process, bench_pp_ptr_ring, \
		   bench_setup_pool, NULL, ring, "no-softirq-page_pool03") \
	BENCH_TEST("no-softirq-page_pool03", 3, process, bench_pp_slow,	\
		   bench_setup_pool, NULL, allocator, NULL)		\
	BENCH_TEST("tasklet_page_pool01_fast_path", 4, softirq,		\
		   bench_pp_fast_path, bench_setup_pool, NULL, cache,	\
		   "tasklet_page_pool02_ptr_ring")			\
	BENCH_TEST("tasklet_page_pool02_ptr_ring", 5, softirq, bench_pp_ptr_ring, \
		   bench_setup_pool, NULL, ring, "tasklet_page_pool03_slow") \
	BENCH_TEST("tasklet_page_pool03_slow", 6, softirq, bench_pp_slow, \
		   bench_setup_pool, NULL, allocator, NULL)		\
	BENCH_TEST("tasklet_page_pool04_dma_fast_path", 7, softirq,	\
		   bench_pp_fast_path, bench_setup_dma_pool, NULL, cache, \
		   "tasklet_page_pool05_dma_ptr_ring")			\
	BENCH_TEST("tasklet_page_pool05_dma_ptr_ring", 8, softirq,	\
		   bench_pp_ptr_ring, bench_setup_dma_pool, NULL, ring,	\
		   "tasklet_page_pool06_dma_slow")			\
	BENCH_TEST("tasklet_page_pool06_dma_slow", 9, softirq, bench_pp_slow, \
		   bench_setup_dma_pool, NULL, allocator, NULL)		\
	BENCH_TEST("tasklet_page_pool07_frag", 10, softirq, bench_pp_frag, \
		   bench_setup_frag_pool, NULL, frag, NULL)		\
	BENCH_TEST("tasklet_page_pool08_bulk", 11, softirq, bench_pp_bulk, \
		   bench_setup_pool, NULL, ring, "tasklet_page_pool02_ptr_ring") \
	BENCH_TEST("tasklet_page_pool09_netmem", 12, softirq, bench_pp_netmem, \
		   bench_setup_pool, BENCH_NETMEM_UNSUPPORTED, cache, NULL) \
	BENCH_TEST("napi_page_pool01_fast_path", 13, napi, bench_pp_fast_path, \
		   bench_setup_pool, NULL, cache, "napi_page_pool02_ptr_ring") \
	BENCH_TEST("napi_page_pool02_ptr_ring", 14, napi, bench_pp_ptr_ring, \
		   bench_setup_pool, NULL, ring, NULL)			\
	BENCH_TEST("napi_page_pool03_skb_bound", 15, napi, bench_skb_free, \
		   bench_setup_napi_pool, BENCH_PP_NAPI_UNSUPPORTED, cache, NULL) \
	BENCH_TEST("napi_page_pool04_skb_unbound", 16, napi, bench_skb_free, \
		   bench_setup_pool, NULL, ring, NULL)			\
	BENCH_TEST("cross_cpu_page_pool01_return", 17, cpus, NULL,	\
		   bench_setup_pool, NULL, xcpu, NULL))
/* One macro argument: the rows are one table, not many statements. */
#define BENCH_TABLE(...)	__VA_ARGS__

#define BENCH_TEST(name, bit, ctx, body, setup, unsupported, expect,	\
		   cheaper_than)					\
	{ name, bit, &bench_ctx_##ctx, body, setup, unsupported,	\
	  &bench_expect_##expect, cheaper_than },
static const struct bench_test bench_tests[] = {
	BENCH_TESTS
};

#undef BENCH_TEST

#define BENCH_NR_TESTS		ARRAY_SIZE(bench_tests)

static DECLARE_BITMAP(bench_selected, BENCH_NR_TESTS);

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
	int ret = bench_param_parse(val, kp, "a bit mask of tests (see modinfo)");

	if (!ret)
		run_flags_given = true;
	return ret;
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

static int bench_param_set_bulk(const char *val, const struct kernel_param *kp)
{
	return bench_param_parse(val, kp, BENCH_BULK_ACCEPTED);
}

/* The names are checked with the other parameters, in the module's init. */
static int bench_param_set_tests(const char *val,
				 const struct kernel_param *kp)
{
	size_t len = strcspn(val, "\n");

	if (len >= sizeof(tests)) {
		pr_err("tests=%.32s... invalid: longer than %zu characters; accepted: %s\n",
		       val, sizeof(tests) - 1, BENCH_TESTS_ACCEPTED);
		return -EINVAL;
	}
	memcpy(tests, val, len);
	tests[len] = '\0';
	tests_given = true;
	return 0;
}

static int bench_param_get_tests(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%s\n", tests);
}

static const struct kernel_param_ops bench_loops_ops = {
	.set = bench_param_set_loops,
	.get = param_get_uint,
};

static const struct kernel_param_ops bench_run_flags_ops = {
	.set = bench_param_set_run_flags,
	.get = param_get_uint,
};

static const struct kernel_param_ops bench_tests_ops = {
	.set = bench_param_set_tests,
	.get = bench_param_get_tests,
};

static const struct kernel_param_ops bench_time_ms_ops = {
	.set = bench_param_set_time_ms,
	.get = param_get_uint,
};

static const struct kernel_param_ops bench_reps_ops = {
	.set = bench_param_set_reps,
	.get = param_get_uint,
};

static int bench_param_set_return_cpus(const char *val,
				       const struct kernel_param *kp)
{
	int ret = bench_param_parse(val, kp, "1 up to the online CPUs minus one");

	if (!ret)
		return_cpus_given = true;
	return ret;
}

static const struct kernel_param_ops bench_return_cpus_ops = {
	.set = bench_param_set_return_cpus,
	.get = param_get_uint,
};

static const struct kernel_param_ops bench_bulk_ops = {
	.set = bench_param_set_bulk,
	.get = param_get_uint,
};

module_param_cb(loops, &bench_loops_ops, &loops, 0444);
__MODULE_PARM_TYPE(loops, "uint");
MODULE_PARM_DESC(loops, "Iterations per repetition, " BENCH_LOOPS_ACCEPTED
		 " (default: as many as fit in time_ms)");
module_param_cb(run_flags, &bench_run_flags_ops, &run_flags, 0444);
__MODULE_PARM_TYPE(run_flags, "uint");
#define BENCH_TEST(name, bit, ...)	" " #bit "=" name
MODULE_PARM_DESC(run_flags,
		 "Tests to run, a bit mask of these bits=tests (default: all; with tests=, both select):"
		 BENCH_TESTS);
#undef BENCH_TEST
module_param_cb(tests, &bench_tests_ops, NULL, 0444);
__MODULE_PARM_TYPE(tests, "string");
#define BENCH_TEST(name, ...)	" " name
MODULE_PARM_DESC(tests,
		 "Tests to run by name, separated by commas: a name ending in '*' selects the tests it begins, 'legacy' the nine of bits 0-6, 'all' every test (default: all); names:"
		 BENCH_TESTS);
#undef BENCH_TEST
module_param_cb(time_ms, &bench_time_ms_ops, &time_ms, 0444);
__MODULE_PARM_TYPE(time_ms, "uint");
MODULE_PARM_DESC(time_ms, "Timed duration per test in ms, all repetitions together, when loops is not given, "
		 BENCH_TIME_MS_ACCEPTED " (default 200)");
module_param_cb(reps, &bench_reps_ops, &reps, 0444);
__MODULE_PARM_TYPE(reps, "uint");
MODULE_PARM_DESC(reps, "Repetitions of each test, " BENCH_REPS_ACCEPTED
		 " (default: " __stringify(BENCH_DEFAULT_REPS)
		 ", or 1 when loops is given)");
module_param_cb(bulk, &bench_bulk_ops, &bulk, 0444);
__MODULE_PARM_TYPE(bulk, "uint");
MODULE_PARM_DESC(bulk, "Pages per page_pool_put_page_bulk() call of the bulk test, "
		 BENCH_BULK_ACCEPTED " (default "
		 __stringify(BENCH_DEFAULT_BULK) ")");
module_param_cb(return_cpus, &bench_return_cpus_ops, &return_cpus, 0444);
__MODULE_PARM_TYPE(return_cpus, "uint");
MODULE_PARM_DESC(return_cpus, "CPUs that give pages back in the cross-CPU test, 1 up to the online CPUs minus one (default 1)");

static struct bench_result bench_results[ARRAY_SIZE(bench_tests)];
static struct dentry *bench_debugfs_dir;

/*
 * Runs the test's body once and looks where its page went (see
 * bench_probe_begin()).  Runs in the test's context.
 */
static enum bench_path bench_probe_path(struct bench_run *run)
{
	struct bench_probe probe;

	bench_probe_begin(run->pool, &probe);
	return bench_probe_end(run->pool, &probe, run->test->body(run, 1) == 1);
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
	run->chunk_in_napi = run->chunk_in_softirq && run->napi &&
			     bench_napi_polled_here(&run->napi->napi);
	run->chunk_task = current;
}

/* Runs a chunk in the test's context, returns the iterations completed. */
static u64 bench_run_chunk(struct bench_run *run, enum bench_chunk_kind kind,
			   u64 chunk_loops)
{
	run->chunk_kind = kind;
	run->chunk_loops = chunk_loops;
	run->chunk_completed = 0;
	run->chunk_error = 0;

	time_bench_pmu_read(&run->chunk_start);
	run->test->context->run_chunk(run);
	time_bench_pmu_read(&run->chunk_stop);
	/* This task's counters missed a chunk that ksoftirqd ran. */
	if (run->chunk_task != current)
		run->chunk_stop.pmu_valid = false;
	return run->chunk_completed;
}

/* The context first: a test's setup may need it, e.g. its NAPI. */
static int bench_setup(struct bench_run *run)
{
	const struct bench_test *test = run->test;
	int ret = 0;

	atomic_set(&run->counter, 0);
	spin_lock_init(&run->lock);
	init_completion(&run->chunk_done);
	if (test->context->setup)
		ret = test->context->setup(run);
	if (!ret && test->setup)
		ret = test->setup(run);
	return ret;
}

/* The context first: a pool bound to a NAPI wants it disabled. */
static void bench_teardown(struct bench_run *run)
{
	if (run->test->context->teardown)
		run->test->context->teardown(run);
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
	if (run->chunk_in_napi)
		res->napi_chunks++;
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
		run->timed = count_context;
		done = bench_run_chunk(run, BENCH_CHUNK_LOOP, chunk);
		if (run->chunk_error)
			return run->chunk_error;
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
		if (run->chunk_error)
			return run->chunk_error;
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
	if (!ret && test->context->report)
		test->context->report(run);
	bench_teardown(run);
	kfree(run);
	/* A setup may find that this machine cannot run the test. */
	if (ret == -ENODEV && res->skip_reason) {
		pr_info("%s: skipped: %s\n", test->name, res->skip_reason);
		res->skipped = true;
		return 0;
	}
	if (ret)
		return ret;

	res->valid = true;
	time_bench_print(test->name, &res->rep_recs[res->median_rep]);
	if (res->reps > 1)
		time_bench_print_summary(test->name, res->reps, &res->cycles,
					 &res->ns);
	if (res->path != BENCH_PATH_NONE && BENCH_HAVE_PP_STATS)
		bench_print_pp_stats(test->name, res);
	return 0;
}

static void bench_free_results(void)
{
	size_t i;

	for (i = 0; i < BENCH_NR_TESTS; i++) {
		kfree(bench_results[i].rep_recs);
		kfree(bench_results[i].cycles_milli);
		kfree(bench_results[i].ns_milli);
		kfree(bench_results[i].cpu_ids);
		kfree(bench_results[i].cpu_recs);
		memset(&bench_results[i], 0, sizeof(bench_results[i]));
	}
}

/* Where the timed chunks were seen to run, not where they were sent. */
static const char *bench_context_name(const struct bench_result *res)
{
	if (res->napi_chunks == res->chunks)
		return "napi";
	if (res->softirq_chunks == res->chunks && !res->napi_chunks)
		return "softirq";
	if (!res->softirq_chunks)
		return "process";
	return "mixed";
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
static struct time_bench_instrument bench_instrument;
static int bench_pmu_error;

/*
 * What moves the numbers besides the code under test, recorded in the
 * results file so that two runs can be told apart: kernel options known
 * to make page_pool's paths dearer (@inflates: warned about once), the
 * preemption model, allocation-time page clearing, the command line and
 * the machine.
 */
struct bench_config_opt {
	const char *name;
	bool enabled;
	bool inflates;
};

static const struct bench_config_opt bench_config_opts[] = {
	{ "prove_locking", IS_ENABLED(CONFIG_PROVE_LOCKING), true },
	{ "debug_lock_alloc", IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC), true },
	{ "debug_spinlock", IS_ENABLED(CONFIG_DEBUG_SPINLOCK), true },
	{ "lock_stat", IS_ENABLED(CONFIG_LOCK_STAT), true },
	{ "debug_atomic_sleep", IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP), true },
	{ "kasan", IS_ENABLED(CONFIG_KASAN), true },
	{ "kcsan", IS_ENABLED(CONFIG_KCSAN), true },
	{ "kmsan", IS_ENABLED(CONFIG_KMSAN), true },
	{ "debug_net", IS_ENABLED(CONFIG_DEBUG_NET), true },
	{ "debug_vm", IS_ENABLED(CONFIG_DEBUG_VM), true },
	{ "debug_pagealloc", IS_ENABLED(CONFIG_DEBUG_PAGEALLOC), false },
	{ "kmemleak", IS_ENABLED(CONFIG_DEBUG_KMEMLEAK), true },
	{ "dma_api_debug", IS_ENABLED(CONFIG_DMA_API_DEBUG), true },
	{ "page_pool_stats", IS_ENABLED(CONFIG_PAGE_POOL_STATS), false },
};

static const char *bench_preempt_model(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return "rt";
	if (IS_ENABLED(CONFIG_PREEMPT_DYNAMIC)) {
		if (preempt_model_full())
			return "dynamic_full";
		if (preempt_model_voluntary())
			return "dynamic_voluntary";
		return "dynamic_none";
	}
	if (IS_ENABLED(CONFIG_PREEMPT))
		return "full";
	if (IS_ENABLED(CONFIG_PREEMPT_VOLUNTARY))
		return "voluntary";
	return "none";
}

#define BENCH_CMDLINE_LEN	4096

static char *bench_cmdline;
static int bench_cmdline_error;

/*
 * The kernel command line, from /proc/cmdline: the kernel does not
 * export it to modules.  Process context.
 */
static void bench_read_cmdline(void)
{
	struct file *file;
	loff_t pos = 0;
	ssize_t len;

	bench_cmdline = kzalloc(BENCH_CMDLINE_LEN, GFP_KERNEL);
	if (!bench_cmdline) {
		bench_cmdline_error = -ENOMEM;
		return;
	}
	file = filp_open("/proc/cmdline", O_RDONLY, 0);
	if (IS_ERR(file)) {
		bench_cmdline_error = PTR_ERR(file);
		return;
	}
	len = kernel_read(file, bench_cmdline, BENCH_CMDLINE_LEN - 1, &pos);
	filp_close(file, NULL);
	if (len < 0) {
		bench_cmdline_error = len;
		len = 0;
	}
	bench_cmdline[len] = '\0';
	strim(bench_cmdline);
}

/* Once per load: numbers from such a kernel are not production costs. */
static void bench_warn_debug_options(void)
{
	char buf[256];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(bench_config_opts); i++)
		if (bench_config_opts[i].enabled &&
		    bench_config_opts[i].inflates)
			len += scnprintf(buf + len, sizeof(buf) - len, " %s",
					 bench_config_opts[i].name);
	if (debug_pagealloc_enabled())
		len += scnprintf(buf + len, sizeof(buf) - len,
				 " debug_pagealloc");
	if (len)
		pr_warn("debugging options make page_pool costs higher than in production:%s; do not compare these numbers with other kernels\n",
			buf);
}

static void bench_seq_fingerprint(struct seq_file *m)
{
	size_t i;

	seq_puts(m, "config:");
	for (i = 0; i < ARRAY_SIZE(bench_config_opts); i++)
		seq_printf(m, " %s=%c", bench_config_opts[i].name,
			   bench_config_opts[i].enabled ? 'y' : 'n');
	seq_printf(m, " preempt=%s\n", bench_preempt_model());
	seq_printf(m, "runtime: init_on_alloc=%d init_on_free=%d debug_pagealloc=%d online_cpus=%u hypervisor=%s\n",
		   want_init_on_alloc(0), want_init_on_free(),
		   debug_pagealloc_enabled(), num_online_cpus(),
		   bench_instrument.signature);
	if (bench_cmdline_error)
		seq_printf(m, "cmdline: unavailable (error %d)\n",
			   bench_cmdline_error);
	else
		seq_printf(m, "cmdline: %s\n", bench_cmdline);
}

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

/* " key=value" of a parameter the user gave, or " key=-" */
static void bench_seq_param(struct seq_file *m, const char *key, bool given,
			    unsigned int val, const char *fmt)
{
	seq_printf(m, " %s=", key);
	if (given)
		seq_printf(m, fmt, val);
	else
		seq_putc(m, '-');
}

/* Concurrent tests: one line per CPU, over the timed repetitions. */
static void bench_seq_cpus(struct seq_file *m, const struct bench_test *test,
			   const struct bench_result *res)
{
	struct time_bench_fixed cyc, ns;
	u32 i;

	for (i = 0; i < res->nr_cpus; i++) {
		const struct time_bench_record *rec = &res->cpu_recs[i];

		cyc = time_bench_div_fixed(rec->cycles, rec->invocations, 3,
					   true);
		ns = time_bench_div_fixed(rec->ns, rec->invocations, 3, true);
		seq_printf(m, "cpu: name=%s cpu=%d role=%s invoke_count=%llu cycles=%llu ns=%llu cycles_per_elem=%llu.%03u ns_per_elem=%llu.%03u\n",
			   test->name, res->cpu_ids[i], i ? "return" : "alloc",
			   rec->invocations, rec->cycles, rec->ns, cyc.whole,
			   cyc.frac, ns.whole, ns.frac);
	}
}

/* " name+name:n": a sum of page_pool counters and what it must be */
static void bench_seq_stat_sum(struct seq_file *m, const char *sep,
			       const struct bench_stat_sum *sum, u64 iterations)
{
	int i;

	for_each_set_bit(i, &sum->counters, BENCH_PP_NR_STATS) {
		seq_printf(m, "%s%s", sep, bench_pp_stat_names[i]);
		sep = "+";
	}
	seq_printf(m, ":%llu", sum->per_iteration * iterations);
}

/* Pages the pool may take from the allocator while timed. */
static void bench_seq_allocated_max(struct seq_file *m,
				    const struct bench_expect *e,
				    const struct bench_result *res)
{
	switch (e->allocated) {
	case BENCH_ALLOC_NONE:
		seq_puts(m, " expect_allocated_max=0");
		break;
	case BENCH_ALLOC_IN_FLIGHT:
		/* The queues to the returning CPUs, full, and one refill
		 * of the pool's cache from the page allocator.
		 */
		seq_printf(m, " expect_allocated_max=%u",
			   BENCH_XCPU_QUEUE * (res->nr_cpus - 1) +
			   PP_ALLOC_CACHE_REFILL);
		break;
	default:
		seq_puts(m, " expect_allocated_max=-");
	}
}

/* What the test's row says it must do, for the kselftest to check. */
static void bench_seq_expect(struct seq_file *m, const struct bench_test *test,
			     const struct bench_result *res)
{
	const struct bench_expect *e = test->expect;
	const char *sep = "";
	int i;

	seq_puts(m, " expect_path=");
	for_each_set_bit(i, &e->paths, BENCH_PATH_UNKNOWN) {
		seq_printf(m, "%s%s", sep, bench_path_names[i]);
		sep = ",";
	}
	if (!e->paths)
		seq_putc(m, '-');
	bench_seq_allocated_max(m, e, res);
	if (e->released_all)
		seq_printf(m, " expect_released=%llu", res->total_invocations);
	else
		seq_puts(m, " expect_released=-");
	seq_puts(m, " expect_stats=");
	for (i = 0; i < BENCH_MAX_STAT_SUMS && e->stats[i].counters; i++)
		bench_seq_stat_sum(m, i ? "," : "", &e->stats[i],
				   res->total_invocations);
	if (!i)
		seq_putc(m, '-');
	seq_printf(m, " cheaper_than=%s", test->cheaper_than ?: "-");
}

static void bench_seq_test(struct seq_file *m, size_t i)
{
	const struct bench_test *test = &bench_tests[i];
	const struct bench_result *res = &bench_results[i];
	const struct time_bench_record *rec;
	struct time_bench_fixed cyc, ns;

	if (res->skipped) {
		/* reason= takes the rest of the line */
		seq_printf(m, "skip: name=%s run_flags_bit=%u wanted_context=%s reason=%s\n",
			   test->name, test->bit, test->context->name,
			   res->skip_reason);
		return;
	}
	rec = &res->rep_recs[res->median_rep];
	cyc = time_bench_div_fixed(rec->cycles, rec->invocations, 3, true);
	ns = time_bench_div_fixed(rec->ns, rec->invocations, 3, true);
	seq_printf(m, "test: name=%s run_flags_bit=%u context=%s wanted_context=%s cpu=%d cpu_moves=%u reps=%u loops=%llu invoke_count=%llu total_invoke_count=%llu cycles=%llu ns=%llu chunks=%u cycles_per_elem=%llu.%03u ns_per_elem=%llu.%03u",
		   test->name, test->bit, bench_context_name(res),
		   test->context->name, res->cpu, res->cpu_moves, res->reps,
		   res->loops, rec->invocations, res->total_invocations,
		   rec->cycles, rec->ns, res->chunks, cyc.whole, cyc.frac,
		   ns.whole, ns.frac);
	bench_seq_summary(m, "cycles", &res->cycles);
	bench_seq_summary(m, "ns", &res->ns);
	bench_seq_samples(m, "cycles_samples", res->cycles_milli, res->reps);
	bench_seq_samples(m, "ns_samples", res->ns_milli, res->reps);
	bench_seq_pmu(m, res);
	seq_printf(m, " path=%s pages_allocated=%llu pages_released=%llu",
		   bench_path_names[res->path], res->pages_allocated,
		   res->pages_released);
	if (res->path != BENCH_PATH_NONE && BENCH_HAVE_PP_STATS) {
		char buf[BENCH_PP_STATS_LEN];

		bench_format_pp_stats(buf, sizeof(buf), res);
		seq_puts(m, buf);
	}
	bench_seq_expect(m, test, res);
	seq_putc(m, '\n');
	bench_seq_cpus(m, test, res);
}

/* The results file: see "Results file" in README.rst for the format. */
static int bench_results_show(struct seq_file *m, void *v)
{
	const struct time_bench_overhead *ovh = &bench_overhead;
	unsigned int ran = 0, skipped = 0;
	const char *sep = " ";
	size_t i;

	seq_puts(m, "format: bench_page_pool_simple 3\n");
	seq_printf(m, "kernel: %s\n", init_utsname()->release);
	seq_printf(m, "cpu_model: %s\n", bench_cpu_model());
	seq_printf(m, "clock: %s\n", time_bench_clock_name(bench_instrument.clock));
	seq_printf(m, "accel: %s\n", time_bench_accel_name(bench_instrument.accel));
	seq_printf(m, "page_pool_stats: %s\n",
		   BENCH_HAVE_PP_STATS ? "yes" : "no");
	bench_seq_fingerprint(m);
	seq_puts(m, "params:");
	bench_seq_param(m, "loops", loops_given, loops, "%u");
	bench_seq_param(m, "run_flags", run_flags_given, run_flags, "0x%x");
	seq_printf(m, " tests=%s", tests_given ? tests : "-");
	bench_seq_param(m, "time_ms", !loops_given, time_ms, "%u");
	seq_printf(m, " reps=%u bulk=%u\n", bench_reps(), bulk);
	seq_puts(m, "selected:");
	for_each_set_bit(i, bench_selected, BENCH_NR_TESTS) {
		seq_printf(m, "%s%s", sep, bench_tests[i].name);
		sep = ",";
	}
	seq_putc(m, '\n');
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

	for (i = 0; i < BENCH_NR_TESTS; i++) {
		if (bench_results[i].valid || bench_results[i].skipped)
			bench_seq_test(m, i);
		ran += bench_results[i].valid;
		skipped += bench_results[i].skipped;
	}
	seq_printf(m, "end: tests=%u skips=%u\n", ran, skipped);
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

/* Marks the tests a tests= word names; false if it names none. */
static bool bench_select_word(const char *word, size_t len)
{
	bool prefix = len && word[len - 1] == '*', found = false;
	size_t i, n = prefix ? len - 1 : len;

	for (i = 0; i < BENCH_NR_TESTS; i++) {
		const char *name = bench_tests[i].name;
		bool match;

		if (len == 3 && !strncmp(word, "all", 3))
			match = true;
		else if (len == 6 && !strncmp(word, "legacy", 6))
			match = BIT(bench_tests[i].bit) & BENCH_LEGACY_BITS;
		else
			match = !strncmp(name, word, n) &&
				(prefix || !name[n]);
		if (match) {
			__set_bit(i, bench_selected);
			found = true;
		}
	}
	return found;
}

/* The tests run_flags and tests= select; all of them by default. */
static int bench_select_tests(void)
{
	const char *word = tests;
	unsigned long all_bits = 0;
	size_t i, len;

	bitmap_zero(bench_selected, BENCH_NR_TESTS);
	if (!run_flags_given && !tests_given) {
		bitmap_fill(bench_selected, BENCH_NR_TESTS);
		return 0;
	}
	for (i = 0; i < BENCH_NR_TESTS; i++)
		all_bits |= BIT(bench_tests[i].bit);
	if (run_flags_given && (!run_flags || run_flags & ~all_bits)) {
		pr_err("run_flags=0x%x invalid: %s; accepted: a mask of bits 0-%d (0x1..0x%lx), see modinfo\n",
		       run_flags, run_flags ? "unknown bits" : "selects no test",
		       fls(all_bits) - 1, all_bits);
		return -EINVAL;
	}
	for (i = 0; run_flags_given && i < BENCH_NR_TESTS; i++)
		if (run_flags & BIT(bench_tests[i].bit))
			__set_bit(i, bench_selected);
	while (tests_given) {
		len = strcspn(word, ",");
		if (!bench_select_word(word, len)) {
			pr_err("tests=%s invalid: '%.*s' names no test; accepted: %s\n",
			       tests, (int)len, word, BENCH_TESTS_ACCEPTED);
			return -EINVAL;
		}
		if (!word[len])
			break;
		word += len + 1;
	}
	return 0;
}

/* Ranges the parsers cannot know; one dmesg line per bad value. */
static int bench_check_params(void)
{
	if (loops_given && loops < BENCH_MIN_LOOPS) {
		pr_err("loops=%u invalid: too few to time; accepted: %s\n",
		       loops, BENCH_LOOPS_ACCEPTED);
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
	if (return_cpus_given &&
	    (!return_cpus || return_cpus >= num_online_cpus())) {
		pr_err("return_cpus=%u invalid: %u CPUs online; accepted: 1..%u (the online CPUs minus one)\n",
		       return_cpus, num_online_cpus(), num_online_cpus() - 1);
		return -EINVAL;
	}
	if (!bulk || bulk > BENCH_MAX_BULK) {
		pr_err("bulk=%u invalid: out of range; accepted: %s\n", bulk,
		       BENCH_BULK_ACCEPTED);
		return -EINVAL;
	}
	return bench_select_tests();
}

/* What a load keeps until it is removed, or until its init fails. */
static void bench_release(void)
{
	bench_free_results();
	bench_napi_remove();
	bench_dma_device_remove();
	kfree(bench_cmdline);
	bench_cmdline = NULL;
}

static int __init bench_page_pool_simple_init(void)
{
	size_t i;
	int ret = 0;

	ret = bench_check_params();
	if (ret)
		return ret;
	if (!BENCH_HAVE_PP_STATS)
		pr_info("page_pool stats unavailable: kernel built without CONFIG_PAGE_POOL_STATS\n");
	bench_warn_debug_options();
	bench_read_cmdline();

	time_bench_instrument(&bench_instrument);
	/* What the cycles(tsc) of the lines below count. */
	pr_info("instrument: clock=%s accel=%s\n",
		time_bench_clock_name(bench_instrument.clock),
		time_bench_accel_name(bench_instrument.accel));
	time_bench_measure_overhead(&bench_overhead);
	bench_print_overhead(&bench_overhead);
	bench_pmu_error = time_bench_pmu_open();
	if (bench_pmu_error)
		pr_info("PMU counters unavailable (error %d): no instructions or IPC per element\n",
			bench_pmu_error);

	for_each_set_bit(i, bench_selected, BENCH_NR_TESTS) {
		const struct bench_test *test = &bench_tests[i];

		if (test->unsupported) {
			pr_info("%s: skipped: %s\n", test->name,
				test->unsupported);
			bench_results[i].skipped = true;
			bench_results[i].skip_reason = test->unsupported;
			continue;
		}
		ret = bench_run_test(test, &bench_results[i]);
		if (ret)
			break;
	}
	time_bench_pmu_close();
	if (ret) {
		bench_release();
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
	bench_release();
}
module_exit(bench_page_pool_simple_exit);

MODULE_DESCRIPTION("Micro-benchmark of page_pool allocation and recycle paths");
MODULE_LICENSE("GPL");
