/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/mm.h>: the program defines the machine. */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

#include <linux/types.h>

bool want_init_on_alloc(unsigned int flags);	/* the kernel's gfp_t */
bool want_init_on_free(void);
bool debug_pagealloc_enabled(void);

#endif /* _LINUX_MM_H */
