// SPDX-License-Identifier: GPL-2.0
/*
 * save: the namespace's configuration as a batch that "udpcpctl -b"
 * restores: the defaults, then the namespace-wide peer configurations.
 *
 * Every default is written, not only those changed: -b then gives the
 * saved state whatever the namespace had before, and the kernel does not
 * say which of its values are built in.  A peer configuration is written
 * with the parameters that differ from the defaults: the kernel reports it
 * merged onto the defaults, so those are exactly what it overrides unless
 * an override repeats the default's value (which would then follow the
 * defaults after a restore, and read the same).  Peers of sockets are left
 * out: they live and die with their socket, and no socket outlives the
 * module.  Nothing is printed unless the kernel answered both requests.
 */
#include <stdio.h>
#include <stdlib.h>

#include "udpcpctl.h"

struct save {
	FILE *out;
	struct params defaults;
	bool have_defaults;
	int err;
};

static int defaults_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[UDPCP_A_MAX + 1];
	struct save *sv = arg;

	if (!genl_attrs(msg, tb) || !tb[UDPCP_A_DEFAULTS] ||
	    defaults_get(tb[UDPCP_A_DEFAULTS], &sv->defaults)) {
		sv->err = -1;
		return NL_SKIP;
	}
	sv->have_defaults = true;
	return NL_OK;
}

static int peer_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *top[UDPCP_A_MAX + 1], *tb[UDPCP_A_PEER_MAX + 1];
	char buf[INET6_ADDRSTRLEN];
	struct save *sv = arg;
	struct params ps;
	struct addr a;

	if (!genl_attrs(msg, top) || !top[UDPCP_A_PEER] ||
	    nest_parse(tb, UDPCP_A_PEER_MAX, top[UDPCP_A_PEER], peer_policy,
		       "peer")) {
		sv->err = -1;
		return NL_SKIP;
	}
	/* A namespace-wide configuration is a peer without a socket. */
	if (tb[UDPCP_A_PEER_SOCK])
		return NL_OK;
	if (!get_addr(tb[UDPCP_A_PEER_REMOTE_IPV4], tb[UDPCP_A_PEER_REMOTE_IPV6],
		      &a) || !tb[UDPCP_A_PEER_REMOTE_PORT] ||
	    params_get(tb[UDPCP_A_PEER_PARAMS], &ps)) {
		warn_malformed("peer");
		sv->err = -1;
		return NL_SKIP;
	}
	fprintf(sv->out, "peer replace %s port %u", addr_str(&a, buf, sizeof(buf)),
		nla_get_u16(tb[UDPCP_A_PEER_REMOTE_PORT]));
	params_text(sv->out, &ps, &sv->defaults);
	fputc('\n', sv->out);
	return NL_OK;
}

static int save_run(int argc, char **argv)
{
	struct save sv = { 0 };
	char *text = NULL;
	size_t len = 0;
	int err;

	if (no_args("save", argc, argv))
		return EXIT_USAGE;
	sv.out = open_memstream(&text, &len);
	if (!sv.out) {
		report(true, "save: out of memory");
		return EXIT_KERNEL;
	}
	err = nl_request(UDPCP_CMD_DEFAULTS_GET, 0, NULL, NULL, defaults_cb,
			 &sv);
	if (!err && (sv.err || !sv.have_defaults)) {
		report(true, "save: the kernel sent no usable defaults");
		err = EXIT_KERNEL;
	}
	if (!err) {
		fputs("defaults set", sv.out);
		params_text(sv.out, &sv.defaults, NULL);
		fputc('\n', sv.out);
		err = nl_request(UDPCP_CMD_PEER_GET, NLM_F_DUMP, NULL, NULL,
				 peer_cb, &sv);
	}
	if (!err && sv.err) {
		report(true, "save: the kernel sent a peer this udpcpctl cannot read");
		err = EXIT_KERNEL;
	}
	fclose(sv.out);
	if (!err) {
		/* No date: the same configuration saves to the same text. */
		printf("# udpcpctl %s save: the udpcp configuration of a network namespace\n"
		       "# restore with: udpcpctl [ -n NETNS ] -b FILE\n",
		       UDPCPCTL_VERSION);
		fwrite(text, 1, len, stdout);
	}
	free(text);
	return err;
}

static const struct cmd cmds[] = {
	{ "help", NULL },
};

const struct object obj_save = {
	.name = "save",
	.cmds = cmds,
	.ncmds = ARRAY_SIZE(cmds),
	.fallback = save_run,
	.usage =
	"Usage: " PROG " [ -n NETNS ] save\n"
	"Prints the namespace's defaults and its namespace-wide peers (those added\n"
	"without local) as commands for " PROG " -b; peers of sockets are left out.\n",
};
