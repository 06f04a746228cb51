// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP: the socket layer.  socket(AF_INET or AF_INET6, SOCK_DGRAM,
 * IPPROTO_UDPCP): one sendmsg() is one message, one recvmsg() returns one
 * whole message.
 */
#include <linux/module.h>
#include <linux/errqueue.h>
#include <linux/in6.h>
#include <net/protocol.h>
#include <net/inet_common.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/transp_v6.h>
#include <net/udp.h>

#include "udpcp.h"

/*
 * After the RCU grace period (SOCK_RCU_FREE): the receive path may count
 * in pcpu_stats until then.
 */
static void udpcp_sock_destruct(struct sock *sk)
{
	free_percpu(udpcp_sk(sk)->pcpu_stats);
	inet_sock_destruct(sk);
}

static int udpcp_init_sock(struct sock *sk)
{
	/*
	 * Our own cookies: sock_gen_cookie() is inline around
	 * __sock_gen_cookie(), which 6.1 and 6.12 do not export to modules.
	 */
	static atomic64_t udpcp_cookie_gen;
	struct udpcp_sock *usk = udpcp_sk(sk);
	int err;

	usk->pcpu_stats = alloc_percpu(struct udpcp_pcpu_mib);
	if (!usk->pcpu_stats)
		return -ENOMEM;
	sk->sk_destruct = udpcp_sock_destruct;
	usk->cookie = atomic64_inc_return(&udpcp_cookie_gen);
	spin_lock_init(&usk->lock);
	INIT_LIST_HEAD(&usk->peers);
	INIT_LIST_HEAD(&usk->rx_partials);
	INIT_LIST_HEAD(&usk->net_node);
	/* The receive path finds the socket under RCU. */
	sock_set_flag(sk, SOCK_RCU_FREE);
	err = udpcp_udp_create(usk);
	if (err)
		return err;
	/* Multicast loops back by default, as for a UDP socket. */
	udpcp_inet_set_mc_loop(usk->udp->sk, true);
	udpcp_net_link_sock(usk);
	return 0;
}

static void udpcp_close(struct sock *sk, long timeout)
{
	struct udpcp_sock *usk = udpcp_sk(sk);

	udpcp_net_unlink_sock(usk);
	spin_lock_bh(&usk->lock);
	usk->dead = true;
	spin_unlock_bh(&usk->lock);
	udpcp_peers_release_sock(usk);
	udpcp_udp_release(usk);
	udpcp_net_account_closed(usk);
	sk_common_release(sk);
}

/* An AF_INET[6] address from the user, in the one internal form. */
static int udpcp_addr_from_user(struct sock *sk, const struct sockaddr *uaddr,
				int len, struct udpcp_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (sk->sk_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)uaddr;

		if (len < sizeof(*sin))
			return -EINVAL;
		if (sin->sin_family != AF_INET)
			return -EAFNOSUPPORT;
		ipv6_addr_set_v4mapped(sin->sin_addr.s_addr, &a->addr);
		a->port = sin->sin_port;
		return 0;
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)uaddr;
		int type;

		if (len < SIN6_LEN_RFC2133)
			return -EINVAL;
		if (sin6->sin6_family != AF_INET6)
			return -EAFNOSUPPORT;
		a->addr = sin6->sin6_addr;
		a->port = sin6->sin6_port;
		type = ipv6_addr_type(&a->addr);
		if (type == IPV6_ADDR_MAPPED && ipv6_only_sock(sk))
			return -ENETUNREACH;
		if ((type & IPV6_ADDR_LINKLOCAL) && len >= sizeof(*sin6))
			a->ifindex = sin6->sin6_scope_id;
		return 0;
	}
#else
	return -EAFNOSUPPORT;
#endif
}

static int udpcp_do_bind(struct sock *sk, const struct udpcp_addr *local)
{
	struct udpcp_sock *usk = udpcp_sk(sk);

	sock_owned_by_me(sk);
	if (usk->bound)
		return -EINVAL;
	return udpcp_udp_bind(usk, local);
}

