// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: string tables. Each distinct string (any bytes, with
 * a length) gets a number in the order first seen and is kept once, so
 * that test names are found in constant time however many there are,
 * and equal strings compare as equal numbers.
 *
 * Open addressing with linear probing over a power-of-two number of
 * slots, at most half full; FNV-1a hashes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench_compare.h"

static uint64_t hash_bytes(const void *s, size_t len)
{
	const unsigned char *p = s;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The slot where @s is, or the empty one where it would go. */
static size_t *find_slot(const struct strtab *t, const void *s, size_t len)
{
	size_t mask = t->nr_slots - 1;
	size_t i = (size_t)hash_bytes(s, len) & mask;

	for (;; i = (i + 1) & mask) {
		size_t *slot = &t->slots[i];

		if (!*slot || (t->len[*slot - 1] == len &&
			       !memcmp(t->str[*slot - 1], s, len)))
			return slot;
	}
}

static void rehash(struct strtab *t)
{
	size_t n = t->nr_slots ? t->nr_slots * 2 : 64, i;

	free(t->slots);
	t->nr_slots = n;
	t->slots = xcalloc(n, sizeof(*t->slots));
	for (i = 0; i < t->nr; i++)
		*find_slot(t, t->str[i], t->len[i]) = i + 1;
}

/* The number of the @len bytes at @s, added if new (*@added then). */
size_t strtab_id(struct strtab *t, const void *s, size_t len, bool *added)
{
	size_t *slot = t->nr_slots ? find_slot(t, s, len) : NULL;
	char *copy;

	if (slot && *slot) {
		if (added)
			*added = false;
		return *slot - 1;
	}
	if (2 * (t->nr + 1) > t->nr_slots)
		rehash(t);
	if (t->nr == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->str = xrealloc(t->str, t->cap * sizeof(*t->str));
		t->len = xrealloc(t->len, t->cap * sizeof(*t->len));
	}
	copy = xrealloc(NULL, len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	t->str[t->nr] = copy;
	t->len[t->nr] = len;
	*find_slot(t, s, len) = ++t->nr;
	if (added)
		*added = true;
	return t->nr - 1;
}

/* Whether the @len bytes at @s are in @t, and their number in *@id. */
bool strtab_find(const struct strtab *t, const void *s, size_t len,
		 size_t *id)
{
	size_t *slot = t->nr_slots ? find_slot(t, s, len) : NULL;

	if (!slot || !*slot)
		return false;
	*id = *slot - 1;
	return true;
}

void strtab_free(struct strtab *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->str[i]);
	free(t->str);
	free(t->len);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
