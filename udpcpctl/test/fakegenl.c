// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for the kernel's "udpcp" family, for testing udpcpctl on a
 * host without the module: LD_PRELOAD it, and the generic netlink socket
 * udpcpctl opens becomes one end of a socketpair this file answers on.
 *
 * It resolves the family, logs each udpcp request decoded (to
 * $FAKEGENL_LOG), and answers with fixed objects that cover every
 * attribute, including values a newer kernel could send.  Knobs:
 *   FAKEGENL_ERR="errno[:extack message]"  refuse every udpcp request
 *   FAKEGENL_ERR_AT=N    ... only the Nth (from 1) of the process
 *   FAKEGENL_LOG_OPEN=1  log "socket" for each generic netlink socket
 *   FAKEGENL_TEMPLATES=1 peer dumps start with two namespace-wide
 *                        configurations (peers without a socket)
 *   FAKEGENL_DUMPERR="errno:message"      end dumps with that error
 *   FAKEGENL_WARN="message"                 acks carry a warning
 *   FAKEGENL_EVENTS=1    joining the group queues events; then _exit(0)
 *   FAKEGENL_OVERRUN=1   and the first read after joining fails: ENOBUFS
 *   FAKEGENL_KNOWN=1     no values unknown to the header (the ynl CLI
 *                        refuses those)
 *
 * Works for udpcpctl (libnl: sendmsg/recvmsg) and for the kernel's ynl CLI
 * (python: send/recv).
 *
 * Test code: the ABI here is written from uapi/linux/udpcp.h on its own,
 * not from udpcpctl's tables, so that it checks them.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <linux/udpcp.h>

#define FAKE_FAMILY	0x42
#define FAKE_GROUP	7
#define FAKE_PORTID	4242

/*
 * Each fake socket is one end of a socketpair; the kernel's end of the
 * socket being served receives the answers.  (The ynl CLI opens two.)
 */
#define MAX_FD 1024
static int kern_end[MAX_FD];	/* + 1; 0: not a fake socket */
static int kern_fd = -1;
static bool events_mode, overrun;

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/* ---- decoding requests into the log ------------------------------------ */

struct set {
	const char *const *names;
	int max;
	const struct set *const *nests;	/* per attribute, or NULL */
};

#define SET(n, ...) static const char *const n##_names[] = { __VA_ARGS__ }
SET(params, NULL, "transfer-mode", "checksum", "tx-timeout", "rx-timeout",
	"max-tries", "outstanding-acks");
SET(defaults, NULL, "params", "max-peers", "peer-expiry");
SET(sock, NULL, "pad", "cookie", "family", "local-ipv4", "local-ipv6",
	"local-port", "params", "peer-count", "stats", "inode", "uid",
	"rx-queue-msgs", "rx-queue-bytes", "tx-queue-msgs", "tx-queue-bytes",
	"rx-partial-mem");
SET(peer, NULL, "pad", "remote-ipv4", "remote-ipv6", "remote-port", "sock",
	"params", "state", "flags", "next-msg-id", "last-rx-msg-id", "idle-ms",
	"rtt-us", "stats", "msg-id", "replace", "icmp-errors",
	"icmp-last-errno", "icmp-last-ms", "rx-queued");
SET(group, NULL, "sock", "ipv4", "ipv6", "ifindex");
SET(top, NULL, "defaults", "sock", "peer", "stats", "group");

static const struct set s_params = { params_names, 6, NULL };
static const struct set s_stats = { NULL, 16, NULL };
static const struct set *const defaults_nests[4] = { [1] = &s_params };
static const struct set s_defaults = { defaults_names, 3, defaults_nests };
static const struct set *const sock_nests[17] = { [7] = &s_params,
						[9] = &s_stats };
static const struct set s_sock = { sock_names, 16, sock_nests };
static const struct set *const peer_nests[19] = { [5] = &s_sock,
						[6] = &s_params,
						[13] = &s_stats };
