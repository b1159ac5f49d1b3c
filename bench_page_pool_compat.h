/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version difference the page_pool tests have to know
 * about; the engine's are its own, in time_bench_compat.h.  Out of
 * tree, the Makefile's feature tests choose from what the tree's
 * headers have, not from its version, so backports build; the copy
 * "make series" puts into a kernel tree keeps only the branches of that
 * tree.
 *
 * The path probes read a few struct page_pool fields that are not API;
 * they are wrapped here so a layout change is fixed in one place.
 */
#ifndef _BENCH_PAGE_POOL_COMPAT_H
#define _BENCH_PAGE_POOL_COMPAT_H

/* 6.6 split <net/page_pool.h> into types.h and helpers.h. */
#ifdef BENCH_HAVE_PAGE_POOL_HELPERS_H
#include <net/page_pool/helpers.h>
#else
#include <net/page_pool.h>
#endif
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/string.h>

/*
 * Pages an empty alloc cache is refilled with at a time, from the ring
 * or the page allocator (PP_ALLOC_CACHE_REFILL): every test's timed
 * chunks hold a whole power of two of them (struct time_bench_suite's
 * chunk_batch).
 */
#ifdef PP_ALLOC_CACHE_REFILL
#define BENCH_PP_REFILL_BATCH	PP_ALLOC_CACHE_REFILL
#else
/* page_pool's own value in every tree that has the macro, 6.1 to 7.2 */
#define BENCH_PP_REFILL_BATCH	64
#endif

/* Pages the pool has taken from the page allocator. */
static inline u32 bench_pp_pages_allocated(const struct page_pool *pool)
{
	return READ_ONCE(pool->pages_state_hold_cnt);
}

/* Pages the pool has handed back to the page allocator. */
static inline u32 bench_pp_pages_released(const struct page_pool *pool)
{
	return atomic_read(&pool->pages_state_release_cnt);
}

/* Pages in the lockless per-pool cache that direct recycling fills. */
static inline u32 bench_pp_cache_count(const struct page_pool *pool)
{
	return READ_ONCE(pool->alloc.count);
}

/* Moves each time a page is returned through the ptr_ring. */
static inline int bench_pp_ring_producer(const struct page_pool *pool)
{
	return READ_ONCE(pool->ring.producer);
}

/* page_pool's own counters, in the order of bench_pp_stat_names[]. */
enum bench_pp_stat {
	BENCH_PP_ALLOC_FAST,
	BENCH_PP_ALLOC_SLOW,
	BENCH_PP_ALLOC_SLOW_HIGH_ORDER,
	BENCH_PP_ALLOC_EMPTY,
	BENCH_PP_ALLOC_REFILL,
	BENCH_PP_ALLOC_WAIVE,
	BENCH_PP_RECYCLE_CACHED,
	BENCH_PP_RECYCLE_CACHE_FULL,
	BENCH_PP_RECYCLE_RING,
	BENCH_PP_RECYCLE_RING_FULL,
	BENCH_PP_RECYCLE_RELEASED_REFCNT,
	BENCH_PP_NR_STATS
};

#ifdef CONFIG_PAGE_POOL_STATS
#define BENCH_HAVE_PP_STATS true

/* Reads the pool's counters; the recycle ones are summed over CPUs. */
static inline void bench_pp_stats_read(struct page_pool *pool, u64 *vals)
{
	struct page_pool_stats stats = { };

	page_pool_get_stats(pool, &stats);
	vals[BENCH_PP_ALLOC_FAST] = stats.alloc_stats.fast;
	vals[BENCH_PP_ALLOC_SLOW] = stats.alloc_stats.slow;
	vals[BENCH_PP_ALLOC_SLOW_HIGH_ORDER] =
		stats.alloc_stats.slow_high_order;
	vals[BENCH_PP_ALLOC_EMPTY] = stats.alloc_stats.empty;
	vals[BENCH_PP_ALLOC_REFILL] = stats.alloc_stats.refill;
	vals[BENCH_PP_ALLOC_WAIVE] = stats.alloc_stats.waive;
	vals[BENCH_PP_RECYCLE_CACHED] = stats.recycle_stats.cached;
	vals[BENCH_PP_RECYCLE_CACHE_FULL] = stats.recycle_stats.cache_full;
	vals[BENCH_PP_RECYCLE_RING] = stats.recycle_stats.ring;
	vals[BENCH_PP_RECYCLE_RING_FULL] = stats.recycle_stats.ring_full;
	vals[BENCH_PP_RECYCLE_RELEASED_REFCNT] =
		stats.recycle_stats.released_refcnt;
}
#else
#define BENCH_HAVE_PP_STATS false

static inline void bench_pp_stats_read(struct page_pool *pool, u64 *vals)
{
	memset(vals, 0, BENCH_PP_NR_STATS * sizeof(*vals));
}
#endif

