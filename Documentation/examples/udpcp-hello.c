// SPDX-License-Identifier: GPL-2.0
/*
 * udpcp-hello: the smallest useful UDPCP program.
 *
 *   udpcp-hello server PORT         print each message received
 *   udpcp-hello client ADDR PORT    send one message, wait for its ack
 *
 * ADDR may be IPv4 or IPv6; the server listens on a dual-stack socket, so
 * both reach it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <linux/udpcp.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int server(const char *port)
{
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(atoi(port)),
		.sin6_addr = IN6ADDR_ANY_INIT,
	};
	char buf[UDPCP_MAX_MSGSIZE], from[INET6_ADDRSTRLEN];
	struct sockaddr_in6 peer;
	socklen_t plen;
	ssize_t n;
	int fd, off = 0;

	fd = socket(AF_INET6, SOCK_DGRAM, IPPROTO_UDPCP);
	if (fd < 0) {
		perror("socket (is the udpcp module available?)");
		return 1;
	}
	/* Dual stack: IPv4 peers appear as ::ffff:a.b.c.d. */
	setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
	if (bind(fd, (struct sockaddr *)&sin6, sizeof(sin6)) < 0) {
		perror("bind");
		return 1;
	}
	for (;;) {
		plen = sizeof(peer);
		/* One recvfrom() is one whole message, however it was fragmented. */
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&peer, &plen);
		if (n < 0) {
			perror("recvfrom");
			return 1;
		}
		inet_ntop(AF_INET6, &peer.sin6_addr, from, sizeof(from));
		printf("%zd bytes from [%s]:%u: %.*s\n", n, from,
		       ntohs(peer.sin6_port), (int)n, buf);
		fflush(stdout);
	}
}

/* A failed message comes back on the error queue with its ID. */
static int report_failure(int fd)
{
	int failed = 0;
	char ctl[512];
	struct msghdr msg = { .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm;

	if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
		return 0;
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
		struct sock_extended_err *ee = (void *)CMSG_DATA(cm);

		if (ee->ee_origin == SO_EE_ORIGIN_LOCAL) {
			fprintf(stderr, "message %u (%u bytes) failed: %s\n",
				ee->ee_info, ee->ee_data, strerror(ee->ee_errno));
			failed = 1;
		}
	}
	return failed;
}

static int client(const char *addr, const char *port)
{
	static const char text[] = "hello over UDPCP";
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM };
	int mode = UDPCP_ACK, wait_ms = 5000, fd, err;
	struct addrinfo *ai;

	err = getaddrinfo(addr, port, &hints, &ai);
	if (err) {
		fprintf(stderr, "%s: %s\n", addr, gai_strerror(err));
		return 1;
	}
	fd = socket(ai->ai_family, SOCK_DGRAM, IPPROTO_UDPCP);
	if (fd < 0) {
		perror("socket (is the udpcp module available?)");
		return 1;
	}
	setsockopt(fd, SOL_UDPCP, UDPCP_OPT_TRANSFER_MODE, &mode, sizeof(mode));
	if (sendto(fd, text, sizeof(text) - 1, 0, ai->ai_addr, ai->ai_addrlen) < 0) {
		perror("sendto");
		return 1;
	}
	/* Block until the receiver has acknowledged, or the message failed. */
	if (setsockopt(fd, SOL_UDPCP, UDPCP_FLUSH, &wait_ms, sizeof(wait_ms)) < 0) {
		perror("UDPCP_FLUSH");
		return 1;
	}
	freeaddrinfo(ai);
	if (report_failure(fd))
		return 1;
	printf("acknowledged\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "server"))
		return server(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "client"))
		return client(argv[2], argv[3]);
	fprintf(stderr, "usage: %s server PORT | client ADDR PORT\n", argv[0]);
	return 2;
}
