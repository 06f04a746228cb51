// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP: the "udpcp" generic netlink family.
 */
#include <net/genetlink.h>
#include <net/sock.h>

#include "udpcp.h"

static struct genl_family udpcp_genl_family;

enum {
	UDPCP_MCGRP_EVENTS_ID,
};

static const struct genl_multicast_group udpcp_mcgrps[] = {
	[UDPCP_MCGRP_EVENTS_ID] = {
		.name = UDPCP_MCGRP_EVENTS,
		.flags = UDPCP_MCGRP_FLAGS,
	},
};

/*
 * NLA_POLICY_RANGE keeps s16 bounds: larger ones need a full range, which
 * the policy macro wants non-const.
 */
static struct netlink_range_validation udpcp_timeout_range = {
	.min = UDPCP_MIN_TIMEOUT_MS,
	.max = UDPCP_MAX_TIMEOUT_MS,
};

static struct netlink_range_validation udpcp_max_peers_range = {
	.min = 1,
	.max = UDPCP_MAX_PEERS_LIMIT,
};

static struct netlink_range_validation udpcp_expiry_range = {
	.min = 1000,
	.max = UDPCP_MAX_EXPIRY_MS,
};

static const struct nla_policy udpcp_params_policy[UDPCP_A_PARAMS_MAX + 1] = {
	[UDPCP_A_PARAMS_TRANSFER_MODE] = NLA_POLICY_RANGE(NLA_U8, UDPCP_NOACK,
							  UDPCP_SINGLE_ACK),
	[UDPCP_A_PARAMS_CHECKSUM] = NLA_POLICY_RANGE(NLA_U8, 0, 1),
	[UDPCP_A_PARAMS_TX_TIMEOUT] = NLA_POLICY_FULL_RANGE(NLA_U32,
							    &udpcp_timeout_range),
	[UDPCP_A_PARAMS_RX_TIMEOUT] = NLA_POLICY_FULL_RANGE(NLA_U32,
							    &udpcp_timeout_range),
	[UDPCP_A_PARAMS_MAX_TRIES] = NLA_POLICY_RANGE(NLA_U8, UDPCP_MIN_MAXTRY,
						      UDPCP_MAX_MAXTRY),
	[UDPCP_A_PARAMS_OUTSTANDING_ACKS] =
		NLA_POLICY_RANGE(NLA_U8, UDPCP_MIN_OUTSTANDING_ACKS,
				 UDPCP_MAX_OUTSTANDING_ACKS),
};

static const struct nla_policy udpcp_defaults_policy[UDPCP_A_DEFAULTS_MAX + 1] = {
	[UDPCP_A_DEFAULTS_PARAMS] = NLA_POLICY_NESTED(udpcp_params_policy),
	[UDPCP_A_DEFAULTS_MAX_PEERS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							     &udpcp_max_peers_range),
	[UDPCP_A_DEFAULTS_PEER_EXPIRY] = NLA_POLICY_FULL_RANGE(NLA_U32,
							       &udpcp_expiry_range),
};

static const struct nla_policy udpcp_defaults_set_policy[UDPCP_A_MAX + 1] = {
	[UDPCP_A_DEFAULTS] = NLA_POLICY_NESTED(udpcp_defaults_policy),
};

static const struct nla_policy udpcp_empty_policy[UDPCP_A_MAX + 1] = {
};

static int udpcp_put_params(struct sk_buff *skb, int attr,
			    const struct udpcp_params *p)
{
	struct nlattr *nest = nla_nest_start(skb, attr);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, UDPCP_A_PARAMS_TRANSFER_MODE, p->transfer_mode) ||
	    nla_put_u8(skb, UDPCP_A_PARAMS_CHECKSUM, p->checksum) ||
	    nla_put_u32(skb, UDPCP_A_PARAMS_TX_TIMEOUT, p->tx_timeout_ms) ||
	    nla_put_u32(skb, UDPCP_A_PARAMS_RX_TIMEOUT, p->rx_timeout_ms) ||
	    nla_put_u8(skb, UDPCP_A_PARAMS_MAX_TRIES, p->max_tries) ||
	    nla_put_u8(skb, UDPCP_A_PARAMS_OUTSTANDING_ACKS,
		       p->outstanding_acks)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Apply the params present in @nest (already validated) to @p. */
