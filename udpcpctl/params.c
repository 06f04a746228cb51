// SPDX-License-Identifier: GPL-2.0
/*
 * Protocol parameters: one table drives parsing, the netlink encoding and
 * printing, so a parameter is added in one place.
 */
#include <stdio.h>
#include <string.h>

#include "print.h"
#include "udpcpctl.h"

struct enum_val {
	const char *name;	/* first: lookup() reads it */
	uint32_t val;
};

static const struct enum_val modes[] = {
	{ "noack", UDPCP_NOACK },
	{ "ack", UDPCP_ACK },
	{ "single-ack", UDPCP_SINGLE_ACK },
};

/* UDPCP_A_PARAMS_CHECKSUM is 0/1, not UDPCP_NOCHECKSUM/UDPCP_CHECKSUM. */
static const struct enum_val onoff[] = {
	{ "off", 0 },
	{ "on", 1 },
};

struct param {
	const char *word;	/* keyword and plain label */
	const char *key;	/* JSON key; the unit is in the name */
	int attr;		/* UDPCP_A_PARAMS_*, or UDPCP_A_DEFAULTS_* */
	bool outer;		/* in UDPCP_A_DEFAULTS, not in the params nest */
	int size;		/* 1 or 4 bytes on the wire */
	uint32_t min, max;
	const struct enum_val *vals;
	size_t nvals;
	bool boolean;		/* JSON true/false rather than a string */
	bool ms;		/* a duration: units accepted (200ms, 1.5s) */
};

#define ENUM(v) .vals = (v), .nvals = ARRAY_SIZE(v)

static const struct param params[P_COUNT] = {
	[P_MODE] = { "mode", "mode", UDPCP_A_PARAMS_TRANSFER_MODE, false, 1,
		     0, 0, ENUM(modes) },
	[P_CHECKSUM] = { "checksum", "checksum", UDPCP_A_PARAMS_CHECKSUM,
			 false, 1, 0, 0, ENUM(onoff), .boolean = true },
	[P_TX_TIMEOUT] = { "tx-timeout", "tx_timeout_ms",
			   UDPCP_A_PARAMS_TX_TIMEOUT, false, 4,
			   UDPCP_MIN_TIMEOUT_MS, UDPCP_MAX_TIMEOUT_MS, .ms = true },
	[P_RX_TIMEOUT] = { "rx-timeout", "rx_timeout_ms",
			   UDPCP_A_PARAMS_RX_TIMEOUT, false, 4,
			   UDPCP_MIN_TIMEOUT_MS, UDPCP_MAX_TIMEOUT_MS, .ms = true },
	[P_MAX_TRY] = { "max-try", "max_try", UDPCP_A_PARAMS_MAX_TRIES, false,
			1, UDPCP_MIN_MAXTRY, UDPCP_MAX_MAXTRY },
	[P_OUTSTANDING_ACKS] = { "outstanding-acks", "outstanding_acks",
				 UDPCP_A_PARAMS_OUTSTANDING_ACKS, false, 1,
				 UDPCP_MIN_OUTSTANDING_ACKS,
				 UDPCP_MAX_OUTSTANDING_ACKS },
	[P_MAX_PEERS] = { "max-peers", "max_peers", UDPCP_A_DEFAULTS_MAX_PEERS,
			  true, 4, UDPCP_MIN_PEERS, UDPCP_MAX_PEERS },
	[P_PEER_EXPIRY] = { "peer-expiry", "peer_expiry_ms",
			    UDPCP_A_DEFAULTS_PEER_EXPIRY, true, 4,
			    UDPCP_MIN_PEER_EXPIRY_MS, UDPCP_MAX_PEER_EXPIRY_MS,
			    .ms = true },
};

const char *param_word(int id)
{
	return params[id].word;
}

int kw_param(struct req *r, const struct kw *k, const char *val)
{
	const struct param *p = &params[k->slot];
	uint32_t v = 0;
	int i;

	if (p->vals) {
		i = lookup(val, p->vals, p->nvals, sizeof(p->vals[0]), p->word);
		if (i < 0)
			return EXIT_USAGE;
		v = p->vals[i].val;
	} else if (p->ms) {
		if (parse_duration(p->word, val, p->min, p->max, &v))
			return EXIT_USAGE;
	} else if (parse_u32(p->word, val, p->min, p->max, &v)) {
		return EXIT_USAGE;
	}
	r->params.val[k->slot] = v;
	r->params.set[k->slot] = true;
	return 0;
}

static int put_one(struct nl_msg *msg, const struct param *p, uint32_t v)
{
	return p->size == 1 ? nla_put_u8(msg, p->attr, v) :
			      nla_put_u32(msg, p->attr, v);
}

/* Leaves the nest out when no parameter of it was given. */
int put_params(struct nl_msg *msg, int attr, const struct params *ps)
{
	struct nlattr *nest = NULL;
	int id;

	for (id = 0; id < P_COUNT; id++) {
		if (!ps->set[id] || params[id].outer)
			continue;
		if (!nest)
			nest = nla_nest_start(msg, attr);
		if (!nest || put_one(msg, &params[id], ps->val[id]))
			return -1;
	}
	if (nest)
		nla_nest_end(msg, nest);
	for (id = 0; id < P_COUNT; id++)
		if (ps->set[id] && params[id].outer &&
		    put_one(msg, &params[id], ps->val[id]))
			return -1;
	return 0;
}