static const struct set s_peer = { peer_names, 18, peer_nests };
static const struct set *const group_nests[5] = { [1] = &s_sock };
static const struct set s_group = { group_names, 4, group_nests };
static const struct set *const top_nests[6] = {
	[1] = &s_defaults, [2] = &s_sock, [3] = &s_peer, [4] = &s_stats,
	[5] = &s_group,
};

static const struct set s_top = { top_names, 5, top_nests };

static const char *const cmd_names[] = {
	"unspec", "defaults-get", "defaults-set", "sock-get", "peer-new",
	"peer-set", "peer-del", "peer-get", "stats-get", "stats-reset",
	"group-get", "group-join", "group-leave",
};

static void log_value(FILE *f, const char *name, const struct nlattr *a)
{
	char buf[INET6_ADDRSTRLEN];
	int len = nla_len(a);

	if (strstr(name, "ipv4") && len == 4)
		fputs(inet_ntop(AF_INET, nla_data(a), buf, sizeof(buf)), f);
	else if (strstr(name, "ipv6") && len == 16)
		fputs(inet_ntop(AF_INET6, nla_data(a), buf, sizeof(buf)), f);
	else if (len == 1)
		fprintf(f, "%u", nla_get_u8(a));
	else if (len == 2)
		fprintf(f, "%u", nla_get_u16(a));
	else if (len == 4)
		fprintf(f, "%u", nla_get_u32(a));
	else if (len == 8)
		fprintf(f, "%llu", (unsigned long long)nla_get_u64(a));
	else
		fprintf(f, "<%d bytes>", len);
}

/* "name=value" and "name(...)" in wire order: order is part of the test. */
static void log_attrs(FILE *f, const struct set *s, struct nlattr *head,
		      int len)
{
	struct nlattr *a;
	int rem, n = 0;

	nla_for_each_attr(a, head, len, rem) {
		int t = nla_type(a);
		const char *name = s->names && t <= s->max ? s->names[t] : NULL;
		char num[16];

		if (!name) {
			snprintf(num, sizeof(num), "attr%d", t);
			name = num;
		}
		fprintf(f, "%s%s", n++ ? " " : "", name);
		if (s->nests && t <= s->max && s->nests[t]) {
			fputc('(', f);
			log_attrs(f, s->nests[t], nla_data(a), nla_len(a));
			fputc(')', f);
		} else {
			fputc('=', f);
			log_value(f, name, a);
		}
	}
}

