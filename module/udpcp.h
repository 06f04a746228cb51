/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UDPCP: internal declarations shared by the module's files.
 *
 * Locking.  Four locks, taken in this order (outermost first):
 *
 *  1. udpcp_net.lock, "the namespace lock": a mutex.  The namespace's
 *     list of sockets, its defaults and its peer templates; netlink holds
 *     it for a whole request.
 *  2. The UDPCP socket's sock lock, lock_sock(&usk->inet.sk), "the sock
 *     lock": bind, autobind (->get_port), connect, disconnect and
 *     SO_BINDTODEVICE (->rehash), as for any socket.
 *  3. The sock lock of the kernel UDP socket underneath (usk->udp->sk):
 *     taken by bind and by UDP's own setsockopt, which netlink's group
 *     join calls under 1.
 *  4. udpcp_sock.lock, "the state lock": a spinlock that the receive path
 *     and the peers' timers take in softirq, so process context takes it
 *     with spin_lock_bh().  All protocol state of a socket and its peers.
 *
 * Under the state lock only locks of other subsystems are taken: the
 * rhashtables', the receive and error queues', hrtimer bases', and
 * genetlink's to send an event.  Packets built under it are sent after it
 * is released (the @xmitq lists), never under it.
 *
 * Comments say "the state lock" or "the sock lock", never "the socket
 * lock".  Each struct below says which lock guards which of its fields and
 * what keeps it alive; the functions that need a lock assert it, with
 * lockdep_assert_held() or the helpers udpcp_sock_assert_locked() and
 * udpcp_peer_assert_locked().
 */
#ifndef _UDPCP_H
#define _UDPCP_H

#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <linux/skbuff.h>
#include <linux/hrtimer.h>
#include <linux/rhashtable.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <linux/udp.h>
#include <net/netns/generic.h>
#include <linux/udpcp.h>

#include "compat.h"

/* Wire format (see Documentation/udpcp.rst) */
#define UDPCP_HDR_LEN		12
#define UDPCP_VERSION		2
#define UDPCP_TYPE_DATA		1
#define UDPCP_TYPE_ACK		2
#define UDPCP_SYNC_ID		0
#define UDPCP_MAX_ID		0xfffe	/* IDs count 1..0xfffe and wrap to 1 */
#define UDPCP_MAX_FRAGS		255

/*
 * Room in front of a packet we build: the IP and UDP headers, pushed
 * without a check, and NET_SKB_PAD for the link layer, as much as UDP
 * leaves on Ethernet (the output path makes more where a device needs
 * more).  MAX_HEADER instead put a fragment's head in kmalloc-1k, which
 * is zeroed on every allocation (init_on_alloc).
 */
#define UDPCP_HEADROOM		(NET_SKB_PAD + sizeof(struct ipv6hdr) + \
				 sizeof(struct udphdr))

/* Octet 4: MsgT(2) Ver(3) N C S; octet 5: D Reserved(7). */
#define UDPCP_F_NOACK		0x04
#define UDPCP_F_CHECKSUM	0x02
#define UDPCP_F_SINGLE		0x01
#define UDPCP_F_DUP		0x80

/**
 * struct udpcp_hdr - the UDPCP header, as on the wire
 * @checksum: Adler-32 over header and payload with this field zero, or 0
 * @flags: message type, version, N, C, S
 * @flags2: D, reserved
 * @frag_amount: fragments of the message
 * @frag_num: this fragment's number, from 0
 * @msg_id: the message ID (0: a sync)
 * @msg_len: the whole message's length
 *
 * Only ever a copy on the stack or inside an skb: no lock of its own.
 */
struct udpcp_hdr {
	__be32	checksum;
	u8	flags;
	u8	flags2;
	u8	frag_amount;
	u8	frag_num;
	__be16	msg_id;
	__be16	msg_len;
} __packed;

static inline u8 udpcp_hdr_type(const struct udpcp_hdr *h)
{
	return h->flags >> 6;
}

/*
 * Assumption (the protocol leaves it to us): a data message whose ID lies
 * behind the last delivered one by less than this distance is a late
 * duplicate, not a new message.  Deployed senders only move forward (or
 * sync first), and netem-style duplication can deliver old packets late.
 * 1 is the strict reading: only the last ID counts as a duplicate.
 */
