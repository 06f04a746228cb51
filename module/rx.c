// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP: the receiver.  Runs in the UDP receive path (softirq): checks,
 * reassembles, delivers whole messages to the socket and sends the acks
 * itself, so no process needs to wake up for the protocol to progress.
 */
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/udp.h>

#include "udpcp.h"
#include "trace.h"

/* The packet as parsed, before any state is touched. */
struct udpcp_rx_pkt {
	struct udpcp_hdr	h;
	unsigned int		payload;	/* octets after the header */
	u16			id;
	u8			mode;
};

/*
 * A message being put together, or (no-ack mode) complete and held until
 * the messages before it are delivered.  Belongs to its peer; everything
 * in it is guarded by the state lock (udpcp_sock.lock).
 */
struct udpcp_rx_part {
	struct list_head	peer_node;	/* udpcp_peer.rx_parts, ID order */
	struct list_head	sock_node;	/* udpcp_sock.rx_partials */
	struct udpcp_peer	*peer;
	struct sk_buff		*head;		/* the fragments, by number */
	struct sk_buff		*tail;
	ktime_t			deadline;	/* rx timeout from the first */
	u32			bytes;
	u32			truesize;	/* the fragments' and this one's */
	u16			id;
	u16			len;
	u8			amount;
	u8			count;
	bool			waiting;	/* for receive-queue room */
	DECLARE_BITMAP(have, UDPCP_MAX_FRAGS + 1);
};

/*
 * The kernel's drop reason closest to each of ours, for skb:kfree_skb and
 * dropwatch; the udpcp_drop tracepoint tells them apart.
 */
static const enum skb_drop_reason udpcp_skb_drop_reason[] = {
	[UDPCP_DROP_CHECKSUM]	= SKB_DROP_REASON_SKB_CSUM,
	[UDPCP_DROP_MALFORMED]	= SKB_DROP_REASON_INVALID_PROTO,
	[UDPCP_DROP_DUPLICATE]	= UDPCP_SKB_DROP_DUP_FRAG,
	[UDPCP_DROP_RCVBUF]	= SKB_DROP_REASON_SOCKET_RCVBUFF,
	[UDPCP_DROP_SHARE]	= SKB_DROP_REASON_SOCKET_RCVBUFF,
	/* Partial messages are held within the receive buffer. */
	[UDPCP_DROP_EVICTED]	= SKB_DROP_REASON_SOCKET_RCVBUFF,
	[UDPCP_DROP_REPLACED]	= UDPCP_SKB_DROP_FRAG_TOO_FAR,
	[UDPCP_DROP_STALE]	= UDPCP_SKB_DROP_REASM_TIMEOUT,
	[UDPCP_DROP_TIMEOUT]	= UDPCP_SKB_DROP_REASM_TIMEOUT,
	[UDPCP_DROP_NOMEM]	= SKB_DROP_REASON_NOMEM,
	[UDPCP_DROP_NO_PEER]	= SKB_DROP_REASON_PROTO_MEM,
	[UDPCP_DROP_CLOSE]	= UDPCP_SKB_DROP_SOCKET_CLOSE,
};

/* Free a received packet that goes no further, saying why. */
static void udpcp_rx_drop(struct udpcp_sock *usk,
			  const struct udpcp_rx_cb *cb, struct sk_buff *skb,
			  u16 id, u8 num, u8 amount,
			  enum udpcp_drop_reason why)
{
	trace_udpcp_drop(usk, cb, skb, id, num, amount, why);
	kfree_skb_reason(skb, udpcp_skb_drop_reason[why]);
}

/* The same for one of a peer's fragments, whose cb says where from. */
static void udpcp_rx_drop_frag(struct udpcp_peer *peer, struct sk_buff *skb,
			       u16 id, u8 amount, enum udpcp_drop_reason why)
{
	udpcp_rx_drop(peer->usk, UDPCP_RX_CB(skb), skb, id,
		      UDPCP_RX_CB(skb)->frag_num, amount, why);
}

/* @a comes before @b in a sender's sequence (IDs wrap from 0xfffe to 1). */
static bool udpcp_id_before(u16 a, u16 b)
{
	unsigned int ahead = (b + UDPCP_MAX_ID - a) % UDPCP_MAX_ID;

	return ahead && ahead < UDPCP_RX_DUP_WINDOW;
}

static bool udpcp_rx_part_done(const struct udpcp_rx_part *part)
{
	return part->count == part->amount;
}

static struct udpcp_rx_part *udpcp_rx_part_find(struct udpcp_peer *peer,
						u16 id)
{
	struct udpcp_rx_part *part;

	lockdep_assert_held(&peer->usk->lock);
	list_for_each_entry(part, &peer->rx_parts, peer_node)
		if (part->id == id)
			return part;
	return NULL;
}

