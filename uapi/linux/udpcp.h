/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * UDPCP: the OBSAI RP1 UDP-based communication protocol.
 *
 * Data goes through socket(AF_INET or AF_INET6, SOCK_DGRAM, IPPROTO_UDPCP);
 * management goes through the "udpcp" generic netlink family.
 */
#ifndef _UAPI_LINUX_UDPCP_H
#define _UAPI_LINUX_UDPCP_H

#include <linux/types.h>

/*
 * Values >= 256 never appear on the wire; 256, 257, 261 and 262 are taken
 * or proposed upstream.
 */
#define IPPROTO_UDPCP		258
#define SOL_UDPCP		IPPROTO_UDPCP

/* Socket options at level SOL_UDPCP (the 2011 API's names and values). */
#define UDPCP_OPT_TRANSFER_MODE		0
#define UDPCP_OPT_CHECKSUM_MODE		1
#define UDPCP_OPT_TX_TIMEOUT		2	/* ms */
#define UDPCP_OPT_RX_TIMEOUT		3	/* ms */
#define UDPCP_OPT_MAXTRY		4
#define UDPCP_OPT_OUTSTANDING_ACKS	5
/* getsockopt only: struct udpcp_info, truncated to the length given. */
#define UDPCP_INFO			6
/*
 * setsockopt only, int timeout in ms: wait until every message sent on the
 * socket is acknowledged or has failed.  Replaces the 2011 UDPCP_IOCTL_SYNC.
 * Returns 0, or -1 with errno ETIMEDOUT (timeout) or EINTR (signal).
 */
#define UDPCP_FLUSH			7

/* Option values (the 2011 API's). */
#define UDPCP_NOACK			0
#define UDPCP_ACK			1
#define UDPCP_SINGLE_ACK		2
#define UDPCP_NOCHECKSUM		3
#define UDPCP_CHECKSUM			4

/* Limits */
#define UDPCP_MAX_MSGSIZE		65487
#define UDPCP_MAX_WAIT_SEC		60
#define UDPCP_MIN_TIMEOUT_MS		1
#define UDPCP_MAX_TIMEOUT_MS		(UDPCP_MAX_WAIT_SEC * 1000)
#define UDPCP_MIN_MAXTRY		1
#define UDPCP_MAX_MAXTRY		10
#define UDPCP_MIN_OUTSTANDING_ACKS	1
#define UDPCP_MAX_OUTSTANDING_ACKS	255
/* Namespace defaults that only netlink sets. */
#define UDPCP_MIN_PEERS			1
#define UDPCP_MAX_PEERS			1000000
#define UDPCP_MIN_PEER_EXPIRY_MS	1000
#define UDPCP_MAX_PEER_EXPIRY_MS	(24 * 3600 * 1000)

/*
 * Control messages on sendmsg: cmsg_level SOL_UDPCP, cmsg_type
 * UDPCP_OPT_TRANSFER_MODE or UDPCP_OPT_CHECKSUM_MODE, data an int, for that
 * one message.
 */

/*
 * A failed message is queued on the error queue (MSG_ERRQUEUE) as a
 * struct sock_extended_err: ee_errno ETIMEDOUT, ee_origin
 * SO_EE_ORIGIN_LOCAL, ee_info the message ID, ee_data the message length;
 * msg_name carries the destination.
 */

/*
 * UDPCP_INFO.  Fields are only ever appended; the kernel fills
 * min(optlen, sizeof(struct udpcp_info)) bytes and returns that length, so
 * udpi_size tells an old binary what a new kernel knows.
 */
struct udpcp_info {
	__u32	udpi_size;		/* sizeof(struct udpcp_info) of the kernel */
	__u32	udpi_tx_nodes;		/* peers with transmit state */
	__u32	udpi_rx_nodes;		/* peers with receive state */
	__u32	udpi_tx_pending;	/* messages queued or unacknowledged */
	__u32	udpi_rx_queued;		/* messages waiting in the receive queue */
	__u32	udpi_rtt_us;		/* smoothed send-to-ack time, 0 if none */
	__u64	udpi_tx_msgs;		/* messages sent (acked, or sent in no-ack) */
	__u64	udpi_rx_msgs;		/* messages delivered */
	__u64	udpi_tx_bytes;
	__u64	udpi_rx_bytes;
	__u64	udpi_tx_timeout;	/* messages failed after max tries */
	__u64	udpi_rx_timeout;	/* partial messages expired */
	__u64	udpi_tx_retries;	/* packets retransmitted */
	__u64	udpi_rx_discarded_frags; /* fragments of dropped partials */
	__u64	udpi_crc_errors;	/* packets with a bad Adler-32 */
	__u64	udpi_rx_duplicates;	/* duplicate messages (acked with D) */
	__u64	udpi_rx_malformed;	/* malformed packets dropped */
	__u64	udpi_rx_dropped;	/* messages refused: receive buffer full */
	__u64	udpi_rx_refused;	/* of those, for their source's share */
	__u64	udpi_icmp_errors;	/* ICMP errors about packets in flight */
	__u64	udpi_pmtu_restarts;	/* messages restarted for a lower MTU */
};

