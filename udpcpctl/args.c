// SPDX-License-Identifier: GPL-2.0
/*
 * Argument parsing.  Everything here runs before any netlink, so a bad
 * argument is exit status 1 whether or not the module is loaded.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "udpcpctl.h"

const char *err_where;

static void vreport(bool prog, const char *fmt, va_list ap)
{
	if (prog || err_where)
		fputs(PROG ": ", stderr);
	if (err_where)
		fprintf(stderr, "%s: ", err_where);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void report(bool prog, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(prog, fmt, ap);
	va_end(ap);
}

int usage_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(true, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int no_args(const char *cmd, int argc, char **argv)
{
	if (argc)
		return usage_err("%s: unexpected argument \"%s\"", cmd, argv[0]);
	return 0;
}

static const char *entry_name(const void *table, size_t stride, size_t i)
{
	return *(const char *const *)((const char *)table + i * stride);
}

/* "a, b or c" of the names in @table whose prefix is @word ("" for all). */
static void list_names(char *buf, size_t len, const char *word,
		       const void *table, size_t n, size_t stride)
{
	size_t wl = strlen(word), count = 0, done = 0;
	size_t i;

	for (i = 0; i < n; i++)
		count += !strncmp(entry_name(table, stride, i), word, wl);
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		const char *name = entry_name(table, stride, i);
		size_t used = strlen(buf);

		if (strncmp(name, word, wl))
			continue;
		done++;
		snprintf(buf + used, len - used, "%s%s",
			 done == 1 ? "" : done == count ? " or " : ", ", name);
	}
}

int lookup(const char *word, const void *table, size_t n, size_t stride,
	   const char *what)
{
	size_t wl = strlen(word), matches = 0;
	int found = -1;
	char names[512];

	for (size_t i = 0; i < n; i++) {
		const char *name = entry_name(table, stride, i);

		if (!strcmp(name, word))
			return i;
		if (wl && !strncmp(name, word, wl)) {
			matches++;
			found = i;
		}
	}
	if (matches == 1)
		return found;
	if (matches > 1) {
		list_names(names, sizeof(names), word, table, n, stride);
		usage_err("ambiguous %s \"%s\": %s", what, word, names);
	} else {
		list_names(names, sizeof(names), "", table, n, stride);
		usage_err("unknown %s \"%s\", expected %s", what, word, names);
	}
	return -1;
}

/* Decimal only: "010" meaning 8 would surprise. */
int parse_u32(const char *word, const char *val, uint32_t min, uint32_t max,
	      uint32_t *res)
{
	unsigned long long v;
	char *end;

	if (*val < '0' || *val > '9')
		goto nan;
	errno = 0;
	v = strtoull(val, &end, 10);
	if (*end)
		goto nan;
	if (errno == ERANGE || v < min || v > max)
		return usage_err("%s: \"%s\" is out of range (%u-%u)", word,
				 val, min, max);
	*res = v;
	return 0;
nan:
	return usage_err("%s: \"%s\" is not a number", word, val);
}

/*
 * A duration in milliseconds: a plain number is milliseconds, as the
 * kernel has them; a number (with a fraction, if wanted) followed by us,
 * ms or s is converted, and must come to whole milliseconds.
 */
int parse_duration(const char *word, const char *val, uint32_t min,
		   uint32_t max, uint32_t *res)
{
	static const struct {
		const char *name;
		unsigned long long us;
	} units[] = { { "us", 1 }, { "ms", 1000 }, { "s", 1000000 } };
	unsigned long long whole = 0, frac = 0, scale = 1, us, mult = 0;
	const char *p = val;
	int digits = 0;

	for (; *p >= '0' && *p <= '9'; p++, digits++)
		if (whole < 1000000000000ULL)
			whole = whole * 10 + (*p - '0');
	if (!digits)
		goto bad;
	if (!*p)
		return parse_u32(word, val, min, max, res);
	if (*p == '.') {
		for (p++, digits = 0; *p >= '0' && *p <= '9'; p++, digits++) {
			if (scale >= 1000000000ULL) {
				if (*p != '0')
					goto whole_ms;
				continue;
			}
			frac = frac * 10 + (*p - '0');
			scale *= 10;
		}
		if (!digits)
			goto bad;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(p, units[i].name))
			mult = units[i].us;
	if (!mult)
		goto bad;
	if (frac * mult % scale)
		goto whole_ms;
	us = whole * mult + frac * mult / scale;
	if (us % 1000)
		goto whole_ms;
	if (whole >= 1000000000000ULL || us / 1000 < min || us / 1000 > max)
		return usage_err("%s: \"%s\" is out of range (%u-%u ms)", word,
				 val, min, max);
	*res = us / 1000;
	return 0;
whole_ms:
	return usage_err("%s: \"%s\" is not a whole number of milliseconds",
			 word, val);
bad:
	return usage_err("%s: \"%s\" is not a duration (milliseconds, or a number with us, ms or s: 200, 200ms, 1.5s)",
			 word, val);
}

int parse_port(const char *word, const char *val, uint16_t *port)
{
	uint32_t v = 0;

	if (parse_u32(word, val, 1, 65535, &v))
		return EXIT_USAGE;
	*port = v;
	return 0;
}

