// SPDX-License-Identifier: GPL-2.0
/*
 * bench-e2e's way into the kernel: raw bpf(2) for the XDP programs, maps,
 * links and test runs, rtnetlink for the veth pair, /proc/net/pktgen,
 * and tracefs for the page_pool probes.  No libbpf, no iproute2: the
 * program is static and runs in a busybox guest.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "e2e.h"

int e2e_fail(struct e2e_err *e, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->why, sizeof(e->why), fmt, ap);
	va_end(ap);
	e->err = err < 0 ? err : -1;
	return e->err;
}

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static u64 ptr_u64(const void *p)
{
	return (u64)(unsigned long)p;
}

static int map_create(int type, u32 value_size, u32 entries,
		      struct e2e_err *e)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = sizeof(u32);
	attr.value_size = value_size;
	attr.max_entries = entries;
	fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (fd < 0)
		return e2e_fail(e, -errno, "bpf(BPF_MAP_CREATE, type %d): %s",
				type, strerror(errno));
	return fd;
}

static int map_update(int fd, u32 key, const void *value,
		      struct e2e_err *e)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = ptr_u64(&key);
	attr.value = ptr_u64(value);
	attr.flags = BPF_ANY;
	if (sys_bpf(BPF_MAP_UPDATE_ELEM, &attr))
		return e2e_fail(e, -errno, "bpf(BPF_MAP_UPDATE_ELEM): %s",
				strerror(errno));
	return 0;
}

int e2e_counter_map(struct e2e_err *e)
{
	return map_create(BPF_MAP_TYPE_ARRAY, sizeof(u64), E2E_NR_COUNTERS, e);
}

int e2e_devmap(int ifindex, struct e2e_err *e)
{
	u32 value = ifindex;
	int fd = map_create(BPF_MAP_TYPE_DEVMAP, sizeof(u32), 1, e);

	if (fd < 0)
		return fd;
	if (map_update(fd, 0, &value, e)) {
		close(fd);
		return e->err;
	}
	return fd;
}

int e2e_counter_reset(int map_fd, struct e2e_err *e)
{
	u64 zero = 0;
	u32 key;

	for (key = 0; key < E2E_NR_COUNTERS; key++)
		if (map_update(map_fd, key, &zero, e))
			return e->err;
	return 0;
}

int e2e_counter_read(int map_fd, u64 count[E2E_NR_COUNTERS],
		     struct e2e_err *e)
{
	union bpf_attr attr;
	u32 key;

	for (key = 0; key < E2E_NR_COUNTERS; key++) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map_fd;
		attr.key = ptr_u64(&key);
		attr.value = ptr_u64(&count[key]);
		if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
			return e2e_fail(e, -errno, "bpf(BPF_MAP_LOOKUP_ELEM): %s",
					strerror(errno));
	}
	return 0;
}

static struct bpf_insn insn(u8 code, u8 dst, u8 src,
			    s16 off, s32 imm)
{
	struct bpf_insn i = {
		.code = code, .dst_reg = dst, .src_reg = src,
		.off = off, .imm = imm,
	};

	return i;
}

/* r_dst = the map of fd (a 16-byte load, two instructions) */
static size_t insn_map_fd(struct bpf_insn *p, u8 dst, int fd)
{
	p[0] = insn(BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, fd);
	p[1] = insn(0, 0, 0, 0, 0);
	return 2;
}

/*
 * The programs, eBPF by hand: no compiler is needed, and each is a
 * handful of instructions whose cost is part of every figure.
 */
static size_t prog_counting(struct bpf_insn *p, int map_fd, int action,
			    int cpu)
{
	size_t n = 0;

	/* the key on the stack: E2E_ON_CPU, or E2E_OFF_CPU off cpu */
	p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0,
		      BPF_FUNC_get_smp_processor_id);
	p[n++] = insn(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, E2E_ON_CPU);
	p[n++] = insn(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 1, cpu);
	p[n++] = insn(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, E2E_OFF_CPU);
	/* r0 = bpf_map_lookup_elem(map, &key) */
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	p[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4);
	n += insn_map_fd(&p[n], BPF_REG_1, map_fd);
	p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	/* if (r0) atomically *(u64 *)r0 += 1 */
	p[n++] = insn(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 2, 0);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1);
	p[n++] = insn(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1, 0,
		      BPF_ADD);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, action);
	p[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return n;
}

