// SPDX-License-Identifier: GPL-2.0
/*
 * udpcp-tool: the guest tests' workhorse against the UDPCP socket API.
 *
 *   udpcp-tool recv -b ADDR PORT [-n COUNT] [-t TIMEOUT_MS] [--rcvbuf N]
 *                   [--join GROUP[%IFNAME]] [--v6only 0|1] [--slow MS]
 *                   [--print] [--list-sizes] [--info]
 *   udpcp-tool send -d ADDR PORT [-b ADDR PORT] [-n COUNT]
 *                   [-s SIZE | --sizes a,b,c] [--mode noack|ack|single-ack]
 *                   [--checksum on|off] [--cmsg] [--tx-timeout MS]
 *                   [--max-try N] [--outstanding N] [--flush MS]
 *                   [--connect] [--recverr] [--info]
 *   (--mode and --checksum also take raw numbers, to try invalid ones;
 *    -s/--sizes go up to 65536, to try messages over UDPCP_MAX_MSGSIZE)
 *   udpcp-tool info [-6]          UDPCP_INFO of a fresh socket
 *   udpcp-tool opts [-4|-6]       option range checks
 *   udpcp-tool pattern SEQ SIZE   write a test message to stdout
 *   udpcp-tool selftest           checks of this tool's own logic
 *
 * recv and send print one JSON line.  Exit codes: 0 success, 1 a check or
 * system call failed, 2 usage, 3 (send) some messages failed, 4 (send)
 * UDPCP_FLUSH timed out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/errqueue.h>
#include <linux/udpcp.h>

#include "pattern.h"

#define RECV_BUF	65536	/* > UDPCP_MAX_MSGSIZE: MSG_TRUNC means a bug */
#define MAX_SIZES	1024
/* Control buffers, aligned for struct cmsghdr. */
#define CTL_BUF(name, len) \
	union { char buf[len]; struct cmsghdr align; } name
/* Sizes past UDPCP_MAX_MSGSIZE are allowed, to see them refused. */
#define MAX_SEND	65536
/* Sequence numbers tracked per source; beyond this a message is bad. */
#define MAX_TRACKED_SEQ	(1u << 24)

static void usage(void)
{
	fputs("usage:\n"
	      "  udpcp-tool recv -b ADDR PORT [-n COUNT] [-t TIMEOUT_MS] [--rcvbuf N]\n"
	      "                  [--join GROUP[%IFNAME]] [--v6only 0|1] [--slow MS]\n"
	      "                  [--print] [--list-sizes] [--info]\n"
	      "  udpcp-tool send -d ADDR PORT [-b ADDR PORT] [-n COUNT]\n"
	      "                  [-s SIZE | --sizes a,b,c] [--mode noack|ack|single-ack]\n"
	      "                  [--checksum on|off] [--cmsg] [--tx-timeout MS]\n"
	      "                  [--max-try N] [--outstanding N] [--flush MS]\n"
	      "                  [--connect] [--recverr] [--info]\n"
	      "                  (--mode/--checksum take raw numbers too;\n"
	      "                   sizes go to 65536 to try oversize messages)\n"
	      "  udpcp-tool info [-6]\n"
	      "  udpcp-tool opts [-4|-6]\n"
	      "  udpcp-tool pattern SEQ SIZE\n"
	      "  udpcp-tool selftest\n", stderr);
	exit(2);
}

static long parse_num(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "bad number '%s' (%ld..%ld)\n", s, min, max);
		exit(2);
	}
	return v;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- addresses ---------------------------------------------------------- */

struct addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

/* Numeric host (with an optional %scope) and port, IPv4 or IPv6. */
static int parse_addr(const char *host, const char *port, struct addr *a)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_DGRAM,
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
	}, *res;
	int err = getaddrinfo(host, port, &hints, &res);

	if (err) {
		fprintf(stderr, "address %s port %s: %s\n", host, port,
			gai_strerror(err));
		return -1;
	}
	memcpy(&a->ss, res->ai_addr, res->ai_addrlen);
	a->len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/* "a.b.c.d:port" or "[v6]:port", for JSON output. */
static const char *addr_str(const struct sockaddr *sa, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		snprintf(buf, len, "%s:%u", host, ntohs(in->sin_port));
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		snprintf(buf, len, "[%s]:%u", host, ntohs(in6->sin6_port));
	} else {
		snprintf(buf, len, "family-%d", sa->sa_family);
	}
	return buf;
}

/* Same source: family, address and port (flowinfo and scope ignored). */
static bool same_source(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET) {
		const struct sockaddr_in *x = (const void *)a, *y = (const void *)b;

		return x->sin_port == y->sin_port &&
		       x->sin_addr.s_addr == y->sin_addr.s_addr;
	}
	if (a->sa_family == AF_INET6) {
		const struct sockaddr_in6 *x = (const void *)a, *y = (const void *)b;

		return x->sin6_port == y->sin6_port &&
		       !memcmp(&x->sin6_addr, &y->sin6_addr, sizeof(x->sin6_addr));
	}
	return false;
}

