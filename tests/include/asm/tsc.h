/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <asm/tsc.h> and the boot CPU's data it brings
 * along (<asm/processor.h>): the program defines the CPU's model name.
 */
#ifndef _ASM_X86_TSC_H
#define _ASM_X86_TSC_H

#include <linux/types.h>

struct cpuinfo_x86 {
	char x86_model_id[64];
};

extern struct cpuinfo_x86 boot_cpu_data;

static inline u64 rdtsc_ordered(void)
{
	return 0;
}

#endif /* _ASM_X86_TSC_H */
