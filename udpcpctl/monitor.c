// SPDX-License-Identifier: GPL-2.0
/* monitor: print the "events" multicast group as events happen. */
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

static const char *event_name(uint8_t cmd)
{
	for (size_t i = 0; i < ARRAY_SIZE(events); i++)
		if (events[i].cmd == cmd)
			return events[i].name;
	return NULL;
}

/*
 * One event: "peer-created 192.0.2.2 port 5000 local 192.0.2.1:5000 ...",
 * or one JSON object per line; flushed, as a pipe would otherwise hold it.
 */
static int event_cb(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[UDPCP_A_MAX + 1];
	const char *name = event_name(g->cmd);

	(void)arg;
	/* Commands a newer kernel adds are skipped, not guessed at. */
	if (!name || !genl_attrs(msg, tb))
		return NL_OK;
	pr_obj_open(NULL);
	pr_str("event", NULL, name);
	/* The kernel sends the whole peer; who it is suffices, but for -s. */
	if (tb[UDPCP_A_PEER])
		print_peer(tb[UDPCP_A_PEER], NULL, opts.stats);
	pr_obj_close();
	pr_finish();
	return NL_OK;
}

static int monitor_run(int argc, char **argv)
{
	if (no_args("monitor", argc, argv))
		return EXIT_USAGE;
	/* Pretty printing would break "one object per line". */
	pr_init(opts.json, false);
	return nl_monitor(event_cb, NULL);
}

static const struct cmd cmds[] = {
	{ "help", NULL },
};

const struct object obj_monitor = {
	.name = "monitor",
	.cmds = cmds,
	.ncmds = ARRAY_SIZE(cmds),
	.fallback = monitor_run,
	.usage =
	"Usage: " PROG " [ -j ] [ -s ] monitor\n"
	"Prints peer-created, peer-removed, msg-failed and peer-resync events;\n"
	"with -s, all the peer's details and counters.\n",
};
