// SPDX-License-Identifier: GPL-2.0
/*
 * top: the namespace's busiest peers, refreshed -- messages each way,
 * retransmissions and failures between two peer dumps, and the RTT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <netlink/genl/genl.h>

#include "print.h"
#include "udpcpctl.h"

struct top_peer {
	struct endpoint remote, local;
	uint64_t tx_msgs, rx_msgs, tx_retries, tx_timeout;
	uint32_t rtt_us;
	int state;			/* UDPCP_PEER_STATE_*, -1: none */
};

struct sample {
	struct top_peer *peers;
	size_t n;
};

static uint64_t stat_of(struct nlattr **st, int attr)
{
	return st[attr] ? nla_get_u64(st[attr]) : 0;
}

/* Collects the peers of sockets (namespace templates have no traffic). */
static int sample_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *top[UDPCP_A_MAX + 1], *tb[UDPCP_A_PEER_MAX + 1];
	struct nlattr *st[UDPCP_A_STATS_MAX + 1];
	struct sample *s = arg;
	struct top_peer *p;

	if (!genl_attrs(msg, top) || !top[UDPCP_A_PEER])
		return NL_SKIP;
	p = realloc(s->peers, (s->n + 1) * sizeof(*p));
	if (!p)
		return NL_STOP;
	s->peers = p;
	p = &s->peers[s->n];
	memset(p, 0, sizeof(*p));
	if (peer_parse(tb, top[UDPCP_A_PEER], &p->remote, &p->local) ||
	    !tb[UDPCP_A_PEER_SOCK] || !tb[UDPCP_A_PEER_STATS] ||
	    nest_parse(st, UDPCP_A_STATS_MAX, tb[UDPCP_A_PEER_STATS],
		       stats_policy, "counters"))
		return NL_OK;
	p->tx_msgs = stat_of(st, UDPCP_A_STATS_TX_MSGS);
	p->rx_msgs = stat_of(st, UDPCP_A_STATS_RX_MSGS);
	p->tx_retries = stat_of(st, UDPCP_A_STATS_TX_RETRIES);
	p->tx_timeout = stat_of(st, UDPCP_A_STATS_TX_TIMEOUT);
	p->rtt_us = tb[UDPCP_A_PEER_RTT_US] ?
		    nla_get_u32(tb[UDPCP_A_PEER_RTT_US]) : 0;
	p->state = tb[UDPCP_A_PEER_STATE] ?
		   nla_get_u8(tb[UDPCP_A_PEER_STATE]) : -1;
	s->n++;
	return NL_OK;
}

static int take_sample(struct sample *s)
{
	struct req r = { 0 };

	s->n = 0;
	return nl_request(UDPCP_CMD_PEER_GET, NLM_F_DUMP, &r, NULL, sample_cb,
			  s);
}

static bool same_peer(const struct top_peer *a, const struct top_peer *b)
{
	return a->remote.port == b->remote.port &&
	       a->local.port == b->local.port &&
	       addr_equal(&a->remote.addr, &b->remote.addr) &&
	       addr_equal(&a->local.addr, &b->local.addr);
}

/* What a peer did in the interval: its counts now less those before. */
struct delta {
	const struct top_peer *now;
	uint64_t tx, rx, retries, failed;
};

static void delta_of(struct delta *d, const struct top_peer *now,
		     const struct sample *before)
{
	static const struct top_peer zero;
	const struct top_peer *was = &zero;

	for (size_t i = 0; i < before->n; i++)
		if (same_peer(&before->peers[i], now)) {
			was = &before->peers[i];
			break;
		}
	/* A reset between the two dumps: count from zero. */
	if (now->tx_msgs < was->tx_msgs || now->rx_msgs < was->rx_msgs)
		was = &zero;
	d->now = now;
	d->tx = now->tx_msgs - was->tx_msgs;
	d->rx = now->rx_msgs - was->rx_msgs;
	d->retries = now->tx_retries - was->tx_retries;
	d->failed = now->tx_timeout - was->tx_timeout;
}

static int busiest_first(const void *a, const void *b)
{
	const struct delta *x = a, *y = b;
	uint64_t mx = x->tx + x->rx, my = y->tx + y->rx;

	if (mx != my)
		return mx < my ? 1 : -1;
	if (x->retries != y->retries)
		return x->retries < y->retries ? 1 : -1;
	return (int)x->now->remote.port - (int)y->now->remote.port;
}

