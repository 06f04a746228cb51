// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP: peers (per socket and remote endpoint), their timer, expiry, and
 * the per-namespace memory of message IDs used toward each destination.
 */
#include <linux/slab.h>
#include <linux/jhash.h>

#include "udpcp.h"
#include "trace.h"

static const struct rhashtable_params udpcp_peer_rht = {
	.head_offset = offsetof(struct udpcp_peer, node),
	.key_offset = offsetof(struct udpcp_peer, key),
	.key_len = sizeof(struct udpcp_peer_key),
	.automatic_shrinking = true,
};

/*
 * Deployed receivers keep their duplicate history across a sync, so the
 * next message ID toward a destination outlives the socket that used it.
 */
struct udpcp_hist_key {
	struct in6_addr	addr;
	__be16		port;
	__be16		local_port;
};

struct udpcp_hist {
	struct rhash_head	node;
	struct udpcp_hist_key	key;
	u16			next_id;
	struct rcu_head		rcu;
};

static const struct rhashtable_params udpcp_hist_rht = {
	.head_offset = offsetof(struct udpcp_hist, node),
	.key_offset = offsetof(struct udpcp_hist, key),
	.key_len = sizeof(struct udpcp_hist_key),
	.automatic_shrinking = true,
};

/* Peers have their own cache: kmalloc would round them up to 512 bytes. */
static struct kmem_cache *udpcp_peer_cache;

int udpcp_peer_cache_init(void)
{
	udpcp_peer_cache = KMEM_CACHE(udpcp_peer, 0);
	return udpcp_peer_cache ? 0 : -ENOMEM;
}

void udpcp_peer_cache_exit(void)
{
	rcu_barrier();	/* udpcp_peer_free_rcu() */
	kmem_cache_destroy(udpcp_peer_cache);
}

static void udpcp_peer_free_rcu(struct rcu_head *head)
{
	kmem_cache_free(udpcp_peer_cache, container_of(head, struct udpcp_peer, rcu));
}

void udpcp_peer_dst_reset(struct udpcp_peer *peer)
{
	udpcp_peer_assert_locked(peer);
	dst_release(peer->dst);
	peer->dst = NULL;
}

int udpcp_peers_net_init(struct udpcp_net *un)
{
	int err;

	err = rhashtable_init(&un->peers, &udpcp_peer_rht);
	if (err)
		return err;
	err = rhashtable_init(&un->history, &udpcp_hist_rht);
	if (err)
		rhashtable_destroy(&un->peers);
	return err;
}

static void udpcp_hist_free(void *ptr, void *arg)
{
	kfree(ptr);
}

void udpcp_peers_net_exit(struct udpcp_net *un)
{
	/* Every socket is closed: only the ID history is left. */
	rhashtable_destroy(&un->peers);
	rhashtable_free_and_destroy(&un->history, udpcp_hist_free, NULL);
}

static void udpcp_hist_key(const struct udpcp_peer *peer,
			   struct udpcp_hist_key *key)
{
	memset(key, 0, sizeof(*key));
	key->addr = peer->key.addr;
	key->port = peer->key.port;
	key->local_port = peer->usk->inet.inet_sport;
}

/* Take over the ID sequence a closed socket left toward this peer. */
static void udpcp_hist_take(struct udpcp_net *un, struct udpcp_peer *peer)
{
	struct udpcp_hist_key key;
	struct udpcp_hist *h;

	udpcp_peer_assert_locked(peer);
	udpcp_hist_key(peer, &key);
	h = rhashtable_lookup_fast(&un->history, &key, udpcp_hist_rht);
	if (!h)
		return;
	if (rhashtable_remove_fast(&un->history, &h->node, udpcp_hist_rht))
		return;
	peer->next_id = h->next_id;
	atomic_dec(&un->history_count);
	kfree_rcu(h, rcu);
}

