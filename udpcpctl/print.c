// SPDX-License-Identifier: GPL-2.0
/* The plain/JSON printer; see print.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "print.h"

#define MAX_DEPTH 16

static struct {
	bool json, pretty;
	/* JSON */
	int depth;
	bool first[MAX_DEPTH];	/* no member yet at this depth */
	char closer[MAX_DEPTH];	/* '}' or ']' */
	bool any;		/* something printed since pr_finish() */
	/* plain */
	bool col;		/* something on the current line */
	int indent;		/* of the next line */
} pr;

void pr_init(bool json, bool pretty)
{
	memset(&pr, 0, sizeof(pr));
	pr.json = json;
	pr.pretty = pretty;
}

static void j_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void j_indent(void)
{
	putchar('\n');
	for (int i = 0; i < pr.depth; i++)
		fputs("    ", stdout);
}

/* Separator, line break and key before a JSON value. */
static void j_member(const char *key)
{
	if (pr.depth > 0) {
		if (!pr.first[pr.depth])
			putchar(',');
		pr.first[pr.depth] = false;
		if (pr.pretty)
			j_indent();
	}
	pr.any = true;
	if (key && pr.depth > 0) {
		j_string(key);
		fputs(pr.pretty ? ": " : ":", stdout);
	}
}

/* Our output nests four deep at most; MAX_DEPTH only guards the arrays. */
static void j_open(const char *key, char opening, char closing)
{
	if (pr.depth == MAX_DEPTH - 1)
		return;
	j_member(key);
	putchar(opening);
	pr.depth++;
	pr.first[pr.depth] = true;
	pr.closer[pr.depth] = closing;
}

static void j_close(void)
{
	bool empty = pr.first[pr.depth];
	char c = pr.closer[pr.depth];

	if (pr.depth == 0)
		return;
	pr.depth--;
	if (pr.pretty && !empty)
		j_indent();
	putchar(c);
}

void pr_obj_open(const char *key)
{
	if (pr.json)
		j_open(key, '{', '}');
}

void pr_obj_close(void)
{
	if (pr.json)
		j_close();
}

void pr_arr_open(const char *key)
{
	if (pr.json)
		j_open(key, '[', ']');
}

void pr_arr_close(void)
{
	if (pr.json)
		j_close();
}

/* Space or indentation before a plain item. */
static void p_item(void)
{
	if (pr.col)
		putchar(' ');
	else
		printf("%*s", pr.indent * 4, "");
	pr.col = true;
}

static void p_label(const char *label)
{
	p_item();
	if (label)
		printf("%s ", label);
}

void pr_str(const char *key, const char *label, const char *val)
{
	if (pr.json) {
		j_member(key);
		j_string(val);
	} else {
		p_label(label);
		fputs(val, stdout);
	}
}

void pr_uint(const char *key, const char *label, uint64_t val)
{
	pr_uint_unit(key, label, val, "");
}

void pr_uint_unit(const char *key, const char *label, uint64_t val,
		  const char *unit)
{
	if (pr.json) {
		j_member(key);
		printf("%" PRIu64, val);
	} else {
		p_label(label);
		printf("%" PRIu64 "%s", val, unit);
	}
}

void pr_json_uint(const char *key, uint64_t val)
{
	if (pr.json)
		pr_uint(key, NULL, val);
}

void pr_bool(const char *key, const char *label, bool val)
{
	if (pr.json) {
		j_member(key);
		fputs(val ? "true" : "false", stdout);
	} else {
		p_label(label);
		fputs(val ? "on" : "off", stdout);
	}
}

void pr_endpoint(const char *addr_key, const char *port_key,
		 const char *label, const struct endpoint *ep)
{
	char buf[INET6_ADDRSTRLEN];
	bool v6 = ep->addr.family == AF_INET6;

	/* A port alone prints as "label PORT", as "group ... local" takes it. */
	if (!ep->addr.family) {
		pr_uint(port_key, label, ep->port);
		return;
	}
	addr_str(&ep->addr, buf, sizeof(buf));
	if (pr.json) {
		pr_str(addr_key, NULL, buf);
		pr_uint(port_key, NULL, ep->port);
		return;
	}
	p_label(label);
	printf(v6 ? "[%s]:%u" : "%s:%u", buf, ep->port);
}

void pr_list(const char *key, const char *label, const char *const *vals,
	     size_t n)
{
	if (pr.json) {
		pr_arr_open(key);
		for (size_t i = 0; i < n; i++)
			pr_str(NULL, NULL, vals[i]);
		pr_arr_close();
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (i == 0)
			p_label(label);
		printf("%s%s", i ? "," : "", vals[i]);
	}
}

void pr_word(const char *word)
{
	if (!pr.json) {
		p_item();
		fputs(word, stdout);
	}
}

void pr_newline(int indent)
{
	if (pr.json)
		return;
	if (pr.col)
		putchar('\n');
	pr.col = false;
	pr.indent = indent;
}

void pr_finish(void)
{
	if (pr.json) {
		while (pr.depth > 0)
			j_close();
		if (pr.any)
			putchar('\n');
		pr.any = false;
	} else {
		pr_newline(0);
	}
	fflush(stdout);
}
