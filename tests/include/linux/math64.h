/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/math64.h>: kernel semantics, plain C division. */
#ifndef _LINUX_MATH64_H
#define _LINUX_MATH64_H

#include <linux/types.h>

/* u64 / u64, remainder in *@remainder */
static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

/* u64 / u64 */
static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

/* u64 / u32, remainder in *@remainder */
static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

/* u64 / u32 */
static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

/* a * b / c with a 128-bit product; the quotient must fit in u64 */
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)((__uint128_t)a * b / c);
}

#endif /* _LINUX_MATH64_H */
