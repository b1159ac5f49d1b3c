/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/time64.h> */
#ifndef _LINUX_TIME64_H
#define _LINUX_TIME64_H

#define NSEC_PER_SEC	1000000000L
#define NSEC_PER_USEC	1000L

#endif /* _LINUX_TIME64_H */
