// SPDX-License-Identifier: GPL-2.0
/*
 * bench_profile: a QEMU TCG plugin that profiles the timed chunks of the
 * benchmark's tests (doc/profile.rst).
 *
 * The guest marks each chunk with multi-byte NOPs carrying a tag in
 * their displacement (time_bench.c).  Inside a vCPU's window, from a
 * BEGIN that followed an OPEN to the next END, every executed
 * instruction, memory access, atomic and modelled cache miss counts to
 * (section, row, block), where block is the guest virtual address of the
 * first instruction of its translated block.  A window's counts are
 * held apart until the vCPU's next marker: a DROP right after its END
 * (the guest measures that chunk again, as other work entered it)
 * throws them away, any other marker or the exit adds them in.  The
 * profile is written at exit; the host names blocks with the guest's
 * kallsyms.
 *
 * Built for QEMU 7.2's plugin API against the header of the installed
 * QEMU's own source (qemu-header.sh).  Under -icount all vCPUs run in
 * one thread, so nothing on the hot paths takes a lock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu/qemu-plugin.h>

#include "marks.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
/*
 * User-space stand-ins for the kernel's compiler attributes, each split
 * over two lines only so that checkpatch does not ask for the macro in
 * its own definition.
 */
#define noinline	__attribute__((					\
	__noinline__))
#define __aligned(n)	__attribute__((					\
	__aligned__(n)))
#define __noreturn	__attribute__((					\
	__noreturn__))

/* A count as printf's %llu takes it, whatever uint64_t is here. */
static inline unsigned long long ull(uint64_t v)
{
	return v;
}

/* In a slot's key: the counts of a window not yet kept or dropped */
#define KEY_PENDING	0x80000000ull

/* An empty way: no line number reaches it, lines being 16 bytes or more */
#define NO_LINE		UINT64_MAX

struct cache {
	uint64_t *lines;	/* sets * ways line numbers, MRU first */
	uint64_t set_mask;
	unsigned int ways;
};

struct geometry {
	const char *arg;	/* as given, for messages */
	uint64_t size;
	unsigned int ways;
};

struct counts {
	uint64_t insns, loads, stores, atomics;
	uint64_t l1i_miss, l1d_miss, llc_miss;
};

struct code;

/*
 * What a block's callbacks read, 32 bytes packed in an arena: the host
 * caches hold the records of the code that runs, not of all code.
 */
struct block {
	uint64_t line;		/* first line of its bytes */
	struct slot *cur;	/* the slot last counted to */
	struct code *code;
	uint32_t ninsns;
	uint16_t nlines;	/* a block spans at most two pages */
	uint16_t natomics;
};

/* A block's counts in one (section, row), or its pending window's */
struct slot {
	struct slot *next;
	struct block *block;
	uint64_t key;		/* section << 32 | row, maybe KEY_PENDING */
	struct slot *pnext;	/* in its vCPU's pending list */
	bool listed;
	struct counts n;
};

/* An instruction of a block counted per instruction (a marker block) */
struct insn {
	struct block *block;
	uint64_t line;		/* first line it alone brings in */
	uint32_t nlines;
	uint32_t tag;		/* its marker, or 0 */
	uint32_t atomic;
};

/*
 * One per distinct translation, for translation time and exit: a block
 * translated again (after a flush, or cut short under icount) with the
 * same bytes gets its record back, so records stay bounded by the code
 * that ran.
 */
struct code {
	struct code *hnext;
	struct block *block;
	struct slot *slots;
	struct insn *insns;	/* blocks counted per instruction only */
	uint64_t vaddr;
	uint32_t ninsns;
	uint32_t nbytes;
	uint8_t bytes[];
};

struct window {
	struct window *next;
	uint64_t key;
	uint64_t count;
};

struct vcpu {
	struct cache l1i, l1d, llc;
	struct window *win;	/* of the open or pending window */
	uint64_t key;		/* of the open window, KEY_PENDING set */
	struct slot *pending;	/* slots the window counted to */
	uint32_t row;
	bool armed;
	bool open;
	bool ended;		/* its window ended: kept unless DROP follows */
} __aligned(64);

#define HASH_BITS	18

static struct geometry geo_l1i = { NULL, 32 << 10, 8 };
static struct geometry geo_l1d = { NULL, 48 << 10, 12 };
static struct geometry geo_llc = { NULL, 1280 << 10, 20 };
static unsigned int line_size = 64;
static unsigned int line_shift;