static void udpcp_rx_update_deadline(struct udpcp_peer *peer)
{
	struct udpcp_rx_part *part;
	ktime_t next = 0;

	lockdep_assert_held(&peer->usk->lock);
	list_for_each_entry(part, &peer->rx_parts, peer_node)
		if (!next || part->deadline < next)
			next = part->deadline;
	peer->rx_deadline = next;
}

/* Unlink and free @part, whose fragments are gone (dropped or taken). */
static void udpcp_rx_part_free(struct udpcp_peer *peer,
			       struct udpcp_rx_part *part)
{
	lockdep_assert_held(&peer->usk->lock);
	peer->usk->rx_partial_mem -= part->truesize;
	peer->rx_truesize -= part->truesize;
	peer->rx_nparts--;
	list_del(&part->peer_node);
	list_del(&part->sock_node);
	kfree(part);
}

/*
 * Message @id is given up after its sender was told of some of it (acks,
 * or its last fragment accepted): its retransmissions are dropped unacked,
 * so that the sender sees it fail.  Until the next message from the peer.
 */
static void udpcp_rx_kill_id(struct udpcp_peer *peer, u16 id)
{
	lockdep_assert_held(&peer->usk->lock);
	peer->rx_dead_id = id;
	peer->flags |= UDPCP_PEER_F_RX_DEAD;
}

/* The rx timeout of @part runs again, from now. */
static void udpcp_rx_part_rearm(struct udpcp_peer *peer,
				struct udpcp_rx_part *part)
{
	struct udpcp_params p;

	lockdep_assert_held(&peer->usk->lock);
	udpcp_peer_params(peer, &p);
	part->deadline = ktime_add_ms(ktime_get(), p.rx_timeout_ms);
}

/*
 * Drop a message that will not be delivered; its fragments count as
 * discarded.  @dead: its ID is dead, as in udpcp_rx_timeout().
 */
static void udpcp_rx_part_drop(struct udpcp_peer *peer,
			       struct udpcp_rx_part *part, bool dead,
			       enum udpcp_drop_reason why)
{
	struct sk_buff *skb = part->head, *next;

	lockdep_assert_held(&peer->usk->lock);
	while (skb) {
		next = skb->next;
		skb_mark_not_on_list(skb);
		udpcp_rx_drop_frag(peer, skb, part->id, part->amount, why);
		skb = next;
	}
	part->head = NULL;
	udpcp_peer_count(peer, UDPCP_MIB_RX_DISCARDED_FRAGS, part->count);
	if (dead)
		udpcp_rx_kill_id(peer, part->id);
	udpcp_rx_part_free(peer, part);
}

void udpcp_rx_purge(struct udpcp_peer *peer)
{
	struct udpcp_rx_part *part, *tmp;

	lockdep_assert_held(&peer->usk->lock);
	list_for_each_entry_safe(part, tmp, &peer->rx_parts, peer_node)
		udpcp_rx_part_drop(peer, part, false, UDPCP_DROP_CLOSE);
	peer->rx_deadline = 0;
}

/* Chain the fragments of a complete @part behind the first; frees @part. */
static struct sk_buff *udpcp_rx_assemble(struct udpcp_peer *peer,
					 struct udpcp_rx_part *part)
{
	struct sk_buff *head = part->head, *frag;

	lockdep_assert_held(&peer->usk->lock);
	part->head = NULL;
	udpcp_rx_part_free(peer, part);
	frag = head->next;
	skb_mark_not_on_list(head);
	skb_shinfo(head)->frag_list = frag;
	for (; frag; frag = frag->next) {
		head->len += frag->len;
		head->data_len += frag->len;
		head->truesize += frag->truesize;
	}
	return head;
}

/*
 * May a message of @truesize from @peer join the receive queue?  Judged
 * before anything is acknowledged.  0 if so, else why not.
 *
 * Sources share the buffer once it is past half full: then a source that
 * holds queued messages gets more only within its share, three quarters
 * of the buffer split evenly between the sources holding some.  Sources
 * flooding a slow reader thus leave a quarter free, and a source holding
 * nothing is admitted whenever there is room: a steady sender is not
 * starved by a flood from others (or from one).  Below half full nobody
 * is limited, so one source's burst may use the buffer.  (Admitting a
 * source that holds nothing past the limit, as UDP admits one datagram,
 * was tried: the flooders hold nothing as often, and the receive fuzzer's
 * 30000-octet legitimate messages then failed more, not less.)
 */
