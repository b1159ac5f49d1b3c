// SPDX-License-Identifier: GPL-2.0
/*
 * Micro-benchmark of page_pool's allocation and recycle paths.
 *
 * The tests are the rows of BENCH_TESTS below: a name, the run_flags bit
 * that selects it, the context its timed chunks run in (process, tasklet,
 * this module's NAPI poll, several CPUs), its loop body, the setup it
 * needs and what it must do.  time_bench runs them; this file holds what
 * is page_pool's: the bodies, the pools and their devices, the NAPI
 * context, the cross-CPU queues and the probe that tells where a page
 * went.  The run happens while the module loads; the results stay
 * readable in debugfs until it is removed: rmmod it before the next run.
 */
/*
 * The benchmark's name, whatever its module file is called (in a kernel
 * tree's kselftest, bench_page_pool.ko): its dmesg lines, its debugfs
 * folder and its results file's format say it.
 */
#define BENCH_NAME		"bench_page_pool_simple"
#define pr_fmt(fmt) BENCH_NAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stringify.h>

#include "bench_page_pool_compat.h"
#include "time_bench.h"

#define BENCH_POOL_SIZE		1024
#define BENCH_GFP		(GFP_ATOMIC | __GFP_NOWARN)
/* Two fragments per page in the fragment test */
#define BENCH_FRAG_SIZE		(PAGE_SIZE / 2)
#define BENCH_FRAGS_PER_PAGE	(PAGE_SIZE / BENCH_FRAG_SIZE)
/*
 * Pages per bulk return call: what XDP's bulk queues hold
 * (XDP_BULK_QUEUE_SIZE), a page pointer array in the test's state.
 * From 16 pages on a bulk return costs less per page than single
 * ptr_ring returns: counted in instructions (QEMU -icount, one vCPU),
 * bulk against ptr_ring per page, 6.1 at 8 pages 123.62 against 123.51,
 * at 16 118.61; 6.12 at 4 159.20 against 164.56, at 16 141.44.
 */
#define BENCH_BULK		16
/* The run_flags bits of the legacy benchmark's nine tests */
#define BENCH_LEGACY_BITS	GENMASK(6, 0)
/* " name=value" for each page_pool counter */
#define BENCH_PP_STATS_LEN	(BENCH_PP_NR_STATS * 48)

static struct time_bench_param return_cpus = {
	.val = 1,
	.accepted = "1 up to the online CPUs minus one",
};

struct bench_xcpu;

/* A test's state: what its setup makes and its body uses. */
struct bench_pp {
	struct page_pool *pool;
	atomic_t counter;
	spinlock_t lock;	/* only the "lock" baseline takes it */
	int napi_budget;	/* of the poll running the chunk */
	struct bench_xcpu *xcpu;
	BENCH_BULK_REF bulk_data[BENCH_BULK];
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

/* What a load saw of a test's pool while the repetitions ran. */
struct bench_pp_result {
	enum bench_path path;
	u32 allocated_before;
	u32 released_before;
	u64 pages_allocated;	/* from the page allocator */
	u64 pages_released;	/* back to the page allocator */
	u64 stats_before[BENCH_PP_NR_STATS];
	u64 pp_stats[BENCH_PP_NR_STATS];	/* page_pool's own counters */
};

/*
 * The probe: where did the page of one iteration go?  The ring's producer
 * index moved, the pool released a page to the page allocator, or, with
 * neither and no page taken from the allocator, it stayed in the pool's
 * lockless cache.  The producer index, unlike the cache's count, does not
 * move when an allocation refills the cache from the ring.  The counters
 * are read in process context around one untimed iteration in the test's
 * context.
 */
static enum bench_path bench_probe_path(struct time_bench_run *run)
{
	const struct page_pool *pool = ((struct bench_pp *)run->priv)->pool;
	u32 allocated = bench_pp_pages_allocated(pool);
	u32 released = bench_pp_pages_released(pool);
	int producer = bench_pp_ring_producer(pool);