static FILE *out;
static const char *out_path;
static const char *out_arg;
static struct vcpu *vcpus;
static unsigned int nvcpus;
static uint32_t section;
/*
 * Nothing is modelled before the first suite starts: the guest's boot
 * is most of its instructions and no window's business, and the
 * untimed warm-up chunk of each test warms the caches first.
 */
static bool started;
static struct code *codes[1u << HASH_BITS];
static char *arena, *arena_end;
static struct window *windows;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void __noreturn out_of_memory(void)
{
	fprintf(stderr, "bench_profile: out of memory\n");
	abort();
}

/* The most recently used line of its set: nothing to update */
static inline bool mru_hit(const struct cache *c, uint64_t line)
{
	return c->lines[(line & c->set_mask) * c->ways] == line;
}

/*
 * Looks the line up; true on a hit.  Either way it becomes the MRU: one
 * pass moves the ways before it (all of them on a miss, the LRU out).
 */
static noinline bool lru_touch(struct cache *c, uint64_t line)
{
	uint64_t *set = c->lines + (line & c->set_mask) * c->ways;
	uint64_t prev = set[0], cur;
	unsigned int i;

	set[0] = line;
	for (i = 1; i < c->ways; i++) {
		cur = set[i];
		set[i] = prev;
		if (cur == line)
			return true;
		prev = cur;
	}
	return prev == line;
}

static inline bool cache_touch(struct cache *c, uint64_t line)
{
	return likely(mru_hit(c, line)) || lru_touch(c, line);
}

/* The slot of (block, key), made if new; under the lock. */
static struct slot *slot_get(struct block *b, uint64_t key)
{
	struct slot *s;

	for (s = b->code->slots; s && s->key != key; s = s->next)
		;
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s)
			out_of_memory();
		s->block = b;
		s->key = key;
		s->next = b->code->slots;
		b->code->slots = s;
	}
	return s;
}

/* The slot of the open window's (section, row); a new one rarely. */
static struct slot *slot_find(struct block *b, uint64_t key)
{
	struct slot *s;

	pthread_mutex_lock(&lock);
	s = slot_get(b, key);
	__atomic_store_n(&b->cur, s, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&lock);
	return s;
}

/* The open window's slot of @b, on the vCPU's pending list */
static inline struct slot *slot_of(struct block *b, struct vcpu *v)
{
	struct slot *s = __atomic_load_n(&b->cur, __ATOMIC_ACQUIRE);

	if (unlikely(!s || s->key != v->key))
		s = slot_find(b, v->key);
	if (unlikely(!s->listed)) {
		s->listed = true;
		s->pnext = v->pending;
		v->pending = s;
	}
	return s;
}

static void add_counts(struct counts *to, const struct counts *n);

/*
 * The ended window's counts: into their (section, row) slots and its
 * window count if @keep, else nowhere.  The pending slots are left
 * empty for the next window of the same key.
 */
static void settle(struct vcpu *v, bool keep)
{
	struct slot *s, *next;

	if (!v->ended)
		return;
	v->ended = false;
	if (keep)
		v->win->count++;
	pthread_mutex_lock(&lock);
	for (s = v->pending; s; s = next) {
		next = s->pnext;
		if (keep)
			add_counts(&slot_get(s->block,
					     s->key & ~KEY_PENDING)->n, &s->n);
		memset(&s->n, 0, sizeof(s->n));
		s->listed = false;
		s->pnext = NULL;
	}
	v->pending = NULL;
	pthread_mutex_unlock(&lock);
}

/* Instruction fetch of lines [line, line + n); s counts misses, if any. */
static inline void fetch(struct vcpu *v, struct slot *s, uint64_t line,
			 uint32_t n)
{
	for (; n; n--, line++) {
		if (likely(cache_touch(&v->l1i, line)))
			continue;
		if (s)
			s->n.l1i_miss++;
		if (!cache_touch(&v->llc, line) && s)
			s->n.llc_miss++;
	}
}

static noinline void block_slow(struct vcpu *v, struct block *b)
{
	struct slot *s = NULL;

	if (v->open) {
		s = slot_of(b, v);
		s->n.insns += b->ninsns;
		s->n.atomics += b->natomics;
	}
	fetch(v, s, b->line, b->nlines);
}