static void udpcp_get_params(struct nlattr **tb, struct udpcp_params *p)
{
	if (tb[UDPCP_A_PARAMS_TRANSFER_MODE])
		p->transfer_mode = nla_get_u8(tb[UDPCP_A_PARAMS_TRANSFER_MODE]);
	if (tb[UDPCP_A_PARAMS_CHECKSUM])
		p->checksum = nla_get_u8(tb[UDPCP_A_PARAMS_CHECKSUM]);
	if (tb[UDPCP_A_PARAMS_TX_TIMEOUT])
		p->tx_timeout_ms = nla_get_u32(tb[UDPCP_A_PARAMS_TX_TIMEOUT]);
	if (tb[UDPCP_A_PARAMS_RX_TIMEOUT])
		p->rx_timeout_ms = nla_get_u32(tb[UDPCP_A_PARAMS_RX_TIMEOUT]);
	if (tb[UDPCP_A_PARAMS_MAX_TRIES])
		p->max_tries = nla_get_u8(tb[UDPCP_A_PARAMS_MAX_TRIES]);
	if (tb[UDPCP_A_PARAMS_OUTSTANDING_ACKS])
		p->outstanding_acks =
			nla_get_u8(tb[UDPCP_A_PARAMS_OUTSTANDING_ACKS]);
}

static int udpcp_nl_defaults_get(struct sk_buff *skb, struct genl_info *info)
{
	struct udpcp_net *un = udpcp_pernet(genl_info_net(info));
	struct nlattr *nest;
	struct sk_buff *msg;
	void *hdr;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &udpcp_genl_family, 0,
				UDPCP_CMD_DEFAULTS_GET);
	if (!hdr)
		goto nomem;
	nest = nla_nest_start(msg, UDPCP_A_DEFAULTS);
	if (!nest)
		goto nomem;
	mutex_lock(&un->lock);
	if (udpcp_put_params(msg, UDPCP_A_DEFAULTS_PARAMS, &un->defaults) ||
	    nla_put_u32(msg, UDPCP_A_DEFAULTS_MAX_PEERS, un->max_peers) ||
	    nla_put_u32(msg, UDPCP_A_DEFAULTS_PEER_EXPIRY, un->peer_expiry_ms)) {
		mutex_unlock(&un->lock);
		goto nomem;
	}
	mutex_unlock(&un->lock);
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

nomem:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static int udpcp_nl_defaults_set(struct sk_buff *skb, struct genl_info *info)
{
	struct udpcp_net *un = udpcp_pernet(genl_info_net(info));
	struct nlattr *tb[UDPCP_A_DEFAULTS_MAX + 1];
	struct nlattr *ptb[UDPCP_A_PARAMS_MAX + 1];
	int err;

	if (GENL_REQ_ATTR_CHECK(info, UDPCP_A_DEFAULTS))
		return -EINVAL;
	err = nla_parse_nested(tb, UDPCP_A_DEFAULTS_MAX,
			       info->attrs[UDPCP_A_DEFAULTS],
			       udpcp_defaults_policy, info->extack);
	if (err)
		return err;
	if (tb[UDPCP_A_DEFAULTS_PARAMS]) {
		err = nla_parse_nested(ptb, UDPCP_A_PARAMS_MAX,
				       tb[UDPCP_A_DEFAULTS_PARAMS],
				       udpcp_params_policy, info->extack);
		if (err)
			return err;
	}

	mutex_lock(&un->lock);
	if (tb[UDPCP_A_DEFAULTS_PARAMS])
		udpcp_get_params(ptb, &un->defaults);
	if (tb[UDPCP_A_DEFAULTS_MAX_PEERS])
		WRITE_ONCE(un->max_peers,
			   nla_get_u32(tb[UDPCP_A_DEFAULTS_MAX_PEERS]));
	if (tb[UDPCP_A_DEFAULTS_PEER_EXPIRY])
		WRITE_ONCE(un->peer_expiry_ms,
			   nla_get_u32(tb[UDPCP_A_DEFAULTS_PEER_EXPIRY]));
	mutex_unlock(&un->lock);
	return 0;
}

static const struct genl_ops udpcp_genl_ops[] = {
	{
		.cmd = UDPCP_CMD_DEFAULTS_GET,
		.doit = udpcp_nl_defaults_get,
		.policy = udpcp_empty_policy,
		.maxattr = UDPCP_A_MAX,
	},
	{
		.cmd = UDPCP_CMD_DEFAULTS_SET,
		.doit = udpcp_nl_defaults_set,
		.policy = udpcp_defaults_set_policy,
		.maxattr = UDPCP_A_MAX,
		.flags = GENL_UNS_ADMIN_PERM,
	},
};

static struct genl_family udpcp_genl_family __ro_after_init = {
	.name = UDPCP_GENL_NAME,
	.version = UDPCP_GENL_VERSION,
	.maxattr = UDPCP_A_MAX,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = udpcp_genl_ops,
	.n_ops = ARRAY_SIZE(udpcp_genl_ops),
	.mcgrps = udpcp_mcgrps,
	.n_mcgrps = ARRAY_SIZE(udpcp_mcgrps),
};

void udpcp_notify_peer(struct udpcp_peer *peer, u8 cmd, u16 msg_id, gfp_t gfp)
{
}

int __init udpcp_genl_init(void)
{
	return genl_register_family(&udpcp_genl_family);
}

void udpcp_genl_exit(void)
{
	genl_unregister_family(&udpcp_genl_family);
}
