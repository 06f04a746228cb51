// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP: the "udpcp" generic netlink family.
 */
#include <linux/igmp.h>
#include <net/genetlink.h>
#include <net/if_inet6.h>
#include <net/sock.h>

#include "udpcp.h"
#include "netlink-gen.h"

static struct genl_family udpcp_genl_family;

/*
 * netlink-gen.c has the group too, for the family struct that 6.12's
 * generator writes only for plain genetlink families; it cannot say that
 * joining takes CAP_NET_ADMIN.
 */
static const struct genl_multicast_group udpcp_mcgrps[] = {
	[UDPCP_NLGRP_EVENTS] = {
		.name = UDPCP_MCGRP_EVENTS,
		.flags = UDPCP_MCGRP_FLAGS,
	},
};

static int udpcp_put_params(struct sk_buff *skb, int attr,
			    const struct udpcp_params *p)
{
	struct nlattr *nest = nla_nest_start(skb, attr);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, UDPCP_A_PARAMS_TRANSFER_MODE, p->transfer_mode) ||
	    nla_put_u8(skb, UDPCP_A_PARAMS_CHECKSUM, p->checksum) ||
	    nla_put_u32(skb, UDPCP_A_PARAMS_TX_TIMEOUT, p->tx_timeout_ms) ||
	    nla_put_u32(skb, UDPCP_A_PARAMS_RX_TIMEOUT, p->rx_timeout_ms) ||
	    nla_put_u8(skb, UDPCP_A_PARAMS_MAX_TRIES, p->max_tries) ||
	    nla_put_u8(skb, UDPCP_A_PARAMS_OUTSTANDING_ACKS,
		       p->outstanding_acks)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Apply the params present in @nest (already validated) to @p. */
static void udpcp_get_params(struct nlattr **tb, struct udpcp_params *p)
{
	if (tb[UDPCP_A_PARAMS_TRANSFER_MODE])
		p->transfer_mode = nla_get_u8(tb[UDPCP_A_PARAMS_TRANSFER_MODE]);
	if (tb[UDPCP_A_PARAMS_CHECKSUM])
		p->checksum = nla_get_u8(tb[UDPCP_A_PARAMS_CHECKSUM]);
	if (tb[UDPCP_A_PARAMS_TX_TIMEOUT])
		p->tx_timeout_ms = nla_get_u32(tb[UDPCP_A_PARAMS_TX_TIMEOUT]);
	if (tb[UDPCP_A_PARAMS_RX_TIMEOUT])
		p->rx_timeout_ms = nla_get_u32(tb[UDPCP_A_PARAMS_RX_TIMEOUT]);
	if (tb[UDPCP_A_PARAMS_MAX_TRIES])
		p->max_tries = nla_get_u8(tb[UDPCP_A_PARAMS_MAX_TRIES]);
	if (tb[UDPCP_A_PARAMS_OUTSTANDING_ACKS])
		p->outstanding_acks =
			nla_get_u8(tb[UDPCP_A_PARAMS_OUTSTANDING_ACKS]);
}

/* An address attribute pair (IPv4 or IPv6) as a v4-mapped in6_addr. */
static int udpcp_nl_addr(struct nlattr *v4, struct nlattr *v6,
			 struct in6_addr *addr, struct netlink_ext_ack *extack)
{
	if (v4 && v6) {
		NL_SET_ERR_MSG_ATTR(extack, v6,
				    "give an IPv4 or an IPv6 address, not both");
		return -EINVAL;
	}
	if (v4) {
		ipv6_addr_set_v4mapped(nla_get_in_addr(v4), addr);
		return 1;
	}
	if (v6) {
		*addr = nla_get_in6_addr(v6);
		return 1;
	}
	return 0;
}

static int udpcp_nl_put_addr(struct sk_buff *skb, int v4attr, int v6attr,
			     const struct in6_addr *addr)
{
	if (ipv6_addr_v4mapped(addr))
		return nla_put_in_addr(skb, v4attr, addr->s6_addr32[3]);
	return nla_put_in6_addr(skb, v6attr, addr);
}

/* The local address a socket is bound to, IPv4 as v4-mapped. */
static void udpcp_sock_local(struct udpcp_sock *usk, struct in6_addr *addr)
{
	struct sock *sk = &usk->inet.sk;

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		*addr = sk->sk_v6_rcv_saddr;
		return;
	}
#endif
	ipv6_addr_set_v4mapped(usk->inet.inet_rcv_saddr, addr);
}

/*
 * Under un->lock: the socket that a UDPCP_A_SOCK nest names, by cookie or
 * by local port (and address, where given; a wildcard-bound socket
 * matches any address).
 */
static struct udpcp_sock *udpcp_nl_find_sock(struct udpcp_net *un,
					     struct nlattr *nest,
					     struct netlink_ext_ack *extack)
{
	struct nlattr *tb[ARRAY_SIZE(udpcp_sock_select_nl_policy)];
	struct udpcp_sock *usk, *found = NULL;
	struct in6_addr want, have;
	int has_addr, err;
	u64 cookie = 0;
	__be16 port = 0;