static int open_udpcp(int family)
{
	int fd = socket(family, SOCK_DGRAM, IPPROTO_UDPCP);

	if (fd < 0)
		perror("socket(IPPROTO_UDPCP)");
	return fd;
}

/* ---- UDPCP_INFO --------------------------------------------------------- */

#define INFO_FIELD(f) { #f, offsetof(struct udpcp_info, udpi_##f), \
			sizeof(((struct udpcp_info *)0)->udpi_##f) }
static const struct {
	const char *name;
	size_t off, size;
} info_fields[] = {
	INFO_FIELD(size), INFO_FIELD(tx_nodes), INFO_FIELD(rx_nodes),
	INFO_FIELD(tx_pending), INFO_FIELD(rx_queued), INFO_FIELD(rtt_us),
	INFO_FIELD(tx_msgs), INFO_FIELD(rx_msgs), INFO_FIELD(tx_bytes),
	INFO_FIELD(rx_bytes), INFO_FIELD(tx_timeout), INFO_FIELD(rx_timeout),
	INFO_FIELD(tx_retries), INFO_FIELD(rx_discarded_frags),
	INFO_FIELD(crc_errors), INFO_FIELD(rx_duplicates),
	INFO_FIELD(rx_malformed), INFO_FIELD(rx_dropped),
	INFO_FIELD(rx_refused),
	INFO_FIELD(icmp_errors),
	INFO_FIELD(pmtu_restarts),
};

/*
 * Print `"info":{...}` with every field the kernel filled in; fields past
 * the returned length (an older kernel) are left out, not shown as 0.
 */
static int print_info(FILE *out, int fd)
{
	struct udpcp_info info;
	socklen_t len = sizeof(info);
	size_t i;
	bool first = true;

	memset(&info, 0, sizeof(info));
	if (getsockopt(fd, SOL_UDPCP, UDPCP_INFO, &info, &len) < 0) {
		fprintf(out, "\"info\":{\"error\":\"%s\"}", strerror(errno));
		return -1;
	}
	fputs("\"info\":{", out);
	for (i = 0; i < sizeof(info_fields) / sizeof(info_fields[0]); i++) {
		const unsigned char *p = (const unsigned char *)&info +
					 info_fields[i].off;
		unsigned long long v;

		if (info_fields[i].off + info_fields[i].size > len)
			break;
		if (info_fields[i].size == 4) {
			uint32_t v32;

			memcpy(&v32, p, 4);
			v = v32;
		} else {
			uint64_t v64;

			memcpy(&v64, p, 8);
			v = v64;
		}
		fprintf(out, "%s\"%s\":%llu", first ? "" : ",",
			info_fields[i].name, v);
		first = false;
	}
	fprintf(out, "%s\"returned_len\":%u}", first ? "" : ",", (unsigned)len);
	return 0;
}

/* ---- exactly-once, in-order per source ------------------------------------ */

struct source {
	struct sockaddr_storage addr;
	uint32_t next;			/* next expected sequence number */
	unsigned char *seen;		/* bitmap of delivered sequence numbers */
	size_t seen_len;		/* bytes */
};

struct tracker {
	struct source *src;
	size_t n;
	unsigned long bad, dups, out_of_order;
};

enum verdict { MSG_OK, MSG_BAD, MSG_DUP, MSG_OUT_OF_ORDER };

static struct source *tracker_source(struct tracker *t,
				     const struct sockaddr *sa, socklen_t len)
{
	struct source *s;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (same_source((const void *)&t->src[i].addr, sa))
			return &t->src[i];
	s = realloc(t->src, (t->n + 1) * sizeof(*s));
	if (!s) {
		perror("realloc");
		exit(1);
	}
	t->src = s;
	s = &t->src[t->n++];
	memset(s, 0, sizeof(*s));
	memcpy(&s->addr, sa, len < sizeof(s->addr) ? len : sizeof(s->addr));
	return s;
}

/*
 * Classify one delivered message.  A short message (< 4 octets) carries no
 * sequence number, so it can only be checked as the expected one.
 */
static enum verdict tracker_check(struct tracker *t, const struct sockaddr *sa,
				  socklen_t salen, const unsigned char *buf,
				  size_t len, uint32_t *seqp)
{
	struct source *s = tracker_source(t, sa, salen);
	uint32_t seq;
	size_t byte;

	if (pattern_seq(buf, len, &seq) < 0)
		seq = s->next;
	*seqp = seq;
	if (pattern_check(buf, len, seq) != len || seq >= MAX_TRACKED_SEQ) {
		t->bad++;
		return MSG_BAD;
	}
	byte = seq / 8;
	if (byte >= s->seen_len) {
		size_t n = byte * 2 + 64;
		unsigned char *p = realloc(s->seen, n);

		if (!p) {
			perror("realloc");
			exit(1);
		}
		memset(p + s->seen_len, 0, n - s->seen_len);
		s->seen = p;
		s->seen_len = n;
	}
	if (s->seen[byte] & (1u << (seq % 8))) {
		t->dups++;
		return MSG_DUP;
	}
	s->seen[byte] |= 1u << (seq % 8);
	if (seq != s->next) {
		t->out_of_order++;
		if (seq > s->next)
			s->next = seq + 1;
		return MSG_OUT_OF_ORDER;
	}
	s->next = seq + 1;
	return MSG_OK;
}

static void tracker_free(struct tracker *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->src[i].seen);
	free(t->src);
	memset(t, 0, sizeof(*t));
}

