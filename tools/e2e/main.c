// SPDX-License-Identifier: GPL-2.0
/*
 * bench-e2e: packets through page_pool on a driver's path, per packet,
 * in a guest or on a test box, as rows of the module's results file
 * (doc/e2e.rst).  Each scenario sends its packets, checks that the XDP
 * program counted every one, checks with probes which way its pages
 * went back to their pool, and times repetitions with the cycle counter
 * (instructions under QEMU -icount).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include <linux/bpf.h>

#include "e2e.h"
#include "marks.h"
#include "module_file.h"
#include "rows.h"

#define VETH_SEND "bpe2e0"	/* pktgen and the devmap send here */
#define VETH_RECV "bpe2e1"	/* its peer: the XDP program under test */
/* where bench-e2e, kpktgend_0 and the packets' softirqs run */
#define E2E_CPU 0
#define MAX_PACKETS 100000000u
/* the threads whose run time is a scenario's cost */
#define MAX_WORKERS 8

struct run {
	int counter_fd;		/* the packets the XDP program saw */
	int prog_fd;		/* the program that counts */
	int redirect_fd;	/* test_run's program, when it redirects */
	int devmap_fd;
	int link_fd;
	u32 pkt_size;
	bool veth, pktgen;
	/* the scenario's threads; 0 is this thread (none: the default) */
	int workers[MAX_WORKERS], nr_workers;
	struct e2e_source source;
	/* the piece this kernel lacks, when that stopped the scenario */
	char lacks[E2E_WHY_LEN + 64];
};

struct scenario {
	const char *name;
	u32 pkt_size;	/* bytes on the wire, FCS not counted */
	/* the path its pages take, read from the kernel's source */
	const char *expect_path;
	/* the path instead, on a kernel that has the function named */
	const char *older_function, *older_path;
	/* a symbol the modelled path needs, and why a kernel lacks it */
	const char *needs;
	const char *lacks;
	/* the module that would have that symbol, when it is one */
	const char *module;
	int (*setup)(struct run *r, struct e2e_err *e);
	/* sends n packets; fails unless the kernel says it sent all */
	int (*send)(struct run *r, u32 n, struct e2e_err *e);
};

/*
 * Faults that make check injects (BENCH_E2E_FAULT), each of which must
 * fail the scenarios it touches with a clear line, never read as a
 * cost: an XDP program that cannot be attached, a pktgen that sends
 * nothing, a receiving veth that is down and drops every packet before
 * its XDP program, a host's source that is never asked for a packet.
 */
enum fault {
	FAULT_NONE, FAULT_ATTACH, FAULT_SILENT_PKTGEN, FAULT_PEER_DOWN,
	FAULT_SILENT_SOURCE,
};

static const char *const fault_names[] = {
	[FAULT_NONE] = "", [FAULT_ATTACH] = "attach",
	[FAULT_SILENT_PKTGEN] = "silent-pktgen",
	[FAULT_PEER_DOWN] = "peer-down",
	[FAULT_SILENT_SOURCE] = "silent-source",
};

static enum fault fault;

/* -V: the virtio-net device is fed by the host's source (guest.sh -N) */
static bool net_source;

/* 64 bytes: an unknown ethertype to a foreign MAC, dropped unread */
static const unsigned char packet[64] = {
	0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02, 0x88, 0xb5,
};

static int setup_prog(struct run *r, enum e2e_prog_kind kind, bool frags,
		      struct e2e_err *e)
{
	r->counter_fd = e2e_counter_map(e);
	if (r->counter_fd < 0)
		return r->counter_fd;
	r->prog_fd = e2e_prog_load(kind, r->counter_fd, E2E_CPU, frags, e);
	return r->prog_fd < 0 ? r->prog_fd : 0;
}

static int setup_live_drop(struct run *r, struct e2e_err *e)
{
	return setup_prog(r, E2E_PROG_COUNT_DROP, false, e);
}