#define UDPCP_RX_DUP_WINDOW	32767

/*
 * Partial messages kept per source in no-ack mode, where the sender does
 * not wait between messages and a path may interleave their fragments;
 * complete messages wait there too for the ones before them.  Ack modes
 * keep one: their sender never has two messages in flight.
 */
#define UDPCP_RX_PARTIALS	4

/* Defaults of a new namespace. */
#define UDPCP_DEF_TX_TIMEOUT_MS	100
#define UDPCP_DEF_RX_TIMEOUT_MS	1000
#define UDPCP_DEF_MAXTRY	5
#define UDPCP_DEF_OUTSTANDING	8
#define UDPCP_DEF_MAX_PEERS	1024
#define UDPCP_DEF_PEER_EXPIRY_MS (300 * 1000)
#define UDPCP_HISTORY_MAX	65536	/* remembered message IDs per netns */

/**
 * struct udpcp_params - the settings of a namespace, socket or peer
 * @tx_timeout_ms: retransmission timeout
 * @rx_timeout_ms: how long a partial message waits for its fragments
 * @transfer_mode: UDPCP_NOACK, UDPCP_ACK or UDPCP_SINGLE_ACK
 * @checksum: whether messages carry the Adler-32 checksum (a bool)
 * @max_tries: sends of a packet before its message fails
 * @outstanding_acks: fragments unacknowledged at once in ack mode
 *
 * Embedded, and under the lock of what embeds it.
 */
struct udpcp_params {
	u32	tx_timeout_ms;
	u32	rx_timeout_ms;
	u8	transfer_mode;
	u8	checksum;
	u8	max_tries;
	u8	outstanding_acks;
};

/* Bits of udpcp_peer.override: which params the peer sets itself. */
enum {
	UDPCP_P_TRANSFER_MODE,
	UDPCP_P_CHECKSUM,
	UDPCP_P_TX_TIMEOUT,
	UDPCP_P_RX_TIMEOUT,
	UDPCP_P_MAX_TRIES,
	UDPCP_P_OUTSTANDING_ACKS,
};

/*
 * The counters (the MIB).  Kept per peer and per socket, summed for the
 * namespace; mib.c gives each its netlink attribute and UDPCP_INFO field.
 */
enum udpcp_mib_item {
	UDPCP_MIB_TX_MSGS,
	UDPCP_MIB_RX_MSGS,
	UDPCP_MIB_TX_BYTES,
	UDPCP_MIB_RX_BYTES,
	UDPCP_MIB_TX_TIMEOUT,
	UDPCP_MIB_RX_TIMEOUT,
	UDPCP_MIB_TX_RETRIES,
	UDPCP_MIB_RX_DISCARDED_FRAGS,
	UDPCP_MIB_CRC_ERRORS,
	UDPCP_MIB_RX_DUPLICATES,
	UDPCP_MIB_RX_MALFORMED,
	UDPCP_MIB_RX_DROPPED,
	UDPCP_MIB_RX_REFUSED,
	UDPCP_MIB_ICMP_ERRORS,
	UDPCP_MIB_PMTU_RESTARTS,
	UDPCP_MIB_MAX
};

/**
 * struct udpcp_mib - the counters, indexed by enum udpcp_mib_item
 * @mibs: the counts
 *
 * Embedded, and under the lock of what embeds it: the state lock in a
 * socket or peer, the namespace lock in struct udpcp_net.
 */
struct udpcp_mib {
	u64	mibs[UDPCP_MIB_MAX];
};

/**
 * struct udpcp_pcpu_mib - counters kept without the state lock
 * @mibs: the counts
 * @syncp: lets 32-bit readers see whole values
 *
 * Per CPU, for packets refused before they are matched to a peer: written
 * in softirq only, each CPU its own; read by summing (udpcp_mib_fold()).
 */
struct udpcp_pcpu_mib {
	u64_stats_t		mibs[UDPCP_MIB_MAX];
	struct u64_stats_sync	syncp;
};

static inline void udpcp_mib_add(struct udpcp_mib *to,
				 const struct udpcp_mib *from)
{
	int i;

	for (i = 0; i < UDPCP_MIB_MAX; i++)
		to->mibs[i] += from->mibs[i];
}

