/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench-e2e: packets through page_pool on a driver's path, end to end
 * (doc/e2e.rst).  The kernel-facing helpers of kernel.c.
 */
#ifndef BENCH_E2E_H
#define BENCH_E2E_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <net/if.h>

#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __s16 s16;
typedef __s32 s32;
typedef __u32 u32;
typedef __u64 u64;

#define U64_MAX ((u64)~0ULL)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Each helper returns 0 or a negative errno, and says what failed in why. */
#define E2E_WHY_LEN 256

struct e2e_err {
	int err;			/* negative errno, or -1 */
	char why[E2E_WHY_LEN];
};

/* the kernel's __printf; split so that checkpatch takes its definition */
#define __printf(a, b)	__attribute__((					\
	__format__(__printf__, a, b)))

__printf(3, 4)
int e2e_fail(struct e2e_err *e, int err, const char *fmt, ...);

/* bpf(2): a counter map, XDP programs, links, test runs. */
enum e2e_prog_kind {
	E2E_PROG_COUNT_DROP,	/* counts the packet into the map, XDP_DROP */
	E2E_PROG_COUNT_PASS,	/* counts the packet into the map, XDP_PASS */
	E2E_PROG_REDIRECT,	/* bpf_redirect_map() into a devmap's slot 0 */
};

/*
 * The counter map's slots: packets whose program ran on the CPU whose
 * threads are timed, and packets whose program ran on another, whose
 * work no figure would hold.
 */
enum { E2E_ON_CPU, E2E_OFF_CPU, E2E_NR_COUNTERS };

int e2e_counter_map(struct e2e_err *e);
int e2e_devmap(int ifindex, struct e2e_err *e);
int e2e_counter_read(int map_fd, u64 count[E2E_NR_COUNTERS],
		     struct e2e_err *e);
int e2e_counter_reset(int map_fd, struct e2e_err *e);
/*
 * @cpu: the CPU counted as on (E2E_ON_CPU); @frags: BPF_F_XDP_HAS_FRAGS,
 * the program takes multi-buffer packets
 */
int e2e_prog_load(enum e2e_prog_kind kind, int map_fd, int cpu, bool frags,
		  struct e2e_err *e);
/* @generic: the skb path's generic XDP, else the driver's (native) XDP */
int e2e_xdp_attach(int prog_fd, int ifindex, bool generic,
		   struct e2e_err *e);
/* BPF_PROG_TEST_RUN with live frames: @repeat packets of @len bytes */
int e2e_xdp_live_run(int prog_fd, u32 repeat, const void *pkt,
		     u32 len, struct e2e_err *e);

/* A veth pair, up; removed with e2e_veth_del(). */
int e2e_veth_add(const char *name, const char *peer, struct e2e_err *e);
int e2e_veth_del(const char *name);
int e2e_if_set_up(const char *name, bool up);
/* no IPv6 autoconfiguration: its packets would count as sent ones */
int e2e_if_no_ipv6(const char *name);

/* Small control files: 0 or a negative errno; a read's length. */
int e2e_write_file(const char *path, const char *text);
ssize_t e2e_read_file(const char *path, char *buf, size_t size);

/* pktgen: one device on kpktgend_0, @count packets a run. */
int e2e_pktgen_setup(const char *dev, u32 pkt_size, struct e2e_err *e);
int e2e_pktgen_count(const char *dev, u32 count, struct e2e_err *e);
/* one run; the packets pktgen says it sent, and its errors */
int e2e_pktgen_run(const char *dev, u64 *sent, u64 *errors,
		   struct e2e_err *e);
void e2e_pktgen_remove(void);

/*
 * The virtio-net device that the host's packet source feeds (guest.sh
 * -N): the only virtio_net interface, up without IPv6, and a packet
 * socket that sends it the requests.  -ENODEV: no such interface.
 */
struct e2e_source {
	char ifname[IF_NAMESIZE];
	int ifindex;
	u8 mac[6];
	int fd;
};

int e2e_source_open(struct e2e_source *src, struct e2e_err *e);
/* asks for @count frames of @size bytes, without the FCS */
int e2e_source_request(const struct e2e_source *src, u32 count, u32 size,
		       struct e2e_err *e);
void e2e_source_close(struct e2e_source *src);
/*
 * The interface's NAPI instances in threads of their own, each moved to
 * @cpu: their pids (up to @max), and how many.
 */
int e2e_napi_threads(const char *ifname, int cpu, int *pids, int max,
		     struct e2e_err *e);

/* Kernel threads' run time, in nanoseconds of the scheduler's clock. */
int e2e_kthread_pid(const char *comm);
int e2e_kthread_pids(const char *name, bool prefix, int *pids, int max);
int e2e_task_ns(int pid, u64 *ns, struct e2e_err *e);

/* Whether /proc/kallsyms has a text symbol of that name. */
bool e2e_have_symbol(const char *name);

/*
 * The page_pool events a check pass counts: refills of the alloc cache
 * from the ring, pages returned to a pool, page and fragment
 * allocations, pages from the page allocator, pages given back to it.
 * The kprobes come first.
 */
enum e2e_probe {
	E2E_PROBE_REFILL,
	E2E_PROBE_PUT,
	E2E_PROBE_ALLOC_PAGE,
	E2E_PROBE_ALLOC_FRAG,
	E2E_PROBE_SLOW,
	E2E_PROBE_RELEASE,
	E2E_NR_PROBES,
};

/* Places the probes, disabled; negative when a kernel lacks a piece. */
int e2e_probes_create(struct e2e_err *e);
int e2e_probes_enable(bool on, struct e2e_err *e);
int e2e_probes_read(u64 hits[E2E_NR_PROBES], struct e2e_err *e);
void e2e_probes_remove(void);

#endif /* BENCH_E2E_H */