static enum udpcp_drop_reason udpcp_rx_admit(struct udpcp_peer *peer,
					     unsigned int truesize)
{
	struct udpcp_sock *usk = peer->usk;
	struct sock *sk = &usk->inet.sk;
	unsigned int rcvbuf = READ_ONCE(sk->sk_rcvbuf);
	unsigned int used = atomic_read(&sk->sk_rmem_alloc);

	lockdep_assert_held(&usk->lock);
	if (used + truesize > rcvbuf)
		return UDPCP_DROP_RCVBUF;
	if (used + truesize <= rcvbuf / 2 || !peer->rx_queued)
		return 0;
	/* rx_sharing counts @peer: it holds queued messages. */
	if ((u64)(peer->rx_queued + truesize) * 4 * usk->rx_sharing >
	    (u64)rcvbuf * 3)
		return UDPCP_DROP_SHARE;
	return 0;
}

/* A refusal for want of room: counted, and told apart when for a share. */
static void udpcp_rx_refused(struct udpcp_peer *peer,
			     enum udpcp_drop_reason why)
{
	udpcp_peer_count(peer, UDPCP_MIB_RX_DROPPED, 1);
	if (why == UDPCP_DROP_SHARE)
		udpcp_peer_count(peer, UDPCP_MIB_RX_REFUSED, 1);
}

/* A message left the receive queue (recvmsg): its source's share is freed. */
void udpcp_rx_dequeued(struct udpcp_sock *usk, const struct sk_buff *skb)
{
	const struct udpcp_rx_cb *cb = UDPCP_RX_CB(skb);
	struct udpcp_addr ra = { .addr = cb->saddr, .port = cb->sport };
	struct udpcp_peer *peer;

	spin_lock_bh(&usk->lock);
	peer = udpcp_peer_lookup(usk, &ra);
	if (peer && peer->gen == cb->peer_gen && peer->rx_queued) {
		peer->rx_queued -= min(peer->rx_queued, skb->truesize);
		if (!peer->rx_queued)
			usk->rx_sharing--;
	}
	spin_unlock_bh(&usk->lock);
}

/*
 * Where a sequence starts (no last ID yet: a new source, or after a
 * sync), its first no-ack message can be overtaken whole by the next one
 * (their packets went through different CPUs' queues) and would then look
 * like a duplicate.  The few IDs just before the first one delivered since
 * the start were never delivered in this sequence: each may come once,
 * late.  Returns how far before that first ID @id is (bit d - 1 of
 * rx_early), or 0 when @id is not such a message.
 */
static unsigned int udpcp_rx_early(const struct udpcp_peer *peer, u16 id)
{
	unsigned int d = (peer->rx_first_id + UDPCP_MAX_ID - id) % UDPCP_MAX_ID;

	lockdep_assert_held(&peer->usk->lock);
	if (!(peer->flags & UDPCP_PEER_F_RX_VALID) || !d ||
	    d > UDPCP_RX_PARTIALS || (peer->rx_early & BIT(d - 1)))
		return 0;
	return d;
}

/* Message @id is done with (delivered or lost): the sequence moves on. */
static void udpcp_rx_advance(struct udpcp_peer *peer, u16 id)
{
	unsigned int early = udpcp_rx_early(peer, id);

	lockdep_assert_held(&peer->usk->lock);
	if (!(peer->flags & UDPCP_PEER_F_RX_VALID)) {
		peer->rx_first_id = id;
		peer->rx_early = 0;
	}
	if (early)
		peer->rx_early |= BIT(early - 1);
	else
		peer->rx_last_id = id;
	peer->flags |= UDPCP_PEER_F_RX_VALID;
}

/* Queue a whole message to the application; false if it had no room. */
static bool udpcp_rx_queue(struct udpcp_peer *peer, struct sk_buff *msg,
			   u16 id)
{
	struct sock *sk = &peer->usk->inet.sk;
	unsigned int len = msg->len, truesize = msg->truesize;
	enum udpcp_drop_reason why;

	lockdep_assert_held(&peer->usk->lock);
	why = udpcp_rx_admit(peer, truesize);
	if (!why) {
		UDPCP_RX_CB(msg)->peer_gen = peer->gen;
		if (__sock_queue_rcv_skb(sk, msg) < 0)
			why = UDPCP_DROP_RCVBUF;
	}
	if (why) {
		udpcp_rx_drop_frag(peer, msg, id, 0, why);
		udpcp_rx_refused(peer, why);
		return false;
	}
	/* Once queued, @msg is the reader's: its truesize was taken above. */
	if (!peer->rx_queued)
		peer->usk->rx_sharing++;
	peer->rx_queued += truesize;
	trace_udpcp_msg_deliver(peer, id, len, 0, 0);
	udpcp_peer_count(peer, UDPCP_MIB_RX_MSGS, 1);
	udpcp_peer_count(peer, UDPCP_MIB_RX_BYTES, len);
	udpcp_rx_advance(peer, id);
	peer->flags &= ~UDPCP_PEER_F_RX_DEAD;
	return true;
}