static void endpoint_text(const struct endpoint *ep, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	addr_str(&ep->addr, a, sizeof(a));
	snprintf(buf, len, ep->addr.family == AF_INET6 ? "[%s]:%u" : "%s:%u",
		 a, ep->port);
}

static void print_frame_json(const struct delta *d, size_t n, double secs)
{
	pr_obj_open(NULL);
	pr_uint("interval_ms", NULL, (uint64_t)(secs * 1000 + 0.5));
	pr_arr_open("peers");
	for (size_t i = 0; i < n; i++) {
		const struct top_peer *p = d[i].now;

		pr_obj_open(NULL);
		pr_endpoint("remote_address", "remote_port", NULL, &p->remote);
		pr_endpoint("local_address", "local_port", NULL, &p->local);
		pr_uint("tx_msgs", NULL, d[i].tx);
		pr_uint("rx_msgs", NULL, d[i].rx);
		pr_uint("tx_retries", NULL, d[i].retries);
		pr_uint("tx_timeout", NULL, d[i].failed);
		pr_uint("rtt_us", NULL, p->rtt_us);
		pr_obj_close();
	}
	pr_arr_close();
	pr_obj_close();
	pr_finish();
}

static void print_frame_text(const struct delta *d, size_t n, size_t total,
			     double secs)
{
	char remote[64], local[64], stamp[16];
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
	if (isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	printf("%s  %zu peers, per second over %.1f s\n", stamp, total, secs);
	printf("%-46s %-46s %8s %8s %8s %7s %8s\n", "PEER", "LOCAL", "TX/s",
	       "RX/s", "RETRY/s", "FAILED", "RTT(us)");
	for (size_t i = 0; i < n; i++) {
		endpoint_text(&d[i].now->remote, remote, sizeof(remote));
		endpoint_text(&d[i].now->local, local, sizeof(local));
		printf("%-46s %-46s %8.1f %8.1f %8.1f %7llu %8u\n", remote,
		       local, d[i].tx / secs, d[i].rx / secs,
		       d[i].retries / secs, (unsigned long long)d[i].failed,
		       d[i].now->rtt_us);
	}
	fflush(stdout);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int top_run(int argc, char **argv)
{
	uint32_t interval = 1, count = 0, lines = 20, frames = 0;
	struct sample s[2] = { 0 };
	int cur = 0, err;
	double t0, t1;

	for (int i = 0; i < argc; i += 2) {
		uint32_t *v, max;

		if (!strcmp(argv[i], "interval")) {
			v = &interval;
			max = 3600;
		} else if (!strcmp(argv[i], "count")) {
			v = &count;
			max = UINT32_MAX;
		} else if (!strcmp(argv[i], "lines")) {
			v = &lines;
			max = 100000;
		} else {
			return usage_err("unknown top argument \"%s\", expected interval, count or lines",
					 argv[i]);
		}
		if (i + 1 == argc)
			return usage_err("top: %s needs a value", argv[i]);
		if (parse_u32(argv[i], argv[i + 1], 1, max, v))
			return EXIT_USAGE;
	}

	err = take_sample(&s[cur]);
	t0 = now_s();
	while (!err && (!count || frames < count)) {
		struct delta *d;
		size_t n;

		sleep(interval);
		cur = !cur;
		err = take_sample(&s[cur]);
		t1 = now_s();
		if (err)
			break;
		n = s[cur].n;
		d = calloc(n ? n : 1, sizeof(*d));
		if (!d) {
			err = EXIT_FAILURE;
			break;
		}
		for (size_t i = 0; i < n; i++)
			delta_of(&d[i], &s[cur].peers[i], &s[!cur]);
		qsort(d, n, sizeof(*d), busiest_first);
		if (opts.json)
			print_frame_json(d, n < lines ? n : lines, t1 - t0);
		else
			print_frame_text(d, n < lines ? n : lines, n, t1 - t0);
		free(d);
		t0 = t1;
		frames++;
	}
	free(s[0].peers);
	free(s[1].peers);
	return err;
}

static const struct cmd cmds[] = {
	{ "help", NULL },
};

const struct object obj_top = {
	.name = "top",
	.cmds = cmds,
	.ncmds = ARRAY_SIZE(cmds),
	.fallback = top_run,
	.fallback_args = true,
	.usage =
	"Usage: " PROG " top [ interval SECS ] [ count FRAMES ] [ lines N ]\n",
};
