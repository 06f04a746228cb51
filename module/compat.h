/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version difference the module meets, in one place, so that
 * the rest of the code is written against one API.  Checked against 6.1
 * and 6.12.
 */
#ifndef _UDPCP_COMPAT_H
#define _UDPCP_COMPAT_H

#include <linux/version.h>
#include <linux/hrtimer.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/genetlink.h>
#include <net/icmp.h>
#include <linux/icmpv6.h>

/* 6.12 moved the unaligned accessors from asm/ to linux/. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
#include <asm/unaligned.h>
#else
#include <linux/unaligned.h>
#endif

/* hrtimer_setup() replaced hrtimer_init() + assignment in 6.13. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
static inline void udpcp_hrtimer_setup(struct hrtimer *timer,
				       enum hrtimer_restart (*fn)(struct hrtimer *),
				       clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
}
#else
#define udpcp_hrtimer_setup hrtimer_setup
#endif

/* 6.6 moved inet_sock's bitfields into inet_flags. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0)
static inline u8 udpcp_inet_tos(const struct sock *sk)
{
	return inet_sk(sk)->tos;
}

static inline bool udpcp_inet_pktinfo(const struct sock *sk)
{
	return inet_sk(sk)->cmsg_flags & IP_CMSG_PKTINFO;
}

static inline void udpcp_inet_set_mc_loop(struct sock *sk, bool on)
{
	inet_sk(sk)->mc_loop = on;
}
#else
static inline u8 udpcp_inet_tos(const struct sock *sk)
{
	return READ_ONCE(inet_sk(sk)->tos);
}

static inline bool udpcp_inet_pktinfo(const struct sock *sk)
{
	return inet_test_bit(PKTINFO, sk);
}

static inline void udpcp_inet_set_mc_loop(struct sock *sk, bool on)
{
	inet_assign_bit(MC_LOOP, sk, on);
}
#endif

/* 6.6+ finds ipv6_pinfo through the proto; before, from obj_size. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define UDPCP_HAVE_IPV6_PINFO_OFFSET
#endif

/* Event groups can require CAP_NET_ADMIN to join since 6.7. */
#ifdef GENL_MCAST_CAP_NET_ADMIN
#define UDPCP_MCGRP_FLAGS	GENL_MCAST_CAP_NET_ADMIN
#else
#define UDPCP_MCGRP_FLAGS	0
#endif

/*
 * Drop reasons 6.1 lacks (6.12 has them); the fallback says no more than
 * a plain kfree_skb() would.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
#define UDPCP_SKB_DROP_DUP_FRAG		SKB_DROP_REASON_NOT_SPECIFIED
#define UDPCP_SKB_DROP_REASM_TIMEOUT	SKB_DROP_REASON_NOT_SPECIFIED
#define UDPCP_SKB_DROP_SOCKET_CLOSE	SKB_DROP_REASON_NOT_SPECIFIED
#define UDPCP_SKB_DROP_FRAG_TOO_FAR	SKB_DROP_REASON_NOT_SPECIFIED
#else
#define UDPCP_SKB_DROP_DUP_FRAG		SKB_DROP_REASON_DUP_FRAG
#define UDPCP_SKB_DROP_REASM_TIMEOUT	SKB_DROP_REASON_FRAG_REASM_TIMEOUT
#define UDPCP_SKB_DROP_SOCKET_CLOSE	SKB_DROP_REASON_SOCKET_CLOSE
#define UDPCP_SKB_DROP_FRAG_TOO_FAR	SKB_DROP_REASON_FRAG_TOO_FAR
#endif

/*
 * ICMP errors about what an encapsulation UDP socket sent reach
 * udp_sk->encap_err_rcv, never the socket's error queue (udp.c treats the
 * socket as a tunnel's and skips IP_RECVERR).  6.2 changed the hook from
 * (sk, skb, udp_offset) to (sk, skb, err, port, info, payload).  Either way
 * skb->data is at the quoted IP header; udpcp_icmp_rcv() takes the errno
 * UDP would report and the offset of the quoted UDP header.
 */
void udpcp_icmp_rcv(struct sock *sk, struct sk_buff *skb, int err,
		    unsigned int udp_offset);

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
/*
 * The (positive) errno __udp4_lib_err() would give, the way
 * icmpv6_err_convert() gives it: it passes us the offset only.
 */
