// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/udpcp.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink-gen.h"

#include <uapi/linux/udpcp_nl.h>

/* Integer value ranges */
static const struct netlink_range_validation udpcp_a_params_tx_timeout_range = {
	.min	= UDPCP_MIN_TIMEOUT_MS,
	.max	= UDPCP_MAX_TIMEOUT_MS,
};

static const struct netlink_range_validation udpcp_a_params_rx_timeout_range = {
	.min	= UDPCP_MIN_TIMEOUT_MS,
	.max	= UDPCP_MAX_TIMEOUT_MS,
};

static const struct netlink_range_validation udpcp_a_defaults_max_peers_range = {
	.min	= UDPCP_MIN_PEERS,
	.max	= UDPCP_MAX_PEERS,
};

static const struct netlink_range_validation udpcp_a_defaults_peer_expiry_range = {
	.min	= UDPCP_MIN_PEER_EXPIRY_MS,
	.max	= UDPCP_MAX_PEER_EXPIRY_MS,
};

/* Common nested types */
const struct nla_policy udpcp_defaults_nl_policy[UDPCP_A_DEFAULTS_PEER_EXPIRY + 1] = {
	[UDPCP_A_DEFAULTS_PARAMS] = NLA_POLICY_NESTED(udpcp_params_nl_policy),
	[UDPCP_A_DEFAULTS_MAX_PEERS] = NLA_POLICY_FULL_RANGE(NLA_U32, &udpcp_a_defaults_max_peers_range),
	[UDPCP_A_DEFAULTS_PEER_EXPIRY] = NLA_POLICY_FULL_RANGE(NLA_U32, &udpcp_a_defaults_peer_expiry_range),
};

