/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/printk.h>: the kernel log is stderr. */
#ifndef _LINUX_PRINTK_H
#define _LINUX_PRINTK_H

#include <stdarg.h>
#include <stdio.h>
#include <linux/types.h>

static inline __printf(1, 2) void log_to_stderr(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

#define pr_err(fmt, ...)	log_to_stderr(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	log_to_stderr(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	log_to_stderr(fmt, ##__VA_ARGS__)

#endif /* _LINUX_PRINTK_H */
