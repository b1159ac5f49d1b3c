// SPDX-License-Identifier: GPL-2.0
/*
 * bench-compare: string tables. Each distinct string (any bytes, with
 * a length) gets a number in the order first seen and is kept once, so
 * that test names are found in constant time however many there are,
 * and equal strings compare as equal numbers.
 *
 * Open addressing with linear probing over a power-of-two number of
 * slots, at most half full. The strings come from hostile input, so the
 * hash is keyed: SipHash-2-4 with a key of the table's own, drawn from
 * getrandom(2) when the table gets its first slots. With an unkeyed
 * hash (FNV-1a here until 2026) an input can be made of names whose
 * hashes agree in their low bits, which share one run of slots at every
 * table size: 100,000 of them took 99 s where other names took 2 s;
 * keyed, they take what other names take (doc/comparing.rst). Nothing
 * printed depends on the key: strings are numbered, and read back, in
 * the order first seen, never in the order of their slots.
 *
 * Layer: low, above util.c only; called by line.c, the parsers,
 * env.c and input.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "bench_compare.h"

static u64 rotl64(u64 x, unsigned int b)
{
	return x << b | x >> (64 - b);
}

/* The state of SipHash: four 64-bit words. */
struct sip {
	u64 v0, v1, v2, v3;
};

/* One SipRound: the ARX network of the SipHash paper. */
static void sip_round(struct sip *s)
{
	s->v0 += s->v1;
	s->v1 = rotl64(s->v1, 13);
	s->v1 ^= s->v0;
	s->v0 = rotl64(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = rotl64(s->v3, 16);
	s->v3 ^= s->v2;
	s->v0 += s->v3;
	s->v3 = rotl64(s->v3, 21);
	s->v3 ^= s->v0;
	s->v2 += s->v1;
	s->v1 = rotl64(s->v1, 17);
	s->v1 ^= s->v2;
	s->v2 = rotl64(s->v2, 32);
}

/* A message word: 2 compression rounds (the "2" of SipHash-2-4). */
static void sip_absorb(struct sip *s, u64 m)
{
	s->v3 ^= m;
	sip_round(s);
	sip_round(s);
	s->v0 ^= m;
}

/* @n (at most 8) bytes at @p as a little-endian word, whatever the CPU. */
static u64 load_le(const unsigned char *p, size_t n)
{
	u64 w = 0;

	while (n--)
		w |= (u64)p[n] << (8 * n);
	return w;
}

/*
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input
 * PRF", 2012) of the @len bytes at @s under the 128-bit @key, given as
 * its two little-endian halves.
 */
u64 siphash24(const u64 key[2], const void *s, size_t len)
{
	const unsigned char *p = s;
	struct sip st = {
		.v0 = key[0] ^ 0x736f6d6570736575ULL,	/* "somepseu" */
		.v1 = key[1] ^ 0x646f72616e646f6dULL,	/* "dorandom" */
		.v2 = key[0] ^ 0x6c7967656e657261ULL,	/* "lygenera" */
		.v3 = key[1] ^ 0x7465646279746573ULL,	/* "tedbytes" */
	};
	size_t left = len;

	for (; left >= 8; left -= 8, p += 8)
		sip_absorb(&st, load_le(p, 8));
	/* the last word: the bytes left, the length's low byte on top */
	sip_absorb(&st, load_le(p, left) | (u64)(len & 0xff) << 56);
	st.v2 ^= 0xff;
	sip_round(&st);
	sip_round(&st);
	sip_round(&st);
	sip_round(&st);
	return st.v0 ^ st.v1 ^ st.v2 ^ st.v3;
}

/*
 * Where getrandom(2) gives nothing (a kernel before 3.17, a seccomp
 * filter, an entropy pool not yet ready), what still differs from one
 * run to the next: the clocks, the process id and where ASLR put the
 * stack and the table, mixed through SipHash under a fixed key.
 */
static void fallback_key(const struct strtab *t, u64 key[2])
{
	static const u64 mix_key[2] = {
		0x62656e63682d636fULL, 0x6d706172652d6b79ULL,
	};
	static u64 calls;
	struct timespec rt = { 0 }, mono = { 0 };
	u64 seed[7];
	int i;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	seed[0] = (u64)rt.tv_sec;
	seed[1] = (u64)rt.tv_nsec;
	seed[2] = (u64)mono.tv_sec << 32 ^ (u64)mono.tv_nsec;
	seed[3] = (u64)getpid();
	seed[4] = (u64)(uintptr_t)&rt;
	seed[5] = (u64)(uintptr_t)t;
	calls++;
	for (i = 0; i < 2; i++) {
		seed[6] = calls << 1 | (u64)i;
		key[i] = siphash24(mix_key, seed, sizeof(seed));
	}
}

/* A key for @t, so that its slots cannot be predicted from its input. */
static void draw_key(struct strtab *t)
{
	unsigned char buf[16];
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(buf)) {
		n = getrandom(buf + got, sizeof(buf) - got, GRND_NONBLOCK);
		if (n > 0)
			got += (size_t)n;
		else if (n < 0 && errno != EINTR)
			break;
	}
	if (got == sizeof(buf)) {
		t->key[0] = load_le(buf, 8);
		t->key[1] = load_le(buf + 8, 8);
	} else {
		fallback_key(t, t->key);
	}
	t->keyed = true;
}

static size_t home_slot(const struct strtab *t, const void *s, size_t len)
{
	return (size_t)siphash24(t->key, s, len) & (t->nr_slots - 1);
}

/* The slot where @s is, or the empty one where it would go. */
static size_t *find_slot(const struct strtab *t, const void *s, size_t len)
{
	size_t mask = t->nr_slots - 1;
	size_t i = home_slot(t, s, len);

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

	if (!t->keyed)
		draw_key(t);
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

/*
 * How far lookups probe in @t: the longest run of slots a string's
 * lookup walks past its home slot, and the sum over all strings. For
 * the tests: cost stays linear only while both stay small.
 */
void strtab_probes(const struct strtab *t, size_t *longest, size_t *total)
{
	size_t i, d, mask = t->nr_slots - 1;

	*longest = 0;
	*total = 0;
	for (i = 0; i < t->nr; i++) {
		size_t at = home_slot(t, t->str[i], t->len[i]);

		for (d = 0; t->slots[(at + d) & mask] != i + 1; d++)
			;
		*total += d;
		if (d > *longest)
			*longest = d;
	}
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
