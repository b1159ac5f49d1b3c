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

/*
 * Interrupts x86 counts apart from kstat's irqs_sum (the local timer,
 * IPIs, irq_work, NMIs), per CPU in irq_stat: named fields until 7.x
 * made them an array of counts.  arch_irq_stat_cpu(), which sums them,
 * is not exported; irq_stat is, on every kernel.  @timer, @nmi: those
 * two; @other: the rest, the fields' sum.  Before the array every field
 * from __nmi_count to the end is an unsigned int (the struct's tail is
 * padding, constant, which the differences taken of these cancel).
 */
#ifdef CONFIG_X86
#include <asm/hardirq.h>
#include <asm/msr.h>

static inline void time_bench_arch_irqs(int cpu, u64 *timer, u64 *nmi,
					u64 *other)
{
	const irq_cpustat_t *st = &per_cpu(irq_stat, cpu);
	unsigned int i, n, i_timer = UINT_MAX, i_nmi;
	const unsigned int *v;
	u64 x, sum = 0;

	*timer = 0;
#ifdef BENCH_HAVE_IRQ_STAT_COUNTS
	v = st->counts;
	n = IRQ_COUNT_MAX;
	i_nmi = IRQ_COUNT_NMI;
#ifdef CONFIG_X86_LOCAL_APIC
	i_timer = IRQ_COUNT_APIC_TIMER;
#endif
#else
	v = (const unsigned int *)((const char *)st +
				   offsetof(irq_cpustat_t, __nmi_count));
	n = (sizeof(*st) - offsetof(irq_cpustat_t, __nmi_count)) / sizeof(*v);
	i_nmi = 0;
#ifdef CONFIG_X86_LOCAL_APIC
	i_timer = (offsetof(irq_cpustat_t, apic_timer_irqs) -
		   offsetof(irq_cpustat_t, __nmi_count)) / sizeof(*v);
#endif
#endif
	/* One read of each: an interrupt between two reads of one field
	 * would make @other go back
	 */
	for (i = 0; i < n; i++) {
		x = READ_ONCE(v[i]);
		sum += x;
		if (i == i_timer)
			*timer = x;
		else if (i == i_nmi)
			*nmi = x;
	}
	*other = sum - *timer - *nmi;
}

/* The SMIs this CPU took (MSR_SMI_COUNT): 0, or the MSR read's error. */
static inline int time_bench_read_smi(u64 *count)
{
#ifdef BENCH_HAVE_RDMSRQ_SAFE
	return rdmsrq_safe(MSR_SMI_COUNT, count);
#else
	return rdmsrl_safe(MSR_SMI_COUNT, count);
#endif
}
#else
static inline void time_bench_arch_irqs(int cpu, u64 *timer, u64 *nmi,
					u64 *other)
{
	*timer = 0;
	*nmi = 0;
	*other = 0;
}

static inline int time_bench_read_smi(u64 *count)
{
	return -EOPNOTSUPP;
}
#endif

#endif /* _TIME_BENCH_COMPAT_H */
