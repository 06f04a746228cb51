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
 * The "udpcp" generic netlink family: its enums, and the limits of the
 * parameters that the socket options share (UDPCP_MIN_TIMEOUT_MS ...),
 * rendered from Documentation/netlink/specs/udpcp.yaml.
 */
#include <linux/udpcp_nl.h>

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

/*
 * Option values (the 2011 API's).  The transfer modes UDPCP_NOACK (0),
 * UDPCP_ACK (1) and UDPCP_SINGLE_ACK (2) are the netlink family's too.
 */
#define UDPCP_NOCHECKSUM		3
#define UDPCP_CHECKSUM			4

/* Limits; those of the parameters are in udpcp_nl.h. */
#define UDPCP_MAX_MSGSIZE		65487

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

#endif /* _UAPI_LINUX_UDPCP_H */