/**
 * struct udpcp_addr - an endpoint
 * @addr: the address, IPv4 as v4-mapped, so that one type serves both
 * @port: the port
 * @pad: zeroed: hash keys are copied from here
 * @ifindex: the scope of an IPv6 link-local address
 *
 * A value, on the stack: no lock.
 */
struct udpcp_addr {
	struct in6_addr	addr;
	__be16		port;
	u16		pad;
	int		ifindex;
};

static inline bool udpcp_addr_is_v4(const struct udpcp_addr *a)
{
	return ipv6_addr_v4mapped(&a->addr);
}

static inline __be32 udpcp_addr_v4(const struct udpcp_addr *a)
{
	return a->addr.s6_addr32[3];
}

/**
 * struct udpcp_net - UDPCP's part of a network namespace
 * @lock: the namespace lock (a mutex; first in the lock order)
 * @socks: every UDPCP socket of the namespace, from its creation to the
 *	first step of its close; under @lock.  A socket found there stays
 *	listed, and so do its peers (only close, the GC and netlink free
 *	peers, the last two under @lock), for as long as @lock is held.
 * @defaults: what a new socket's params start as; under @lock
 * @max_peers: peers per socket; written under @lock, read with READ_ONCE()
 * @peer_expiry_ms: idle time after which the GC frees a peer; as @max_peers
 * @peers: every peer of the namespace, keyed by socket and remote end.
 *	The table locks itself; a peer is added and removed under its
 *	socket's state lock, and found under RCU or that state lock.
 * @history: the next message ID toward each destination that a closed
 *	socket used (peer.c); the table locks itself
 * @history_count: entries in @history, bounded by UDPCP_HISTORY_MAX
 * @tmpls: the peer templates netlink added (struct udpcp_peer_tmpl);
 *	changed under @lock with the _rcu list primitives, read under RCU
 *	(a new peer takes its template's params) or under @lock
 * @closed_stats: the counters of sockets already closed; under @lock
 * @gc_work: frees idle peers once a second (udpcp_peers_gc())
 */
struct udpcp_net {
	struct mutex		lock;		/* the namespace lock */
	struct list_head	socks;
	struct udpcp_params	defaults;
	u32			max_peers;
	u32			peer_expiry_ms;
	struct rhashtable	peers;
	struct rhashtable	history;
	atomic_t		history_count;
	struct list_head	tmpls;
	struct udpcp_mib	closed_stats;
	struct delayed_work	gc_work;
};

extern unsigned int udpcp_net_id;

static inline struct udpcp_net *udpcp_pernet(const struct net *net)
{
	return net_generic(net, udpcp_net_id);
}

/**
 * struct udpcp_sock - a UDPCP socket
 * @inet: the socket as the inet layer knows it, with its sock lock; first
 * @lock: the state lock: every field below marked "state" and the peers'
 *	state (struct udpcp_peer).  Taken in softirq: spin_lock_bh() in
 *	process context.
 * @udp: the kernel UDP socket underneath; set by init, released by close
 *	after the socket left udpcp_net.socks, so good wherever the socket
 *	is open or listed
 * @cookie: netlink's name for the socket; set by init, never changed
 * @params: the socket's settings; state, and read with READ_ONCE() by
 *	getsockopt
 * @dead: closing: no peer may be added; state
 * @bound: set once, under the sock lock, when bind gave the socket its
 *	address; netlink reads it under the namespace lock alone
 * @net_node: in udpcp_net.socks; under the namespace lock
 * @peers: this socket's peers (struct udpcp_peer.sock_node); state
 * @npeers: entries of @peers; state, and read with READ_ONCE() where a
 *	stale count only refuses or admits one peer too many for now
 * @tx_pending: messages queued or in flight; state, and read with
 *	READ_ONCE() by UDPCP_FLUSH's wait
 * @rx_partial_mem: truesize of every peer's partial messages; state
 * @rx_sharing: peers holding messages in the receive queue; state
 * @peer_gen: the next peer's gen; state
 * @rx_partials: every peer's partial messages (rx.c's udpcp_rx_part),
 *	oldest first; state
 * @srtt_us: smoothed round-trip time over all peers; state
 * @stats: the socket's counters, and those of its peers gone; state
 * @pcpu_stats: counted without the state lock, in softirq only (the
 *	receive path, before a packet is matched to a peer); freed by the
 *	destructor, after an RCU grace period (SOCK_RCU_FREE)
 *
 * The UDP socket's sk_user_data points here for the receive path, which
 * runs under RCU: the socket is freed after a grace period, and close
 * marks it @dead before its peers go.
 */
