/* SPDX-License-Identifier: GPL-2.0 */
/*
 * udpcpctl: manage UDPCP through the "udpcp" generic netlink family.
 * Declarations shared by the objects (defaults, sock, peer, ...).
 */
#ifndef UDPCPCTL_H
#define UDPCPCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <netinet/in.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <linux/udpcp.h>

#ifndef UDPCPCTL_VERSION
#define UDPCPCTL_VERSION "0.1"
#endif

#define PROG "udpcpctl"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* The uapi limits, spelled into help texts. */
#define STR_(x) #x
#define STR(x) STR_(x)

/* Exit status: the man page promises these. */
enum {
	EXIT_OK = 0,
	EXIT_USAGE = 1,		/* bad arguments, checked before any netlink */
	EXIT_KERNEL = 2,	/* the kernel refused, or is unreachable */
};

/* Global options, set once by main() before any object runs. */
struct opts {
	bool json;
	bool pretty;
	bool stats;
	bool timestamp;		/* monitor: when each event came */
	bool users;		/* sock show: the processes holding each */
	const char *netns;
};

extern struct opts opts;

/* ---- argument parsing (args.c) ---------------------------------------- */

/*
 * Errors go to stderr as "udpcpctl: MESSAGE" (usage_err(), report() with
 * @prog) or bare, as "Error: ..." from the kernel is; in a batch every one
 * is "udpcpctl: FILE:LINE: MESSAGE", with @err_where "FILE:LINE".
 */
