// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP: the sender.  One message at a time per peer, in order: a sync
 * first where the peer needs one, then the message's fragments with at
 * most outstanding_acks of them unacknowledged (ack mode), retransmission
 * on timeout, failure after max_tries.
 *
 * Everything here runs under the state lock (udpcp_sock.lock) and only
 * queues built packets on @xmitq; the caller transmits them after
 * releasing it.
 */
#include <linux/errqueue.h>
#include <net/ip.h>

#include "udpcp.h"
#include "trace.h"

/* Used when no route is known: the packets are lost and retried. */
#define UDPCP_FALLBACK_PAYLOAD	(IPV6_MIN_MTU - sizeof(struct ipv6hdr) - \
				 sizeof(struct udphdr) - UDPCP_HDR_LEN)

static void udpcp_tx_next(struct udpcp_peer *peer, struct sk_buff_head *xmitq);

static ktime_t udpcp_tx_deadline(const struct udpcp_peer *peer)
{
	struct udpcp_params p;

	udpcp_peer_params(peer, &p);
	return ktime_add_ms(ktime_get(), p.tx_timeout_ms);
}

/*
 * The packet builder, for data, syncs and acks alike: a new skb with the
 * header and room for @room octets of payload behind it.  NULL: no
 * memory, and the packet is lost (a retransmission makes up for it, or in
 * no-ack mode nothing does).
 */
static struct sk_buff *udpcp_tx_build(u8 type, u8 flags, u8 flags2,
				      u8 amount, u8 num, u16 id, u16 len,
				      unsigned int room)
{
	struct sk_buff *skb;

	skb = udpcp_udp_alloc(UDPCP_HDR_LEN + room);
	if (skb)
		udpcp_hdr_build(skb_put(skb, UDPCP_HDR_LEN), type, flags,
				flags2, amount, num, id, len);
	return skb;
}

/* A summed packet or burst is routed, queued on @xmitq for after the lock. */
static void udpcp_tx_route(struct udpcp_peer *peer, struct sk_buff *skb,
			   struct sk_buff_head *xmitq)
{
	lockdep_assert_held(&peer->usk->lock);
	if (udpcp_udp_route(peer, skb)) {
		kfree_skb(skb);
		return;
	}
	__skb_queue_tail(xmitq, skb);
}

/*
 * A built packet, payload and all, leaves for @peer: summed where its
 * header says so, then routed.
 */
static void udpcp_tx_packet(struct udpcp_peer *peer, struct sk_buff *skb,
			    struct sk_buff_head *xmitq)
{
	if (((struct udpcp_hdr *)skb->data)->flags & UDPCP_F_CHECKSUM)
		udpcp_csum_set(skb);
	udpcp_tx_route(peer, skb, xmitq);
}

static void udpcp_tx_sync(struct udpcp_peer *peer, struct sk_buff_head *xmitq)
{
	struct sk_buff *skb;
	u8 flags = UDPCP_F_SINGLE;

	lockdep_assert_held(&peer->usk->lock);
	trace_udpcp_sync_send(peer, UDPCP_SYNC_ID, 0, 1, peer->tx_tries);
	if (peer->tx_csum)
		flags |= UDPCP_F_CHECKSUM;
	skb = udpcp_tx_build(UDPCP_TYPE_DATA, flags, 0, 1, 0, UDPCP_SYNC_ID, 0, 0);
	if (skb)
		udpcp_tx_packet(peer, skb, xmitq);
}

/*
 * The receiver's ack of fragment @num of the message whose header is @h
 * (@dup: of a duplicate), with a checksum if the message had them.
 */
void udpcp_tx_send_ack(struct udpcp_peer *peer, const struct udpcp_hdr *h,
		       u8 num, bool dup, struct sk_buff_head *xmitq)
{
	struct sk_buff *skb;

	skb = udpcp_tx_build(UDPCP_TYPE_ACK, UDPCP_F_NOACK | UDPCP_F_SINGLE |
			     (h->flags & UDPCP_F_CHECKSUM),
			     dup ? UDPCP_F_DUP : 0, h->frag_amount, num,
			     ntohs(h->msg_id), 0, 0);
	if (skb)
		udpcp_tx_packet(peer, skb, xmitq);
}