	err = nla_parse_nested(tb, ARRAY_SIZE(tb) - 1, nest,
			       udpcp_sock_select_nl_policy, extack);
	if (err)
		return ERR_PTR(err);
	has_addr = udpcp_nl_addr(tb[UDPCP_A_SOCK_LOCAL_IPV4],
				 tb[UDPCP_A_SOCK_LOCAL_IPV6], &want, extack);
	if (has_addr < 0)
		return ERR_PTR(has_addr);
	if (tb[UDPCP_A_SOCK_COOKIE])
		cookie = nla_get_u64(tb[UDPCP_A_SOCK_COOKIE]);
	if (tb[UDPCP_A_SOCK_LOCAL_PORT])
		port = htons(nla_get_u16(tb[UDPCP_A_SOCK_LOCAL_PORT]));
	if (!cookie && !port) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "a socket is named by its local port or cookie");
		return ERR_PTR(-EINVAL);
	}

	lockdep_assert_held(&un->lock);
	list_for_each_entry(usk, &un->socks, net_node) {
		if (!usk->bound)
			continue;
		if (cookie && usk->cookie != cookie)
			continue;
		if (port && usk->inet.inet_sport != port)
			continue;
		if (has_addr) {
			udpcp_sock_local(usk, &have);
			if (!ipv6_addr_any(&have) &&
			    !(ipv6_addr_v4mapped(&have) && !have.s6_addr32[3]) &&
			    !ipv6_addr_equal(&have, &want))
				continue;
		}
		if (found) {
			NL_SET_ERR_MSG_ATTR(extack, nest,
					    "more than one socket matches: give the local address");
			return ERR_PTR(-EINVAL);
		}
		found = usk;
	}
	if (!found) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "no UDPCP socket is bound there");
		return ERR_PTR(-ENOENT);
	}
	return found;
}

static int udpcp_nl_put_sock_id(struct sk_buff *skb, struct udpcp_sock *usk)
{
	struct in6_addr local;

	udpcp_sock_local(usk, &local);
	if (nla_put_u64_64bit(skb, UDPCP_A_SOCK_COOKIE,
			      usk->cookie, UDPCP_A_SOCK_PAD) ||
	    nla_put_u16(skb, UDPCP_A_SOCK_FAMILY, usk->inet.sk.sk_family) ||
	    nla_put_u16(skb, UDPCP_A_SOCK_LOCAL_PORT, ntohs(usk->inet.inet_sport)))
		return -EMSGSIZE;
	if (usk->inet.sk.sk_family == AF_INET)
		return nla_put_in_addr(skb, UDPCP_A_SOCK_LOCAL_IPV4,
				       local.s6_addr32[3]);
	return nla_put_in6_addr(skb, UDPCP_A_SOCK_LOCAL_IPV6, &local);
}