static int setup_live_pass(struct run *r, struct e2e_err *e)
{
	return setup_prog(r, E2E_PROG_COUNT_PASS, false, e);
}

static int send_live(struct run *r, u32 n, struct e2e_err *e)
{
	int fd = r->redirect_fd >= 0 ? r->redirect_fd : r->prog_fd;

	return e2e_xdp_live_run(fd, n, packet, sizeof(packet), e);
}

/* The veth pair, and the counting program on the receiving end. */
static int setup_veth(struct run *r, enum e2e_prog_kind kind, bool generic,
		      struct e2e_err *e)
{
	if (e2e_veth_add(VETH_SEND, VETH_RECV, e)) {
		if (e->err == -EOPNOTSUPP)
			snprintf(r->lacks, sizeof(r->lacks),
				 "no veth driver in this kernel (%s)", e->why);
		return e->err;
	}
	r->veth = true;
	/*
	 * Generic XDP copies an skb into the system page_pool only for a
	 * program that takes fragments (skb_cow_data_for_xdp()); for any
	 * other it expands the skb's head with the page allocator.
	 */
	if (setup_prog(r, kind, generic, e))
		return e->err;
	/* ifindex 0 names no device */
	r->link_fd = e2e_xdp_attach(r->prog_fd, fault == FAULT_ATTACH ? 0 :
				    if_nametoindex(VETH_RECV), generic, e);
	if (r->link_fd < 0)
		return r->link_fd;
	if (fault == FAULT_PEER_DOWN && e2e_if_set_up(VETH_RECV, false))
		return e2e_fail(e, -1, "cannot set %s down", VETH_RECV);
	return 0;
}

static int setup_redirect(struct run *r, struct e2e_err *e)
{
	if (setup_veth(r, E2E_PROG_COUNT_DROP, false, e))
		return e->err;
	r->devmap_fd = e2e_devmap(if_nametoindex(VETH_SEND), e);
	if (r->devmap_fd < 0)
		return r->devmap_fd;
	r->redirect_fd = e2e_prog_load(E2E_PROG_REDIRECT, r->devmap_fd,
				       E2E_CPU, false, e);
	return r->redirect_fd < 0 ? r->redirect_fd : 0;
}

static int setup_pktgen(struct run *r, enum e2e_prog_kind kind,
			bool generic, u32 pkt_size, struct e2e_err *e)
{
	if (setup_veth(r, kind, generic, e))
		return e->err;
	r->pktgen = true;
	if (!e2e_pktgen_setup(VETH_SEND, pkt_size, e))
		return 0;
	if (e->err == -ENOENT)
		snprintf(r->lacks, sizeof(r->lacks),
			 "no pktgen in this kernel (%s)", e->why);
	return e->err;
}

static int setup_pktgen_drop(struct run *r, struct e2e_err *e)
{
	return setup_pktgen(r, E2E_PROG_COUNT_DROP, false, r->pkt_size, e);
}

static int setup_pktgen_pass(struct run *r, struct e2e_err *e)
{
	return setup_pktgen(r, E2E_PROG_COUNT_PASS, false, r->pkt_size, e);
}

static int setup_generic_drop(struct run *r, struct e2e_err *e)
{
	return setup_pktgen(r, E2E_PROG_COUNT_DROP, true, r->pkt_size, e);
}

static int send_pktgen(struct run *r, u32 n, struct e2e_err *e)
{
	u64 sent, errors;

	(void)r;
	if (e2e_pktgen_count(VETH_SEND, n, e))
		return e->err;
	sent = 0;
	errors = 0;
	if (fault != FAULT_SILENT_PKTGEN &&
	    e2e_pktgen_run(VETH_SEND, &sent, &errors, e))
		return e->err;
	if (sent != n || errors)
		return e2e_fail(e, -1,
				"pktgen sent %llu of %u packets, %llu errors",
				(unsigned long long)sent, n,
				(unsigned long long)errors);
	return 0;
}

