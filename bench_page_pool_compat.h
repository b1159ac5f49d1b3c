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

#endif /* _BENCH_PAGE_POOL_COMPAT_H */
