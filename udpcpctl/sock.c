// SPDX-License-Identifier: GPL-2.0
/* sock: the namespace's UDPCP sockets. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

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

/*
 * The processes holding each socket, found as ss -p finds them: by the
 * socket's inode among every process's file descriptors.
 */
struct owner {
	uint64_t inode;
	int pid;
	int fd;
	char comm[16];
};

static struct owner *owners;
static size_t nowners;

static void owner_add(uint64_t inode, int pid, int fd)
{
	struct owner *o = realloc(owners, (nowners + 1) * sizeof(*o));
	char path[64];
	FILE *f;

	if (!o)
		return;
	owners = o;
	o = &owners[nowners++];
	*o = (struct owner){ .inode = inode, .pid = pid, .fd = fd };
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(o->comm, sizeof(o->comm), f))
			o->comm[strcspn(o->comm, "\n")] = 0;
		fclose(f);
	}
}

/* Once per run; processes we may not look into are left out, as by ss. */
static void scan_owners(void)
{
	static bool scanned;
	struct dirent *p, *f;
	DIR *proc, *fds;

	if (scanned)
		return;
	scanned = true;
	proc = opendir("/proc");
	if (!proc)
		return;
	while ((p = readdir(proc))) {
		char path[600], link[64];
		unsigned long long ino;
		ssize_t n;

		if (!isdigit((unsigned char)p->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd", p->d_name);
		fds = opendir(path);
		if (!fds)
			continue;
		while ((f = readdir(fds))) {
			if (f->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/fd/%s",
				 p->d_name, f->d_name);
			n = readlink(path, link, sizeof(link) - 1);
			if (n <= 0)
				continue;
			link[n] = 0;
			if (sscanf(link, "socket:[%llu]", &ino) == 1)
				owner_add(ino, atoi(p->d_name), atoi(f->d_name));
		}
		closedir(fds);
	}
	closedir(proc);
}

/* Plain: users (("comm",pid=N,fd=M),...), as ss -p; JSON: an array. */
static void print_users(struct nlattr *a)
{
	char text[512] = "(";
	size_t len = 1;
	uint64_t inode;
	bool any = false;

	/* Walks every process's descriptors: only when asked, as ss -p. */
	if (!a || !opts.users)
		return;
	inode = nla_get_u64(a);
	scan_owners();
	for (size_t i = 0; i < nowners; i++) {
		const struct owner *o = &owners[i];

		if (o->inode != inode)
			continue;
		if (opts.json) {
			if (!any)
				pr_arr_open("users");
			pr_obj_open(NULL);
			pr_str("comm", NULL, o->comm);
			pr_uint("pid", NULL, o->pid);
			pr_uint("fd", NULL, o->fd);
			pr_obj_close();
		} else if (len < sizeof(text)) {
			len += snprintf(text + len, sizeof(text) - len,
					"%s(\"%s\",pid=%d,fd=%d)", any ? "," : "",
					o->comm, o->pid, o->fd);
		}
		any = true;
	}
	if (!any)
		return;
	if (opts.json) {
		pr_arr_close();
	} else if (len + 2 <= sizeof(text)) {
		strcat(text, ")");
		pr_str("users", "users", text);
	}
}

static void print_queues(struct nlattr **tb)
{
	print_u32(tb[UDPCP_A_SOCK_RX_QUEUE_MSGS], "rx_queue_msgs", "rx-queue");
	print_u32(tb[UDPCP_A_SOCK_RX_QUEUE_BYTES], "rx_queue_bytes", "bytes");
	print_u32(tb[UDPCP_A_SOCK_TX_QUEUE_MSGS], "tx_queue_msgs", "tx-queue");
	print_u32(tb[UDPCP_A_SOCK_TX_QUEUE_BYTES], "tx_queue_bytes", "bytes");
	print_u32(tb[UDPCP_A_SOCK_RX_PARTIAL_MEM], "rx_partial_mem",
		  "partial-mem");
}

/*
 * "sock inet 0.0.0.0:5000 peers 2 uid 0 inode 123 cookie 4096" and the
 * processes holding it; params; queues; with -s, counters.
 */
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
	print_users(tb[UDPCP_A_SOCK_INODE]);
	pr_newline(1);
	print_params(tb[UDPCP_A_SOCK_PARAMS]);
	pr_newline(1);
	print_queues(tb);
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
