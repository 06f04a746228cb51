// SPDX-License-Identifier: GPL-2.0
/* group: multicast groups joined by UDPCP sockets. */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>

#include "print.h"
#include "udpcpctl.h"

/* The name is resolved later, in the right namespace. */
static int kw_dev(struct req *r, const struct kw *k, const char *val)
{
	if (!*val || strlen(val) >= IF_NAMESIZE || strchr(val, '/'))
		return usage_err("%s: \"%s\" is not an interface name",
				 k->word, val);
	r->ifname = val;
	return 0;
}

static int kw_ifindex(struct req *r, const struct kw *k, const char *val)
{
	return parse_u32(k->word, val, 1, INT32_MAX, &r->ifindex);
}

static int kw_group_local(struct req *r, const struct kw *k, const char *val)
{
	return parse_endpoint(k->word, val, false, &r->local);
}

static const struct kw group_kws[] = {
	{ "dev", S_DEV, kw_dev },
	{ "ifindex", S_DEV, kw_ifindex },
	{ "local", S_LOCAL, kw_group_local },
};

static bool is_multicast(const struct addr *a)
{
	if (a->family == AF_INET)
		return IN_MULTICAST(ntohl(a->v4.s_addr));
	return IN6_IS_ADDR_MULTICAST(&a->v6);
}

static int parse_group_addr(const char *cmd, const char *val, struct req *r)
{
	if (parse_addr(cmd, val, &r->remote))
		return EXIT_USAGE;
	if (!is_multicast(&r->remote))
		return usage_err("%s: \"%s\" is not a multicast address", cmd,
				 val);
	return 0;
}

/* After entering the namespace: interface names are per namespace. */
static int resolve_dev(struct req *r)
{
	int err = enter_netns();

	if (err || !r->ifname)
		return err;
	r->ifindex = if_nametoindex(r->ifname);
	if (!r->ifindex)
		return usage_err("dev: cannot find device \"%s\"", r->ifname);
	return 0;
}

static int build_group(struct nl_msg *msg, const struct req *r)
{
	struct nlattr *nest = nla_nest_start(msg, UDPCP_A_GROUP);

	if (!nest ||
	    put_sock_sel(msg, UDPCP_A_GROUP_SOCK, &r->local) ||
	    put_addr(msg, UDPCP_A_GROUP_IPV4, UDPCP_A_GROUP_IPV6, &r->remote) ||
	    (r->ifindex && nla_put_u32(msg, UDPCP_A_GROUP_IFINDEX, r->ifindex)))
		return -1;
	nla_nest_end(msg, nest);
	return 0;
}

static int group_modify(int argc, char **argv, const char *cmd, uint8_t op)
{
	struct req r = { 0 };
	int err;

	if (!argc)
		return usage_err("%s: missing GROUP", cmd);
	if (parse_group_addr(cmd, argv[0], &r) ||
	    parse_kws(argc - 1, argv + 1, &r, cmd, group_kws,
		      ARRAY_SIZE(group_kws), 0))
		return EXIT_USAGE;
	if (!req_has(&r, S_LOCAL))
		return usage_err("%s: missing local", cmd);
	err = resolve_dev(&r);
	if (err)
		return err;
	return nl_request(op, 0, &r, build_group, NULL, NULL);
}

static int group_join(int argc, char **argv)
{
	return group_modify(argc, argv, "group join", UDPCP_CMD_GROUP_JOIN);
}

static int group_leave(int argc, char **argv)
{
	return group_modify(argc, argv, "group leave", UDPCP_CMD_GROUP_LEAVE);
}

static bool group_matches(const struct addr *grp, uint32_t ifindex,
			  const struct endpoint *local, const struct req *f)
{
	if (f->remote.family && !addr_equal(&f->remote, grp))
		return false;
	if (f->ifindex && f->ifindex != ifindex)
		return false;
	return endpoint_matches(local, f);
}

/* Plain text: "dev IFNAME", or "ifindex N" if it has no name here. */
static void print_dev(uint32_t ifindex)
{
	char name[IF_NAMESIZE];

	if (if_indextoname(ifindex, name)) {
		pr_json_uint("ifindex", ifindex);
		pr_str("dev", "dev", name);
	} else {
		pr_uint("ifindex", "ifindex", ifindex);
	}
}

static int show_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *top[UDPCP_A_MAX + 1], *tb[UDPCP_A_GROUP_MAX + 1];
	char buf[INET6_ADDRSTRLEN];
	struct endpoint local;
	struct addr grp;
	uint32_t ifindex = 0;

	if (!genl_attrs(msg, top) ||
	    nest_parse(tb, UDPCP_A_GROUP_MAX, top[UDPCP_A_GROUP], group_policy,
		       "group") ||
	    sock_endpoint(tb[UDPCP_A_GROUP_SOCK], &local))
		return NL_SKIP;
	get_addr(tb[UDPCP_A_GROUP_IPV4], tb[UDPCP_A_GROUP_IPV6], &grp);
	if (tb[UDPCP_A_GROUP_IFINDEX])
		ifindex = nla_get_u32(tb[UDPCP_A_GROUP_IFINDEX]);
	if (!group_matches(&grp, ifindex, &local, arg))
		return NL_OK;
	pr_obj_open(NULL);
	pr_str("group", "group", addr_str(&grp, buf, sizeof(buf)));
	if (ifindex)
		print_dev(ifindex);
	pr_endpoint("local_address", "local_port", "local", &local);
	pr_newline(0);
	pr_obj_close();
	return NL_OK;
}

static int group_show(int argc, char **argv)
{
	struct req r = { 0 };
	int err;

	/* Filters, all optional: GROUP first if given. */
	if (argc && looks_like_addr(argv[0])) {
		if (parse_group_addr("group show", argv[0], &r))
			return EXIT_USAGE;
		argc--;
		argv++;
	}
	if (parse_kws(argc, argv, &r, "group show", group_kws,
		      ARRAY_SIZE(group_kws), 0))
		return EXIT_USAGE;
	err = resolve_dev(&r);
	if (!err)
		err = nl_open();
	if (err)
		return err;
	pr_arr_open(NULL);
	err = nl_request(UDPCP_CMD_GROUP_GET, NLM_F_DUMP, &r, NULL, show_cb,
			 &r);
	pr_arr_close();
	return err;
}

static const struct cmd cmds[] = {
	{ "show", group_show },
	{ "join", group_join },
	{ "leave", group_leave },
	{ "help", NULL },
};

const struct object obj_group = {
	.name = "group",
	.cmds = cmds,
	.ncmds = ARRAY_SIZE(cmds),
	.fallback = group_show,
	.usage =
	"Usage: " PROG " group { join | leave } GROUP [ DEV ] local [ADDR:]PORT\n"
	"       " PROG " group [ show [ GROUP ] [ DEV ] [ local [ADDR:]PORT ] ]\n"
	"DEV := { dev IFNAME | ifindex N }\n"
	"GROUP := an IPv4 or IPv6 multicast address\n",
};