/* Under the state lock, or by whoever frees the peer (its last event). */
static int udpcp_nl_put_peer(struct sk_buff *skb, struct udpcp_peer *peer,
			     u16 msg_id)
{
	struct udpcp_params p;
	struct nlattr *nest, *sn;
	u32 flags;

	udpcp_peer_assert_locked(peer);
	nest = nla_nest_start(skb, UDPCP_A_PEER);
	if (!nest)
		return -EMSGSIZE;
	sn = nla_nest_start(skb, UDPCP_A_PEER_SOCK);
	if (!sn || udpcp_nl_put_sock_id(skb, peer->usk))
		goto cancel;
	nla_nest_end(skb, sn);
	udpcp_peer_params(peer, &p);
	flags = peer->flags & (UDPCP_PEER_F_CONFIGURED | UDPCP_PEER_F_NEED_SYNC);
	if (udpcp_nl_put_addr(skb, UDPCP_A_PEER_REMOTE_IPV4,
			      UDPCP_A_PEER_REMOTE_IPV6, &peer->key.addr) ||
	    nla_put_u16(skb, UDPCP_A_PEER_REMOTE_PORT, ntohs(peer->key.port)) ||
	    udpcp_put_params(skb, UDPCP_A_PEER_PARAMS, &p) ||
	    nla_put_u8(skb, UDPCP_A_PEER_STATE, udpcp_peer_state(peer)) ||
	    nla_put_u32(skb, UDPCP_A_PEER_FLAGS, flags) ||
	    nla_put_u16(skb, UDPCP_A_PEER_NEXT_MSG_ID, peer->next_id) ||
	    nla_put_u32(skb, UDPCP_A_PEER_IDLE_MS,
			jiffies_to_msecs(jiffies - READ_ONCE(peer->last_active))) ||
	    nla_put_u32(skb, UDPCP_A_PEER_RTT_US, peer->srtt_us) ||
	    udpcp_mib_nl_put(skb, UDPCP_A_PEER_STATS, &peer->stats))
		goto cancel;
	if ((peer->flags & UDPCP_PEER_F_RX_VALID) &&
	    nla_put_u16(skb, UDPCP_A_PEER_LAST_RX_MSG_ID, peer->rx_last_id))
		goto cancel;
	if (msg_id && nla_put_u16(skb, UDPCP_A_PEER_MSG_ID, msg_id))
		goto cancel;
	if (peer->stats.mibs[UDPCP_MIB_ICMP_ERRORS] &&
	    (nla_put_u32(skb, UDPCP_A_PEER_ICMP_ERRORS,
			 peer->stats.mibs[UDPCP_MIB_ICMP_ERRORS]) ||
	     nla_put_u32(skb, UDPCP_A_PEER_ICMP_LAST_ERRNO, peer->icmp_last_err) ||
	     nla_put_u32(skb, UDPCP_A_PEER_ICMP_LAST_MS,
			 jiffies_to_msecs(jiffies - peer->icmp_last))))
		goto cancel;
	if (peer->rx_queued &&
	    nla_put_u32(skb, UDPCP_A_PEER_RX_QUEUED, peer->rx_queued))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int udpcp_nl_put_cfg(struct sk_buff *skb, struct udpcp_net *un,
			    const struct udpcp_peer_tmpl *cfg)
{
	struct udpcp_params p = un->defaults;
	struct nlattr *nest;

	lockdep_assert_held(&un->lock);
	/* Overrides on top of the namespace defaults, as a new socket has. */
	udpcp_params_merge(&p, cfg->override, &cfg->params);

	nest = nla_nest_start(skb, UDPCP_A_PEER);
	if (!nest)
		return -EMSGSIZE;
	if (udpcp_nl_put_addr(skb, UDPCP_A_PEER_REMOTE_IPV4,
			      UDPCP_A_PEER_REMOTE_IPV6, &cfg->addr) ||
	    nla_put_u16(skb, UDPCP_A_PEER_REMOTE_PORT, ntohs(cfg->port)) ||
	    udpcp_put_params(skb, UDPCP_A_PEER_PARAMS, &p) ||
	    nla_put_u8(skb, UDPCP_A_PEER_STATE, UDPCP_PEER_STATE_CONFIGURED) ||
	    nla_put_u32(skb, UDPCP_A_PEER_FLAGS, UDPCP_PEER_F_CONFIGURED)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* --- defaults ----------------------------------------------------------- */

int udpcp_nl_defaults_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct udpcp_net *un = udpcp_pernet(genl_info_net(info));
	struct nlattr *nest;
	struct sk_buff *msg;
	void *hdr;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &udpcp_genl_family, 0,
				UDPCP_CMD_DEFAULTS_GET);
	if (!hdr)
		goto nomem;
	nest = nla_nest_start(msg, UDPCP_A_DEFAULTS);
	if (!nest)
		goto nomem;
	mutex_lock(&un->lock);
	if (udpcp_put_params(msg, UDPCP_A_DEFAULTS_PARAMS, &un->defaults) ||
	    nla_put_u32(msg, UDPCP_A_DEFAULTS_MAX_PEERS, un->max_peers) ||
	    nla_put_u32(msg, UDPCP_A_DEFAULTS_PEER_EXPIRY, un->peer_expiry_ms)) {
		mutex_unlock(&un->lock);
		goto nomem;
	}
	mutex_unlock(&un->lock);
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

nomem:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* Parses an optional params nest into @p and returns the override bits. */
static int udpcp_nl_params(struct nlattr *nest, struct udpcp_params *p,
			   struct netlink_ext_ack *extack)
{
	static const u8 bit_of[UDPCP_A_PARAMS_MAX + 1] = {
		[UDPCP_A_PARAMS_TRANSFER_MODE] = UDPCP_P_TRANSFER_MODE,
		[UDPCP_A_PARAMS_CHECKSUM] = UDPCP_P_CHECKSUM,
		[UDPCP_A_PARAMS_TX_TIMEOUT] = UDPCP_P_TX_TIMEOUT,
		[UDPCP_A_PARAMS_RX_TIMEOUT] = UDPCP_P_RX_TIMEOUT,
		[UDPCP_A_PARAMS_MAX_TRIES] = UDPCP_P_MAX_TRIES,
		[UDPCP_A_PARAMS_OUTSTANDING_ACKS] = UDPCP_P_OUTSTANDING_ACKS,
	};
	struct nlattr *tb[UDPCP_A_PARAMS_MAX + 1];
	int err, i, override = 0;

	if (!nest)
		return 0;
	err = nla_parse_nested(tb, UDPCP_A_PARAMS_MAX, nest,
			       udpcp_params_nl_policy, extack);
	if (err)
		return err;
	udpcp_get_params(tb, p);
	for (i = 1; i <= UDPCP_A_PARAMS_MAX; i++)
		if (tb[i])
			override |= BIT(bit_of[i]);
	return override;
}

int udpcp_nl_defaults_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct udpcp_net *un = udpcp_pernet(genl_info_net(info));
	struct nlattr *tb[UDPCP_A_DEFAULTS_MAX + 1];
	struct udpcp_params p;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, UDPCP_A_DEFAULTS))
		return -EINVAL;
	err = nla_parse_nested(tb, UDPCP_A_DEFAULTS_MAX,
			       info->attrs[UDPCP_A_DEFAULTS],
			       udpcp_defaults_nl_policy, info->extack);
	if (err)
		return err;

	mutex_lock(&un->lock);
	p = un->defaults;
	err = udpcp_nl_params(tb[UDPCP_A_DEFAULTS_PARAMS], &p, info->extack);
	if (err >= 0) {
		un->defaults = p;
		if (tb[UDPCP_A_DEFAULTS_MAX_PEERS])
			WRITE_ONCE(un->max_peers,
				   nla_get_u32(tb[UDPCP_A_DEFAULTS_MAX_PEERS]));
		if (tb[UDPCP_A_DEFAULTS_PEER_EXPIRY])
			WRITE_ONCE(un->peer_expiry_ms,
				   nla_get_u32(tb[UDPCP_A_DEFAULTS_PEER_EXPIRY]));
	}
	mutex_unlock(&un->lock);
	return err < 0 ? err : 0;
}

/* --- sockets ------------------------------------------------------------ */

static int udpcp_nl_fill_sock(struct sk_buff *skb, struct netlink_callback *cb,
			      struct udpcp_sock *usk)
{
	struct udpcp_sock_queues q;
	struct udpcp_mib st = {};
	struct nlattr *nest;
	struct udpcp_params p;
	void *hdr;

	/* Keeps @usk listed, and so open. */
	lockdep_assert_held(&udpcp_pernet(udpcp_sock_net(usk))->lock);
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &udpcp_genl_family, NLM_F_MULTI, UDPCP_CMD_SOCK_GET);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, UDPCP_A_SOCK);
	if (!nest)
		goto cancel;
	udpcp_sock_stats(usk, &st);
	udpcp_sock_queues(usk, &q);
	spin_lock_bh(&usk->lock);
	p = usk->params;
	spin_unlock_bh(&usk->lock);
	if (udpcp_nl_put_sock_id(skb, usk) ||
	    udpcp_put_params(skb, UDPCP_A_SOCK_PARAMS, &p) ||
	    nla_put_u32(skb, UDPCP_A_SOCK_PEER_COUNT, READ_ONCE(usk->npeers)) ||
	    nla_put_u64_64bit(skb, UDPCP_A_SOCK_INODE,
			      sock_i_ino(&usk->inet.sk), UDPCP_A_SOCK_PAD) ||
	    nla_put_u32(skb, UDPCP_A_SOCK_UID,
			from_kuid_munged(sk_user_ns(NETLINK_CB(cb->skb).sk),
					 sock_i_uid(&usk->inet.sk))) ||
	    nla_put_u32(skb, UDPCP_A_SOCK_RX_QUEUE_MSGS, q.rx_msgs) ||
	    nla_put_u32(skb, UDPCP_A_SOCK_RX_QUEUE_BYTES, q.rx_bytes) ||
	    nla_put_u32(skb, UDPCP_A_SOCK_TX_QUEUE_MSGS, q.tx_msgs) ||
	    nla_put_u32(skb, UDPCP_A_SOCK_TX_QUEUE_BYTES, q.tx_bytes) ||
	    nla_put_u32(skb, UDPCP_A_SOCK_RX_PARTIAL_MEM, q.rx_partial_mem) ||
	    udpcp_mib_nl_put(skb, UDPCP_A_SOCK_STATS, &st))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* Sockets are few: resume by position; cb->args[0] counts those sent. */