/* rdtsc_ordered(), as the kernel reads it */
static u64 cycles_now(void)
{
	u64 t;

	_mm_lfence();
	t = __rdtsc();
	_mm_lfence();
	return t;
}

static u64 ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/*
 * The packets of virtio_net_rx_drop come from the host, through QEMU's
 * virtio-net device, into virtio_net's receive path.  Its NAPI polls in
 * threads of their own (threaded NAPI): their run time is the cost, and
 * the interrupt that wakes them is not in it.
 */
static int setup_virtio_drop(struct run *r, struct e2e_err *e)
{
	int n;

	if (!net_source) {
		snprintf(r->lacks, sizeof(r->lacks), "%s",
			 "no packet source: bench-e2e -V, in a guest of guest.sh -N");
		return e2e_fail(e, -ENODEV, "%s", r->lacks);
	}
	if (e2e_source_open(&r->source, e)) {
		if (e->err == -EAFNOSUPPORT)
			snprintf(r->lacks, sizeof(r->lacks),
				 "no packet sockets in this kernel (CONFIG_PACKET: %s)",
				 e->why);
		return e->err;
	}
	n = e2e_napi_threads(r->source.ifname, E2E_CPU, r->workers,
			     MAX_WORKERS, e);
	if (n < 0)
		return n;
	r->nr_workers = n;
	if (setup_prog(r, E2E_PROG_COUNT_DROP, false, e))
		return e->err;
	r->link_fd = e2e_xdp_attach(r->prog_fd, fault == FAULT_ATTACH ? 0 :
				    r->source.ifindex, false, e);
	return r->link_fd < 0 ? r->link_fd : 0;
}

/*
 * A source or device that stops sending: no packet counted for that
 * long, in the guest's time (under -icount an idle guest's clock jumps:
 * tens of thousands of polls, seconds of the host's time).
 */
#define SOURCE_STALL_NS (30ull * 1000000000u)
#define SOURCE_POLL_NS 1000000

static int send_virtio(struct run *r, u32 n, struct e2e_err *e)
{
	struct timespec poll = { 0, SOURCE_POLL_NS };
	u64 count[E2E_NR_COUNTERS], start, seen, last, moved;

	if (e2e_counter_read(r->counter_fd, count, e))
		return e->err;
	start = count[E2E_ON_CPU] + count[E2E_OFF_CPU];
	if (fault != FAULT_SILENT_SOURCE &&
	    e2e_source_request(&r->source, n, r->pkt_size, e))
		return e->err;
	last = start;
	moved = ns_now();
	do {
		nanosleep(&poll, NULL);
		if (e2e_counter_read(r->counter_fd, count, e))
			return e->err;
		seen = count[E2E_ON_CPU] + count[E2E_OFF_CPU];
		if (seen != last)
			moved = ns_now();
		last = seen;
		if (ns_now() - moved > SOURCE_STALL_NS)
			return e2e_fail(e, -1,
					"the XDP program counted %llu of %u packets asked of the host's source, none for %llu s",
					(unsigned long long)(seen - start), n,
					SOURCE_STALL_NS / 1000000000u);
	} while (seen - start < n);
	return 0;
}

/*
 * The paths, from the sources of Debian's 6.1.192, 6.12.118 and
 * unstable's 7.2.13 (doc/e2e.rst).  test_run's pool and veth's pool
 * have no NAPI and no CPU of their own, so page_pool_napi_local() says
 * no, and test_run and veth_poll() forbid direct returns: their whole
 * pages go back through the ring.  The per-CPU system page_pool of
 * generic XDP belongs to the CPU that frees the skb in softirq: its
 * whole pages go back into the cache.  A packet copied into a fragment
 * (skb_pp_cow_data() takes one for a copy of less than half a page)
 * is freed before the next one is copied, so the page of its fragments
 * never leaves: page_pool_drain_frag() reuses it in place (frag).
 * A kernel with __xdp_release_frame() (6.1 has it, 6.12 not) takes the
 * page of an skb built from an XDP frame out of its pool, and the skb's
 * free gives it to the page allocator.  7.2's virtio_net posts a whole
 * page per buffer once a program is attached, and returns a dropped one
 * with page_pool_put_page(.., true) in its own NAPI poll: the cache.
 */