/* Generic netlink: the "udpcp" family. */
#define UDPCP_GENL_NAME		"udpcp"
#define UDPCP_GENL_VERSION	1
#define UDPCP_MCGRP_EVENTS	"events"

enum udpcp_peer_state {
	UDPCP_PEER_STATE_IDLE,		/* nothing to send */
	UDPCP_PEER_STATE_SYNCING,	/* sync sent, not yet acknowledged */
	UDPCP_PEER_STATE_SENDING,	/* a message in flight */
	UDPCP_PEER_STATE_CONFIGURED,	/* configured, no traffic yet */
};

/* UDPCP_A_PEER_FLAGS */
#define UDPCP_PEER_F_CONFIGURED	0x1	/* added by netlink */
#define UDPCP_PEER_F_NEED_SYNC	0x2	/* next message is preceded by a sync */

enum {
	UDPCP_CMD_UNSPEC,
	UDPCP_CMD_DEFAULTS_GET,
	UDPCP_CMD_DEFAULTS_SET,
	UDPCP_CMD_SOCK_GET,		/* dump */
	UDPCP_CMD_PEER_NEW,
	UDPCP_CMD_PEER_SET,
	UDPCP_CMD_PEER_DEL,
	UDPCP_CMD_PEER_GET,		/* do and dump */
	UDPCP_CMD_STATS_GET,
	UDPCP_CMD_STATS_RESET,
	UDPCP_CMD_GROUP_GET,		/* dump */
	UDPCP_CMD_GROUP_JOIN,
	UDPCP_CMD_GROUP_LEAVE,
	/* events, on the "events" multicast group */
	UDPCP_CMD_PEER_CREATED_NTF,
	UDPCP_CMD_PEER_REMOVED_NTF,
	UDPCP_CMD_MSG_FAILED_NTF,
	UDPCP_CMD_PEER_RESYNC_NTF,

	__UDPCP_CMD_MAX,
	UDPCP_CMD_MAX = __UDPCP_CMD_MAX - 1
};

/* Top level: each object is a nest. */
enum {
	UDPCP_A_UNSPEC,
	UDPCP_A_DEFAULTS,		/* nest, udpcp_a_defaults */
	UDPCP_A_SOCK,			/* nest, udpcp_a_sock */
	UDPCP_A_PEER,			/* nest, udpcp_a_peer */
	UDPCP_A_STATS,			/* nest, udpcp_a_stats */
	UDPCP_A_GROUP,			/* nest, udpcp_a_group */

	__UDPCP_A_MAX,
	UDPCP_A_MAX = __UDPCP_A_MAX - 1
};

/* Protocol parameters: of a socket, a peer, or the namespace defaults. */
enum {
	UDPCP_A_PARAMS_UNSPEC,
	UDPCP_A_PARAMS_TRANSFER_MODE,	/* u8: UDPCP_NOACK, _ACK, _SINGLE_ACK */
	UDPCP_A_PARAMS_CHECKSUM,	/* u8: 0 off, 1 on */
	UDPCP_A_PARAMS_TX_TIMEOUT,	/* u32, ms */
	UDPCP_A_PARAMS_RX_TIMEOUT,	/* u32, ms */
	UDPCP_A_PARAMS_MAX_TRIES,	/* u8 */
	UDPCP_A_PARAMS_OUTSTANDING_ACKS,/* u8 */

	__UDPCP_A_PARAMS_MAX,
	UDPCP_A_PARAMS_MAX = __UDPCP_A_PARAMS_MAX - 1
};

enum {
	UDPCP_A_DEFAULTS_UNSPEC,
	UDPCP_A_DEFAULTS_PARAMS,	/* nest, udpcp_a_params */
	UDPCP_A_DEFAULTS_MAX_PEERS,	/* u32: peers per socket */
	UDPCP_A_DEFAULTS_PEER_EXPIRY,	/* u32, ms: idle peer state lifetime */

	__UDPCP_A_DEFAULTS_MAX,
	UDPCP_A_DEFAULTS_MAX = __UDPCP_A_DEFAULTS_MAX - 1
};

/*
 * A socket; in requests it selects one by its local port (and address,
 * where several sockets share the port) or by its cookie.
 */