struct udpcp_sock {
	struct inet_sock	inet;
	spinlock_t		lock;		/* the state lock */
	struct socket		*udp;
	u64			cookie;
	struct udpcp_params	params;
	bool			dead;
	bool			bound;
	struct list_head	net_node;
	struct list_head	peers;
	u32			npeers;
	u32			tx_pending;
	u32			rx_partial_mem;
	u32			rx_sharing;
	u8			peer_gen;
	struct list_head	rx_partials;
	u32			srtt_us;
	struct udpcp_mib	stats;
	struct udpcp_pcpu_mib __percpu *pcpu_stats;
};

/* The state lock is held. */
static inline void udpcp_sock_assert_locked(const struct udpcp_sock *usk)
{
	lockdep_assert_held(&usk->lock);
}

/**
 * struct udpcp6_sock - a UDPCP socket of the AF_INET6 family
 * @udpcp: the socket, as for AF_INET
 * @inet6: the IPv6 options, under the sock lock as for any IPv6 socket;
 *	last, where 6.1's inet6_sk_generic() looks for it
 */
struct udpcp6_sock {
	struct udpcp_sock	udpcp;
	struct ipv6_pinfo	inet6;
};

static inline struct udpcp_sock *udpcp_sk(const struct sock *sk)
{
	return (struct udpcp_sock *)sk;
}

static inline struct net *udpcp_sock_net(const struct udpcp_sock *usk)
{
	return sock_net(&usk->inet.sk);
}

/* The local address a socket is bound to, IPv4 as v4-mapped. */
static inline void udpcp_sock_bound_addr(const struct udpcp_sock *usk,
					 struct in6_addr *addr)
{
#if IS_ENABLED(CONFIG_IPV6)
	if (usk->inet.sk.sk_family == AF_INET6) {
		*addr = usk->inet.sk.sk_v6_rcv_saddr;
		return;
	}
#endif
	ipv6_addr_set_v4mapped(usk->inet.inet_rcv_saddr, addr);
}

/**
 * struct udpcp_peer_key - the key of a peer in udpcp_net.peers
 * @usk: its socket
 * @addr: the remote address, IPv4 as v4-mapped
 * @port: the remote port
 * @pad: zeroed: the whole struct is hashed
 *
 * Written once, before the peer is inserted; never changed.
 */
struct udpcp_peer_key {
	const struct udpcp_sock	*usk;
	struct in6_addr		addr;
	__be16			port;
	u16			pad;
};

enum udpcp_tx_state {
	UDPCP_TX_IDLE,
	UDPCP_TX_SYNC,		/* sync sent, waiting for its ack */
	UDPCP_TX_SENDING,	/* a message in flight */
};

/* Peer flags, beyond the uapi UDPCP_PEER_F_* bits. */
#define UDPCP_PEER_F_GROUP	BIT(8)	/* multicast/broadcast: no-ack */
#define UDPCP_PEER_F_RX_VALID	BIT(9)	/* rx_last_id is meaningful */
#define UDPCP_PEER_F_RX_DEAD	BIT(10)	/* rx_dead_id is meaningful */
#define UDPCP_PEER_F_BCAST	BIT(11)
#define UDPCP_PEER_F_DEAD	BIT(31)	/* unlinked, being freed */