extern const char *err_where;
int usage_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void report(bool prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Usage error if @cmd, which takes no arguments, was given some. */
int no_args(const char *cmd, int argc, char **argv);

/*
 * Find @word in a table of structs whose first member is a name, by exact
 * name or unique prefix.  Otherwise prints "unknown WHAT ..." or
 * "ambiguous WHAT ..." with the candidates, and returns -1.
 */
int lookup(const char *word, const void *table, size_t n, size_t stride,
	   const char *what);
#define LOOKUP(word, table, what) \
	lookup(word, table, ARRAY_SIZE(table), sizeof((table)[0]), what)

struct addr {
	int family;		/* 0: not given */
	union {
		struct in_addr v4;
		struct in6_addr v6;
	};
};

struct endpoint {
	struct addr addr;
	uint16_t port;		/* 0: not given */
};

int parse_u32(const char *word, const char *val, uint32_t min, uint32_t max,
	      uint32_t *res);
int parse_duration(const char *word, const char *val, uint32_t min,
		   uint32_t max, uint32_t *res);
bool looks_like_addr(const char *s);
int parse_addr(const char *word, const char *val, struct addr *a);
int parse_port(const char *word, const char *val, uint16_t *port);
int parse_endpoint(const char *word, const char *val, bool need_addr,
		   struct endpoint *ep);
struct addr addr_unmapped(const struct addr *a);
bool addr_equal(const struct addr *a, const struct addr *b);
const char *addr_str(const struct addr *a, char *buf, size_t len);

/* Protocol parameters, table-driven: the same table parses and prints. */
enum param_id {
	P_MODE,
	P_CHECKSUM,
	P_TX_TIMEOUT,
	P_RX_TIMEOUT,
	P_MAX_TRY,
	P_OUTSTANDING_ACKS,
	P_MAX_PEERS,		/* defaults only, from here on */
	P_PEER_EXPIRY,
	P_COUNT,
};

struct params {
	uint32_t val[P_COUNT];
	bool set[P_COUNT];
};

/* Keyword slots: keywords sharing a slot exclude each other. */
enum kw_slot {
	S_PORT = P_COUNT,
	S_LOCAL,
	S_DEV,
	S_STATE,
	S_REMOTE,
	S_COUNT,
};

/*
 * Everything any command can be given.  Parsing fills this; the command then
 * builds its message from it, so no netlink is needed to reject bad input.
 */
struct req {
	struct addr remote;	/* peer ADDR, group GROUP, stats ... peer ADDR */
	uint16_t port;		/* peer ... port PORT */
	struct endpoint local;	/* local ADDR:PORT, local-port PORT */
	const char *ifname;	/* group ... dev IFNAME */
	uint32_t ifindex;	/* group ... ifindex N, or resolved ifname */
	int state;		/* peer show state STATE: 1 + UDPCP_PEER_STATE_* */
	struct params params;
	bool replace;		/* peer replace */
	const char *seen[S_COUNT];	/* keyword that filled each slot */
};

struct kw {
	const char *word;
	int slot;		/* enum param_id or enum kw_slot */
	int (*parse)(struct req *r, const struct kw *k, const char *val);
};

/*
 * Parse "KEYWORD VALUE" pairs from @kws plus the first @nparams protocol
 * parameters (P_MAX_PEERS: a peer's; P_COUNT: the defaults').  @cmd names
 * the command in messages.
 */
int parse_kws(int argc, char **argv, struct req *r, const char *cmd,
	      const struct kw *kws, size_t nkws, int nparams);

/* From the parameter table (params.c). */
const char *param_word(int id);
int kw_param(struct req *r, const struct kw *k, const char *val);
int kw_port(struct req *r, const struct kw *k, const char *val);
int kw_state(struct req *r, const struct kw *k, const char *val);
/* peer show's and monitor's [ ADDR ] [ port PORT ] [ LOCAL ] [ state STATE ] */
int parse_peer_filter(const char *cmd, int argc, char **argv, struct req *r);
/* Is @word one of parse_peer_filter()'s keywords? */
bool is_peer_filter_word(const char *word);
int kw_local(struct req *r, const struct kw *k, const char *val);
int kw_local_port(struct req *r, const struct kw *k, const char *val);

static inline bool req_has(const struct req *r, int slot)
{
	return r->seen[slot];
}

/* ---- netlink (nl.c) ----------------------------------------------------- */

int enter_netns(void);
int nl_open(void);
/*
 * Open (if not yet), send command @cmd built by @build from @r, and feed
 * each reply to @cb.  Returns an exit status; errors are printed.
 */
int nl_request(uint8_t cmd, int flags, const struct req *r,
	       int (*build)(struct nl_msg *, const struct req *),
	       int (*cb)(struct nl_msg *, void *), void *arg);
/* Print events with @cb until killed. */
int nl_monitor(int (*cb)(struct nl_msg *, void *), void *arg);
struct nlattr **genl_attrs(struct nl_msg *msg, struct nlattr **tb);
void warn_malformed(const char *what);

/* ---- attributes (attrs.c, params.c) ----------------------------------- */

extern const struct nla_policy top_policy[UDPCP_A_MAX + 1];
extern const struct nla_policy sock_policy[UDPCP_A_SOCK_MAX + 1];
extern const struct nla_policy peer_policy[UDPCP_A_PEER_MAX + 1];
extern const struct nla_policy group_policy[UDPCP_A_GROUP_MAX + 1];
extern const struct nla_policy stats_policy[UDPCP_A_STATS_MAX + 1];

/* Parse @nest (NULL: all absent); -1 and a warning if malformed. */
int nest_parse(struct nlattr **tb, int max, struct nlattr *nest,
	       const struct nla_policy *pol, const char *what);
bool get_addr(struct nlattr *v4, struct nlattr *v6, struct addr *a);
int put_addr(struct nl_msg *msg, int attr4, int attr6, const struct addr *a);
int put_params(struct nl_msg *msg, int attr, const struct params *p);
int put_sock_sel(struct nl_msg *msg, int attr, const struct endpoint *ep);
int sock_endpoint(struct nlattr *sock, struct endpoint *ep);
bool endpoint_matches(const struct endpoint *ep, const struct req *filter);
bool peer_matches(struct nlattr *peer, const struct req *filter);
/* A peer nest: its attributes in @tb, its two ends; -1 if malformed. */
int peer_parse(struct nlattr **tb, struct nlattr *nest,
	       struct endpoint *remote, struct endpoint *local);

/* A params nest, or a defaults nest, decoded; -1 (warned) if malformed. */
int params_get(struct nlattr *params, struct params *ps);
int defaults_get(struct nlattr *defaults, struct params *ps);
/*
 * " WORD VALUE" for each parameter of @ps, in the syntax of the commands,
 * leaving out those equal in @base (if not NULL).
 */
void params_text(FILE *f, const struct params *ps, const struct params *base);
void print_params(struct nlattr *params);
void print_defaults(struct nlattr *defaults);
void print_stats(struct nlattr *stats, const char *key, int indent);
/*
 * @headline: "peer", or NULL for events, which name themselves; @full: more
 * than the first line.
 */
void print_peer(struct nlattr *peer, const char *headline, bool full);

/* ---- objects ------------------------------------------------------------ */

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);	/* NULL: "help" */
};

struct object {
	const char *name;
	const struct cmd *cmds;
	size_t ncmds;
	int (*fallback)(int argc, char **argv);	/* no command given */
	/* fallback also takes arguments: words that are not a command */
	bool fallback_args;
	const char *usage;
};

extern const struct object obj_defaults, obj_sock, obj_peer, obj_stats,
	obj_group, obj_monitor, obj_save, obj_top;

/*
 * -b FILE ("-": stdin): @run each line's words; stop at the first that
 * fails unless @force.  Returns the exit status of the first failure.
 */
int run_batch(const char *file, bool force, int (*run)(int argc, char **argv));

#endif /* UDPCPCTL_H */