static void log_request(struct nlmsghdr *nlh)
{
	struct genlmsghdr *g = nlmsg_data(nlh);
	const char *path = getenv("FAKEGENL_LOG");
	FILE *f;

	f = path ? fopen(path, "a") : NULL;
	if (!f)
		return;
	fprintf(f, "%s%s v%u", g->cmd < 13 ? cmd_names[g->cmd] : "?",
		(nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP ? " dump" : "",
		g->version);
	if (genlmsg_attrlen(g, 0)) {
		fputc(' ', f);
		log_attrs(f, &s_top, genlmsg_attrdata(g, 0),
			  genlmsg_attrlen(g, 0));
	}
	fputc('\n', f);
	fclose(f);
}

/* ---- answering ---------------------------------------------------------- */

static void emit(struct nl_msg *m)
{
	struct nlmsghdr *nlh = nlmsg_hdr(m);

	if (write(kern_fd, nlh, nlh->nlmsg_len) < 0)
		perror("fakegenl: write");
	nlmsg_free(m);
}

static struct nl_msg *reply(const struct nlmsghdr *req, int type, int flags,
			    uint8_t cmd)
{
	struct nl_msg *m = nlmsg_alloc();

	genlmsg_put(m, req->nlmsg_pid, req->nlmsg_seq, type, 0, flags, cmd, 1);
	return m;
}

static void ack(const struct nlmsghdr *req, int error, const char *text,
		int type)
{
	struct nl_msg *m;
	int flags = NLM_F_CAPPED | (text ? NLM_F_ACK_TLVS : 0);

	if (type == NLMSG_DONE)
		flags = NLM_F_MULTI | (text ? NLM_F_ACK_TLVS : 0);
	m = nlmsg_alloc_simple(type, flags);
	nlmsg_hdr(m)->nlmsg_seq = req->nlmsg_seq;
	nlmsg_hdr(m)->nlmsg_pid = req->nlmsg_pid;
	if (type == NLMSG_DONE) {
		nlmsg_append(m, &error, sizeof(error), NLMSG_ALIGNTO);
	} else {
		struct nlmsgerr e = { .error = error, .msg = *req };

		nlmsg_append(m, &e, sizeof(e), NLMSG_ALIGNTO);
	}
	if (text) {
		nla_put_string(m, NLMSGERR_ATTR_MSG, text);
		nla_put_u32(m, NLMSGERR_ATTR_OFFS, 20);
	}
	emit(m);
}

static void put_v4(struct nl_msg *m, int attr, const char *s)
{
	struct in_addr a;

	inet_pton(AF_INET, s, &a);
	nla_put(m, attr, 4, &a);
}

static void put_v6(struct nl_msg *m, int attr, const char *s)
{
	struct in6_addr a;

	inet_pton(AF_INET6, s, &a);
	nla_put(m, attr, 16, &a);
}

static void put_params(struct nl_msg *m, int attr, int mode)
{
	struct nlattr *n = nla_nest_start(m, attr);

	nla_put_u8(m, UDPCP_A_PARAMS_TRANSFER_MODE, mode);
	nla_put_u8(m, UDPCP_A_PARAMS_CHECKSUM, 1);
	nla_put_u32(m, UDPCP_A_PARAMS_TX_TIMEOUT, 500);
	nla_put_u32(m, UDPCP_A_PARAMS_RX_TIMEOUT, 5000);
	nla_put_u8(m, UDPCP_A_PARAMS_MAX_TRIES, 5);
	nla_put_u8(m, UDPCP_A_PARAMS_OUTSTANDING_ACKS, 1);
	nla_nest_end(m, n);
}

/* Counter i is (base + i), so each one is recognisable in the output. */
static void put_stats(struct nl_msg *m, int attr, uint64_t base)
{
	struct nlattr *n = nla_nest_start(m, attr);

	for (int i = UDPCP_A_STATS_TX_MSGS; i <= UDPCP_A_STATS_MAX; i++)
		nla_put_u64(m, i, base + i);
	nla_nest_end(m, n);
}

static void put_sock_sel(struct nl_msg *m, int attr, const char *v4,
			 const char *v6, int port)
{
	struct nlattr *n = nla_nest_start(m, attr);

	if (v4)
		put_v4(m, UDPCP_A_SOCK_LOCAL_IPV4, v4);
	if (v6)
		put_v6(m, UDPCP_A_SOCK_LOCAL_IPV6, v6);
	nla_put_u16(m, UDPCP_A_SOCK_LOCAL_PORT, port);
	nla_nest_end(m, n);
}

static void answer_defaults(const struct nlmsghdr *req)
{
	struct nl_msg *m = reply(req, FAKE_FAMILY, 0, UDPCP_CMD_DEFAULTS_GET);
	struct nlattr *n = nla_nest_start(m, UDPCP_A_DEFAULTS);

	put_params(m, UDPCP_A_DEFAULTS_PARAMS, UDPCP_ACK);
	nla_put_u32(m, UDPCP_A_DEFAULTS_MAX_PEERS, 64);
	nla_put_u32(m, UDPCP_A_DEFAULTS_PEER_EXPIRY, 60000);
	nla_nest_end(m, n);
	emit(m);
}

static void answer_stats(const struct nlmsghdr *req)
{
	struct nl_msg *m = reply(req, FAKE_FAMILY, 0, UDPCP_CMD_STATS_GET);

	put_stats(m, UDPCP_A_STATS, 1000);
	emit(m);
}

static void one_sock(const struct nlmsghdr *req, bool v6)
{
	struct nl_msg *m = reply(req, FAKE_FAMILY, NLM_F_MULTI,
				 UDPCP_CMD_SOCK_GET);
	struct nlattr *n = nla_nest_start(m, UDPCP_A_SOCK);

	nla_put_u64(m, UDPCP_A_SOCK_COOKIE, v6 ? 8193 : 4097);
	nla_put_u16(m, UDPCP_A_SOCK_FAMILY, v6 ? AF_INET6 : AF_INET);
	if (v6)
		put_v6(m, UDPCP_A_SOCK_LOCAL_IPV6, "2001:db8::1");
	else
		put_v4(m, UDPCP_A_SOCK_LOCAL_IPV4, "192.0.2.1");
	nla_put_u16(m, UDPCP_A_SOCK_LOCAL_PORT, v6 ? 6000 : 5000);
	put_params(m, UDPCP_A_SOCK_PARAMS, v6 ? UDPCP_SINGLE_ACK : UDPCP_ACK);
	nla_put_u32(m, UDPCP_A_SOCK_PEER_COUNT, v6 ? 1 : 2);
	put_stats(m, UDPCP_A_SOCK_STATS, v6 ? 200 : 100);
	nla_put_u64(m, UDPCP_A_SOCK_INODE, v6 ? 5678 : 1234);
	nla_put_u32(m, UDPCP_A_SOCK_UID, 0);
	if (!v6) {
		nla_put_u32(m, UDPCP_A_SOCK_RX_QUEUE_MSGS, 3);
		nla_put_u32(m, UDPCP_A_SOCK_RX_QUEUE_BYTES, 300);
		nla_put_u32(m, UDPCP_A_SOCK_TX_QUEUE_MSGS, 1);
		nla_put_u32(m, UDPCP_A_SOCK_TX_QUEUE_BYTES, 100);
		nla_put_u32(m, UDPCP_A_SOCK_RX_PARTIAL_MEM, 0);
	}
	nla_nest_end(m, n);
	emit(m);
}

/*
 * Peer @i: 0 and 1 on the IPv4 socket, 2 on the IPv6 one with values a
 * newer kernel could send.  @full false: the addresses only; @msg_id >= 0:
 * an event's message ID.
 */
static void put_peer(struct nl_msg *m, int i, bool full, int msg_id)
{
	struct nlattr *n = nla_nest_start(m, UDPCP_A_PEER);
	bool known = getenv("FAKEGENL_KNOWN");

	if (i < 2)
		put_v4(m, UDPCP_A_PEER_REMOTE_IPV4, i ? "192.0.2.3" : "192.0.2.2");
	else
		put_v6(m, UDPCP_A_PEER_REMOTE_IPV6, "2001:db8::2");
	nla_put_u16(m, UDPCP_A_PEER_REMOTE_PORT, 5000 + i);
	if (i < 2)
		put_sock_sel(m, UDPCP_A_PEER_SOCK, "192.0.2.1", NULL, 5000);
	else
		put_sock_sel(m, UDPCP_A_PEER_SOCK, NULL, "2001:db8::1", 6000);
	if (msg_id >= 0)
		nla_put_u16(m, UDPCP_A_PEER_MSG_ID, msg_id);
	if (!full) {
		nla_nest_end(m, n);
		return;
	}
	put_params(m, UDPCP_A_PEER_PARAMS, i);
	nla_put_u8(m, UDPCP_A_PEER_STATE, i == 2 && !known ? 9 : i);
	nla_put_u32(m, UDPCP_A_PEER_FLAGS, i == 2 && !known ? 0x13 : i ? 0 : 1);
	nla_put_u16(m, UDPCP_A_PEER_NEXT_MSG_ID, 12 + i);
	nla_put_u16(m, UDPCP_A_PEER_LAST_RX_MSG_ID, 7 + i);
	nla_put_u32(m, UDPCP_A_PEER_IDLE_MS, 1500 + i);
	nla_put_u32(m, UDPCP_A_PEER_RTT_US, 250 + i);
	if (i == 1) {
		nla_put_u32(m, UDPCP_A_PEER_ICMP_ERRORS, 3);
		nla_put_u32(m, UDPCP_A_PEER_ICMP_LAST_ERRNO, 111);
		nla_put_u32(m, UDPCP_A_PEER_ICMP_LAST_MS, 40);
		nla_put_u32(m, UDPCP_A_PEER_RX_QUEUED, 2304);
	}
	put_stats(m, UDPCP_A_PEER_STATS, 10 * (i + 1));
	nla_nest_end(m, n);
}

static void one_group(const struct nlmsghdr *req, bool v6)
{
	struct nl_msg *m = reply(req, FAKE_FAMILY, NLM_F_MULTI,
				 UDPCP_CMD_GROUP_GET);
	struct nlattr *n = nla_nest_start(m, UDPCP_A_GROUP);

	if (v6) {
		put_sock_sel(m, UDPCP_A_GROUP_SOCK, NULL, "::", 6000);
		put_v6(m, UDPCP_A_GROUP_IPV6, "ff02::1:3");
		nla_put_u32(m, UDPCP_A_GROUP_IFINDEX, 999999);
	} else {
		put_sock_sel(m, UDPCP_A_GROUP_SOCK, "0.0.0.0", NULL, 5000);
		put_v4(m, UDPCP_A_GROUP_IPV4, "239.1.1.1");
		nla_put_u32(m, UDPCP_A_GROUP_IFINDEX, 1);
	}
	nla_nest_end(m, n);
	emit(m);
}

/* Ends a dump, with $FAKEGENL_DUMPERR's error if set. */
static void dump_done(const struct nlmsghdr *req)
{
	const char *e = getenv("FAKEGENL_DUMPERR");
	const char *text = e ? strchr(e, ':') : NULL;

	ack(req, e ? -atoi(e) : 0, text ? text + 1 : NULL, NLMSG_DONE);
}

/* A namespace-wide configuration: no socket, the defaults but the mode. */
static void one_template(const struct nlmsghdr *req, bool v6)
{
	struct nl_msg *m = reply(req, FAKE_FAMILY, NLM_F_MULTI,
				 UDPCP_CMD_PEER_GET);
	struct nlattr *n = nla_nest_start(m, UDPCP_A_PEER);

	if (v6)
		put_v6(m, UDPCP_A_PEER_REMOTE_IPV6, "2001:db8::7");
	else
		put_v4(m, UDPCP_A_PEER_REMOTE_IPV4, "198.51.100.7");
	nla_put_u16(m, UDPCP_A_PEER_REMOTE_PORT, v6 ? 7001 : 7000);
	put_params(m, UDPCP_A_PEER_PARAMS, v6 ? UDPCP_SINGLE_ACK : UDPCP_NOACK);
	nla_put_u8(m, UDPCP_A_PEER_STATE, UDPCP_PEER_STATE_CONFIGURED);
	nla_put_u32(m, UDPCP_A_PEER_FLAGS, UDPCP_PEER_F_CONFIGURED);
	nla_nest_end(m, n);
	emit(m);
}

static void answer_dump(const struct nlmsghdr *req, uint8_t cmd)
{
	struct nl_msg *m;

	if (cmd == UDPCP_CMD_PEER_GET && getenv("FAKEGENL_TEMPLATES")) {
		one_template(req, false);
		one_template(req, true);
	}

	for (int i = 0; i < 3; i++) {
		if (cmd == UDPCP_CMD_SOCK_GET && i < 2) {
			one_sock(req, i);
		} else if (cmd == UDPCP_CMD_GROUP_GET && i < 2) {
			one_group(req, i);
		} else if (cmd == UDPCP_CMD_PEER_GET) {
			m = reply(req, FAKE_FAMILY, NLM_F_MULTI, cmd);
			put_peer(m, i, true, -1);
			emit(m);
		}
	}
	dump_done(req);
}

static void answer_udpcp(struct nlmsghdr *req)
{
	struct genlmsghdr *g = nlmsg_data(req);
	const char *err = getenv("FAKEGENL_ERR");
	const char *at = getenv("FAKEGENL_ERR_AT");
	static int nreq;
	struct nl_msg *m;

	log_request(req);
	if (at && atoi(at) != ++nreq)
		err = NULL;
	if (err) {
		const char *text = strchr(err, ':');

		ack(req, -atoi(err), text ? text + 1 : NULL, NLMSG_ERROR);
		return;
	}
	if ((req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP) {
		answer_dump(req, g->cmd);
		return;
	}
	if (g->cmd == UDPCP_CMD_DEFAULTS_GET) {
		answer_defaults(req);
	} else if (g->cmd == UDPCP_CMD_STATS_GET) {
		answer_stats(req);
	} else if (g->cmd == UDPCP_CMD_PEER_GET) {
		m = reply(req, FAKE_FAMILY, 0, g->cmd);
		put_peer(m, 0, true, -1);
		emit(m);
	}
	if (req->nlmsg_flags & NLM_F_ACK)
		ack(req, 0, getenv("FAKEGENL_WARN"), NLMSG_ERROR);
}

static void answer_ctrl(struct nlmsghdr *req)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct nlattr *grps, *grp;
	struct nl_msg *m;

	bool dump = (req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;

	/* libnl asks for the family by name; the ynl CLI dumps them all. */
	genlmsg_parse(req, 0, tb, CTRL_ATTR_MAX, NULL);
	if (!dump && (!tb[CTRL_ATTR_FAMILY_NAME] ||
		      strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]),
			     UDPCP_GENL_NAME))) {
		ack(req, -ENOENT, NULL, NLMSG_ERROR);
		return;
	}
	m = reply(req, GENL_ID_CTRL, dump ? NLM_F_MULTI : 0,
		  CTRL_CMD_NEWFAMILY);
	nla_put_u16(m, CTRL_ATTR_FAMILY_ID, FAKE_FAMILY);
	nla_put_string(m, CTRL_ATTR_FAMILY_NAME, UDPCP_GENL_NAME);
	nla_put_u32(m, CTRL_ATTR_VERSION, UDPCP_GENL_VERSION);
	nla_put_u32(m, CTRL_ATTR_HDRSIZE, 0);
	nla_put_u32(m, CTRL_ATTR_MAXATTR, UDPCP_A_MAX);
	grps = nla_nest_start(m, CTRL_ATTR_MCAST_GROUPS);
	grp = nla_nest_start(m, 1);
	nla_put_u32(m, CTRL_ATTR_MCAST_GRP_ID, FAKE_GROUP);
	nla_put_string(m, CTRL_ATTR_MCAST_GRP_NAME, UDPCP_MCGRP_EVENTS);
	nla_nest_end(m, grp);
	nla_nest_end(m, grps);
	emit(m);
	if (dump)
		ack(req, 0, NULL, NLMSG_DONE);
	else if (req->nlmsg_flags & NLM_F_ACK)
		ack(req, 0, NULL, NLMSG_ERROR);
}