/*
 * Point @skb at @len octets of the paged message @msg from @off, behind
 * the frags it has: the pages are shared, not copied.  Nothing writes
 * them once sendmsg filled them, and whoever would write a packet's pages
 * in place copies shared ones.
 */
static int udpcp_tx_lend(struct sk_buff *skb, const struct sk_buff *msg,
			 unsigned int off, unsigned int len)
{
	const struct skb_shared_info *si = skb_shinfo(msg);
	unsigned int i, n = skb_shinfo(skb)->nr_frags, size;

	for (i = 0; i < si->nr_frags && len; i++) {
		const skb_frag_t *f = &si->frags[i];

		size = skb_frag_size(f);
		if (off >= size) {
			off -= size;
			continue;
		}
		if (n == MAX_SKB_FRAGS)
			return -EMSGSIZE;
		size = min(size - off, len);
		get_page(skb_frag_page(f));
		skb_fill_page_desc(skb, n++, skb_frag_page(f),
				   skb_frag_off(f) + off, size);
		skb->len += size;
		skb->data_len += size;
		skb->truesize += size;
		len -= size;
		off = 0;
	}
	return len ? -EFAULT : 0;
}

/*
 * A message of one packet goes out as a clone of the skb sendmsg copied
 * it into (udpcp_alloc_msg() left room in front): nothing is allocated or
 * copied but the clone.  The message's headroom is released to its clones
 * (as TCP does), each taking the headers of its transmission there; so
 * only one clone at a time: while the last one is still below us (a
 * queue, the receiver's socket), NULL, and the packet is built.
 */
static struct sk_buff *udpcp_tx_clone(struct sk_buff *msg, u8 flags, u16 id)
{
	struct sk_buff *skb;

	if (skb_is_nonlinear(msg) ||
	    skb_headroom(msg) < UDPCP_HEADROOM + UDPCP_HDR_LEN)
		return NULL;
	if (!msg->nohdr) {
		if (skb_cloned(msg))
			return NULL;
		__skb_header_release(msg);
	} else if ((atomic_read(&skb_shinfo(msg)->dataref) &
		    SKB_DATAREF_MASK) != 1) {
		return NULL;
	}
	skb = skb_clone(msg, GFP_ATOMIC);
	if (skb)
		udpcp_hdr_build(skb_push(skb, UDPCP_HDR_LEN), UDPCP_TYPE_DATA,
				flags, 0, 1, 0, id, msg->len);
	return skb;
}

/* The header flags of the message in flight's data packets. */
static u8 udpcp_tx_flags(const struct udpcp_peer *peer)
{
	u8 flags = 0;

	switch (peer->tx_mode) {
	case UDPCP_NOACK:
		/* Deployed peers send S=1 with N=1. */
		flags = UDPCP_F_NOACK | UDPCP_F_SINGLE;
		break;
	case UDPCP_SINGLE_ACK:
		flags = UDPCP_F_SINGLE;
		break;
	}
	if (peer->tx_csum)
		flags |= UDPCP_F_CHECKSUM;
	return flags;
}

/*
 * Takes off @skb's frags from @nr_frags on, and their octets: pages that
 * udpcp_tx_burst() took a reference on, put back the same way.
 */
static void udpcp_tx_unlend(struct sk_buff *skb, unsigned int nr_frags)
{
	struct skb_shared_info *si = skb_shinfo(skb);
	const skb_frag_t *f;

	while (si->nr_frags > nr_frags) {
		f = &si->frags[--si->nr_frags];
		skb->len -= skb_frag_size(f);
		skb->data_len -= skb_frag_size(f);
		skb->truesize -= skb_frag_size(f);
		put_page(skb_frag_page(f));
	}
}