/* Quiet: callers word the error, or try another reading of @val. */
static bool addr_pton(const char *val, struct addr *a)
{
	if (inet_pton(AF_INET, val, &a->v4) == 1) {
		a->family = AF_INET;
		return true;
	}
	if (inet_pton(AF_INET6, val, &a->v6) == 1) {
		a->family = AF_INET6;
		return true;
	}
	return false;
}

/* Keywords never contain ':' nor start with a digit; addresses do. */
bool looks_like_addr(const char *s)
{
	struct addr a;

	return addr_pton(s, &a) || strchr(s, ':') || (*s >= '0' && *s <= '9');
}

int parse_addr(const char *word, const char *val, struct addr *a)
{
	if (addr_pton(val, a))
		return 0;
	return usage_err("%s: \"%s\" is not an IPv4 or IPv6 address", word,
			 val);
}

/* ADDR:PORT, [ADDR6]:PORT, or with !@need_addr also PORT alone. */
int parse_endpoint(const char *word, const char *val, bool need_addr,
		   struct endpoint *ep)
{
	const char *form = need_addr ? "ADDR:PORT" : "[ADDR:]PORT";
	const char *colon = strrchr(val, ':');
	char host[INET6_ADDRSTRLEN + 2];
	size_t hl;

	memset(ep, 0, sizeof(*ep));
	if (!colon) {
		if (need_addr)
			goto bad;
		return parse_port(word, val, &ep->port);
	}
	hl = colon - val;
	if (hl >= sizeof(host))
		goto bad;
	memcpy(host, val, hl);
	host[hl] = '\0';
	if (host[0] == '[' && hl > 2 && host[hl - 1] == ']') {
		host[hl - 1] = '\0';
		if (inet_pton(AF_INET6, host + 1, &ep->addr.v6) != 1)
			goto bad;
		ep->addr.family = AF_INET6;
	} else if (inet_pton(AF_INET, host, &ep->addr.v4) == 1) {
		ep->addr.family = AF_INET;
	} else {
		goto bad;
	}
	return parse_port(word, colon + 1, &ep->port);
bad:
	if (strchr(val, ':') != colon && val[0] != '[')
		return usage_err("%s: \"%s\": write an IPv6 address as [ADDR]:PORT",
				 word, val);
	return usage_err("%s: \"%s\" is not %s", word, val, form);
}

/* An IPv4-mapped IPv6 address as the IPv4 address, as the kernel has it. */
struct addr addr_unmapped(const struct addr *a)
{
	struct addr u = *a;

	if (a->family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&a->v6)) {
		u.family = AF_INET;
		memcpy(&u.v4, &a->v6.s6_addr[12], sizeof(u.v4));
	}
	return u;
}

/* ::ffff:192.0.2.1 is 192.0.2.1: the kernel keys both alike. */
bool addr_equal(const struct addr *a, const struct addr *b)
{
	struct addr ua = addr_unmapped(a), ub = addr_unmapped(b);

	if (ua.family != ub.family)
		return false;
	if (ua.family == AF_INET)
		return ua.v4.s_addr == ub.v4.s_addr;
	return !memcmp(&ua.v6, &ub.v6, sizeof(ua.v6));
}

const char *addr_str(const struct addr *a, char *buf, size_t len)
{
	if (!inet_ntop(a->family, &a->v4, buf, len))
		snprintf(buf, len, "?");
	return buf;
}

int kw_port(struct req *r, const struct kw *k, const char *val)
{
	return parse_port(k->word, val, &r->port);
}

int kw_local(struct req *r, const struct kw *k, const char *val)
{
	return parse_endpoint(k->word, val, true, &r->local);
}

int kw_local_port(struct req *r, const struct kw *k, const char *val)
{
	memset(&r->local, 0, sizeof(r->local));
	return parse_port(k->word, val, &r->local.port);
}

#define MAX_KWS (S_COUNT + P_COUNT)

/* The command's own keywords plus the parameters it takes, in one table. */
static size_t all_kws(struct kw *all, const struct kw *kws, size_t nkws,
		      int nparams)
{
	size_t n = 0;

	for (size_t i = 0; i < nkws; i++)
		all[n++] = kws[i];
	for (int id = 0; id < nparams; id++)
		all[n++] = (struct kw){ param_word(id), id, kw_param };
	return n;
}

int parse_kws(int argc, char **argv, struct req *r, const char *cmd,
	      const struct kw *kws, size_t nkws, int nparams)
{
	struct kw all[MAX_KWS];
	size_t n = all_kws(all, kws, nkws, nparams);
	char what[64];

	snprintf(what, sizeof(what), "%s argument", cmd);
	for (int i = 0; i < argc; i += 2) {
		int k = lookup(argv[i], all, n, sizeof(all[0]), what);
		const struct kw *kw;
		const char *prev;

		if (k < 0)
			return EXIT_USAGE;
		kw = &all[k];
		if (i + 1 >= argc)
			return usage_err("%s: missing value", kw->word);
		prev = r->seen[kw->slot];
		if (prev && !strcmp(prev, kw->word))
			return usage_err("%s given twice", kw->word);
		if (prev)
			return usage_err("%s conflicts with %s", kw->word,
					 prev);
		if (kw->parse(r, kw, argv[i + 1]))
			return EXIT_USAGE;
		r->seen[kw->slot] = kw->word;
	}
	return 0;
}
