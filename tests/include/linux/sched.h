/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for <linux/sched.h>: the preemption model of a
 * PREEMPT_DYNAMIC kernel booted as Debian's are, voluntary.
 */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/types.h>

static inline bool preempt_model_full(void)
{
	return false;
}

static inline bool preempt_model_voluntary(void)
{
	return true;
}

#endif /* _LINUX_SCHED_H */
