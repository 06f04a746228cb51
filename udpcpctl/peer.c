// SPDX-License-Identifier: GPL-2.0
/* peer: the remote ends of the namespace's sockets. */
#include <string.h>

#include "print.h"
#include "udpcpctl.h"

static const struct kw peer_kws[] = {
	{ "port", S_PORT, kw_port },
	{ "local", S_LOCAL, kw_local },
	{ "local-port", S_LOCAL, kw_local_port },
};

/* ADDR, then keywords; @nparams as for parse_kws(). */
static int parse_peer(int argc, char **argv, struct req *r, const char *cmd,
		      int nparams)
{
	if (!argc)
		return usage_err("%s: missing ADDR", cmd);
	if (parse_addr(cmd, argv[0], &r->remote) ||
	    parse_kws(argc - 1, argv + 1, r, cmd, peer_kws,
		      ARRAY_SIZE(peer_kws), nparams))
		return EXIT_USAGE;
	if (!req_has(r, S_PORT))
		return usage_err("%s: missing port", cmd);
	return 0;
}

static int build_peer(struct nl_msg *msg, const struct req *r)
{
	struct nlattr *nest = nla_nest_start(msg, UDPCP_A_PEER);

	if (!nest ||
	    put_addr(msg, UDPCP_A_PEER_REMOTE_IPV4, UDPCP_A_PEER_REMOTE_IPV6,
		     &r->remote) ||
	    nla_put_u16(msg, UDPCP_A_PEER_REMOTE_PORT, r->port) ||
	    put_sock_sel(msg, UDPCP_A_PEER_SOCK, &r->local) ||
	    put_params(msg, UDPCP_A_PEER_PARAMS, &r->params) ||
	    (r->replace && nla_put_flag(msg, UDPCP_A_PEER_REPLACE)))
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}

/* add, replace, change and del differ only in their command and parameters. */
static int peer_modify(int argc, char **argv, const char *cmd, uint8_t op,
		       bool replace, int nparams)
{
	struct req r = { 0 };

	if (parse_peer(argc, argv, &r, cmd, nparams))
		return EXIT_USAGE;
	r.replace = replace;
	return nl_request(op, 0, &r, build_peer, NULL, NULL);
}

static int peer_add(int argc, char **argv)
{
	return peer_modify(argc, argv, "peer add", UDPCP_CMD_PEER_NEW,
			   false, P_MAX_PEERS);
}

/* As ip route replace: created, or its parameters become exactly these. */
static int peer_replace(int argc, char **argv)
{
	return peer_modify(argc, argv, "peer replace", UDPCP_CMD_PEER_NEW,
			   true, P_MAX_PEERS);
}

static int peer_change(int argc, char **argv)
{
	return peer_modify(argc, argv, "peer change", UDPCP_CMD_PEER_SET,
			   false, P_MAX_PEERS);
}

static int peer_del(int argc, char **argv)
{
	return peer_modify(argc, argv, "peer del", UDPCP_CMD_PEER_DEL, false, 0);
}

static int show_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[UDPCP_A_MAX + 1];

	if (!genl_attrs(msg, tb) || !tb[UDPCP_A_PEER])
		return NL_SKIP;
	if (!peer_matches(tb[UDPCP_A_PEER], arg))
		return NL_OK;
	pr_obj_open(NULL);
	print_peer(tb[UDPCP_A_PEER], "peer", true);
	pr_obj_close();
	return NL_OK;
}

/*
 * ADDR, port and a socket select one peer (a "do"); anything less dumps
 * all, namespace-wide configurations included, and prints those that
 * match: a "do" without a socket would find only the configuration.
 */
static const struct kw filter_kws[] = {
	{ "port", S_PORT, kw_port },
	{ "local", S_LOCAL, kw_local },
	{ "local-port", S_LOCAL, kw_local_port },
	{ "state", S_STATE, kw_state },
};

bool is_peer_filter_word(const char *word)
{
	for (size_t i = 0; i < ARRAY_SIZE(filter_kws); i++)
		if (!strcmp(word, filter_kws[i].word))
			return true;
	return false;
}

int parse_peer_filter(const char *cmd, int argc, char **argv, struct req *r)
{
	if (argc && looks_like_addr(argv[0])) {
		if (parse_addr(cmd, argv[0], &r->remote))
			return EXIT_USAGE;
		argc--;
		argv++;
	}
	return parse_kws(argc, argv, r, cmd, filter_kws,
			 ARRAY_SIZE(filter_kws), 0);
}

static int peer_show(int argc, char **argv)
{
	struct req r = { 0 };
	bool one;
	int err;

	if (parse_peer_filter("peer show", argc, argv, &r))
		return EXIT_USAGE;
	one = r.remote.family && r.port && req_has(&r, S_LOCAL) && !r.state;
	err = nl_open();
	if (err)
		return err;
	pr_arr_open(NULL);
	err = nl_request(UDPCP_CMD_PEER_GET, one ? 0 : NLM_F_DUMP, &r,
			 one ? build_peer : NULL, show_cb, &r);
	pr_arr_close();
	return err;
}

static const struct cmd cmds[] = {
	{ "add", peer_add },
	{ "replace", peer_replace },
	{ "change", peer_change },
	{ "del", peer_del },
	{ "show", peer_show },
	{ "help", NULL },
};

const struct object obj_peer = {
	.name = "peer",
	.cmds = cmds,
	.ncmds = ARRAY_SIZE(cmds),
	.fallback = peer_show,
	.usage =
	"Usage: " PROG " peer { add | replace | change } ADDR port PORT [ LOCAL ] [ PARAM VALUE ]...\n"
	"       " PROG " peer del ADDR port PORT [ LOCAL ]\n"
	"       " PROG " [ -s ] peer [ show [ ADDR ] [ port PORT ] [ LOCAL ] [ state STATE ] ]\n"
	"LOCAL := { local ADDR:PORT | local-port PORT }\n"
	"PARAM := { mode { noack | ack | single-ack } | checksum { on | off } |\n"
	"           tx-timeout TIME | rx-timeout TIME | max-try N | outstanding-acks N }\n"
	"TIME := milliseconds, or a number with a unit: 200ms, 1.5s, 2000us\n"
	"ADDR := { IPv4 address | IPv6 address }; write [IPv6]:PORT after local\n",
};