/* ---- recv ----------------------------------------------------------------- */

static const char *const verdict_name[] = {
	[MSG_OK] = "ok", [MSG_BAD] = "bad", [MSG_DUP] = "dup",
	[MSG_OUT_OF_ORDER] = "out_of_order",
};

static int join_group(int fd, const char *spec)
{
	char buf[128], *ifname;
	struct group_req req;
	struct addr grp;
	int level;

	snprintf(buf, sizeof(buf), "%s", spec);
	memset(&req, 0, sizeof(req));
	ifname = strchr(buf, '%');
	if (ifname) {
		*ifname++ = '\0';
		req.gr_interface = if_nametoindex(ifname);
		if (!req.gr_interface) {
			fprintf(stderr, "interface %s: %s\n", ifname,
				strerror(errno));
			return -1;
		}
	}
	if (parse_addr(buf, "0", &grp) < 0)
		return -1;
	memcpy(&req.gr_group, &grp.ss, grp.len);
	level = grp.ss.ss_family == AF_INET ? IPPROTO_IP : IPPROTO_IPV6;
	if (setsockopt(fd, level, MCAST_JOIN_GROUP, &req, sizeof(req)) < 0) {
		fprintf(stderr, "join %s: %s\n", spec, strerror(errno));
		return -1;
	}
	return 0;
}

static int cmd_recv(int argc, char **argv)
{
	struct addr local = { .len = 0 };
	long count = 0, timeout = 10000, rcvbuf = 0, slow = 0, v6only = -1;
	bool print = false, list_sizes = false, want_info = false;
	const char *join = NULL;
	static unsigned char buf[RECV_BUF];
	struct tracker t = { 0 };
	unsigned long received = 0, truncated = 0, *sizes = NULL;
	unsigned long long bytes = 0;
	int64_t deadline;
	int fd, i, rc;

	for (i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-b") && i + 2 < argc) {
			if (parse_addr(argv[i + 1], argv[i + 2], &local) < 0)
				return 2;
			i += 2;
		} else if (!strcmp(a, "-n") && i + 1 < argc) {
			count = parse_num(argv[++i], 0, LONG_MAX);
		} else if (!strcmp(a, "-t") && i + 1 < argc) {
			timeout = parse_num(argv[++i], 0, INT_MAX);
		} else if (!strcmp(a, "--rcvbuf") && i + 1 < argc) {
			rcvbuf = parse_num(argv[++i], 1, INT_MAX);
		} else if (!strcmp(a, "--join") && i + 1 < argc) {
			join = argv[++i];
		} else if (!strcmp(a, "--v6only") && i + 1 < argc) {
			v6only = parse_num(argv[++i], 0, 1);
		} else if (!strcmp(a, "--slow") && i + 1 < argc) {
			slow = parse_num(argv[++i], 0, 60000);
		} else if (!strcmp(a, "--print")) {
			print = true;
		} else if (!strcmp(a, "--list-sizes")) {
			list_sizes = true;
		} else if (!strcmp(a, "--info")) {
			want_info = true;
		} else {
			usage();
		}
	}
	if (!local.len)
		usage();
	if (list_sizes && count) {
		sizes = calloc(count, sizeof(*sizes));
		if (!sizes)
			return 1;
	}

	fd = open_udpcp(local.ss.ss_family);
	if (fd < 0)
		return 1;
	if (v6only >= 0 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY,
				      &v6only, sizeof(int)) < 0) {
		perror("IPV6_V6ONLY");
		return 1;
	}
	if (rcvbuf) {
		int v = rcvbuf;

		/* FORCE sets exactly this size whatever rmem_max is (root). */
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)) &&
		    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v))) {
			perror("SO_RCVBUF");
			return 1;
		}
	}
	if (bind(fd, (struct sockaddr *)&local.ss, local.len) < 0) {
		perror("bind");
		return 1;
	}
	if (join && join_group(fd, join) < 0)
		return 1;

	deadline = now_ms() + timeout;
	while (!count || (long)received < count) {
		struct sockaddr_storage from;
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr msg = {
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_iov = &iov, .msg_iovlen = 1,
		};
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int64_t left = deadline - now_ms();
		enum verdict v;
		uint32_t seq;
		ssize_t n;

		if (left <= 0)
			break;
		rc = poll(&pfd, 1, (int)left);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0) {
			perror("poll");
			break;
		}
		if (!rc)
			break;
		n = recvmsg(fd, &msg, 0);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			perror("recvmsg");
			break;
		}
		if (msg.msg_flags & MSG_TRUNC) {
			truncated++;
			t.bad++;
			v = MSG_BAD;
			seq = 0;
		} else {
			v = tracker_check(&t, (struct sockaddr *)&from,
					  msg.msg_namelen, buf, n, &seq);
		}
		if (sizes)
			sizes[received] = n;
		received++;
		bytes += n;
		if (print) {
			char src[INET6_ADDRSTRLEN + 16];

			printf("{\"src\":\"%s\",\"seq\":%u,\"len\":%zd,\"verdict\":\"%s\"}\n",
			       addr_str((struct sockaddr *)&from, src, sizeof(src)),
			       seq, n, verdict_name[v]);
			fflush(stdout);
		}
		if (slow)
			usleep(slow * 1000);
	}

	printf("{\"received\":%lu,\"bytes\":%llu,\"bad\":%lu,\"dups\":%lu,"
	       "\"out_of_order\":%lu,\"truncated\":%lu,\"sources\":%zu",
	       received, bytes, t.bad, t.dups, t.out_of_order, truncated, t.n);
	if (sizes) {
		unsigned long k;

		fputs(",\"sizes\":[", stdout);
		for (k = 0; k < received; k++)
			printf("%s%lu", k ? "," : "", sizes[k]);
		putchar(']');
	}
	if (want_info) {
		putchar(',');
		print_info(stdout, fd);
	}
	puts("}");
	rc = (count && (long)received < count) || t.bad || t.dups ||
	     t.out_of_order;
	tracker_free(&t);
	free(sizes);
	close(fd);
	return rc;
}

