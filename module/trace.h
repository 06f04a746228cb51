/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UDPCP tracepoints: one event per protocol step, so that perf, trace-cmd
 * and bpftrace can follow a message from sendmsg to its ack, its failure,
 * or the reason its packets were dropped.
 *
 * Every event names the socket by the cookie netlink and udpcpctl show,
 * the local (bound) and remote address and port (IPv4 as v4-mapped, as
 * the module keeps them) and, where there is one, the message ID.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM udpcp

#if !defined(_UDPCP_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _UDPCP_TRACE_H

#include <linux/tracepoint.h>
#include <linux/errno.h>

#include "udpcp.h"

/* Tell user space the values of the enum udpcp_drop prints by name. */
TRACE_DEFINE_ENUM(UDPCP_DROP_CHECKSUM);
TRACE_DEFINE_ENUM(UDPCP_DROP_MALFORMED);
TRACE_DEFINE_ENUM(UDPCP_DROP_DUPLICATE);
TRACE_DEFINE_ENUM(UDPCP_DROP_RCVBUF);
TRACE_DEFINE_ENUM(UDPCP_DROP_SHARE);
TRACE_DEFINE_ENUM(UDPCP_DROP_EVICTED);
TRACE_DEFINE_ENUM(UDPCP_DROP_REPLACED);
TRACE_DEFINE_ENUM(UDPCP_DROP_STALE);
TRACE_DEFINE_ENUM(UDPCP_DROP_TIMEOUT);
TRACE_DEFINE_ENUM(UDPCP_DROP_NOMEM);
TRACE_DEFINE_ENUM(UDPCP_DROP_NO_PEER);
TRACE_DEFINE_ENUM(UDPCP_DROP_CLOSE);

/* The socket and both ends, common to every event. */
#define UDPCP_TP_ENDS_ASSIGN(sock, remote, port)			\
	do {								\
		const struct udpcp_sock *__s = (sock);			\
		struct in6_addr *__l = (struct in6_addr *)__entry->laddr; \
									\
		__entry->cookie = __s->cookie;				\
		udpcp_sock_bound_addr(__s, __l);			\
		memcpy(__entry->raddr, remote, sizeof(__entry->raddr));	\
		__entry->lport = ntohs(__s->inet.inet_sport);		\
		__entry->rport = ntohs(port);				\
	} while (0)

#define UDPCP_TP_ENDS_FMT \
	"cookie=%llu laddr=%pI6c lport=%u raddr=%pI6c rport=%u"

DECLARE_EVENT_CLASS(udpcp_peer_class,
	TP_PROTO(const struct udpcp_peer *peer),
	TP_ARGS(peer),

	TP_STRUCT__entry(
		__field(u64, cookie)
		__array(u8, laddr, 16)
		__array(u8, raddr, 16)
		__field(u16, lport)
		__field(u16, rport)
		__field(u32, flags)
	),

	TP_fast_assign(
		UDPCP_TP_ENDS_ASSIGN(peer->usk, &peer->key.addr,
				     peer->key.port);
		__entry->flags = peer->flags;
	),

	TP_printk(UDPCP_TP_ENDS_FMT " flags=%#x",
		  __entry->cookie, __entry->laddr,
		  __entry->lport, __entry->raddr, __entry->rport, __entry->flags)
);

/* A peer is created: the first message to or from it, or netlink. */
DEFINE_EVENT(udpcp_peer_class, udpcp_peer_create,
	TP_PROTO(const struct udpcp_peer *peer),
	TP_ARGS(peer)
);

/* An idle peer is collected after the namespace's peer expiry. */
DEFINE_EVENT(udpcp_peer_class, udpcp_peer_expire,
	TP_PROTO(const struct udpcp_peer *peer),
	TP_ARGS(peer)
);

/* A message handed to the peer by sendmsg, with the ID it goes out as. */
TRACE_EVENT(udpcp_msg_queue,
	TP_PROTO(const struct udpcp_peer *peer, u16 id, unsigned int len,
		 u8 mode, unsigned int queued),
	TP_ARGS(peer, id, len, mode, queued),

	TP_STRUCT__entry(
		__field(u64, cookie)
		__array(u8, laddr, 16)
		__array(u8, raddr, 16)
		__field(u16, lport)
		__field(u16, rport)
		__field(u16, id)
		__field(u8, mode)
		__field(u32, len)
		__field(u32, queued)
	),

	TP_fast_assign(
		UDPCP_TP_ENDS_ASSIGN(peer->usk, &peer->key.addr,
				     peer->key.port);
		__entry->id = id;
		__entry->mode = mode;
		__entry->len = len;
		__entry->queued = queued;
	),

	TP_printk(UDPCP_TP_ENDS_FMT " id=%u len=%u mode=%s queued=%u",
		  __entry->cookie, __entry->laddr,
		  __entry->lport, __entry->raddr, __entry->rport, __entry->id, __entry->len,
		  __print_symbolic(__entry->mode,
				   { UDPCP_NOACK, "noack" },
				   { UDPCP_ACK, "ack" },
				   { UDPCP_SINGLE_ACK, "single-ack" },
				   { UDPCP_TX_DEFAULT, "default" }),
		  __entry->queued)
);