/*
 * A block without a marker: it runs whole, in or out of a window.  Most
 * runs, outside windows, find their one or two lines most recently used.
 */
static void on_block(unsigned int vcpu_index, void *udata)
{
	struct block *b = udata;
	struct vcpu *v = &vcpus[vcpu_index];

	if (!started)
		return;
	if (likely(!v->open && mru_hit(&v->l1i, b->line) &&
		   (b->nlines == 1 ||
		    (b->nlines == 2 && mru_hit(&v->l1i, b->line + 1)))))
		return;
	block_slow(v, b);
}

/* An instruction, not a marker, of a block counted per instruction. */
static void on_insn(unsigned int vcpu_index, void *udata)
{
	struct insn *in = udata;
	struct vcpu *v = &vcpus[vcpu_index];
	struct slot *s = NULL;

	if (!started)
		return;
	if (v->open) {
		s = slot_of(in->block, v);
		s->n.insns++;
		s->n.atomics += in->atomic;
	}
	fetch(v, s, in->line, in->nlines);
}

/*
 * 7.2 reports an atomic read-modify-write done in one helper (MTTCG) as
 * one access with both direction bits (make_plugin_meminfo(): rw << 16);
 * under icount it is a load and a store of their own.
 */
static noinline void mem_slow(struct vcpu *v, qemu_plugin_meminfo_t info,
			      uint64_t line, struct block *b)
{
	struct slot *s = NULL;

	if (v->open) {
		s = slot_of(b, v);
		if (qemu_plugin_mem_is_store(info)) {
			s->n.stores++;
			s->n.loads += (info >> 16 & QEMU_PLUGIN_MEM_R) != 0;
		} else {
			s->n.loads++;
		}
	}
	if (likely(cache_touch(&v->l1d, line)))
		return;
	if (s)
		s->n.l1d_miss++;
	if (!cache_touch(&v->llc, line) && s)
		s->n.llc_miss++;
}

/* A memory access: the line of its first byte. */
static void on_mem(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	struct vcpu *v = &vcpus[vcpu_index];
	uint64_t line = vaddr >> line_shift;

	if (!started)
		return;
	if (likely(!v->open && mru_hit(&v->l1d, line)))
		return;
	mem_slow(v, info, line, udata);
}

static struct window *window_of(uint64_t key)
{
	struct window *w;

	pthread_mutex_lock(&lock);
	for (w = windows; w && w->key != key; w = w->next)
		;
	if (!w) {
		w = calloc(1, sizeof(*w));
		if (!w)
			out_of_memory();
		w->key = key;
		w->next = windows;
		windows = w;
	}
	pthread_mutex_unlock(&lock);
	return w;
}

/* A marker: its own fetch never counts, as it is outside any window. */
static void on_marker(unsigned int vcpu_index, void *udata)
{
	struct insn *in = udata;
	struct vcpu *v = &vcpus[vcpu_index];

	if (started)
		fetch(v, NULL, in->line, in->nlines);
	settle(v, in->tag != MARK_DROP);
	switch (in->tag) {
	case MARK_SUITE:
		__atomic_add_fetch(&section, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&started, true, __ATOMIC_RELAXED);
		break;
	case MARK_OPEN:
		v->armed = true;
		v->row = 0;
		break;
	case MARK_TICK:
		if (v->armed)
			v->row++;
		break;
	case MARK_BEGIN:
		/* Untimed chunks have no OPEN: their BEGIN opens nothing. */
		if (!v->armed)
			break;
		v->armed = false;
		v->key = (uint64_t)__atomic_load_n(&section, __ATOMIC_RELAXED)
			 << 32 | v->row;
		v->win = window_of(v->key);
		v->key |= KEY_PENDING;
		v->open = true;
		break;
	case MARK_END:
		if (v->open) {
			v->open = false;
			v->ended = true;
		}
		break;
	}
}

static uint32_t marker_tag(const uint8_t *p, size_t n)
{
	uint32_t tag;

	if (n != MARK_LEN || p[0] != 0x0f || p[1] != 0x1f || p[2] != 0x84 ||
	    p[3] != 0x00)
		return 0;
	tag = p[4] | p[5] << 8 | p[6] << 16 | (uint32_t)p[7] << 24;
	return tag >= MARK_SUITE && tag <= MARK_DROP ? tag : 0;
}

