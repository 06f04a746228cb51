// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink side: the namespace, the socket, the family, one request and
 * its replies, the events group.  Everything that can fail here is exit
 * status 2: the arguments were fine, the kernel (or the system) said no.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "udpcpctl.h"

static struct nl_sock *sk;
static int family_id;

/* What the replies to one request said. */
struct reply {
	int (*cb)(struct nl_msg *msg, void *arg);
	void *arg;
	bool done;
	bool intr;		/* NLM_F_DUMP_INTR: the dump may be torn */
	int error;		/* negative errno from the kernel */
	char msg[256];		/* its extack message, if any */
};

int enter_netns(void)
{
	static bool entered;
	char path[PATH_MAX];
	int fd, err;

	if (!opts.netns || entered)
		return 0;
	snprintf(path, sizeof(path), "/run/netns/%s", opts.netns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		/* A name that does not exist is a bad argument. */
		err = errno;
		report(true, "cannot open network namespace \"%s\": %s",
		       opts.netns, strerror(err));
		return err == ENOENT ? EXIT_USAGE : EXIT_KERNEL;
	}
	err = setns(fd, CLONE_NEWNET);
	if (err)
		report(true, "cannot enter network namespace \"%s\": %s",
		       opts.netns, strerror(errno));
	close(fd);
	if (err)
		return EXIT_KERNEL;
	entered = true;
	return 0;
}

/*
 * Ask for the kernel's error strings, and for errors without a copy of our
 * request.  Old kernels lack these options; their errors are still errors.
 */
static void want_ext_ack(void)
{
	int one = 1, fd = nl_socket_get_fd(sk);

	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
}

/* One socket for the whole run, a batch included. */
int nl_open(void)
{
	static bool ready;
	int err;

	if (ready)
		return 0;
	err = enter_netns();
	if (err)
		return err;
	if (!sk) {
		sk = nl_socket_alloc();
		if (!sk || genl_connect(sk) < 0) {
			report(true, "cannot open a generic netlink socket: %s",
			       strerror(errno));
			nl_socket_free(sk);
			sk = NULL;
			return EXIT_KERNEL;
		}
		want_ext_ack();
	}
	/* Not found: the next line of a batch asks again. */
	family_id = genl_ctrl_resolve(sk, UDPCP_GENL_NAME);
	if (family_id == -NLE_OBJ_NOTFOUND) {
		report(true, "the udpcp generic netlink family is not available (is the udpcp module loaded?)");
		return EXIT_KERNEL;
	}
	if (family_id < 0) {
		report(true, "cannot resolve the udpcp generic netlink family: %s",
		       nl_geterror(family_id));
		return EXIT_KERNEL;
	}
	ready = true;
	return 0;
}

void warn_malformed(const char *what)
{
	report(true, "warning: ignoring a malformed %s from the kernel", what);
}

struct nlattr **genl_attrs(struct nl_msg *msg, struct nlattr **tb)
{
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, UDPCP_A_MAX, top_policy) < 0) {
		warn_malformed("message");
		return NULL;
	}
	return tb;
}

/*
 * The extack TLVs of an error, ack or done message start @off bytes into
 * it, and are there only if the kernel set NLM_F_ACK_TLVS.
 */
static void extack_parse(struct nlmsghdr *nlh, size_t off, struct reply *st)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	struct nlattr *m;
	size_t n;

	st->msg[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off >= nlh->nlmsg_len)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)nlh + off),
		      nlh->nlmsg_len - off, NULL) < 0)
		return;
	m = tb[NLMSGERR_ATTR_MSG];
	if (!m)
		return;
	n = strnlen(nla_data(m), nla_len(m));
	if (n >= sizeof(st->msg))
		n = sizeof(st->msg) - 1;
	memcpy(st->msg, nla_data(m), n);
	st->msg[n] = '\0';
}

/* Where the TLVs start: after our request, unless NLM_F_CAPPED left it out. */
static size_t err_tlv_offset(const struct nlmsghdr *nlh,
			     const struct nlmsgerr *e)
{
	size_t payload = sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		payload += e->msg.nlmsg_len - NLMSG_HDRLEN;
	return NLMSG_HDRLEN + NLMSG_ALIGN(payload);
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	/* libnl hands us the payload; the header (and its flags) is before. */
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct reply *st = arg;

	(void)nla;
	st->error = e->error;
	extack_parse(nlh, err_tlv_offset(nlh, e), st);
	st->done = true;
	return NL_STOP;
}

