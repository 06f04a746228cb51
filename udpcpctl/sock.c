// SPDX-License-Identifier: GPL-2.0
/* sock: the namespace's UDPCP sockets. */
#include <stdio.h>
#include <sys/socket.h>

#include "print.h"
#include "udpcpctl.h"

static void print_family(struct nlattr *a)
{
	uint16_t f = nla_get_u16(a);
	char num[8];

	if (f == AF_INET || f == AF_INET6) {
		pr_str("family", NULL, f == AF_INET ? "inet" : "inet6");
		return;
	}
	snprintf(num, sizeof(num), "%u", f);
	pr_str("family", NULL, num);
}

static void print_u32(struct nlattr *a, const char *key, const char *label)
{
	if (a)
		pr_uint(key, label, nla_get_u32(a));
}

static void print_u64(struct nlattr *a, const char *key, const char *label)
{
	if (a)
		pr_uint(key, label, nla_get_u64(a));
}

/* "sock inet 0.0.0.0:5000 peers 2 uid 0 inode 123 cookie 4096", params. */
static void print_sock(struct nlattr **tb, const struct endpoint *ep)
{
	pr_obj_open(NULL);
	pr_word("sock");
	if (tb[UDPCP_A_SOCK_FAMILY])
		print_family(tb[UDPCP_A_SOCK_FAMILY]);
	pr_endpoint("local_address", "local_port", NULL, ep);
	print_u32(tb[UDPCP_A_SOCK_PEER_COUNT], "peer_count", "peers");
	print_u32(tb[UDPCP_A_SOCK_UID], "uid", "uid");
	print_u64(tb[UDPCP_A_SOCK_INODE], "inode", "inode");
	print_u64(tb[UDPCP_A_SOCK_COOKIE], "cookie", "cookie");
	pr_newline(1);
	print_params(tb[UDPCP_A_SOCK_PARAMS]);
	if (opts.stats)
		print_stats(tb[UDPCP_A_SOCK_STATS], "stats", 1);
	pr_newline(0);
	pr_obj_close();
}

static int show_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *top[UDPCP_A_MAX + 1], *tb[UDPCP_A_SOCK_MAX + 1];
	struct endpoint ep;

	if (!genl_attrs(msg, top) ||
	    nest_parse(tb, UDPCP_A_SOCK_MAX, top[UDPCP_A_SOCK], sock_policy,
		       "socket") ||
	    sock_endpoint(top[UDPCP_A_SOCK], &ep))
		return NL_SKIP;
	if (endpoint_matches(&ep, arg))
		print_sock(tb, &ep);
	return NL_OK;
}

static const struct kw show_kws[] = {
	{ "local", S_LOCAL, kw_local },
	{ "local-port", S_LOCAL, kw_local_port },
};

static int sock_show(int argc, char **argv)
{
	struct req r = { 0 };
	int err;

	if (parse_kws(argc, argv, &r, "sock show", show_kws,
		      ARRAY_SIZE(show_kws), 0))
		return EXIT_USAGE;
	/* Open first: no "[]" on stdout when there is no family. */
	err = nl_open();
	if (err)
		return err;
	pr_arr_open(NULL);
	err = nl_request(UDPCP_CMD_SOCK_GET, NLM_F_DUMP, &r, NULL, show_cb,
			 &r);
	pr_arr_close();
	return err;
}

static const struct cmd cmds[] = {
	{ "show", sock_show },
	{ "help", NULL },
};

const struct object obj_sock = {
	.name = "sock",
	.cmds = cmds,
	.ncmds = ARRAY_SIZE(cmds),
	.fallback = sock_show,
	.usage =
	"Usage: " PROG " [ -s ] sock [ show [ local ADDR:PORT | local-port PORT ] ]\n",
};
