/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/cpumask.h>: the program defines the machine. */
#ifndef _LINUX_CPUMASK_H
#define _LINUX_CPUMASK_H

unsigned int num_online_cpus(void);

#endif /* _LINUX_CPUMASK_H */
