// SPDX-License-Identifier: GPL-2.0
/* stats: the namespace's counters, summed over its sockets. */
#include "print.h"
#include "udpcpctl.h"

static int show_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[UDPCP_A_MAX + 1];

	(void)arg;
	if (!genl_attrs(msg, tb))
		return NL_SKIP;
	pr_obj_open(NULL);
	print_stats(tb[UDPCP_A_STATS], NULL, 0);
	pr_obj_close();
	return NL_OK;
}

static int stats_show(int argc, char **argv)
{
	if (no_args("stats show", argc, argv))
		return EXIT_USAGE;
	return nl_request(UDPCP_CMD_STATS_GET, 0, NULL, NULL, show_cb, NULL);
}

static int stats_reset(int argc, char **argv)
{
	if (no_args("stats reset", argc, argv))
		return EXIT_USAGE;
	return nl_request(UDPCP_CMD_STATS_RESET, 0, NULL, NULL, NULL, NULL);
}

static const struct cmd cmds[] = {
	{ "show", stats_show },
	{ "reset", stats_reset },
	{ "help", NULL },
};

const struct object obj_stats = {
	.name = "stats",
	.cmds = cmds,
	.ncmds = ARRAY_SIZE(cmds),
	.fallback = stats_show,
	.usage =
	"Usage: " PROG " stats [ show ]\n"
	"       " PROG " stats reset\n",
};