const struct nla_policy udpcp_group_request_nl_policy[UDPCP_A_GROUP_IFINDEX + 1] = {
	[UDPCP_A_GROUP_SOCK] = NLA_POLICY_NESTED(udpcp_sock_select_nl_policy),
	[UDPCP_A_GROUP_IPV4] = NLA_POLICY_EXACT_LEN(4),
	[UDPCP_A_GROUP_IPV6] = NLA_POLICY_EXACT_LEN(16),
	[UDPCP_A_GROUP_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
};

const struct nla_policy udpcp_params_nl_policy[UDPCP_A_PARAMS_OUTSTANDING_ACKS + 1] = {
	[UDPCP_A_PARAMS_TRANSFER_MODE] = NLA_POLICY_MAX(NLA_U8, 2),
	[UDPCP_A_PARAMS_CHECKSUM] = NLA_POLICY_MAX(NLA_U8, 1),
	[UDPCP_A_PARAMS_TX_TIMEOUT] = NLA_POLICY_FULL_RANGE(NLA_U32, &udpcp_a_params_tx_timeout_range),
	[UDPCP_A_PARAMS_RX_TIMEOUT] = NLA_POLICY_FULL_RANGE(NLA_U32, &udpcp_a_params_rx_timeout_range),
	[UDPCP_A_PARAMS_MAX_TRIES] = NLA_POLICY_RANGE(NLA_U8, UDPCP_MIN_MAXTRY, UDPCP_MAX_MAXTRY),
	[UDPCP_A_PARAMS_OUTSTANDING_ACKS] = NLA_POLICY_RANGE(NLA_U8, UDPCP_MIN_OUTSTANDING_ACKS, UDPCP_MAX_OUTSTANDING_ACKS),
};

const struct nla_policy udpcp_peer_request_nl_policy[UDPCP_A_PEER_REPLACE + 1] = {
	[UDPCP_A_PEER_REMOTE_IPV4] = NLA_POLICY_EXACT_LEN(4),
	[UDPCP_A_PEER_REMOTE_IPV6] = NLA_POLICY_EXACT_LEN(16),
	[UDPCP_A_PEER_REMOTE_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[UDPCP_A_PEER_SOCK] = NLA_POLICY_NESTED(udpcp_sock_select_nl_policy),
	[UDPCP_A_PEER_PARAMS] = NLA_POLICY_NESTED(udpcp_params_nl_policy),
	[UDPCP_A_PEER_REPLACE] = { .type = NLA_FLAG, },
};

const struct nla_policy udpcp_sock_select_nl_policy[UDPCP_A_SOCK_LOCAL_PORT + 1] = {
	[UDPCP_A_SOCK_COOKIE] = { .type = NLA_U64, },
	[UDPCP_A_SOCK_LOCAL_IPV4] = NLA_POLICY_EXACT_LEN(4),
	[UDPCP_A_SOCK_LOCAL_IPV6] = NLA_POLICY_EXACT_LEN(16),
	[UDPCP_A_SOCK_LOCAL_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
};

/* UDPCP_CMD_DEFAULTS_SET - do */
static const struct nla_policy udpcp_defaults_set_nl_policy[UDPCP_A_DEFAULTS + 1] = {
	[UDPCP_A_DEFAULTS] = NLA_POLICY_NESTED(udpcp_defaults_nl_policy),
};

/* UDPCP_CMD_SOCK_GET - dump */
static const struct nla_policy udpcp_sock_get_nl_policy[UDPCP_A_SOCK + 1] = {
	[UDPCP_A_SOCK] = NLA_POLICY_NESTED(udpcp_sock_select_nl_policy),
};

/* UDPCP_CMD_PEER_NEW - do */
static const struct nla_policy udpcp_peer_new_nl_policy[UDPCP_A_PEER + 1] = {
	[UDPCP_A_PEER] = NLA_POLICY_NESTED(udpcp_peer_request_nl_policy),
};

/* UDPCP_CMD_PEER_SET - do */
static const struct nla_policy udpcp_peer_set_nl_policy[UDPCP_A_PEER + 1] = {
	[UDPCP_A_PEER] = NLA_POLICY_NESTED(udpcp_peer_request_nl_policy),
};

/* UDPCP_CMD_PEER_DEL - do */
static const struct nla_policy udpcp_peer_del_nl_policy[UDPCP_A_PEER + 1] = {
	[UDPCP_A_PEER] = NLA_POLICY_NESTED(udpcp_peer_request_nl_policy),
};

/* UDPCP_CMD_PEER_GET - do */
static const struct nla_policy udpcp_peer_get_do_nl_policy[UDPCP_A_PEER + 1] = {
	[UDPCP_A_PEER] = NLA_POLICY_NESTED(udpcp_peer_request_nl_policy),
};

/* UDPCP_CMD_PEER_GET - dump */
static const struct nla_policy udpcp_peer_get_dump_nl_policy[UDPCP_A_PEER + 1] = {
	[UDPCP_A_PEER] = NLA_POLICY_NESTED(udpcp_peer_request_nl_policy),
};

/* UDPCP_CMD_STATS_RESET - do */
static const struct nla_policy udpcp_stats_reset_nl_policy[UDPCP_A_PEER + 1] = {
	[UDPCP_A_SOCK] = NLA_POLICY_NESTED(udpcp_sock_select_nl_policy),
	[UDPCP_A_PEER] = NLA_POLICY_NESTED(udpcp_peer_request_nl_policy),
};

/* UDPCP_CMD_GROUP_GET - dump */
static const struct nla_policy udpcp_group_get_nl_policy[UDPCP_A_GROUP + 1] = {
	[UDPCP_A_GROUP] = NLA_POLICY_NESTED(udpcp_group_request_nl_policy),
};

/* UDPCP_CMD_GROUP_JOIN - do */
static const struct nla_policy udpcp_group_join_nl_policy[UDPCP_A_GROUP + 1] = {
	[UDPCP_A_GROUP] = NLA_POLICY_NESTED(udpcp_group_request_nl_policy),
};

/* UDPCP_CMD_GROUP_LEAVE - do */
static const struct nla_policy udpcp_group_leave_nl_policy[UDPCP_A_GROUP + 1] = {
	[UDPCP_A_GROUP] = NLA_POLICY_NESTED(udpcp_group_request_nl_policy),
};

/* Ops table for udpcp */
const struct genl_split_ops udpcp_nl_ops[13] = {
	{
		.cmd	= UDPCP_CMD_DEFAULTS_GET,
		.doit	= udpcp_nl_defaults_get_doit,
		.flags	= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= UDPCP_CMD_DEFAULTS_SET,
		.doit		= udpcp_nl_defaults_set_doit,
		.policy		= udpcp_defaults_set_nl_policy,
		.maxattr	= UDPCP_A_DEFAULTS,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= UDPCP_CMD_SOCK_GET,
		.dumpit		= udpcp_nl_sock_get_dumpit,
		.policy		= udpcp_sock_get_nl_policy,
		.maxattr	= UDPCP_A_SOCK,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= UDPCP_CMD_PEER_NEW,
		.doit		= udpcp_nl_peer_new_doit,
		.policy		= udpcp_peer_new_nl_policy,
		.maxattr	= UDPCP_A_PEER,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= UDPCP_CMD_PEER_SET,
		.doit		= udpcp_nl_peer_set_doit,
		.policy		= udpcp_peer_set_nl_policy,
		.maxattr	= UDPCP_A_PEER,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= UDPCP_CMD_PEER_DEL,
		.doit		= udpcp_nl_peer_del_doit,
		.policy		= udpcp_peer_del_nl_policy,
		.maxattr	= UDPCP_A_PEER,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= UDPCP_CMD_PEER_GET,
		.doit		= udpcp_nl_peer_get_doit,
		.policy		= udpcp_peer_get_do_nl_policy,
		.maxattr	= UDPCP_A_PEER,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= UDPCP_CMD_PEER_GET,
		.start		= udpcp_nl_peer_dump_start,
		.dumpit		= udpcp_nl_peer_get_dumpit,
		.done		= udpcp_nl_peer_dump_done,
		.policy		= udpcp_peer_get_dump_nl_policy,
		.maxattr	= UDPCP_A_PEER,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= UDPCP_CMD_STATS_GET,
		.doit	= udpcp_nl_stats_get_doit,
		.flags	= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= UDPCP_CMD_STATS_RESET,
		.doit		= udpcp_nl_stats_reset_doit,
		.policy		= udpcp_stats_reset_nl_policy,
		.maxattr	= UDPCP_A_PEER,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= UDPCP_CMD_GROUP_GET,
		.dumpit		= udpcp_nl_group_get_dumpit,
		.policy		= udpcp_group_get_nl_policy,
		.maxattr	= UDPCP_A_GROUP,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= UDPCP_CMD_GROUP_JOIN,
		.doit		= udpcp_nl_group_join_doit,
		.policy		= udpcp_group_join_nl_policy,
		.maxattr	= UDPCP_A_GROUP,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= UDPCP_CMD_GROUP_LEAVE,
		.doit		= udpcp_nl_group_leave_doit,
		.policy		= udpcp_group_leave_nl_policy,
		.maxattr	= UDPCP_A_GROUP,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
};

static const struct genl_multicast_group udpcp_nl_mcgrps[] = {
	[UDPCP_NLGRP_EVENTS] = { "events", },
};
