// SPDX-License-Identifier: GPL-2.0
/*
 * The virtio-net device that the host's packet source feeds (guest.sh -N,
 * tools/e2e/net-source.py, doc/e2e.rst): its interface, found by driver, a
 * packet socket on it for the requests, and its NAPI moved into threads
 * of its own, whose run time is the receive path's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <linux/if_packet.h>

#include "e2e.h"

#define SYS_NET "/sys/class/net"
/* a local experimental ethertype: the source's and the requests' */
#define SOURCE_ETHERTYPE 0x88b5
#define ETH_ZLEN 60

/* Whether interface @name is driven by virtio_net. */
static bool is_virtio_net(const char *name)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t len;

	snprintf(link, sizeof(link), SYS_NET "/%s/device/driver", name);
	len = readlink(link, target, sizeof(target) - 1);
	if (len <= 0)
		return false;
	target[len] = '\0';
	base = strrchr(target, '/');
	return !strcmp(base ? base + 1 : target, "virtio_net");
}

/* The only virtio-net interface: its name, or -ENODEV, or -EEXIST. */
static int find_virtio_net(char *ifname, struct e2e_err *e)
{
	struct dirent *d;
	int found = 0;
	DIR *net;

	net = opendir(SYS_NET);
	if (!net)
		return e2e_fail(e, -errno, "%s: %s", SYS_NET, strerror(errno));
	while ((d = readdir(net))) {
		if (d->d_name[0] == '.' || strlen(d->d_name) >= IF_NAMESIZE ||
		    !is_virtio_net(d->d_name))
			continue;
		if (!found++)
			snprintf(ifname, IF_NAMESIZE, "%s", d->d_name);
	}
	closedir(net);
	if (!found)
		return e2e_fail(e, -ENODEV, "no virtio-net interface in %s",
				SYS_NET);
	if (found > 1)
		return e2e_fail(e, -EEXIST,
				"%d virtio-net interfaces: which one the source feeds is unknown",
				found);
	return 0;
}

static int read_mac(const char *ifname, u8 *mac, struct e2e_err *e)
{
	char path[128], text[32], end;
	ssize_t len;

	snprintf(path, sizeof(path), SYS_NET "/%s/address", ifname);
	len = e2e_read_file(path, text, sizeof(text));
	if (len < 0)
		return e2e_fail(e, len, "%s: %s", path, strerror(-len));
	if (sscanf(text, "%2hhx:%2hhx:%2hhx:%2hhx:%2hhx:%2hhx%c", &mac[0],
		   &mac[1], &mac[2], &mac[3], &mac[4], &mac[5], &end) != 7 ||
	    end != '\n' || len != 18)
		return e2e_fail(e, -EPROTO, "%s: no MAC address", path);
	return 0;
}

int e2e_source_open(struct e2e_source *src, struct e2e_err *e)
{
	int rc;

	src->fd = -1;
	if (find_virtio_net(src->ifname, e) ||
	    read_mac(src->ifname, src->mac, e))
		return e->err;
	src->ifindex = if_nametoindex(src->ifname);
	rc = e2e_if_no_ipv6(src->ifname);
	if (!rc)
		rc = e2e_if_set_up(src->ifname, true);
	if (rc)
		return e2e_fail(e, rc, "setting %s up, without IPv6: %s",
				src->ifname, strerror(-rc));
	/* protocol 0: the socket sends, and receives nothing */
	src->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (src->fd < 0)
		return e2e_fail(e, -errno, "a packet socket: %s",
				strerror(errno));
	return 0;
}

/*
 * Asks the source for @count frames of @size bytes, to this device's
 * address: the request's format is net-source.py's.
 */
int e2e_source_request(const struct e2e_source *src, u32 count, u32 size,
		       struct e2e_err *e)
{
	struct sockaddr_ll to = {
		.sll_family = AF_PACKET,
		.sll_ifindex = src->ifindex,
		.sll_halen = 6,
	};
	unsigned char frame[ETH_ZLEN] = { 0 };
	u16 type = htons(SOURCE_ETHERTYPE);
	int len;

	memset(frame, 0xff, 6);
	memset(to.sll_addr, 0xff, 6);
	memcpy(frame + 6, src->mac, 6);
	memcpy(frame + 12, &type, 2);
	len = snprintf((char *)frame + 14, sizeof(frame) - 14,
		       "bench-e2e send %u %u\n", count, size);
	if (len < 0 || len >= (int)sizeof(frame) - 14)
		return e2e_fail(e, -EINVAL, "a request too long for a frame");
	if (sendto(src->fd, frame, sizeof(frame), 0, (struct sockaddr *)&to,
		   sizeof(to)) != (ssize_t)sizeof(frame))
		return e2e_fail(e, -errno, "sending the request on %s: %s",
				src->ifname, strerror(errno));
	return 0;
}

void e2e_source_close(struct e2e_source *src)
{
	if (src->fd >= 0)
		close(src->fd);
	src->fd = -1;
}

int e2e_napi_threads(const char *ifname, int cpu, int *pids, int max,
		     struct e2e_err *e)
{
	char path[128], name[32];
	cpu_set_t one;
	int n, i, rc;

	snprintf(path, sizeof(path), SYS_NET "/%s/threaded", ifname);
	rc = e2e_write_file(path, "1");
	if (rc)
		return e2e_fail(e, rc, "writing 1 into %s: %s", path,
				strerror(-rc));
	/* napi/IFNAME-ID, cut at 15 characters */
	snprintf(name, sizeof(name), "napi/%s-", ifname);
	name[15] = '\0';
	n = e2e_kthread_pids(name, true, pids, max);
	if (!n)
		return e2e_fail(e, -ESRCH, "no %s* thread after threaded=1",
				name);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	for (i = 0; i < n; i++) {
		if (sched_setaffinity(pids[i], sizeof(one), &one))
			return e2e_fail(e, -errno,
					"cannot move %s thread %d to CPU %d: %s",
					name, pids[i], cpu, strerror(errno));
	}
	return n;
}