static size_t prog_redirect(struct bpf_insn *p, int devmap_fd)
{
	size_t n = 0;

	/* bpf_redirect_map(devmap, 0, XDP_DROP): a missing slot drops */
	n += insn_map_fd(&p[n], BPF_REG_1, devmap_fd);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 0);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, XDP_DROP);
	p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_redirect_map);
	p[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return n;
}

int e2e_prog_load(enum e2e_prog_kind kind, int map_fd, int cpu, bool frags,
		  struct e2e_err *e)
{
	static char log[4096];
	struct bpf_insn prog[16];
	union bpf_attr attr;
	size_t n;
	int fd;

	switch (kind) {
	case E2E_PROG_COUNT_DROP:
		n = prog_counting(prog, map_fd, XDP_DROP, cpu);
		break;
	case E2E_PROG_COUNT_PASS:
		n = prog_counting(prog, map_fd, XDP_PASS, cpu);
		break;
	default:
		n = prog_redirect(prog, map_fd);
		break;
	}
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = ptr_u64(prog);
	attr.insn_cnt = n;
	attr.license = ptr_u64("GPL");
	attr.log_buf = ptr_u64(log);
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	if (frags)
		attr.prog_flags = BPF_F_XDP_HAS_FRAGS;
	log[0] = '\0';
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0) {
		int err = errno;

		/* the verifier's last words say why */
		log[strcspn(log, "\n")] = '\0';
		return e2e_fail(e, -err, "bpf(BPF_PROG_LOAD): %s%s%s",
				strerror(err), log[0] ? ": " : "", log);
	}
	return fd;
}

int e2e_xdp_attach(int prog_fd, int ifindex, bool generic,
		   struct e2e_err *e)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog_fd;
	attr.link_create.target_ifindex = ifindex;
	attr.link_create.attach_type = BPF_XDP;
	attr.link_create.flags = generic ? XDP_FLAGS_SKB_MODE :
					   XDP_FLAGS_DRV_MODE;
	fd = sys_bpf(BPF_LINK_CREATE, &attr);
	if (fd < 0)
		return e2e_fail(e, -errno,
				"bpf(BPF_LINK_CREATE, BPF_XDP, %s mode): %s",
				generic ? "generic" : "driver",
				strerror(errno));
	return fd;
}

int e2e_xdp_live_run(int prog_fd, u32 repeat, const void *pkt,
		     u32 len, struct e2e_err *e)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.data_in = ptr_u64(pkt);
	attr.test.data_size_in = len;
	attr.test.repeat = repeat;
	attr.test.flags = BPF_F_TEST_XDP_LIVE_FRAMES;
	if (sys_bpf(BPF_PROG_TEST_RUN, &attr))
		return e2e_fail(e, -errno,
				"bpf(BPF_PROG_TEST_RUN, BPF_F_TEST_XDP_LIVE_FRAMES, repeat %u): %s",
				repeat, strerror(errno));
	return 0;
}

/* rtnetlink: attributes appended to a message in a buffer */
struct nl_msg {
	union {
		struct nlmsghdr hdr;
		char buf[512];
	};
};

static struct rtattr *nl_attr(struct nl_msg *m, int type, const void *data,
			      size_t len)
{
	struct rtattr *a = (struct rtattr *)(m->buf +
					     NLMSG_ALIGN(m->hdr.nlmsg_len));

	a->rta_type = type;
	a->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	m->hdr.nlmsg_len = NLMSG_ALIGN(m->hdr.nlmsg_len) +
			   RTA_ALIGN(a->rta_len);
	return a;
}

/* closes a nest that nl_attr() opened with no data */
static void nl_nest_end(struct nl_msg *m, struct rtattr *nest)
{
	nest->rta_len = m->buf + m->hdr.nlmsg_len - (char *)nest;
}