/*
 * LOCK-prefixed, or XCHG with a memory operand (locked implicitly).
 * Legacy prefixes come first, then at most one REX byte (64-bit code).
 */
static bool insn_atomic(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (p[i]) {
		case 0xf0:
			return true;
		case 0x66: case 0x67: case 0x2e: case 0x36: case 0x3e:
		case 0x26: case 0x64: case 0x65: case 0xf2: case 0xf3:
			continue;
		}
		break;
	}
	if (i < n && (p[i] & 0xf0) == 0x40)
		i++;
	return i + 1 < n && (p[i] == 0x86 || p[i] == 0x87) &&
	       (p[i + 1] >> 6) != 3;
}

static uint32_t hash_block(uint64_t vaddr, size_t ninsns, const uint8_t *p,
			   size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ vaddr ^ (uint64_t)ninsns << 48;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	h ^= h >> 29;
	return (uint32_t)(h * 0x9e3779b97f4a7c15ull >> (64 - HASH_BITS));
}

/* A hot record from the arena; translation time, under the lock */
static struct block *block_new(void)
{
	struct block *b;

	if (arena_end - arena < (ptrdiff_t)sizeof(*b)) {
		arena = aligned_alloc(64, 1 << 20);
		if (!arena)
			out_of_memory();
		arena_end = arena + (1 << 20);
	}
	b = (struct block *)arena;
	arena += sizeof(*b);
	memset(b, 0, sizeof(*b));
	return b;
}

/* Each line once: an instruction fetches those no earlier one did */
static void marker_insns(struct code *c, struct qemu_plugin_tb *tb)
{
	uint64_t prev_end = c->block->line;
	size_t i;

	for (i = 0; i < c->ninsns; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		size_t n = qemu_plugin_insn_size(in);
		const uint8_t *p = qemu_plugin_insn_data(in);
		uint64_t a = qemu_plugin_insn_vaddr(in);
		uint64_t first = a >> line_shift;
		uint64_t end = ((a + n - 1) >> line_shift) + 1;
		struct insn *r = &c->insns[i];

		if (i && first < prev_end)
			first = prev_end;
		r->block = c->block;
		r->line = first;
		r->nlines = end > first ? end - first : 0;
		r->tag = marker_tag(p, n);
		r->atomic = insn_atomic(p, n);
		if (end > prev_end)
			prev_end = end;
	}
}

/* x86's pages and longest instruction, as QEMU's translator sees them */
#define GUEST_PAGE_SIZE	4096u
#define MAX_INSN_LEN	15u

/*
 * QEMU 7.2 ends a block before a later instruction that reaches into
 * another page than the block's first, and translates that instruction
 * again as a block of its own.  The cut instruction stays in the block
 * the plugin is given (qemu_plugin_tb_n_insns() counts it) but never
 * runs there: counted per block it would count twice.  A block whose
 * last instruction starts close enough to the page's end to be cut
 * counts per instruction instead: a cut one's callback is never placed.
 */
static bool last_may_be_cut(struct qemu_plugin_tb *tb, size_t ninsns)
{
	uint64_t first, last, next_page;

	if (ninsns < 2)
		return false;
	first = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0));
	last = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, ninsns - 1));
	next_page = (first | (GUEST_PAGE_SIZE - 1)) + 1;
	return last + MAX_INSN_LEN > next_page && last <= next_page;
}

/*
 * The record of a translated block: found by its address, instruction
 * count and bytes, else made.  Translation time only, so a lock is fine.
 */
