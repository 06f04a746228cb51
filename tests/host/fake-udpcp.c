// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD stand-in for the UDPCP socket API, so that udpcp-tool's own
 * logic can run on a host without the module: socket(..., IPPROTO_UDPCP)
 * becomes a plain UDP socket (messages go as bare datagrams, no UDPCP
 * header), and SOL_UDPCP options are kept here with the uapi ranges.
 * It says nothing about the module; it only exercises the tool.
 *
 *   FAKE_UDPCP_LAX=1      accept out-of-range values (opts must then fail)
 *   FAKE_UDPCP_FAIL=N     each sending socket reports N failed messages
 *                         (IDs 1..N) on its error queue
 *   FAKE_UDPCP_FLUSH=timeout   UDPCP_FLUSH fails with ETIMEDOUT
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/errqueue.h>
#include <linux/udpcp.h>

#define MAX_FD	1024
#define NOPTS	(UDPCP_OPT_OUTSTANDING_ACKS + 1)

static struct fake {
	bool on;
	int family;
	int opt[NOPTS];
	int errq_left, next_failed_id;
	struct udpcp_info info;
} fakes[MAX_FD];

static const int defaults[NOPTS] = {
	[UDPCP_OPT_TRANSFER_MODE] = UDPCP_ACK,
	[UDPCP_OPT_CHECKSUM_MODE] = UDPCP_CHECKSUM,
	[UDPCP_OPT_TX_TIMEOUT] = 100,
	[UDPCP_OPT_RX_TIMEOUT] = 1000,
	[UDPCP_OPT_MAXTRY] = 3,
	[UDPCP_OPT_OUTSTANDING_ACKS] = 1,
};

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

static struct fake *fake_of(int fd)
{
	return fd >= 0 && fd < MAX_FD && fakes[fd].on ? &fakes[fd] : NULL;
}

static bool valid(int opt, int v)
{
	if (getenv("FAKE_UDPCP_LAX"))
		return true;
	switch (opt) {
	case UDPCP_OPT_TRANSFER_MODE:
		return v >= UDPCP_NOACK && v <= UDPCP_SINGLE_ACK;
	case UDPCP_OPT_CHECKSUM_MODE:
		return v == UDPCP_NOCHECKSUM || v == UDPCP_CHECKSUM;
	case UDPCP_OPT_TX_TIMEOUT:
	case UDPCP_OPT_RX_TIMEOUT:
		return v >= UDPCP_MIN_TIMEOUT_MS && v <= UDPCP_MAX_TIMEOUT_MS;
	case UDPCP_OPT_MAXTRY:
		return v >= UDPCP_MIN_MAXTRY && v <= UDPCP_MAX_MAXTRY;
	case UDPCP_OPT_OUTSTANDING_ACKS:
		return v >= UDPCP_MIN_OUTSTANDING_ACKS &&
		       v <= UDPCP_MAX_OUTSTANDING_ACKS;
	}
	return false;
}

int socket(int domain, int type, int protocol)
{
	int fd;

	if (protocol != IPPROTO_UDPCP)
		return REAL(socket)(domain, type, protocol);
	fd = REAL(socket)(domain, type, 0);
	if (fd >= 0 && fd < MAX_FD) {
		const char *fail = getenv("FAKE_UDPCP_FAIL");

		memset(&fakes[fd], 0, sizeof(fakes[fd]));
		fakes[fd].on = true;
		fakes[fd].family = domain;
		memcpy(fakes[fd].opt, defaults, sizeof(defaults));
		fakes[fd].info.udpi_size = sizeof(struct udpcp_info);
		fakes[fd].errq_left = fail ? atoi(fail) : 0;
		fakes[fd].next_failed_id = 1;
	}
	return fd;
}

