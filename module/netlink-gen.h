/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/udpcp.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_UDPCP_GEN_H
#define _LINUX_UDPCP_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/udpcp_nl.h>

/* Common nested types */
extern const struct nla_policy udpcp_defaults_nl_policy[UDPCP_A_DEFAULTS_PEER_EXPIRY + 1];
extern const struct nla_policy udpcp_group_request_nl_policy[UDPCP_A_GROUP_IFINDEX + 1];
extern const struct nla_policy udpcp_params_nl_policy[UDPCP_A_PARAMS_OUTSTANDING_ACKS + 1];
extern const struct nla_policy udpcp_peer_request_nl_policy[UDPCP_A_PEER_REPLACE + 1];
extern const struct nla_policy udpcp_sock_select_nl_policy[UDPCP_A_SOCK_LOCAL_PORT + 1];

/* Ops table for udpcp */
extern const struct genl_split_ops udpcp_nl_ops[13];

int udpcp_nl_peer_dump_start(struct netlink_callback *cb);
int udpcp_nl_peer_dump_done(struct netlink_callback *cb);

int udpcp_nl_defaults_get_doit(struct sk_buff *skb, struct genl_info *info);
int udpcp_nl_defaults_set_doit(struct sk_buff *skb, struct genl_info *info);
int udpcp_nl_sock_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int udpcp_nl_peer_new_doit(struct sk_buff *skb, struct genl_info *info);
int udpcp_nl_peer_set_doit(struct sk_buff *skb, struct genl_info *info);
int udpcp_nl_peer_del_doit(struct sk_buff *skb, struct genl_info *info);
int udpcp_nl_peer_get_doit(struct sk_buff *skb, struct genl_info *info);
int udpcp_nl_peer_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int udpcp_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int udpcp_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info);
int udpcp_nl_group_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int udpcp_nl_group_join_doit(struct sk_buff *skb, struct genl_info *info);
int udpcp_nl_group_leave_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	UDPCP_NLGRP_EVENTS,
};

#endif /* _LINUX_UDPCP_GEN_H */
