// SPDX-License-Identifier: GPL-2.0
/*
 * -b FILE: one command per line, as after "udpcpctl" on the command line
 * (OBJECT COMMAND ARGS; the global options of the command line apply to
 * every line), through one netlink socket.  Words are split as a shell
 * splits them, without expansions: '...' and "..." quote, a backslash
 * escapes the next character, a backslash at the end of a line continues
 * the command on the next, and # starts a comment where a word could start.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "udpcpctl.h"

#define MAX_WORDS 256

enum { SPLIT_MORE = -2, SPLIT_ERR = -1 };

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
	       c == '\v';
}

/*
 * Split @s in place into @av (NULL-terminated).  Returns the number of
 * words, SPLIT_MORE if a quote or a trailing backslash needs the next
 * line, or SPLIT_ERR with @err set.
 */
static int split(char *s, char **av, const char **err)
{
	char *r = s, *w = s;
	int ac = 0;

	for (;;) {
		while (is_blank(*r) || (r[0] == '\\' && r[1] == '\n')) {
			if (r[0] == '\\' && !r[2])
				return SPLIT_MORE;
			r += *r == '\\' ? 2 : 1;
		}
		if (!*r || *r == '#')
			break;
		if (ac == MAX_WORDS - 1) {
			*err = "too many words";
			return SPLIT_ERR;
		}
		av[ac++] = w;
		while (*r && !is_blank(*r)) {
			char q = *r;

			if (q == '\'' || q == '"') {
				for (r++; *r && *r != q; ) {
					if (q == '"' && r[0] == '\\' && r[1] == '\n') {
						r += 2;
						continue;
					}
					if (q == '"' && r[0] == '\\' &&
					    (r[1] == '"' || r[1] == '\\'))
						r++;
					*w++ = *r++;
				}
				if (!*r)
					return SPLIT_MORE;
				r++;
			} else if (q == '\\') {
				if (!r[1])
					return SPLIT_MORE;
				if (r[1] == '\n') {
					if (!r[2])
						return SPLIT_MORE;
					r += 2;
					continue;
				}
				r++;
				*w++ = *r++;
			} else {
				*w++ = *r++;
			}
		}
		if (*r)
			r++;
		*w++ = '\0';
	}
	av[ac] = NULL;
	return ac;
}

/* The whole text of a command: lines joined while split() wants more. */
struct cmdbuf {
	char *text;
	size_t len, size;
};

static int append(struct cmdbuf *b, const char *line, size_t n)
{
	if (b->len + n + 1 > b->size) {
		size_t size = (b->len + n + 1) * 2;
		char *t = realloc(b->text, size);

		if (!t)
			return -1;
		b->text = t;
		b->size = size;
	}
	memcpy(b->text + b->len, line, n);
	b->len += n;
	b->text[b->len] = '\0';
	return 0;
}

int run_batch(const char *file, bool force, int (*run)(int, char **))
{
	const char *name = strcmp(file, "-") ? file : "<stdin>";
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	struct cmdbuf cmd = { 0 };
	char *line = NULL, *copy = NULL, *av[MAX_WORDS];
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, first = 0, status = EXIT_OK, ret, ac;
	char where[PATH_MAX + 16];
	const char *err = NULL;

	if (!f)
		return usage_err("-b: cannot open \"%s\": %s", file,
				 strerror(errno));
	for (;;) {
		n = getline(&line, &cap, f);
		if (n < 0 && !cmd.len)
			break;
		lineno++;
		if (!cmd.len)
			first = lineno;
		if (n > 0 && append(&cmd, line, n)) {
			status = usage_err("-b: out of memory");
			break;
		}
		free(copy);
		copy = strdup(cmd.text ? cmd.text : "");
		if (!copy) {
			status = usage_err("-b: out of memory");
			break;
		}
		ac = split(copy, av, &err);
		if (ac == SPLIT_MORE && n >= 0)
			continue;
		snprintf(where, sizeof(where), "%s:%d", name, first);
		err_where = where;
		if (ac == SPLIT_MORE)
			ret = usage_err("unterminated quote or backslash at the end of the file");
		else if (ac == SPLIT_ERR)
			ret = usage_err("%s", err);
		else
			ret = ac ? run(ac, av) : EXIT_OK;
		err_where = NULL;
		cmd.len = 0;
		if (cmd.text)
			cmd.text[0] = '\0';
		if (ret && status == EXIT_OK)
			status = ret;
		if ((ret && !force) || n < 0)
			break;
	}
	if (ferror(f)) {
		report(true, "-b: cannot read \"%s\": %s", name, strerror(errno));
		if (status == EXIT_OK)
			status = EXIT_USAGE;
	}
	if (f != stdin)
		fclose(f);
	free(line);
	free(copy);
	free(cmd.text);
	return status;
}