/*
 * A complete no-ack message: delivered, or lost for want of room.  Either
 * way the sequence moves on past it, so later messages do not wait for it.
 */
static void udpcp_rx_give(struct udpcp_peer *peer, struct sk_buff *msg,
			  u16 id)
{
	if (!udpcp_rx_queue(peer, msg, id))
		udpcp_rx_advance(peer, id);
}

/* A no-ack message may go now: nothing before it is still to come. */
static bool udpcp_rx_in_turn(const struct udpcp_peer *peer, u16 id)
{
	lockdep_assert_held(&peer->usk->lock);
	return !(peer->flags & UDPCP_PEER_F_RX_VALID) ||
	       id == udpcp_next_id(peer->rx_last_id) ||
	       udpcp_rx_early(peer, id);
}

/*
 * Deliver the complete messages at the front, in ID order.  A complete
 * no-ack message waits while a message before it is partial (in front of
 * it) or has not been seen at all, until it expires or its slot is
 * needed (udpcp_rx_release()).
 */
static void udpcp_rx_flush(struct udpcp_peer *peer)
{
	struct udpcp_rx_part *part;

	lockdep_assert_held(&peer->usk->lock);
	while ((part = list_first_entry_or_null(&peer->rx_parts,
						struct udpcp_rx_part,
						peer_node)) &&
	       udpcp_rx_part_done(part) && udpcp_rx_in_turn(peer, part->id)) {
		u16 id = part->id;

		udpcp_rx_give(peer, udpcp_rx_assemble(peer, part), id);
	}
}

/*
 * Stop waiting for what is missing in front of @until (everything, with
 * NULL): the complete messages up to it are delivered, the partial ones
 * dropped (@expired: counted as rx timeouts, their IDs dead).
 */
static void udpcp_rx_release(struct udpcp_peer *peer,
			     struct udpcp_rx_part *until, bool expired)
{
	struct udpcp_rx_part *part, *tmp;
	bool last = false;
	u16 id;

	lockdep_assert_held(&peer->usk->lock);
	list_for_each_entry_safe(part, tmp, &peer->rx_parts, peer_node) {
		last = part == until;
		id = part->id;
		if (udpcp_rx_part_done(part)) {
			udpcp_rx_give(peer, udpcp_rx_assemble(peer, part), id);
		} else {
			if (expired)
				udpcp_peer_count(peer, UDPCP_MIB_RX_TIMEOUT, 1);
			udpcp_rx_part_drop(peer, part, expired,
					   expired ? UDPCP_DROP_TIMEOUT :
						     UDPCP_DROP_REPLACED);
		}
		if (last)
			break;
	}
	udpcp_rx_flush(peer);
}

/*
 * Partial messages expired.  Their IDs are remembered as dead: fragments
 * that the sender still retransmits must not start a new partial and be
 * acknowledged, or the sender would believe the message delivered.  A
 * complete no-ack message held for an earlier one waits no longer.
 */
void udpcp_rx_timeout(struct udpcp_peer *peer)
{
	struct udpcp_rx_part *part, *expired = NULL;
	ktime_t now = ktime_get();

	lockdep_assert_held(&peer->usk->lock);
	list_for_each_entry(part, &peer->rx_parts, peer_node)
		if (part->deadline <= now)
			expired = part;
	if (expired)
		udpcp_rx_release(peer, expired, true);
	udpcp_rx_update_deadline(peer);
}

/* Fragments are kept sorted by number; they usually arrive in order. */
static void udpcp_rx_store(struct udpcp_peer *peer, struct udpcp_rx_part *part,
			   struct sk_buff *skb)
{
	u8 num = UDPCP_RX_CB(skb)->frag_num;
	struct sk_buff **pos = &part->head;

	lockdep_assert_held(&peer->usk->lock);
	if (!part->tail || UDPCP_RX_CB(part->tail)->frag_num < num) {
		pos = part->tail ? &part->tail->next : &part->head;
		part->tail = skb;
	} else {
		while (*pos && UDPCP_RX_CB(*pos)->frag_num < num)
			pos = &(*pos)->next;
	}
	skb->next = *pos;
	*pos = skb;
	__set_bit(num, part->have);
	part->count++;
	part->bytes += skb->len;
	part->truesize += skb->truesize;
	peer->rx_truesize += skb->truesize;
	peer->usk->rx_partial_mem += skb->truesize;
}

