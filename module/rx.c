// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP: the receiver.  Runs in the UDP receive path (softirq): checks,
 * reassembles, delivers whole messages to the socket and sends the acks
 * itself, so no process needs to wake up for the protocol to progress.
 */
#include <linux/udp.h>
#include <net/ip.h>
#include <net/udp.h>

#include "udpcp.h"

/* The packet as parsed, before any state is touched. */
struct udpcp_rx_pkt {
	struct udpcp_hdr	h;
	unsigned int		payload;	/* octets after the header */
	u16			id;
	u8			mode;
};

static void udpcp_rx_ack(struct udpcp_peer *peer, const struct udpcp_hdr *h,
			 u8 num, bool dup, struct sk_buff_head *xmitq)
{
	bool csum = h->flags & UDPCP_F_CHECKSUM;
	struct sk_buff *skb;

	skb = udpcp_udp_alloc(UDPCP_HDR_LEN);
	if (!skb)
		return;
	udpcp_hdr_build(skb_put(skb, UDPCP_HDR_LEN), UDPCP_TYPE_ACK,
			UDPCP_F_NOACK | UDPCP_F_SINGLE |
			(csum ? UDPCP_F_CHECKSUM : 0),
			dup ? UDPCP_F_DUP : 0, h->frag_amount, num,
			ntohs(h->msg_id), 0);
	if (csum)
		udpcp_csum_set(skb);
	if (udpcp_udp_route(peer, skb)) {
		kfree_skb(skb);
		return;
	}
	__skb_queue_tail(xmitq, skb);
}

/* Drop the partial message; its fragments count as discarded. */
static void udpcp_rx_drop_partial(struct udpcp_peer *peer)
{
	struct sk_buff *skb = peer->rx_head, *next;

	peer->stats.rx_discarded_frags += peer->rx_count;
	while (skb) {
		next = skb->next;
		skb_mark_not_on_list(skb);
		kfree_skb(skb);
		skb = next;
	}
	peer->usk->rx_partial_mem -= peer->rx_truesize;
	list_del_init(&peer->rx_partial_node);
	peer->rx_head = NULL;
	peer->rx_tail = NULL;
	peer->rx_count = 0;
	peer->rx_truesize = 0;
	peer->rx_deadline = 0;
}

void udpcp_rx_purge(struct udpcp_peer *peer)
{
	if (peer->rx_head)
		udpcp_rx_drop_partial(peer);
}

/*
 * The partial message expired.  Its ID is remembered as dead: fragments
 * of it that the sender still retransmits must not start a new partial
 * and be acknowledged, or the sender would believe the message delivered.
 */
void udpcp_rx_timeout(struct udpcp_peer *peer)
{
	peer->rx_deadline = 0;
	if (!peer->rx_head)
		return;
	peer->stats.rx_timeout++;
	peer->rx_dead_id = peer->rx_id;
	peer->flags |= UDPCP_PEER_F_RX_DEAD;
	udpcp_rx_drop_partial(peer);
}

/* Fragments are kept sorted by number; they usually arrive in order. */
static void udpcp_rx_store(struct udpcp_peer *peer, struct sk_buff *skb)
{
	u8 num = UDPCP_RX_CB(skb)->frag_num;
	struct sk_buff **pos = &peer->rx_head;

	if (!peer->rx_tail || UDPCP_RX_CB(peer->rx_tail)->frag_num < num) {
		pos = peer->rx_tail ? &peer->rx_tail->next : &peer->rx_head;
		peer->rx_tail = skb;
	} else {
		while (*pos && UDPCP_RX_CB(*pos)->frag_num < num)
			pos = &(*pos)->next;
	}
	if (!peer->rx_head) {
		struct udpcp_params p;

		/* The rx timeout runs from the first fragment stored. */
		udpcp_peer_params(peer, &p);
		peer->rx_deadline = ktime_add_ms(ktime_get(), p.rx_timeout_ms);
		list_add_tail(&peer->rx_partial_node, &peer->usk->rx_partials);
	}
	skb->next = *pos;
	*pos = skb;
	__set_bit(num, peer->rx_have);
	peer->rx_count++;
	peer->rx_bytes += skb->len;
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
	struct udpcp_peer *victim, *tmp;

	if (peer->rx_truesize + truesize > limit / 2)
		return usk->rx_partial_mem + truesize <= limit;
	list_for_each_entry_safe(victim, tmp, &usk->rx_partials,
				 rx_partial_node) {
		if (usk->rx_partial_mem + truesize <= limit)
			break;
		if (victim == peer)
			continue;
		victim->rx_dead_id = victim->rx_id;
		victim->flags |= UDPCP_PEER_F_RX_DEAD;
		udpcp_rx_drop_partial(victim);
	}
	return usk->rx_partial_mem + truesize <= limit;
}