static void nl_ifinfo(struct nl_msg *m)
{
	struct ifinfomsg *ifi = (struct ifinfomsg *)(m->buf +
						     NLMSG_ALIGN(m->hdr.nlmsg_len));

	memset(ifi, 0, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	m->hdr.nlmsg_len = NLMSG_ALIGN(m->hdr.nlmsg_len) + sizeof(*ifi);
}

/* Sends the request, returns the kernel's answer (0 or -errno). */
static int nl_request(struct nl_msg *m)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	char answer[1024];
	struct nlmsgerr *err;
	ssize_t got;
	int fd, rc;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	m->hdr.nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	m->hdr.nlmsg_seq = 1;
	if (sendto(fd, m->buf, m->hdr.nlmsg_len, 0,
		   (struct sockaddr *)&kernel, sizeof(kernel)) < 0) {
		rc = -errno;
		goto out;
	}
	got = recv(fd, answer, sizeof(answer), 0);
	if (got < 0) {
		rc = -errno;
		goto out;
	}
	err = NLMSG_DATA((struct nlmsghdr *)answer);
	rc = (size_t)got >= NLMSG_LENGTH(sizeof(*err)) &&
	     ((struct nlmsghdr *)answer)->nlmsg_type == NLMSG_ERROR ?
	     err->error : -EPROTO;
out:
	close(fd);
	return rc;
}

int e2e_if_set_up(const char *name, bool up)
{
	struct ifreq ifr;
	int fd, rc = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		rc = -errno;
	} else {
		if (up)
			ifr.ifr_flags |= IFF_UP;
		else
			ifr.ifr_flags &= ~IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			rc = -errno;
	}
	close(fd);
	return rc;
}

int e2e_if_no_ipv6(const char *name)
{
	char path[128];
	int rc;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6",
		 name);
	rc = e2e_write_file(path, "1");
	return rc == -ENOENT ? 0 : rc;
}

int e2e_veth_add(const char *name, const char *peer, struct e2e_err *e)
{
	struct rtattr *linkinfo, *data, *peer_info;
	struct nl_msg m;
	int rc;

	memset(&m, 0, sizeof(m));
	m.hdr.nlmsg_len = NLMSG_LENGTH(0);
	m.hdr.nlmsg_type = RTM_NEWLINK;
	m.hdr.nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	nl_ifinfo(&m);
	nl_attr(&m, IFLA_IFNAME, name, strlen(name) + 1);
	linkinfo = nl_attr(&m, IFLA_LINKINFO, NULL, 0);
	nl_attr(&m, IFLA_INFO_KIND, "veth", 4);
	data = nl_attr(&m, IFLA_INFO_DATA, NULL, 0);
	/* the peer: an ifinfomsg, then its own attributes */
	peer_info = nl_attr(&m, VETH_INFO_PEER, NULL, 0);
	nl_ifinfo(&m);
	nl_attr(&m, IFLA_IFNAME, peer, strlen(peer) + 1);
	nl_nest_end(&m, peer_info);
	nl_nest_end(&m, data);
	nl_nest_end(&m, linkinfo);
	rc = nl_request(&m);
	if (rc)
		return e2e_fail(e, rc, "RTM_NEWLINK of a veth pair %s/%s: %s",
				name, peer, strerror(-rc));
	/* no IPv6 autoconfiguration: its packets would count as sent ones */
	rc = e2e_if_no_ipv6(name);
	if (!rc)
		rc = e2e_if_no_ipv6(peer);
	if (!rc)
		rc = e2e_if_set_up(name, true);
	if (!rc)
		rc = e2e_if_set_up(peer, true);
	if (rc) {
		e2e_veth_del(name);
		return e2e_fail(e, rc, "setting %s and %s up, without IPv6: %s",
				name, peer,
				strerror(-rc));
	}
	return 0;
}

int e2e_veth_del(const char *name)
{
	struct nl_msg m;

	memset(&m, 0, sizeof(m));
	m.hdr.nlmsg_len = NLMSG_LENGTH(0);
	m.hdr.nlmsg_type = RTM_DELLINK;
	nl_ifinfo(&m);
	nl_attr(&m, IFLA_IFNAME, name, strlen(name) + 1);
	return nl_request(&m);
}

/* Writes a line to a control file; pktgen refuses bad ones with -errno. */
int e2e_write_file(const char *path, const char *text)
{
	ssize_t len = strlen(text), put;
	int fd, rc = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	put = write(fd, text, len);
	if (put < 0)
		rc = -errno;
	else if (put != len)
		rc = -EIO;
	close(fd);
	return rc;
}

/* Reads a whole small file into buf, NUL-terminated; its length. */
ssize_t e2e_read_file(const char *path, char *buf, size_t size)
{
	ssize_t got, total = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < size - 1) {
		got = read(fd, buf + total, size - 1 - total);
		if (got < 0) {
			total = -errno;
			break;
		}
		if (!got)
			break;
		total += got;
	}
	close(fd);
	if (total >= 0)
		buf[total] = '\0';
	return total;
}