static int udpcp_bind(struct sock *sk, struct sockaddr *uaddr, int len)
{
	struct udpcp_addr local;
	int err;

	err = udpcp_addr_from_user(sk, uaddr, len, &local);
	if (err)
		return err;
	lock_sock(sk);
	err = udpcp_do_bind(sk, &local);
	release_sock(sk);
	return err;
}

/* Autobind from sendmsg/connect: inet_autobind() holds the sock lock. */
static int udpcp_get_port(struct sock *sk, unsigned short snum)
{
	struct udpcp_addr any = {};

	if (sk->sk_family == AF_INET)
		ipv6_addr_set_v4mapped(htonl(INADDR_ANY), &any.addr);
	any.port = htons(snum);
	return udpcp_do_bind(sk, &any);
}

static int udpcp_hash(struct sock *sk)
{
	return 0;
}

static void udpcp_unhash(struct sock *sk)
{
}

/* SO_BINDTODEVICE after bind, under the sock lock: the UDP socket follows. */
static void udpcp_rehash(struct sock *sk)
{
	struct udpcp_sock *usk = udpcp_sk(sk);
	struct udpcp_peer *peer;

	sock_owned_by_me(sk);
	if (usk->udp)
		sock_bindtoindex(usk->udp->sk, sk->sk_bound_dev_if, true);
	spin_lock_bh(&usk->lock);
	list_for_each_entry(peer, &usk->peers, sock_node)
		udpcp_peer_dst_reset(peer);
	spin_unlock_bh(&usk->lock);
}

/* connect() sets the default destination; it filters nothing. */
static int udpcp_connect(struct sock *sk, struct sockaddr *uaddr, int len)
{
	struct inet_sock *inet = inet_sk(sk);
	struct udpcp_addr to;
	int err;

	err = udpcp_addr_from_user(sk, uaddr, len, &to);
	if (err)
		return err;
	if (!to.port)
		return -EINVAL;
	lock_sock(sk);
	inet->inet_dport = to.port;
	inet->inet_daddr = udpcp_addr_is_v4(&to) ? udpcp_addr_v4(&to) : LOOPBACK4_IPV6;
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		sk->sk_v6_daddr = to.addr;
		sk->sk_bound_dev_if = to.ifindex ? : sk->sk_bound_dev_if;
	}
#endif
	sk->sk_state = TCP_ESTABLISHED;
	release_sock(sk);
	return 0;
}

/*
 * connect(AF_UNSPEC): inet_dgram_connect() calls this without the sock
 * lock, which connect() takes to write the same fields (as UDP's does).
 */
static int udpcp_disconnect(struct sock *sk, int flags)
{
	struct inet_sock *inet = inet_sk(sk);

	lock_sock(sk);
	sk->sk_state = TCP_CLOSE;
	inet->inet_daddr = 0;
	inet->inet_dport = 0;
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6)
		sk->sk_v6_daddr = in6addr_any;
#endif
	release_sock(sk);
	return 0;
}

static int udpcp_msg_dest(struct sock *sk, struct msghdr *msg,
			  struct udpcp_addr *to)
{
	struct inet_sock *inet = inet_sk(sk);
	int err;

	if (msg->msg_name) {
		err = udpcp_addr_from_user(sk, msg->msg_name, msg->msg_namelen, to);
		if (err)
			return err;
		return to->port ? 0 : -EINVAL;
	}
	if (sk->sk_state != TCP_ESTABLISHED)
		return -EDESTADDRREQ;
	memset(to, 0, sizeof(*to));
	to->port = inet->inet_dport;
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		to->addr = sk->sk_v6_daddr;
		if (ipv6_addr_type(&to->addr) & IPV6_ADDR_LINKLOCAL)
			to->ifindex = sk->sk_bound_dev_if;
		return 0;
	}
#endif
	ipv6_addr_set_v4mapped(inet->inet_daddr, &to->addr);
	return 0;
}