static void udpcp_hist_save(struct udpcp_net *un, struct udpcp_peer *peer)
{
	struct udpcp_hist *h, *old;

	udpcp_peer_assert_locked(peer);
	if (peer->next_id == 1)
		return;
	if (atomic_inc_return(&un->history_count) > UDPCP_HISTORY_MAX)
		goto full;
	h = kzalloc(sizeof(*h), GFP_ATOMIC);
	if (!h)
		goto full;
	udpcp_hist_key(peer, &h->key);
	h->next_id = peer->next_id;
	old = rhashtable_lookup_get_insert_fast(&un->history, &h->node,
						udpcp_hist_rht);
	if (!old)
		return;
	/* Another socket on the same port got there first; newest wins. */
	if (!IS_ERR(old))
		old->next_id = h->next_id;
	kfree(h);
full:
	atomic_dec(&un->history_count);
}

/*
 * The peer is good for as long as the caller holds what it held for the
 * lookup: the state lock, or the RCU read lock (and then it may be dead).
 */
struct udpcp_peer *udpcp_peer_lookup(struct udpcp_sock *usk,
				     const struct udpcp_addr *ra)
{
	struct udpcp_net *un = udpcp_pernet(udpcp_sock_net(usk));
	struct udpcp_peer_key key;

	lockdep_assert(lockdep_is_held(&usk->lock) || rcu_read_lock_any_held());
	memset(&key, 0, sizeof(key));
	key.usk = usk;
	key.addr = ra->addr;
	key.port = ra->port;
	return rhashtable_lookup_fast(&un->peers, &key, udpcp_peer_rht);
}

/* Copy the fields of @own that @override marks onto @p. */
void udpcp_params_merge(struct udpcp_params *p, u32 override,
			const struct udpcp_params *own)
{
	if (override & BIT(UDPCP_P_TRANSFER_MODE))
		p->transfer_mode = own->transfer_mode;
	if (override & BIT(UDPCP_P_CHECKSUM))
		p->checksum = own->checksum;
	if (override & BIT(UDPCP_P_TX_TIMEOUT))
		p->tx_timeout_ms = own->tx_timeout_ms;
	if (override & BIT(UDPCP_P_RX_TIMEOUT))
		p->rx_timeout_ms = own->rx_timeout_ms;
	if (override & BIT(UDPCP_P_MAX_TRIES))
		p->max_tries = own->max_tries;
	if (override & BIT(UDPCP_P_OUTSTANDING_ACKS))
		p->outstanding_acks = own->outstanding_acks;
}

/* What applies to traffic with this peer: the socket's, then its own. */
void udpcp_peer_params(const struct udpcp_peer *peer, struct udpcp_params *p)
{
	udpcp_peer_assert_locked(peer);
	*p = peer->usk->params;
	udpcp_params_merge(p, peer->override, &peer->params);
}

void udpcp_peer_touch(struct udpcp_peer *peer)
{
	WRITE_ONCE(peer->last_active, jiffies);
}

/* Arms the timer for the earliest deadline. */
void udpcp_peer_timer_update(struct udpcp_peer *peer)
{
	ktime_t next = peer->tx_deadline;

	lockdep_assert_held(&peer->usk->lock);
	if (peer->flags & UDPCP_PEER_F_DEAD)
		return;
	if (peer->rx_deadline && (!next || peer->rx_deadline < next))
		next = peer->rx_deadline;
	if (!next) {
		/* Nothing is due: left armed, the timer would fire for nothing. */
		if (hrtimer_is_queued(&peer->timer))
			hrtimer_try_to_cancel(&peer->timer);
		return;
	}
	/*
	 * Armed to fire no later than @next: leave it, the handler re-arms
	 * for the real deadline.  Deadlines mostly move later (every new
	 * message, every ack), so a busy peer re-arms once per expiry rather
	 * than once per packet.
	 */
	if (hrtimer_is_queued(&peer->timer) &&
	    ktime_compare(hrtimer_get_expires(&peer->timer), next) <= 0)
		return;
	hrtimer_start(&peer->timer, next, HRTIMER_MODE_ABS_SOFT);
}

static enum hrtimer_restart udpcp_peer_timer(struct hrtimer *timer)
{
	struct udpcp_peer *peer = container_of(timer, struct udpcp_peer, timer);
	struct udpcp_sock *usk = peer->usk;
	struct sk_buff_head xmitq;
	ktime_t now = ktime_get();

