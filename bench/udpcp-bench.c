// SPDX-License-Identifier: GPL-2.0
/*
 * udpcp-bench: UDPCP (kernel module and user space) against plain UDP and
 * TCP, between two network namespaces.  Run the server in one namespace
 * and one client invocation per figure in the other:
 *
 *   udpcp-bench server [-b ADDR] [-p CTLPORT]
 *   udpcp-bench client -c CTLADDR[:PORT] -t TEST -a DSTADDR [-p PORT]
 *                      [-s SIZE] [-n PEERS] [-T SECS] [-r REPS] [-w SECS]
 *                      [--checksum on|off] [--peer-impl kernel|user] [--tag T]
 *   udpcp-bench mem -a DSTADDR [-a DSTADDR] [-p PORT] [-n PEERS] [-r REPS]
 *                   [-S SOCKETS]
 *   udpcp-bench selftest          user-space UDPCP over loopback (no module)
 *
 * The client prints one JSON object per figure.  TEST is one of
 *   udp-oneway       UDP datagrams blasted for SECS, counted by the receiver
 *   udpcp-noack      the same over UDPCP in no-ack mode
 *   udp-rr           UDP request (SIZE) / response (12 B, an ack's size);
 *                    with PEERS > 1 one request in flight per destination
 *   tcp-rr           the same over one TCP connection
 *   udpcp-ack        UDPCP ack mode, messages queued by blocking sendmsg,
 *                    acknowledged messages/s from UDPCP_INFO; PEERS
 *                    destinations served round robin
 *   udpcp-single     the same in single-ack mode
 *   udpcp-ack-lat    one message, UDPCP_FLUSH until acked, repeat: latency
 *   udpcp-single-lat
 *   uudpcp-ack       bench/uudpcp.c (UDPCP in user space over UDP), 64
 *                    messages kept queued; uudpcp-single likewise
 *   uudpcp-ack-lat   one message at a time; uudpcp-single-lat likewise
 * Every figure: a warm-up of -w SECS, then REPS runs of SECS; per run the
 * rate, the guest's CPU time per message (/proc/stat: every CPU, softirq
 * included) and, where there are round trips, p50/p99 latency.
 *
 * mem: bytes of kernel memory per idle UDPCP peer (one socket, PEERS
 * destinations, one no-ack message each) and per UDPCP and UDP socket:
 * slab objects in use (/proc/slabinfo) + Percpu + VmallocUsed
 * (/proc/meminfo); slab pages (meminfo Slab) reported beside.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <linux/udpcp.h>

#include "uudpcp.h"

#define CTL_PORT	19999
#define DATA_PORT	20000
#define RESP_LEN	12		/* a response is as long as an ack */
#define MSG_MAX		65536
#define BIG_BUF		(8 << 20)	/* socket buffers of the benchmark */
#define UU_DEPTH	64		/* uudpcp messages kept queued */
#define MAX_PEERS	4096

static const char *prog = "udpcp-bench";

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void raise_nofile(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return;
	r.rlim_cur = r.rlim_max;
	if (r.rlim_max < 65536) {
		struct rlimit want = { 65536, 65536 };

		if (!setrlimit(RLIMIT_NOFILE, &want))
			return;
	}
	setrlimit(RLIMIT_NOFILE, &r);
}

/* addr + port -> sockaddr; the family follows the address. */
static socklen_t mkaddr(const char *addr, int port, struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		return sizeof(*sin);
	}
	if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		return sizeof(*sin6);
	}
	die("bad address %s", addr);
	return 0;
}

static int sa_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)ss)->sin_port);
	return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
}

static void bufsize(int fd, int opt, int size)
{
	int force = opt == SO_RCVBUF ? SO_RCVBUFFORCE : SO_SNDBUFFORCE;

	if (setsockopt(fd, SOL_SOCKET, force, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, opt, &size, sizeof(size));
}

static void set_int(int fd, int level, int opt, int val, const char *what)
{
	if (setsockopt(fd, level, opt, &val, sizeof(val)))
		die("setsockopt %s: %s", what, strerror(errno));
}

/* --- /proc/stat: busy time of the whole guest ------------------------ */
struct cpustat {
	unsigned long long busy, total;
};

static void cpustat_read(struct cpustat *c)
{
	unsigned long long v[10] = {0};
	FILE *f = fopen("/proc/stat", "r");

	c->busy = c->total = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9]) >= 8) {
		/* guest/guest_nice are already in user/nice. */
		c->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
		c->total = c->busy + v[3] + v[4];
	}
	fclose(f);
}

/* µs of CPU (all CPUs) per message between two readings. */
static double cpu_us_per(const struct cpustat *a, const struct cpustat *b,
			 double msgs)
{
	double hz = sysconf(_SC_CLK_TCK);

	if (msgs <= 0)
		return 0;
	return (double)(b->busy - a->busy) / hz * 1e6 / msgs;
}

/* --- control connection: one line each way ----------------------------- */
struct line {
	char	buf[512];
	size_t	len;
};

/* Returns 1 with a line (NUL-terminated, no newline) in l->buf, 0 if none
 * yet (non-blocking fd), -1 on EOF/error. */
static int line_read(int fd, struct line *l, char *out, size_t outlen)
{
	for (;;) {
		char *nl = memchr(l->buf, '\n', l->len);
		ssize_t n;

		if (nl) {
			size_t k = nl - l->buf;

			snprintf(out, outlen, "%.*s", (int)k, l->buf);
			memmove(l->buf, nl + 1, l->len - k - 1);
			l->len -= k + 1;
			return 1;
		}
		if (l->len == sizeof(l->buf))
			return -1;
		n = read(fd, l->buf + l->len, sizeof(l->buf) - l->len);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n <= 0)
			return -1;
		l->len += n;
	}
}

static void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= n;
	}
}

static void ctl_printf(int fd, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	write_all(fd, buf, n);
}

/* ====================================================================== */
/* server                                                                 */
/* ====================================================================== */
enum kind { K_SINK, K_ECHO, K_UUSINK, K_TCPECHO };

struct dsock {
	int		fd;
	int		listen;		/* TCP listener */
	struct uudpcp	*uu;
	size_t		partial;	/* TCP: bytes of the current request */
};

struct srv {
	enum kind	kind;
	int		udpcp;		/* proto udpcp (else udp) */
	int		size;		/* TCP request size */
	int		resp;
	int		ep;
	struct dsock	*ds;
	int		nds, cap;
	unsigned long long msgs, bytes;
	uint8_t		*buf;
};