/**
 * struct udpcp_peer - a remote endpoint as seen from one socket
 * @node: in udpcp_net.peers
 * @key: the socket and the remote address and port; never changed
 * @sock_node: in the socket's udpcp_sock.peers
 * @usk: the socket; never changed
 * @rcu: frees the peer after a grace period
 * @timer: retransmission and reassembly deadlines (soft hrtimer)
 * @dst: the route to the peer, held; one entry where a per-CPU struct
 *	dst_cache would take 16 + 40 octets per possible CPU, since it is
 *	only used under the state lock
 * @dst_saddr: the source address @dst was looked up with (IPv4 mapped)
 * @dst_cookie: checks @dst (IPv6)
 * @ifindex: the scope of a link-local remote address
 * @flags: UDPCP_PEER_F_*
 * @override: BIT(UDPCP_P_*): which of @params the peer sets itself
 * @params: the peer's own settings, those @override marks
 * @srtt_us: smoothed round-trip time
 * @last_active: jiffies of the last traffic; also written and read with
 *	WRITE_ONCE()/READ_ONCE() (netlink reports it)
 * @txq: messages waiting to be sent
 * @tx_msg: the message in flight; which of its fragments are acked is in
 *	its cb (struct udpcp_tx_cb)
 * @tx_deadline: when the sync or fragments in flight are retransmitted
 *	(0: nothing due)
 * @tx_start: when the sync or message in flight was first sent
 * @next_id: the ID the next message takes
 * @tx_id: the ID of the message in flight
 * @tx_state: enum udpcp_tx_state
 * @tx_tries: sends of the sync or oldest fragment in flight so far
 * @tx_frags: fragments of the message in flight
 * @tx_frag_payload: octets of payload in each of them but the last
 * @tx_base: the first fragment not acked
 * @tx_next: the first fragment never sent
 * @tx_mode: the transfer mode of the message in flight
 * @tx_csum: whether it carries checksums
 * @tx_retried: a fragment of it was sent again (no RTT sample then)
 * @tx_icmp_err: the errno of the last ICMP error about the sync or the
 *	message in flight (0: none), reported in place of ETIMEDOUT if it
 *	fails
 * @rx_parts: messages being put together (rx.c's udpcp_rx_part), in ID
 *	order, at most UDPCP_RX_PARTIALS
 * @rx_deadline: the earliest deadline of @rx_parts (0: none)
 * @rx_truesize: truesize of @rx_parts
 * @rx_last_id: the last ID delivered (with UDPCP_PEER_F_RX_VALID)
 * @rx_dead_id: an ID given up, whose retransmissions are not acked (with
 *	UDPCP_PEER_F_RX_DEAD)
 * @rx_first_id: the first ID delivered since the sequence started
 * @rx_early: which of the UDPCP_RX_PARTIALS IDs before @rx_first_id came
 *	late (udpcp_rx_early())
 * @rx_nparts: entries of @rx_parts
 * @rx_queued: truesize of its messages in the receive queue, for the share
 *	of the buffer it may take (udpcp_rx_admit())
 * @gen: which peer of its socket it is: queued messages carry it in their
 *	cb, so one left by a peer that expired is not taken off a new one
 *	for the same source
 * @icmp_last_err: the errno of the last ICMP error matched to a packet in
 *	flight (icmp.c; counted as UDPCP_MIB_ICMP_ERRORS)
 * @icmp_last: its jiffies
 * @stats: the peer's counters (udpcp_peer_count())
 *
 * Locking: every field not marked otherwise above is under the state lock
 * of @usk while the peer is live.  @node and @sock_node change only under
 * it too, and UDPCP_PEER_F_DEAD is set there when the peer is unlinked
 * from both (udpcp_peer_unlink()).
 *
 * Lifetime: no reference count.  A peer belongs to its socket; it is
 * unlinked by close, by netlink's "peer del" or by the GC, and whoever
 * unlinked it then owns it alone: cancels its timer, announces it gone and
 * frees it after an RCU grace period (udpcp_peer_free()), in process
 * context.  A pointer to a peer is good under the state lock while
 * UDPCP_PEER_F_DEAD is clear (found by udpcp_peer_lookup() or on the
 * socket's list), within an RCU read-side section (the receive path, ICMP
 * errors, netlink dumps: they take the state lock and check
 * UDPCP_PEER_F_DEAD before touching its state), or under the namespace
 * lock while its socket is listed.  udpcp_peer_assert_locked() checks the
 * first and the owner's case.
 */
struct udpcp_peer {
	struct rhash_head	node;
	struct udpcp_peer_key	key;
	struct list_head	sock_node;
	struct udpcp_sock	*usk;
	struct rcu_head		rcu;
	struct hrtimer		timer;
	struct dst_entry	*dst;
	struct in6_addr		dst_saddr;
	u32			dst_cookie;
	int			ifindex;
	u32			flags;
	u32			override;
	struct udpcp_params	params;
	u32			srtt_us;
	unsigned long		last_active;