static inline void udpcp_icmp4_errno(const struct sk_buff *skb, int *err)
{
	const struct icmphdr *icmph = icmp_hdr(skb);

	*err = EHOSTUNREACH;
	if (icmph->type == ICMP_PARAMETERPROB)
		*err = EPROTO;
	else if (icmph->type != ICMP_DEST_UNREACH)
		return;		/* time exceeded: EHOSTUNREACH */
	else if (icmph->code == ICMP_FRAG_NEEDED)
		*err = EMSGSIZE;
	else if (icmph->code <= NR_ICMP_UNREACH)
		*err = icmp_err_convert[icmph->code].errno;
}

static inline void udpcp_encap_err_rcv(struct sock *sk, struct sk_buff *skb,
				       unsigned int udp_offset)
{
	int err = EHOSTUNREACH;

	if (ip_hdr(skb)->version == 4) {
		udpcp_icmp4_errno(skb, &err);
	} else {
		const struct icmp6hdr *icmp6h = icmp6_hdr(skb);

		icmpv6_err_convert(icmp6h->icmp6_type, icmp6h->icmp6_code, &err);
	}
	udpcp_icmp_rcv(sk, skb, err, udp_offset);
}
#else
static inline void udpcp_encap_err_rcv(struct sock *sk, struct sk_buff *skb,
				       int err, __be16 port, u32 info,
				       u8 *payload)
{
	udpcp_icmp_rcv(sk, skb, err,
		       payload - sizeof(struct udphdr) - skb->data);
}
#endif

/*
 * The op table netlink-gen.c renders from the spec is one genl_split_ops
 * per command and mode (do, dump), which 6.2 brought.  6.1 takes one
 * genl_ops per command: udpcp_genl_ops_from_split() folds the table into
 * that, and its range policies need a non-const pointer.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define UDPCP_GENL_SPLIT_OPS	1
#else
#define UDPCP_GENL_SPLIT_OPS	0

struct genl_split_ops {
	union {
		struct {
			int (*pre_doit)(const struct genl_split_ops *ops,
					struct sk_buff *skb,
					struct genl_info *info);
			int (*doit)(struct sk_buff *skb,
				    struct genl_info *info);
			void (*post_doit)(const struct genl_split_ops *ops,
					  struct sk_buff *skb,
					  struct genl_info *info);
		};
		struct {
			int (*start)(struct netlink_callback *cb);
			int (*dumpit)(struct sk_buff *skb,
				      struct netlink_callback *cb);
			int (*done)(struct netlink_callback *cb);
		};
	};
	const struct nla_policy *policy;
	unsigned int maxattr;
	u8 cmd;
	u8 internal_flags;
	u8 flags;
	u8 validate;
};

#undef NLA_POLICY_FULL_RANGE
#define NLA_POLICY_FULL_RANGE(tp, _range) {				\
	.type = NLA_ENSURE_UINT_OR_BINARY_TYPE(tp),			\
	.validation_type = NLA_VALIDATE_RANGE_PTR,			\
	.range = (struct netlink_range_validation *)(_range),		\
}

/* Returns the number of genl_ops written to @ops (room for @n). */
static inline int udpcp_genl_ops_from_split(struct genl_ops *ops,
					    const struct genl_split_ops *split,
					    int n)
{
	const u8 caps = GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP |
			GENL_CMD_CAP_HASPOL;
	int i, j, used = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < used && ops[j].cmd != split[i].cmd; j++)
			;
		if (j == used) {
			memset(&ops[used], 0, sizeof(ops[used]));
			ops[used++].cmd = split[i].cmd;
		}
		if (split[i].flags & GENL_CMD_CAP_DO) {
			ops[j].doit = split[i].doit;
		} else {
			ops[j].start = split[i].start;
			ops[j].dumpit = split[i].dumpit;
			ops[j].done = split[i].done;
		}
		/* do and dump of one command take the same request */
		if (!ops[j].policy) {
			ops[j].policy = split[i].policy;
			ops[j].maxattr = split[i].maxattr;
		}
		ops[j].flags |= split[i].flags & ~caps;
		ops[j].validate |= split[i].validate;
	}
	return used;
}
#endif

#endif /* _UDPCP_COMPAT_H */