	__skb_queue_head_init(&xmitq);
	spin_lock_bh(&usk->lock);
	if (!(peer->flags & UDPCP_PEER_F_DEAD)) {
		if (peer->tx_deadline && peer->tx_deadline <= now)
			udpcp_tx_timeout(peer, &xmitq);
		if (peer->rx_deadline && peer->rx_deadline <= now)
			udpcp_rx_timeout(peer);
		udpcp_peer_timer_update(peer);
	}
	spin_unlock_bh(&usk->lock);
	udpcp_udp_xmit_list(&xmitq);
	return HRTIMER_NORESTART;
}

void udpcp_peer_set_params(struct udpcp_peer *peer, u32 override,
			   const struct udpcp_params *p)
{
	lockdep_assert_held(&peer->usk->lock);
	udpcp_params_merge(&peer->params, override, p);
	peer->override |= override;
}

/* A new peer takes the params of the template for its remote end. */
static void udpcp_peer_apply_tmpl(struct udpcp_net *un, struct udpcp_peer *peer)
{
	struct udpcp_peer_tmpl *tmpl;

	rcu_read_lock();
	list_for_each_entry_rcu(tmpl, &un->tmpls, node) {
		if (tmpl->port == peer->key.port &&
		    ipv6_addr_equal(&tmpl->addr, &peer->key.addr)) {
			udpcp_peer_set_params(peer, tmpl->override, &tmpl->params);
			break;
		}
	}
	rcu_read_unlock();
}

u8 udpcp_peer_state(const struct udpcp_peer *peer)
{
	udpcp_peer_assert_locked(peer);
	switch (peer->tx_state) {
	case UDPCP_TX_SYNC:
		return UDPCP_PEER_STATE_SYNCING;
	case UDPCP_TX_SENDING:
		return UDPCP_PEER_STATE_SENDING;
	}
	return UDPCP_PEER_STATE_IDLE;
}

static bool udpcp_addr_is_group(const struct in6_addr *addr)
{
	if (ipv6_addr_v4mapped(addr)) {
		__be32 a = addr->s6_addr32[3];

		return ipv4_is_multicast(a) || ipv4_is_lbcast(a);
	}
	return ipv6_addr_is_multicast(addr);
}

/*
 * A socket holds at most max_peers: beyond that traffic from or to new
 * endpoints is refused rather than evicting state that may hold
 * undelivered messages.  @ovr: netlink's "peer add", configured before
 * the peer is announced, and -EEXIST if it exists; without it, the peer
 * that exists is returned, good as long as what the caller holds allows
 * (see struct udpcp_peer).
 */