int udpcp_nl_sock_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct udpcp_net *un = udpcp_pernet(sock_net(skb->sk));
	struct udpcp_sock *usk;
	long idx = 0;

	mutex_lock(&un->lock);
	list_for_each_entry(usk, &un->socks, net_node) {
		if (!usk->bound || idx++ < cb->args[0])
			continue;
		if (udpcp_nl_fill_sock(skb, cb, usk)) {
			idx--;
			break;
		}
	}
	mutex_unlock(&un->lock);
	cb->args[0] = idx;
	return skb->len;
}

/* --- peers ------------------------------------------------------------- */

struct udpcp_nl_peer_req {
	struct udpcp_addr	remote;
	struct nlattr		*sock;		/* UDPCP_A_PEER_SOCK, if given */
	struct nlattr		*params;
	bool			replace;	/* peer-new only */
};

static int udpcp_nl_peer_parse(struct genl_info *info,
			       struct udpcp_nl_peer_req *req, bool need_port)
{
	struct nlattr *tb[ARRAY_SIZE(udpcp_peer_request_nl_policy)];
	struct netlink_ext_ack *extack = info->extack;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, UDPCP_A_PEER))
		return -EINVAL;
	err = nla_parse_nested(tb, ARRAY_SIZE(tb) - 1, info->attrs[UDPCP_A_PEER],
			       udpcp_peer_request_nl_policy, extack);
	if (err)
		return err;
	memset(req, 0, sizeof(*req));
	err = udpcp_nl_addr(tb[UDPCP_A_PEER_REMOTE_IPV4],
			    tb[UDPCP_A_PEER_REMOTE_IPV6], &req->remote.addr,
			    extack);
	if (err < 0)
		return err;
	if (!err) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[UDPCP_A_PEER],
				    "missing remote address (remote-ipv4 or remote-ipv6)");
		return -EINVAL;
	}
	if (need_port && !tb[UDPCP_A_PEER_REMOTE_PORT]) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[UDPCP_A_PEER],
				    "missing remote port");
		return -EINVAL;
	}
	if (tb[UDPCP_A_PEER_REMOTE_PORT])
		req->remote.port = htons(nla_get_u16(tb[UDPCP_A_PEER_REMOTE_PORT]));
	req->sock = tb[UDPCP_A_PEER_SOCK];
	req->params = tb[UDPCP_A_PEER_PARAMS];
	req->replace = nla_get_flag(tb[UDPCP_A_PEER_REPLACE]);
	if (req->replace && info->genlhdr->cmd != UDPCP_CMD_PEER_NEW) {
		NL_SET_ERR_MSG_ATTR(extack, tb[UDPCP_A_PEER_REPLACE],
				    "replace is for peer-new only");
		return -EINVAL;
	}
	return 0;
}

/* Can this socket talk to that address at all? */
static int udpcp_nl_peer_family_ok(struct udpcp_sock *usk,
				   const struct udpcp_nl_peer_req *req,
				   struct netlink_ext_ack *extack)
{
	struct sock *sk = &usk->inet.sk;
	bool v4 = ipv6_addr_v4mapped(&req->remote.addr);

	if (sk->sk_family == AF_INET && !v4) {
		NL_SET_ERR_MSG(extack, "an IPv4 socket cannot reach an IPv6 peer");
		return -EAFNOSUPPORT;
	}
	if (sk->sk_family == AF_INET6 && v4 && ipv6_only_sock(sk)) {
		NL_SET_ERR_MSG(extack, "an IPv6-only socket cannot reach an IPv4 peer");
		return -EAFNOSUPPORT;
	}
	return 0;
}

static struct udpcp_peer_tmpl *udpcp_nl_find_cfg(struct udpcp_net *un,
						 const struct udpcp_addr *ra)
{
	struct udpcp_peer_tmpl *cfg;

	lockdep_assert_held(&un->lock);
	list_for_each_entry(cfg, &un->tmpls, node)
		if (cfg->port == ra->port && ipv6_addr_equal(&cfg->addr, &ra->addr))
			return cfg;
	return NULL;
}

/*
 * A template changed: every socket's peer for that endpoint follows.  One
 * removed takes back what it set, and only that: what "peer change" set on
 * the peer itself stays.
 */
static void udpcp_nl_cfg_apply(struct udpcp_net *un,
			       const struct udpcp_peer_tmpl *cfg, bool remove)
{
	struct udpcp_peer *peer;
	struct udpcp_sock *usk;

	lockdep_assert_held(&un->lock);
	list_for_each_entry(usk, &un->socks, net_node) {
		spin_lock_bh(&usk->lock);
		list_for_each_entry(peer, &usk->peers, sock_node) {
			if (peer->key.port != cfg->port ||
			    !ipv6_addr_equal(&peer->key.addr, &cfg->addr) ||
			    (peer->flags & UDPCP_PEER_F_CONFIGURED))
				continue;
			if (remove)
				peer->override &= ~cfg->override;
			else
				udpcp_peer_set_params(peer, cfg->override,
						      &cfg->params);
		}
		spin_unlock_bh(&usk->lock);
	}
}

/*
 * A namespace-wide peer.  With @replace, one that exists takes exactly the
 * new parameters: the peers that followed the old ones lose them first, as
 * if it had been deleted and added again, but in one step.
 */
