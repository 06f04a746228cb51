// SPDX-License-Identifier: GPL-2.0
/*
 * udpcpctl [-j [-p]] [-s] [-n NETNS] OBJECT COMMAND [ARGS]
 *
 * Global options, then a table lookup of the object and of its command;
 * every command parses its arguments fully before it talks to the kernel.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "print.h"
#include "udpcpctl.h"

struct opts opts;

static const struct {
	const char *name;
	const struct object *obj;	/* NULL: help */
} objects[] = {
	{ "defaults", &obj_defaults },
	{ "sock", &obj_sock },
	{ "peer", &obj_peer },
	{ "stats", &obj_stats },
	{ "group", &obj_group },
	{ "monitor", &obj_monitor },
	{ "help", NULL },
};

static const char main_usage[] =
	"Usage: " PROG " [ OPTIONS ] OBJECT { COMMAND | help }\n"
	"       " PROG " { -h | --help | -V | --version }\n"
	"OBJECT := { defaults | sock | peer | stats | group | monitor }\n"
	"OPTIONS := { -j | --json } [ { -p | --pretty } ] | { -s | --stats } |\n"
	"           { -n | --netns } NETNS\n"
	"Objects and commands may be abbreviated to a unique prefix.\n";

static void usage(FILE *f, bool all)
{
	fputs(main_usage, f);
	if (!all)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(objects); i++) {
		if (objects[i].obj) {
			fputc('\n', f);
			fputs(objects[i].obj->usage, f);
		}
	}
}

static int run_object(const struct object *o, int argc, char **argv)
{
	char what[32];
	int i;

	if (!argc)
		return o->fallback(0, argv);
	snprintf(what, sizeof(what), "%s command", o->name);
	i = lookup(argv[0], o->cmds, o->ncmds, sizeof(o->cmds[0]), what);
	if (i < 0)
		return EXIT_USAGE;
	if (!o->cmds[i].fn) {
		fputs(o->usage, stdout);
		return EXIT_OK;
	}
	return o->cmds[i].fn(argc - 1, argv + 1);
}

/* A name under /run/netns, never a path elsewhere. */
static int set_netns(const char *name)
{
	if (!*name || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return usage_err("-n: \"%s\" is not a network namespace name",
				 name);
	opts.netns = name;
	return 0;
}

static const struct option long_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "stats", no_argument, NULL, 's' },
	{ "netns", required_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Returns -1 to go on, or the exit status. */
static int parse_opts(int argc, char **argv)
{
	int c;

	opterr = 0;	/* our messages, not getopt's */
	/* "+": options end at OBJECT, as in ip; ":": report a missing NETNS. */
	while ((c = getopt_long(argc, argv, "+:jpsn:hV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			opts.json = true;
			break;
		case 'p':
			opts.pretty = true;
			break;
		case 's':
			opts.stats = true;
			break;
		case 'n':
			if (set_netns(optarg))
				return EXIT_USAGE;
			break;
		case 'h':
			usage(stdout, true);
			return EXIT_OK;
		case 'V':
			printf(PROG " %s (generic netlink family %s version %d)\n",
			       UDPCPCTL_VERSION, UDPCP_GENL_NAME,
			       UDPCP_GENL_VERSION);
			return EXIT_OK;
		case ':':
			return usage_err("%s: missing value", argv[optind - 1]);
		default:
			if (optopt)
				return usage_err("unknown option \"-%c\"", optopt);
			return usage_err("unknown option \"%s\"",
					 argv[optind - 1]);
		}
	}
	return -1;
}

int main(int argc, char **argv)
{
	int ret = parse_opts(argc, argv);
	int i;

	if (ret >= 0)
		return ret;
	argc -= optind;
	argv += optind;
	if (!argc) {
		usage(stderr, false);
		return EXIT_USAGE;
	}
	i = LOOKUP(argv[0], objects, "object");
	if (i < 0)
		return EXIT_USAGE;
	if (!objects[i].obj) {
		usage(stdout, true);
		return EXIT_OK;
	}
	/* -p alone means nothing, as in ip. */
	pr_init(opts.json, opts.json && opts.pretty);
	ret = run_object(objects[i].obj, argc - 1, argv + 1);
	pr_finish();
	return ret;
}
