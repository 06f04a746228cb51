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

static int kw_peer_addr(struct req *r, const struct kw *k, const char *val)
{
	return parse_addr(k->word, val, &r->remote);
}

static const struct kw reset_kws[] = {
	{ "local", S_LOCAL, kw_local },
	{ "local-port", S_LOCAL, kw_local_port },
	{ "peer", S_REMOTE, kw_peer_addr },
	{ "port", S_PORT, kw_port },
};

/* A socket's counters (UDPCP_A_SOCK), or one of its peers' (UDPCP_A_PEER). */
static int build_reset(struct nl_msg *msg, const struct req *r)
{
	struct nlattr *nest;

	if (!req_has(r, S_REMOTE))
		return put_sock_sel(msg, UDPCP_A_SOCK, &r->local);
	nest = nla_nest_start(msg, UDPCP_A_PEER);
	if (!nest ||
	    put_addr(msg, UDPCP_A_PEER_REMOTE_IPV4, UDPCP_A_PEER_REMOTE_IPV6,
		     &r->remote) ||
	    nla_put_u16(msg, UDPCP_A_PEER_REMOTE_PORT, r->port) ||
	    put_sock_sel(msg, UDPCP_A_PEER_SOCK, &r->local))
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}

static int stats_reset(int argc, char **argv)
{
	struct req r = { 0 };

	if (parse_kws(argc, argv, &r, "stats reset", reset_kws,
		      ARRAY_SIZE(reset_kws), 0))
		return EXIT_USAGE;
	if (req_has(&r, S_REMOTE) != req_has(&r, S_PORT))
		return usage_err("stats reset: peer ADDR and port PORT go together");
	if (req_has(&r, S_REMOTE) && !req_has(&r, S_LOCAL))
		return usage_err("stats reset: a peer's counters are on its socket: give local or local-port");
	if (!req_has(&r, S_LOCAL))
		return nl_request(UDPCP_CMD_STATS_RESET, 0, NULL, NULL, NULL,
				  NULL);
	return nl_request(UDPCP_CMD_STATS_RESET, 0, &r, build_reset, NULL,
			  NULL);
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
	"       " PROG " stats reset [ { local [ADDR:]PORT | local-port PORT }\n"
	"                          [ peer ADDR port PORT ] ]\n",
};
