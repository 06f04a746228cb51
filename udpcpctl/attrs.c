// SPDX-License-Identifier: GPL-2.0
/*
 * Attribute policies and the printers shared by several objects: counters,
 * sockets as endpoints, peers.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "print.h"
#include "udpcpctl.h"

#define ADDR4 { .type = NLA_UNSPEC, .minlen = 4, .maxlen = 4 }
#define ADDR6 { .type = NLA_UNSPEC, .minlen = 16, .maxlen = 16 }

const struct nla_policy top_policy[UDPCP_A_MAX + 1] = {
	[UDPCP_A_DEFAULTS] = { .type = NLA_NESTED },
	[UDPCP_A_SOCK] = { .type = NLA_NESTED },
	[UDPCP_A_PEER] = { .type = NLA_NESTED },
	[UDPCP_A_STATS] = { .type = NLA_NESTED },
	[UDPCP_A_GROUP] = { .type = NLA_NESTED },
};

const struct nla_policy sock_policy[UDPCP_A_SOCK_MAX + 1] = {
	[UDPCP_A_SOCK_COOKIE] = { .type = NLA_U64 },
	[UDPCP_A_SOCK_FAMILY] = { .type = NLA_U16 },
	[UDPCP_A_SOCK_LOCAL_IPV4] = ADDR4,
	[UDPCP_A_SOCK_LOCAL_IPV6] = ADDR6,
	[UDPCP_A_SOCK_LOCAL_PORT] = { .type = NLA_U16 },
	[UDPCP_A_SOCK_PARAMS] = { .type = NLA_NESTED },
	[UDPCP_A_SOCK_PEER_COUNT] = { .type = NLA_U32 },
	[UDPCP_A_SOCK_STATS] = { .type = NLA_NESTED },
	[UDPCP_A_SOCK_INODE] = { .type = NLA_U64 },
	[UDPCP_A_SOCK_UID] = { .type = NLA_U32 },
	[UDPCP_A_SOCK_RX_QUEUE_MSGS] = { .type = NLA_U32 },
	[UDPCP_A_SOCK_RX_QUEUE_BYTES] = { .type = NLA_U32 },
	[UDPCP_A_SOCK_TX_QUEUE_MSGS] = { .type = NLA_U32 },
	[UDPCP_A_SOCK_TX_QUEUE_BYTES] = { .type = NLA_U32 },
	[UDPCP_A_SOCK_RX_PARTIAL_MEM] = { .type = NLA_U32 },
};

const struct nla_policy peer_policy[UDPCP_A_PEER_MAX + 1] = {
	[UDPCP_A_PEER_REMOTE_IPV4] = ADDR4,
	[UDPCP_A_PEER_REMOTE_IPV6] = ADDR6,
	[UDPCP_A_PEER_REMOTE_PORT] = { .type = NLA_U16 },
	[UDPCP_A_PEER_SOCK] = { .type = NLA_NESTED },
	[UDPCP_A_PEER_PARAMS] = { .type = NLA_NESTED },
	[UDPCP_A_PEER_STATE] = { .type = NLA_U8 },
	[UDPCP_A_PEER_FLAGS] = { .type = NLA_U32 },
	[UDPCP_A_PEER_NEXT_MSG_ID] = { .type = NLA_U16 },
	[UDPCP_A_PEER_LAST_RX_MSG_ID] = { .type = NLA_U16 },
	[UDPCP_A_PEER_IDLE_MS] = { .type = NLA_U32 },
	[UDPCP_A_PEER_RTT_US] = { .type = NLA_U32 },
	[UDPCP_A_PEER_STATS] = { .type = NLA_NESTED },
	[UDPCP_A_PEER_MSG_ID] = { .type = NLA_U16 },
	[UDPCP_A_PEER_ICMP_ERRORS] = { .type = NLA_U32 },
	[UDPCP_A_PEER_ICMP_LAST_ERRNO] = { .type = NLA_U32 },
	[UDPCP_A_PEER_ICMP_LAST_MS] = { .type = NLA_U32 },
	[UDPCP_A_PEER_RX_QUEUED] = { .type = NLA_U32 },
};

const struct nla_policy group_policy[UDPCP_A_GROUP_MAX + 1] = {
	[UDPCP_A_GROUP_SOCK] = { .type = NLA_NESTED },
	[UDPCP_A_GROUP_IPV4] = ADDR4,
	[UDPCP_A_GROUP_IPV6] = ADDR6,
	[UDPCP_A_GROUP_IFINDEX] = { .type = NLA_U32 },
};

const struct nla_policy stats_policy[UDPCP_A_STATS_MAX + 1] = {
	[UDPCP_A_STATS_TX_MSGS ... UDPCP_A_STATS_MAX] = { .type = NLA_U64 },
};

int nest_parse(struct nlattr **tb, int max, struct nlattr *nest,
	       const struct nla_policy *pol, const char *what)
{
	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (!nest)
		return 0;
	if (nla_parse_nested(tb, max, nest, pol) < 0) {
		warn_malformed(what);
		return -1;
	}
	return 0;
}

/* An address attribute pair (IPv4 or IPv6) into @a; false if neither. */
bool get_addr(struct nlattr *v4, struct nlattr *v6, struct addr *a)
{
	memset(a, 0, sizeof(*a));
	if (v4) {
		a->family = AF_INET;
		memcpy(&a->v4, nla_data(v4), sizeof(a->v4));
	} else if (v6) {
		a->family = AF_INET6;
		memcpy(&a->v6, nla_data(v6), sizeof(a->v6));
	}
	return a->family;
}

