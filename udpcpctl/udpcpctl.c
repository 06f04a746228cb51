// SPDX-License-Identifier: GPL-2.0
/*
 * udpcpctl [-j [-p]] [-s] [-u] [-n NETNS] OBJECT COMMAND [ARGS]
 * udpcpctl [-j [-p]] [-s] [-n NETNS] -b FILE [-force]
 *
 * Global options, then a table lookup of the object and of its command;
 * every command parses its arguments fully before it talks to the kernel.
 */
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
	{ "save", &obj_save },
	{ "top", &obj_top },
	{ "help", NULL },
};

static const char main_usage[] =
	"Usage: " PROG " [ OPTIONS ] OBJECT { COMMAND | help }\n"
	"       " PROG " [ OPTIONS ] -b FILE [ -force ]\n"
	"       " PROG " help [ OBJECT ]\n"
	"       " PROG " { -h | --help | -V | --version }\n"
	"OBJECT := { defaults | sock | peer | stats | group | monitor | save | top }\n"
	"OPTIONS := { -j[son] [ -p[retty] ] | -s[tats] | -t[imestamp] | -u[sers] |\n"
	"            -n[etns] NETNS }\n"
	"-b[atch] FILE: one command per line (OBJECT COMMAND ARGS), FILE - for stdin;\n"
	"-f[orce]: go on after a failed line.  Options also take two dashes.\n"
	"Objects and commands may be abbreviated to a unique prefix; list, ls and\n"
	"lst mean show.  Durations (tx-timeout, rx-timeout, peer-expiry) are\n"
	"milliseconds, or a number with a unit: 200ms, 1.5s, 500us.\n";

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
	/* ip's synonyms of show, exact words only: "l" stays "leave". */
	if (!strcmp(argv[0], "list") || !strcmp(argv[0], "ls") ||
	    !strcmp(argv[0], "lst")) {
		for (i = 0; i < (int)o->ncmds; i++)
			if (!strcmp(o->cmds[i].name, "show"))
				return o->cmds[i].fn(argc - 1, argv + 1);
	}
	if (o->fallback_args) {
		for (i = 0; i < (int)o->ncmds; i++)
			if (!strcmp(o->cmds[i].name, argv[0]))
				break;
		if (i == (int)o->ncmds)
			return o->fallback(argc, argv);
	}
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

/* "help" alone: everything; "help OBJECT": that object's usage. */
static int run_help(int argc, char **argv)
{
	int i;

	if (!argc) {
		usage(stdout, true);
		return EXIT_OK;
	}
	if (argc > 1)
		return usage_err("help: unexpected argument \"%s\"", argv[1]);
	i = LOOKUP(argv[0], objects, "object");
	if (i < 0)
		return EXIT_USAGE;
	if (objects[i].obj)
		fputs(objects[i].obj->usage, stdout);
	else
		usage(stdout, true);
	return EXIT_OK;
}

/* OBJECT COMMAND ARGS, from the command line or a line of a batch. */
static int run_words(int argc, char **argv)
{
	const struct object *o;
	int i, ret;

	i = LOOKUP(argv[0], objects, "object");
	if (i < 0)
		return EXIT_USAGE;
	o = objects[i].obj;
	if (!o)
		return run_help(argc - 1, argv + 1);
	/* In a batch it would never end: the next lines would wait forever. */
	if (o == &obj_monitor && err_where &&
	    (argc == 1 || strncmp(argv[1], "help", strlen(argv[1]))))
		return usage_err("monitor runs until killed: not in a batch");
	/* -p alone means nothing, as in ip. */
	pr_init(opts.json, opts.json && opts.pretty);
	ret = run_object(o, argc - 1, argv + 1);
	pr_finish();
	return ret;
}

struct gopt {
	const char *name;
	char c;
	bool arg;
};

static const struct gopt gopts[] = {
	{ "json", 'j', false },
	{ "pretty", 'p', false },
	{ "stats", 's', false },
	{ "timestamp", 't', false },
	{ "users", 'u', false },
	{ "netns", 'n', true },
	{ "batch", 'b', true },
	{ "force", 'f', false },
	{ "help", 'h', false },
	{ "version", 'V', false },
};