	if (time_bench_run_untimed(run, 1) != 1)
		return BENCH_PATH_UNKNOWN;
	if (bench_pp_pages_released(pool) != released)
		return BENCH_PATH_ALLOCATOR;
	if (bench_pp_ring_producer(pool) != producer)
		return BENCH_PATH_RING;
	if (bench_pp_pages_allocated(pool) == allocated)
		return BENCH_PATH_CACHE;
	return BENCH_PATH_UNKNOWN;
}

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

struct time_bench_expect {
	unsigned long paths;	/* BIT()s of enum bench_path */
	enum bench_alloc_bound allocated;
	bool released_all;	/* pages_released == total iterations */
	struct bench_stat_sum stats[BENCH_MAX_STAT_SUMS];
};

#define BENCH_STAT(name)	BIT(BENCH_PP_##name)
/* Counters a path must not move, besides its own */
#define BENCH_STAT_NONE(name)	{ BENCH_STAT(name), 0 }

/* Direct recycling into the lockless cache. */
static const struct time_bench_expect bench_expect_cache = {
	.paths = BIT(BENCH_PATH_CACHE),
	.allocated = BENCH_ALLOC_NONE,
	.stats = { { BENCH_STAT(RECYCLE_CACHED), 1 },
		   BENCH_STAT_NONE(RECYCLE_RING),
		   BENCH_STAT_NONE(RECYCLE_RELEASED_REFCNT) },
};

/* The ptr_ring; a full ring gives the page to the page allocator. */
static const struct time_bench_expect bench_expect_ring = {
	.paths = BIT(BENCH_PATH_RING),
	.allocated = BENCH_ALLOC_NONE,
	.stats = { { BENCH_STAT(RECYCLE_RING) |
		     BENCH_STAT(RECYCLE_RING_FULL), 1 },
		   BENCH_STAT_NONE(RECYCLE_CACHED),
		   BENCH_STAT_NONE(RECYCLE_RELEASED_REFCNT) },
};

/* Not recyclable: every page back to the page allocator. */
static const struct time_bench_expect bench_expect_allocator = {
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
static const struct time_bench_expect bench_expect_any = {
	.paths = BIT(BENCH_PATH_CACHE) | BIT(BENCH_PATH_RING),
	.allocated = BENCH_ALLOC_NONE,
	.stats = { { BENCH_STAT(RECYCLE_CACHED) | BENCH_STAT(RECYCLE_RING), 1 },
		   BENCH_STAT_NONE(RECYCLE_RELEASED_REFCNT) },
};

/* The pool reuses its fragment page in place once both halves are back:
 * the probe sees the cache, and neither the ring nor the page allocator
 * moves.  6.12 counts each fragment as one fast allocation; 7.2
 * counts the reuse of the drained page as one recycle_cached and one
 * alloc_fast, the second fragment as nothing: two counts per page
 * either way.
 */
static const struct time_bench_expect bench_expect_frag = {
	.paths = BIT(BENCH_PATH_CACHE),
	.allocated = BENCH_ALLOC_NONE,
	.stats = { { BENCH_STAT(ALLOC_FAST) | BENCH_STAT(RECYCLE_CACHED),
		     BENCH_FRAGS_PER_PAGE },
		   BENCH_STAT_NONE(ALLOC_SLOW),
		   BENCH_STAT_NONE(RECYCLE_RING),
		   BENCH_STAT_NONE(RECYCLE_RELEASED_REFCNT) },
};

/* Returned from other CPUs: the ring, and the pool may take from the
 * page allocator what the queues to the returning CPUs hold.
 */
static const struct time_bench_expect bench_expect_xcpu = {
	.paths = BIT(BENCH_PATH_RING),
	.allocated = BENCH_ALLOC_IN_FLIGHT,
	.stats = { { BENCH_STAT(RECYCLE_RING) |
		     BENCH_STAT(RECYCLE_RING_FULL), 1 },
		   BENCH_STAT_NONE(RECYCLE_CACHED),
		   BENCH_STAT_NONE(RECYCLE_RELEASED_REFCNT) },
};

/* Baselines: what the harness itself costs. */
static u64 bench_for_loop(void *priv, u64 loops)
{
	u64 i;

	for (i = 0; i < loops; i++)
		barrier();
	return i;
}

static u64 bench_atomic_inc(void *priv, u64 loops)
{
	struct bench_pp *pp = priv;
	u64 i;

	for (i = 0; i < loops; i++)
		atomic_inc(&pp->counter);
	return i;
}

static u64 bench_lock(void *priv, u64 loops)
{
	struct bench_pp *pp = priv;
	u64 i;

	for (i = 0; i < loops; i++) {
		spin_lock(&pp->lock);
		barrier();
		spin_unlock(&pp->lock);
	}
	return i;
}

/* How a page_pool test gives each page back. */
enum bench_return {
	BENCH_RETURN_DIRECT,	/* page_pool_recycle_direct() */
	BENCH_RETURN_RING,	/* page_pool_put_full_page(, false) */
	BENCH_RETURN_ALLOCATOR,	/* extra reference: not recyclable */
	BENCH_RETURN_NAPI_LOCAL,	/* page_pool_put_page(, false) */
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
	case BENCH_RETURN_NAPI_LOCAL:
		page_pool_put_page(pool, page, -1, false);
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
 * branch-free loop.  The pool stays in a register: read through the
 * state, it would be loaded again after every call.
 */
static __always_inline u64 bench_pp_loop(struct bench_pp *pp, u64 loops,
					 enum bench_return page_return)
{
	struct page_pool *pool = pp->pool;
	u64 i;

	for (i = 0; i < loops; i++)
		if (unlikely(!bench_pp_cycle(pool, page_return)))
			break;
	return i;
}

static u64 bench_pp_fast_path(void *priv, u64 loops)
{
	return bench_pp_loop(priv, loops, BENCH_RETURN_DIRECT);
}

static u64 bench_pp_ptr_ring(void *priv, u64 loops)
{
	return bench_pp_loop(priv, loops, BENCH_RETURN_RING);
}

static u64 bench_pp_slow(void *priv, u64 loops)
{
	return bench_pp_loop(priv, loops, BENCH_RETURN_ALLOCATOR);
}

/* As drivers give pages back in their NAPI poll, without telling
 * page_pool it may recycle directly: page_pool_napi_local() decides.
 */
static u64 bench_pp_napi_aware(void *priv, u64 loops)
{
	return bench_pp_loop(priv, loops, BENCH_RETURN_NAPI_LOCAL);
}

/* Both halves of one page, each given back on its own, directly. */
static u64 bench_pp_frag(void *priv, u64 loops)
{
	struct page_pool *pool = ((struct bench_pp *)priv)->pool;
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
static u64 bench_pp_bulk(void *priv, u64 loops)
{
	struct bench_pp *pp = priv;
	struct page_pool *pool = pp->pool;
	BENCH_BULK_REF *data = pp->bulk_data;
	unsigned int batch, n;
	struct page *page;
	u64 done = 0;

	while (done < loops) {
		batch = min_t(u64, BENCH_BULK, loops - done);
		for (n = 0; n < batch; n++) {
			page = page_pool_alloc_pages(pool, BENCH_GFP);
			if (unlikely(!page))
				break;
			data[n] = bench_bulk_ref(page);
		}
		if (n)
			bench_pp_put_bulk(pool, data, n);
		done += n;
		if (unlikely(n < batch))
			break;
	}
	return done;
}

static u64 bench_pp_netmem(void *priv, u64 loops)
{
	struct page_pool *pool = ((struct bench_pp *)priv)->pool;
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
static u64 bench_skb_free(void *priv, u64 loops)
{
	struct bench_pp *pp = priv;
	struct page_pool *pool = pp->pool;
	int budget = pp->napi_budget;
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

/* The module's NAPI instance, on a dummy net device. */
struct bench_napi {
	struct net_device *dev;
	struct napi_struct napi;
	struct completion chunk_done;
	struct time_bench_run *run;	/* whose chunks the poll runs */
};

static struct bench_napi bench_napi;

/* Runs one chunk per poll, then completes: the next chunk is scheduled
 * again from process context, so no poll stays long in softirq.
 */
static int bench_napi_poll(struct napi_struct *napi, int budget)
{
	struct bench_napi *bn = container_of(napi, struct bench_napi, napi);
	struct time_bench_run *run = READ_ONCE(bn->run);
	struct bench_pp *pp = run->priv;

	pp->napi_budget = budget;
	time_bench_chunk_here(run);
	napi_complete_done(napi, 0);
	complete(&bn->chunk_done);
	return 0;
}

/* The dummy device and its NAPI instance, made once, removed on unload. */
static int bench_napi_setup(struct time_bench_run *run)
{
	if (!bench_napi.dev) {
		bench_napi.dev = bench_alloc_dummy_netdev();
		if (!bench_napi.dev)
			return -ENOMEM;
		init_completion(&bench_napi.chunk_done);
		netif_napi_add(bench_napi.dev, &bench_napi.napi,
			       bench_napi_poll);
	}
	WRITE_ONCE(bench_napi.run, run);
	run->ctx = &bench_napi;
	napi_enable(&bench_napi.napi);
	return 0;
}

/* Like a driver's interrupt handler, with BH off so that the poll runs
 * at local_bh_enable() in this task when it can.
 */
static void bench_napi_run_chunk(struct time_bench_run *run)
{
	struct bench_napi *bn = run->ctx;

	reinit_completion(&bn->chunk_done);
	local_bh_disable();
	napi_schedule(&bn->napi);
	local_bh_enable();
	wait_for_completion(&bn->chunk_done);
}

static bool bench_napi_here(struct time_bench_run *run)
{
	struct bench_napi *bn = run->ctx;

	return in_serving_softirq() && bench_napi_polled_here(&bn->napi);
}

/* Before the pool goes: a pool bound to a NAPI must see it disabled. */
static void bench_napi_teardown(struct time_bench_run *run)
{
	struct bench_napi *bn = run->ctx;

	if (!bn)
		return;
	napi_disable(&bn->napi);
	WRITE_ONCE(bn->run, NULL);
	run->ctx = NULL;
}

static void bench_napi_remove(void)
{
	if (!bench_napi.dev)
		return;
	netif_napi_del(&bench_napi.napi);
	bench_free_dummy_netdev(bench_napi.dev);
	bench_napi.dev = NULL;
}

static const struct time_bench_context bench_ctx_napi = {
	.name = "napi",
	.setup = bench_napi_setup,
	.run_chunk = bench_napi_run_chunk,
	.here = bench_napi_here,
	.teardown = bench_napi_teardown,
};

/*
 * Cross-CPU return, as a TX completion or a socket reader on another CPU
 * gives pages back: the first CPU allocates from the pool in softirq and
 * hands each page through a queue of its own to one of return_cpus other
 * CPUs, which give it back with page_pool_put_full_page(, false), in
 * softirq too: into the pool's ptr_ring, under its producer lock.
 * time_bench runs each CPU's batches (struct time_bench_cpus_ops).
 */
#define BENCH_XCPU_QUEUE	256	/* pages in flight to one CPU */
#define BENCH_XCPU_BATCH	32	/* pages per stay in softirq */

struct bench_xcpu_queue {
	struct page *slot[BENCH_XCPU_QUEUE];
	u32 head;			/* written by the allocating CPU */
	u32 tail;			/* written by the returning CPU */
};

struct bench_xcpu {
	struct page_pool *pool;
	unsigned int nr_queues;		/* return_cpus */
	u64 target;			/* pages to allocate in this run */
	u64 allocated;
	unsigned int next_queue;	/* where the next page goes */
	bool alloc_done;
	int error;
	struct bench_xcpu_queue q[];
};

static unsigned int bench_xcpu_nr_cpus(void)
{
	return return_cpus.val + 1;
}

static void bench_xcpu_begin(void *priv, u64 loops)
{
	struct bench_xcpu *x = ((struct bench_pp *)priv)->xcpu;

	x->target = loops;
	x->allocated = 0;
	x->alloc_done = false;
	x->error = 0;
}

/* Fills the returning CPUs' queues, round robin; 0 when all are full. */
static u32 bench_xcpu_alloc_batch(struct bench_xcpu *x)
{
	u32 n = 0, full = 0, want = min_t(u64, BENCH_XCPU_BATCH,
					    x->target - x->allocated);
	struct bench_xcpu_queue *q;
	struct page *page;

	while (n < want && full < x->nr_queues && !x->error) {
		q = &x->q[x->next_queue];
		x->next_queue = (x->next_queue + 1) % x->nr_queues;
		/* pairs with the returner's release of tail: slots it freed */
		if (q->head - smp_load_acquire(&q->tail) >= BENCH_XCPU_QUEUE) {
			full++;
			continue;
		}
		full = 0;
		page = page_pool_alloc_pages(x->pool, BENCH_GFP);
		if (unlikely(!page)) {
			x->error = -ENOMEM;
			break;
		}
		q->slot[q->head % BENCH_XCPU_QUEUE] = page;
		/* publishes the slot before the returner sees the new head */
		smp_store_release(&q->head, q->head + 1);
		n++;
	}
	x->allocated += n;
	return n;
}

static u32 bench_xcpu_return_batch(struct bench_xcpu *x,
				   struct bench_xcpu_queue *q)
{
	/* pairs with the allocator's release of head: filled slots */
	u32 head = smp_load_acquire(&q->head), n = 0;

	while (q->tail != head && n < BENCH_XCPU_BATCH) {
		page_pool_put_full_page(x->pool,
					q->slot[q->tail % BENCH_XCPU_QUEUE],
					false);
		/* the slot is free for the allocator once tail passes it */
		smp_store_release(&q->tail, q->tail + 1);
		n++;
	}
	return n;
}

static u32 bench_xcpu_batch(void *priv, unsigned int idx)
{
	struct bench_xcpu *x = ((struct bench_pp *)priv)->xcpu;

	if (!idx)
		return bench_xcpu_alloc_batch(x);
	return bench_xcpu_return_batch(x, &x->q[idx - 1]);
}

static bool bench_xcpu_done(void *priv, unsigned int idx)
{
	struct bench_xcpu *x = ((struct bench_pp *)priv)->xcpu;
	struct bench_xcpu_queue *q;

	if (!idx) {
		if (x->allocated < x->target && !x->error)
			return false;
		/* after the last head: returners that see it drain all */
		smp_store_release(&x->alloc_done, true);
		return true;
	}
	q = &x->q[idx - 1];
	/* done is released after the last head: heads read after it are
	 * final, so an empty queue then stays empty
	 */
	if (!smp_load_acquire(&x->alloc_done))
		return false;
	/* pairs with the allocator's release of head */
	return smp_load_acquire(&q->head) == q->tail;
}

/* Pages a failed run left in the queues go back from process context. */
static int bench_xcpu_end(void *priv, const char **what)
{
	struct bench_xcpu *x = ((struct bench_pp *)priv)->xcpu;
	unsigned int i;

	for (i = 0; i < x->nr_queues; i++) {
		struct bench_xcpu_queue *q = &x->q[i];

		while (q->tail != q->head)
			page_pool_put_full_page(x->pool,
						q->slot[q->tail++ %
							BENCH_XCPU_QUEUE],
						false);
	}
	if (x->error)
		*what = "page allocation failed";
	return x->error;
}

static const struct time_bench_cpus_ops bench_xcpu_ops = {
	.roles = { "alloc", "return" },
	.stalled = { "the returning CPUs took no page",
		     "the allocating CPU sent no page" },
	.nr_cpus = bench_xcpu_nr_cpus,
	.begin = bench_xcpu_begin,
	.batch = bench_xcpu_batch,
	.done = bench_xcpu_done,
	.end = bench_xcpu_end,
};

static const struct time_bench_context bench_ctx_cpus =
	TIME_BENCH_CPUS_CONTEXT(&bench_xcpu_ops);

static void bench_pool_params(struct page_pool_params *params)
{
	memset(params, 0, sizeof(*params));
	params->order = 0;
	params->pool_size = BENCH_POOL_SIZE;
	params->nid = NUMA_NO_NODE;
	params->dma_dir = DMA_BIDIRECTIONAL;
}

/* May sleep: always in process context, never in the test's context. */
static int bench_pool_create(struct time_bench_run *run,
			     const struct page_pool_params *params)
{
	struct bench_pp *pp = run->priv;
	struct page_pool *pool = page_pool_create(params);

	if (IS_ERR(pool)) {
		pr_err("%s: page_pool_create failed: %ld\n", run->test->name,
		       PTR_ERR(pool));
		return PTR_ERR(pool);
	}
	pp->pool = pool;
	return 0;
}

static int bench_setup_lock(struct time_bench_run *run)
{
	spin_lock_init(&((struct bench_pp *)run->priv)->lock);
	return 0;
}

static int bench_setup_pool(struct time_bench_run *run)
{
	struct page_pool_params params;

	bench_pool_params(&params);
	return bench_pool_create(run, &params);
}

static int bench_setup_frag_pool(struct time_bench_run *run)
{
	struct page_pool_params params;

	bench_pool_params(&params);
	params.flags = BENCH_PP_FLAG_FRAG;
	return bench_pool_create(run, &params);
}

/* The pool of the NAPI the test's chunks run in, as drivers bind it. */
static int bench_setup_napi_pool(struct time_bench_run *run)
{
	struct page_pool_params params;

	bench_pool_params(&params);
	bench_pp_bind_napi(&params, &bench_napi.napi);
	return bench_pool_create(run, &params);
}

/*
 * The NAPI's pool, where a page given back without allow_direct must
 * still reach the cache: page_pool_napi_local() sees the NAPI polled on
 * this CPU.  One page first, from the page allocator, then the probe: a
 * kernel without that check sends the page to the ring, and the test is
 * skipped.
 */
static int bench_setup_napi_aware_pool(struct time_bench_run *run)
{
	enum bench_path path;
	int ret = bench_setup_napi_pool(run);
	s64 ran;

	if (ret)
		return ret;
	ran = time_bench_run_untimed(run, 1);
	if (ran != 1) {
		if (ran < 0)
			return ran;
		pr_err("%s: page allocation failed while warming up\n",
		       run->test->name);
		return -ENOMEM;
	}
	path = bench_probe_path(run);
	if (path == BENCH_PATH_CACHE)
		return 0;
	return time_bench_skip(run,
			       "kernel has no page_pool_napi_local(): the page went to the %s",
			       bench_path_names[path]);
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
static int bench_setup_dma_pool(struct time_bench_run *run)
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

/* The pool, and a queue to each returning CPU. */
static int bench_setup_xcpu(struct time_bench_run *run)
{
	struct bench_pp *pp = run->priv;
	unsigned int nr = return_cpus.val;
	int ret = bench_setup_pool(run);

	if (ret)
		return ret;
	pp->xcpu = kzalloc(struct_size(pp->xcpu, q, nr), GFP_KERNEL);
	if (!pp->xcpu)
		return -ENOMEM;
	pp->xcpu->pool = pp->pool;
	pp->xcpu->nr_queues = nr;
	return 0;
}

/*
 * The tests, one row each: name, run_flags bit, context and body, then
 * what else the test has: its setup, why this kernel cannot run it, what
 * it must do (the bench_expect_* above), the tests it must be cheaper
 * than and its twin.  no-softirq-page_pool01 and the
 * softirq fast path run the same code when both recycle into the cache
 * (6.1 recycles into the ring from process context); the other
 * no-softirq tests are no twins: the ring takes its lock with BHs off
 * in process context (+9 instructions on 7.2), and the allocator's work
 * varies by hundreds.  A plain load runs all of them in this order;
 * bits 0-6 are the legacy benchmark's nine tests.  The run_flags mask,
 * the parameter descriptions and the kselftest's checks derive from
 * here: each use defines BENCH_TEST() to take what it needs from a row.
 */
#define BENCH_TESTS BENCH_TABLE(					\
	BENCH_TEST("for_loop", 0, process, bench_for_loop)		\
	BENCH_TEST("atomic_inc", 0, process, bench_atomic_inc)		\
	BENCH_TEST("lock", 0, process, bench_lock,			\
		   .setup = bench_setup_lock)				\
	BENCH_TEST("no-softirq-page_pool01", 1, process, bench_pp_fast_path, \
		   .setup = bench_setup_pool, .expect = &bench_expect_any, \
		   .twin = "tasklet_page_pool01_fast_path")		\
	BENCH_TEST("no-softirq-page_pool02", 2, process, bench_pp_ptr_ring, \
		   .setup = bench_setup_pool, .expect = &bench_expect_ring, \
		   .cheaper_than = "no-softirq-page_pool03")		\
	BENCH_TEST("no-softirq-page_pool03", 3, process, bench_pp_slow,	\
		   .setup = bench_setup_pool,				\
		   .expect = &bench_expect_allocator)			\
	BENCH_TEST("tasklet_page_pool01_fast_path", 4, softirq,		\
		   bench_pp_fast_path,					\
		   .setup = bench_setup_pool, .expect = &bench_expect_cache, \
		   .cheaper_than = "tasklet_page_pool02_ptr_ring,"	\
				   "tasklet_page_pool04_napi_aware")	\
	BENCH_TEST("tasklet_page_pool02_ptr_ring", 5, softirq,		\
		   bench_pp_ptr_ring,					\
		   .setup = bench_setup_pool, .expect = &bench_expect_ring, \
		   .cheaper_than = "tasklet_page_pool03_slow")		\
	BENCH_TEST("tasklet_page_pool03_slow", 6, softirq, bench_pp_slow, \
		   .setup = bench_setup_pool,				\
		   .expect = &bench_expect_allocator)			\
	BENCH_TEST("tasklet_page_pool04_napi_aware", 7, napi,		\
		   bench_pp_napi_aware,					\
		   .setup = bench_setup_napi_aware_pool,		\
		   .unsupported = BENCH_PP_NAPI_LOCAL_UNSUPPORTED,	\
		   .expect = &bench_expect_cache)			\
	BENCH_TEST("tasklet_page_pool05_dma_fast_path", 8, softirq,	\
		   bench_pp_fast_path,					\
		   .setup = bench_setup_dma_pool,			\
		   .expect = &bench_expect_cache,			\
		   .cheaper_than = "tasklet_page_pool06_dma_ptr_ring")	\
	BENCH_TEST("tasklet_page_pool06_dma_ptr_ring", 9, softirq,	\
		   bench_pp_ptr_ring,					\
		   .setup = bench_setup_dma_pool,			\
		   .expect = &bench_expect_ring,			\
		   .cheaper_than = "tasklet_page_pool07_dma_slow")	\
	BENCH_TEST("tasklet_page_pool07_dma_slow", 10, softirq, bench_pp_slow, \
		   .setup = bench_setup_dma_pool,			\
		   .expect = &bench_expect_allocator)			\
	BENCH_TEST("tasklet_page_pool08_frag", 11, softirq, bench_pp_frag, \
		   .setup = bench_setup_frag_pool,			\
		   .expect = &bench_expect_frag)			\
	BENCH_TEST("tasklet_page_pool09_bulk", 12, softirq, bench_pp_bulk, \
		   .setup = bench_setup_pool, .expect = &bench_expect_ring, \
		   .cheaper_than = "tasklet_page_pool02_ptr_ring")	\
	BENCH_TEST("tasklet_page_pool10_netmem", 13, softirq, bench_pp_netmem, \
		   .setup = bench_setup_pool,				\
		   .unsupported = BENCH_NETMEM_UNSUPPORTED,		\
		   .expect = &bench_expect_cache)			\
	BENCH_TEST("napi_page_pool01_fast_path", 14, napi, bench_pp_fast_path, \
		   .setup = bench_setup_pool, .expect = &bench_expect_cache, \
		   .cheaper_than = "napi_page_pool02_ptr_ring")		\
	BENCH_TEST("napi_page_pool02_ptr_ring", 15, napi, bench_pp_ptr_ring, \
		   .setup = bench_setup_pool, .expect = &bench_expect_ring) \
	BENCH_TEST("napi_page_pool03_skb_bound", 16, napi, bench_skb_free, \
		   .setup = bench_setup_napi_pool,			\
		   .unsupported = BENCH_PP_NAPI_UNSUPPORTED,		\
		   .expect = &bench_expect_cache)			\
	BENCH_TEST("napi_page_pool04_skb_unbound", 17, napi, bench_skb_free, \
		   .setup = bench_setup_pool, .expect = &bench_expect_ring) \
	BENCH_TEST("cross_cpu_page_pool01_return", 18, cpus, NULL,	\
		   .setup = bench_setup_xcpu, .expect = &bench_expect_xcpu))
/* One macro argument: the rows are one table, not many statements. */
#define BENCH_TABLE(...)	__VA_ARGS__

#define BENCH_CTX_process	(&time_bench_process)
#define BENCH_CTX_softirq	(&time_bench_softirq)
#define BENCH_CTX_napi		(&bench_ctx_napi)
#define BENCH_CTX_cpus		(&bench_ctx_cpus)

#define BENCH_TEST(test_name, test_bit, ctx, test_body, ...)		\
	{ .name = test_name, .bit = test_bit, .context = BENCH_CTX_##ctx, \
	  .body = test_body, __VA_ARGS__ },
static const struct time_bench_test bench_tests[] = {
	BENCH_TESTS
};

#undef BENCH_TEST

static struct bench_pp_result bench_pp_results[ARRAY_SIZE(bench_tests)];

static struct time_bench_params bench_params = TIME_BENCH_PARAMS_INIT;

module_param_cb(loops, &time_bench_uint_param_ops, &bench_params.loops, 0444);
__MODULE_PARM_TYPE(loops, "uint");
MODULE_PARM_DESC(loops, "Iterations per repetition, " TIME_BENCH_LOOPS_ACCEPTED
		 " (default: as many as fit in time_ms)");
module_param_cb(run_flags, &time_bench_uint_param_ops, &bench_params.run_flags,
		0444);
__MODULE_PARM_TYPE(run_flags, "uint");
#define BENCH_TEST(name, bit, ...)	" " #bit "=" name
MODULE_PARM_DESC(run_flags,
		 "Tests to run, a bit mask of these bits=tests (default: all; with tests=, both select):"
		 BENCH_TESTS);
#undef BENCH_TEST
module_param_cb(tests, &time_bench_tests_param_ops, &bench_params, 0444);
__MODULE_PARM_TYPE(tests, "string");
#define BENCH_TEST(name, ...)	" " name
MODULE_PARM_DESC(tests,
		 "Tests to run by name, separated by commas: a name ending in '*' selects the tests it begins, 'legacy' the nine of bits 0-6, 'all' every test (default: all); names:"
		 BENCH_TESTS);
#undef BENCH_TEST
module_param_cb(time_ms, &time_bench_uint_param_ops, &bench_params.time_ms,
		0444);
__MODULE_PARM_TYPE(time_ms, "uint");
MODULE_PARM_DESC(time_ms, "Timed duration per test in ms, all repetitions together, when loops is not given, "
		 TIME_BENCH_TIME_MS_ACCEPTED " (default: "
		 TIME_BENCH_TIME_MS_DEFAULTS ")");
module_param_cb(reps, &time_bench_uint_param_ops, &bench_params.reps, 0444);
__MODULE_PARM_TYPE(reps, "uint");
MODULE_PARM_DESC(reps, "Repetitions of each test, " TIME_BENCH_REPS_ACCEPTED
		 " (default: " TIME_BENCH_REPS_DEFAULTS
		 ", or 1 when loops is given)");
module_param_cb(return_cpus, &time_bench_uint_param_ops, &return_cpus, 0444);
__MODULE_PARM_TYPE(return_cpus, "uint");
MODULE_PARM_DESC(return_cpus, "CPUs that give pages back in the cross-CPU test, 1 up to the online CPUs minus one (default 1)");

/* Ranges the parser cannot know; one dmesg line per bad value. */
static int bench_check_params(void)
{
	if (return_cpus.given &&
	    (!return_cpus.val || return_cpus.val >= num_online_cpus())) {
		pr_err("return_cpus=%u invalid: %u CPUs online; accepted: 1..%u (the online CPUs minus one)\n",
		       return_cpus.val, num_online_cpus(),
		       num_online_cpus() - 1);
		return -EINVAL;
	}
	return 0;
}

/* page_pool's counters before the timed repetitions. */
static int bench_before_reps(struct time_bench_run *run)
{
	struct bench_pp_result *res = &bench_pp_results[run->idx];
	struct page_pool *pool = ((struct bench_pp *)run->priv)->pool;

	if (pool) {
		res->allocated_before = bench_pp_pages_allocated(pool);
		res->released_before = bench_pp_pages_released(pool);
		bench_pp_stats_read(pool, res->stats_before);
	}
	return 0;
}

/* What the repetitions did to the pool, and where a page goes. */
static void bench_after_reps(struct time_bench_run *run)
{
	struct bench_pp_result *res = &bench_pp_results[run->idx];
	struct page_pool *pool = ((struct bench_pp *)run->priv)->pool;
	int i;

	if (!pool)
		return;
	res->pages_allocated = bench_pp_pages_allocated(pool) -
			       res->allocated_before;
	res->pages_released = bench_pp_pages_released(pool) -
			      res->released_before;
	bench_pp_stats_read(pool, res->pp_stats);
	for (i = 0; i < BENCH_PP_NR_STATS; i++)
		res->pp_stats[i] -= res->stats_before[i];
	res->path = bench_probe_path(run);
}

/* After the context's teardown: a NAPI's pool sees its NAPI disabled. */
static void bench_teardown(struct time_bench_run *run)
{
	struct bench_pp *pp = run->priv;

	kfree(pp->xcpu);
	if (pp->pool)
		page_pool_destroy(pp->pool);
}

/* Formats the page_pool counters as " name=value..." into @buf. */
static void bench_format_pp_stats(char *buf, size_t size,
				  const struct bench_pp_result *res)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < BENCH_PP_NR_STATS; i++)
		len += scnprintf(buf + len, size - len, " %s=%llu",
				 bench_pp_stat_names[i], res->pp_stats[i]);
}

static void bench_report(unsigned int idx)
{
	const struct bench_pp_result *res = &bench_pp_results[idx];
	char buf[BENCH_PP_STATS_LEN];

	if (res->path == BENCH_PATH_NONE || !BENCH_HAVE_PP_STATS)
		return;
	bench_format_pp_stats(buf, sizeof(buf), res);
	pr_info("%s page_pool stats:%s\n", bench_tests[idx].name, buf);
}

static void bench_seq_header(struct seq_file *m)
{
	seq_printf(m, "page_pool_stats: %s\n",
		   BENCH_HAVE_PP_STATS ? "yes" : "no");
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
				    const struct time_bench_expect *e)
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
			   BENCH_XCPU_QUEUE * return_cpus.val +
			   PP_ALLOC_CACHE_REFILL);
		break;
	default:
		seq_puts(m, " expect_allocated_max=-");
	}
}

/* " expect_path=a,b": the paths the test's row accepts, or "-" */
static void bench_seq_expect_path(struct seq_file *m,
				  const struct time_bench_expect *e)
{
	const char *sep = "";
	int i;

	seq_puts(m, " expect_path=");
	for_each_set_bit(i, &e->paths, BENCH_PATH_UNKNOWN) {
		seq_printf(m, "%s%s", sep, bench_path_names[i]);
		sep = ",";
	}
	if (!e->paths)
		seq_putc(m, '-');
}

/* What the test's row says it must do, for the kselftest to check. */
static void bench_seq_expect(struct seq_file *m,
			     const struct time_bench_expect *e, u64 iterations)
{
	int i;

	bench_seq_expect_path(m, e);
	bench_seq_allocated_max(m, e);
	if (e->released_all)
		seq_printf(m, " expect_released=%llu", iterations);
	else
		seq_puts(m, " expect_released=-");
	seq_puts(m, " expect_stats=");
	for (i = 0; i < BENCH_MAX_STAT_SUMS && e->stats[i].counters; i++)
		bench_seq_stat_sum(m, i ? "," : "", &e->stats[i], iterations);
	if (!i)
		seq_putc(m, '-');
}

/* Baselines use no page_pool: they expect nothing of it. */
static const struct time_bench_expect bench_expect_none = {
	.allocated = BENCH_ALLOC_ANY,
};

static void bench_seq_test(struct seq_file *m, unsigned int idx,
			   u64 iterations)
{
	const struct bench_pp_result *res = &bench_pp_results[idx];

	seq_printf(m, " path=%s pages_allocated=%llu pages_released=%llu",
		   bench_path_names[res->path], res->pages_allocated,
		   res->pages_released);
	if (res->path != BENCH_PATH_NONE && BENCH_HAVE_PP_STATS) {
		char buf[BENCH_PP_STATS_LEN];

		bench_format_pp_stats(buf, sizeof(buf), res);
		seq_puts(m, buf);
	}
	bench_seq_expect(m, bench_tests[idx].expect ?: &bench_expect_none,
			 iterations);
}

/* A test this kernel cannot run: the path its checks would accept. */
static void bench_seq_skip(struct seq_file *m, unsigned int idx)
{
	bench_seq_expect_path(m, bench_tests[idx].expect ?: &bench_expect_none);
}

static const struct time_bench_config_opt bench_config_opts[] = {
	{ "page_pool_stats", IS_ENABLED(CONFIG_PAGE_POOL_STATS), false },
};

static struct time_bench_suite bench_suite = {
	.name = BENCH_NAME,
	.subject = "page_pool",
	.tests = bench_tests,
	.nr_tests = ARRAY_SIZE(bench_tests),
	.legacy_bits = BENCH_LEGACY_BITS,
	.params = &bench_params,
	.priv_size = sizeof(struct bench_pp),
	.chunk_batch = BENCH_PP_REFILL_BATCH,
	.short_run = "page allocation failed",
	.config = bench_config_opts,
	.nr_config = ARRAY_SIZE(bench_config_opts),
	.validate = bench_check_params,
	.teardown = bench_teardown,
	.before_reps = bench_before_reps,
	.after_reps = bench_after_reps,
	.report = bench_report,
	.seq_header = bench_seq_header,
	.seq_test = bench_seq_test,
	.seq_skip = bench_seq_skip,
};

/* The devices a load made, kept for its results until it is removed. */
static void bench_release(void)
{
	bench_napi_remove();
	bench_dma_device_remove();
}

static int __init bench_page_pool_simple_init(void)
{
	int ret = time_bench_suite_prepare(&bench_suite);

	if (ret)
		return ret;
	if (!BENCH_HAVE_PP_STATS)
		pr_info("page_pool stats unavailable: kernel built without CONFIG_PAGE_POOL_STATS\n");
	ret = time_bench_suite_run(&bench_suite);
	if (ret)
		bench_release();
	return ret;
}
module_init(bench_page_pool_simple_init);

static void __exit bench_page_pool_simple_exit(void)
{
	time_bench_suite_remove(&bench_suite);
	bench_release();
}
module_exit(bench_page_pool_simple_exit);

MODULE_DESCRIPTION("Micro-benchmark of page_pool allocation and recycle paths");
MODULE_LICENSE("GPL");