static const struct nla_policy params_policy[UDPCP_A_PARAMS_MAX + 1] = {
	[UDPCP_A_PARAMS_TRANSFER_MODE] = { .type = NLA_U8 },
	[UDPCP_A_PARAMS_CHECKSUM] = { .type = NLA_U8 },
	[UDPCP_A_PARAMS_TX_TIMEOUT] = { .type = NLA_U32 },
	[UDPCP_A_PARAMS_RX_TIMEOUT] = { .type = NLA_U32 },
	[UDPCP_A_PARAMS_MAX_TRIES] = { .type = NLA_U8 },
	[UDPCP_A_PARAMS_OUTSTANDING_ACKS] = { .type = NLA_U8 },
};

static const struct nla_policy defaults_policy[UDPCP_A_DEFAULTS_MAX + 1] = {
	[UDPCP_A_DEFAULTS_PARAMS] = { .type = NLA_NESTED },
	[UDPCP_A_DEFAULTS_MAX_PEERS] = { .type = NLA_U32 },
	[UDPCP_A_DEFAULTS_PEER_EXPIRY] = { .type = NLA_U32 },
};

static void print_one(const struct param *p, const struct nlattr *a)
{
	uint32_t v = p->size == 1 ? nla_get_u8(a) : nla_get_u32(a);
	char num[16];

	if (p->boolean) {
		pr_bool(p->key, p->word, v);
		return;
	}
	if (!p->vals) {
		pr_uint(p->key, p->word, v);
		return;
	}
	for (size_t i = 0; i < p->nvals; i++) {
		if (p->vals[i].val == v) {
			pr_str(p->key, p->word, p->vals[i].name);
			return;
		}
	}
	/* A newer kernel's value: show it rather than hide it. */
	snprintf(num, sizeof(num), "%u", v);
	pr_str(p->key, p->word, num);
}

/*
 * Print what the kernel sent, in table order and as "defaults set" and
 * "peer add" take them, so plain output can be pasted back.  @td is NULL
 * but for the defaults.
 */
static void print_table(struct nlattr **tp, struct nlattr **td)
{
	for (int id = 0; id < P_COUNT; id++) {
		const struct param *p = &params[id];
		struct nlattr *a = p->outer ? (td ? td[p->attr] : NULL) :
					      tp[p->attr];

		if (a)
			print_one(p, a);
	}
}

void print_params(struct nlattr *nest)
{
	struct nlattr *tp[UDPCP_A_PARAMS_MAX + 1];

	if (!nest_parse(tp, UDPCP_A_PARAMS_MAX, nest, params_policy,
			"parameters"))
		print_table(tp, NULL);
}

void print_defaults(struct nlattr *nest)
{
	struct nlattr *tp[UDPCP_A_PARAMS_MAX + 1];
	struct nlattr *td[UDPCP_A_DEFAULTS_MAX + 1];

	if (!nest_parse(td, UDPCP_A_DEFAULTS_MAX, nest, defaults_policy,
			"defaults") &&
	    !nest_parse(tp, UDPCP_A_PARAMS_MAX, td[UDPCP_A_DEFAULTS_PARAMS],
			params_policy, "parameters"))
		print_table(tp, td);
}

/* What the kernel sent, into @ps; @td is NULL but for the defaults. */
static void get_table(struct nlattr **tp, struct nlattr **td,
		      struct params *ps)
{
	memset(ps, 0, sizeof(*ps));
	for (int id = 0; id < P_COUNT; id++) {
		const struct param *p = &params[id];
		struct nlattr *a = p->outer ? (td ? td[p->attr] : NULL) :
					      tp[p->attr];

		if (!a)
			continue;
		ps->val[id] = p->size == 1 ? nla_get_u8(a) : nla_get_u32(a);
		ps->set[id] = true;
	}
}

int params_get(struct nlattr *nest, struct params *ps)
{
	struct nlattr *tp[UDPCP_A_PARAMS_MAX + 1];

	if (nest_parse(tp, UDPCP_A_PARAMS_MAX, nest, params_policy,
		       "parameters"))
		return -1;
	get_table(tp, NULL, ps);
	return 0;
}

int defaults_get(struct nlattr *nest, struct params *ps)
{
	struct nlattr *tp[UDPCP_A_PARAMS_MAX + 1];
	struct nlattr *td[UDPCP_A_DEFAULTS_MAX + 1];

	if (nest_parse(td, UDPCP_A_DEFAULTS_MAX, nest, defaults_policy,
		       "defaults") ||
	    nest_parse(tp, UDPCP_A_PARAMS_MAX, td[UDPCP_A_DEFAULTS_PARAMS],
		       params_policy, "parameters"))
		return -1;
	get_table(tp, td, ps);
	return 0;
}

void params_text(FILE *f, const struct params *ps, const struct params *base)
{
	for (int id = 0; id < P_COUNT; id++) {
		const struct param *p = &params[id];
		const char *name = NULL;

		if (!ps->set[id] ||
		    (base && base->set[id] && base->val[id] == ps->val[id]))
			continue;
		for (size_t i = 0; p->vals && i < p->nvals; i++)
			if (p->vals[i].val == ps->val[id])
				name = p->vals[i].name;
		if (name)
			fprintf(f, " %s %s", p->word, name);
		else
			fprintf(f, " %s %u", p->word, ps->val[id]);
	}
}