/* Chain the fragments behind the first, as one message skb. */
static struct sk_buff *udpcp_rx_assemble(struct udpcp_peer *peer)
{
	struct sk_buff *head = peer->rx_head, *frag;

	peer->usk->rx_partial_mem -= peer->rx_truesize;
	list_del_init(&peer->rx_partial_node);
	peer->rx_head = NULL;
	peer->rx_tail = NULL;
	peer->rx_count = 0;
	peer->rx_truesize = 0;
	peer->rx_deadline = 0;

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

/* Room in the receive queue, judged before anything is acknowledged. */
static bool udpcp_rx_room(struct sock *sk, unsigned int truesize)
{
	return atomic_read(&sk->sk_rmem_alloc) + truesize <=
	       (unsigned int)READ_ONCE(sk->sk_rcvbuf);
}

static void udpcp_rx_deliver(struct udpcp_peer *peer,
			     const struct udpcp_rx_pkt *pkt,
			     struct sk_buff *last, struct sk_buff_head *xmitq)
{
	struct udpcp_sock *usk = peer->usk;
	struct sock *sk = &usk->inet.sk;
	struct udpcp_rx_cb cb = *UDPCP_RX_CB(last);
	struct sk_buff *msg;
	unsigned int len;

	if (!udpcp_rx_room(sk, peer->rx_truesize + last->truesize)) {
		/*
		 * Not acknowledged: the retransmission brings it back.  The
		 * fragments stored so far wait for it: a sender that still
		 * retransmits is alive, so the rx timeout starts again, or a
		 * reader slower than the rx timeout would make the sender's
		 * message fail although every fragment got here.
		 */
		peer->stats.rx_dropped++;
		kfree_skb(last);
		if (peer->rx_head) {
			struct udpcp_params p;

			udpcp_peer_params(peer, &p);
			peer->rx_deadline = ktime_add_ms(ktime_get(), p.rx_timeout_ms);
		}
		return;
	}
	if (peer->rx_head) {
		udpcp_rx_store(peer, last);
		msg = udpcp_rx_assemble(peer);
	} else {
		msg = last;	/* a message of one packet: nothing to chain */
	}
	len = msg->len;
	*UDPCP_RX_CB(msg) = cb;
	if (__sock_queue_rcv_skb(sk, msg) < 0) {
		/* Out of socket memory after all: make the sender fail. */
		kfree_skb(msg);
		peer->stats.rx_dropped++;
		peer->rx_dead_id = pkt->id;
		peer->flags |= UDPCP_PEER_F_RX_DEAD;
		return;
	}
	peer->stats.rx_msgs++;
	peer->stats.rx_bytes += len;
	peer->rx_last_id = pkt->id;
	peer->flags |= UDPCP_PEER_F_RX_VALID;
	peer->flags &= ~UDPCP_PEER_F_RX_DEAD;
	if (pkt->mode == UDPCP_ACK)
		udpcp_rx_ack(peer, &pkt->h, pkt->h.frag_num, false, xmitq);
	else if (pkt->mode == UDPCP_SINGLE_ACK)
		udpcp_rx_ack(peer, &pkt->h, pkt->h.frag_amount - 1, false, xmitq);
}

static bool udpcp_rx_is_dup(const struct udpcp_peer *peer, u16 id)
{
	unsigned int behind;

	if (!(peer->flags & UDPCP_PEER_F_RX_VALID))
		return false;
	behind = (peer->rx_last_id + UDPCP_MAX_ID - id) % UDPCP_MAX_ID;
	return behind < UDPCP_RX_DUP_WINDOW;
}

static void udpcp_rx_sync(struct udpcp_peer *peer,
			  const struct udpcp_rx_pkt *pkt,
			  struct sk_buff_head *xmitq)
{
	udpcp_rx_purge(peer);
	peer->flags &= ~(UDPCP_PEER_F_RX_VALID | UDPCP_PEER_F_RX_DEAD);
	if (pkt->mode != UDPCP_NOACK)
		udpcp_rx_ack(peer, &pkt->h, 0, false, xmitq);
}

/* Under the socket lock.  Consumes @skb, whose data is the payload. */
static void udpcp_rx_data(struct udpcp_peer *peer,
			  const struct udpcp_rx_pkt *pkt, struct sk_buff *skb,
			  struct sk_buff_head *xmitq)
{
	const struct udpcp_hdr *h = &pkt->h;
	bool last;