int put_addr(struct nl_msg *msg, int attr4, int attr6, const struct addr *a)
{
	if (a->family == AF_INET)
		return nla_put(msg, attr4, sizeof(a->v4), &a->v4);
	if (a->family == AF_INET6)
		return nla_put(msg, attr6, sizeof(a->v6), &a->v6);
	return 0;
}

/* The local address and port of a udpcp_a_sock nest. */
int sock_endpoint(struct nlattr *nest, struct endpoint *ep)
{
	struct nlattr *tb[UDPCP_A_SOCK_MAX + 1];

	memset(ep, 0, sizeof(*ep));
	if (nest_parse(tb, UDPCP_A_SOCK_MAX, nest, sock_policy, "socket"))
		return -1;
	get_addr(tb[UDPCP_A_SOCK_LOCAL_IPV4], tb[UDPCP_A_SOCK_LOCAL_IPV6],
		 &ep->addr);
	if (tb[UDPCP_A_SOCK_LOCAL_PORT])
		ep->port = nla_get_u16(tb[UDPCP_A_SOCK_LOCAL_PORT]);
	return 0;
}

/* A udpcp_a_sock nest selecting a socket; left out when nothing is given. */
int put_sock_sel(struct nl_msg *msg, int attr, const struct endpoint *ep)
{
	struct nlattr *nest;

	if (!ep->addr.family && !ep->port)
		return 0;
	nest = nla_nest_start(msg, attr);
	if (!nest ||
	    put_addr(msg, UDPCP_A_SOCK_LOCAL_IPV4, UDPCP_A_SOCK_LOCAL_IPV6,
		     &ep->addr) ||
	    (ep->port && nla_put_u16(msg, UDPCP_A_SOCK_LOCAL_PORT, ep->port)))
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}

/* 0.0.0.0, ::ffff:0.0.0.0 or :: */
static bool addr_is_any(const struct addr *a)
{
	struct addr u = addr_unmapped(a);

	if (u.family == AF_INET)
		return u.v4.s_addr == htonl(INADDR_ANY);
	return u.family == AF_INET6 && IN6_IS_ADDR_UNSPECIFIED(&u.v6);
}

/*
 * Does @ep match the "local" a command was given (if any)?  As the kernel
 * selects sockets: one bound to the wildcard address matches any address.
 */
bool endpoint_matches(const struct endpoint *ep, const struct req *filter)
{
	const struct endpoint *want = &filter->local;

	if (!req_has(filter, S_LOCAL))
		return true;
	if (want->addr.family && !addr_is_any(&ep->addr) &&
	    !addr_equal(&want->addr, &ep->addr))
		return false;
	return want->port == ep->port;
}

/* ---- counters ----------------------------------------------------------- */

struct counter {
	int attr;
	const char *key;	/* JSON */
	const char *label;	/* plain, after "tx:" or "rx:" */
	bool rx;
};

static const struct counter counters[] = {
	{ UDPCP_A_STATS_TX_MSGS, "tx_msgs", "msgs", false },
	{ UDPCP_A_STATS_TX_BYTES, "tx_bytes", "bytes", false },
	{ UDPCP_A_STATS_TX_TIMEOUT, "tx_timeout", "timeout", false },
	{ UDPCP_A_STATS_TX_RETRIES, "tx_retries", "retries", false },
	{ UDPCP_A_STATS_PMTU_RESTARTS, "pmtu_restarts", "pmtu-restarts",
	  false },
	{ UDPCP_A_STATS_ICMP_ERRORS, "icmp_errors", "icmp-errors", false },
	{ UDPCP_A_STATS_RX_MSGS, "rx_msgs", "msgs", true },
	{ UDPCP_A_STATS_RX_BYTES, "rx_bytes", "bytes", true },
	{ UDPCP_A_STATS_RX_TIMEOUT, "rx_timeout", "timeout", true },
	{ UDPCP_A_STATS_RX_DISCARDED_FRAGS, "rx_discarded_frags",
	  "discarded-frags", true },
	{ UDPCP_A_STATS_RX_DUPLICATES, "rx_duplicates", "duplicates", true },
	{ UDPCP_A_STATS_RX_MALFORMED, "rx_malformed", "malformed", true },
	{ UDPCP_A_STATS_RX_DROPPED, "rx_dropped", "dropped", true },
	{ UDPCP_A_STATS_RX_REFUSED, "rx_refused", "refused", true },
	{ UDPCP_A_STATS_CRC_ERRORS, "crc_errors", "crc-errors", true },
};