#define LIVE_LACKS "no BPF_F_TEST_XDP_LIVE_FRAMES in this kernel (5.18+)"
#define VETH_LACKS "no skb_pp_cow_data(): this kernel's veth copies skbs for XDP without its page_pool (6.1 uses alloc_page())"
#define VIRTIO_LACKS "no virtnet_create_page_pools(): this kernel's virtio_net receives without a page_pool (7.1 and later have one)"
#define GENERIC_LACKS "no skb_cow_data_for_xdp(): this kernel's generic XDP copies skbs without the system page_pool (6.12 has it, 6.1 not)"

static const struct scenario scenarios[] = {
	{ "xdp_live_drop", 64, "ring", NULL, NULL,
	  "bpf_test_run_xdp_live", LIVE_LACKS, NULL,
	  setup_live_drop, send_live },
	{ "xdp_live_pass", 64, "ring", "__xdp_release_frame", "allocator",
	  "bpf_test_run_xdp_live", LIVE_LACKS, NULL,
	  setup_live_pass, send_live },
	{ "xdp_redirect_veth_drop", 64, "ring", NULL, NULL,
	  "bpf_test_run_xdp_live", LIVE_LACKS, NULL,
	  setup_redirect, send_live },
	{ "pktgen_veth_drop", 64, "frag", NULL, NULL,
	  "skb_pp_cow_data", VETH_LACKS, NULL,
	  setup_pktgen_drop, send_pktgen },
	{ "pktgen_veth_pass", 64, "frag", NULL, NULL,
	  "skb_pp_cow_data", VETH_LACKS, NULL,
	  setup_pktgen_pass, send_pktgen },
	{ "pktgen_veth_drop_1500", 1500, "ring", NULL, NULL,
	  "skb_pp_cow_data", VETH_LACKS, NULL,
	  setup_pktgen_drop, send_pktgen },
	{ "generic_xdp_drop", 1500, "cache", NULL, NULL,
	  "skb_cow_data_for_xdp", GENERIC_LACKS, NULL,
	  setup_generic_drop, send_pktgen },
	{ "generic_xdp_drop_64", 64, "frag", NULL, NULL,
	  "skb_cow_data_for_xdp", GENERIC_LACKS, NULL,
	  setup_generic_drop, send_pktgen },
	{ "virtio_net_rx_drop", 64, "cache", NULL, NULL,
	  "virtnet_create_page_pools", VIRTIO_LACKS, "virtio_net",
	  setup_virtio_drop, send_virtio },
};

#define NR_SCENARIOS ARRAY_SIZE(scenarios)

