// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP: the kernel UDP socket under each UDPCP socket, routing and
 * transmission.
 */
#include <linux/udp.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>
#include <net/ip6_route.h>
#include <net/route.h>
#include <net/addrconf.h>
#include <net/ip6_fib.h>

#include "udpcp.h"

/* How a built packet leaves: filled by udpcp_udp_route(). */
struct udpcp_xmit_cb {
	struct sock	*sk;
	struct in6_addr	saddr;
	struct in6_addr	daddr;
	__be16		sport;
	__be16		dport;
	u8		tos;
	u8		ttl;
	bool		v4;
};

#define UDPCP_XMIT_CB(skb) ((struct udpcp_xmit_cb *)((skb)->cb))

int udpcp_udp_create(struct udpcp_sock *usk)
{
	struct sock *sk = &usk->inet.sk;
	struct udp_tunnel_sock_cfg cfg = {
		.sk_user_data = usk,
		.encap_type = 1,
		.encap_rcv = udpcp_encap_rcv,
		/*
		 * IP_RECVERR would not help: UDP gives an encapsulation
		 * socket's ICMP errors to this hook only.
		 */
		.encap_err_rcv = udpcp_encap_err_rcv,
	};
	struct socket *sock;
	int err;

	BUILD_BUG_ON(sizeof(struct udpcp_xmit_cb) > sizeof_field(struct sk_buff, cb));
	err = sock_create_kern(sock_net(sk), sk->sk_family, SOCK_DGRAM,
			       IPPROTO_UDP, &sock);
	if (err)
		return err;
	setup_udp_tunnel_sock(sock_net(sk), sock, &cfg);
	/*
	 * A dual-stack IPv6 socket also receives IPv4 through the IPv4 UDP
	 * path, whose encapsulation hook has its own switch.
	 */
	if (sk->sk_family == AF_INET6)
		udp_encap_enable();
	usk->udp = sock;
	return 0;
}

/*
 * Under the UDPCP socket's sock lock, taking the UDP socket's: the UDP
 * socket takes the options that decide which packets reach it: reuse,
 * device, v6only.
 */
int udpcp_udp_bind(struct udpcp_sock *usk, const struct udpcp_addr *local)
{
	struct sock *sk = &usk->inet.sk;
	struct sock *usk_udp = usk->udp->sk;
	struct sockaddr_storage ss = {};
	int len, err;

	sock_owned_by_me(sk);
	lock_sock(usk_udp);
	usk_udp->sk_reuse = sk->sk_reuse;
	usk_udp->sk_reuseport = sk->sk_reuseport;
	usk_udp->sk_bound_dev_if = sk->sk_bound_dev_if;
	if (sk->sk_family == AF_INET6)
		usk_udp->sk_ipv6only = sk->sk_ipv6only;
	release_sock(usk_udp);

	if (sk->sk_family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = udpcp_addr_v4(local);
		sin->sin_port = local->port;
		len = sizeof(*sin);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = local->addr;
		sin6->sin6_port = local->port;
		sin6->sin6_scope_id = local->ifindex;
		len = sizeof(*sin6);
	}
	err = kernel_bind(usk->udp, (struct sockaddr *)&ss, len);
	if (err)
		return err;

	/* getsockname() on the UDPCP socket reports what UDP chose. */
	usk->inet.inet_num = inet_sk(usk_udp)->inet_num;
	usk->inet.inet_sport = inet_sk(usk_udp)->inet_sport;
	usk->inet.inet_rcv_saddr = inet_sk(usk_udp)->inet_rcv_saddr;
	usk->inet.inet_saddr = inet_sk(usk_udp)->inet_saddr;
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6)
		sk->sk_v6_rcv_saddr = usk_udp->sk_v6_rcv_saddr;
#endif
	usk->bound = true;
	return 0;
}

/* Sleeps (synchronize_rcu): from close only. */
void udpcp_udp_release(struct udpcp_sock *usk)
{
	might_sleep();
	if (usk->udp) {
		udp_tunnel_sock_release(usk->udp);
		usk->udp = NULL;
	}
}

struct sk_buff *udpcp_udp_alloc(unsigned int len)
{
	struct sk_buff *skb;

	skb = alloc_skb(UDPCP_HEADROOM + len, GFP_ATOMIC);
	if (skb)
		skb_reserve(skb, UDPCP_HEADROOM);
	return skb;
}

static unsigned int udpcp_payload(unsigned int mtu, bool v4)
{
	unsigned int ip_hdr = v4 ? sizeof(struct iphdr) : sizeof(struct ipv6hdr);

	if (mtu <= ip_hdr + sizeof(struct udphdr) + UDPCP_HDR_LEN)
		return 0;
	return mtu - ip_hdr - sizeof(struct udphdr) - UDPCP_HDR_LEN;
}

