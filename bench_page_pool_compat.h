/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version difference the benchmark has to know about.
 *
 * The path probes read a few struct page_pool fields that are not API;
 * they are wrapped here so a layout change is fixed in one place.
 */
#ifndef _BENCH_PAGE_POOL_COMPAT_H
#define _BENCH_PAGE_POOL_COMPAT_H

/* 6.6 split <net/page_pool.h> into types.h and helpers.h; the Makefile
 * tests which one the tree has.
 */
#ifdef BENCH_HAVE_PAGE_POOL_HELPERS_H
#include <net/page_pool/helpers.h>
#else
#include <net/page_pool.h>
#endif
#include <linux/string.h>

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
	vals[BENCH_PP_ALLOC_SLOW_HIGH_ORDER] = stats.alloc_stats.slow_high_order;
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

#endif /* _BENCH_PAGE_POOL_COMPAT_H */