static void uu_deliver(void *ctx, const struct sockaddr *from, const void *data,
		       size_t len)
{
	struct srv *s = ctx;

	(void)from;
	(void)data;
	s->msgs++;
	s->bytes += len;
}

static int srv_add(struct srv *s, int fd, int listen, struct uudpcp *uu)
{
	struct epoll_event ev = { .events = EPOLLIN };

	if (s->nds == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->ds = realloc(s->ds, s->cap * sizeof(*s->ds));
		if (!s->ds)
			die("out of memory");
	}
	s->ds[s->nds] = (struct dsock){ .fd = fd, .listen = listen, .uu = uu };
	ev.data.u64 = s->nds + 1;	/* 0 is the control connection */
	if (epoll_ctl(s->ep, EPOLL_CTL_ADD, fd, &ev))
		die("epoll_ctl: %s", strerror(errno));
	return s->nds++;
}

static const char *kv(const char *line, const char *key, const char *def)
{
	static char val[128];
	size_t kl = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == line || p[-1] == ' ') && p[kl] == '=') {
			sscanf(p + kl + 1, "%127s", val);
			return val;
		}
		p += kl;
	}
	return def;
}

static const char *srv_setup(struct srv *s, const char *line)
{
	char a[128], k[32];
	int port = atoi(kv(line, "port", "20000"));
	int n = atoi(kv(line, "n", "1"));
	struct sockaddr_storage ss;
	socklen_t len;

	snprintf(k, sizeof(k), "%s", kv(line, "kind", "sink"));
	snprintf(a, sizeof(a), "%s", kv(line, "addr", ""));
	s->udpcp = !strcmp(kv(line, "proto", "udp"), "udpcp");
	s->size = atoi(kv(line, "size", "64"));
	s->resp = atoi(kv(line, "resp", "12"));
	if (!strcmp(k, "sink"))
		s->kind = K_SINK;
	else if (!strcmp(k, "echo"))
		s->kind = K_ECHO;
	else if (!strcmp(k, "uusink"))
		s->kind = K_UUSINK;
	else if (!strcmp(k, "tcpecho"))
		s->kind = K_TCPECHO;
	else
		return "unknown kind";
	if (n < 1 || n > MAX_PEERS)
		return "bad n";
	for (int i = 0; i < n; i++) {
		int fd;

		len = mkaddr(a, port + i, &ss);
		if (s->kind == K_UUSINK) {
			struct uudpcp_params p;
			struct uudpcp *uu;

			uudpcp_default_params(&p);
			uu = uudpcp_open(ss.ss_family, (struct sockaddr *)&ss, len, &p);
			if (!uu)
				return "uudpcp_open failed";
			uudpcp_callbacks(uu, uu_deliver, NULL, s);
			bufsize(uudpcp_fd(uu), SO_RCVBUF, BIG_BUF);
			srv_add(s, uudpcp_fd(uu), 0, uu);
			continue;
		}
		if (s->kind == K_TCPECHO) {
			fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
			if (fd < 0)
				return "socket failed";
			set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
			if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 16)) {
				close(fd);
				return "tcp bind/listen failed";
			}
			srv_add(s, fd, 1, NULL);
			continue;
		}
		fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			    s->udpcp ? IPPROTO_UDPCP : IPPROTO_UDP);
		if (fd < 0)
			return s->udpcp ? "UDPCP socket failed" : "socket failed";
		bufsize(fd, SO_RCVBUF, BIG_BUF);
		if (bind(fd, (struct sockaddr *)&ss, len)) {
			close(fd);
			return "bind failed";
		}
		srv_add(s, fd, 0, NULL);
	}
	return NULL;
}

static void srv_teardown(struct srv *s)
{
	for (int i = 0; i < s->nds; i++) {
		if (s->ds[i].uu)
			uudpcp_close(s->ds[i].uu);
		else
			close(s->ds[i].fd);
	}
	s->nds = 0;
}