static void run_teardown(struct run *r)
{
	int *fds[] = { &r->link_fd, &r->prog_fd, &r->redirect_fd,
		       &r->devmap_fd, &r->counter_fd };
	size_t i;

	if (r->pktgen)
		e2e_pktgen_remove();
	for (i = 0; i < ARRAY_SIZE(fds); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
	if (r->veth)
		e2e_veth_del(VETH_SEND);
	e2e_source_close(&r->source);
	r->veth = false;
	r->pktgen = false;
}

/*
 * The packets the XDP program counted since the counter's reset, and
 * how many of them it saw on another CPU than E2E_CPU.
 */
static int read_counted(struct run *r, u64 *counted, u64 *off_cpu,
			struct e2e_err *e)
{
	u64 count[E2E_NR_COUNTERS];

	*counted = 0;
	if (e2e_counter_read(r->counter_fd, count, e))
		return e->err;
	*counted = count[E2E_ON_CPU] + count[E2E_OFF_CPU];
	*off_cpu += count[E2E_OFF_CPU];
	return 0;
}

/* Sends n packets and checks that the XDP program counted every one. */
static int send_counted(const struct scenario *s, struct run *r, u32 n,
			u64 *off_cpu, struct e2e_err *e)
{
	u64 counted;

	if (e2e_counter_reset(r->counter_fd, e) || s->send(r, n, e) ||
	    read_counted(r, &counted, off_cpu, e))
		return e->err;
	if (counted != n)
		return e2e_fail(e, -1,
				"the XDP program counted %llu of %u packets sent",
				(unsigned long long)counted, n);
	return 0;
}

/* kpktgend_0 and ksoftirqd/0, found once */
static int pktgen_pid = -1, softirqd_pid = -1;

/*
 * The threads that do a scenario's work, unless its setup named them:
 * the sender (this thread for a test run, pktgen's for pktgen) and
 * ksoftirqd, where softirqs go when they run long.
 */
static void default_workers(const struct scenario *s, struct run *r)
{
	if (r->nr_workers)
		return;
	r->workers[r->nr_workers++] = s->send == send_pktgen ? pktgen_pid : 0;
	if (softirqd_pid >= 0)
		r->workers[r->nr_workers++] = softirqd_pid;
}

/*
 * The run time of the scenario's threads.  Not the interval's length:
 * waits (pktgen's msleep() polling, RCU grace periods at a test run's
 * end, the packets' way from the host) idle the CPU, and under -icount
 * the clock jumps over idle time.
 */
static int busy_ns(const struct run *r, u64 *ns, struct e2e_err *e)
{
	struct timespec ts;
	u64 one;
	int i;

	*ns = 0;
	for (i = 0; i < r->nr_workers; i++) {
		if (r->workers[i]) {
			if (e2e_task_ns(r->workers[i], &one, e))
				return e->err;
		} else {
			/* a kernel without POSIX_TIMERS has no CPU clocks */
			if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
				return e2e_fail(e, -ENOENT,
						"clock_gettime(CLOCK_THREAD_CPUTIME_ID): %s (CONFIG_POSIX_TIMERS)",
						strerror(errno));
			one = (u64)ts.tv_sec * 1000000000u + ts.tv_nsec;
		}
		*ns += one;
	}
	return 0;
}

static int check_path(const struct scenario *s, struct run *r,
		      const struct e2e_params *p, struct e2e_outcome *o,
		      struct e2e_err *e)
{
	u64 before[E2E_NR_PROBES], after[E2E_NR_PROBES];
	struct e2e_err probe_err, off;
	bool probed;
	int i, rc;

	/* probes that cannot count leave the path unknown, and say why */
	probed = !e2e_probes_enable(true, &probe_err) &&
		 !e2e_probes_read(before, &probe_err);
	/* a packet not counted fails the scenario, probes or not */
	rc = send_counted(s, r, p->check_packets, &o->off_cpu, e);
	if (probed && !rc)
		probed = !e2e_probes_read(after, &probe_err);
	/* never a timed repetition with a probe on */
	if (e2e_probes_enable(false, &off) && !rc) {
		*e = off;
		rc = e->err;
	}
	if (rc)
		return rc;
	if (!probed) {
		fprintf(stderr, "bench-e2e: %s: path not checked: %s\n",
			s->name, probe_err.why);
		o->path = "unknown";
		return 0;
	}
	for (i = 0; i < E2E_NR_PROBES; i++)
		o->probe[i] = after[i] - before[i];
	o->path = e2e_path_of(o->probe);
	return 0;
}

/*
 * A profiled guest's plugin (doc/profile.rst) counts what this CPU runs
 * between BEGIN and END, for the row that OPEN and the TICKs after it
 * name: the scenario's.  NOPs otherwise, outside the clocks' readings.
 */
static inline void profile_mark(u32 tag)
{
	asm volatile("nopl %c0(%%rax,%%rax,1)" : : "i" (tag) : "memory");
}

static void profile_window_open(u32 row)
{
	u32 i;

	profile_mark(MARK_OPEN);
	for (i = 0; i < row; i++)
		profile_mark(MARK_TICK);
}

static int measure(const struct scenario *s, struct run *r,
		   const struct e2e_params *p, bool probes, struct e2e_outcome *o,
		   struct e2e_err *e)
{
	u64 c0, n0, counted;
	u32 i;

	/* warm: the pools hold their pages before anything counts */
	if (s->setup(r, e) ||
	    send_counted(s, r, p->check_packets, &o->off_cpu, e))
		return e->err;
	if (!probes)
		o->path = "unknown";
	else if (check_path(s, r, p, o, e))
		return e->err;
	if (e2e_counter_reset(r->counter_fd, e))
		return e->err;
	default_workers(s, r);
	for (i = 0; i < p->reps; i++) {
		struct e2e_rep *rep = &o->reps[i];
		u64 busy0, busy1, wall;

		rep->cpu = sched_getcpu();
		if (busy_ns(r, &busy0, e)) {
			if (e->err == -ENOENT)
				snprintf(r->lacks, sizeof(r->lacks),
					 "no run time of its threads in this kernel (%s)",
					 e->why);
			return e->err;
		}
		profile_window_open(o->row);
		n0 = ns_now();
		c0 = cycles_now();
		profile_mark(MARK_BEGIN);
		if (s->send(r, p->packets, e)) {
			profile_mark(MARK_END);
			return e->err;
		}
		profile_mark(MARK_END);
		rep->cycles = cycles_now() - c0;
		wall = ns_now() - n0;
		if (busy_ns(r, &busy1, e))
			return e->err;
		rep->ns = busy1 - busy0 < wall ? busy1 - busy0 : wall;
		rep->other_ns = wall - rep->ns;
		rep->cycles = wall ? (u64)((__uint128_t)rep->cycles *
						rep->ns / wall) : 0;
	}
	/* the timed packets are counted too, after the clocks stopped */
	if (read_counted(r, &counted, &o->off_cpu, e))
		return e->err;
	if (counted != (u64)p->reps * p->packets)
		return e2e_fail(e, -1,
				"the XDP program counted %llu of %llu timed packets",
				(unsigned long long)counted,
				(unsigned long long)p->reps * p->packets);
	return 0;
}

/*
 * Why this kernel cannot run the scenario, or NULL: its module is not
 * loaded (written into @buf), or the kernel lacks the symbol it needs.
 */
static const char *missing_piece(const struct scenario *s, char *buf,
				 size_t size)
{
	char path[128];

	if (s->module) {
		snprintf(path, sizeof(path), "/sys/module/%s", s->module);
		if (access(path, F_OK)) {
			snprintf(buf, size, "no %s module loaded (modprobe %s)",
				 s->module, s->module);
			return buf;
		}
	}
	return e2e_have_symbol(s->needs) ? NULL : s->lacks;
}

/* The path this kernel's source gives the scenario. */
static const char *expected_path(const struct scenario *s)
{
	if (s->older_function && e2e_have_symbol(s->older_function))
		return s->older_path;
	return s->expect_path;
}

/* Strict whole numbers within [min, max]. */
static int parse_u32(const char *opt, const char *arg, u32 min,
		     u32 max, u32 *val)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = arg[0] >= '0' && arg[0] <= '9' ? strtoull(arg, &end, 10) : 0;
	if (arg[0] < '0' || arg[0] > '9' || errno || *end || v < min ||
	    v > max || (arg[0] == '0' && arg[1])) {
		fprintf(stderr, "bench-e2e: %s %s: accepted: a whole number from %u to %u\n",
			opt, arg, min, max);
		return -1;
	}
	*val = v;
	return 0;
}