/*
 * The partial messages of a socket stay within its receive buffer.  When a
 * fragment does not fit, the partial messages of other peers make room,
 * the longest started first: fragments of messages that never complete,
 * from many sources, must not starve a peer whose messages complete in
 * time.  A peer that holds half the buffer already evicts nobody: one
 * source's burst must not clear everyone else's.  An evicted message's ID
 * is dead, as if it had expired: its sender has had acks for fragments no
 * longer kept, and must see the message fail.
 */
static bool udpcp_rx_make_room(struct udpcp_peer *peer, unsigned int truesize)
{
	struct udpcp_sock *usk = peer->usk;
	unsigned int limit = READ_ONCE(usk->inet.sk.sk_rcvbuf);
	struct udpcp_rx_part *victim, *tmp;
	struct udpcp_peer *vpeer;

	udpcp_sock_assert_locked(usk);
	if (peer->rx_truesize + truesize > limit / 2)
		return usk->rx_partial_mem + truesize <= limit;
	list_for_each_entry_safe(victim, tmp, &usk->rx_partials, sock_node) {
		if (usk->rx_partial_mem + truesize <= limit)
			break;
		vpeer = victim->peer;
		/*
		 * One waiting for queue room is whole but for the fragment
		 * refused: evicted, its ID is given up, and the sender's
		 * retransmissions (of that fragment alone in ack mode) can
		 * only fail.  The reader, or its rx timeout, frees it.
		 */
		if (vpeer == peer || victim->waiting)
			continue;
		/* What it held back waits for its own deadline. */
		udpcp_rx_part_drop(vpeer, victim, true, UDPCP_DROP_EVICTED);
		udpcp_rx_update_deadline(vpeer);
	}
	return usk->rx_partial_mem + truesize <= limit;
}

/* A new message from @peer: its partial, in ID order.  NULL: no memory. */
static struct udpcp_rx_part *udpcp_rx_part_new(struct udpcp_peer *peer,
					       const struct udpcp_rx_pkt *pkt)
{
	struct udpcp_rx_part *part, *pos;

	lockdep_assert_held(&peer->usk->lock);
	part = kzalloc(sizeof(*part), GFP_ATOMIC);
	if (!part)
		return NULL;
	part->peer = peer;
	part->id = pkt->id;
	part->amount = pkt->h.frag_amount;
	part->len = ntohs(pkt->h.msg_len);
	part->truesize = sizeof(*part);
	/* The rx timeout runs from the first fragment stored. */
	udpcp_rx_part_rearm(peer, part);
	/* Usually the newest: found from the back. */
	list_for_each_entry_reverse(pos, &peer->rx_parts, peer_node)
		if (udpcp_id_before(pos->id, part->id))
			break;
	list_add(&part->peer_node, &pos->peer_node);
	list_add_tail(&part->sock_node, &peer->usk->rx_partials);
	peer->rx_nparts++;
	peer->rx_truesize += part->truesize;
	peer->usk->rx_partial_mem += part->truesize;
	return part;
}

/*
 * The last fragment of an ack-mode message (or its only one): delivered
 * and acknowledged if the receive queue has room, else neither.
 */
static void udpcp_rx_deliver_ack(struct udpcp_peer *peer,
				 const struct udpcp_rx_pkt *pkt,
				 struct udpcp_rx_part *part,
				 struct sk_buff *last,
				 struct sk_buff_head *xmitq)
{
	unsigned int truesize = last->truesize;
	struct sk_buff *msg = last;
	enum udpcp_drop_reason why;

	lockdep_assert_held(&peer->usk->lock);
	if (part)
		truesize += part->truesize - sizeof(*part);
	why = udpcp_rx_admit(peer, truesize);
	if (why) {
		/*
		 * Not acknowledged: the retransmission brings it back.  The
		 * fragments stored so far wait for it: a sender that still
		 * retransmits is alive, so the rx timeout starts again, or a
		 * reader slower than the rx timeout would make the sender's
		 * message fail although every fragment got here.
		 */
		udpcp_rx_refused(peer, why);
		udpcp_rx_drop_frag(peer, last, pkt->id, pkt->h.frag_amount,
				   why);
		if (part) {
			part->waiting = true;
			udpcp_rx_part_rearm(peer, part);
		}
		return;
	}
	if (part) {
		udpcp_rx_store(peer, part, last);
		msg = udpcp_rx_assemble(peer, part);
	}
	if (!udpcp_rx_queue(peer, msg, pkt->id)) {
		/* Out of socket memory after all: make the sender fail. */
		udpcp_rx_kill_id(peer, pkt->id);
		return;
	}
	udpcp_tx_send_ack(peer, &pkt->h, pkt->mode == UDPCP_ACK ?
			  pkt->h.frag_num : pkt->h.frag_amount - 1, false,
			  xmitq);
}

