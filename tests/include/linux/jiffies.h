/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/jiffies.h>: Debian's HZ, its tick. */
#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H

#include <linux/time64.h>

#define HZ		250
#define TICK_NSEC	((NSEC_PER_SEC + HZ / 2) / HZ)

#endif /* _LINUX_JIFFIES_H */