/*
 * Two plain lines, "tx: ..." and "rx: ...", indented by @indent; in JSON
 * the counters of object @key, or of the current object if @key is NULL.
 */
void print_stats(struct nlattr *nest, const char *key, int indent)
{
	struct nlattr *tb[UDPCP_A_STATS_MAX + 1];
	int dir;

	if (!nest ||
	    nest_parse(tb, UDPCP_A_STATS_MAX, nest, stats_policy, "counters"))
		return;
	if (key)
		pr_obj_open(key);
	for (dir = 0; dir < 2; dir++) {
		pr_newline(indent);
		pr_word(dir ? "rx:" : "tx:");
		for (size_t i = 0; i < ARRAY_SIZE(counters); i++) {
			const struct counter *c = &counters[i];

			if (c->rx == dir && tb[c->attr])
				pr_uint(c->key, c->label,
					nla_get_u64(tb[c->attr]));
		}
	}
	if (key)
		pr_obj_close();
}

/* ---- peers -------------------------------------------------------------- */

static const char *const peer_states[] = {
	[UDPCP_PEER_STATE_IDLE] = "idle",
	[UDPCP_PEER_STATE_SYNCING] = "syncing",
	[UDPCP_PEER_STATE_SENDING] = "sending",
	[UDPCP_PEER_STATE_CONFIGURED] = "configured",
};

static const struct {
	uint32_t bit;
	const char *name;
} peer_flags[] = {
	{ UDPCP_PEER_F_CONFIGURED, "configured" },
	{ UDPCP_PEER_F_NEED_SYNC, "need-sync" },
};

int kw_state(struct req *r, const struct kw *k, const char *val)
{
	for (size_t i = 0; i < ARRAY_SIZE(peer_states); i++) {
		if (peer_states[i] && !strcmp(val, peer_states[i])) {
			r->state = i + 1;
			return 0;
		}
	}
	return usage_err("%s: \"%s\" is not a state (idle, syncing, sending or configured)",
			 k->word, val);
}

static void print_state(struct nlattr *a)
{
	uint8_t s = nla_get_u8(a);
	char num[8];

	if (s < ARRAY_SIZE(peer_states)) {
		pr_str("state", "state", peer_states[s]);
	} else {
		snprintf(num, sizeof(num), "%u", s);
		pr_str("state", "state", num);
	}
}

static void print_flags(struct nlattr *a)
{
	uint32_t f = nla_get_u32(a);
	const char *names[ARRAY_SIZE(peer_flags) + 1];
	char rest[16];
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(peer_flags); i++) {
		if (f & peer_flags[i].bit)
			names[n++] = peer_flags[i].name;
		f &= ~peer_flags[i].bit;
	}
	/* Bits a newer kernel knows: shown in hex rather than dropped. */
	if (f) {
		snprintf(rest, sizeof(rest), "0x%x", f);
		names[n++] = rest;
	}
	pr_list("flags", "flags", names, n);
}

int peer_parse(struct nlattr **tb, struct nlattr *nest,
	       struct endpoint *remote, struct endpoint *local)
{
	if (nest_parse(tb, UDPCP_A_PEER_MAX, nest, peer_policy, "peer") ||
	    sock_endpoint(tb[UDPCP_A_PEER_SOCK], local))
		return -1;
	memset(remote, 0, sizeof(*remote));
	get_addr(tb[UDPCP_A_PEER_REMOTE_IPV4], tb[UDPCP_A_PEER_REMOTE_IPV6],
		 &remote->addr);
	if (tb[UDPCP_A_PEER_REMOTE_PORT])
		remote->port = nla_get_u16(tb[UDPCP_A_PEER_REMOTE_PORT]);
	return 0;
}

/* For dumps: the kernel sends all peers, "peer show" narrows them here. */
bool peer_matches(struct nlattr *nest, const struct req *filter)
{
	struct nlattr *tb[UDPCP_A_PEER_MAX + 1];
	struct endpoint remote, local;

	if (peer_parse(tb, nest, &remote, &local))
		return false;
	if (filter->remote.family && !addr_equal(&filter->remote, &remote.addr))
		return false;
	if (filter->port && filter->port != remote.port)
		return false;
	if (filter->state && (!tb[UDPCP_A_PEER_STATE] ||
			      nla_get_u8(tb[UDPCP_A_PEER_STATE]) !=
			      filter->state - 1))
		return false;
	return endpoint_matches(&local, filter);
}