static void srv_data(struct srv *s, int i)
{
	struct dsock *d = &s->ds[i];
	struct sockaddr_storage from;
	socklen_t fl;
	ssize_t n;

	if (d->uu) {
		uudpcp_input(d->uu);
		return;
	}
	if (d->listen) {
		int c = accept4(d->fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (c >= 0) {
			set_int(c, IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY");
			srv_add(s, c, 0, NULL);
		}
		return;
	}
	if (s->kind == K_TCPECHO) {
		for (;;) {
			n = recv(d->fd, s->buf, MSG_MAX, MSG_DONTWAIT);
			if (n <= 0) {
				if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
					epoll_ctl(s->ep, EPOLL_CTL_DEL, d->fd, NULL);
					close(d->fd);
					d->fd = -1;
					/* keep the slot; teardown skips -1 */
				}
				return;
			}
			s->bytes += n;
			d->partial += n;
			while (d->partial >= (size_t)s->size) {
				d->partial -= s->size;
				s->msgs++;
				write_all(d->fd, s->buf, s->resp);
			}
		}
	}
	for (;;) {
		fl = sizeof(from);
		n = recvfrom(d->fd, s->buf, MSG_MAX, MSG_DONTWAIT,
			     (struct sockaddr *)&from, &fl);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		s->msgs++;
		s->bytes += n;
		if (s->kind == K_ECHO)
			sendto(d->fd, s->buf, s->resp, 0, (struct sockaddr *)&from, fl);
	}
}

static void srv_drain(struct srv *s)
{
	for (int i = 0; i < s->nds; i++)
		if (s->ds[i].fd >= 0 && !s->ds[i].listen)
			srv_data(s, i);
}

static void serve_conn(struct srv *s, int c)
{
	struct epoll_event ev[64] = {{ .events = EPOLLIN }};
	struct line l = { .len = 0 };
	char cmd[512];
	const char *err;
	int r;

	/* SETUP first, blocking */
	while ((r = line_read(c, &l, cmd, sizeof(cmd))) == 0)
		;
	if (r < 0)
		return;
	if (strncmp(cmd, "SETUP", 5)) {
		ctl_printf(c, "ERR expected SETUP\n");
		return;
	}
	s->msgs = s->bytes = 0;
	s->ep = epoll_create1(EPOLL_CLOEXEC);
	ev[0].data.u64 = 0;
	epoll_ctl(s->ep, EPOLL_CTL_ADD, c, &ev[0]);
	err = srv_setup(s, cmd);
	if (err) {
		ctl_printf(c, "ERR %s: %s\n", err, strerror(errno));
		goto out;
	}
	fcntl(c, F_SETFL, O_NONBLOCK);
	ctl_printf(c, "OK\n");
	for (;;) {
		int n = epoll_wait(s->ep, ev, 64, 100);

		if (n < 0 && errno != EINTR)
			break;
		for (int i = 0; i < n; i++) {
			if (ev[i].data.u64)
				srv_data(s, ev[i].data.u64 - 1);
		}
		for (int i = 0; i < n; i++) {
			if (ev[i].data.u64)
				continue;
			while ((r = line_read(c, &l, cmd, sizeof(cmd))) == 1) {
				if (!strcmp(cmd, "MARK")) {
					srv_drain(s);
					ctl_printf(c, "COUNT %llu %llu\n", s->msgs, s->bytes);
				} else if (!strcmp(cmd, "END")) {
					/* sockets closed before the reply: the next
					 * test (or rmmod) finds them gone */
					srv_drain(s);
					srv_teardown(s);
					ctl_printf(c, "BYE %llu %llu\n", s->msgs, s->bytes);
					goto out;
				} else {
					ctl_printf(c, "ERR unknown %s\n", cmd);
				}
			}
			if (r < 0)
				goto out;
		}
		if (s->kind == K_UUSINK && n == 0)
			for (int i = 0; i < s->nds; i++)
				uudpcp_input(s->ds[i].uu);
	}
out:
	srv_teardown(s);
	close(s->ep);
}

static int cmd_server(int argc, char **argv)
{
	const char *addr = "0.0.0.0";
	int port = CTL_PORT, opt, lfd;
	struct sockaddr_storage ss;
	socklen_t len;
	struct srv s = { 0 };

	while ((opt = getopt(argc, argv, "b:p:")) != -1) {
		switch (opt) {
		case 'b': addr = optarg; break;
		case 'p': port = atoi(optarg); break;
		default: die("usage: server [-b ADDR] [-p CTLPORT]");
		}
	}
	raise_nofile();
	signal(SIGPIPE, SIG_IGN);
	s.buf = malloc(MSG_MAX);
	len = mkaddr(addr, port, &ss);
	lfd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		die("socket: %s", strerror(errno));
	set_int(lfd, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
	if (bind(lfd, (struct sockaddr *)&ss, len) || listen(lfd, 4))
		die("bind/listen %s:%d: %s", addr, port, strerror(errno));
	for (;;) {
		int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

		if (c < 0) {
			if (errno == EINTR)
				continue;
			die("accept: %s", strerror(errno));
		}
		set_int(c, IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY");
		serve_conn(&s, c);
		close(c);
	}
	return 0;
}

/* ====================================================================== */
/* client                                                                 */
/* ====================================================================== */
struct cfg {
	const char	*test;
	const char	*ctl;
	const char	*dst;
	int		port;
	int		size;
	int		peers;
	double		secs, warm;
	int		reps;
	int		csum;		/* -1: default */
	int		peer_user;	/* -1 default, 0 kernel, 1 user */
	const char	*tag;		/* copied into the output */
};

struct samples {
	double	*v;
	size_t	n, cap;
};

static void samples_add(struct samples *s, double x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			die("out of memory");
	}
	s->v[s->n++] = x;
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(double *v, size_t n, double p)
{
	size_t i;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), dcmp);
	i = (size_t)ceil(p / 100.0 * n);
	return v[i ? i - 1 : 0];
}

/* Per-test state. */
struct client {
	struct cfg	*c;
	int		fam;
	int		ctl;
	struct line	l;
	struct sockaddr_storage dst[MAX_PEERS];
	socklen_t	dlen;
	int		fd;		/* data socket */
	char		*msg;
	/* results of one traffic run */
	unsigned long long sent, done;
	struct samples	lat;
	/* uudpcp */
	struct uudpcp	*uu;
	bool		uu_refill;
	int		uu_mode;
	double		*uu_t0;		/* per peer: send time (latency) */
	/* udp-rr */
	double		*rr_t0;
};

static void ctl_cmd(struct client *cl, const char *cmd, char *reply, size_t len)
{
	int r;

	ctl_printf(cl->ctl, "%s\n", cmd);
	while ((r = line_read(cl->ctl, &cl->l, reply, len)) == 0)
		;
	if (r < 0)
		die("control connection lost (%s)", cmd);
	if (!strncmp(reply, "ERR", 3))
		die("server: %s", reply);
}

static void ctl_mark(struct client *cl, unsigned long long *msgs,
		     unsigned long long *bytes)
{
	char r[512];

	ctl_cmd(cl, "MARK", r, sizeof(r));
	if (sscanf(r, "COUNT %llu %llu", msgs, bytes) != 2)
		die("bad MARK reply: %s", r);
}

static bool is(const struct cfg *c, const char *t)
{
	return !strcmp(c->test, t);
}

static bool starts(const struct cfg *c, const char *p)
{
	return !strncmp(c->test, p, strlen(p));
}

static bool ends(const struct cfg *c, const char *sfx)
{
	size_t a = strlen(c->test), b = strlen(sfx);

	return a >= b && !strcmp(c->test + a - b, sfx);
}

static int udpcp_socket(int fam, int mode, int csum)
{
	int fd = socket(fam, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDPCP);

	if (fd < 0)
		die("socket(IPPROTO_UDPCP): %s (module loaded?)", strerror(errno));
	set_int(fd, SOL_UDPCP, UDPCP_OPT_TRANSFER_MODE, mode, "transfer mode");
	if (csum >= 0)
		set_int(fd, SOL_UDPCP, UDPCP_OPT_CHECKSUM_MODE,
			csum ? UDPCP_CHECKSUM : UDPCP_NOCHECKSUM, "checksum");
	return fd;
}

static void udpcp_info(int fd, struct udpcp_info *info)
{
	socklen_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	if (getsockopt(fd, SOL_UDPCP, UDPCP_INFO, info, &len))
		die("UDPCP_INFO: %s", strerror(errno));
}

static void set_timeo(int fd, int opt, double secs)
{
	struct timeval tv = { (time_t)secs, (suseconds_t)((secs - (time_t)secs) * 1e6) };

	setsockopt(fd, SOL_SOCKET, opt, &tv, sizeof(tv));
}

/* --- traffic generators: run for `secs`, fill cl->sent/done/lat ------- */

static void run_oneway(struct client *cl, double secs)
{
	double end = now() + secs;
	unsigned int i = 0;

	for (;;) {
		for (int k = 0; k < 16; k++) {
			if (sendto(cl->fd, cl->msg, cl->c->size, 0,
				   (struct sockaddr *)&cl->dst[i], cl->dlen) >= 0)
				cl->sent++;
			if (++i == (unsigned int)cl->c->peers)
				i = 0;
		}
		if (now() >= end)
			break;
	}
}

/* UDP: one request in flight per destination. */
static void run_udp_rr(struct client *cl, double secs)
{
	struct sockaddr_storage from;
	double t, end = now() + secs;
	int n = cl->c->peers;
	char resp[64];

	for (int i = 0; i < n; i++) {
		cl->rr_t0[i] = now();
		sendto(cl->fd, cl->msg, cl->c->size, 0,
		       (struct sockaddr *)&cl->dst[i], cl->dlen);
		cl->sent++;
	}
	for (;;) {
		socklen_t fl = sizeof(from);
		ssize_t r = recvfrom(cl->fd, resp, sizeof(resp), 0,
				     (struct sockaddr *)&from, &fl);
		int i;

		t = now();
		if (r >= 0) {
			i = sa_port(&from) - cl->c->port;
			if (i >= 0 && i < n && cl->rr_t0[i] > 0) {
				cl->done++;
				samples_add(&cl->lat, (t - cl->rr_t0[i]) * 1e6);
				cl->rr_t0[i] = 0;
				if (t < end) {
					cl->rr_t0[i] = t;
					sendto(cl->fd, cl->msg, cl->c->size, 0,
					       (struct sockaddr *)&cl->dst[i], cl->dlen);
					cl->sent++;
				}
			}
		} else if (t < end) {
			/* lost: resend what waits for too long */
			for (i = 0; i < n; i++) {
				if (cl->rr_t0[i] > 0 && t - cl->rr_t0[i] > 0.2) {
					cl->rr_t0[i] = t;
					sendto(cl->fd, cl->msg, cl->c->size, 0,
					       (struct sockaddr *)&cl->dst[i], cl->dlen);
				}
			}
		}
		if (t >= end) {
			bool any = false;

			for (i = 0; i < n; i++)
				any |= cl->rr_t0[i] > 0;
			/* the last responses, briefly */
			if (!any || t >= end + 0.2)
				break;
		}
	}
	for (int i = 0; i < n; i++)
		cl->rr_t0[i] = 0;
}

static void run_tcp_rr(struct client *cl, double secs)
{
	double t0, end = now() + secs;
	char resp[RESP_LEN];

	do {
		size_t got = 0;

		t0 = now();
		write_all(cl->fd, cl->msg, cl->c->size);
		cl->sent++;
		while (got < sizeof(resp)) {
			ssize_t r = read(cl->fd, resp + got, sizeof(resp) - got);

			if (r <= 0)
				die("tcp-rr: connection lost");
			got += r;
		}
		cl->done++;
		samples_add(&cl->lat, (now() - t0) * 1e6);
	} while (now() < end);
}

/* Kernel UDPCP, queued: blocking sendmsg keeps the socket's queue full. */
static void run_kqueue(struct client *cl, double secs)
{
	double end = now() + secs;
	unsigned int i = 0;

	for (;;) {
		for (int k = 0; k < 8; k++) {
			if (sendto(cl->fd, cl->msg, cl->c->size, 0,
				   (struct sockaddr *)&cl->dst[i], cl->dlen) >= 0)
				cl->sent++;
			if (++i == (unsigned int)cl->c->peers)
				i = 0;
		}
		if (now() >= end)
			break;
	}
}

static void kflush(struct client *cl, int ms)
{
	int v = ms;

	if (setsockopt(cl->fd, SOL_UDPCP, UDPCP_FLUSH, &v, sizeof(v)) && errno != EINTR)
		fprintf(stderr, "%s: UDPCP_FLUSH: %s\n", prog, strerror(errno));
}

/* Kernel UDPCP, one message at a time: send, UDPCP_FLUSH, repeat. */
static void run_klat(struct client *cl, double secs)
{
	double t0, end = now() + secs;
	unsigned int i = 0;

	do {
		int v = 5000;

		t0 = now();
		if (sendto(cl->fd, cl->msg, cl->c->size, 0,
			   (struct sockaddr *)&cl->dst[i], cl->dlen) < 0)
			die("send: %s", strerror(errno));
		cl->sent++;
		if (setsockopt(cl->fd, SOL_UDPCP, UDPCP_FLUSH, &v, sizeof(v)))
			die("UDPCP_FLUSH: %s", strerror(errno));
		samples_add(&cl->lat, (now() - t0) * 1e6);
		cl->done++;
		if (++i == (unsigned int)cl->c->peers)
			i = 0;
	} while (now() < end);
}

static void uu_done(void *ctx, const struct sockaddr *to, size_t len, int err)
{
	struct client *cl = ctx;

	(void)len;
	if (!err)
		cl->done++;
	if (cl->uu_t0) {
		samples_add(&cl->lat, (now() - cl->uu_t0[0]) * 1e6);
		return;
	}
	if (cl->uu_refill) {
		if (!uudpcp_send(cl->uu, to, cl->dlen, cl->msg, cl->c->size))
			cl->sent++;
	}
}

static void run_uuqueue(struct client *cl, double secs)
{
	double end = now() + secs;

	cl->uu_refill = true;
	for (int i = 0; i < UU_DEPTH * cl->c->peers; i++) {
		if (!uudpcp_send(cl->uu, (struct sockaddr *)&cl->dst[i % cl->c->peers],
				 cl->dlen, cl->msg, cl->c->size))
			cl->sent++;
	}
	while (now() < end)
		uudpcp_run(cl->uu, 10);
	cl->uu_refill = false;
}

static void uu_drain(struct client *cl, double secs)
{
	double end = now() + secs;

	while (uudpcp_pending(cl->uu) && now() < end)
		uudpcp_run(cl->uu, 10);
}

static void run_uulat(struct client *cl, double secs)
{
	double t0, end = now() + secs;

	do {
		t0 = now();
		cl->uu_t0[0] = t0;
		if (uudpcp_send(cl->uu, (struct sockaddr *)&cl->dst[0], cl->dlen,
				cl->msg, cl->c->size))
			die("uudpcp_send failed");
		cl->sent++;
		while (uudpcp_pending(cl->uu))
			uudpcp_run(cl->uu, 100);
	} while (now() < end);
}

/* --- JSON output --------------------------------------------------------- */
static void jarr(const char *name, const double *v, int n, int prec)
{
	double s[64];

	printf(",\"%s\":[", name);
	for (int i = 0; i < n; i++)
		printf("%s%.*f", i ? "," : "", prec, v[i]);
	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), dcmp);
	printf("],\"%s_med\":%.*f,\"%s_min\":%.*f,\"%s_max\":%.*f", name, prec,
	       n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2, name, prec, s[0],
	       name, prec, s[n - 1]);
}

