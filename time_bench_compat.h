/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's kernel differences.  A test family keeps its own in a
 * compat header of its own and never sees these.  The Makefile's
 * feature tests (bench_features) choose by what the tree's headers
 * have, not by its version, so backports build too.
 *
 * Included directly by the files that need it, not through
 * time_bench_internal.h: the engine files tests/ builds in user space
 * include that one, and would need stubs of slab and cpuid for nothing.
 */
#ifndef _TIME_BENCH_COMPAT_H
#define _TIME_BENCH_COMPAT_H

#include <linux/slab.h>

/* cpuid() moved from <asm/processor.h> to <asm/cpuid/api.h> (6.16). */
#ifdef CONFIG_X86
#ifdef BENCH_HAVE_ASM_CPUID_API_H
#include <asm/cpuid/api.h>
#else
#include <asm/processor.h>
#endif
#endif

/* kzalloc_obj() sizes an allocation by the type of what it is assigned
 * to; kernels before it spell out the sizeof.
 */
#ifdef BENCH_HAVE_KZALLOC_OBJ
#define time_bench_kzalloc_obj(ptr)	kzalloc_obj(*(ptr), GFP_KERNEL)
#else
#define time_bench_kzalloc_obj(ptr)	kzalloc(sizeof(*(ptr)), GFP_KERNEL)
#endif

#endif /* _TIME_BENCH_COMPAT_H */