/*
 * Fragments @num on, at most @count of them, as one UDP GSO packet: the
 * stack routes and queues them once, and the device or validate_xmit()
 * cuts them at every gso_size boundary.  Each datagram's UDPCP header
 * sits at its boundary: the first in the linear part, the others in a
 * page of headers; the payload is the message's pages, lent.  Only full
 * fragments but the message's last, so that every boundary is one.
 * Returns how many fragments went into *@burst (0: none, send them one
 * by one).
 */
static unsigned int udpcp_tx_burst(struct udpcp_peer *peer, unsigned int num,
				   unsigned int count, struct sk_buff **burst)
{
	struct sk_buff *msg = peer->tx_msg;
	unsigned int pay = peer->tx_frag_payload;
	unsigned int i, off, len, nr_frags;
	u8 flags = udpcp_tx_flags(peer);
	struct udpcp_hdr *h;
	struct sk_buff *skb;
	struct page *hdrs;

	lockdep_assert_held(&peer->usk->lock);
	count = min_t(unsigned int, count, PAGE_SIZE / UDPCP_HDR_LEN);
	hdrs = alloc_page(GFP_ATOMIC);
	if (!hdrs)
		return 0;
	skb = udpcp_udp_alloc(UDPCP_HDR_LEN);
	if (!skb) {
		put_page(hdrs);
		return 0;
	}
	skb->truesize += PAGE_SIZE;
	for (i = 0; i < count; i++) {
		off = (num + i) * pay;
		len = min_t(unsigned int, msg->len - off, pay);
		nr_frags = skb_shinfo(skb)->nr_frags;
		if (!i) {
			h = skb_put(skb, UDPCP_HDR_LEN);
		} else {
			if (nr_frags == MAX_SKB_FRAGS)
				break;
			h = page_address(hdrs) + i * UDPCP_HDR_LEN;
			get_page(hdrs);
			skb_fill_page_desc(skb, nr_frags, hdrs,
					   i * UDPCP_HDR_LEN, UDPCP_HDR_LEN);
			skb->len += UDPCP_HDR_LEN;
			skb->data_len += UDPCP_HDR_LEN;
			skb->truesize += UDPCP_HDR_LEN;
		}
		/* Out of frags: this fragment goes in the next burst. */
		if (udpcp_tx_lend(skb, msg, off, len)) {
			udpcp_tx_unlend(skb, nr_frags);
			break;
		}
		udpcp_hdr_build(h, UDPCP_TYPE_DATA, flags, 0, peer->tx_frags,
				num + i, peer->tx_id, msg->len);
		if (flags & UDPCP_F_CHECKSUM)
			udpcp_csum_set_part(h, msg, off, len);
	}
	put_page(hdrs);
	if (i < 2) {
		kfree_skb(skb);
		return 0;
	}
	skb_shinfo(skb)->gso_type = SKB_GSO_UDP_L4;
	skb_shinfo(skb)->gso_size = UDPCP_HDR_LEN + pay;
	skb_shinfo(skb)->gso_segs = i;
	*burst = skb;
	return i;
}

static void udpcp_tx_frag(struct udpcp_peer *peer, unsigned int num,
			  struct sk_buff_head *xmitq)
{
	struct sk_buff *msg = peer->tx_msg;
	unsigned int off = num * peer->tx_frag_payload;
	unsigned int len = min_t(unsigned int, msg->len - off,
				 peer->tx_frag_payload);
	/* udpcp_alloc_msg() puts large messages wholly into pages. */
	bool lend = !skb_headlen(msg);
	u8 flags = udpcp_tx_flags(peer);
	struct sk_buff *skb;
	int err;

	lockdep_assert_held(&peer->usk->lock);
	skb = peer->tx_frags == 1 ? udpcp_tx_clone(msg, flags, peer->tx_id) :
				    NULL;
	if (!skb) {
		skb = udpcp_tx_build(UDPCP_TYPE_DATA, flags, 0, peer->tx_frags,
				     num, peer->tx_id, msg->len,
				     lend ? 0 : len);
		if (!skb)
			return;
		if (lend)
			err = udpcp_tx_lend(skb, msg, off, len);
		else
			err = skb_copy_bits(msg, off, skb_put(skb, len), len);
		if (err) {
			kfree_skb(skb);
			return;
		}
	}
	/* Charged to the sender until it leaves: sendmsg feels the backlog. */
	skb_set_owner_w(skb, &peer->usk->inet.sk);
	udpcp_tx_packet(peer, skb, xmitq);
}