/* SOL_UDPCP control messages choose the mode of one message. */
static int udpcp_parse_cmsgs(struct msghdr *msg, struct udpcp_tx_cb *cb)
{
	struct cmsghdr *cmsg;
	int val;

	cb->mode = UDPCP_TX_DEFAULT;
	cb->csum = UDPCP_TX_DEFAULT;
	if (!msg->msg_controllen)
		return 0;
	for_each_cmsghdr(cmsg, msg) {
		if (!CMSG_OK(msg, cmsg))
			return -EINVAL;
		if (cmsg->cmsg_level != SOL_UDPCP ||
		    cmsg->cmsg_len != CMSG_LEN(sizeof(int)))
			return -EINVAL;
		val = *(int *)CMSG_DATA(cmsg);
		switch (cmsg->cmsg_type) {
		case UDPCP_OPT_TRANSFER_MODE:
			if (val != UDPCP_NOACK && val != UDPCP_ACK &&
			    val != UDPCP_SINGLE_ACK)
				return -EINVAL;
			cb->mode = val;
			break;
		case UDPCP_OPT_CHECKSUM_MODE:
			if (val != UDPCP_NOCHECKSUM && val != UDPCP_CHECKSUM)
				return -EINVAL;
			cb->csum = val == UDPCP_CHECKSUM;
			break;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * A message that fits an order-0 head keeps room in front for our header
 * and those below: sent as one packet, it goes out as it is
 * (udpcp_tx_single()).  Larger ones go wholly into pages, which their
 * fragments then share (udpcp_tx_lend()).
 */
static struct sk_buff *udpcp_alloc_msg(struct sock *sk, struct msghdr *msg,
				       size_t len, int *err)
{
	unsigned int room = UDPCP_HEADROOM + UDPCP_HDR_LEN;
	bool linear = len <= SKB_MAX_HEAD(room);
	struct sk_buff *skb;

	skb = sock_alloc_send_pskb(sk, linear ? room + len : 0,
				   linear ? 0 : len,
				   msg->msg_flags & MSG_DONTWAIT, err, 0);
	if (!skb)
		return NULL;
	if (linear) {
		skb_reserve(skb, room);
		skb_put(skb, len);
	} else {
		skb->data_len = len;
		skb->len = len;
	}
	*err = skb_copy_datagram_from_iter(skb, 0, &msg->msg_iter, len);
	if (*err) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

static int udpcp_sendmsg(struct sock *sk, struct msghdr *msg, size_t len)
{
	struct udpcp_sock *usk = udpcp_sk(sk);
	struct udpcp_tx_cb cb;
	struct udpcp_peer *peer;
	struct sk_buff_head xmitq;
	struct udpcp_addr to;
	struct sk_buff *skb;
	int err;

	if (msg->msg_flags & MSG_OOB)
		return -EOPNOTSUPP;
	if (len > UDPCP_MAX_MSGSIZE)
		return -EMSGSIZE;
	err = udpcp_msg_dest(sk, msg, &to);
	if (err)
		return err;
	err = udpcp_parse_cmsgs(msg, &cb);
	if (err)
		return err;

	skb = udpcp_alloc_msg(sk, msg, len, &err);
	if (!skb)
		return err;
	*UDPCP_TX_CB(skb) = cb;

	__skb_queue_head_init(&xmitq);
	for (;;) {
		spin_lock_bh(&usk->lock);
		peer = udpcp_peer_lookup(usk, &to);
		if (peer)
			break;
		spin_unlock_bh(&usk->lock);
		err = udpcp_peer_ensure(usk, &to);
		if (err) {
			kfree_skb(skb);
			return err;
		}
	}
	if ((peer->flags & UDPCP_PEER_F_BCAST) && !sock_flag(sk, SOCK_BROADCAST)) {
		spin_unlock_bh(&usk->lock);
		kfree_skb(skb);
		return -EACCES;
	}
	if (!udpcp_tx_single(peer, skb, &xmitq))
		udpcp_tx_queue(usk, peer, skb, &xmitq);
	spin_unlock_bh(&usk->lock);
	udpcp_udp_xmit_list(&xmitq);
	return len;
}

static void udpcp_recv_pktinfo(struct sock *sk, struct msghdr *msg,
			       const struct udpcp_rx_cb *cb)
{
	bool v4 = ipv6_addr_v4mapped(&cb->saddr);

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6 && inet6_sk(sk)->rxopt.bits.rxinfo) {
		struct in6_pktinfo info = {
			.ipi6_addr = cb->daddr,
			.ipi6_ifindex = cb->iif,
		};

		put_cmsg(msg, SOL_IPV6, IPV6_PKTINFO, sizeof(info), &info);
	}
#endif
	if (v4 && udpcp_inet_pktinfo(sk)) {
		struct in_pktinfo info = {
			.ipi_ifindex = cb->iif,
			.ipi_addr.s_addr = cb->daddr.s6_addr32[3],
			.ipi_spec_dst.s_addr = cb->daddr.s6_addr32[3],
		};

		put_cmsg(msg, SOL_IP, IP_PKTINFO, sizeof(info), &info);
	}
}

static void udpcp_recv_name(struct sock *sk, struct msghdr *msg,
			    const struct udpcp_rx_cb *cb, int *addr_len)
{
	if (!msg->msg_name)
		return;
	if (sk->sk_family == AF_INET) {
		DECLARE_SOCKADDR(struct sockaddr_in *, sin, msg->msg_name);

		sin->sin_family = AF_INET;
		sin->sin_port = cb->sport;
		sin->sin_addr.s_addr = cb->saddr.s6_addr32[3];
		memset(sin->sin_zero, 0, sizeof(sin->sin_zero));
		*addr_len = sizeof(*sin);
		return;
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		DECLARE_SOCKADDR(struct sockaddr_in6 *, sin6, msg->msg_name);

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = cb->sport;
		sin6->sin6_flowinfo = 0;
		sin6->sin6_addr = cb->saddr;
		sin6->sin6_scope_id = ipv6_iface_scope_id(&cb->saddr, cb->iif);
		*addr_len = sizeof(*sin6);
	}
#endif
}

static int udpcp_recvmsg(struct sock *sk, struct msghdr *msg, size_t len,
			 int flags, int *addr_len)
{
	struct sk_buff *skb;
	size_t copied;
	int err;

	if (flags & MSG_ERRQUEUE) {
#if IS_ENABLED(CONFIG_IPV6)
		if (sk->sk_family == AF_INET6)
			return ipv6_recv_error(sk, msg, len, addr_len);
#endif
		return inet_recv_error(sk, msg, len, addr_len);
	}
	skb = skb_recv_datagram(sk, flags, &err);
	if (!skb)
		return err;
	if (!(flags & MSG_PEEK))
		udpcp_rx_dequeued(udpcp_sk(sk), skb);
	copied = skb->len;
	if (copied > len) {
		copied = len;
		msg->msg_flags |= MSG_TRUNC;
	}
	err = skb_copy_datagram_msg(skb, 0, msg, copied);
	if (err)
		goto out;
	sock_recv_cmsgs(msg, sk, skb);
	udpcp_recv_name(sk, msg, UDPCP_RX_CB(skb), addr_len);
	udpcp_recv_pktinfo(sk, msg, UDPCP_RX_CB(skb));
	err = (flags & MSG_TRUNC) ? skb->len : copied;
out:
	skb_free_datagram(sk, skb);
	return err;
}

void udpcp_sock_wake_flush(struct udpcp_sock *usk)
{
	struct socket_wq *wq;

	udpcp_sock_assert_locked(usk);
	if (usk->tx_pending)
		return;
	rcu_read_lock();
	wq = rcu_dereference(usk->inet.sk.sk_wq);
	if (skwq_has_sleeper(wq))
		wake_up_interruptible_all(&wq->wait);
	rcu_read_unlock();
}

/* UDPCP_FLUSH: wait until everything sent is acknowledged or failed. */
static int udpcp_flush(struct sock *sk, int timeout_ms)
{
	struct udpcp_sock *usk = udpcp_sk(sk);
	long ret;

	if (timeout_ms < 0)
		return -EINVAL;
	ret = wait_event_interruptible_timeout(*sk_sleep(sk),
					       !READ_ONCE(usk->tx_pending),
					       msecs_to_jiffies(timeout_ms));
	if (ret < 0)
		return -EINTR;
	return READ_ONCE(usk->tx_pending) ? -ETIMEDOUT : 0;
}

struct udpcp_opt_range {
	int min, max;
};

static const struct udpcp_opt_range udpcp_opt_ranges[] = {
	[UDPCP_OPT_TRANSFER_MODE] = { UDPCP_NOACK, UDPCP_SINGLE_ACK },
	[UDPCP_OPT_CHECKSUM_MODE] = { UDPCP_NOCHECKSUM, UDPCP_CHECKSUM },
	[UDPCP_OPT_TX_TIMEOUT] = { UDPCP_MIN_TIMEOUT_MS, UDPCP_MAX_TIMEOUT_MS },
	[UDPCP_OPT_RX_TIMEOUT] = { UDPCP_MIN_TIMEOUT_MS, UDPCP_MAX_TIMEOUT_MS },
	[UDPCP_OPT_MAXTRY] = { UDPCP_MIN_MAXTRY, UDPCP_MAX_MAXTRY },
	[UDPCP_OPT_OUTSTANDING_ACKS] = { UDPCP_MIN_OUTSTANDING_ACKS,
					 UDPCP_MAX_OUTSTANDING_ACKS },
};

static int udpcp_setsockopt_udpcp(struct sock *sk, int optname,
				  sockptr_t optval, unsigned int optlen)
{
	struct udpcp_sock *usk = udpcp_sk(sk);
	struct udpcp_params *p = &usk->params;
	int val;

	if (optlen < sizeof(int))
		return -EINVAL;
	if (copy_from_sockptr(&val, optval, sizeof(val)))
		return -EFAULT;
	if (optname == UDPCP_FLUSH)
		return udpcp_flush(sk, val);
	if (optname < 0 || optname >= ARRAY_SIZE(udpcp_opt_ranges))
		return -ENOPROTOOPT;
	if (val < udpcp_opt_ranges[optname].min ||
	    val > udpcp_opt_ranges[optname].max)
		return -EINVAL;

	spin_lock_bh(&usk->lock);
	switch (optname) {
	case UDPCP_OPT_TRANSFER_MODE:
		p->transfer_mode = val;
		break;
	case UDPCP_OPT_CHECKSUM_MODE:
		p->checksum = val == UDPCP_CHECKSUM;
		break;
	case UDPCP_OPT_TX_TIMEOUT:
		p->tx_timeout_ms = val;
		break;
	case UDPCP_OPT_RX_TIMEOUT:
		p->rx_timeout_ms = val;
		break;
	case UDPCP_OPT_MAXTRY:
		p->max_tries = val;
		break;
	case UDPCP_OPT_OUTSTANDING_ACKS:
		p->outstanding_acks = val;
		break;
	}
	spin_unlock_bh(&usk->lock);
	return 0;
}

/* Options that decide what the UDP socket underneath receives. */
static bool udpcp_opt_for_udp(int level, int optname)
{
	switch (level) {
	case SOL_IP:
		switch (optname) {
		case IP_ADD_MEMBERSHIP:
		case IP_DROP_MEMBERSHIP:
		case IP_ADD_SOURCE_MEMBERSHIP:
		case IP_DROP_SOURCE_MEMBERSHIP:
		case IP_BLOCK_SOURCE:
		case IP_UNBLOCK_SOURCE:
		case IP_MSFILTER:
		case IP_MULTICAST_ALL:
		case IP_MULTICAST_LOOP:
		case MCAST_JOIN_GROUP:
		case MCAST_LEAVE_GROUP:
		case MCAST_JOIN_SOURCE_GROUP:
		case MCAST_LEAVE_SOURCE_GROUP:
		case MCAST_BLOCK_SOURCE:
		case MCAST_UNBLOCK_SOURCE:
		case MCAST_MSFILTER:
			return true;
		}
		return false;
	case SOL_IPV6:
		switch (optname) {
		case IPV6_ADD_MEMBERSHIP:
		case IPV6_DROP_MEMBERSHIP:
		case IPV6_MULTICAST_ALL:
		case IPV6_MULTICAST_LOOP:
		case MCAST_JOIN_GROUP:
		case MCAST_LEAVE_GROUP:
		case MCAST_JOIN_SOURCE_GROUP:
		case MCAST_LEAVE_SOURCE_GROUP:
		case MCAST_BLOCK_SOURCE:
		case MCAST_UNBLOCK_SOURCE:
		case MCAST_MSFILTER:
			return true;
		}
		return false;
	}
	return false;
}

static int udpcp_setsockopt(struct sock *sk, int level, int optname,
			    sockptr_t optval, unsigned int optlen)
{
	struct udpcp_sock *usk = udpcp_sk(sk);
	int err;

	if (level == SOL_UDPCP)
		return udpcp_setsockopt_udpcp(sk, optname, optval, optlen);
	if (udpcp_opt_for_udp(level, optname)) {
		err = usk->udp->ops->setsockopt(usk->udp, level, optname,
						optval, optlen);
		/* The UDPCP socket keeps the loop flag for getsockopt. */
		if (err || (optname != IP_MULTICAST_LOOP &&
			    optname != IPV6_MULTICAST_LOOP))
			return err;
	}
	if (level == SOL_IP)
		return ip_setsockopt(sk, level, optname, optval, optlen);
#if IS_ENABLED(CONFIG_IPV6)
	if (level == SOL_IPV6 && sk->sk_family == AF_INET6)
		return ipv6_setsockopt(sk, level, optname, optval, optlen);
#endif
	return -ENOPROTOOPT;
}

/* Adds the socket's counters, its live peers' included, to @st. */
void udpcp_sock_stats(struct udpcp_sock *usk, struct udpcp_mib *st)
{
	struct udpcp_peer *peer;

	udpcp_mib_fold(st, usk->pcpu_stats);
	spin_lock_bh(&usk->lock);
	udpcp_mib_add(st, &usk->stats);
	list_for_each_entry(peer, &usk->peers, sock_node)
		udpcp_mib_add(st, &peer->stats);
	spin_unlock_bh(&usk->lock);
}

/* Walks the queues: for a dump now and then, not for the data path. */
void udpcp_sock_queues(struct udpcp_sock *usk, struct udpcp_sock_queues *q)
{
	struct sk_buff_head *rxq = &usk->inet.sk.sk_receive_queue;
	struct udpcp_peer *peer;
	struct sk_buff *skb;
	unsigned long flags;

	memset(q, 0, sizeof(*q));
	spin_lock_irqsave(&rxq->lock, flags);
	skb_queue_walk(rxq, skb) {
		q->rx_msgs++;
		q->rx_bytes += skb->len;
	}
	spin_unlock_irqrestore(&rxq->lock, flags);

	spin_lock_bh(&usk->lock);
	q->tx_msgs = usk->tx_pending;
	list_for_each_entry(peer, &usk->peers, sock_node) {
		if (peer->tx_msg)
			q->tx_bytes += peer->tx_msg->len;
		skb_queue_walk(&peer->txq, skb)
			q->tx_bytes += skb->len;
	}
	q->rx_partial_mem = usk->rx_partial_mem;
	spin_unlock_bh(&usk->lock);
}

/* Zeroes the socket's counters, its live peers' included. */
void udpcp_sock_stats_reset(struct udpcp_sock *usk)
{
	struct udpcp_peer *peer;

	udpcp_mib_pcpu_reset(usk->pcpu_stats);
	spin_lock_bh(&usk->lock);
	memset(&usk->stats, 0, sizeof(usk->stats));
	list_for_each_entry(peer, &usk->peers, sock_node)
		memset(&peer->stats, 0, sizeof(peer->stats));
	spin_unlock_bh(&usk->lock);
}

void udpcp_sock_fill_info(struct udpcp_sock *usk, struct udpcp_info *info)
{
	struct udpcp_mib st = {};
	struct udpcp_peer *peer;

	memset(info, 0, sizeof(*info));
	info->udpi_size = sizeof(*info);
	udpcp_sock_stats(usk, &st);
	spin_lock_bh(&usk->lock);
	list_for_each_entry(peer, &usk->peers, sock_node) {
		if (peer->next_id != 1 || peer->tx_state != UDPCP_TX_IDLE ||
		    !skb_queue_empty(&peer->txq))
			info->udpi_tx_nodes++;
		if (peer->flags & UDPCP_PEER_F_RX_VALID ||
		    !list_empty(&peer->rx_parts))
			info->udpi_rx_nodes++;
	}
	info->udpi_tx_pending = usk->tx_pending;
	info->udpi_rtt_us = usk->srtt_us;
	spin_unlock_bh(&usk->lock);
	info->udpi_rx_queued = skb_queue_len_lockless(&usk->inet.sk.sk_receive_queue);
	udpcp_mib_fill_info(info, &st);
}

static int udpcp_getsockopt_udpcp(struct sock *sk, int optname,
				  char __user *optval, int __user *optlen)
{
	struct udpcp_sock *usk = udpcp_sk(sk);
	struct udpcp_params *p = &usk->params;
	struct udpcp_info info;
	int len, val;

	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;

	switch (optname) {
	case UDPCP_INFO:
		udpcp_sock_fill_info(usk, &info);
		len = min_t(int, len, sizeof(info));
		if (put_user(len, optlen) || copy_to_user(optval, &info, len))
			return -EFAULT;
		return 0;
	case UDPCP_OPT_TRANSFER_MODE:
		val = READ_ONCE(p->transfer_mode);
		break;
	case UDPCP_OPT_CHECKSUM_MODE:
		val = READ_ONCE(p->checksum) ? UDPCP_CHECKSUM : UDPCP_NOCHECKSUM;
		break;
	case UDPCP_OPT_TX_TIMEOUT:
		val = READ_ONCE(p->tx_timeout_ms);
		break;
	case UDPCP_OPT_RX_TIMEOUT:
		val = READ_ONCE(p->rx_timeout_ms);
		break;
	case UDPCP_OPT_MAXTRY:
		val = READ_ONCE(p->max_tries);
		break;
	case UDPCP_OPT_OUTSTANDING_ACKS:
		val = READ_ONCE(p->outstanding_acks);
		break;
	default:
		return -ENOPROTOOPT;
	}
	if (len < sizeof(int))
		return -EINVAL;
	len = sizeof(int);
	if (put_user(len, optlen) || copy_to_user(optval, &val, len))
		return -EFAULT;
	return 0;
}

static int udpcp_getsockopt(struct sock *sk, int level, int optname,
			    char __user *optval, int __user *optlen)
{
	if (level == SOL_UDPCP)
		return udpcp_getsockopt_udpcp(sk, optname, optval, optlen);
	if (level == SOL_IP)
		return ip_getsockopt(sk, level, optname, optval, optlen);
#if IS_ENABLED(CONFIG_IPV6)
	if (level == SOL_IPV6 && sk->sk_family == AF_INET6)
		return ipv6_getsockopt(sk, level, optname, optval, optlen);
#endif
	return -ENOPROTOOPT;
}

static struct proto udpcp_prot = {
	.name		= "UDPCP",
	.owner		= THIS_MODULE,
	.init		= udpcp_init_sock,
	.close		= udpcp_close,
	.bind		= udpcp_bind,
	.connect	= udpcp_connect,
	.disconnect	= udpcp_disconnect,
	.setsockopt	= udpcp_setsockopt,
	.getsockopt	= udpcp_getsockopt,
	.sendmsg	= udpcp_sendmsg,
	.recvmsg	= udpcp_recvmsg,
	.hash		= udpcp_hash,
	.unhash		= udpcp_unhash,
	.rehash		= udpcp_rehash,
	.get_port	= udpcp_get_port,
	.obj_size	= sizeof(struct udpcp_sock),
};

/*
 * inet_dgram_ops polls UDP's reader queue; these are the generic
 * datagram operations instead.
 */
static const struct proto_ops udpcp_ops = {
	.family		= PF_INET,
	.owner		= THIS_MODULE,
	.release	= inet_release,
	.bind		= inet_bind,
	.connect	= inet_dgram_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= sock_no_accept,
	.getname	= inet_getname,
	.poll		= datagram_poll,
	.ioctl		= inet_ioctl,
	.listen		= sock_no_listen,
	.shutdown	= inet_shutdown,
	.setsockopt	= sock_common_setsockopt,
	.getsockopt	= sock_common_getsockopt,
	.sendmsg	= inet_sendmsg,
	.recvmsg	= sock_common_recvmsg,
	.mmap		= sock_no_mmap,
};

static struct inet_protosw udpcp_protosw = {
	.type		= SOCK_DGRAM,
	.protocol	= IPPROTO_UDPCP,
	.prot		= &udpcp_prot,
	.ops		= &udpcp_ops,
};

#if IS_ENABLED(CONFIG_IPV6)
static struct proto udpcp6_prot = {
	.name		= "UDPCPv6",
	.owner		= THIS_MODULE,
	.init		= udpcp_init_sock,
	.close		= udpcp_close,
	.bind		= udpcp_bind,
	.connect	= udpcp_connect,
	.disconnect	= udpcp_disconnect,
	.setsockopt	= udpcp_setsockopt,
	.getsockopt	= udpcp_getsockopt,
	.sendmsg	= udpcp_sendmsg,
	.recvmsg	= udpcp_recvmsg,
	.hash		= udpcp_hash,
	.unhash		= udpcp_unhash,
	.rehash		= udpcp_rehash,
	.get_port	= udpcp_get_port,
	.obj_size	= sizeof(struct udpcp6_sock),
#ifdef UDPCP_HAVE_IPV6_PINFO_OFFSET
	.ipv6_pinfo_offset = offsetof(struct udpcp6_sock, inet6),
#endif
};

static const struct proto_ops udpcp6_ops = {
	.family		= PF_INET6,
	.owner		= THIS_MODULE,
	.release	= inet6_release,
	.bind		= inet6_bind,
	.connect	= inet_dgram_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= sock_no_accept,
	.getname	= inet6_getname,
	.poll		= datagram_poll,
	.ioctl		= inet6_ioctl,
	.listen		= sock_no_listen,
	.shutdown	= inet_shutdown,
	.setsockopt	= sock_common_setsockopt,
	.getsockopt	= sock_common_getsockopt,
	.sendmsg	= inet_sendmsg,
	.recvmsg	= sock_common_recvmsg,
	.mmap		= sock_no_mmap,
};

static struct inet_protosw udpcp6_protosw = {
	.type		= SOCK_DGRAM,
	.protocol	= IPPROTO_UDPCP,
	.prot		= &udpcp6_prot,
	.ops		= &udpcp6_ops,
};
#endif

int udpcp_proto_init(void)
{
	int err;

	BUILD_BUG_ON(IPPROTO_UDPCP != 258);	/* the module aliases */
	BUILD_BUG_ON(sizeof(struct udpcp_tx_cb) > sizeof_field(struct sk_buff, cb));
	BUILD_BUG_ON(sizeof(struct udpcp_rx_cb) >
		     sizeof_field(struct sk_buff, cb) - sizeof(struct sock_skb_cb));

	err = proto_register(&udpcp_prot, 1);
	if (err)
		return err;
#if IS_ENABLED(CONFIG_IPV6)
	err = proto_register(&udpcp6_prot, 1);
	if (err)
		goto err_v4;
	err = inet6_register_protosw(&udpcp6_protosw);
	if (err)
		goto err_v6;
#endif
	inet_register_protosw(&udpcp_protosw);
	return 0;

#if IS_ENABLED(CONFIG_IPV6)
err_v6:
	proto_unregister(&udpcp6_prot);
err_v4:
	proto_unregister(&udpcp_prot);
	return err;
#endif
}

void udpcp_proto_exit(void)
{
	inet_unregister_protosw(&udpcp_protosw);
#if IS_ENABLED(CONFIG_IPV6)
	inet6_unregister_protosw(&udpcp6_protosw);
	proto_unregister(&udpcp6_prot);
#endif
	proto_unregister(&udpcp_prot);
}
