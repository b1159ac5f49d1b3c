/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/bitops.h>: bitmaps of unsigned longs. */
#ifndef _LINUX_BITOPS_H
#define _LINUX_BITOPS_H

#include <linux/types.h>

#define BITS_PER_LONG		(8 * sizeof(long))
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG) & 1;
}

/* The first set bit from @offset on, or @size if none is */
static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long offset)
{
	while (offset < size && !test_bit(offset, addr))
		offset++;
	return offset;
}

/* for_each_set_bit()'s walk, each argument evaluated once; an unsigned int bit */
struct bit_walk {
	unsigned int *bit;
	const unsigned long *addr;
	unsigned long size;
	unsigned long next;
};

static inline struct bit_walk bit_walk_start(unsigned int *bit,
					     const unsigned long *addr,
					     unsigned long size)
{
	return (struct bit_walk){ .bit = bit, .addr = addr, .size = size };
}

/* The next set bit into *walk->bit; false after the last one */
static inline bool bit_walk_next(struct bit_walk *walk)
{
	walk->next = find_next_bit(walk->addr, walk->size, walk->next);
	if (walk->next >= walk->size)
		return false;
	*walk->bit = walk->next++;
	return true;
}

#define for_each_set_bit(bit, addr, size)				\
	for (struct bit_walk __walk = bit_walk_start(&(bit), (addr), (size)); \
	     bit_walk_next(&__walk);)

#endif /* _LINUX_BITOPS_H */