/* The peer's route if still valid, held. */
static struct dst_entry *udpcp_dst_get(struct udpcp_peer *peer,
				       struct in6_addr *saddr)
{
	struct dst_entry *dst = peer->dst;

	lockdep_assert_held(&peer->usk->lock);
	if (!dst)
		return NULL;
	if (!dst_check(dst, peer->dst_cookie)) {
		udpcp_peer_dst_reset(peer);
		return NULL;
	}
	*saddr = peer->dst_saddr;
	dst_hold(dst);
	return dst;
}

static void udpcp_dst_set(struct udpcp_peer *peer, struct dst_entry *dst,
			  const struct in6_addr *saddr, u32 cookie)
{
	lockdep_assert_held(&peer->usk->lock);
	dst_release(peer->dst);
	dst_hold(dst);
	peer->dst = dst;
	peer->dst_saddr = *saddr;
	peer->dst_cookie = cookie;
}

static struct dst_entry *udpcp_route4(struct udpcp_peer *peer,
				      struct udpcp_xmit_cb *cb)
{
	struct udpcp_sock *usk = peer->usk;
	struct sock *sk = &usk->inet.sk;
	bool group = peer->flags & UDPCP_PEER_F_GROUP;
	struct flowi4 fl4 = {
		.daddr = cb->daddr.s6_addr32[3],
		.flowi4_oif = sk->sk_bound_dev_if,
		.flowi4_proto = IPPROTO_UDP,
		.flowi4_tos = RT_TOS(udpcp_inet_tos(sk)),
		.flowi4_mark = sk->sk_mark,
		.fl4_sport = cb->sport,
		.fl4_dport = cb->dport,
	};
	struct in6_addr saddr;
	struct dst_entry *dst;
	struct rtable *rt;

	/* An IPv6 socket bound to a specific IPv6 address has none. */
	if (sk->sk_family == AF_INET)
		fl4.saddr = usk->inet.inet_saddr;
#if IS_ENABLED(CONFIG_IPV6)
	else if (ipv6_addr_v4mapped(&sk->sk_v6_rcv_saddr))
		fl4.saddr = sk->sk_v6_rcv_saddr.s6_addr32[3];
#endif
	if (group && usk->inet.mc_index)
		fl4.flowi4_oif = usk->inet.mc_index;

	dst = udpcp_dst_get(peer, &saddr);
	if (dst) {
		rt = (struct rtable *)dst;
	} else {
		rt = ip_route_output_flow(udpcp_sock_net(usk), &fl4,
					  usk->udp->sk);
		if (IS_ERR(rt))
			return ERR_CAST(rt);
		ipv6_addr_set_v4mapped(fl4.saddr, &saddr);
		udpcp_dst_set(peer, &rt->dst, &saddr, 0);
	}
	cb->saddr = saddr;
	cb->v4 = true;
	cb->tos = udpcp_inet_tos(sk);
	if (group)
		cb->ttl = usk->inet.mc_ttl;
	else if (usk->inet.uc_ttl >= 0)
		cb->ttl = usk->inet.uc_ttl;
	else
		cb->ttl = ip4_dst_hoplimit(&rt->dst);
	return &rt->dst;
}

#if IS_ENABLED(CONFIG_IPV6)
static struct dst_entry *udpcp_route6(struct udpcp_peer *peer,
				      struct udpcp_xmit_cb *cb)
{
	struct udpcp_sock *usk = peer->usk;
	struct sock *sk = &usk->inet.sk;
	struct ipv6_pinfo *np = inet6_sk(sk);
	bool group = peer->flags & UDPCP_PEER_F_GROUP;
	struct flowi6 fl6 = {
		.daddr = cb->daddr,
		.flowi6_oif = sk->sk_bound_dev_if,
		.flowi6_proto = IPPROTO_UDP,
		.flowi6_mark = sk->sk_mark,
		.fl6_sport = cb->sport,
		.fl6_dport = cb->dport,
	};
	struct dst_entry *dst;
	int hops;

	if (!ipv6_addr_any(&sk->sk_v6_rcv_saddr))
		fl6.saddr = sk->sk_v6_rcv_saddr;
	if (peer->ifindex)
		fl6.flowi6_oif = peer->ifindex;
	if (group && np->mcast_oif)
		fl6.flowi6_oif = np->mcast_oif;