	/* transmit */
	struct sk_buff_head	txq;
	struct sk_buff		*tx_msg;
	ktime_t			tx_deadline;
	ktime_t			tx_start;
	u16			next_id;
	u16			tx_id;
	u8			tx_state;
	u8			tx_tries;
	u8			tx_frags;
	u16			tx_frag_payload;
	u8			tx_base;
	u8			tx_next;
	u8			tx_mode;
	u8			tx_csum;
	bool			tx_retried;
	u8			tx_icmp_err;

	/* receive */
	struct list_head	rx_parts;
	ktime_t			rx_deadline;
	u32			rx_truesize;
	u16			rx_last_id;
	u16			rx_dead_id;
	u16			rx_first_id;
	u8			rx_early;
	u8			rx_nparts;
	u32			rx_queued;
	u8			gen;

	u8			icmp_last_err;
	unsigned long		icmp_last;

	struct udpcp_mib	stats;
};

/*
 * The peer's state may be touched: the state lock is held, or the peer is
 * unlinked (UDPCP_PEER_F_DEAD) and the caller is the one freeing it.
 */
static inline void udpcp_peer_assert_locked(const struct udpcp_peer *peer)
{
	if (!(peer->flags & UDPCP_PEER_F_DEAD))
		lockdep_assert_held(&peer->usk->lock);
}

/* Counts @n in @peer's @item. */
static inline void udpcp_peer_count(struct udpcp_peer *peer,
				    enum udpcp_mib_item item, u64 n)
{
	lockdep_assert_held(&peer->usk->lock);
	peer->stats.mibs[item] += n;
}

/**
 * struct udpcp_peer_tmpl - a peer template: a peer netlink added without
 *	naming a socket, whose params every socket's peer for that remote
 *	end takes
 * @node: in udpcp_net.tmpls: added and removed under the namespace lock,
 *	read under RCU or that lock
 * @rcu: freed after a grace period (kfree_rcu())
 * @addr: the remote address (IPv4 mapped)
 * @port: the remote port
 * @override: BIT(UDPCP_P_*): which of @params it sets
 * @params: its settings
 *
 * Never changed once listed: a change replaces it (list_replace_rcu()).
 */
struct udpcp_peer_tmpl {
	struct list_head	node;
	struct rcu_head		rcu;
	struct in6_addr		addr;
	__be16			port;
	u32			override;
	struct udpcp_params	params;
};

/**
 * struct udpcp_tx_cb - a message's skb->cb while it is sent
 * @mode: UDPCP_NOACK, UDPCP_ACK, UDPCP_SINGLE_ACK or UDPCP_TX_DEFAULT,
 *	as sendmsg's control message said
 * @csum: 0, 1 or UDPCP_TX_DEFAULT, likewise
 * @acked: while the message is in flight, its fragments acknowledged
 *
 * The skb is sendmsg's until it is queued on a peer, then its peer's:
 * under the state lock.
 */
struct udpcp_tx_cb {
	u8	mode;
	u8	csum;
	DECLARE_BITMAP(acked, UDPCP_MAX_FRAGS + 1);
};

#define UDPCP_TX_DEFAULT	0xff	/* the peer's (or socket's) setting */

#define UDPCP_TX_CB(skb) ((struct udpcp_tx_cb *)((skb)->cb))

/*
 * Why the receiver dropped a packet, as the udpcp_drop tracepoint names
 * it; rx.c maps each to the closest skb drop reason the kernel has.
 */
enum udpcp_drop_reason {
	UDPCP_DROP_CHECKSUM,	/* Adler-32 mismatch */
	UDPCP_DROP_MALFORMED,	/* header or lengths against the protocol */
	UDPCP_DROP_DUPLICATE,	/* a message already delivered */
	UDPCP_DROP_RCVBUF,	/* no room in the receive buffer */
	UDPCP_DROP_SHARE,	/* its source holds its share of it */
	UDPCP_DROP_EVICTED,	/* partial message evicted for room */
	UDPCP_DROP_REPLACED,	/* partial message given up for a newer */
	UDPCP_DROP_STALE,	/* fragment of a message already given up */
	UDPCP_DROP_TIMEOUT,	/* partial message expired (rx timeout) */
	UDPCP_DROP_NOMEM,	/* an allocation failed */
	UDPCP_DROP_NO_PEER,	/* the socket's peer limit, or it closes */
	UDPCP_DROP_CLOSE,	/* the peer went away holding it */
};