static void udpcp_tx_done(struct udpcp_peer *peer, struct sk_buff *msg)
{
	struct udpcp_sock *usk = peer->usk;

	udpcp_sock_assert_locked(usk);
	usk->tx_pending--;
	if (msg)
		consume_skb(msg);
	udpcp_sock_wake_flush(usk);
}

/* Send what the window allows: all of it but in ack mode. */
static void udpcp_tx_fill(struct udpcp_peer *peer, struct sk_buff_head *xmitq)
{
	unsigned int window = peer->tx_frags;
	struct udpcp_params p;

	lockdep_assert_held(&peer->usk->lock);
	if (peer->tx_mode == UDPCP_ACK) {
		udpcp_peer_params(peer, &p);
		window = p.outstanding_acks;
	}
	while (peer->tx_next < peer->tx_frags &&
	       peer->tx_next - peer->tx_base < window) {
		unsigned int room = min_t(unsigned int,
					  peer->tx_frags - peer->tx_next,
					  window - (peer->tx_next - peer->tx_base));
		struct sk_buff *burst;
		unsigned int n = 0;

		/* Paged messages only: their pages are lent to the burst. */
		if (room > 1 && !skb_headlen(peer->tx_msg))
			n = udpcp_tx_burst(peer, peer->tx_next, room, &burst);
		if (!n) {
			trace_udpcp_frag_send(peer, peer->tx_id, peer->tx_next,
					      peer->tx_frags, peer->tx_tries);
			udpcp_tx_frag(peer, peer->tx_next++, xmitq);
			continue;
		}
		while (n--)
			trace_udpcp_frag_send(peer, peer->tx_id,
					      peer->tx_next++, peer->tx_frags,
					      peer->tx_tries);
		/* Each datagram was summed as the burst was built. */
		skb_set_owner_w(burst, &peer->usk->inet.sk);
		udpcp_tx_route(peer, burst, xmitq);
	}
}

static void udpcp_rtt_sample(u32 *srtt, u32 sample)
{
	/* RFC 6298's alpha = 1/8; the first sample is taken as is. */
	*srtt = *srtt ? *srtt - (*srtt >> 3) + (sample >> 3) : sample;
}

static void udpcp_tx_complete(struct udpcp_peer *peer)
{
	struct udpcp_sock *usk = peer->usk;
	struct sk_buff *msg = peer->tx_msg;

	lockdep_assert_held(&peer->usk->lock);
	if (!peer->tx_retried) {
		u32 rtt = ktime_us_delta(ktime_get(), peer->tx_start);

		udpcp_rtt_sample(&peer->srtt_us, rtt);
		udpcp_rtt_sample(&usk->srtt_us, rtt);
	}
	trace_udpcp_msg_acked(peer, peer->tx_id, msg->len, peer->tx_tries, 0);
	udpcp_peer_count(peer, UDPCP_MIB_TX_MSGS, 1);
	udpcp_peer_count(peer, UDPCP_MIB_TX_BYTES, msg->len);
	peer->tx_msg = NULL;
	peer->tx_state = UDPCP_TX_IDLE;
	peer->tx_deadline = 0;
	udpcp_tx_done(peer, msg);
}

static void udpcp_peer_to_addr(const struct udpcp_peer *peer,
			       struct udpcp_addr *to)
{
	memset(to, 0, sizeof(*to));
	to->addr = peer->key.addr;
	to->port = peer->key.port;
	to->ifindex = peer->ifindex;
}