/* ---- send ----------------------------------------------------------------- */

/* A name, or any number: raw values let tests send invalid ones. */
static int parse_mode(const char *s)
{
	if (*s == '-' || (*s >= '0' && *s <= '9'))
		return parse_num(s, INT_MIN, INT_MAX);
	if (!strcmp(s, "noack"))
		return UDPCP_NOACK;
	if (!strcmp(s, "ack"))
		return UDPCP_ACK;
	if (!strcmp(s, "single-ack"))
		return UDPCP_SINGLE_ACK;
	usage();
	return -1;
}

static int parse_checksum(const char *s)
{
	if (*s == '-' || (*s >= '0' && *s <= '9'))
		return parse_num(s, INT_MIN, INT_MAX);
	if (!strcmp(s, "on"))
		return UDPCP_CHECKSUM;
	if (!strcmp(s, "off"))
		return UDPCP_NOCHECKSUM;
	usage();
	return -1;
}

static size_t parse_sizes(const char *s, unsigned long *sizes)
{
	char *copy = strdup(s), *tok, *save = NULL;
	size_t n = 0;

	if (!copy)
		exit(1);
	for (tok = strtok_r(copy, ",", &save); tok && n < MAX_SIZES;
	     tok = strtok_r(NULL, ",", &save))
		sizes[n++] = parse_num(tok, 0, MAX_SEND);
	free(copy);
	if (!n)
		usage();
	return n;
}

static int set_int(int fd, int opt, const char *name, int v)
{
	if (setsockopt(fd, SOL_UDPCP, opt, &v, sizeof(v)) < 0) {
		fprintf(stderr, "setsockopt %s=%d: %s\n", name, v,
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The control data for one message: a SOL_UDPCP cmsg per option given.
 * Returns its length (0: none).
 */
static size_t build_cmsgs(void *ctl, size_t ctl_len, int mode, int csum)
{
	struct msghdr msg = { .msg_control = ctl, .msg_controllen = ctl_len };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	const struct { int type, val; } opts[] = {
		{ UDPCP_OPT_TRANSFER_MODE, mode },
		{ UDPCP_OPT_CHECKSUM_MODE, csum },
	};
	size_t i, len = 0;

	memset(ctl, 0, ctl_len);
	for (i = 0; i < 2; i++) {
		if (opts[i].val == -1)	/* not given */
			continue;
		c->cmsg_level = SOL_UDPCP;
		c->cmsg_type = opts[i].type;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &opts[i].val, sizeof(int));
		len += CMSG_SPACE(sizeof(int));
		c = CMSG_NXTHDR(&msg, c);	/* NULL after the last slot */
	}
	return len;
}

/* Collect the failed messages from the error queue. */
static void drain_errqueue(int fd, unsigned long *failed, uint32_t *ids,
			   size_t max_ids, unsigned long *other)
{
	for (;;) {
		CTL_BUF(ctl, 512);
		char dst[sizeof(struct sockaddr_storage)];
		struct iovec iov = { dst, 0 };
		struct msghdr msg = {
			.msg_name = dst, .msg_namelen = sizeof(dst),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
		};
		struct cmsghdr *c;

		if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				fprintf(stderr, "MSG_ERRQUEUE: %s\n",
					strerror(errno));
			return;
		}
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
			struct sock_extended_err ee;

			if (!((c->cmsg_level == SOL_IP &&
			       c->cmsg_type == IP_RECVERR) ||
			      (c->cmsg_level == SOL_IPV6 &&
			       c->cmsg_type == IPV6_RECVERR)) ||
			    c->cmsg_len < CMSG_LEN(sizeof(ee)))
				continue;
			memcpy(&ee, CMSG_DATA(c), sizeof(ee));
			/*
			 * A failed message: ETIMEDOUT, or the cause an ICMP
			 * error about it named (ECONNREFUSED, ...).  EMSGSIZE
			 * (path MTU too small) stays an "other".
			 */
			if (ee.ee_origin == SO_EE_ORIGIN_LOCAL &&
			    ee.ee_errno != EMSGSIZE) {
				if (*failed < max_ids)
					ids[*failed] = ee.ee_info;
				(*failed)++;
			} else {
				fprintf(stderr, "error queue: errno %u origin %u info %u\n",
					ee.ee_errno, ee.ee_origin, ee.ee_info);
				(*other)++;
			}
		}
	}
}