static int udpcp_nl_cfg_new(struct udpcp_net *un, struct udpcp_nl_peer_req *req,
			    bool replace, struct netlink_ext_ack *extack)
{
	struct udpcp_peer_tmpl *cfg, *old;
	int override;

	lockdep_assert_held(&un->lock);
	old = udpcp_nl_find_cfg(un, &req->remote);
	if (old && !replace) {
		NL_SET_ERR_MSG(extack, "peer already exists");
		return -EEXIST;
	}
	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	override = udpcp_nl_params(req->params, &cfg->params, extack);
	if (override < 0) {
		kfree(cfg);
		return override;
	}
	cfg->addr = req->remote.addr;
	cfg->port = req->remote.port;
	cfg->override = override;
	if (old) {
		udpcp_nl_cfg_apply(un, old, true);
		/* Readers walk the list under RCU: replace, don't edit. */
		list_replace_rcu(&old->node, &cfg->node);
		kfree_rcu(old, rcu);
	} else {
		list_add_tail_rcu(&cfg->node, &un->tmpls);
	}
	udpcp_nl_cfg_apply(un, cfg, false);
	return 0;
}

/* Under the namespace lock: a socket's peer that exists takes exactly @ovr. */
static int udpcp_nl_peer_replace(struct udpcp_sock *usk,
				 const struct udpcp_addr *remote,
				 const struct udpcp_peer_override *ovr)
{
	struct udpcp_peer *peer;

	lockdep_assert_held(&udpcp_pernet(udpcp_sock_net(usk))->lock);
	spin_lock_bh(&usk->lock);
	peer = udpcp_peer_lookup(usk, remote);
	if (peer) {
		peer->flags |= UDPCP_PEER_F_CONFIGURED;
		peer->override = 0;
		udpcp_peer_set_params(peer, ovr->override, &ovr->params);
	}
	spin_unlock_bh(&usk->lock);
	return peer ? 0 : -ENOENT;
}

int udpcp_nl_peer_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct udpcp_net *un = udpcp_pernet(genl_info_net(info));
	struct udpcp_peer_override ovr = {};
	struct udpcp_nl_peer_req req;
	struct udpcp_peer *peer;
	struct udpcp_sock *usk;
	int override, err;

	err = udpcp_nl_peer_parse(info, &req, true);
	if (err)
		return err;
	mutex_lock(&un->lock);
	if (!req.sock) {
		err = udpcp_nl_cfg_new(un, &req, req.replace, info->extack);
		goto unlock;
	}
	usk = udpcp_nl_find_sock(un, req.sock, info->extack);
	err = PTR_ERR_OR_ZERO(usk);
	if (err)
		goto unlock;
	err = udpcp_nl_peer_family_ok(usk, &req, info->extack);
	if (err)
		goto unlock;
	override = udpcp_nl_params(req.params, &ovr.params, info->extack);
	if (override < 0) {
		err = override;
		goto unlock;
	}
	ovr.override = override;
	/* Configured before the peer-created event tells anyone of it. */
	peer = udpcp_peer_add(usk, &req.remote, &ovr);
	err = PTR_ERR_OR_ZERO(peer);
	if (err == -EEXIST && req.replace)
		err = udpcp_nl_peer_replace(usk, &req.remote, &ovr);
	if (err == -EEXIST)
		NL_SET_ERR_MSG(info->extack, "peer already exists");
	else if (err == -ENOBUFS)
		NL_SET_ERR_MSG(info->extack,
			       "the socket has max-peers peers already");
unlock:
	mutex_unlock(&un->lock);
	return err;
}

int udpcp_nl_peer_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct udpcp_net *un = udpcp_pernet(genl_info_net(info));
	struct udpcp_peer_tmpl *cfg, *new;
	struct udpcp_nl_peer_req req;
	struct udpcp_peer *peer;
	struct udpcp_params p;
	struct udpcp_sock *usk;
	int override, err = 0;

	err = udpcp_nl_peer_parse(info, &req, true);
	if (err)
		return err;
	mutex_lock(&un->lock);
	if (!req.sock) {
		cfg = udpcp_nl_find_cfg(un, &req.remote);
		if (!cfg) {
			NL_SET_ERR_MSG(info->extack, "no such peer");
			err = -ENOENT;
			goto unlock;
		}
		new = kmemdup(cfg, sizeof(*cfg), GFP_KERNEL);
		if (!new) {
			err = -ENOMEM;
			goto unlock;
		}
		override = udpcp_nl_params(req.params, &new->params,
					   info->extack);
		if (override < 0) {
			kfree(new);
			err = override;
			goto unlock;
		}
		/* Readers walk the list under RCU: replace, don't edit. */
		new->override |= override;
		list_replace_rcu(&cfg->node, &new->node);
		kfree_rcu(cfg, rcu);
		udpcp_nl_cfg_apply(un, new, false);
		goto unlock;
	}
	usk = udpcp_nl_find_sock(un, req.sock, info->extack);
	err = PTR_ERR_OR_ZERO(usk);
	if (err)
		goto unlock;
	spin_lock_bh(&usk->lock);
	peer = udpcp_peer_lookup(usk, &req.remote);
	if (!peer) {
		spin_unlock_bh(&usk->lock);
		NL_SET_ERR_MSG(info->extack, "no such peer");
		err = -ENOENT;
		goto unlock;
	}
	p = peer->params;
	spin_unlock_bh(&usk->lock);
	override = udpcp_nl_params(req.params, &p, info->extack);
	if (override < 0) {
		err = override;
		goto unlock;
	}
	spin_lock_bh(&usk->lock);
	peer = udpcp_peer_lookup(usk, &req.remote);
	if (peer)
		udpcp_peer_set_params(peer, override, &p);
	spin_unlock_bh(&usk->lock);
unlock:
	mutex_unlock(&un->lock);
	return err;
}