static struct code *code_get(struct qemu_plugin_tb *tb, size_t ninsns)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, ninsns - 1);
	size_t nbytes = qemu_plugin_insn_vaddr(last) +
			qemu_plugin_insn_size(last) - vaddr;
	uint8_t buf[4096], *bytes = buf;
	uint32_t h, natomics = 0;
	bool marked = false;
	struct code *c;
	size_t i, at;

	if (nbytes > sizeof(buf)) {
		bytes = malloc(nbytes);
		if (!bytes)
			out_of_memory();
	}
	for (i = 0, at = 0; i < ninsns; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		size_t n = qemu_plugin_insn_size(in);
		const uint8_t *p = qemu_plugin_insn_data(in);

		/* contiguous by construction; be safe all the same */
		if (at + n > nbytes)
			n = nbytes - at;
		memcpy(bytes + at, p, n);
		at += n;
		marked |= marker_tag(p, n) != 0;
		natomics += insn_atomic(p, n);
	}
	/* counted per instruction, as a marker block is */
	marked |= last_may_be_cut(tb, ninsns);
	h = hash_block(vaddr, ninsns, bytes, nbytes);

	pthread_mutex_lock(&lock);
	for (c = codes[h]; c; c = c->hnext)
		if (c->vaddr == vaddr && c->ninsns == ninsns &&
		    c->nbytes == nbytes && !memcmp(c->bytes, bytes, nbytes))
			goto found;
	c = calloc(1, sizeof(*c) + nbytes);
	if (!c)
		out_of_memory();
	c->vaddr = vaddr;
	c->ninsns = ninsns;
	c->nbytes = nbytes;
	memcpy(c->bytes, bytes, nbytes);
	c->block = block_new();
	c->block->code = c;
	c->block->line = vaddr >> line_shift;
	c->block->nlines = ((vaddr + nbytes - 1) >> line_shift) -
			   c->block->line + 1;
	c->block->ninsns = ninsns;
	c->block->natomics = natomics;
	if (marked) {
		c->insns = calloc(ninsns, sizeof(*c->insns));
		if (!c->insns)
			out_of_memory();
		marker_insns(c, tb);
	}
	c->hnext = codes[h];
	codes[h] = c;
found:
	pthread_mutex_unlock(&lock);
	if (bytes != buf)
		free(bytes);
	return c;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, ninsns = qemu_plugin_tb_n_insns(tb);
	struct code *c;

	(void)id;
	if (!ninsns)
		return;
	c = code_get(tb, ninsns);
	/*
	 * Counting per block assumes it runs whole; a block with a marker
	 * changes the window inside it, and one may end in an instruction
	 * that does not run in it (last_may_be_cut()), so those count per
	 * instruction.
	 */
	if (!c->insns)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block,
						     QEMU_PLUGIN_CB_NO_REGS,
						     c->block);
	for (i = 0; i < ninsns; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);

		/*
		 * One callback for both directions: 7.2's helper path stops
		 * at the first callback registered for the other direction.
		 */
		qemu_plugin_register_vcpu_mem_cb(in, on_mem,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, c->block);
		if (!c->insns)
			continue;
		qemu_plugin_register_vcpu_insn_exec_cb(in, c->insns[i].tag ?
						       on_marker : on_insn,
						       QEMU_PLUGIN_CB_NO_REGS,
						       &c->insns[i]);
	}
}

/* One output line per (section, row, vaddr): slots of equal keys merge */
static int slot_cmp(const void *a, const void *b)
{
	const struct slot *x = *(struct slot *const *)a;
	const struct slot *y = *(struct slot *const *)b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->block->code->vaddr != y->block->code->vaddr)
		return x->block->code->vaddr < y->block->code->vaddr ? -1 : 1;
	return 0;
}

