// SPDX-License-Identifier: GPL-2.0
/* defaults: the namespace's parameters for new sockets and peers. */
#include "print.h"
#include "udpcpctl.h"

static int show_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[UDPCP_A_MAX + 1];

	(void)arg;
	if (!genl_attrs(msg, tb))
		return NL_SKIP;
	pr_obj_open(NULL);
	print_defaults(tb[UDPCP_A_DEFAULTS]);
	pr_obj_close();
	return NL_OK;
}

static int defaults_show(int argc, char **argv)
{
	if (no_args("defaults show", argc, argv))
		return EXIT_USAGE;
	return nl_request(UDPCP_CMD_DEFAULTS_GET, 0, NULL, NULL, show_cb,
			  NULL);
}

static int build_set(struct nl_msg *msg, const struct req *r)
{
	struct nlattr *nest = nla_nest_start(msg, UDPCP_A_DEFAULTS);

	if (!nest || put_params(msg, UDPCP_A_DEFAULTS_PARAMS, &r->params))
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}

static int defaults_set(int argc, char **argv)
{
	struct req r = { 0 };

	if (!argc)
		return usage_err("defaults set: nothing to set");
	if (parse_kws(argc, argv, &r, "defaults set", NULL, 0, P_COUNT))
		return EXIT_USAGE;
	return nl_request(UDPCP_CMD_DEFAULTS_SET, 0, &r, build_set, NULL,
			  NULL);
}

static const struct cmd cmds[] = {
	{ "show", defaults_show },
	{ "set", defaults_set },
	{ "help", NULL },
};

const struct object obj_defaults = {
	.name = "defaults",
	.cmds = cmds,
	.ncmds = ARRAY_SIZE(cmds),
	.fallback = defaults_show,
	.usage =
	"Usage: " PROG " defaults [ show ]\n"
	"       " PROG " defaults set PARAM VALUE [ PARAM VALUE ]...\n"
	"PARAM := { mode { noack | ack | single-ack } | checksum { on | off } |\n"
	"           tx-timeout TIME | rx-timeout TIME | max-try N |\n"
	"           outstanding-acks N | max-peers N | peer-expiry TIME }\n"
	"tx-timeout, rx-timeout: " STR(UDPCP_MIN_TIMEOUT_MS) "-"
	STR(UDPCP_MAX_TIMEOUT_MS) " ms; max-try: " STR(UDPCP_MIN_MAXTRY) "-"
	STR(UDPCP_MAX_MAXTRY) "; outstanding-acks: "
	STR(UDPCP_MIN_OUTSTANDING_ACKS) "-" STR(UDPCP_MAX_OUTSTANDING_ACKS) ";\n"
	"max-peers: " STR(UDPCP_MIN_PEERS) "-" STR(UDPCP_MAX_PEERS)
	"; peer-expiry: " STR(UDPCP_MIN_PEER_EXPIRY_MS) "-"
	STR(UDPCP_MAX_PEER_EXPIRY_MS) " ms\n"
	"TIME := milliseconds, or a number with a unit: 200ms, 1.5s, 2000us\n",
};