/* The message failed: tell the application and resync before the next. */
static void udpcp_tx_fail(struct udpcp_peer *peer, struct sk_buff *msg,
			  u16 id, int err)
{
	struct udpcp_addr to;

	lockdep_assert_held(&peer->usk->lock);
	trace_udpcp_msg_fail(peer, id, msg->len, peer->tx_tries, err);
	udpcp_peer_to_addr(peer, &to);
	udpcp_tx_fail_report(peer->usk, &to, id, msg->len, err);
	udpcp_peer_count(peer, UDPCP_MIB_TX_TIMEOUT, 1);
	if (!(peer->flags & UDPCP_PEER_F_GROUP))
		peer->flags |= UDPCP_PEER_F_NEED_SYNC;
	udpcp_notify_peer(peer, UDPCP_CMD_MSG_FAILED_NTF, id, GFP_ATOMIC);
	udpcp_tx_done(peer, msg);
}

static void udpcp_tx_start(struct udpcp_peer *peer, struct sk_buff *msg,
			   struct sk_buff_head *xmitq)
{
	unsigned int payload = udpcp_udp_mtu_payload(peer);

	lockdep_assert_held(&peer->usk->lock);
	if (!payload)
		payload = UDPCP_FALLBACK_PAYLOAD;
	peer->tx_id = peer->next_id;
	peer->next_id = udpcp_next_id(peer->next_id);
	peer->tx_frags = max_t(unsigned int, 1, DIV_ROUND_UP(msg->len, payload));
	if (DIV_ROUND_UP(msg->len, payload) > UDPCP_MAX_FRAGS) {
		/* The path MTU is too small for this message. */
		peer->tx_tries = 0;	/* never sent */
		udpcp_tx_fail(peer, msg, peer->tx_id, EMSGSIZE);
		return;
	}
	peer->tx_frag_payload = payload;
	peer->tx_msg = msg;
	peer->tx_base = 0;
	peer->tx_next = 0;
	peer->tx_tries = 1;
	peer->tx_retried = false;
	peer->tx_icmp_err = 0;
	peer->tx_start = ktime_get();
	bitmap_zero(UDPCP_TX_CB(msg)->acked, UDPCP_MAX_FRAGS + 1);

	udpcp_tx_fill(peer, xmitq);
	if (peer->tx_mode == UDPCP_NOACK) {
		udpcp_peer_count(peer, UDPCP_MIB_TX_MSGS, 1);
		udpcp_peer_count(peer, UDPCP_MIB_TX_BYTES, msg->len);
		peer->tx_msg = NULL;
		udpcp_tx_done(peer, msg);
		return;
	}
	peer->tx_state = UDPCP_TX_SENDING;
	peer->tx_deadline = udpcp_tx_deadline(peer);
}

/* What a message is sent as: its own cmsg settings, else the peer's. */
static void udpcp_tx_resolve(const struct udpcp_peer *peer,
			     const struct udpcp_tx_cb *cb, u8 *mode, u8 *csum)
{
	struct udpcp_params p;

	udpcp_peer_params(peer, &p);
	*mode = cb->mode == UDPCP_TX_DEFAULT ? p.transfer_mode : cb->mode;
	*csum = cb->csum == UDPCP_TX_DEFAULT ? p.checksum : cb->csum;
	/* A group is never acked: no-ack whatever was asked. */
	if (peer->flags & UDPCP_PEER_F_GROUP)
		*mode = UDPCP_NOACK;
}

/* Start the next queued message, with a sync first where one is owed. */
static void udpcp_tx_next(struct udpcp_peer *peer, struct sk_buff_head *xmitq)
{
	struct sk_buff *msg;

	lockdep_assert_held(&peer->usk->lock);

	while (peer->tx_state == UDPCP_TX_IDLE &&
	       (msg = skb_peek(&peer->txq)) != NULL) {
		udpcp_tx_resolve(peer, UDPCP_TX_CB(msg), &peer->tx_mode,
				 &peer->tx_csum);
		/*
		 * Every mode, no-ack included: a receiver that still holds
		 * this sender's last ID from before it restarted would take
		 * the restarted IDs for duplicates.  Groups never need one.
		 */
		if (peer->flags & UDPCP_PEER_F_NEED_SYNC) {
			peer->tx_state = UDPCP_TX_SYNC;
			peer->tx_tries = 1;
			peer->tx_icmp_err = 0;
			peer->tx_start = ktime_get();
			peer->tx_deadline = udpcp_tx_deadline(peer);
			udpcp_tx_sync(peer, xmitq);
			break;
		}
		__skb_unlink(msg, &peer->txq);
		udpcp_tx_start(peer, msg, xmitq);
	}
	udpcp_peer_timer_update(peer);
}