static void print_u16_attr(struct nlattr *a, const char *key,
			   const char *label)
{
	if (a)
		pr_uint(key, label, nla_get_u16(a));
}

static void print_u32_unit(struct nlattr *a, const char *key,
			   const char *label, const char *unit)
{
	if (a)
		pr_uint_unit(key, label, nla_get_u32(a), unit);
}

/* The errnos UDP makes of ICMP errors, by name; others as numbers. */
static const char *icmp_errno_name(unsigned int err, char *buf, size_t len)
{
	static const struct {
		unsigned int err;
		const char *name;
	} names[] = {
		{ ECONNREFUSED, "ECONNREFUSED" }, { EHOSTUNREACH, "EHOSTUNREACH" },
		{ ENETUNREACH, "ENETUNREACH" }, { EACCES, "EACCES" },
		{ EPROTO, "EPROTO" }, { ENOPROTOOPT, "ENOPROTOOPT" },
		{ EHOSTDOWN, "EHOSTDOWN" }, { ENONET, "ENONET" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { EMSGSIZE, "EMSGSIZE" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].err == err)
			return names[i].name;
	snprintf(buf, len, "%u", err);
	return buf;
}

/* "icmp-errors N icmp-last ERRNO icmp-age Tms", if the peer had any. */
static void print_icmp(struct nlattr **tb)
{
	char buf[16];

	if (!tb[UDPCP_A_PEER_ICMP_ERRORS])
		return;
	print_u32_unit(tb[UDPCP_A_PEER_ICMP_ERRORS], "icmp_errors",
		       "icmp-errors", "");
	if (tb[UDPCP_A_PEER_ICMP_LAST_ERRNO]) {
		unsigned int err = nla_get_u32(tb[UDPCP_A_PEER_ICMP_LAST_ERRNO]);

		pr_json_uint("icmp_last_errno", err);
		pr_str("icmp_last_error", "icmp-last",
		       icmp_errno_name(err, buf, sizeof(buf)));
	}
	print_u32_unit(tb[UDPCP_A_PEER_ICMP_LAST_MS], "icmp_last_ms",
		       "icmp-age", "ms");
}

/*
 * "HEADLINE ADDR port PORT local ADDR:PORT ..." and, if @full, indented
 * lines of parameters, message IDs and times and, with -s, counters.
 * Events use the same printer, with the event's name as @headline.
 */
void print_peer(struct nlattr *nest, const char *headline, bool full)
{
	struct nlattr *tb[UDPCP_A_PEER_MAX + 1];
	struct endpoint remote, local;
	char buf[INET6_ADDRSTRLEN];

	if (peer_parse(tb, nest, &remote, &local))
		return;
	if (headline)
		pr_word(headline);
	if (remote.addr.family)
		pr_str("remote_address", NULL,
		       addr_str(&remote.addr, buf, sizeof(buf)));
	if (tb[UDPCP_A_PEER_REMOTE_PORT])
		pr_uint("remote_port", "port", remote.port);
	if (tb[UDPCP_A_PEER_SOCK])
		pr_endpoint("local_address", "local_port",
			    local.addr.family ? "local" : "local-port", &local);
	print_u16_attr(tb[UDPCP_A_PEER_MSG_ID], "msg_id", "msg-id");
	if (tb[UDPCP_A_PEER_STATE])
		print_state(tb[UDPCP_A_PEER_STATE]);
	if (tb[UDPCP_A_PEER_FLAGS])
		print_flags(tb[UDPCP_A_PEER_FLAGS]);
	if (!full)
		return;
	pr_newline(1);
	print_params(tb[UDPCP_A_PEER_PARAMS]);
	pr_newline(1);
	print_u16_attr(tb[UDPCP_A_PEER_NEXT_MSG_ID], "next_msg_id",
		       "next-msg-id");
	print_u16_attr(tb[UDPCP_A_PEER_LAST_RX_MSG_ID], "last_rx_msg_id",
		       "last-rx-msg-id");
	print_u32_unit(tb[UDPCP_A_PEER_IDLE_MS], "idle_ms", "idle", "ms");
	print_u32_unit(tb[UDPCP_A_PEER_RTT_US], "rtt_us", "rtt", "us");
	print_icmp(tb);
	print_u32_unit(tb[UDPCP_A_PEER_RX_QUEUED], "rx_queued_bytes",
		       "rx-queued", "B");
	if (opts.stats)
		print_stats(tb[UDPCP_A_PEER_STATS], "stats", 1);
	pr_newline(0);
}