DECLARE_EVENT_CLASS(udpcp_frag_class,
	TP_PROTO(const struct udpcp_peer *peer, u16 id, u8 num, u8 amount,
		 u8 try),
	TP_ARGS(peer, id, num, amount, try),

	TP_STRUCT__entry(
		__field(u64, cookie)
		__array(u8, laddr, 16)
		__array(u8, raddr, 16)
		__field(u16, lport)
		__field(u16, rport)
		__field(u16, id)
		__field(u8, num)
		__field(u8, amount)
		__field(u8, try)
	),

	TP_fast_assign(
		UDPCP_TP_ENDS_ASSIGN(peer->usk, &peer->key.addr,
				     peer->key.port);
		__entry->id = id;
		__entry->num = num;
		__entry->amount = amount;
		__entry->try = try;
	),

	TP_printk(UDPCP_TP_ENDS_FMT " id=%u frag=%u/%u try=%u",
		  __entry->cookie, __entry->laddr,
		  __entry->lport, __entry->raddr, __entry->rport, __entry->id, __entry->num,
		  __entry->amount, __entry->try)
);

/* A fragment (a whole message: frag=0/1) sent for the first time. */
DEFINE_EVENT(udpcp_frag_class, udpcp_frag_send,
	TP_PROTO(const struct udpcp_peer *peer, u16 id, u8 num, u8 amount,
		 u8 try),
	TP_ARGS(peer, id, num, amount, try)
);

/* A fragment sent again after the tx timeout; try counts from 1. */
DEFINE_EVENT(udpcp_frag_class, udpcp_frag_retransmit,
	TP_PROTO(const struct udpcp_peer *peer, u16 id, u8 num, u8 amount,
		 u8 try),
	TP_ARGS(peer, id, num, amount, try)
);

/* A sync (ID 0) sent; try > 1 is a retransmission. */
DEFINE_EVENT(udpcp_frag_class, udpcp_sync_send,
	TP_PROTO(const struct udpcp_peer *peer, u16 id, u8 num, u8 amount,
		 u8 try),
	TP_ARGS(peer, id, num, amount, try)
);

/* A sync from the peer: its message IDs start again. */
DEFINE_EVENT(udpcp_frag_class, udpcp_sync_recv,
	TP_PROTO(const struct udpcp_peer *peer, u16 id, u8 num, u8 amount,
		 u8 try),
	TP_ARGS(peer, id, num, amount, try)
);

/*
 * An ack from the peer; rtt_us: since the message (or sync) in flight
 * started, 0 with nothing in flight.
 */
TRACE_EVENT(udpcp_ack_recv,
	TP_PROTO(const struct udpcp_peer *peer, u16 id, u8 num, bool dup),
	TP_ARGS(peer, id, num, dup),

	TP_STRUCT__entry(
		__field(u64, cookie)
		__array(u8, laddr, 16)
		__array(u8, raddr, 16)
		__field(u16, lport)
		__field(u16, rport)
		__field(u16, id)
		__field(u8, num)
		__field(u8, dup)
		__field(u32, rtt_us)
	),

	TP_fast_assign(
		UDPCP_TP_ENDS_ASSIGN(peer->usk, &peer->key.addr,
				     peer->key.port);
		__entry->id = id;
		__entry->num = num;
		__entry->dup = dup;
		__entry->rtt_us = peer->tx_state == UDPCP_TX_IDLE ? 0 :
			ktime_us_delta(ktime_get(), peer->tx_start);
	),

	TP_printk(UDPCP_TP_ENDS_FMT " id=%u frag=%u dup=%u rtt_us=%u",
		  __entry->cookie, __entry->laddr,
		  __entry->lport, __entry->raddr, __entry->rport, __entry->id, __entry->num,
		  __entry->dup, __entry->rtt_us)
);

DECLARE_EVENT_CLASS(udpcp_msg_class,
	TP_PROTO(const struct udpcp_peer *peer, u16 id, unsigned int len,
		 u8 tries, int err),
	TP_ARGS(peer, id, len, tries, err),

	TP_STRUCT__entry(
		__field(u64, cookie)
		__array(u8, laddr, 16)
		__array(u8, raddr, 16)
		__field(u16, lport)
		__field(u16, rport)
		__field(u16, id)
		__field(u8, tries)
		__field(u32, len)
		__field(int, err)
	),

	TP_fast_assign(
		UDPCP_TP_ENDS_ASSIGN(peer->usk, &peer->key.addr,
				     peer->key.port);
		__entry->id = id;
		__entry->tries = tries;
		__entry->len = len;
		__entry->err = err;
	),

	TP_printk(UDPCP_TP_ENDS_FMT " id=%u len=%u tries=%u",
		  __entry->cookie, __entry->laddr,
		  __entry->lport, __entry->raddr, __entry->rport, __entry->id, __entry->len,
		  __entry->tries)
);