/*
 * sendmsg that waits out a full buffer (EAGAIN/ENOBUFS) and signals.  An
 * ETIMEDOUT is an earlier message's failure reported through sk_err, not
 * this message's: count it and send again (the error queue has the detail).
 */
static int send_one(int fd, struct msghdr *msg, unsigned long *async_errors)
{
	int tries = 0;

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };

		if (sendmsg(fd, msg, 0) >= 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno == ETIMEDOUT && ++*async_errors < 1000)
			continue;
		if ((errno != EAGAIN && errno != ENOBUFS) || ++tries > 600)
			return -1;
		poll(&pfd, 1, 100);
	}
}

static int cmd_send(int argc, char **argv)
{
	struct addr dest = { .len = 0 }, local = { .len = 0 };
	long count = 1, tx_timeout = -1, max_try = -1, outstanding = -1;
	long flush = 30000;
	int mode = -1, csum = -1, fd, i, rc = 0, send_errno = 0;
	bool use_cmsg = false, do_connect = false, recverr = false;
	unsigned long sizes[MAX_SIZES] = { 100 }, failed = 0, errq_other = 0;
	unsigned long async_errors = 0;
	unsigned long long bytes = 0;
	size_t nsizes = 1, ctl_len;
	uint32_t failed_ids[256];
	static unsigned char buf[MAX_SEND];
	CTL_BUF(ctl, CMSG_SPACE(sizeof(int)) * 2);
	const char *flush_res = "skipped";
	long sent = 0;

	for (i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-d") && i + 2 < argc) {
			if (parse_addr(argv[i + 1], argv[i + 2], &dest) < 0)
				return 2;
			i += 2;
		} else if (!strcmp(a, "-b") && i + 2 < argc) {
			if (parse_addr(argv[i + 1], argv[i + 2], &local) < 0)
				return 2;
			i += 2;
		} else if (!strcmp(a, "-n") && i + 1 < argc) {
			count = parse_num(argv[++i], 0, UINT32_MAX);
		} else if (!strcmp(a, "-s") && i + 1 < argc) {
			sizes[0] = parse_num(argv[++i], 0, MAX_SEND);
			nsizes = 1;
		} else if (!strcmp(a, "--sizes") && i + 1 < argc) {
			nsizes = parse_sizes(argv[++i], sizes);
		} else if (!strcmp(a, "--mode") && i + 1 < argc) {
			mode = parse_mode(argv[++i]);
		} else if (!strcmp(a, "--checksum") && i + 1 < argc) {
			csum = parse_checksum(argv[++i]);
		} else if (!strcmp(a, "--cmsg")) {
			use_cmsg = true;
		} else if (!strcmp(a, "--tx-timeout") && i + 1 < argc) {
			/* unchecked range: out-of-range values test EINVAL */
			tx_timeout = parse_num(argv[++i], INT_MIN, INT_MAX);
		} else if (!strcmp(a, "--max-try") && i + 1 < argc) {
			max_try = parse_num(argv[++i], INT_MIN, INT_MAX);
		} else if (!strcmp(a, "--outstanding") && i + 1 < argc) {
			outstanding = parse_num(argv[++i], INT_MIN, INT_MAX);
		} else if (!strcmp(a, "--flush") && i + 1 < argc) {
			flush = parse_num(argv[++i], 0, INT_MAX);
		} else if (!strcmp(a, "--connect")) {
			do_connect = true;
		} else if (!strcmp(a, "--recverr")) {
			recverr = true;
		} else if (!strcmp(a, "--info")) {
			/* always printed by send; accepted for symmetry */
		} else {
			usage();
		}
	}
	if (!dest.len || (use_cmsg && mode == -1 && csum == -1))
		usage();

	fd = open_udpcp(dest.ss.ss_family);
	if (fd < 0)
		return 1;
	if (recverr) {
		int one = 1;

		if (dest.ss.ss_family == AF_INET6)
			setsockopt(fd, SOL_IPV6, IPV6_RECVERR, &one, sizeof(one));
		setsockopt(fd, SOL_IP, IP_RECVERR, &one, sizeof(one));
	}
	if (local.len && bind(fd, (struct sockaddr *)&local.ss, local.len) < 0) {
		perror("bind");
		return 1;
	}
	if ((!use_cmsg && mode != -1 &&
	     set_int(fd, UDPCP_OPT_TRANSFER_MODE, "transfer_mode", mode)) ||
	    (!use_cmsg && csum != -1 &&
	     set_int(fd, UDPCP_OPT_CHECKSUM_MODE, "checksum_mode", csum)) ||
	    (tx_timeout != -1 &&
	     set_int(fd, UDPCP_OPT_TX_TIMEOUT, "tx_timeout", tx_timeout)) ||
	    (max_try != -1 && set_int(fd, UDPCP_OPT_MAXTRY, "maxtry", max_try)) ||
	    (outstanding != -1 &&
	     set_int(fd, UDPCP_OPT_OUTSTANDING_ACKS, "outstanding_acks",
		     outstanding)))
		return 1;
	if (do_connect &&
	    connect(fd, (struct sockaddr *)&dest.ss, dest.len) < 0) {
		perror("connect");
		return 1;
	}
	ctl_len = use_cmsg ? build_cmsgs(ctl.buf, sizeof(ctl.buf), mode, csum)
			   : 0;

	for (sent = 0; sent < count; sent++) {
		size_t size = sizes[sent % nsizes];
		struct iovec iov = { buf, size };
		struct msghdr msg = {
			.msg_name = do_connect ? NULL : &dest.ss,
			.msg_namelen = do_connect ? 0 : dest.len,
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctl_len ? ctl.buf : NULL,
			.msg_controllen = ctl_len,
		};

		pattern_fill(buf, size, (uint32_t)sent);
		if (send_one(fd, &msg, &async_errors) < 0) {
			send_errno = errno;
			fprintf(stderr, "sendmsg #%ld (%zu octets): %s\n",
				sent, size, strerror(errno));
			break;
		}
		bytes += size;
	}

	if (flush) {
		int ms = flush;

		if (!setsockopt(fd, SOL_UDPCP, UDPCP_FLUSH, &ms, sizeof(ms)))
			flush_res = "ok";
		else if (errno == ETIMEDOUT)
			flush_res = "timeout";
		else {
			fprintf(stderr, "UDPCP_FLUSH: %s\n", strerror(errno));
			flush_res = "error";
		}
	}
	drain_errqueue(fd, &failed, failed_ids,
		       sizeof(failed_ids) / sizeof(failed_ids[0]), &errq_other);

	printf("{\"sent\":%ld,\"bytes\":%llu,\"failed\":%lu,\"failed_ids\":[",
	       sent, bytes, failed);
	for (i = 0; i < (int)failed && i < 256; i++)
		printf("%s%u", i ? "," : "", failed_ids[i]);
	printf("],\"errq_other\":%lu,\"async_errors\":%lu,\"flush\":\"%s\","
	       "\"send_error\":\"%s\",", errq_other, async_errors, flush_res,
	       send_errno ? strerror(send_errno) : "");
	print_info(stdout, fd);
	puts("}");
	close(fd);

	if (send_errno || !strcmp(flush_res, "error") || errq_other)
		rc = 1;
	else if (failed)
		rc = 3;
	else if (!strcmp(flush_res, "timeout"))
		rc = 4;
	return rc;
}