int close(int fd)
{
	if (fd >= 0 && fd < MAX_FD)
		fakes[fd].on = false;
	return REAL(close)(fd);
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	struct fake *f = fake_of(fd);
	int v;

	if (!f || level != SOL_UDPCP)
		return REAL(setsockopt)(fd, level, name, val, len);
	if (name == UDPCP_INFO || name < 0 || name > UDPCP_FLUSH) {
		errno = ENOPROTOOPT;
		return -1;
	}
	if (len < (socklen_t)sizeof(int)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(&v, val, sizeof(v));
	if (name == UDPCP_FLUSH) {
		const char *mode = getenv("FAKE_UDPCP_FLUSH");

		if (mode && !strcmp(mode, "timeout")) {
			errno = ETIMEDOUT;
			return -1;
		}
		return 0;
	}
	if (!valid(name, v)) {
		errno = EINVAL;
		return -1;
	}
	f->opt[name] = v;
	return 0;
}

int getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	struct fake *f = fake_of(fd);

	if (!f || level != SOL_UDPCP)
		return REAL(getsockopt)(fd, level, name, val, len);
	if (name == UDPCP_INFO) {
		if (*len > sizeof(f->info))
			*len = sizeof(f->info);
		memcpy(val, &f->info, *len);
		return 0;
	}
	if (name < 0 || name >= NOPTS) {
		errno = ENOPROTOOPT;
		return -1;
	}
	if (*len < sizeof(int)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(val, &f->opt[name], sizeof(int));
	*len = sizeof(int);
	return 0;
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	struct fake *f = fake_of(fd);
	struct msghdr copy;
	struct cmsghdr *c;
	ssize_t n;

	if (!f)
		return REAL(sendmsg)(fd, msg, flags);
	/* The tool's per-message options: checked as the module would. */
	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR((struct msghdr *)msg, c)) {
		int v;

		if (c->cmsg_level != SOL_UDPCP)
			continue;
		memcpy(&v, CMSG_DATA(c), sizeof(v));
		if (c->cmsg_len != CMSG_LEN(sizeof(int)) ||
		    (c->cmsg_type != UDPCP_OPT_TRANSFER_MODE &&
		     c->cmsg_type != UDPCP_OPT_CHECKSUM_MODE) ||
		    !valid(c->cmsg_type, v)) {
			errno = EINVAL;
			return -1;
		}
	}
	if (msg->msg_iovlen == 1 && msg->msg_iov[0].iov_len > UDPCP_MAX_MSGSIZE) {
		errno = EMSGSIZE;
		return -1;
	}
	copy = *msg;
	copy.msg_control = NULL;
	copy.msg_controllen = 0;
	n = REAL(sendmsg)(fd, &copy, flags);
	if (n >= 0) {
		f->info.udpi_tx_msgs++;
		f->info.udpi_tx_bytes += n;
	}
	return n;
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct fake *f = fake_of(fd);
	struct sock_extended_err ee = {
		.ee_errno = ETIMEDOUT, .ee_origin = SO_EE_ORIGIN_LOCAL,
	};
	struct cmsghdr *c;
	ssize_t n;

	if (!f)
		return REAL(recvmsg)(fd, msg, flags);
	if (!(flags & MSG_ERRQUEUE)) {
		n = REAL(recvmsg)(fd, msg, flags);
		if (n >= 0) {
			f->info.udpi_rx_msgs++;
			f->info.udpi_rx_bytes += n;
		}
		return n;
	}
	if (f->errq_left <= 0 || !f->info.udpi_tx_msgs ||
	    msg->msg_controllen < CMSG_SPACE(sizeof(ee))) {
		errno = EAGAIN;
		return -1;
	}
	f->errq_left--;
	ee.ee_info = f->next_failed_id++;
	ee.ee_data = 100;
	c = CMSG_FIRSTHDR(msg);
	c->cmsg_level = f->family == AF_INET6 ? SOL_IPV6 : SOL_IP;
	c->cmsg_type = f->family == AF_INET6 ? IPV6_RECVERR : IP_RECVERR;
	c->cmsg_len = CMSG_LEN(sizeof(ee));
	memcpy(CMSG_DATA(c), &ee, sizeof(ee));
	msg->msg_controllen = CMSG_SPACE(sizeof(ee));
	msg->msg_flags = MSG_ERRQUEUE;
	f->info.udpi_tx_timeout++;
	return 0;
}