#define PKTGEN_DIR "/proc/net/pktgen"
#define PKTGEN_THREAD PKTGEN_DIR "/kpktgend_0"

static int pktgen_cmd(const char *file, const char *cmd, struct e2e_err *e)
{
	int rc = e2e_write_file(file, cmd);

	if (rc)
		return e2e_fail(e, rc, "pktgen: \"%s\" into %s: %s", cmd, file,
				strerror(-rc));
	return 0;
}

int e2e_pktgen_setup(const char *dev, u32 pkt_size, struct e2e_err *e)
{
	char file[64], cmd[64];

	if (access(PKTGEN_THREAD, W_OK))
		return e2e_fail(e, -errno, "no %s (%s)", PKTGEN_THREAD,
				strerror(errno));
	if (pktgen_cmd(PKTGEN_THREAD, "rem_device_all", e))
		return e->err;
	snprintf(cmd, sizeof(cmd), "add_device %s", dev);
	if (pktgen_cmd(PKTGEN_THREAD, cmd, e))
		return e->err;
	snprintf(file, sizeof(file), PKTGEN_DIR "/%s", dev);
	/*
	 * veth clears IFF_TX_SKB_SHARING: a fresh skb per packet
	 * (clone_skb 0), one at a time (burst 1), as fast as it goes.
	 */
	snprintf(cmd, sizeof(cmd), "pkt_size %u", pkt_size);
	if (pktgen_cmd(file, cmd, e) ||
	    pktgen_cmd(file, "clone_skb 0", e) ||
	    pktgen_cmd(file, "burst 1", e) || pktgen_cmd(file, "delay 0", e))
		return e->err;
	return 0;
}

/* The number after "key: " in text, or -1. */
static long long field_after(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	char *end;
	long long v;

	if (!p)
		return -1;
	p += strlen(key);
	errno = 0;
	v = strtoll(p, &end, 10);
	if (errno || end == p || v < 0)
		return -1;
	return v;
}

int e2e_pktgen_count(const char *dev, u32 count, struct e2e_err *e)
{
	char file[64], cmd[32];

	snprintf(file, sizeof(file), PKTGEN_DIR "/%s", dev);
	snprintf(cmd, sizeof(cmd), "count %u", count);
	return pktgen_cmd(file, cmd, e);
}

int e2e_pktgen_run(const char *dev, u64 *sent, u64 *errors,
		   struct e2e_err *e)
{
	char file[64], text[4096];
	long long s, err;
	ssize_t len;

	/*
	 * Returns when the thread has sent count packets.  pgctrl takes
	 * the last byte written for a newline, whatever it is.
	 */
	if (pktgen_cmd(PKTGEN_DIR "/pgctrl", "start\n", e))
		return e->err;
	snprintf(file, sizeof(file), PKTGEN_DIR "/%s", dev);
	len = e2e_read_file(file, text, sizeof(text));
	if (len < 0)
		return e2e_fail(e, len, "reading %s: %s", file,
				strerror(-len));
	if (!strstr(text, "Result: OK"))
		return e2e_fail(e, -1, "pktgen on %s did not say Result: OK",
				dev);
	s = field_after(text, "pkts-sofar: ");
	err = field_after(text, "errors: ");
	if (s < 0 || err < 0)
		return e2e_fail(e, -1, "%s: no pkts-sofar or errors count",
				file);
	*sent = s;
	*errors = err;
	return 0;
}

void e2e_pktgen_remove(void)
{
	e2e_write_file(PKTGEN_THREAD, "rem_device_all");
}

/*
 * The pids of up to @max threads whose name is @name, or starts with it
 * when @prefix; how many there are.
 */