/*
 * The fast path: a no-ack message for one packet, with nothing queued to
 * the peer before it and no sync owed, goes out as the very skb sendmsg
 * copied it into (udpcp_alloc_msg() left room for the headers); no
 * fragment is built and no state is kept.  False, with @msg untouched:
 * take the queue.
 */
bool udpcp_tx_single(struct udpcp_peer *peer, struct sk_buff *msg,
		     struct sk_buff_head *xmitq)
{
	struct udpcp_tx_cb cb = *UDPCP_TX_CB(msg);
	u8 flags = UDPCP_F_NOACK | UDPCP_F_SINGLE;
	unsigned int len = msg->len;
	u8 mode, csum;
	u16 id;

	lockdep_assert_held(&peer->usk->lock);
	if (peer->tx_state != UDPCP_TX_IDLE || !skb_queue_empty(&peer->txq) ||
	    (peer->flags & UDPCP_PEER_F_NEED_SYNC) || skb_is_nonlinear(msg) ||
	    skb_headroom(msg) < UDPCP_HEADROOM + UDPCP_HDR_LEN)
		return false;
	udpcp_tx_resolve(peer, &cb, &mode, &csum);
	if (mode != UDPCP_NOACK)
		return false;

	/* The route fills the cb: put back what sendmsg decided. */
	if (udpcp_udp_route(peer, msg))
		goto slow;
	if (len > udpcp_udp_skb_payload(msg)) {
		skb_dst_drop(msg);
		goto slow;
	}
	id = peer->next_id;
	peer->next_id = udpcp_next_id(id);
	if (csum)
		flags |= UDPCP_F_CHECKSUM;
	udpcp_hdr_build(skb_push(msg, UDPCP_HDR_LEN), UDPCP_TYPE_DATA, flags, 0,
			1, 0, id, len);
	if (csum)
		udpcp_csum_set(msg);
	trace_udpcp_msg_queue(peer, id, len, mode, 0);
	trace_udpcp_frag_send(peer, id, 0, 1, 1);
	udpcp_peer_count(peer, UDPCP_MIB_TX_MSGS, 1);
	udpcp_peer_count(peer, UDPCP_MIB_TX_BYTES, len);
	udpcp_peer_touch(peer);
	__skb_queue_tail(xmitq, msg);
	return true;

slow:
	*UDPCP_TX_CB(msg) = cb;
	return false;
}

/*
 * The ID a message queued behind @ahead others will go out as: each takes
 * the next one when it starts, or fails waiting for a sync.
 */
static u16 udpcp_tx_queued_id(const struct udpcp_peer *peer, u32 ahead)
{
	return (peer->next_id - 1 + ahead) % UDPCP_MAX_ID + 1;
}

void udpcp_tx_queue(struct udpcp_sock *usk, struct udpcp_peer *peer,
		    struct sk_buff *msg, struct sk_buff_head *xmitq)
{
	udpcp_sock_assert_locked(usk);
	trace_udpcp_msg_queue(peer, udpcp_tx_queued_id(peer, peer->txq.qlen),
			      msg->len, UDPCP_TX_CB(msg)->mode,
			      peer->txq.qlen + 1);
	__skb_queue_tail(&peer->txq, msg);
	usk->tx_pending++;
	udpcp_peer_touch(peer);
	udpcp_tx_next(peer, xmitq);
}

void udpcp_tx_ack(struct udpcp_peer *peer, const struct udpcp_hdr *h,
		  struct sk_buff_head *xmitq)
{
	u16 id = ntohs(h->msg_id);
	unsigned int num = h->frag_num;
	unsigned long *acked;