	dst = udpcp_dst_get(peer, &fl6.saddr);
	if (!dst) {
		dst = ip6_dst_lookup_flow(udpcp_sock_net(usk), usk->udp->sk,
					  &fl6, NULL);
		if (IS_ERR(dst))
			return dst;
		udpcp_dst_set(peer, dst, &fl6.saddr,
			      rt6_get_cookie((struct rt6_info *)dst));
	}
	cb->saddr = fl6.saddr;
	cb->v4 = false;
	cb->tos = np->tclass;
	hops = group ? np->mcast_hops : np->hop_limit;
	cb->ttl = hops >= 0 ? hops : ip6_dst_hoplimit(dst);
	return dst;
}
#endif

static struct dst_entry *udpcp_route(struct udpcp_peer *peer,
				     struct udpcp_xmit_cb *cb)
{
	struct udpcp_sock *usk = peer->usk;

	udpcp_sock_assert_locked(usk);
	cb->sk = usk->udp->sk;
	cb->daddr = peer->key.addr;
	cb->dport = peer->key.port;
	cb->sport = usk->inet.inet_sport;
#if IS_ENABLED(CONFIG_IPV6)
	if (!ipv6_addr_v4mapped(&peer->key.addr))
		return udpcp_route6(peer, cb);
#endif
	return udpcp_route4(peer, cb);
}

/* The payload that fits one packet on the current path, no IP fragments. */
unsigned int udpcp_udp_mtu_payload(struct udpcp_peer *peer)
{
	struct udpcp_xmit_cb cb;
	struct dst_entry *dst;
	unsigned int mtu;

	dst = udpcp_route(peer, &cb);
	if (IS_ERR(dst))
		return 0;
	mtu = dst_mtu(dst);
	dst_release(dst);
	return udpcp_payload(mtu, cb.v4);
}

/* The same for a packet that udpcp_udp_route() resolved. */
unsigned int udpcp_udp_skb_payload(const struct sk_buff *skb)
{
	return udpcp_payload(dst_mtu(skb_dst(skb)), UDPCP_XMIT_CB(skb)->v4);
}

/* Resolves the route; the packet leaves later, without the state lock. */
int udpcp_udp_route(struct udpcp_peer *peer, struct sk_buff *skb)
{
	struct dst_entry *dst;

	dst = udpcp_route(peer, UDPCP_XMIT_CB(skb));
	if (IS_ERR(dst))
		return PTR_ERR(dst);
	skb_dst_set(skb, dst);
	return 0;
}

static void udpcp_udp_xmit(struct sk_buff *skb)
{
	struct udpcp_xmit_cb cb = *UDPCP_XMIT_CB(skb);
	struct dst_entry *dst = dst_clone(skb_dst(skb));

	skb_dst_drop(skb);
	memset(skb->cb, 0, sizeof(skb->cb));
	skb->ignore_df = 0;
	/* iptunnel_xmit() counts in skb->dev's tstats as if a tunnel's. */
	skb->dev = NULL;
	/*
	 * A GSO burst's UDP checksum is left to the device or to the
	 * segmentation, per datagram: udp_set_csum() only seeds it.
	 */
	if (skb_is_gso(skb)) {
		skb->ip_summed = CHECKSUM_PARTIAL;
		skb->csum_start = skb_headroom(skb) - sizeof(struct udphdr);
		skb->csum_offset = offsetof(struct udphdr, check);
	}
	if (cb.v4) {
		udp_tunnel_xmit_skb((struct rtable *)dst, cb.sk, skb,
				    cb.saddr.s6_addr32[3], cb.daddr.s6_addr32[3],
				    cb.tos, cb.ttl, htons(IP_DF), cb.sport,
				    cb.dport, false, false);
		return;
	}
#if IS_ENABLED(CONFIG_IPV6)
	/*
	 * @dev is a tunnel device whose tstats get the packet counted: there
	 * is none.  The route's device keeps other per-CPU stats or none (lo:
	 * 16-octet lstats); counted as tstats, they overran into whatever
	 * per-CPU memory lay next to them.
	 */
	udp_tunnel6_xmit_skb(dst, cb.sk, skb, NULL, &cb.saddr, &cb.daddr,
			     cb.tos, cb.ttl, 0, cb.sport, cb.dport, false);
#endif
}

void udpcp_udp_xmit_list(struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list)) != NULL)
		udpcp_udp_xmit(skb);
}

/* A subnet broadcast address is only known from the route's type. */
bool udpcp_udp_dest_is_broadcast(struct udpcp_peer *peer)
{
	struct udpcp_xmit_cb cb;
	struct dst_entry *dst;
	bool bcast;

	if (!ipv6_addr_v4mapped(&peer->key.addr))
		return false;
	dst = udpcp_route(peer, &cb);
	if (IS_ERR(dst))
		return false;
	bcast = ((struct rtable *)dst)->rt_type == RTN_BROADCAST;
	dst_release(dst);
	return bcast;
}