int udpcp_nl_peer_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct udpcp_net *un = udpcp_pernet(genl_info_net(info));
	struct udpcp_nl_peer_req req;
	struct udpcp_peer_tmpl *cfg;
	struct udpcp_sock *usk;
	int err;

	err = udpcp_nl_peer_parse(info, &req, true);
	if (err)
		return err;
	mutex_lock(&un->lock);
	if (!req.sock) {
		cfg = udpcp_nl_find_cfg(un, &req.remote);
		if (cfg) {
			list_del_rcu(&cfg->node);
			udpcp_nl_cfg_apply(un, cfg, true);
			kfree_rcu(cfg, rcu);
		} else {
			NL_SET_ERR_MSG(info->extack, "no such peer");
			err = -ENOENT;
		}
		goto unlock;
	}
	usk = udpcp_nl_find_sock(un, req.sock, info->extack);
	err = PTR_ERR_OR_ZERO(usk);
	if (err)
		goto unlock;
	err = udpcp_peer_delete(usk, &req.remote);
	if (err)
		NL_SET_ERR_MSG(info->extack, "no such peer");
unlock:
	mutex_unlock(&un->lock);
	return err;
}

int udpcp_nl_peer_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct udpcp_net *un = udpcp_pernet(genl_info_net(info));
	struct udpcp_nl_peer_req req;
	struct udpcp_peer_tmpl *cfg;
	struct udpcp_peer *peer;
	struct udpcp_sock *usk;
	struct sk_buff *msg;
	void *hdr;
	int err;

	err = udpcp_nl_peer_parse(info, &req, true);
	if (err)
		return err;
	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &udpcp_genl_family, 0,
				UDPCP_CMD_PEER_GET);
	err = -EMSGSIZE;
	if (!hdr)
		goto free;

	mutex_lock(&un->lock);
	if (!req.sock) {
		cfg = udpcp_nl_find_cfg(un, &req.remote);
		err = cfg ? udpcp_nl_put_cfg(msg, un, cfg) : -ENOENT;
		goto unlock;
	}
	usk = udpcp_nl_find_sock(un, req.sock, info->extack);
	err = PTR_ERR_OR_ZERO(usk);
	if (err)
		goto unlock;
	spin_lock_bh(&usk->lock);
	peer = udpcp_peer_lookup(usk, &req.remote);
	err = peer ? udpcp_nl_put_peer(msg, peer, 0) : -ENOENT;
	spin_unlock_bh(&usk->lock);
unlock:
	mutex_unlock(&un->lock);
	if (err) {
		if (err == -ENOENT)
			NL_SET_ERR_MSG(info->extack, "no such peer");
		goto free;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
free:
	nlmsg_free(msg);
	return err;
}

/*
 * Peer dumps walk the namespace's peer table: peers present for the
 * whole dump are each reported, however many come and go meanwhile.
 * cb->ctx (which shares its space with cb->args) holds the walker, the
 * number of templates sent, and whether the next call resumes with the
 * peer that did not fit.
 */
struct udpcp_nl_dump_ctx {
	struct rhashtable_iter	*iter;
	long			cfgs_sent;
	bool			resume;
};

int udpcp_nl_peer_dump_start(struct netlink_callback *cb)
{
	struct udpcp_nl_dump_ctx *ctx = (void *)cb->ctx;
	struct udpcp_net *un = udpcp_pernet(sock_net(cb->skb->sk));

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	ctx->iter = kmalloc(sizeof(*ctx->iter), GFP_KERNEL);
	if (!ctx->iter)
		return -ENOMEM;
	rhashtable_walk_enter(&un->peers, ctx->iter);
	return 0;
}

int udpcp_nl_peer_dump_done(struct netlink_callback *cb)
{
	struct udpcp_nl_dump_ctx *ctx = (void *)cb->ctx;

	if (ctx->iter) {
		rhashtable_walk_exit(ctx->iter);
		kfree(ctx->iter);
	}
	return 0;
}

static int udpcp_nl_dump_one_peer(struct sk_buff *skb,
				  struct netlink_callback *cb,
				  struct udpcp_peer *peer)
{
	struct udpcp_sock *usk = peer->usk;
	void *hdr;
	int err = 0;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &udpcp_genl_family, NLM_F_MULTI, UDPCP_CMD_PEER_GET);
	if (!hdr)
		return -EMSGSIZE;
	spin_lock_bh(&usk->lock);
	if (peer->flags & UDPCP_PEER_F_DEAD)
		err = -ENOENT;
	else if (udpcp_nl_put_peer(skb, peer, 0))
		err = -EMSGSIZE;
	spin_unlock_bh(&usk->lock);
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err == -ENOENT ? 0 : err;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int udpcp_nl_peer_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct udpcp_nl_dump_ctx *ctx = (void *)cb->ctx;
	struct udpcp_net *un = udpcp_pernet(sock_net(skb->sk));
	struct udpcp_peer_tmpl *cfg;
	struct udpcp_peer *peer;
	long idx = 0;
	void *hdr;

	mutex_lock(&un->lock);
	list_for_each_entry(cfg, &un->tmpls, node) {
		if (idx++ < ctx->cfgs_sent)
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &udpcp_genl_family,
				  NLM_F_MULTI, UDPCP_CMD_PEER_GET);
		if (!hdr || udpcp_nl_put_cfg(skb, un, cfg)) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			mutex_unlock(&un->lock);
			ctx->cfgs_sent = idx - 1;
			return skb->len;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&un->lock);
	ctx->cfgs_sent = idx;

	rhashtable_walk_start(ctx->iter);
	peer = ctx->resume ? rhashtable_walk_peek(ctx->iter) :
			     rhashtable_walk_next(ctx->iter);
	ctx->resume = false;
	for (; peer; peer = rhashtable_walk_next(ctx->iter)) {
		if (IS_ERR(peer)) {
			if (PTR_ERR(peer) == -EAGAIN)
				continue;	/* resized: may repeat, never miss */
			break;
		}
		if (udpcp_nl_dump_one_peer(skb, cb, peer)) {
			ctx->resume = true;
			break;
		}
	}
	rhashtable_walk_stop(ctx->iter);
	return skb->len;
}