	udpcp_peer_touch(peer);
	if (pkt->id == UDPCP_SYNC_ID) {
		udpcp_rx_sync(peer, pkt, xmitq);
		goto consume;
	}
	if (udpcp_rx_is_dup(peer, pkt->id)) {
		peer->stats.rx_duplicates++;
		last = h->frag_num == h->frag_amount - 1;
		if (pkt->mode == UDPCP_ACK ||
		    (pkt->mode == UDPCP_SINGLE_ACK && last))
			udpcp_rx_ack(peer, h, h->frag_num, true, xmitq);
		goto consume;
	}
	if ((peer->flags & UDPCP_PEER_F_RX_DEAD) && pkt->id == peer->rx_dead_id) {
		peer->stats.rx_discarded_frags++;
		goto drop;
	}
	peer->flags &= ~UDPCP_PEER_F_RX_DEAD;

	if (peer->rx_head && pkt->id != peer->rx_id)
		udpcp_rx_drop_partial(peer);
	if (!peer->rx_head) {
		peer->rx_id = pkt->id;
		peer->rx_amount = h->frag_amount;
		peer->rx_len = ntohs(h->msg_len);
		peer->rx_bytes = 0;
		bitmap_zero(peer->rx_have, UDPCP_MAX_FRAGS + 1);
	} else if (h->frag_amount != peer->rx_amount ||
		   ntohs(h->msg_len) != peer->rx_len) {
		peer->stats.rx_malformed++;
		goto drop;
	}

	if (test_bit(h->frag_num, peer->rx_have)) {
		/* A retransmission whose ack was lost: ack again. */
		if (pkt->mode == UDPCP_ACK)
			udpcp_rx_ack(peer, h, h->frag_num, false, xmitq);
		goto consume;
	}

	last = peer->rx_count + 1 == peer->rx_amount;
	if (peer->rx_bytes + skb->len > peer->rx_len ||
	    (last && peer->rx_bytes + skb->len != peer->rx_len)) {
		/* The fragments do not add up to the message length. */
		peer->stats.rx_malformed++;
		udpcp_rx_drop_partial(peer);
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

	if (last) {
		udpcp_rx_deliver(peer, pkt, skb, xmitq);
		goto out;
	}
	if (!udpcp_rx_make_room(peer, skb->truesize))
		goto drop_mem;
	udpcp_rx_store(peer, skb);
	if (pkt->mode == UDPCP_ACK)
		udpcp_rx_ack(peer, h, h->frag_num, false, xmitq);
out:
	udpcp_peer_timer_update(peer);
	return;

drop_mem:
	kfree_skb(skb);
drop_mem_nofree:
	peer->stats.rx_dropped++;
	goto out;
consume:
	consume_skb(skb);
	return;
drop:
	kfree_skb(skb);
}

/* Header checks that need no state. */
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
	struct udpcp_rx_pkt pkt;
	struct udpcp_peer *peer;
	struct sk_buff_head xmitq;
	struct udpcp_addr from;
	struct udpcp_rx_cb cb;

	if (!usk)
		goto drop;
	__skb_queue_head_init(&xmitq);

	if (!udpcp_rx_parse(skb, &pkt)) {
		spin_lock(&usk->lock);
		usk->stats.rx_malformed++;
		spin_unlock(&usk->lock);
		goto drop;
	}
	udpcp_rx_source(skb, &from, &cb);

	if ((pkt.h.flags & UDPCP_F_CHECKSUM) &&
	    !udpcp_csum_ok(skb, sizeof(struct udphdr), &pkt.h)) {
		spin_lock(&usk->lock);
		usk->stats.crc_errors++;
		spin_unlock(&usk->lock);
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

	peer = udpcp_peer_get_or_create(usk, &from, GFP_ATOMIC);
	if (IS_ERR(peer)) {
		spin_lock(&usk->lock);
		usk->stats.rx_dropped++;
		spin_unlock(&usk->lock);
		goto drop;
	}

	if (!pskb_may_pull(skb, sizeof(struct udphdr) + UDPCP_HDR_LEN))
		goto drop;
	__skb_pull(skb, sizeof(struct udphdr) + UDPCP_HDR_LEN);
	*UDPCP_RX_CB(skb) = cb;
	UDPCP_RX_CB(skb)->frag_num = pkt.h.frag_num;

	spin_lock(&usk->lock);
	if (peer->flags & UDPCP_PEER_F_DEAD) {
		spin_unlock(&usk->lock);
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
	kfree_skb(skb);
	return 0;
}