/* Selects scenarios by a comma-separated list of names. */
static int parse_selection(const char *arg, bool *sel)
{
	char *list, *name, *save = NULL;
	size_t i;
	int rc = 0;

	if (!arg[0] || arg[0] == ',' || arg[strlen(arg) - 1] == ',' ||
	    strstr(arg, ",,")) {
		fprintf(stderr, "bench-e2e: -s '%s': accepted: %s\n", arg,
			"scenario names separated by single commas");
		return -1;
	}
	list = strdup(arg);
	if (!list)
		return -1;
	memset(sel, 0, NR_SCENARIOS * sizeof(*sel));
	for (name = strtok_r(list, ",", &save); name && !rc;
	     name = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NR_SCENARIOS; i++) {
			if (!strcmp(name, scenarios[i].name))
				break;
		}
		if (i < NR_SCENARIOS) {
			sel[i] = true;
			continue;
		}
		fprintf(stderr, "bench-e2e: -s: no scenario '%s'; accepted:",
			name);
		for (i = 0; i < NR_SCENARIOS; i++)
			fprintf(stderr, " %s", scenarios[i].name);
		fputc('\n', stderr);
		rc = -1;
	}
	free(list);
	return rc;
}

static void print_help(void)
{
	size_t i;

	fputs("usage: bench-e2e -m MODULE_RESULTS -o OUT [-s NAME,...]\n", stderr);
	fprintf(stderr, "%s",
		"       [-n PACKETS] [-r REPS] [-c PACKETS] [-P] [-V]\n"
		"  -m FILE   the results file of the module's load this run joins\n"
		"  -o FILE   where to write it, with a row per scenario\n"
		"  -s LIST   scenarios, comma-separated (default: all)\n"
		"  -n N      packets per timed repetition (default 20000)\n"
		"  -r N      timed repetitions (default 5)\n"
		"  -c N      packets of the warm-up and of the path check (default 4096)\n"
		"  -P        no path check (no probes); path=unknown\n"
		"  -V        the virtio-net device is fed by the host's packet source\n"
		"            (a guest of guest.sh -N): virtio_net_rx_drop takes it over\n"
		"  -L        list the scenarios and their paths, and exit\n"
		"scenarios:");
	for (i = 0; i < NR_SCENARIOS; i++)
		fprintf(stderr, " %s", scenarios[i].name);
	fputc('\n', stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	struct e2e_params p = { 20000, 5, 4096 };
	const char *module_path = NULL, *out_path = NULL;
	bool sel[NR_SCENARIOS], probes = true, probes_ok;
	unsigned long ran = 0, skipped = 0, failed = 0;
	static struct e2e_outcome o;
	struct e2e_module_file mf;
	struct e2e_err e;
	cpu_set_t cpu0;
	const char *names[NR_SCENARIOS], *why;
	char module_why[128];
	size_t i, nr_names;
	FILE *f;
	int opt;

	for (i = 0; i < NR_SCENARIOS; i++)
		sel[i] = true;
	if (getenv("BENCH_E2E_FAULT")) {
		for (i = 1; i < ARRAY_SIZE(fault_names); i++) {
			if (!strcmp(getenv("BENCH_E2E_FAULT"), fault_names[i]))
				fault = i;
		}
		if (fault == FAULT_NONE) {
			fprintf(stderr, "bench-e2e: BENCH_E2E_FAULT=%s: accepted:",
				getenv("BENCH_E2E_FAULT"));
			for (i = 1; i < ARRAY_SIZE(fault_names); i++)
				fprintf(stderr, " %s", fault_names[i]);
			fputc('\n', stderr);
			return 2;
		}
	}
	while ((opt = getopt(argc, argv, "m:o:s:n:r:c:PVL")) != -1) {
		switch (opt) {
		case 'L':
			for (i = 0; i < NR_SCENARIOS; i++)
				printf("%s %s\n", scenarios[i].name,
				       scenarios[i].expect_path);
			return 0;
		case 'm':
			module_path = optarg;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 's':
			if (parse_selection(optarg, sel))
				return 2;
			break;
		case 'n':
			if (parse_u32("-n", optarg, 1, MAX_PACKETS, &p.packets))
				return 2;
			break;
		case 'r':
			if (parse_u32("-r", optarg, 1, E2E_MAX_REPS, &p.reps))
				return 2;
			break;
		case 'c':
			if (parse_u32("-c", optarg, 1, MAX_PACKETS,
				      &p.check_packets))
				return 2;
			break;
		case 'P':
			probes = false;
			break;
		case 'V':
			net_source = true;
			break;
		default:
			print_help();
		}
	}
	if (optind != argc || !module_path || !out_path)
		print_help();
	if (e2e_read_module_file(module_path, &mf) ||
	    e2e_check_module_file(module_path))
		return 1;
	f = fopen(out_path, "we");
	if (!f) {
		fprintf(stderr, "bench-e2e: -o %s: %s\n", out_path,
			strerror(errno));
		return 1;
	}
	/* one CPU: pktgen's thread kpktgend_0 runs there too */
	CPU_ZERO(&cpu0);
	CPU_SET(E2E_CPU, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0)) {
		fprintf(stderr, "bench-e2e: cannot run on CPU 0: %s\n",
			strerror(errno));
		return 1;
	}
	pktgen_pid = e2e_kthread_pid("kpktgend_0");
	softirqd_pid = e2e_kthread_pid("ksoftirqd/0");
	probes_ok = probes && !e2e_probes_create(&e);
	if (probes && !probes_ok)
		fprintf(stderr, "bench-e2e: no path checks: %s\n", e.why);

	/* the header, with the scenarios added to params: and selected: */
	for (i = 0, nr_names = 0; i < NR_SCENARIOS; i++) {
		if (sel[i])
			names[nr_names++] = scenarios[i].name;
	}
	e2e_put_header(f, &mf, &p, names, nr_names);

	for (i = 0; i < NR_SCENARIOS; i++) {
		const struct scenario *s = &scenarios[i];
		struct run r = {
			.counter_fd = -1, .prog_fd = -1, .redirect_fd = -1,
			.devmap_fd = -1, .link_fd = -1, .pkt_size = s->pkt_size,
			.source.fd = -1,
		};
		int rc;

		if (!sel[i])
			continue;
		why = missing_piece(s, module_why, sizeof(module_why));
		if (why) {
			e2e_put_skip(f, s->name, why);
			fprintf(stderr, "bench-e2e: %s skipped: %s\n", s->name,
				why);
			skipped++;
			continue;
		}
		memset(&o, 0, sizeof(o));
		o.row = MARK_E2E_ROW_BASE + i;
		e.why[0] = '\0';
		rc = measure(s, &r, &p, probes_ok, &o, &e);
		run_teardown(&r);
		if (rc && r.lacks[0]) {
			e2e_put_skip(f, s->name, r.lacks);
			fprintf(stderr, "bench-e2e: %s skipped: %s\n", s->name,
				r.lacks);
			skipped++;
			continue;
		}
		if (rc) {
			e2e_put_failed(f, s->name, e.why);
			fprintf(stderr, "bench-e2e: %s FAILED: %s\n", s->name,
				e.why);
			failed++;
			continue;
		}
		e2e_put_test(f, s->name, expected_path(s), &p, &o);
		ran++;
	}
	e2e_probes_remove();
	e2e_put_end(f, &mf, ran, skipped);
	if (fclose(f)) {
		fprintf(stderr, "bench-e2e: -o %s: %s\n", out_path,
			strerror(errno));
		return 1;
	}
	return failed ? 1 : 0;
}
