/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/string.h>: the C library's functions. */
#ifndef _LINUX_STRING_H
#define _LINUX_STRING_H

#include <string.h>

#endif /* _LINUX_STRING_H */
