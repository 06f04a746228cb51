// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP (OBSAI RP1 reliable messages over UDP): the data path over the
 * loopback device, in the network namespace udpcp.sh makes.
 *
 * Every transfer mode, with the checksum on and off, carries messages of
 * every size class up to the maximum over IPv4, IPv6 and a v4-mapped IPv6
 * address, whole and unchanged; one byte more is EMSGSIZE.  A message to a
 * peer that never acknowledges comes back on the error queue with
 * ETIMEDOUT once its tries are spent.  The socket options keep what they
 * are given and refuse what is out of range.  The "udpcp" generic netlink
 * family resolves.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/errqueue.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/udpcp.h>

#include "../kselftest_harness.h"

#define MSG_MAX		UDPCP_MAX_MSGSIZE
#define WAIT_MS		5000

static const int sizes[] = { 0, 1, 1000, 1400, 1500, 5000, 9000, MSG_MAX };
static const int modes[] = { UDPCP_NOACK, UDPCP_ACK, UDPCP_SINGLE_ACK };

static unsigned char txbuf[MSG_MAX + 1], rxbuf[MSG_MAX + 1];

static void fill(int seed, int len)
{
	int i;

	for (i = 0; i < len; i++)
		txbuf[i] = (unsigned char)(seed * 31 + i * 7 + (i >> 8));
}

static int wait_for(int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	return poll(&pfd, 1, WAIT_MS);
}

static int opt_set(int fd, int opt, int val)
{
	return setsockopt(fd, SOL_UDPCP, opt, &val, sizeof(val));
}

static int opt_get(int fd, int opt)
{
	socklen_t len = sizeof(int);
	int val = -1;

	if (getsockopt(fd, SOL_UDPCP, opt, &val, &len))
		return -1;
	return val;
}

/* A UDPCP socket bound to @addr's address with port 0, @addr updated. */
static int bound(int family, struct sockaddr_storage *addr, socklen_t len)
{
	int fd = socket(family, SOCK_DGRAM, IPPROTO_UDPCP);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)addr, len) ||
	    getsockname(fd, (struct sockaddr *)addr, &len)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void addr4(struct sockaddr_storage *ss, const char *ip)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	inet_pton(AF_INET, ip, &sin->sin_addr);
}

static void addr6(struct sockaddr_storage *ss, const char *ip)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	sin6->sin6_family = AF_INET6;
	inet_pton(AF_INET6, ip, &sin6->sin6_addr);
}

static unsigned short port_of(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ((const struct sockaddr_in *)ss)->sin_port;
	return ((const struct sockaddr_in6 *)ss)->sin6_port;
}

/*
 * Every mode x checksum x size from a socket of @txfam to @dst (its port
 * that of the receiver, of @rxfam, bound to @rx).
 */
static void transfer(struct __test_metadata *_metadata, int txfam,
		     const char *src, int rxfam, const char *rxip,
		     const char *dst)
{
	struct sockaddr_storage rx, tx, to;
	unsigned int m, s;
	int rfd, tfd, c, n, seed = 0;
	socklen_t rlen, tolen;

	rlen = rxfam == AF_INET ? sizeof(struct sockaddr_in) :
				  sizeof(struct sockaddr_in6);
	if (rxfam == AF_INET)
		addr4(&rx, rxip);
	else
		addr6(&rx, rxip);
	rfd = bound(rxfam, &rx, rlen);
	ASSERT_LE(0, rfd);

	if (txfam == AF_INET) {
		addr4(&tx, src);
		addr4(&to, dst);
		tolen = sizeof(struct sockaddr_in);
		((struct sockaddr_in *)&to)->sin_port = port_of(&rx);
	} else {
		addr6(&tx, src);
		addr6(&to, dst);
		tolen = sizeof(struct sockaddr_in6);
		((struct sockaddr_in6 *)&to)->sin6_port = port_of(&rx);
	}
	tfd = bound(txfam, &tx, tolen);
	ASSERT_LE(0, tfd);

	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		ASSERT_EQ(0, opt_set(tfd, UDPCP_OPT_TRANSFER_MODE, modes[m]));
		for (c = UDPCP_NOCHECKSUM; c <= UDPCP_CHECKSUM; c++) {
			ASSERT_EQ(0, opt_set(tfd, UDPCP_OPT_CHECKSUM_MODE, c));
			for (s = 0; s < ARRAY_SIZE(sizes); s++) {
				fill(++seed, sizes[s]);
				n = sendto(tfd, txbuf, sizes[s], 0,
					   (struct sockaddr *)&to, tolen);
				ASSERT_EQ(sizes[s], n) {
					TH_LOG("mode %d csum %d: %s", modes[m],
					       c, strerror(errno));
				}
				ASSERT_EQ(1, wait_for(rfd, POLLIN)) {
					TH_LOG("mode %d csum %d size %d: nothing",
					       modes[m], c, sizes[s]);
				}
				n = recv(rfd, rxbuf, sizeof(rxbuf), 0);
				ASSERT_EQ(sizes[s], n);
				ASSERT_EQ(0, memcmp(txbuf, rxbuf, n));
			}
		}
	}
	/* one byte more than a message can hold */
	EXPECT_EQ(-1, sendto(tfd, txbuf, MSG_MAX + 1, 0,
			     (struct sockaddr *)&to, tolen));
	EXPECT_EQ(EMSGSIZE, errno);
	close(tfd);
	close(rfd);
}

TEST(transfer_ipv4)
{
	transfer(_metadata, AF_INET, "127.0.0.1", AF_INET, "127.0.0.1",
		 "127.0.0.1");
}