	lockdep_assert_held(&peer->usk->lock);
	trace_udpcp_ack_recv(peer, id, num, h->flags2 & UDPCP_F_DUP);
	switch (peer->tx_state) {
	case UDPCP_TX_SYNC:
		if (id != UDPCP_SYNC_ID)
			return;
		peer->flags &= ~UDPCP_PEER_F_NEED_SYNC;
		peer->tx_state = UDPCP_TX_IDLE;
		peer->tx_deadline = 0;
		udpcp_notify_peer(peer, UDPCP_CMD_PEER_RESYNC_NTF, 0, GFP_ATOMIC);
		break;
	case UDPCP_TX_SENDING:
		if (id != peer->tx_id)
			return;
		/* Single-ack: deployed receivers echo fragment 0, not the last. */
		if (peer->tx_mode == UDPCP_SINGLE_ACK) {
			udpcp_tx_complete(peer);
			break;
		}
		acked = UDPCP_TX_CB(peer->tx_msg)->acked;
		if (num >= peer->tx_next || test_and_set_bit(num, acked))
			return;
		if (num != peer->tx_base)
			return;
		while (peer->tx_base < peer->tx_next &&
		       test_bit(peer->tx_base, acked))
			peer->tx_base++;
		if (peer->tx_base == peer->tx_frags) {
			udpcp_tx_complete(peer);
			break;
		}
		/* Progress: the oldest packet in flight gets a fresh timer. */
		peer->tx_tries = 1;
		peer->tx_deadline = udpcp_tx_deadline(peer);
		udpcp_tx_fill(peer, xmitq);
		udpcp_peer_timer_update(peer);
		return;
	default:
		return;
	}
	udpcp_tx_next(peer, xmitq);
}

/*
 * The path MTU fell below the message's fragments (an ICMP "fragmentation
 * needed" or "packet too big" lowered the route's MTU): as they are they
 * never arrive, so the message starts again under a new ID, cut to the
 * new size -- a fragment's amount and number cannot change under one ID.
 * The receiver drops the old partial message when the new ID starts.
 * Each restart needs a smaller MTU, so this ends.
 */
static bool udpcp_tx_pmtu_restart(struct udpcp_peer *peer,
				  struct sk_buff_head *xmitq)
{
	unsigned int payload = udpcp_udp_mtu_payload(peer);
	struct sk_buff *msg = peer->tx_msg;

	lockdep_assert_held(&peer->usk->lock);
	if (!payload ||
	    min_t(unsigned int, msg->len, peer->tx_frag_payload) <= payload)
		return false;
	udpcp_peer_count(peer, UDPCP_MIB_TX_RETRIES, 1);
	udpcp_peer_count(peer, UDPCP_MIB_PMTU_RESTARTS, 1);
	peer->tx_msg = NULL;
	peer->tx_state = UDPCP_TX_IDLE;
	udpcp_tx_start(peer, msg, xmitq);
	/* Too many fragments now: it failed, and the next one goes. */
	if (peer->tx_state == UDPCP_TX_IDLE)
		udpcp_tx_next(peer, xmitq);
	return true;
}

/*
 * Why the sync or message in flight failed after max_tries: the last ICMP
 * error about it (icmp.c), as UDP with IP_RECVERR reports one, else
 * silence.
 */
static int udpcp_tx_cause(const struct udpcp_peer *peer)
{
	return peer->tx_icmp_err ? peer->tx_icmp_err : ETIMEDOUT;
}