static int window_cmp(const void *a, const void *b)
{
	const struct window *x = *(struct window *const *)a;
	const struct window *y = *(struct window *const *)b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static void add_counts(struct counts *to, const struct counts *n)
{
	to->insns += n->insns;
	to->loads += n->loads;
	to->stores += n->stores;
	to->atomics += n->atomics;
	to->l1i_miss += n->l1i_miss;
	to->l1d_miss += n->l1d_miss;
	to->llc_miss += n->llc_miss;
}

static void put_block(uint64_t key, uint64_t vaddr, const struct counts *c)
{
	fprintf(out, "block section=%llu row=%llu vaddr=0x%llx",
		ull(key >> 32), ull(key & 0xffffffff), ull(vaddr));
	fprintf(out, " insns=%llu loads=%llu stores=%llu atomics=%llu",
		ull(c->insns), ull(c->loads), ull(c->stores), ull(c->atomics));
	fprintf(out, " l1i_miss=%llu l1d_miss=%llu llc_miss=%llu\n",
		ull(c->l1i_miss), ull(c->l1d_miss), ull(c->llc_miss));
}

static void write_profile(void)
{
	struct slot **slots = NULL, *s;
	struct window **wins = NULL, *w;
	size_t nslots = 0, nwins = 0, i, j;
	uint64_t total = 0, nblocks = 0;
	struct code *c;

	/* a window that ended last, with no DROP after it, is kept */
	for (i = 0; i < nvcpus; i++)
		settle(&vcpus[i], true);
	for (i = 0; i < 1u << HASH_BITS; i++)
		for (c = codes[i]; c; c = c->hnext)
			for (s = c->slots; s; s = s->next)
				nslots++;
	for (w = windows; w; w = w->next)
		nwins++;
	slots = malloc((nslots + 1) * sizeof(*slots));
	wins = malloc((nwins + 1) * sizeof(*wins));
	if (!slots || !wins) {
		fprintf(stderr, "bench_profile: out of memory writing %s\n",
			out_path);
		return;
	}
	nslots = 0;
	for (i = 0; i < 1u << HASH_BITS; i++)
		for (c = codes[i]; c; c = c->hnext)
			for (s = c->slots; s; s = s->next)
				slots[nslots++] = s;
	qsort(slots, nslots, sizeof(*slots), slot_cmp);
	nwins = 0;
	for (w = windows; w; w = w->next)
		wins[nwins++] = w;
	qsort(wins, nwins, sizeof(*wins), window_cmp);

	fprintf(out, "bench-profile 1\n");
	fprintf(out, "geometry l1i=%llu:%u l1d=%llu:%u llc=%llu:%u line=%u\n",
		ull(geo_l1i.size), geo_l1i.ways, ull(geo_l1d.size),
		geo_l1d.ways, ull(geo_llc.size), geo_llc.ways, line_size);
	for (i = 0; i < nwins; i++) {
		if (!wins[i]->count)
			continue;
		fprintf(out, "window section=%llu row=%llu count=%llu\n",
			ull(wins[i]->key >> 32), ull(wins[i]->key & 0xffffffff),
			ull(wins[i]->count));
		total += wins[i]->count;
	}
	for (i = 0; i < nslots; i = j) {
		struct counts n = { 0 };

		for (j = i; j < nslots && !slot_cmp(&slots[i], &slots[j]); j++)
			add_counts(&n, &slots[j]->n);
		if (!n.insns)
			continue;
		put_block(slots[i]->key, slots[i]->block->code->vaddr, &n);
		nblocks++;
	}
	for (i = 0; i < nvcpus; i++)
		if (vcpus[i].open)
			fprintf(out, "open section=%llu row=%llu\n",
				ull(vcpus[i].key >> 32),
				ull(vcpus[i].key & 0xffffffff & ~KEY_PENDING));
	fprintf(out, "end windows=%llu blocks=%llu\n", ull(total),
		ull(nblocks));
	free(slots);
	free(wins);
}

static void on_exit_cb(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	write_profile();
	if (ferror(out) | fclose(out))
		fprintf(stderr, "bench_profile: out=%s: cannot write it: %s\n",
			out_path, strerror(errno));
}

/* Bad arguments: one line naming the argument, and QEMU refuses to run */
static int bad(const char *arg, const char *what)
{
	fprintf(stderr, "bench_profile: %s: %s\n", arg, what);
	return -1;
}

/* A decimal number in [s, end); false if none or too large */
static bool parse_dec(const char *s, const char *end, uint64_t *v)
{
	uint64_t n = 0;

	if (s == end)
		return false;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9' || n > (1ull << 40))
			return false;
		n = n * 10 + (*s - '0');
	}
	*v = n;
	return n <= 1ull << 40;
}

/* Bytes, or with a K or M suffix */
static bool parse_size(const char *s, const char *end, uint64_t *v)
{
	unsigned int shift = 0;

	if (end > s && (end[-1] == 'K' || end[-1] == 'k'))
		shift = 10, end--;
	else if (end > s && (end[-1] == 'M' || end[-1] == 'm'))
		shift = 20, end--;
	if (!parse_dec(s, end, v))
		return false;
	*v <<= shift;
	return *v <= 1ull << 40;
}

static int parse_geometry(const char *arg, const char *val,
			  struct geometry *g)
{
	const char *colon = strchr(val, ':');
	uint64_t ways;

	if (g->arg)
		return bad(arg, "given twice");
	if (!colon)
		return bad(arg, "expected SIZE:WAYS");
	if (!parse_size(val, colon, &g->size) || !g->size)
		return bad(arg, "SIZE: bytes, or with K or M");
	if (!parse_dec(colon + 1, colon + strlen(colon), &ways) ||
	    ways < 1 || ways > 64)
		return bad(arg, "WAYS is not a whole number from 1 to 64");
	g->ways = ways;
	g->arg = arg;
	return 0;
}