TEST(transfer_ipv6)
{
	transfer(_metadata, AF_INET6, "::1", AF_INET6, "::1", "::1");
}

TEST(transfer_v4_mapped)
{
	transfer(_metadata, AF_INET6, "::", AF_INET, "127.0.0.1",
		 "::ffff:127.0.0.1");
}

/* A peer that never answers: the message fails after its tries. */
TEST(timeout_error_queue)
{
	char control[256];
	struct sockaddr_storage peer, tx;
	struct sock_extended_err *ee = NULL;
	struct iovec iov = { rxbuf, sizeof(rxbuf) };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control,
		.msg_controllen = sizeof(control),
	};
	socklen_t len = sizeof(struct sockaddr_in);
	struct cmsghdr *cm;
	int silent, fd;

	addr4(&peer, "127.0.0.1");
	silent = socket(AF_INET, SOCK_DGRAM, 0);
	ASSERT_LE(0, silent);
	ASSERT_EQ(0, bind(silent, (struct sockaddr *)&peer, len));
	ASSERT_EQ(0, getsockname(silent, (struct sockaddr *)&peer, &len));

	addr4(&tx, "127.0.0.1");
	fd = bound(AF_INET, &tx, len);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, opt_set(fd, UDPCP_OPT_TRANSFER_MODE, UDPCP_ACK));
	ASSERT_EQ(0, opt_set(fd, UDPCP_OPT_TX_TIMEOUT, 20));
	ASSERT_EQ(0, opt_set(fd, UDPCP_OPT_MAXTRY, 2));
	fill(1, 100);
	ASSERT_EQ(100, sendto(fd, txbuf, 100, 0, (struct sockaddr *)&peer,
			      len));

	ASSERT_EQ(1, wait_for(fd, POLLERR));
	ASSERT_LE(0, recvmsg(fd, &msg, MSG_ERRQUEUE));
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
		if (cm->cmsg_level == SOL_IP && cm->cmsg_type == IP_RECVERR)
			ee = (struct sock_extended_err *)CMSG_DATA(cm);
	ASSERT_NE(NULL, ee);
	EXPECT_EQ(ETIMEDOUT, (int)ee->ee_errno);
	EXPECT_EQ(SO_EE_ORIGIN_LOCAL, ee->ee_origin);
	EXPECT_EQ(100U, ee->ee_data);
	close(fd);
	close(silent);
}

TEST(socket_options)
{
	static const struct { int opt, min, max; } r[] = {
		{ UDPCP_OPT_TRANSFER_MODE, UDPCP_NOACK, UDPCP_SINGLE_ACK },
		{ UDPCP_OPT_CHECKSUM_MODE, UDPCP_NOCHECKSUM, UDPCP_CHECKSUM },
		{ UDPCP_OPT_TX_TIMEOUT, UDPCP_MIN_TIMEOUT_MS,
		  UDPCP_MAX_TIMEOUT_MS },
		{ UDPCP_OPT_RX_TIMEOUT, UDPCP_MIN_TIMEOUT_MS,
		  UDPCP_MAX_TIMEOUT_MS },
		{ UDPCP_OPT_MAXTRY, UDPCP_MIN_MAXTRY, UDPCP_MAX_MAXTRY },
		{ UDPCP_OPT_OUTSTANDING_ACKS, UDPCP_MIN_OUTSTANDING_ACKS,
		  UDPCP_MAX_OUTSTANDING_ACKS },
	};
	unsigned int i;
	int fd;

	fd = socket(AF_INET6, SOCK_DGRAM, IPPROTO_UDPCP);
	ASSERT_LE(0, fd);
	for (i = 0; i < ARRAY_SIZE(r); i++) {
		EXPECT_EQ(0, opt_set(fd, r[i].opt, r[i].min));
		EXPECT_EQ(r[i].min, opt_get(fd, r[i].opt));
		EXPECT_EQ(0, opt_set(fd, r[i].opt, r[i].max));
		EXPECT_EQ(r[i].max, opt_get(fd, r[i].opt));
		EXPECT_EQ(-1, opt_set(fd, r[i].opt, r[i].max + 1));
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(-1, opt_set(fd, r[i].opt, r[i].min - 1));
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(r[i].max, opt_get(fd, r[i].opt));
	}
	close(fd);
}

/* CTRL_CMD_GETFAMILY "udpcp" answers with the family, not an error. */
TEST(genl_family)
{
	struct {
		struct nlmsghdr nlh;
		struct genlmsghdr genl;
		char attrs[64];
	} req = {
		.nlh.nlmsg_type = GENL_ID_CTRL,
		.nlh.nlmsg_flags = NLM_F_REQUEST,
		.genl.cmd = CTRL_CMD_GETFAMILY,
		.genl.version = 1,
	};
	struct nlattr *na = (struct nlattr *)req.attrs;
	char buf[8192];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	int fd, n;

	na->nla_type = CTRL_ATTR_FAMILY_NAME;
	na->nla_len = NLA_HDRLEN + sizeof(UDPCP_GENL_NAME);
	memcpy((char *)na + NLA_HDRLEN, UDPCP_GENL_NAME,
	       sizeof(UDPCP_GENL_NAME));
	req.nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN) + NLA_ALIGN(na->nla_len);

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(req.nlh.nlmsg_len, send(fd, &req, req.nlh.nlmsg_len, 0));
	n = recv(fd, buf, sizeof(buf), 0);
	ASSERT_LT(0, n);
	EXPECT_EQ(GENL_ID_CTRL, nlh->nlmsg_type) {
		TH_LOG("the udpcp family is not registered");
	}
	close(fd);
}

TEST_HARNESS_MAIN
