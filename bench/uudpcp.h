/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uudpcp: UDPCP in user space over one plain UDP socket -- what an
 * application would write without the kernel module.  Same wire format
 * (Documentation/udpcp-protocol.rst), same sender rules (sync first, one message at a
 * time per destination, at most `outstanding` unacknowledged fragments in
 * ack mode, retransmission, max tries) and receiver rules (Adler-32 check,
 * reassembly, duplicate detection, acks).  Single-threaded and event
 * driven: epoll, recvmmsg/sendmmsg batches, fragments sent straight from
 * the message buffer (iovecs), one copy of a message on send (the
 * application's buffer is free again when uudpcp_send returns, as with
 * sendmsg()), none on a single-fragment receive.
 */
#ifndef UUDPCP_H
#define UUDPCP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define UU_NOACK	0
#define UU_ACK		1
#define UU_SINGLE_ACK	2

struct uudpcp_params {
	int	mode;		/* UU_NOACK, UU_ACK, UU_SINGLE_ACK */
	int	checksum;	/* bool */
	int	tx_timeout_ms;
	int	rx_timeout_ms;
	int	max_tries;
	int	outstanding;	/* unacknowledged fragments, ack mode */
	int	mtu;		/* of the path: fragments fit it unfragmented */
};

struct uudpcp_stats {
	uint64_t	tx_msgs;	/* acknowledged (or sent, no-ack) */
	uint64_t	tx_failed;
	uint64_t	tx_retries;
	uint64_t	tx_packets;
	uint64_t	rx_msgs;
	uint64_t	rx_packets;
	uint64_t	rx_dups;
	uint64_t	rx_bad;		/* malformed or bad checksum */
};

/* A whole message arrived; data is valid during the call only. */
typedef void (*uudpcp_deliver_fn)(void *ctx, const struct sockaddr *from,
				  const void *data, size_t len);
/* A message was acknowledged (err 0) or failed (err ETIMEDOUT). */
typedef void (*uudpcp_done_fn)(void *ctx, const struct sockaddr *to,
			       size_t len, int err);

struct uudpcp;

void uudpcp_default_params(struct uudpcp_params *p);
/* family AF_INET or AF_INET6; bind may be NULL (any address, any port). */
struct uudpcp *uudpcp_open(int family, const struct sockaddr *bind,
			   socklen_t bindlen, const struct uudpcp_params *p);
void uudpcp_close(struct uudpcp *u);
void uudpcp_callbacks(struct uudpcp *u, uudpcp_deliver_fn deliver,
		      uudpcp_done_fn done, void *ctx);
int uudpcp_fd(const struct uudpcp *u);
/* Queue one message; sends at once if the destination is idle. */
int uudpcp_send(struct uudpcp *u, const struct sockaddr *to, socklen_t tolen,
		const void *data, size_t len);
/* Wait up to timeout_ms (-1: forever) for traffic or a timer, handle all. */
int uudpcp_run(struct uudpcp *u, int timeout_ms);
/*
 * For an application's own event loop: uudpcp_fd() became readable (or a
 * timer is due); handles everything waiting.  Returns the ms until the
 * next timer, -1 if none.
 */
int uudpcp_input(struct uudpcp *u);
/* Messages queued or unacknowledged. */
size_t uudpcp_pending(const struct uudpcp *u);
const struct uudpcp_stats *uudpcp_stats(const struct uudpcp *u);

uint32_t uu_adler32(uint32_t adler, const uint8_t *buf, size_t len);

#endif