/* ---- info ----------------------------------------------------------------- */

static int cmd_info(int argc, char **argv)
{
	int family = argc > 2 && !strcmp(argv[2], "-6") ? AF_INET6 : AF_INET;
	int fd = open_udpcp(family), rc;

	if (fd < 0)
		return 1;
	putchar('{');
	rc = print_info(stdout, fd);
	puts("}");
	close(fd);
	return rc ? 1 : 0;
}

/* ---- opts ----------------------------------------------------------------- */

static unsigned int checks, failures;

static void report(bool ok, const char *fam, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void report(bool ok, const char *fam, const char *fmt, ...)
{
	va_list ap;

	checks++;
	failures += !ok;
	printf("%s %s ", ok ? "ok  " : "FAIL", fam);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int get_opt(int fd, int opt, int *v)
{
	socklen_t len = sizeof(*v);

	return getsockopt(fd, SOL_UDPCP, opt, v, &len) < 0 || len != sizeof(*v)
		? -1 : 0;
}

/* A valid value: accepted and read back as set. */
static void check_accept(int fd, const char *fam, const char *name, int opt,
			 int v)
{
	int got = INT_MIN, err = 0;

	if (setsockopt(fd, SOL_UDPCP, opt, &v, sizeof(v)) < 0)
		err = errno;
	else if (get_opt(fd, opt, &got) < 0)
		err = errno;
	report(!err && got == v, fam, "%s=%d accepted, read back %d%s%s", name,
	       v, got, err ? ": " : "", err ? strerror(err) : "");
}

/* An invalid value: EINVAL, and the option keeps its value. */
static void check_reject(int fd, const char *fam, const char *name, int opt,
			 int v)
{
	int before = INT_MIN, after = INT_MIN, err = 0;

	get_opt(fd, opt, &before);
	if (setsockopt(fd, SOL_UDPCP, opt, &v, sizeof(v)) < 0)
		err = errno;
	get_opt(fd, opt, &after);
	report(err == EINVAL && before == after, fam,
	       "%s=%d rejected (%s), value %d -> %d", name, v,
	       err ? strerror(err) : "accepted", before, after);
}

static void opts_family(int family)
{
	const char *fam = family == AF_INET ? "ipv4" : "ipv6";
	static const struct {
		const char *name;
		int opt, min, max;
	} ranges[] = {
		{ "tx_timeout", UDPCP_OPT_TX_TIMEOUT,
		  UDPCP_MIN_TIMEOUT_MS, UDPCP_MAX_TIMEOUT_MS },
		{ "rx_timeout", UDPCP_OPT_RX_TIMEOUT,
		  UDPCP_MIN_TIMEOUT_MS, UDPCP_MAX_TIMEOUT_MS },
		{ "maxtry", UDPCP_OPT_MAXTRY,
		  UDPCP_MIN_MAXTRY, UDPCP_MAX_MAXTRY },
		{ "outstanding_acks", UDPCP_OPT_OUTSTANDING_ACKS,
		  UDPCP_MIN_OUTSTANDING_ACKS, UDPCP_MAX_OUTSTANDING_ACKS },
	};
	/* Every valid value, then invalid ones just outside the set. */
	static const struct {
		const char *name;
		int opt, valid[3], nvalid, invalid[2];
	} enums[] = {
		{ "transfer_mode", UDPCP_OPT_TRANSFER_MODE,
		  { UDPCP_NOACK, UDPCP_ACK, UDPCP_SINGLE_ACK }, 3,
		  { UDPCP_NOACK - 1, UDPCP_SINGLE_ACK + 1 } },
		{ "checksum_mode", UDPCP_OPT_CHECKSUM_MODE,
		  { UDPCP_NOCHECKSUM, UDPCP_CHECKSUM }, 2,
		  { UDPCP_NOCHECKSUM - 1, UDPCP_CHECKSUM + 1 } },
	};
	struct udpcp_info info;
	socklen_t len;
	size_t i;
	int fd = open_udpcp(family), k, v;

	if (fd < 0) {
		report(false, fam, "socket: %s", strerror(errno));
		return;
	}
	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		check_accept(fd, fam, ranges[i].name, ranges[i].opt,
			     ranges[i].min);
		check_accept(fd, fam, ranges[i].name, ranges[i].opt,
			     ranges[i].max);
		check_reject(fd, fam, ranges[i].name, ranges[i].opt,
			     ranges[i].min - 1);
		check_reject(fd, fam, ranges[i].name, ranges[i].opt,
			     ranges[i].max + 1);
	}
	for (i = 0; i < sizeof(enums) / sizeof(enums[0]); i++) {
		for (k = 0; k < enums[i].nvalid; k++)
			check_accept(fd, fam, enums[i].name, enums[i].opt,
				     enums[i].valid[k]);
		for (k = 0; k < 2; k++)
			check_reject(fd, fam, enums[i].name, enums[i].opt,
				     enums[i].invalid[k]);
	}

	/* An int option given fewer than sizeof(int) octets. */
	v = 1;
	errno = 0;
	report(setsockopt(fd, SOL_UDPCP, UDPCP_OPT_MAXTRY, &v, 2) < 0 &&
	       errno == EINVAL, fam, "maxtry with optlen 2 rejected (%s)",
	       errno ? strerror(errno) : "accepted");

	/* UDPCP_INFO: full size, and truncated to what the caller gives. */
	len = sizeof(info);
	memset(&info, 0, sizeof(info));
	k = getsockopt(fd, SOL_UDPCP, UDPCP_INFO, &info, &len);
	report(!k && len == sizeof(info) && info.udpi_size >= sizeof(info), fam,
	       "UDPCP_INFO len %u, udpi_size %u (ours %zu)", (unsigned)len,
	       info.udpi_size, sizeof(info));
	len = sizeof(__u32);
	k = getsockopt(fd, SOL_UDPCP, UDPCP_INFO, &info, &len);
	report(!k && len == sizeof(__u32), fam,
	       "UDPCP_INFO truncated to 4 returns %u", (unsigned)len);
	v = 0;
	report(setsockopt(fd, SOL_UDPCP, UDPCP_INFO, &v, sizeof(v)) < 0, fam,
	       "setsockopt UDPCP_INFO refused");

	/* UDPCP_FLUSH with nothing sent returns at once. */
	v = 1000;
	k = setsockopt(fd, SOL_UDPCP, UDPCP_FLUSH, &v, sizeof(v));
	report(!k, fam, "UDPCP_FLUSH on an idle socket: %s",
	       k ? strerror(errno) : "0");
	close(fd);
}

static int cmd_opts(int argc, char **argv)
{
	bool v4 = true, v6 = true;

	if (argc > 2 && !strcmp(argv[2], "-4"))
		v6 = false;
	else if (argc > 2 && !strcmp(argv[2], "-6"))
		v4 = false;
	else if (argc > 2)
		usage();
	if (v4)
		opts_family(AF_INET);
	if (v6)
		opts_family(AF_INET6);
	printf("opts: %u checks, %u failed\n", checks, failures);
	return failures ? 1 : 0;
}

/* ---- pattern, selftest ---------------------------------------------------- */

static int cmd_pattern(int argc, char **argv)
{
	static unsigned char out[UDPCP_MAX_MSGSIZE];
	uint32_t seq;
	size_t size;

	if (argc != 4)
		usage();
	seq = parse_num(argv[2], 0, UINT32_MAX);
	size = parse_num(argv[3], 0, UDPCP_MAX_MSGSIZE);
	pattern_fill(out, size, seq);
	return fwrite(out, 1, size, stdout) == size ? 0 : 1;
}

/* The tracker's verdicts on a scripted sequence of messages. */
static int cmd_selftest(void)
{
	static unsigned char m[3000];
	struct addr a, b, mapped;
	struct tracker t = { 0 };
	const struct {
		struct addr *src;
		uint32_t seq;
		size_t len;
		bool corrupt;
		enum verdict want;
	} steps[] = {
		{ &a, 0, 100, false, MSG_OK },
		{ &a, 1, 3000, false, MSG_OK },
		{ &a, 1, 3000, false, MSG_DUP },
		{ &b, 0, 2, false, MSG_OK },		/* short: seq 0 implied */
		{ &b, 1, 0, false, MSG_OK },		/* empty: seq 1 implied */
		{ &a, 3, 10, false, MSG_OUT_OF_ORDER },	/* 2 skipped */
		{ &a, 2, 10, false, MSG_OUT_OF_ORDER },	/* late */
		{ &a, 4, 10, false, MSG_OK },
		{ &a, 5, 1000, true, MSG_BAD },
		{ &mapped, 0, 4, false, MSG_OK },	/* ::ffff:127.0.0.1 is apart */
		{ &a, MAX_TRACKED_SEQ, 8, false, MSG_BAD },
	};
	unsigned int pass = 0, fail = 0;
	size_t i, ctl_len;
	CTL_BUF(ctl, CMSG_SPACE(sizeof(int)) * 2);
	struct msghdr msg = { .msg_control = ctl.buf };
	struct cmsghdr *c;
	int n = 0;

	if (parse_addr("127.0.0.1", "5000", &a) || parse_addr("::1", "5000", &b) ||
	    parse_addr("::ffff:127.0.0.1", "5000", &mapped))
		return 1;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		uint32_t seq;
		enum verdict v;

		pattern_fill(m, steps[i].len, steps[i].seq);
		if (steps[i].corrupt)
			m[steps[i].len - 1] ^= 1;
		v = tracker_check(&t, (struct sockaddr *)&steps[i].src->ss,
				  steps[i].src->len, m, steps[i].len, &seq);
		if (v == steps[i].want && seq == steps[i].seq) {
			pass++;
		} else {
			fail++;
			printf("FAIL tracker step %zu: verdict %s seq %u\n", i,
			       verdict_name[v], seq);
		}
	}
	if (t.dups == 1 && t.out_of_order == 2 && t.bad == 2 && t.n == 3)
		pass++;
	else
		fail++, printf("FAIL tracker totals\n");
	tracker_free(&t);

	/* Known pattern octets (also checked from Python). */
	if (pattern_byte(0x01020304, 0) == 1 && pattern_byte(0x01020304, 3) == 4 &&
	    pattern_byte(5, 4) == (5 * 7 + 4 * 13) % 256 &&
	    pattern_byte(5, 300) == (5 * 7 + 300 * 13 + 29) % 256)
		pass++;
	else
		fail++, printf("FAIL pattern_byte\n");

	/* Both cmsgs, each an int, in order; and only one when one is set. */
	ctl_len = build_cmsgs(ctl.buf, sizeof(ctl.buf), UDPCP_SINGLE_ACK,
			      UDPCP_CHECKSUM);
	msg.msg_controllen = ctl_len;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		int v;

		memcpy(&v, CMSG_DATA(c), sizeof(v));
		if (c->cmsg_level == SOL_UDPCP && c->cmsg_len == CMSG_LEN(sizeof(int)) &&
		    ((n == 0 && c->cmsg_type == UDPCP_OPT_TRANSFER_MODE &&
		      v == UDPCP_SINGLE_ACK) ||
		     (n == 1 && c->cmsg_type == UDPCP_OPT_CHECKSUM_MODE &&
		      v == UDPCP_CHECKSUM)))
			n++;
		else
			n = 100;
	}
	if (n == 2 && build_cmsgs(ctl.buf, sizeof(ctl.buf), -1, UDPCP_NOCHECKSUM) ==
		      CMSG_SPACE(sizeof(int)))
		pass++;
	else
		fail++, printf("FAIL build_cmsgs\n");

	printf("selftest: %u passed, %u failed\n", pass, fail);
	return fail ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "recv"))
		return cmd_recv(argc, argv);
	if (!strcmp(argv[1], "send"))
		return cmd_send(argc, argv);
	if (!strcmp(argv[1], "info"))
		return cmd_info(argc, argv);
	if (!strcmp(argv[1], "opts"))
		return cmd_opts(argc, argv);
	if (!strcmp(argv[1], "pattern"))
		return cmd_pattern(argc, argv);
	if (!strcmp(argv[1], "selftest"))
		return cmd_selftest();
	usage();
	return 2;
}
