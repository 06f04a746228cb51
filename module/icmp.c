// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP: ICMP errors about the packets we sent.
 *
 * The kernel UDP socket under a UDPCP socket is an encapsulation socket,
 * so UDP hands ICMP errors to its encap_err_rcv hook and never to the
 * error queue, whatever IP_RECVERR says (see compat.h).  An error names the
 * packet it answers in its quoted headers: the destination address and port
 * find the peer, the UDPCP header the message.  Only an error about the
 * sync or message in flight to that peer counts; anything else may be
 * forged and is ignored.
 *
 * An error does not end the message: the receiver's process may be
 * restarting and listen again before max_tries runs out.  It is counted,
 * and if the message fails, its errno is reported instead of ETIMEDOUT.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>

#include "udpcp.h"

/* Is @h the sync or a packet of the message in flight? */
static bool udpcp_icmp_in_flight(const struct udpcp_peer *peer,
				 const struct udpcp_hdr *h)
{
	u16 id = ntohs(h->msg_id);

	lockdep_assert_held(&peer->usk->lock);

	if (udpcp_hdr_type(h) != UDPCP_TYPE_DATA)
		return false;
	switch (peer->tx_state) {
	case UDPCP_TX_SYNC:
		return id == UDPCP_SYNC_ID;
	case UDPCP_TX_SENDING:
		return id == peer->tx_id && h->frag_amount == peer->tx_frags &&
		       h->frag_num < peer->tx_next;
	default:
		return false;
	}
}

void udpcp_icmp_rcv(struct sock *sk, struct sk_buff *skb, int err,
		    unsigned int udp_offset)
{
	struct udpcp_hdr _h;
	const struct udpcp_hdr *h;
	struct udphdr _uh;
	const struct udphdr *uh;
	struct udpcp_sock *usk;
	struct udpcp_peer *peer;
	struct udpcp_addr to;

	/*
	 * Fragmentation needed / packet too big: UDP already lowered the
	 * route's MTU, and the message is not refused, only too big.
	 */
	if (err == EMSGSIZE || err <= 0 || err > U8_MAX)
		return;
	uh = skb_header_pointer(skb, udp_offset, sizeof(_uh), &_uh);
	h = skb_header_pointer(skb, udp_offset + sizeof(_uh), sizeof(_h), &_h);
	if (!uh || !h)
		return;		/* too little quoted to name a message */

	memset(&to, 0, sizeof(to));
	to.port = uh->dest;
	if (((const struct iphdr *)skb->data)->version == 4)
		ipv6_addr_set_v4mapped(((const struct iphdr *)skb->data)->daddr,
				       &to.addr);
	else
		to.addr = ((const struct ipv6hdr *)skb->data)->daddr;

	rcu_read_lock();
	usk = rcu_dereference_sk_user_data(sk);
	if (!usk)
		goto out;
	peer = udpcp_peer_lookup(usk, &to);
	if (!peer)
		goto out;
	spin_lock_bh(&usk->lock);
	if (!(peer->flags & (UDPCP_PEER_F_DEAD | UDPCP_PEER_F_GROUP)) &&
	    udpcp_icmp_in_flight(peer, h)) {
		peer->tx_icmp_err = err;
		udpcp_peer_count(peer, UDPCP_MIB_ICMP_ERRORS, 1);
		peer->icmp_last_err = err;
		peer->icmp_last = jiffies;
	}
	spin_unlock_bh(&usk->lock);
out:
	rcu_read_unlock();
}