/* Splitting pages into fragments: 6.1 asks the pool for it with a flag,
 * later kernels split any pool's pages.
 */
#ifdef PP_FLAG_PAGE_FRAG
#define BENCH_PP_FLAG_FRAG	PP_FLAG_PAGE_FRAG
#else
#define BENCH_PP_FLAG_FRAG	0
#endif

/* The netmem API (6.12: page_pool_alloc_netmems()).  NULL, or why this
 * kernel cannot run the netmem test.
 */
#ifdef BENCH_HAVE_NETMEM
#define BENCH_NETMEM_UNSUPPORTED	NULL

/* One netmem from @pool and straight back into its lockless cache. */
static __always_inline bool bench_netmem_cycle(struct page_pool *pool,
					       gfp_t gfp)
{
	netmem_ref netmem = page_pool_alloc_netmems(pool, gfp);

	if (unlikely(!netmem))
		return false;
	page_pool_put_full_netmem(pool, netmem, true);
	return true;
}
#else
#define BENCH_NETMEM_UNSUPPORTED \
	"kernel lacks the netmem API (page_pool_alloc_netmems)"

static inline bool bench_netmem_cycle(struct page_pool *pool, gfp_t gfp)
{
	return false;
}
#endif

/* A pool bound to the NAPI instance that consumes its pages recycles
 * skb pages directly (6.5+: page_pool_params.napi).
 */
#ifdef BENCH_HAVE_PP_NAPI
#define BENCH_PP_NAPI_UNSUPPORTED	NULL

static inline void bench_pp_bind_napi(struct page_pool_params *params,
				      struct napi_struct *napi)
{
	params->napi = napi;
}
#else
#define BENCH_PP_NAPI_UNSUPPORTED \
	"kernel cannot bind a page_pool to its NAPI (no page_pool_params.napi)"

static inline void bench_pp_bind_napi(struct page_pool_params *params,
				      struct napi_struct *napi)
{
}
#endif

/* page_pool_put_page(, false) finds out by itself that it may recycle
 * into the lockless cache where page_pool_napi_local() sees the pool's
 * NAPI polled on this CPU (6.12).  A kernel without page_pool_params.napi
 * (6.1) cannot have it; one with .napi but without that check is told
 * at run time, by where the page went.
 */
#ifdef BENCH_HAVE_PP_NAPI
#define BENCH_PP_NAPI_LOCAL_UNSUPPORTED	NULL
#else
#define BENCH_PP_NAPI_LOCAL_UNSUPPORTED \
	"kernel has no page_pool_napi_local() (no page_pool_params.napi)"
#endif

/* The bulk return: page_pool_put_page_bulk(pool, addresses, n) until
 * 6.13; from 6.14 page_pool_put_netmem_bulk(netmems, n) finds each
 * netmem's pool itself.  BENCH_BULK_REF is what the array holds.
 */
#ifdef BENCH_HAVE_PP_PUT_NETMEM_BULK
#define BENCH_BULK_REF		netmem_ref

static __always_inline netmem_ref bench_bulk_ref(struct page *page)
{
	return page_to_netmem(page);
}

static __always_inline void bench_pp_put_bulk(struct page_pool *pool,
					      netmem_ref *refs, unsigned int n)
{
	page_pool_put_netmem_bulk(refs, n);
}
#else
#define BENCH_BULK_REF		void *

static __always_inline void *bench_bulk_ref(struct page *page)
{
	return page_address(page);
}

static __always_inline void bench_pp_put_bulk(struct page_pool *pool,
					      void **refs, unsigned int n)
{
	page_pool_put_page_bulk(pool, refs, n);
}
#endif

/* A net device that only carries NAPI instances: 6.10+ allocates it,
 * older kernels initialise one the caller allocated.
 */
#ifdef BENCH_HAVE_ALLOC_NETDEV_DUMMY
static inline struct net_device *bench_alloc_dummy_netdev(void)
{
	return alloc_netdev_dummy(0);
}

static inline void bench_free_dummy_netdev(struct net_device *dev)
{
	free_netdev(dev);
}
#else
static inline struct net_device *bench_alloc_dummy_netdev(void)
{
	struct net_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);

	if (dev)
		init_dummy_netdev(dev);
	return dev;
}

static inline void bench_free_dummy_netdev(struct net_device *dev)
{
	kfree(dev);
}
#endif

/* True inside @napi's poll on this CPU.  Kernels before 6.4 do not note
 * the polling CPU; being scheduled is all they tell.
 */
static inline bool bench_napi_polled_here(const struct napi_struct *napi)
{
	if (!test_bit(NAPI_STATE_SCHED, &napi->state))
		return false;
#ifdef BENCH_HAVE_NAPI_LIST_OWNER
	return READ_ONCE(napi->list_owner) == raw_smp_processor_id();
#else
	return true;
#endif
}

#endif /* _BENCH_PAGE_POOL_COMPAT_H */