void udpcp_tx_timeout(struct udpcp_peer *peer, struct sk_buff_head *xmitq)
{
	struct udpcp_params p;
	struct sk_buff *msg;
	unsigned int i;

	lockdep_assert_held(&peer->usk->lock);
	peer->tx_deadline = 0;
	udpcp_peer_params(peer, &p);
	switch (peer->tx_state) {
	case UDPCP_TX_SYNC:
		if (peer->tx_tries < p.max_tries) {
			peer->tx_tries++;
			udpcp_peer_count(peer, UDPCP_MIB_TX_RETRIES, 1);
			peer->tx_deadline = udpcp_tx_deadline(peer);
			udpcp_tx_sync(peer, xmitq);
			return;
		}
		/* The message waiting for the sync fails in its place. */
		peer->tx_state = UDPCP_TX_IDLE;
		msg = __skb_dequeue(&peer->txq);
		if (msg) {
			u16 id = peer->next_id;

			peer->next_id = udpcp_next_id(id);
			udpcp_tx_fail(peer, msg, id, udpcp_tx_cause(peer));
		}
		break;
	case UDPCP_TX_SENDING:
		if (udpcp_tx_pmtu_restart(peer, xmitq))
			return;
		if (peer->tx_tries < p.max_tries) {
			peer->tx_tries++;
			peer->tx_retried = true;
			for (i = peer->tx_base; i < peer->tx_next; i++) {
				if (test_bit(i, UDPCP_TX_CB(peer->tx_msg)->acked))
					continue;
				udpcp_peer_count(peer, UDPCP_MIB_TX_RETRIES, 1);
				trace_udpcp_frag_retransmit(peer, peer->tx_id,
							    i, peer->tx_frags,
							    peer->tx_tries);
				udpcp_tx_frag(peer, i, xmitq);
			}
			peer->tx_deadline = udpcp_tx_deadline(peer);
			return;
		}
		msg = peer->tx_msg;
		peer->tx_msg = NULL;
		peer->tx_state = UDPCP_TX_IDLE;
		udpcp_tx_fail(peer, msg, peer->tx_id, udpcp_tx_cause(peer));
		break;
	default:
		return;
	}
	udpcp_tx_next(peer, xmitq);
}

/* The peer goes away with the socket: what is unsent is dropped. */
void udpcp_tx_purge(struct udpcp_peer *peer)
{
	struct sk_buff *msg;

	lockdep_assert_held(&peer->usk->lock);
	if (peer->tx_msg) {
		udpcp_tx_done(peer, peer->tx_msg);
		peer->tx_msg = NULL;
	}
	while ((msg = __skb_dequeue(&peer->txq)) != NULL)
		udpcp_tx_done(peer, msg);
	peer->tx_state = UDPCP_TX_IDLE;
	peer->tx_deadline = 0;
}

/*
 * Queue a sock_extended_err for a failed message on the error queue, in
 * the form ip_recv_error()/ipv6_recv_error() read: a network header whose
 * destination address field holds the message's destination.
 */
void udpcp_tx_fail_report(struct udpcp_sock *usk, const struct udpcp_addr *to,
			  u16 id, unsigned int len, int err)
{
	struct sock *sk = &usk->inet.sk;
	struct sock_exterr_skb *serr;
	struct sk_buff *skb;
	u8 *daddr;

	skb = alloc_skb(sizeof(struct ipv6hdr), GFP_ATOMIC);
	if (!skb)
		return;
	skb_reset_network_header(skb);
	serr = SKB_EXT_ERR(skb);
	memset(serr, 0, sizeof(*serr));
	if (udpcp_addr_is_v4(to)) {
		struct iphdr *iph = skb_put_zero(skb, sizeof(*iph));

		iph->version = 4;
		iph->daddr = udpcp_addr_v4(to);
		daddr = (u8 *)&iph->daddr;
		skb->protocol = htons(ETH_P_IP);
	} else {
		struct ipv6hdr *ip6h = skb_put_zero(skb, sizeof(*ip6h));

		ip6h->version = 6;
		ip6h->daddr = to->addr;
		daddr = (u8 *)&ip6h->daddr;
		skb->protocol = htons(ETH_P_IPV6);
		serr->header.h6.iif = to->ifindex;
	}
	serr->ee.ee_errno = err;
	serr->ee.ee_origin = SO_EE_ORIGIN_LOCAL;
	serr->ee.ee_info = id;
	serr->ee.ee_data = len;
	serr->addr_offset = daddr - skb_network_header(skb);
	serr->port = to->port;
	/* No payload: the message itself is not returned. */
	__skb_pull(skb, skb->len);
	skb_reset_transport_header(skb);
	if (sock_queue_err_skb(sk, skb))
		kfree_skb(skb);
}
