/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/types.h> so tests/ can build the engine. */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;

typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s8 __s8;
typedef s16 __s16;
typedef s32 __s32;
typedef s64 __s64;

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define S64_MAX		((s64)(U64_MAX >> 1))

/* From the kernel's <linux/compiler_attributes.h>, always there */
#ifndef __printf
#define __printf(a, b)	__attribute__((					\
	__format__(__printf__, a, b)))
#endif
#ifndef __always_unused
#define __always_unused	__attribute__((					\
	__unused__))
#endif

#endif /* _LINUX_TYPES_H */