int e2e_kthread_pids(const char *name, bool prefix, int *pids, int max)
{
	char path[300], comm[64];
	size_t len = strlen(name);
	struct dirent *d;
	ssize_t got;
	DIR *proc;
	int n = 0;

	proc = opendir("/proc");
	if (!proc)
		return 0;
	while (n < max && (d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		got = e2e_read_file(path, comm, sizeof(comm));
		if (got > 0 && comm[got - 1] == '\n')
			comm[got - 1] = '\0';
		if (got > 0 && (prefix ? !strncmp(comm, name, len) :
					 !strcmp(comm, name)))
			pids[n++] = atoi(d->d_name);
	}
	closedir(proc);
	return n;
}

int e2e_kthread_pid(const char *comm)
{
	int pid;

	return e2e_kthread_pids(comm, false, &pid, 1) ? pid : -1;
}

/* The nanoseconds task @pid has run: the first field of its schedstat. */
int e2e_task_ns(int pid, u64 *ns, struct e2e_err *e)
{
	char path[64], text[128];
	unsigned long long v;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	len = e2e_read_file(path, text, sizeof(text));
	if (len < 0)
		return e2e_fail(e, len, "reading %s: %s (CONFIG_SCHED_INFO)",
				path, strerror(-len));
	if (sscanf(text, "%llu ", &v) != 1)
		return e2e_fail(e, -EPROTO, "%s: no run time", path);
	*ns = v;
	return 0;
}

bool e2e_have_symbol(const char *name)
{
	char line[512], sym[256], type;
	bool found = false;
	FILE *f;

	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %c %255s", &type, sym) == 2 &&
		    (type == 't' || type == 'T') && !strcmp(sym, name))
			found = true;
	}
	fclose(f);
	return found;
}

/*
 * The probes.  Refills: a kprobe on page_pool_refill_alloc_cache(),
 * which moves pages from the ring into the alloc cache once the cache
 * is empty; it does not run while pages come back into the cache.
 * Returns of whole pages, and allocations of pages and of fragments:
 * kprobes on the exported functions.  Pages from and back to the page
 * allocator: page_pool's own tracepoints (page_pool_state_hold,
 * page_pool_state_release), counted by hist triggers.  Nothing is
 * written into the trace buffer.
 */
static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

static const char *tracefs;
static bool probes_placed;

#define KPROBE_GROUP "bench_e2e"
#define HIST_TRIGGER "hist:keys=common_cpu"

/* the kprobes: event name, and the functions it may sit on, by kernel */
static const struct {
	const char *event;
	const char *functions[3];
} kprobes[] = {
	[E2E_PROBE_REFILL] = { "pp_refill",
		{ "page_pool_refill_alloc_cache" } },
	/* every return of one page: 6.1, then 6.6 and later */
	[E2E_PROBE_PUT] = { "pp_put",
		{ "page_pool_put_defragged_page",
		  "page_pool_put_unrefed_netmem" } },
	/* a page from the pool: 6.12 and later, then 6.1 */
	[E2E_PROBE_ALLOC_PAGE] = { "pp_alloc_page",
		{ "page_pool_alloc_netmems", "page_pool_alloc_pages" } },
	[E2E_PROBE_ALLOC_FRAG] = { "pp_alloc_frag",
		{ "page_pool_alloc_frag_netmem", "page_pool_alloc_frag" } },
};

/* the function each kprobe sits on in this kernel */
static const char *kprobe_at[E2E_PROBE_SLOW];

static const char *const tracepoints[E2E_NR_PROBES] = {
	[E2E_PROBE_SLOW] = "page_pool/page_pool_state_hold",
	[E2E_PROBE_RELEASE] = "page_pool/page_pool_state_release",
};

static int tracefs_write(const char *file, const char *text,
			 struct e2e_err *e)
{
	char path[256];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", tracefs, file);
	rc = e2e_write_file(path, text);
	if (rc)
		return e2e_fail(e, rc, "writing \"%s\" into %s: %s", text,
				path, strerror(-rc));
	return 0;
}

