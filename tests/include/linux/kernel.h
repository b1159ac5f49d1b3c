/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/kernel.h>: what the engine's files use of it. */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H

#include <stdarg.h>
#include <stdio.h>
#include <linux/kconfig.h>
#include <linux/printk.h>
#include <linux/types.h>

#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))

/* snprintf() that returns what it wrote, not what it wanted to */
static inline __printf(3, 4)
int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (len < 0 || !size)
		return 0;
	return (size_t)len < size ? len : (int)size - 1;
}

#endif /* _LINUX_KERNEL_H */