/* Each event kind once, then a command this udpcpctl does not know. */
static void queue_events(void)
{
	static const uint8_t cmds[] = {
		UDPCP_CMD_PEER_CREATED_NTF, UDPCP_CMD_MSG_FAILED_NTF,
		UDPCP_CMD_PEER_RESYNC_NTF, UDPCP_CMD_MAX + 40,
		UDPCP_CMD_PEER_REMOVED_NTF,
	};
	struct nlmsghdr none = { 0 };

	overrun = getenv("FAKEGENL_OVERRUN");

	for (size_t i = 0; i < sizeof(cmds); i++) {
		struct nl_msg *m;

		if (cmds[i] > UDPCP_CMD_MAX && getenv("FAKEGENL_KNOWN"))
			continue;
		m = reply(&none, FAKE_FAMILY, 0, cmds[i]);

		put_peer(m, i % 3, true,
			 cmds[i] == UDPCP_CMD_MSG_FAILED_NTF ? 17 : -1);
		emit(m);
	}
}

/* ---- the socket calls --------------------------------------------------- */

static bool fake(int fd)
{
	if (fd < 0 || fd >= MAX_FD || !kern_end[fd])
		return false;
	kern_fd = kern_end[fd] - 1;
	return true;
}

int socket(int domain, int type, int protocol)
{
	int sv[2];

	if (domain != AF_NETLINK || protocol != NETLINK_GENERIC)
		return REAL(socket)(domain, type, protocol);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	if (sv[0] >= MAX_FD) {
		errno = EMFILE;
		return -1;
	}
	kern_end[sv[0]] = sv[1] + 1;
	events_mode = !!getenv("FAKEGENL_EVENTS");
	if (getenv("FAKEGENL_LOG_OPEN")) {
		const char *path = getenv("FAKEGENL_LOG");
		FILE *f = path ? fopen(path, "a") : NULL;

		if (f) {
			fputs("socket\n", f);
			fclose(f);
		}
	}
	return sv[0];
}