enum {
	UDPCP_A_SOCK_UNSPEC,
	UDPCP_A_SOCK_PAD,
	UDPCP_A_SOCK_COOKIE,		/* u64, unique while the module is loaded */
	UDPCP_A_SOCK_FAMILY,		/* u16: AF_INET or AF_INET6 */
	UDPCP_A_SOCK_LOCAL_IPV4,	/* binary, 4 bytes, network order */
	UDPCP_A_SOCK_LOCAL_IPV6,	/* binary, 16 bytes */
	UDPCP_A_SOCK_LOCAL_PORT,	/* u16, host order */
	UDPCP_A_SOCK_PARAMS,		/* nest, udpcp_a_params */
	UDPCP_A_SOCK_PEER_COUNT,	/* u32 */
	UDPCP_A_SOCK_STATS,		/* nest, udpcp_a_stats */
	UDPCP_A_SOCK_INODE,		/* u64 */
	UDPCP_A_SOCK_UID,		/* u32 */
	UDPCP_A_SOCK_RX_QUEUE_MSGS,	/* u32, messages waiting to be read */
	UDPCP_A_SOCK_RX_QUEUE_BYTES,	/* u32, their octets */
	UDPCP_A_SOCK_TX_QUEUE_MSGS,	/* u32, waiting to be sent or acked */
	UDPCP_A_SOCK_TX_QUEUE_BYTES,	/* u32, their octets */
	UDPCP_A_SOCK_RX_PARTIAL_MEM,	/* u32, memory of partial messages */

	__UDPCP_A_SOCK_MAX,
	UDPCP_A_SOCK_MAX = __UDPCP_A_SOCK_MAX - 1
};

enum {
	UDPCP_A_PEER_UNSPEC,
	UDPCP_A_PEER_PAD,
	UDPCP_A_PEER_REMOTE_IPV4,	/* binary, 4 bytes, network order */
	UDPCP_A_PEER_REMOTE_IPV6,	/* binary, 16 bytes */
	UDPCP_A_PEER_REMOTE_PORT,	/* u16, host order */
	UDPCP_A_PEER_SOCK,		/* nest, udpcp_a_sock: the local socket */
	UDPCP_A_PEER_PARAMS,		/* nest, udpcp_a_params */
	UDPCP_A_PEER_STATE,		/* u8, enum udpcp_peer_state */
	UDPCP_A_PEER_FLAGS,		/* u32, UDPCP_PEER_F_* */
	UDPCP_A_PEER_NEXT_MSG_ID,	/* u16 */
	UDPCP_A_PEER_LAST_RX_MSG_ID,	/* u16 */
	UDPCP_A_PEER_IDLE_MS,		/* u32: ms since last activity */
	UDPCP_A_PEER_RTT_US,		/* u32: smoothed send-to-ack time */
	UDPCP_A_PEER_STATS,		/* nest, udpcp_a_stats */
	UDPCP_A_PEER_MSG_ID,		/* u16: the message of an event */
	UDPCP_A_PEER_REPLACE,		/* flag, peer-new: an existing peer
					 * takes exactly the new parameters
					 */
	/* only once an ICMP error matched a packet in flight to the peer: */
	UDPCP_A_PEER_ICMP_ERRORS,	/* u32: ICMP errors counted */
	UDPCP_A_PEER_ICMP_LAST_ERRNO,	/* u32: the last one's errno */
	UDPCP_A_PEER_ICMP_LAST_MS,	/* u32: ms since the last one */
	UDPCP_A_PEER_RX_QUEUED,		/* u32: bytes (truesize) of its messages
					 * in the receive queue; if any
					 */

	__UDPCP_A_PEER_MAX,
	UDPCP_A_PEER_MAX = __UDPCP_A_PEER_MAX - 1
};

/* Counters; all u64.  Per namespace, socket or peer. */
enum {
	UDPCP_A_STATS_UNSPEC,
	UDPCP_A_STATS_PAD,
	UDPCP_A_STATS_TX_MSGS,
	UDPCP_A_STATS_RX_MSGS,
	UDPCP_A_STATS_TX_BYTES,
	UDPCP_A_STATS_RX_BYTES,
	UDPCP_A_STATS_TX_TIMEOUT,
	UDPCP_A_STATS_RX_TIMEOUT,
	UDPCP_A_STATS_TX_RETRIES,
	UDPCP_A_STATS_RX_DISCARDED_FRAGS,
	UDPCP_A_STATS_CRC_ERRORS,
	UDPCP_A_STATS_RX_DUPLICATES,
	UDPCP_A_STATS_RX_MALFORMED,
	UDPCP_A_STATS_RX_DROPPED,
	UDPCP_A_STATS_RX_REFUSED,
	UDPCP_A_STATS_ICMP_ERRORS,
	UDPCP_A_STATS_PMTU_RESTARTS,

	__UDPCP_A_STATS_MAX,
	UDPCP_A_STATS_MAX = __UDPCP_A_STATS_MAX - 1
};

enum {
	UDPCP_A_GROUP_UNSPEC,
	UDPCP_A_GROUP_SOCK,		/* nest, udpcp_a_sock: selects the socket */
	UDPCP_A_GROUP_IPV4,		/* binary, 4 bytes */
	UDPCP_A_GROUP_IPV6,		/* binary, 16 bytes */
	UDPCP_A_GROUP_IFINDEX,		/* u32 */

	__UDPCP_A_GROUP_MAX,
	UDPCP_A_GROUP_MAX = __UDPCP_A_GROUP_MAX - 1
};

#endif /* _UAPI_LINUX_UDPCP_H */