/**
 * struct udpcp_rx_cb - a received packet's skb->cb, ahead of SOCK_SKB_CB
 * @saddr: where it came from, IPv4 as v4-mapped
 * @daddr: the local address it was sent to
 * @iif: the interface it came in on
 * @sport: the source port
 * @frag_num: its fragment number, while it waits in a partial message
 * @peer_gen: its peer's gen, while the message is in the receive queue
 *
 * Written by the receive path under the state lock until the message is
 * queued; recvmsg reads it after taking the skb off the queue.
 */
struct udpcp_rx_cb {
	struct in6_addr	saddr;
	struct in6_addr	daddr;
	int		iif;
	__be16		sport;
	u8		frag_num;
	u8		peer_gen;
};

#define UDPCP_RX_CB(skb) ((struct udpcp_rx_cb *)((skb)->cb))

static inline u16 udpcp_next_id(u16 id)
{
	return id >= UDPCP_MAX_ID ? 1 : id + 1;
}

/* main.c */
void udpcp_net_link_sock(struct udpcp_sock *usk);
void udpcp_net_unlink_sock(struct udpcp_sock *usk);
void udpcp_net_account_closed(struct udpcp_sock *usk);
void udpcp_net_stats(struct udpcp_net *un, struct udpcp_mib *st);
void udpcp_net_stats_reset(struct udpcp_net *un);

/* socket.c */
int udpcp_proto_init(void);
void udpcp_proto_exit(void);
void udpcp_sock_fill_info(struct udpcp_sock *usk, struct udpcp_info *info);
void udpcp_sock_wake_flush(struct udpcp_sock *usk);
void udpcp_sock_stats(struct udpcp_sock *usk, struct udpcp_mib *st);
void udpcp_sock_stats_reset(struct udpcp_sock *usk);

/**
 * struct udpcp_sock_queues - what waits in a socket's queues, for netlink
 * @rx_msgs: messages in the receive queue
 * @rx_bytes: their octets
 * @tx_msgs: messages queued or in flight
 * @tx_bytes: their octets
 * @rx_partial_mem: truesize of the partial messages
 *
 * A snapshot on the stack (udpcp_sock_queues()): no lock.
 */
struct udpcp_sock_queues {
	u32	rx_msgs;
	u32	rx_bytes;
	u32	tx_msgs;
	u32	tx_bytes;
	u32	rx_partial_mem;
};

void udpcp_sock_queues(struct udpcp_sock *usk, struct udpcp_sock_queues *q);

/* udp.c */
int udpcp_udp_create(struct udpcp_sock *usk);
int udpcp_udp_bind(struct udpcp_sock *usk, const struct udpcp_addr *local);
void udpcp_udp_release(struct udpcp_sock *usk);
struct sk_buff *udpcp_udp_alloc(unsigned int len);
int udpcp_udp_route(struct udpcp_peer *peer, struct sk_buff *skb);
void udpcp_udp_xmit_list(struct sk_buff_head *list);
unsigned int udpcp_udp_mtu_payload(struct udpcp_peer *peer);
unsigned int udpcp_udp_skb_payload(const struct sk_buff *skb);
bool udpcp_udp_dest_is_broadcast(struct udpcp_peer *peer);

/* wire.c */
void udpcp_hdr_build(struct udpcp_hdr *h, u8 type, u8 flags, u8 flags2,
		     u8 amount, u8 num, u16 id, u16 len);
void udpcp_csum_set(struct sk_buff *skb);
void udpcp_csum_set_part(struct udpcp_hdr *h, const struct sk_buff *msg,
			 unsigned int off, unsigned int len);
void udpcp_adler32_init(void);
bool udpcp_csum_ok(const struct sk_buff *skb, unsigned int offset,
		   const struct udpcp_hdr *h);