/* --- statistics --------------------------------------------------------- */

int udpcp_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct udpcp_net *un = udpcp_pernet(genl_info_net(info));
	struct udpcp_mib st;
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &udpcp_genl_family, 0,
				UDPCP_CMD_STATS_GET);
	if (!hdr) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	mutex_lock(&un->lock);
	udpcp_net_stats(un, &st);
	mutex_unlock(&un->lock);
	err = udpcp_mib_nl_put(msg, UDPCP_A_STATS, &st);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* The peer a stats-reset names: its remote end and its socket, nothing else. */
static int udpcp_nl_reset_peer_parse(struct genl_info *info,
				     struct udpcp_nl_peer_req *req)
{
	struct nlattr *nest = info->attrs[UDPCP_A_PEER];
	int err;

	err = udpcp_nl_peer_parse(info, req, true);
	if (err)
		return err;
	if (!req->sock) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest,
				    "missing sock: a peer's counters are on its socket");
		return -EINVAL;
	}
	if (req->params || req->replace) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest,
				    "a reset takes no parameters");
		return -EINVAL;
	}
	return 0;
}

/*
 * Zeroes the counters the request names and nothing else: one peer's
 * (UDPCP_A_PEER, with its socket), one socket's with its peers'
 * (UDPCP_A_SOCK), or the whole namespace's (neither).
 */
int udpcp_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct udpcp_net *un = udpcp_pernet(genl_info_net(info));
	struct nlattr *sock = info->attrs[UDPCP_A_SOCK];
	struct nlattr *peer_attr = info->attrs[UDPCP_A_PEER];
	struct udpcp_nl_peer_req req;
	struct udpcp_peer *peer;
	struct udpcp_sock *usk;
	int err = 0;

	if (sock && peer_attr) {
		NL_SET_ERR_MSG_ATTR(info->extack, peer_attr,
				    "name a socket or a peer, not both");
		return -EINVAL;
	}
	if (peer_attr) {
		err = udpcp_nl_reset_peer_parse(info, &req);
		if (err)
			return err;
		sock = req.sock;
	}

	mutex_lock(&un->lock);
	if (!sock) {
		udpcp_net_stats_reset(un);
		goto unlock;
	}
	usk = udpcp_nl_find_sock(un, sock, info->extack);
	err = PTR_ERR_OR_ZERO(usk);
	if (err)
		goto unlock;
	if (!peer_attr) {
		udpcp_sock_stats_reset(usk);
		goto unlock;
	}
	spin_lock_bh(&usk->lock);
	peer = udpcp_peer_lookup(usk, &req.remote);
	if (peer)
		memset(&peer->stats, 0, sizeof(peer->stats));
	spin_unlock_bh(&usk->lock);
	if (!peer) {
		NL_SET_ERR_MSG(info->extack, "no such peer");
		err = -ENOENT;
	}
unlock:
	mutex_unlock(&un->lock);
	return err;
}

/* --- multicast groups --------------------------------------------------- */

static int udpcp_nl_group_change(struct genl_info *info, bool join)
{
	struct udpcp_net *un = udpcp_pernet(genl_info_net(info));
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[ARRAY_SIZE(udpcp_group_request_nl_policy)];
	struct udpcp_sock *usk;
	struct in6_addr group;
	int ifindex = 0, err;
	struct sock *sk;

	if (GENL_REQ_ATTR_CHECK(info, UDPCP_A_GROUP))
		return -EINVAL;
	err = nla_parse_nested(tb, ARRAY_SIZE(tb) - 1, info->attrs[UDPCP_A_GROUP],
			       udpcp_group_request_nl_policy, extack);
	if (err)
		return err;
	err = udpcp_nl_addr(tb[UDPCP_A_GROUP_IPV4], tb[UDPCP_A_GROUP_IPV6],
			    &group, extack);
	if (err <= 0) {
		if (!err)
			NL_SET_ERR_MSG_ATTR(extack, info->attrs[UDPCP_A_GROUP],
					    "missing group address (ipv4 or ipv6)");
		return err ? : -EINVAL;
	}
	if (ipv6_addr_v4mapped(&group) ? !ipv4_is_multicast(group.s6_addr32[3]) :
					 !ipv6_addr_is_multicast(&group)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[UDPCP_A_GROUP_IPV4] ? :
				    tb[UDPCP_A_GROUP_IPV6],
				    "not a multicast address");
		return -EINVAL;
	}
	if (!tb[UDPCP_A_GROUP_SOCK]) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[UDPCP_A_GROUP],
				    "missing socket (local port)");
		return -EINVAL;
	}
	if (tb[UDPCP_A_GROUP_IFINDEX])
		ifindex = nla_get_u32(tb[UDPCP_A_GROUP_IFINDEX]);

	mutex_lock(&un->lock);
	usk = udpcp_nl_find_sock(un, tb[UDPCP_A_GROUP_SOCK], extack);
	err = PTR_ERR_OR_ZERO(usk);
	if (err)
		goto unlock;
	sk = &usk->inet.sk;
	if (ipv6_addr_v4mapped(&group)) {
		struct ip_mreqn mreq = {
			.imr_multiaddr.s_addr = group.s6_addr32[3],
			.imr_ifindex = ifindex,
		};

		if (sk->sk_family == AF_INET6 && ipv6_only_sock(sk)) {
			NL_SET_ERR_MSG(extack, "an IPv6-only socket cannot join an IPv4 group");
			err = -EAFNOSUPPORT;
			goto unlock;
		}
		err = usk->udp->ops->setsockopt(usk->udp, SOL_IP,
						join ? IP_ADD_MEMBERSHIP :
						       IP_DROP_MEMBERSHIP,
						KERNEL_SOCKPTR(&mreq), sizeof(mreq));
	} else {
		struct ipv6_mreq mreq = {
			.ipv6mr_multiaddr = group,
			.ipv6mr_ifindex = ifindex,
		};

		if (sk->sk_family != AF_INET6) {
			NL_SET_ERR_MSG(extack, "an IPv4 socket cannot join an IPv6 group");
			err = -EAFNOSUPPORT;
			goto unlock;
		}
		err = usk->udp->ops->setsockopt(usk->udp, SOL_IPV6,
						join ? IPV6_ADD_MEMBERSHIP :
						       IPV6_DROP_MEMBERSHIP,
						KERNEL_SOCKPTR(&mreq), sizeof(mreq));
	}
	if (err == -EADDRINUSE)
		NL_SET_ERR_MSG(extack, "the socket is a member of that group already");
	else if (err == -EADDRNOTAVAIL || (err == -EINVAL && !join))
		NL_SET_ERR_MSG(extack, "the socket is not a member of that group");
	else if (err == -ENODEV)
		NL_SET_ERR_MSG(extack, "no such interface");
	else if (err)
		NL_SET_ERR_MSG(extack, "the kernel refused the membership change");
