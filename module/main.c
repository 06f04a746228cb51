// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP: module init and exit, per-namespace state.
 */
#include <linux/module.h>
#include <net/net_namespace.h>

#include "udpcp.h"

unsigned int udpcp_net_id __read_mostly;

/* Idle peers are collected this often; expiry is in milliseconds. */
#define UDPCP_GC_INTERVAL	(HZ)

static void udpcp_gc_work(struct work_struct *work)
{
	struct udpcp_net *un = container_of(to_delayed_work(work),
					    struct udpcp_net, gc_work);

	udpcp_peers_gc(un);
	schedule_delayed_work(&un->gc_work, UDPCP_GC_INTERVAL);
}

void udpcp_net_link_sock(struct udpcp_sock *usk)
{
	struct udpcp_net *un = udpcp_pernet(udpcp_sock_net(usk));

	mutex_lock(&un->lock);
	usk->params = un->defaults;
	list_add_tail(&usk->net_node, &un->socks);
	mutex_unlock(&un->lock);
}

/* First in close: netlink works on listed sockets under un->lock only. */
void udpcp_net_unlink_sock(struct udpcp_sock *usk)
{
	struct udpcp_net *un = udpcp_pernet(udpcp_sock_net(usk));

	mutex_lock(&un->lock);
	list_del_init(&usk->net_node);
	mutex_unlock(&un->lock);
}

/* Last in close: the namespace totals keep what the socket counted. */
void udpcp_net_account_closed(struct udpcp_sock *usk)
{
	struct udpcp_net *un = udpcp_pernet(udpcp_sock_net(usk));

	mutex_lock(&un->lock);
	udpcp_mib_add(&un->closed_stats, &usk->stats);
	udpcp_mib_fold(&un->closed_stats, usk->pcpu_stats);
	mutex_unlock(&un->lock);
}

void udpcp_net_stats(struct udpcp_net *un, struct udpcp_mib *st)
{
	struct udpcp_sock *usk;

	lockdep_assert_held(&un->lock);
	*st = un->closed_stats;
	list_for_each_entry(usk, &un->socks, net_node)
		udpcp_sock_stats(usk, st);
}

void udpcp_net_stats_reset(struct udpcp_net *un)
{
	struct udpcp_sock *usk;

	lockdep_assert_held(&un->lock);
	memset(&un->closed_stats, 0, sizeof(un->closed_stats));
	list_for_each_entry(usk, &un->socks, net_node)
		udpcp_sock_stats_reset(usk);
}

static int __net_init udpcp_net_init(struct net *net)
{
	struct udpcp_net *un = udpcp_pernet(net);

	mutex_init(&un->lock);
	INIT_LIST_HEAD(&un->socks);
	INIT_LIST_HEAD(&un->tmpls);
	un->defaults = (struct udpcp_params) {
		.transfer_mode = UDPCP_ACK,
		.checksum = 1,
		.tx_timeout_ms = UDPCP_DEF_TX_TIMEOUT_MS,
		.rx_timeout_ms = UDPCP_DEF_RX_TIMEOUT_MS,
		.max_tries = UDPCP_DEF_MAXTRY,
		.outstanding_acks = UDPCP_DEF_OUTSTANDING,
	};
	un->max_peers = UDPCP_DEF_MAX_PEERS;
	un->peer_expiry_ms = UDPCP_DEF_PEER_EXPIRY_MS;
	INIT_DELAYED_WORK(&un->gc_work, udpcp_gc_work);
	if (udpcp_peers_net_init(un))
		return -ENOMEM;
	schedule_delayed_work(&un->gc_work, UDPCP_GC_INTERVAL);
	return 0;
}

/*
 * Sockets hold a reference on their namespace, so by now every UDPCP
 * socket of it has been closed.
 */
static void __net_exit udpcp_net_exit(struct net *net)
{
	struct udpcp_net *un = udpcp_pernet(net);

	struct udpcp_peer_tmpl *cfg, *tmp;

	cancel_delayed_work_sync(&un->gc_work);
	WARN_ON_ONCE(!list_empty(&un->socks));
	list_for_each_entry_safe(cfg, tmp, &un->tmpls, node) {
		list_del(&cfg->node);
		kfree(cfg);
	}
	udpcp_peers_net_exit(un);
}

static struct pernet_operations udpcp_net_ops = {
	.init = udpcp_net_init,
	.exit = udpcp_net_exit,
	.id   = &udpcp_net_id,
	.size = sizeof(struct udpcp_net),
};

static int __init udpcp_init(void)
{
	int err;

	err = udpcp_mib_check();
	if (err)
		return err;
	udpcp_adler32_init();
	err = udpcp_peer_cache_init();
	if (err)
		return err;
	err = register_pernet_subsys(&udpcp_net_ops);
	if (err)
		goto err_cache;
	err = udpcp_genl_init();
	if (err)
		goto err_net;
	err = udpcp_proto_init();
	if (err)
		goto err_genl;
	return 0;

err_genl:
	udpcp_genl_exit();
err_net:
	unregister_pernet_subsys(&udpcp_net_ops);
err_cache:
	udpcp_peer_cache_exit();
	return err;
}

static void __exit udpcp_exit(void)
{
	udpcp_proto_exit();
	udpcp_genl_exit();
	unregister_pernet_subsys(&udpcp_net_ops);
	udpcp_peer_cache_exit();
}

module_init(udpcp_init);
module_exit(udpcp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("UDPCP: the OBSAI UDP-based communication protocol");
MODULE_AUTHOR("The UDPCP for Linux authors");
/*
 * The version is debian/changelog's, given by the packaged and installed
 * builds as KCFLAGS=-DUDPCP_PKG_VERSION=<version> (dkms.conf, make install);
 * a plain build of the tree has none.
 */
#ifdef UDPCP_PKG_VERSION
MODULE_VERSION(__stringify(UDPCP_PKG_VERSION));
#endif
/* socket(AF_INET[6], SOCK_DGRAM, IPPROTO_UDPCP) loads the module. */
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET, 258, 2);
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET6, 258, 2);
MODULE_ALIAS_GENL_FAMILY(UDPCP_GENL_NAME);