static bool udpcp_rx_is_dup(const struct udpcp_peer *peer,
			    const struct udpcp_rx_pkt *pkt)
{
	unsigned int behind;

	lockdep_assert_held(&peer->usk->lock);
	if (!(peer->flags & UDPCP_PEER_F_RX_VALID))
		return false;
	behind = (peer->rx_last_id + UDPCP_MAX_ID - pkt->id) % UDPCP_MAX_ID;
	if (behind >= UDPCP_RX_DUP_WINDOW)
		return false;
	/* Ack modes never overtake: the sender waits for each message. */
	return pkt->mode != UDPCP_NOACK || !udpcp_rx_early(peer, pkt->id);
}

static void udpcp_rx_sync(struct udpcp_peer *peer,
			  const struct udpcp_rx_pkt *pkt,
			  struct sk_buff_head *xmitq)
{
	lockdep_assert_held(&peer->usk->lock);
	/* Complete messages sent before the sync still go up, in order. */
	trace_udpcp_sync_recv(peer, UDPCP_SYNC_ID, 0, 1, 1);
	udpcp_rx_release(peer, NULL, false);
	udpcp_rx_update_deadline(peer);
	peer->flags &= ~(UDPCP_PEER_F_RX_VALID | UDPCP_PEER_F_RX_DEAD);
	if (pkt->mode != UDPCP_NOACK)
		udpcp_tx_send_ack(peer, &pkt->h, 0, false, xmitq);
}

/*
 * Room for the message @pkt starts.  Ack modes: one message at a time
 * from a source, so a new one replaces what is partial.  No-ack mode:
 * up to UDPCP_RX_PARTIALS; the oldest gives way.  False: @pkt is older
 * than every message held, and there is no room for it.
 */
static bool udpcp_rx_slot(struct udpcp_peer *peer,
			  const struct udpcp_rx_pkt *pkt)
{
	struct udpcp_rx_part *first;

	lockdep_assert_held(&peer->usk->lock);
	if (pkt->mode != UDPCP_NOACK) {
		if (!list_empty(&peer->rx_parts))
			udpcp_rx_release(peer, NULL, false);
		return true;
	}
	while (peer->rx_nparts >= UDPCP_RX_PARTIALS) {
		first = list_first_entry(&peer->rx_parts, struct udpcp_rx_part,
					 peer_node);
		if (udpcp_id_before(pkt->id, first->id))
			return false;
		udpcp_rx_release(peer, first, false);
	}
	return true;
}

/* Consumes @skb, whose data is the payload. */
static void udpcp_rx_data(struct udpcp_peer *peer,
			  const struct udpcp_rx_pkt *pkt, struct sk_buff *skb,
			  struct sk_buff_head *xmitq)
{
	const struct udpcp_hdr *h = &pkt->h;
	enum udpcp_drop_reason why;
	struct udpcp_rx_part *part;
	unsigned int bytes = 0, len;
	bool last;

	lockdep_assert_held(&peer->usk->lock);
	udpcp_peer_touch(peer);
	if (pkt->id == UDPCP_SYNC_ID) {
		udpcp_rx_sync(peer, pkt, xmitq);
		goto consume;
	}
	if (udpcp_rx_is_dup(peer, pkt)) {
		udpcp_peer_count(peer, UDPCP_MIB_RX_DUPLICATES, 1);
		last = h->frag_num == h->frag_amount - 1;
		if (pkt->mode == UDPCP_ACK ||
		    (pkt->mode == UDPCP_SINGLE_ACK && last))
			udpcp_tx_send_ack(peer, h, h->frag_num, true, xmitq);
		why = UDPCP_DROP_DUPLICATE;
		goto drop;
	}
	if ((peer->flags & UDPCP_PEER_F_RX_DEAD) && pkt->id == peer->rx_dead_id) {
		udpcp_peer_count(peer, UDPCP_MIB_RX_DISCARDED_FRAGS, 1);
		why = UDPCP_DROP_STALE;
		goto drop;
	}
	peer->flags &= ~UDPCP_PEER_F_RX_DEAD;