static struct udpcp_peer *udpcp_peer_create(struct udpcp_sock *usk,
					    const struct udpcp_addr *ra,
					    gfp_t gfp,
					    const struct udpcp_peer_override *ovr)
{
	struct udpcp_net *un = udpcp_pernet(udpcp_sock_net(usk));
	struct udpcp_peer *peer, *old;

	if (READ_ONCE(usk->npeers) >= READ_ONCE(un->max_peers))
		return ERR_PTR(-ENOBUFS);
	peer = kmem_cache_zalloc(udpcp_peer_cache, gfp);
	if (!peer)
		return ERR_PTR(-ENOMEM);
	peer->key.usk = usk;
	peer->key.addr = ra->addr;
	peer->key.port = ra->port;
	peer->ifindex = ra->ifindex;
	peer->usk = usk;
	peer->next_id = 1;
	peer->flags = UDPCP_PEER_F_NEED_SYNC;
	peer->last_active = jiffies;
	skb_queue_head_init(&peer->txq);
	INIT_LIST_HEAD(&peer->rx_parts);
	udpcp_hrtimer_setup(&peer->timer, udpcp_peer_timer, CLOCK_MONOTONIC,
			    HRTIMER_MODE_ABS_SOFT);

	spin_lock_bh(&usk->lock);
	if (usk->dead || usk->npeers >= READ_ONCE(un->max_peers)) {
		old = ERR_PTR(usk->dead ? -ESHUTDOWN : -ENOBUFS);
		goto unlock_free;
	}
	old = rhashtable_lookup_get_insert_fast(&un->peers, &peer->node,
						udpcp_peer_rht);
	if (old) {
		if (ovr && !IS_ERR(old))
			old = ERR_PTR(-EEXIST);
		goto unlock_free;
	}
	udpcp_peer_apply_tmpl(un, peer);
	if (udpcp_addr_is_group(&ra->addr))
		peer->flags = UDPCP_PEER_F_GROUP;
	else if (udpcp_udp_dest_is_broadcast(peer))
		peer->flags = UDPCP_PEER_F_GROUP | UDPCP_PEER_F_BCAST;
	/*
	 * Groups most of all: they are never synced, so their receivers
	 * would take restarted IDs for duplicates.
	 */
	udpcp_hist_take(un, peer);
	if (ipv6_addr_v4mapped(&ra->addr) &&
	    ipv4_is_lbcast(ra->addr.s6_addr32[3]))
		peer->flags |= UDPCP_PEER_F_BCAST;
	if (ovr) {
		peer->flags |= UDPCP_PEER_F_CONFIGURED;
		udpcp_peer_set_params(peer, ovr->override, &ovr->params);
	}
	list_add_tail(&peer->sock_node, &usk->peers);
	usk->npeers++;
	peer->gen = usk->peer_gen++;
	/* Under the lock: once it is released, netlink may delete the peer. */
	udpcp_notify_peer(peer, UDPCP_CMD_PEER_CREATED_NTF, 0, GFP_ATOMIC);
	trace_udpcp_peer_create(peer);
	spin_unlock_bh(&usk->lock);
	return peer;

unlock_free:
	spin_unlock_bh(&usk->lock);
	kmem_cache_free(udpcp_peer_cache, peer);	/* never routed */
	return old;
}

/*
 * The receive path: the peer of @ra, made if new.  Under the RCU read
 * lock, which keeps it (dead, at worst: check under the state lock).
 */
struct udpcp_peer *udpcp_peer_get_or_create(struct udpcp_sock *usk,
					    const struct udpcp_addr *ra)
{
	struct udpcp_peer *peer;

	RCU_LOCKDEP_WARN(!rcu_read_lock_any_held(), "udpcp: peer outside RCU");
	peer = udpcp_peer_lookup(usk, ra);
	return peer ? : udpcp_peer_create(usk, ra, GFP_ATOMIC, NULL);
}

/*
 * Looked for first, as the receive path does: a socket at max_peers has
 * no room for a new peer, but one that exists is no new peer.
 */
static bool udpcp_peer_exists(struct udpcp_sock *usk,
			      const struct udpcp_addr *ra)
{
	bool found;

	rcu_read_lock();
	found = udpcp_peer_lookup(usk, ra);
	rcu_read_unlock();
	return found;
}

/*
 * sendmsg: @ra has a peer, or the error why not.  No lock is held, so no
 * peer is returned: the caller looks it up under the state lock.
 */
int udpcp_peer_ensure(struct udpcp_sock *usk, const struct udpcp_addr *ra)
{
	if (udpcp_peer_exists(usk, ra))
		return 0;
	return PTR_ERR_OR_ZERO(udpcp_peer_create(usk, ra, GFP_KERNEL, NULL));
}

/*
 * netlink: a new peer, configured as @ovr says when it is announced.  The
 * namespace lock keeps it (struct udpcp_peer).
 */
struct udpcp_peer *udpcp_peer_add(struct udpcp_sock *usk,
				  const struct udpcp_addr *ra,
				  const struct udpcp_peer_override *ovr)
{
	lockdep_assert_held(&udpcp_pernet(udpcp_sock_net(usk))->lock);
	if (udpcp_peer_exists(usk, ra))
		return ERR_PTR(-EEXIST);
	return udpcp_peer_create(usk, ra, GFP_KERNEL, ovr);
}