unlock:
	mutex_unlock(&un->lock);
	return err;
}

int udpcp_nl_group_join_doit(struct sk_buff *skb, struct genl_info *info)
{
	return udpcp_nl_group_change(info, true);
}

int udpcp_nl_group_leave_doit(struct sk_buff *skb, struct genl_info *info)
{
	return udpcp_nl_group_change(info, false);
}

static int udpcp_nl_put_group(struct sk_buff *skb, struct netlink_callback *cb,
			      struct udpcp_sock *usk, const struct in6_addr *group,
			      int ifindex)
{
	struct nlattr *nest, *sn;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &udpcp_genl_family, NLM_F_MULTI, UDPCP_CMD_GROUP_GET);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, UDPCP_A_GROUP);
	if (!nest)
		goto cancel;
	sn = nla_nest_start(skb, UDPCP_A_GROUP_SOCK);
	if (!sn || udpcp_nl_put_sock_id(skb, usk))
		goto cancel;
	nla_nest_end(skb, sn);
	if (udpcp_nl_put_addr(skb, UDPCP_A_GROUP_IPV4, UDPCP_A_GROUP_IPV6, group) ||
	    (ifindex && nla_put_u32(skb, UDPCP_A_GROUP_IFINDEX, ifindex)))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* Memberships live on the UDP socket; cb->args[0] counts those sent. */
int udpcp_nl_group_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct udpcp_net *un = udpcp_pernet(sock_net(skb->sk));
	struct ip_mc_socklist *iml;
	struct udpcp_sock *usk;
	struct in6_addr group;
	long idx = 0;
	struct sock *usk_udp;

	mutex_lock(&un->lock);
	rcu_read_lock();
	list_for_each_entry(usk, &un->socks, net_node) {
		usk_udp = usk->udp->sk;
		for (iml = rcu_dereference(inet_sk(usk_udp)->mc_list); iml;
		     iml = rcu_dereference(iml->next_rcu)) {
			if (idx++ < cb->args[0])
				continue;
			ipv6_addr_set_v4mapped(iml->multi.imr_multiaddr.s_addr,
					       &group);
			if (udpcp_nl_put_group(skb, cb, usk, &group,
					       iml->multi.imr_ifindex))
				goto full;
		}
#if IS_ENABLED(CONFIG_IPV6)
		if (usk_udp->sk_family == AF_INET6) {
			struct ipv6_mc_socklist *mc;

			for (mc = rcu_dereference(inet6_sk(usk_udp)->ipv6_mc_list);
			     mc; mc = rcu_dereference(mc->next)) {
				if (idx++ < cb->args[0])
					continue;
				if (udpcp_nl_put_group(skb, cb, usk, &mc->addr,
						       mc->ifindex))
					goto full;
			}
		}
#endif
	}
	idx++;
full:
	rcu_read_unlock();
	mutex_unlock(&un->lock);
	cb->args[0] = idx - 1;
	return skb->len;
}

/* --- events ------------------------------------------------------------- */

void udpcp_notify_peer(struct udpcp_peer *peer, u8 cmd, u16 msg_id, gfp_t gfp)
{
	struct net *net = udpcp_sock_net(peer->usk);
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&udpcp_genl_family, net, UDPCP_NLGRP_EVENTS))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, gfp);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &udpcp_genl_family, 0, cmd);
	if (!hdr || udpcp_nl_put_peer(msg, peer, msg_id)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&udpcp_genl_family, net, msg, 0,
				UDPCP_NLGRP_EVENTS, gfp);
}

static struct genl_family udpcp_genl_family __ro_after_init = {
	.name = UDPCP_GENL_NAME,
	.version = UDPCP_GENL_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.mcgrps = udpcp_mcgrps,
	.n_mcgrps = ARRAY_SIZE(udpcp_mcgrps),
};

#if UDPCP_GENL_SPLIT_OPS
int __init udpcp_genl_init(void)
{
	udpcp_genl_family.split_ops = udpcp_nl_ops;
	udpcp_genl_family.n_split_ops = ARRAY_SIZE(udpcp_nl_ops);
	return genl_register_family(&udpcp_genl_family);
}
#else
static struct genl_ops udpcp_genl_ops[ARRAY_SIZE(udpcp_nl_ops)];

int __init udpcp_genl_init(void)
{
	udpcp_genl_family.n_ops = udpcp_genl_ops_from_split(udpcp_genl_ops,
							    udpcp_nl_ops,
							    ARRAY_SIZE(udpcp_nl_ops));
	udpcp_genl_family.ops = udpcp_genl_ops;
	return genl_register_family(&udpcp_genl_family);
}
#endif

void udpcp_genl_exit(void)
{
	genl_unregister_family(&udpcp_genl_family);
}