/* peer.c */
int udpcp_peers_net_init(struct udpcp_net *un);
void udpcp_peers_net_exit(struct udpcp_net *un);
struct udpcp_peer *udpcp_peer_lookup(struct udpcp_sock *usk,
				     const struct udpcp_addr *ra);
struct udpcp_peer *udpcp_peer_get_or_create(struct udpcp_sock *usk,
					    const struct udpcp_addr *ra);
int udpcp_peer_ensure(struct udpcp_sock *usk, const struct udpcp_addr *ra);
/**
 * struct udpcp_peer_override - what netlink's "peer add" sets on one peer
 * @override: BIT(UDPCP_P_*): which of @params
 * @params: the values
 *
 * On the stack of the netlink request; copied into the peer.
 */
struct udpcp_peer_override {
	u32			override;
	struct udpcp_params	params;
};

struct udpcp_peer *udpcp_peer_add(struct udpcp_sock *usk,
				  const struct udpcp_addr *ra,
				  const struct udpcp_peer_override *ovr);
void udpcp_peers_release_sock(struct udpcp_sock *usk);
void udpcp_peers_gc(struct udpcp_net *un);
void udpcp_params_merge(struct udpcp_params *p, u32 override,
			const struct udpcp_params *own);
void udpcp_peer_params(const struct udpcp_peer *peer, struct udpcp_params *p);
void udpcp_peer_touch(struct udpcp_peer *peer);
void udpcp_peer_dst_reset(struct udpcp_peer *peer);
int udpcp_peer_cache_init(void);
void udpcp_peer_cache_exit(void);
void udpcp_peer_timer_update(struct udpcp_peer *peer);
int udpcp_peer_delete(struct udpcp_sock *usk, const struct udpcp_addr *ra);
void udpcp_peer_set_params(struct udpcp_peer *peer, u32 override,
			   const struct udpcp_params *p);
u8 udpcp_peer_state(const struct udpcp_peer *peer);

/* tx.c */
bool udpcp_tx_single(struct udpcp_peer *peer, struct sk_buff *msg,
		     struct sk_buff_head *xmitq);
void udpcp_tx_queue(struct udpcp_sock *usk, struct udpcp_peer *peer,
		    struct sk_buff *msg, struct sk_buff_head *xmitq);
void udpcp_tx_ack(struct udpcp_peer *peer, const struct udpcp_hdr *h,
		  struct sk_buff_head *xmitq);
void udpcp_tx_send_ack(struct udpcp_peer *peer, const struct udpcp_hdr *h,
		       u8 num, bool dup, struct sk_buff_head *xmitq);
void udpcp_tx_timeout(struct udpcp_peer *peer, struct sk_buff_head *xmitq);
void udpcp_tx_purge(struct udpcp_peer *peer);
void udpcp_tx_fail_report(struct udpcp_sock *usk, const struct udpcp_addr *to,
			  u16 id, unsigned int len, int err);

/* icmp.c: udpcp_icmp_rcv() is declared in compat.h, which calls it. */

/* rx.c */
int udpcp_encap_rcv(struct sock *udp_sk, struct sk_buff *skb);
void udpcp_rx_timeout(struct udpcp_peer *peer);
void udpcp_rx_purge(struct udpcp_peer *peer);
void udpcp_rx_dequeued(struct udpcp_sock *usk, const struct sk_buff *skb);

/* mib.c */
int udpcp_mib_check(void);
int udpcp_mib_nl_put(struct sk_buff *skb, int attr, const struct udpcp_mib *m);
void udpcp_mib_fill_info(struct udpcp_info *info, const struct udpcp_mib *m);
void udpcp_mib_fold(struct udpcp_mib *to,
		    const struct udpcp_pcpu_mib __percpu *pcpu);
void udpcp_mib_pcpu_reset(struct udpcp_pcpu_mib __percpu *pcpu);
void udpcp_sock_count(struct udpcp_sock *usk, enum udpcp_mib_item item);

/* netlink.c */
int udpcp_genl_init(void);
void udpcp_genl_exit(void);
void udpcp_notify_peer(struct udpcp_peer *peer, u8 cmd, u16 msg_id, gfp_t gfp);

#endif /* _UDPCP_H */