static const char *batch_file;
static bool force;

/* Returns -1 to go on, or the exit status. */
static int apply_opt(const struct gopt *g, const char *val)
{
	switch (g->c) {
	case 'j':
		opts.json = true;
		break;
	case 'p':
		opts.pretty = true;
		break;
	case 's':
		opts.stats = true;
		break;
	case 't':
		opts.timestamp = true;
		break;
	case 'u':
		opts.users = true;
		break;
	case 'f':
		force = true;
		break;
	case 'b':
		if (!*val)
			return usage_err("-b: missing FILE");
		batch_file = val;
		break;
	case 'n':
		if (set_netns(val))
			return EXIT_USAGE;
		break;
	case 'h':
		usage(stdout, true);
		return EXIT_OK;
	case 'V':
		printf(PROG " %s (generic netlink family %s version %d)\n",
		       UDPCPCTL_VERSION, UDPCP_GENL_NAME, UDPCP_GENL_VERSION);
		return EXIT_OK;
	}
	return -1;
}

static const struct gopt *short_opt(char c)
{
	for (size_t i = 0; i < ARRAY_SIZE(gopts); i++)
		if (gopts[i].c == c)
			return &gopts[i];
	return NULL;
}

/* By exact name or unique prefix of @len characters of @name. */
static const struct gopt *long_opt(const char *name, size_t len)
{
	const struct gopt *found = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(gopts); i++) {
		if (strncmp(gopts[i].name, name, len))
			continue;
		if (!gopts[i].name[len])
			return &gopts[i];
		if (found)
			return NULL;
		found = &gopts[i];
	}
	return found;
}

/* Only flags, none taking a value: "-jp", "-js". */
static bool flag_bundle(const char *s)
{
	const struct gopt *g;

	for (; *s; s++) {
		g = short_opt(*s);
		if (!g || g->arg)
			return false;
	}
	return true;
}

/*
 * As ip takes them: "-json", "-pretty", "-force", "-batch FILE" (any
 * unique prefix), and as getopt_long does: "--json", "--netns=NS",
 * "-j", "-jp", "-n NS".  Options end at the first other word.
 */
static int parse_opts(int *argcp, char ***argvp)
{
	char **argv = *argvp;
	int argc = *argcp, ret;

	while (argc > 0 && argv[0][0] == '-' && argv[0][1]) {
		const char *word = argv[0], *name = word + 1, *eq, *val = NULL;
		const struct gopt *g = NULL;

		argc--;
		argv++;
		if (!strcmp(word, "--"))
			break;
		if (name[0] == '-')
			name++;
		if (!name[1] && name == word + 1) {
			g = short_opt(name[0]);
		} else if (name == word + 1 && flag_bundle(name)) {
			for (; *name; name++) {
				ret = apply_opt(short_opt(*name), NULL);
				if (ret >= 0)
					return ret;
			}
			continue;
		} else {
			eq = strchr(name, '=');
			g = long_opt(name, eq ? (size_t)(eq - name) : strlen(name));
			if (g && eq) {
				if (!g->arg)
					return usage_err("%.*s: takes no value",
							 (int)(eq - word), word);
				val = eq + 1;
			}
		}
		if (!g)
			return usage_err("unknown option \"%s\"", word);
		if (g->arg && !val) {
			if (!argc)
				return usage_err("%s: missing value", word);
			val = argv[0];
			argc--;
			argv++;
		}
		ret = apply_opt(g, val);
		if (ret >= 0)
			return ret;
	}
	*argcp = argc;
	*argvp = argv;
	return -1;
}

int main(int argc, char **argv)
{
	int ret;

	argc--;
	argv++;
	ret = parse_opts(&argc, &argv);
	if (ret >= 0)
		return ret;
	if (batch_file) {
		if (argc)
			return usage_err("-b: unexpected argument \"%s\"", argv[0]);
		return run_batch(batch_file, force, run_words);
	}
	if (!argc) {
		usage(stderr, false);
		return EXIT_USAGE;
	}
	return run_words(argc, argv);
}