int e2e_probes_create(struct e2e_err *e)
{
	char path[256], cmd[160];
	size_t i, f;
	int p;

	for (i = 0; !tracefs && i < ARRAY_SIZE(tracefs_dirs); i++) {
		snprintf(path, sizeof(path), "%s/kprobe_events",
			 tracefs_dirs[i]);
		if (!access(path, W_OK))
			tracefs = tracefs_dirs[i];
	}
	if (!tracefs)
		return e2e_fail(e, -ENOENT,
				"no tracefs with kprobe_events (CONFIG_KPROBE_EVENTS)");
	for (p = 0; p < E2E_PROBE_SLOW; p++) {
		for (f = 0; !kprobe_at[p] && kprobes[p].functions[f]; f++) {
			if (e2e_have_symbol(kprobes[p].functions[f]))
				kprobe_at[p] = kprobes[p].functions[f];
		}
		if (!kprobe_at[p])
			return e2e_fail(e, -ENOENT,
					"none of the functions of probe %s in /proc/kallsyms",
					kprobes[p].event);
	}
	for (p = E2E_PROBE_SLOW; p < E2E_NR_PROBES; p++) {
		snprintf(path, sizeof(path), "%s/events/%s/trigger", tracefs,
			 tracepoints[p]);
		if (access(path, W_OK))
			return e2e_fail(e, -errno,
					"no tracepoint %s with triggers (%s)",
					tracepoints[p], strerror(errno));
	}
	if (tracefs_write("tracing_on", "0", e))
		return e->err;
	probes_placed = true;
	for (p = 0; p < E2E_PROBE_SLOW; p++) {
		snprintf(cmd, sizeof(cmd), "p:%s/%s %s", KPROBE_GROUP,
			 kprobes[p].event, kprobe_at[p]);
		if (tracefs_write("kprobe_events", cmd, e))
			return e->err;
	}
	return 0;
}

int e2e_probes_enable(bool on, struct e2e_err *e)
{
	char file[128];
	int p;

	for (p = 0; p < E2E_PROBE_SLOW; p++) {
		snprintf(file, sizeof(file), "events/%s/%s/enable",
			 KPROBE_GROUP, kprobes[p].event);
		if (tracefs_write(file, on ? "1" : "0", e))
			return e->err;
	}
	/*
	 * A trigger added anew starts from zero; removing one that an
	 * enable which failed half way never added is no error.
	 */
	for (p = E2E_PROBE_SLOW; p < E2E_NR_PROBES; p++) {
		snprintf(file, sizeof(file), "events/%s/trigger",
			 tracepoints[p]);
		if (tracefs_write(file, on ? HIST_TRIGGER : "!" HIST_TRIGGER,
				  e) && (on || e->err != -ENOENT))
			return e->err;
	}
	return 0;
}

/* "Hits: N" of a hist file's totals */
static int hist_hits(const char *tracepoint, u64 *hits,
		     struct e2e_err *e)
{
	char path[256], text[8192];
	long long v;
	ssize_t len;

	snprintf(path, sizeof(path), "%s/events/%s/hist", tracefs,
		 tracepoint);
	len = e2e_read_file(path, text, sizeof(text));
	if (len < 0)
		return e2e_fail(e, len, "reading %s: %s", path,
				strerror(-len));
	v = field_after(text, "\n    Hits: ");
	if (v < 0)
		return e2e_fail(e, -1, "%s: no \"Hits:\" total", path);
	*hits = v;
	return 0;
}

int e2e_probes_read(u64 hits[E2E_NR_PROBES], struct e2e_err *e)
{
	char path[256], text[4096], *line, *save;
	unsigned long long nhit;
	char name[128];
	ssize_t len;
	int p;

	snprintf(path, sizeof(path), "%s/kprobe_profile", tracefs);
	len = e2e_read_file(path, text, sizeof(text));
	if (len < 0)
		return e2e_fail(e, len, "reading %s: %s", path,
				strerror(-len));
	for (p = 0; p < E2E_PROBE_SLOW; p++)
		hits[p] = U64_MAX;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%127s %llu", name, &nhit) != 2)
			continue;
		for (p = 0; p < E2E_PROBE_SLOW; p++) {
			if (!strcmp(name, kprobes[p].event))
				hits[p] = nhit;
		}
	}
	for (p = 0; p < E2E_PROBE_SLOW; p++) {
		if (hits[p] == U64_MAX)
			return e2e_fail(e, -1, "%s: no line of %s", path,
					kprobes[p].event);
	}
	for (p = E2E_PROBE_SLOW; p < E2E_NR_PROBES; p++) {
		if (hist_hits(tracepoints[p], &hits[p], e))
			return e->err;
	}
	return 0;
}

void e2e_probes_remove(void)
{
	struct e2e_err ignored;
	char cmd[128];
	int p;

	if (!probes_placed)
		return;
	e2e_probes_enable(false, &ignored);
	for (p = 0; p < E2E_PROBE_SLOW; p++) {
		snprintf(cmd, sizeof(cmd), "-:%s/%s", KPROBE_GROUP,
			 kprobes[p].event);
		tracefs_write("kprobe_events", cmd, &ignored);
	}
	tracefs_write("tracing_on", "1", &ignored);
	probes_placed = false;
}