int close(int fd)
{
	if (fake(fd)) {
		REAL(close)(kern_fd);
		kern_end[fd] = 0;
	}
	return REAL(close)(fd);
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	return fake(fd) ? 0 : REAL(bind)(fd, addr, len);
}

int getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK,
				  .nl_pid = FAKE_PORTID };

	if (!fake(fd))
		return REAL(getsockname)(fd, addr, len);
	memcpy(addr, &nl, *len < sizeof(nl) ? *len : sizeof(nl));
	*len = sizeof(nl);
	return 0;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	if (!fake(fd))
		return REAL(setsockopt)(fd, level, name, val, len);
	if (level == SOL_NETLINK && name == NETLINK_ADD_MEMBERSHIP &&
	    events_mode && *(const int *)val == FAKE_GROUP)
		queue_events();
	return 0;
}

/* Answer each request in @buf, as the kernel would, before send returns. */
static void serve(char *buf, size_t len)
{
	struct nlmsghdr *nlh;
	int rem = len;

	for (nlh = (struct nlmsghdr *)buf; nlmsg_ok(nlh, rem);
	     nlh = nlmsg_next(nlh, &rem)) {
		if (nlh->nlmsg_type == GENL_ID_CTRL)
			answer_ctrl(nlh);
		else if (nlh->nlmsg_type == FAKE_FAMILY)
			answer_udpcp(nlh);
		else
			ack(nlh, -EOPNOTSUPP, NULL, NLMSG_ERROR);
	}
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	char buf[65536];
	size_t len = 0;

	if (!fake(fd))
		return REAL(sendmsg)(fd, msg, flags);
	for (size_t i = 0; i < msg->msg_iovlen; i++) {
		if (len + msg->msg_iov[i].iov_len > sizeof(buf)) {
			errno = EMSGSIZE;
			return -1;
		}
		memcpy(buf + len, msg->msg_iov[i].iov_base,
		       msg->msg_iov[i].iov_len);
		len += msg->msg_iov[i].iov_len;
	}
	serve(buf, len);
	return len;
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	char copy[65536];

	if (!fake(fd))
		return REAL(send)(fd, buf, len, flags);
	if (len > sizeof(copy)) {
		errno = EMSGSIZE;
		return -1;
	}
	memcpy(copy, buf, len);
	serve(copy, len);
	return len;
}