	len = ntohs(h->msg_len);
	part = udpcp_rx_part_find(peer, pkt->id);
	if (part) {
		if (h->frag_amount != part->amount || len != part->len) {
			udpcp_peer_count(peer, UDPCP_MIB_RX_MALFORMED, 1);
			why = UDPCP_DROP_MALFORMED;
			goto drop;
		}
		if (test_bit(h->frag_num, part->have)) {
			/* A retransmission whose ack was lost: ack again. */
			if (pkt->mode == UDPCP_ACK)
				udpcp_tx_send_ack(peer, h, h->frag_num, false,
						  xmitq);
			why = UDPCP_DROP_DUPLICATE;
			goto drop;
		}
		bytes = part->bytes;
		last = part->count + 1 == part->amount;
	} else {
		last = h->frag_amount == 1;
	}
	if (bytes + skb->len > len || (last && bytes + skb->len != len)) {
		/* The fragments do not add up to the message length. */
		udpcp_peer_count(peer, UDPCP_MIB_RX_MALFORMED, 1);
		if (part)
			udpcp_rx_part_drop(peer, part, false,
					   UDPCP_DROP_MALFORMED);
		why = UDPCP_DROP_MALFORMED;
		goto drop;
	}

	/*
	 * The head's shared info gets the frag_list, and any fragment may
	 * end up the head (the lowest-numbered one, whenever it arrives): a
	 * clone (a multicast datagram each member socket gets, a packet
	 * tap) is made private first, or two sockets write one frag_list.
	 */
	if (skb_has_frag_list(skb) && __skb_linearize(skb))
		goto drop_mem;
	if (h->frag_amount > 1 && skb_cloned(skb)) {
		skb = skb_unshare(skb, GFP_ATOMIC);
		if (!skb)
			goto drop_mem_nofree;
	}
	skb_orphan(skb);
	skb_dst_drop(skb);

	if (!part) {
		if (!udpcp_rx_slot(peer, pkt)) {
			udpcp_peer_count(peer, UDPCP_MIB_RX_DISCARDED_FRAGS, 1);
			why = UDPCP_DROP_REPLACED;
			goto drop;
		}
		/* A message of one packet, its turn: nothing to put together. */
		if (last && list_empty(&peer->rx_parts)) {
			if (pkt->mode != UDPCP_NOACK) {
				udpcp_rx_deliver_ack(peer, pkt, NULL, skb, xmitq);
				goto out;
			}
			if (udpcp_rx_in_turn(peer, pkt->id)) {
				udpcp_rx_give(peer, skb, pkt->id);
				goto out;
			}
		}
	}
	if (last && pkt->mode != UDPCP_NOACK) {
		udpcp_rx_deliver_ack(peer, pkt, part, skb, xmitq);
		goto out;
	}
	if (!udpcp_rx_make_room(peer, skb->truesize +
				(part ? 0 : sizeof(*part))))
		goto drop_mem;
	if (!part) {
		part = udpcp_rx_part_new(peer, pkt);
		if (!part)
			goto drop_mem;
	}
	udpcp_rx_store(peer, part, skb);
	if (pkt->mode == UDPCP_ACK)
		udpcp_tx_send_ack(peer, h, h->frag_num, false, xmitq);
	if (last)
		udpcp_rx_flush(peer);
out:
	udpcp_rx_update_deadline(peer);
	udpcp_peer_timer_update(peer);
	return;

drop_mem:
	udpcp_rx_drop_frag(peer, skb, pkt->id, h->frag_amount,
			   UDPCP_DROP_NOMEM);
drop_mem_nofree:
	udpcp_peer_count(peer, UDPCP_MIB_RX_DROPPED, 1);
	goto out;
consume:
	consume_skb(skb);
	return;
drop:
	udpcp_rx_drop_frag(peer, skb, pkt->id, h->frag_amount, why);
}

static bool udpcp_rx_parse(struct sk_buff *skb, struct udpcp_rx_pkt *pkt)
{
	const struct udpcp_hdr *h = &pkt->h;
	u8 type;

	if (skb->len < sizeof(struct udphdr) + UDPCP_HDR_LEN ||
	    skb_copy_bits(skb, sizeof(struct udphdr), &pkt->h, UDPCP_HDR_LEN))
		return false;
	pkt->payload = skb->len - sizeof(struct udphdr) - UDPCP_HDR_LEN;
	pkt->id = ntohs(h->msg_id);
	type = udpcp_hdr_type(h);
	if (type == UDPCP_TYPE_ACK)
		return pkt->payload == 0;
	if (type != UDPCP_TYPE_DATA)
		return false;
	if (h->flags & UDPCP_F_NOACK)
		pkt->mode = UDPCP_NOACK;
	else if (h->flags & UDPCP_F_SINGLE)
		pkt->mode = UDPCP_SINGLE_ACK;
	else
		pkt->mode = UDPCP_ACK;
	if (!h->frag_amount || h->frag_num >= h->frag_amount ||
	    ntohs(h->msg_len) > UDPCP_MAX_MSGSIZE ||
	    pkt->payload > ntohs(h->msg_len) || pkt->id > UDPCP_MAX_ID)
		return false;
	if (pkt->id == UDPCP_SYNC_ID)
		return h->frag_amount == 1 && !h->msg_len && !pkt->payload;
	return true;
}