/* A success may carry a warning, as ip prints it. */
static int on_ack(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct reply *st = arg;

	extack_parse(nlh, err_tlv_offset(nlh, nlmsg_data(nlh)), st);
	if (st->msg[0])
		report(false, "Warning: %s", st->msg);
	st->done = true;
	return NL_STOP;
}

/* The end of a dump: its payload is an int, an error if negative. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct reply *st = arg;
	int err = 0;

	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(err))
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
	if (err < 0) {
		st->error = err;
		extack_parse(nlh, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(err)), st);
	}
	st->done = true;
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct reply *st = arg;

	return st->cb ? st->cb(msg, st->arg) : NL_OK;
}

/* Go on reading the dump, but tell the user at the end. */
static int on_dump_intr(struct nl_msg *msg, void *arg)
{
	struct reply *st = arg;

	(void)msg;
	st->intr = true;
	return NL_OK;
}

static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static struct nl_cb *reply_cb(struct reply *st)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);

	if (!cb)
		return NULL;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, st);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, st);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, st);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, on_dump_intr, st);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, st);
	return cb;
}

static int kernel_err(const struct reply *st)
{
	report(false, "Error: %s", st->msg[0] ? st->msg : strerror(-st->error));
	return EXIT_KERNEL;
}

static int libnl_err(const char *what, int err)
{
	report(false, "Error: %s: %s", what, nl_geterror(err));
	return EXIT_KERNEL;
}

/* Send @msg (freed) and read replies until the ack, error or dump end. */
static int nl_do(struct nl_msg *msg, int (*cb)(struct nl_msg *, void *),
		 void *arg)
{
	struct reply st = { .cb = cb, .arg = arg };
	struct nl_cb *c = reply_cb(&st);
	int err;

	if (!c) {
		nlmsg_free(msg);
		return libnl_err("cannot allocate callbacks", -NLE_NOMEM);
	}
	err = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	while (err >= 0 && !st.done)
		err = nl_recvmsgs(sk, c);
	nl_cb_put(c);
	if (st.error)
		return kernel_err(&st);
	if (err < 0)
		return libnl_err("netlink", err);
	if (st.intr) {
		report(false, "Error: the kernel's state changed during the dump; the output may be inconsistent, try again");
		return EXIT_KERNEL;
	}
	return EXIT_OK;
}

int nl_request(uint8_t cmd, int flags, const struct req *r,
	       int (*build)(struct nl_msg *, const struct req *),
	       int (*cb)(struct nl_msg *, void *), void *arg)
{
	struct nl_msg *msg;
	int err = nl_open();

	if (err)
		return err;
	msg = nlmsg_alloc();
	if (!msg ||
	    !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family_id, 0, flags,
			 cmd, UDPCP_GENL_VERSION) ||
	    (build && build(msg, r) < 0)) {
		nlmsg_free(msg);
		return libnl_err("cannot build the request", -NLE_NOMEM);
	}
	return nl_do(msg, cb, arg);
}

int nl_monitor(int (*cb)(struct nl_msg *, void *), void *arg)
{
	struct reply st = { .cb = cb, .arg = arg };
	struct nl_cb *c;
	int grp, err = nl_open();

	if (err)
		return err;
	grp = genl_ctrl_resolve_grp(sk, UDPCP_GENL_NAME, UDPCP_MCGRP_EVENTS);
	if (grp < 0)
		return libnl_err("cannot find the \"" UDPCP_MCGRP_EVENTS "\" group",
				 grp);
	err = nl_socket_add_membership(sk, grp);
	if (err < 0)
		return libnl_err("cannot join the events group", err);
	/* Room for bursts, as a peer expiry storm can be; best effort. */
	nl_socket_set_buffer_size(sk, 1 << 20, 0);
	c = reply_cb(&st);
	if (!c)
		return libnl_err("cannot allocate callbacks", -NLE_NOMEM);
	/* Events are unsolicited: no sequence numbers to check. */
	nl_cb_set(c, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	for (;;) {
		err = nl_recvmsgs(sk, c);
		/* ENOBUFS (libnl: NLE_NOMEM): we fell behind, events were lost. */
		if (err == -NLE_NOMEM) {
			report(true, "warning: receive buffer overrun, events were lost");
			continue;
		}
		if (err < 0)
			break;
	}
	nl_cb_put(c);
	return libnl_err("netlink", err);
}