/*
 * Events mode: once all is read, stop as a killed monitor would, without
 * flushing stdio: what was not flushed per event is lost.  Callers that
 * ask not to wait (the ynl CLI) get EAGAIN as usual.
 */
static int recv_flags(int flags)
{
	return flags | (events_mode ? MSG_DONTWAIT : 0);
}

static ssize_t recv_done(ssize_t n, int flags)
{
	if (n < 0 && errno == EAGAIN && events_mode && !(flags & MSG_DONTWAIT))
		_exit(0);
	return n;
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	if (!fake(fd))
		return REAL(recv)(fd, buf, len, flags);
	return recv_done(REAL(recv)(fd, buf, len, recv_flags(flags)), flags);
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	socklen_t namelen = msg->msg_namelen;
	ssize_t n;

	if (!fake(fd))
		return REAL(recvmsg)(fd, msg, flags);
	if (overrun) {
		overrun = false;
		errno = ENOBUFS;
		return -1;
	}
	n = recv_done(REAL(recvmsg)(fd, msg, recv_flags(flags)), flags);
	/* The sender is the kernel, as libnl checks. */
	if (msg->msg_name && namelen >= sizeof(kernel)) {
		memcpy(msg->msg_name, &kernel, sizeof(kernel));
		msg->msg_namelen = sizeof(kernel);
	}
	return n;
}