static void udpcp_rx_source(struct sk_buff *skb, struct udpcp_addr *from,
			    struct udpcp_rx_cb *cb)
{
	memset(from, 0, sizeof(*from));
	memset(cb, 0, sizeof(*cb));
	from->port = udp_hdr(skb)->source;
	cb->sport = from->port;
	if (skb->protocol == htons(ETH_P_IP)) {
		ipv6_addr_set_v4mapped(ip_hdr(skb)->saddr, &from->addr);
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, &cb->daddr);
		cb->iif = inet_iif(skb);
	} else {
		from->addr = ipv6_hdr(skb)->saddr;
		cb->daddr = ipv6_hdr(skb)->daddr;
		cb->iif = inet6_iif(skb);
		from->ifindex = ipv6_iface_scope_id(&from->addr, cb->iif);
	}
	cb->saddr = from->addr;
}

/* The encap_rcv hook of the UDP socket: 0 means consumed. */
int udpcp_encap_rcv(struct sock *udp_sk, struct sk_buff *skb)
{
	struct udpcp_sock *usk = rcu_dereference_sk_user_data(udp_sk);
	/* Zeroed: a drop's tracepoint reports the header, even a short one. */
	struct udpcp_rx_pkt pkt = {};
	enum udpcp_drop_reason why;
	struct udpcp_peer *peer;
	struct sk_buff_head xmitq;
	struct udpcp_addr from;
	struct udpcp_rx_cb cb;

	if (!usk) {
		kfree_skb_reason(skb, SKB_DROP_REASON_NO_SOCKET);
		return 0;
	}
	__skb_queue_head_init(&xmitq);
	udpcp_rx_source(skb, &from, &cb);

	if (!udpcp_rx_parse(skb, &pkt)) {
		udpcp_sock_count(usk, UDPCP_MIB_RX_MALFORMED);
		why = UDPCP_DROP_MALFORMED;
		goto drop;
	}

	if ((pkt.h.flags & UDPCP_F_CHECKSUM) &&
	    !udpcp_csum_ok(skb, sizeof(struct udphdr), &pkt.h)) {
		udpcp_sock_count(usk, UDPCP_MIB_CRC_ERRORS);
		why = UDPCP_DROP_CHECKSUM;
		goto drop;
	}

	if (udpcp_hdr_type(&pkt.h) == UDPCP_TYPE_ACK) {
		peer = udpcp_peer_lookup(usk, &from);
		if (!peer)
			goto consume;	/* an ack for nothing we sent */
		spin_lock(&usk->lock);
		if (!(peer->flags & UDPCP_PEER_F_DEAD)) {
			udpcp_peer_touch(peer);
			udpcp_tx_ack(peer, &pkt.h, &xmitq);
		}
		spin_unlock(&usk->lock);
		udpcp_udp_xmit_list(&xmitq);
		goto consume;
	}

	peer = udpcp_peer_get_or_create(usk, &from);
	if (IS_ERR(peer)) {
		udpcp_sock_count(usk, UDPCP_MIB_RX_DROPPED);
		why = PTR_ERR(peer) == -ENOMEM ? UDPCP_DROP_NOMEM :
						 UDPCP_DROP_NO_PEER;
		goto drop;
	}

	if (!pskb_may_pull(skb, sizeof(struct udphdr) + UDPCP_HDR_LEN)) {
		why = UDPCP_DROP_NOMEM;
		goto drop;
	}
	__skb_pull(skb, sizeof(struct udphdr) + UDPCP_HDR_LEN);
	*UDPCP_RX_CB(skb) = cb;
	UDPCP_RX_CB(skb)->frag_num = pkt.h.frag_num;

	spin_lock(&usk->lock);
	if (peer->flags & UDPCP_PEER_F_DEAD) {
		spin_unlock(&usk->lock);
		why = UDPCP_DROP_CLOSE;
		goto drop;
	}
	udpcp_rx_data(peer, &pkt, skb, &xmitq);
	spin_unlock(&usk->lock);
	udpcp_udp_xmit_list(&xmitq);
	return 0;

consume:
	consume_skb(skb);
	return 0;
drop:
	udpcp_rx_drop(usk, &cb, skb, pkt.id, pkt.h.frag_num,
		      pkt.h.frag_amount, why);
	return 0;
}
