// SPDX-License-Identifier: GPL-2.0
/* monitor: print the "events" multicast group as events happen. */
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <netlink/genl/genl.h>

#include "print.h"
#include "udpcpctl.h"

static const struct {
	uint8_t cmd;
	const char *name;
} events[] = {
	{ UDPCP_CMD_PEER_CREATED_NTF, "peer-created" },
	{ UDPCP_CMD_PEER_REMOVED_NTF, "peer-removed" },
	{ UDPCP_CMD_MSG_FAILED_NTF, "msg-failed" },
	{ UDPCP_CMD_PEER_RESYNC_NTF, "peer-resync" },
};

/* What monitor prints: events by name, peers by address and port. */
struct monitor_filter {
	unsigned int events;	/* bit i: events[i]; 0: all */
	struct req peer;	/* remote ADDR, port PORT, LOCAL */
};

static const char *event_name(uint8_t cmd)
{
	for (size_t i = 0; i < ARRAY_SIZE(events); i++)
		if (events[i].cmd == cmd)
			return events[i].name;
	return NULL;
}

static bool event_wanted(const struct monitor_filter *f, uint8_t cmd)
{
	if (!f->events)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(events); i++)
		if (events[i].cmd == cmd)
			return f->events & (1u << i);
	return false;
}

/* -t: when the event was read, UTC to the microsecond, as ISO 8601. */
static void print_timestamp(void)
{
	char date[32], text[48];
	struct timeval tv;
	struct tm tm;

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	if (opts.json) {
		snprintf(text, sizeof(text), "%s.%06ldZ", date,
			 (long)tv.tv_usec);
		pr_str("timestamp", NULL, text);
	} else {
		snprintf(text, sizeof(text), "[%s.%06ldZ]", date,
			 (long)tv.tv_usec);
		pr_word(text);
	}
}

/*
 * One event: "peer-created 192.0.2.2 port 5000 local 192.0.2.1:5000 ...",
 * or one JSON object per line; flushed, as a pipe would otherwise hold it.
 */
static int event_cb(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));
	const struct monitor_filter *f = arg;
	struct nlattr *tb[UDPCP_A_MAX + 1];
	const char *name = event_name(g->cmd);

	/* Commands a newer kernel adds are skipped, not guessed at. */
	if (!name || !event_wanted(f, g->cmd) || !genl_attrs(msg, tb))
		return NL_OK;
	if (tb[UDPCP_A_PEER] && !peer_matches(tb[UDPCP_A_PEER], &f->peer))
		return NL_OK;
	pr_obj_open(NULL);
	if (opts.timestamp)
		print_timestamp();
	pr_str("event", NULL, name);
	/* The kernel sends the whole peer; who it is suffices, but for -s. */
	if (tb[UDPCP_A_PEER])
		print_peer(tb[UDPCP_A_PEER], NULL, opts.stats);
	pr_obj_close();
	pr_finish();
	return NL_OK;
}

/* [ EVENT... ] [ ADDR ] [ port PORT ] [ LOCAL ] [ state STATE ] */
static int parse_monitor(int argc, char **argv, struct monitor_filter *f)
{
	size_t i;

	for (; argc && !looks_like_addr(argv[0]); argc--, argv++) {
		if (is_peer_filter_word(argv[0]))
			break;
		for (i = 0; i < ARRAY_SIZE(events); i++)
			if (!strcmp(argv[0], events[i].name))
				break;
		if (i == ARRAY_SIZE(events))
			return usage_err("monitor: unknown event \"%s\", expected peer-created, peer-removed, msg-failed or peer-resync",
					 argv[0]);
		f->events |= 1u << i;
	}
	return parse_peer_filter("monitor", argc, argv, &f->peer);
}

static int monitor_run(int argc, char **argv)
{
	struct monitor_filter f = { 0 };

	if (parse_monitor(argc, argv, &f))
		return EXIT_USAGE;
	/* Pretty printing would break "one object per line". */
	pr_init(opts.json, false);
	return nl_monitor(event_cb, &f);
}

static const struct cmd cmds[] = {
	{ "help", NULL },
};

const struct object obj_monitor = {
	.name = "monitor",
	.cmds = cmds,
	.ncmds = ARRAY_SIZE(cmds),
	.fallback = monitor_run,
	.fallback_args = true,
	.usage =
	"Usage: " PROG " [ -j ] [ -s ] [ -t ] monitor [ EVENT... ] [ ADDR ] [ port PORT ]\n"
	"                                       [ LOCAL ] [ state STATE ]\n"
	"EVENT := { peer-created | peer-removed | msg-failed | peer-resync }\n"
	"Prints those events (all by default), of the peers that match; with -s,\n"
	"all the peer's details and counters; with -t, when each came (UTC).\n",
};