/* ------------------------------------------------------------------------ */
static int cmd_client(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "checksum", required_argument, NULL, 'C' },
		{ "peer-impl", required_argument, NULL, 'P' },
		{ "tag", required_argument, NULL, 'G' },
		{ NULL, 0, NULL, 0 },
	};
	struct cfg c = { .port = DATA_PORT, .size = 64, .peers = 1, .secs = 2,
			 .warm = 1, .reps = 3, .csum = -1, .peer_user = -1 };
	struct client *cl = calloc(1, sizeof(*cl));
	double rate[64], cpu[64], p50[64], p99[64], srate[64];
	unsigned long long fails = 0, retries = 0, sent_total = 0, recv_total = 0;
	unsigned long long m0, b0, m1, b1, bytes_total = 0;
	struct udpcp_info i0, i1;
	char setup[512], r[512], ctladdr[128];
	const char *kind, *proto = "udp";
	struct sockaddr_storage ss;
	socklen_t len;
	int opt, ctlport = CTL_PORT, mode = 0;
	bool kernel_udpcp, uu, lat, rr, server_counts = false;
	void (*run)(struct client *, double);
	char *colon;

	if (!cl)
		die("out of memory");
	while ((opt = getopt_long(argc, argv, "c:t:a:p:s:n:T:r:w:", lo, NULL)) != -1) {
		switch (opt) {
		case 'c': c.ctl = optarg; break;
		case 't': c.test = optarg; break;
		case 'a': c.dst = optarg; break;
		case 'p': c.port = atoi(optarg); break;
		case 's': c.size = atoi(optarg); break;
		case 'n': c.peers = atoi(optarg); break;
		case 'T': c.secs = atof(optarg); break;
		case 'r': c.reps = atoi(optarg); break;
		case 'w': c.warm = atof(optarg); break;
		case 'C': c.csum = !strcmp(optarg, "on"); break;
		case 'P': c.peer_user = !strcmp(optarg, "user"); break;
		case 'G': c.tag = optarg; break;
		default: die("bad option (see the head of bench/udpcp-bench.c)");
		}
	}
	if (!c.ctl || !c.test || !c.dst)
		die("client needs -c CTLADDR -t TEST -a DSTADDR");
	if (c.size < 0 || c.size > UDPCP_MAX_MSGSIZE || c.peers < 1 ||
	    c.peers > MAX_PEERS || c.reps < 1 || c.reps > 64 || c.secs <= 0)
		die("bad -s/-n/-r/-T");
	raise_nofile();
	signal(SIGPIPE, SIG_IGN);
	cl->c = &c;
	cl->msg = calloc(1, MSG_MAX);
	cl->rr_t0 = calloc(c.peers, sizeof(double));
	for (int i = 0; i < c.size; i++)
		cl->msg[i] = (char)(i * 7 + 1);

	snprintf(ctladdr, sizeof(ctladdr), "%s", c.ctl);
	colon = strrchr(ctladdr, ':');
	if (colon && strchr(ctladdr, '.')) {
		*colon = 0;
		ctlport = atoi(colon + 1);
	}
	for (int i = 0; i < c.peers; i++)
		cl->dlen = mkaddr(c.dst, c.port + i, &cl->dst[i]);
	cl->fam = cl->dst[0].ss_family;

	kernel_udpcp = starts(&c, "udpcp-");
	uu = starts(&c, "uudpcp-");
	lat = ends(&c, "-lat");
	rr = ends(&c, "-rr");
	if (kernel_udpcp || uu)
		mode = strstr(c.test, "single") ? UDPCP_SINGLE_ACK :
		       strstr(c.test, "noack") ? UDPCP_NOACK : UDPCP_ACK;

	/* the server side of this test */
	if (is(&c, "udp-oneway")) {
		kind = "sink";
		run = run_oneway;
		server_counts = true;
	} else if (is(&c, "udpcp-noack")) {
		kind = "sink";
		proto = "udpcp";
		run = run_oneway;
		server_counts = true;
	} else if (is(&c, "udp-rr")) {
		kind = "echo";
		run = run_udp_rr;
	} else if (is(&c, "tcp-rr")) {
		kind = "tcpecho";
		run = run_tcp_rr;
		c.peers = 1;
	} else if (kernel_udpcp && (mode == UDPCP_ACK || mode == UDPCP_SINGLE_ACK)) {
		kind = c.peer_user == 1 ? "uusink" : "sink";
		proto = "udpcp";
		run = lat ? run_klat : run_kqueue;
	} else if (uu && mode != UDPCP_NOACK) {
		kind = c.peer_user == 0 ? "sink" : "uusink";
		proto = "udpcp";
		run = lat ? run_uulat : run_uuqueue;
		if (lat)
			c.peers = 1;
	} else {
		die("unknown test %s", c.test);
	}

	len = mkaddr(ctladdr, ctlport, &ss);
	cl->ctl = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	for (int tries = 0;; tries++) {
		if (!connect(cl->ctl, (struct sockaddr *)&ss, len))
			break;
		if (tries > 50)
			die("connect to server %s:%d: %s", ctladdr, ctlport, strerror(errno));
		usleep(100000);
	}
	set_int(cl->ctl, IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY");
	snprintf(setup, sizeof(setup), "SETUP kind=%s proto=%s addr=%s port=%d n=%d size=%d resp=%d",
		 kind, proto, c.dst, c.port, c.peers, c.size, RESP_LEN);
	ctl_cmd(cl, setup, r, sizeof(r));

	/* the client side */
	if (uu) {
		struct uudpcp_params p;

		uudpcp_default_params(&p);
		p.mode = mode == UDPCP_SINGLE_ACK ? UU_SINGLE_ACK : UU_ACK;
		if (c.csum >= 0)
			p.checksum = c.csum;
		cl->uu = uudpcp_open(cl->fam, NULL, 0, &p);
		if (!cl->uu)
			die("uudpcp_open: %s", strerror(errno));
		bufsize(uudpcp_fd(cl->uu), SO_RCVBUF, BIG_BUF);
		bufsize(uudpcp_fd(cl->uu), SO_SNDBUF, BIG_BUF);
		uudpcp_callbacks(cl->uu, NULL, uu_done, cl);
		if (lat)
			cl->uu_t0 = calloc(1, sizeof(double));
	} else if (is(&c, "tcp-rr")) {
		cl->fd = socket(cl->fam, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (connect(cl->fd, (struct sockaddr *)&cl->dst[0], cl->dlen))
			die("tcp connect: %s", strerror(errno));
		set_int(cl->fd, IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY");
	} else if (kernel_udpcp) {
		cl->fd = udpcp_socket(cl->fam, mode, c.csum);
		/* room for a queue to every destination; a bound on blocking */
		bufsize(cl->fd, SO_SNDBUF, BIG_BUF);
		set_timeo(cl->fd, SO_SNDTIMEO, 0.2);
	} else {
		cl->fd = socket(cl->fam, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
		bufsize(cl->fd, SO_RCVBUF, BIG_BUF);
		bufsize(cl->fd, SO_SNDBUF, BIG_BUF);
		set_timeo(cl->fd, SO_RCVTIMEO, 0.02);
	}

	/* warm-up: ARP/ND, syncs, caches, the first slow packets */
	run(cl, c.warm);
	if (kernel_udpcp && !lat)
		kflush(cl, 10000);
	if (uu && !lat)
		uu_drain(cl, 10);

	for (int rep = 0; rep < c.reps; rep++) {
		struct cpustat s0, s1;
		double t0, t1;
		size_t nl0 = cl->lat.n;

		ctl_mark(cl, &m0, &b0);
		if (kernel_udpcp)
			udpcp_info(cl->fd, &i0);
		cl->sent = cl->done = 0;
		t0 = now();
		cpustat_read(&s0);
		run(cl, c.secs);
		cpustat_read(&s1);
		t1 = now();
		if (kernel_udpcp)
			udpcp_info(cl->fd, &i1);
		ctl_mark(cl, &m1, &b1);

		if (server_counts) {
			rate[rep] = (m1 - m0) / (t1 - t0);
		} else if (kernel_udpcp && !lat) {
			rate[rep] = (i1.udpi_tx_msgs - i0.udpi_tx_msgs) / (t1 - t0);
		} else {
			rate[rep] = cl->done / (t1 - t0);
		}
		srate[rep] = cl->sent / (t1 - t0);
		cpu[rep] = cpu_us_per(&s0, &s1, rate[rep] * (t1 - t0));
		p50[rep] = pct(cl->lat.v + nl0, cl->lat.n - nl0, 50);
		p99[rep] = pct(cl->lat.v + nl0, cl->lat.n - nl0, 99);
		cl->lat.n = nl0;	/* per-run percentiles only */
		sent_total += cl->sent;
		recv_total += m1 - m0;
		bytes_total += b1 - b0;
		if (kernel_udpcp) {
			fails += i1.udpi_tx_timeout - i0.udpi_tx_timeout;
			retries += i1.udpi_tx_retries - i0.udpi_tx_retries;
		}
		/* nothing left in flight into the next run */
		if (kernel_udpcp && !lat)
			kflush(cl, 20000);
		if (uu && !lat)
			uu_drain(cl, 20);
	}
	if (uu) {
		const struct uudpcp_stats *st = uudpcp_stats(cl->uu);

		fails = st->tx_failed;
		retries = st->tx_retries;
	}

	printf("{\"test\":\"%s\",\"fam\":%d,\"size\":%d,\"peers\":%d,\"secs\":%g,\"reps\":%d",
	       c.test, cl->fam == AF_INET ? 4 : 6, c.size, c.peers, c.secs, c.reps);
	if (c.csum >= 0)
		printf(",\"checksum\":%d", c.csum);
	if (c.peer_user >= 0)
		printf(",\"peer_impl\":\"%s\"", c.peer_user ? "user" : "kernel");
	if (c.tag)
		printf(",\"tag\":\"%s\"", c.tag);
	jarr("rate", rate, c.reps, 1);
	jarr("cpu_us", cpu, c.reps, 3);
	if (rr || lat)
		jarr("p50_us", p50, c.reps, 1), jarr("p99_us", p99, c.reps, 1);
	if (server_counts) {
		jarr("send_rate", srate, c.reps, 1);
		printf(",\"loss\":%.4f", sent_total ?
		       1.0 - (double)recv_total / sent_total : 0);
	}
	printf(",\"server_msgs\":%llu,\"server_bytes_ok\":%s,\"failed\":%llu,\"retries\":%llu}\n",
	       recv_total,
	       (kind[0] == 's' || kind[0] == 'u') && bytes_total != recv_total * c.size ?
	       "false" : "true", fails, retries);
	fflush(stdout);
	ctl_cmd(cl, "END", r, sizeof(r));
	return 0;
}

/* ====================================================================== */
/* mem: kernel memory per idle peer and per socket                        */
/* ====================================================================== */
struct memsnap {
	long long slab, percpu, vmalloc;	/* bytes, /proc/meminfo */
	long long objs;				/* bytes of slab objects in use */
	long long memfree;			/* every page, slab or not */
	int ncache;
	char name[256][32];
	long long bytes[256];
};

static void mem_read(struct memsnap *m)
{
	char line[512], name[64];
	long long v;
	FILE *f = fopen("/proc/meminfo", "r");

	memset(m, 0, sizeof(*m));
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63[^:]: %lld", name, &v) != 2)
			continue;
		if (!strcmp(name, "Slab"))
			m->slab = v * 1024;
		else if (!strcmp(name, "Percpu"))
			m->percpu = v * 1024;
		else if (!strcmp(name, "VmallocUsed"))
			m->vmalloc = v * 1024;
		else if (!strcmp(name, "MemFree"))
			m->memfree = v * 1024;
	}
	if (f)
		fclose(f);
	f = fopen("/proc/slabinfo", "r");
	while (f && fgets(line, sizeof(line), f) && m->ncache < 256) {
		long long active, num, objsize;

		if (line[0] == '#' || !strncmp(line, "slabinfo", 8))
			continue;
		if (sscanf(line, "%31s %lld %lld %lld", m->name[m->ncache], &active,
			   &num, &objsize) != 4)
			continue;
		m->bytes[m->ncache++] = active * objsize;
		m->objs += active * objsize;
	}
	if (f)
		fclose(f);
}

/*
 * Slab objects in use (not slab pages: a few hundred objects fit in the
 * free space of partial slabs), per-CPU memory (dst caches), vmalloc
 * (large hash tables).
 */
static long long mem_total(const struct memsnap *m)
{
	return m->objs + m->percpu + m->vmalloc;
}

/* The caches that grew most, per object created. */
static void mem_top(const struct memsnap *a, const struct memsnap *b, int n)
{
	struct { const char *name; double d; } top[5] = {{ 0 }};

	for (int i = 0; i < b->ncache; i++) {
		for (int j = 0; j < a->ncache; j++) {
			double d;

			if (strcmp(a->name[j], b->name[i]))
				continue;
			d = (double)(b->bytes[i] - a->bytes[j]) / n;
			for (int k = 0; k < 5; k++) {
				if (!top[k].name || d > top[k].d) {
					memmove(&top[k + 1], &top[k], (4 - k) * sizeof(top[0]));
					top[k].name = b->name[i];
					top[k].d = d;
					break;
				}
			}
			break;
		}
	}
	printf("{");
	for (int k = 0; k < 5 && top[k].name; k++)
		printf("%s\"%s\":%.1f", k ? "," : "", top[k].name, top[k].d);
	printf("}");
}

static void settle(void)
{
	/* kfree_rcu, deferred frees */
	usleep(300000);
}

/*
 * An idle peer is one with nothing in flight: the syncs to ports without a
 * receiver fail only after their tries, and until then the messages and
 * the failure reports on the error queue would be counted as the peer's.
 */
static void mem_quiesce(int fd)
{
	char buf[64], cbuf[512];
	struct udpcp_info info;

	for (int i = 0; i < 600; i++) {
		udpcp_info(fd, &info);
		if (!info.udpi_tx_pending)
			break;
		usleep(100000);
	}
	if (info.udpi_tx_pending)
		die("mem: %u messages still in flight after 60 s", info.udpi_tx_pending);
	for (;;) {
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr mh = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};

		if (recvmsg(fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			break;
	}
}

static int cmd_mem(int argc, char **argv)
{
	enum { PEER, SLAB, PCPU, VM, USK, UDP, NRES };
	const char *dsts[2];
	int ndst = 0, port = 30000, peers = 2000, reps = 3, nsock = 200, opt;
	double res[2][NRES][64], closed[1];
	struct memsnap *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct memsnap *top0[2], *top1[2];
	int *fds, nfds = 0, *peerfds, npeerfds = 0, total_peers = 0;
	long long objs0;
	char one = 1;

	while ((opt = getopt(argc, argv, "a:p:n:r:S:")) != -1) {
		switch (opt) {
		case 'a':
			if (ndst < 2)
				dsts[ndst++] = optarg;
			break;
		case 'p': port = atoi(optarg); break;
		case 'n': peers = atoi(optarg); break;
		case 'r': reps = atoi(optarg); break;
		case 'S': nsock = atoi(optarg); break;
		default: die("usage: mem -a DSTADDR [-a DSTADDR] [-p PORT] [-n PEERS] [-r REPS] [-S SOCKETS]");
		}
	}
	if (!ndst || peers < 1 || reps < 1 || reps > 64 || nsock < 1 || !a || !b)
		die("mem: bad arguments");
	raise_nofile();
	fds = calloc((size_t)reps * ndst * 2 * nsock, sizeof(int));
	peerfds = calloc(reps * ndst, sizeof(int));
	for (int d = 0; d < ndst; d++) {
		top0[d] = malloc(sizeof(struct memsnap));
		top1[d] = malloc(sizeof(struct memsnap));
	}
	mem_read(a);
	objs0 = a->objs;

	/*
	 * Idle peers: per run and family a new socket sends one no-ack
	 * message to each of `peers` ports.  Every socket stays open until
	 * all runs are done: per-CPU pages, once populated, are not given
	 * back, so freed ones would hide the next run's per-CPU cost.
	 */
	for (int rep = 0; rep < reps; rep++) {
		for (int d = 0; d < ndst; d++) {
			struct sockaddr_storage to, local;
			socklen_t len = mkaddr(dsts[d], port, &to), ll;
			int fd = udpcp_socket(to.ss_family, UDPCP_NOACK, -1);

			ll = mkaddr(to.ss_family == AF_INET ? "0.0.0.0" : "::", 0, &local);
			if (bind(fd, (struct sockaddr *)&local, ll))
				die("bind: %s", strerror(errno));
			peerfds[npeerfds++] = fd;
			/* the first peer: the socket's own first-use costs */
			sendto(fd, &one, 1, 0, (struct sockaddr *)&to, len);
			mem_quiesce(fd);
			settle();
			mem_read(a);
			for (int i = 1; i <= peers; i++) {
				mkaddr(dsts[d], port + i, &to);
				if (sendto(fd, &one, 1, 0, (struct sockaddr *)&to, len) < 0)
					die("mem: send to peer %d: %s (max-peers?)", i, strerror(errno));
			}
			total_peers += peers + 1;
			mem_quiesce(fd);
			settle();
			mem_read(b);
			res[d][PEER][rep] = (double)(mem_total(b) - mem_total(a)) / peers;
			res[d][SLAB][rep] = (double)(b->slab - a->slab) / peers;
			res[d][PCPU][rep] = (double)(b->percpu - a->percpu) / peers;
			res[d][VM][rep] = (double)(b->vmalloc - a->vmalloc) / peers;
			if (rep == 0) {
				memcpy(top0[d], a, sizeof(*a));
				memcpy(top1[d], b, sizeof(*b));
			}
		}
	}
	/* What stays behind once the sockets close: the message-ID history. */
	for (int i = 0; i < npeerfds; i++)
		close(peerfds[i]);
	settle();
	settle();
	settle();
	mem_read(a);
	closed[0] = (double)(a->objs - objs0) / total_peers;

	/*
	 * Sockets, bound: UDPCP, then UDP.  All stay open until the last run:
	 * SLUB counts objects freed to a CPU slab as in use, so sockets
	 * created after others closed reuse them and measure as nothing.
	 */
	for (int rep = 0; rep < reps; rep++) {
		for (int d = 0; d < ndst; d++) {
			struct sockaddr_storage local;
			int fam = strchr(dsts[d], ':') ? AF_INET6 : AF_INET;
			socklen_t ll = mkaddr(fam == AF_INET ? "0.0.0.0" : "::", 0, &local);

			for (int kind = 0; kind < 2; kind++) {
				mem_read(a);
				for (int i = 0; i < nsock; i++, nfds++) {
					fds[nfds] = kind ? socket(fam, SOCK_DGRAM, IPPROTO_UDP) :
							   udpcp_socket(fam, UDPCP_ACK, -1);
					if (fds[nfds] < 0 ||
					    bind(fds[nfds], (struct sockaddr *)&local, ll))
						die("mem: socket %d: %s", i, strerror(errno));
				}
				settle();
				mem_read(b);
				res[d][kind ? UDP : USK][rep] =
					(double)(mem_total(b) - mem_total(a)) / nsock;
			}
		}
	}
	for (int i = 0; i < nfds; i++)
		close(fds[i]);
	for (int d = 0; d < ndst; d++) {
		printf("{\"test\":\"mem\",\"fam\":%d,\"peers\":%d,\"sockets\":%d,\"reps\":%d",
		       strchr(dsts[d], ':') ? 6 : 4, peers, nsock, reps);
		jarr("peer_bytes", res[d][PEER], reps, 1);
		jarr("peer_slab_page_bytes", res[d][SLAB], reps, 1);
		jarr("peer_percpu_bytes", res[d][PCPU], reps, 1);
		jarr("peer_vmalloc_bytes", res[d][VM], reps, 1);
		jarr("closed_peer_bytes", closed, 1, 1);
		jarr("udpcp_sock_bytes", res[d][USK], reps, 1);
		jarr("udp_sock_bytes", res[d][UDP], reps, 1);
		printf(",\"peer_slab_top\":");
		mem_top(top0[d], top1[d], peers);
		printf("}\n");
	}
	return 0;
}

/* ====================================================================== */
/* selftest: user-space UDPCP against itself over loopback                */
/* ====================================================================== */
struct st_ctx {
	unsigned long long got, bytes, done, failed;
	size_t expect;
	bool bad;
};

static void st_deliver(void *ctx, const struct sockaddr *from, const void *data,
		       size_t len)
{
	struct st_ctx *s = ctx;
	const unsigned char *p = data;

	(void)from;
	if (len != s->expect)
		s->bad = true;
	for (size_t i = 0; i < len; i++)
		if (p[i] != (unsigned char)(i * 7 + 1)) {
			s->bad = true;
			break;
		}
	s->got++;
	s->bytes += len;
}

static void st_done(void *ctx, const struct sockaddr *to, size_t len, int err)
{
	struct st_ctx *s = ctx;

	(void)to;
	(void)len;
	if (err)
		s->failed++;
	else
		s->done++;
}

static int cmd_selftest(void)
{
	static const uint8_t sync[12] = { 0, 0, 0, 0, 0x53, 0, 1, 0, 0, 0, 0, 0 };
	static const int sizes[] = { 0, 1, 64, 1400, 1460, 1461, 16384, 65487 };
	static const int modes[] = { UU_ACK, UU_SINGLE_ACK, UU_NOACK };
	struct sockaddr_storage ra, sa;
	socklen_t rl;
	char *msg = malloc(MSG_MAX);
	int failures = 0;

	if (uu_adler32(1, sync, 12) != 0x02AA0055)
		die("adler32 test vector: got %08x", uu_adler32(1, sync, 12));
	for (int i = 0; i < MSG_MAX; i++)
		msg[i] = (char)(i * 7 + 1);
	for (unsigned int m = 0; m < 3; m++) {
		for (unsigned int z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			struct uudpcp_params p;
			struct st_ctx rx = { .expect = sizes[z] }, tx = { 0 };
			struct uudpcp *r, *s;
			double end;
			int n = 20;

			uudpcp_default_params(&p);
			p.mode = modes[m];
			p.mtu = 1500;
			rl = mkaddr("127.0.0.1", 0, &ra);
			mkaddr("127.0.0.1", 0, &sa);
			r = uudpcp_open(AF_INET, (struct sockaddr *)&ra, rl, &p);
			s = uudpcp_open(AF_INET, (struct sockaddr *)&sa, rl, &p);
			if (!r || !s)
				die("selftest: uudpcp_open: %s", strerror(errno));
			bufsize(uudpcp_fd(r), SO_RCVBUF, BIG_BUF);
			getsockname(uudpcp_fd(r), (struct sockaddr *)&ra, &rl);
			uudpcp_callbacks(r, st_deliver, NULL, &rx);
			uudpcp_callbacks(s, NULL, st_done, &tx);
			for (int i = 0; i < n; i++)
				if (uudpcp_send(s, (struct sockaddr *)&ra, rl, msg, sizes[z]))
					die("selftest: send");
			end = now() + 5;
			while ((uudpcp_pending(s) || rx.got < (unsigned)n) && now() < end) {
				uudpcp_run(s, 1);
				uudpcp_run(r, 1);
			}
			if (rx.bad || rx.got != (unsigned)n ||
			    (modes[m] != UU_NOACK && tx.done != (unsigned)n) || tx.failed) {
				fprintf(stderr, "selftest FAIL: mode %d size %d: delivered %llu/%d%s, acked %llu, failed %llu\n",
					modes[m], sizes[z], rx.got, n, rx.bad ? " (bad data)" : "",
					tx.done, tx.failed);
				failures++;
			}
			uudpcp_close(r);
			uudpcp_close(s);
		}
	}
	free(msg);
	printf("selftest: %s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *cmd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		die("usage: server|client|mem|selftest ... (see bench/udpcp-bench.c)");
	cmd = argv[1];
	argv[1] = argv[0];
	argc--;
	argv++;
	if (!strcmp(cmd, "server"))
		return cmd_server(argc, argv);
	if (!strcmp(cmd, "client"))
		return cmd_client(argc, argv);
	if (!strcmp(cmd, "mem"))
		return cmd_mem(argc, argv);
	if (!strcmp(cmd, "selftest"))
		return cmd_selftest();
	die("unknown command %s", cmd);
	return 2;
}