/* Takes the peer out of every table; the caller frees it. */
static void udpcp_peer_unlink(struct udpcp_net *un, struct udpcp_peer *peer)
{
	struct udpcp_sock *usk = peer->usk;

	lockdep_assert_held(&usk->lock);
	rhashtable_remove_fast(&un->peers, &peer->node, udpcp_peer_rht);
	list_del(&peer->sock_node);
	usk->npeers--;
	if (peer->rx_queued)
		usk->rx_sharing--;
	peer->flags |= UDPCP_PEER_F_DEAD;
	udpcp_hist_save(un, peer);
	udpcp_tx_purge(peer);
	udpcp_rx_purge(peer);
	udpcp_mib_add(&usk->stats, &peer->stats);
	memset(&peer->stats, 0, sizeof(peer->stats));
	udpcp_peer_dst_reset(peer);
}

/*
 * By whoever unlinked the peer, in process context, without the state
 * lock: the timer's handler may be waiting for it.
 */
static void udpcp_peer_free(struct udpcp_peer *peer)
{
	lockdep_assert_not_held(&peer->usk->lock);
	might_sleep();
	hrtimer_cancel(&peer->timer);
	udpcp_notify_peer(peer, UDPCP_CMD_PEER_REMOVED_NTF, 0, GFP_KERNEL);
	call_rcu(&peer->rcu, udpcp_peer_free_rcu);
}

static void udpcp_peers_free_list(struct list_head *list)
{
	struct udpcp_peer *peer, *tmp;

	list_for_each_entry_safe(peer, tmp, list, sock_node)
		udpcp_peer_free(peer);
}

/* Close: the socket is marked dead, so no peer can be added meanwhile. */
void udpcp_peers_release_sock(struct udpcp_sock *usk)
{
	struct udpcp_net *un = udpcp_pernet(udpcp_sock_net(usk));
	struct udpcp_peer *peer, *tmp;
	LIST_HEAD(dead);

	spin_lock_bh(&usk->lock);
	list_for_each_entry_safe(peer, tmp, &usk->peers, sock_node) {
		udpcp_peer_unlink(un, peer);
		list_add_tail(&peer->sock_node, &dead);
	}
	WARN_ON_ONCE(usk->rx_sharing);
	spin_unlock_bh(&usk->lock);
	udpcp_peers_free_list(&dead);
}

/* netlink: remove one peer, whatever it holds. */
int udpcp_peer_delete(struct udpcp_sock *usk, const struct udpcp_addr *ra)
{
	struct udpcp_net *un = udpcp_pernet(udpcp_sock_net(usk));
	struct udpcp_peer *peer;

	spin_lock_bh(&usk->lock);
	peer = udpcp_peer_lookup(usk, ra);
	if (!peer) {
		spin_unlock_bh(&usk->lock);
		return -ENOENT;
	}
	udpcp_peer_unlink(un, peer);
	spin_unlock_bh(&usk->lock);
	udpcp_peer_free(peer);
	return 0;
}

static bool udpcp_peer_idle(const struct udpcp_peer *peer, unsigned long expiry)
{
	lockdep_assert_held(&peer->usk->lock);
	return !(peer->flags & UDPCP_PEER_F_CONFIGURED) &&
	       peer->tx_state == UDPCP_TX_IDLE && !peer->tx_msg &&
	       skb_queue_empty(&peer->txq) && list_empty(&peer->rx_parts) &&
	       time_after(jiffies, peer->last_active + expiry);
}

void udpcp_peers_gc(struct udpcp_net *un)
{
	unsigned long expiry = msecs_to_jiffies(READ_ONCE(un->peer_expiry_ms));
	struct udpcp_peer *peer, *tmp;
	struct udpcp_sock *usk;
	LIST_HEAD(dead);

	mutex_lock(&un->lock);
	list_for_each_entry(usk, &un->socks, net_node) {
		spin_lock_bh(&usk->lock);
		list_for_each_entry_safe(peer, tmp, &usk->peers, sock_node) {
			if (!udpcp_peer_idle(peer, expiry))
				continue;
			trace_udpcp_peer_expire(peer);
			udpcp_peer_unlink(un, peer);
			list_add_tail(&peer->sock_node, &dead);
		}
		spin_unlock_bh(&usk->lock);
	}
	mutex_unlock(&un->lock);
	udpcp_peers_free_list(&dead);
}