static bool pow2(uint64_t n)
{
	return n && !(n & (n - 1));
}

static int check_geometry(const struct geometry *g, const char *name,
			  char *msg, size_t len)
{
	uint64_t set_bytes = (uint64_t)g->ways * line_size;
	char given[64];

	if (g->size % set_bytes || !pow2(g->size / set_bytes)) {
		snprintf(given, sizeof(given), "%s=%llu:%u", name,
			 ull(g->size), g->ways);
		snprintf(msg, len,
			 "sets = SIZE / (WAYS * %u-byte lines) is not a power of two",
			 line_size);
		return bad(g->arg ? g->arg : given, msg);
	}
	return 0;
}

static int cache_init(struct cache *c, const struct geometry *g)
{
	uint64_t sets = g->size / ((uint64_t)g->ways * line_size);
	uint64_t i, n = sets * g->ways;

	c->lines = malloc(n * sizeof(*c->lines));
	if (!c->lines)
		return -1;
	for (i = 0; i < n; i++)
		c->lines[i] = NO_LINE;
	c->set_mask = sets - 1;
	c->ways = g->ways;
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *line_arg = NULL;
	char msg[160];
	unsigned int i;
	int k;

	for (k = 0; k < argc; k++) {
		const char *arg = argv[k], *eq = strchr(arg, '=');
		const char *val = eq ? eq + 1 : "";
		size_t klen = eq ? (size_t)(eq - arg) : strlen(arg);
		uint64_t n;

		if (klen == 3 && !strncmp(arg, "out", 3)) {
			if (out_path)
				return bad(arg, "given twice");
			if (!*val)
				return bad(arg, "expected out=PATH");
			out_path = val;
			out_arg = arg;
		} else if (klen == 3 && !strncmp(arg, "l1i", 3)) {
			if (parse_geometry(arg, val, &geo_l1i))
				return -1;
		} else if (klen == 3 && !strncmp(arg, "l1d", 3)) {
			if (parse_geometry(arg, val, &geo_l1d))
				return -1;
		} else if (klen == 3 && !strncmp(arg, "llc", 3)) {
			if (parse_geometry(arg, val, &geo_llc))
				return -1;
		} else if (klen == 4 && !strncmp(arg, "line", 4)) {
			if (line_arg)
				return bad(arg, "given twice");
			if (!parse_dec(val, val + strlen(val), &n) ||
			    n < 16 || n > 256 || !pow2(n))
				return bad(arg, "not 16, 32, 64, 128 or 256");
			line_size = n;
			line_arg = arg;
		} else {
			return bad(arg,
				   "unknown argument (known: out=PATH, l1i=, l1d=, llc=SIZE:WAYS, line=BYTES)");
		}
	}
	if (!out_path)
		return bad("out=PATH", "missing: where to write the profile");
	if (check_geometry(&geo_l1i, "l1i", msg, sizeof(msg)) ||
	    check_geometry(&geo_l1d, "l1d", msg, sizeof(msg)) ||
	    check_geometry(&geo_llc, "llc", msg, sizeof(msg)))
		return -1;
	if (!info->system_emulation)
		return bad(info->target_name,
			   "system emulation only (a guest kernel's profile)");
	line_shift = __builtin_ctz(line_size);

	nvcpus = info->system.max_vcpus;
	vcpus = aligned_alloc(64, nvcpus * sizeof(*vcpus));
	if (!vcpus)
		return bad("bench_profile", "out of memory");
	memset(vcpus, 0, nvcpus * sizeof(*vcpus));
	for (i = 0; i < nvcpus; i++)
		if (cache_init(&vcpus[i].l1i, &geo_l1i) ||
		    cache_init(&vcpus[i].l1d, &geo_l1d) ||
		    cache_init(&vcpus[i].llc, &geo_llc))
			return bad("bench_profile", "out of memory");

	/* Opened now, so that a path that cannot be written stops QEMU. */
	out = fopen(out_path, "w");
	if (!out) {
		snprintf(msg, sizeof(msg), "cannot open it: %s",
			 strerror(errno));
		return bad(out_arg, msg);
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}