/* A whole message queued to the application; how often sent: unknown. */
DEFINE_EVENT_PRINT(udpcp_msg_class, udpcp_msg_deliver,
	TP_PROTO(const struct udpcp_peer *peer, u16 id, unsigned int len,
		 u8 tries, int err),
	TP_ARGS(peer, id, len, tries, err),

	TP_printk(UDPCP_TP_ENDS_FMT " id=%u len=%u",
		  __entry->cookie, __entry->laddr,
		  __entry->lport, __entry->raddr, __entry->rport,
		  __entry->id, __entry->len)
);

/* Every fragment of a message acknowledged: it is done. */
DEFINE_EVENT(udpcp_msg_class, udpcp_msg_acked,
	TP_PROTO(const struct udpcp_peer *peer, u16 id, unsigned int len,
		 u8 tries, int err),
	TP_ARGS(peer, id, len, tries, err)
);

/* A message given up, with the errno the error queue reports. */
DEFINE_EVENT_PRINT(udpcp_msg_class, udpcp_msg_fail,
	TP_PROTO(const struct udpcp_peer *peer, u16 id, unsigned int len,
		 u8 tries, int err),
	TP_ARGS(peer, id, len, tries, err),

	TP_printk(UDPCP_TP_ENDS_FMT " id=%u len=%u tries=%u cause=%s",
		  __entry->cookie, __entry->laddr,
		  __entry->lport, __entry->raddr, __entry->rport, __entry->id, __entry->len,
		  __entry->tries,
		  __print_symbolic(__entry->err,
				   { ETIMEDOUT, "ETIMEDOUT" },
				   { EMSGSIZE, "EMSGSIZE" },
				   { EHOSTUNREACH, "EHOSTUNREACH" },
				   { ENETUNREACH, "ENETUNREACH" },
				   { ECONNREFUSED, "ECONNREFUSED" },
				   { EPROTO, "EPROTO" }))
);

/*
 * A received packet dropped, and why; laddr is the address it was sent
 * to.  The skb goes on to skb:kfree_skb (same skbaddr) with the closest
 * drop reason the kernel has.
 */
TRACE_EVENT(udpcp_drop,
	TP_PROTO(const struct udpcp_sock *usk, const struct udpcp_rx_cb *cb,
		 const struct sk_buff *skb, u16 id, u8 num, u8 amount,
		 enum udpcp_drop_reason reason),
	TP_ARGS(usk, cb, skb, id, num, amount, reason),

	TP_STRUCT__entry(
		__field(const void *, skbaddr)
		__field(u64, cookie)
		__array(u8, laddr, 16)
		__array(u8, raddr, 16)
		__field(u16, lport)
		__field(u16, rport)
		__field(u16, id)
		__field(u8, num)
		__field(u8, amount)
		__field(u32, len)
		__field(u32, reason)
	),

	TP_fast_assign(
		UDPCP_TP_ENDS_ASSIGN(usk, &cb->saddr, cb->sport);
		memcpy(__entry->laddr, &cb->daddr, sizeof(__entry->laddr));
		__entry->skbaddr = skb;
		__entry->id = id;
		__entry->num = num;
		__entry->amount = amount;
		__entry->len = skb->len;
		__entry->reason = reason;
	),

	TP_printk("skbaddr=%p " UDPCP_TP_ENDS_FMT
		  " id=%u frag=%u/%u len=%u reason=%s",
		  __entry->skbaddr, __entry->cookie, __entry->laddr,
		  __entry->lport, __entry->raddr, __entry->rport, __entry->id, __entry->num,
		  __entry->amount, __entry->len,
		  __print_symbolic(__entry->reason,
				   { UDPCP_DROP_CHECKSUM, "checksum" },
				   { UDPCP_DROP_MALFORMED, "malformed" },
				   { UDPCP_DROP_DUPLICATE, "duplicate" },
				   { UDPCP_DROP_RCVBUF, "rcvbuf_full" },
				   { UDPCP_DROP_SHARE, "rcvbuf_share" },
				   { UDPCP_DROP_EVICTED, "partial_evicted" },
				   { UDPCP_DROP_REPLACED, "partial_replaced" },
				   { UDPCP_DROP_STALE, "stale_id" },
				   { UDPCP_DROP_TIMEOUT, "rx_timeout" },
				   { UDPCP_DROP_NOMEM, "nomem" },
				   { UDPCP_DROP_NO_PEER, "no_peer" },
				   { UDPCP_DROP_CLOSE, "close" }))
);

#endif /* _UDPCP_TRACE_H */

/* An out-of-tree module: Kbuild puts this directory on the include path. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
