// SPDX-License-Identifier: GPL-2.0
/*
 * uudpcp: UDPCP in user space over a plain UDP socket (see uudpcp.h).
 * The rules follow Documentation/udpcp-protocol.rst and the kernel module's tx.c/rx.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "uudpcp.h"

#define HDR_LEN		12
#define VERSION		2
#define TYPE_DATA	1
#define TYPE_ACK	2
#define F_NOACK		0x04
#define F_CSUM		0x02
#define F_SINGLE	0x01
#define F_DUP		0x80
#define MAX_ID		0xfffe
#define MAX_MSG		65487
#define MAX_FRAGS	255
#define DUP_WINDOW	32767	/* as the module's UDPCP_RX_DUP_WINDOW */
#define RX_BATCH	16
#define RX_BUF		65536
#define TX_BATCH	64

enum { TX_IDLE, TX_SYNC, TX_SENDING };

struct uu_msg {
	struct uu_msg	*next;
	size_t		len;
	uint8_t		mode;
	uint8_t		data[];
};

struct uu_key {
	uint8_t		addr[16];	/* IPv4 as v4-mapped */
	uint16_t	port;
};

struct uu_peer {
	struct uu_peer		*hnext;		/* hash chain */
	struct uu_peer		*tnext, *tprev;	/* timed list */
	bool			timed;
	struct uu_key		key;
	struct sockaddr_storage	addr;
	socklen_t		alen;

	/* transmit */
	struct uu_msg		*qhead, *qtail;
	struct uu_msg		*cur;
	uint64_t		tx_deadline;	/* ns, 0: none */
	uint16_t		next_id, tx_id;
	uint8_t			state, tries, frags, base, next, mode;
	bool			need_sync;
	uint64_t		acked[4];

	/* receive */
	uint8_t			*rx_buf;	/* partial message, lazily */
	uint64_t		rx_deadline;
	bool			rx_valid, rx_dead, rx_active;
	uint16_t		rx_last_id, rx_dead_id, rx_id, rx_len;
	uint8_t			rx_amount, rx_count;
	uint32_t		rx_bytes;
	uint64_t		rx_have[4];
};

struct uu_out {
	struct iovec	iov[2];
	uint8_t		hdr[HDR_LEN];
};

struct uudpcp {
	int			fd, epfd, family;
	struct uudpcp_params	p;
	unsigned int		payload;	/* per fragment */
	struct uu_peer		**tab;
	size_t			tabsize, npeers;
	struct uu_peer		*timed;
	size_t			pending;
	struct uudpcp_stats	st;
	uudpcp_deliver_fn	deliver;
	uudpcp_done_fn		done;
	void			*ctx;

	int			nout;
	struct mmsghdr		omsg[TX_BATCH];
	struct uu_out		out[TX_BATCH];

	struct mmsghdr		imsg[RX_BATCH];
	struct iovec		iiov[RX_BATCH];
	struct sockaddr_storage	iaddr[RX_BATCH];
	uint8_t			*ibuf;
};

/* --- Adler-32 (RFC 1950), zlib's blocking: mod only every NMAX bytes ---- */
#define ADLER_BASE	65521u
#define ADLER_NMAX	5552

uint32_t uu_adler32(uint32_t adler, const uint8_t *buf, size_t len)
{
	uint32_t a = adler & 0xffff, b = adler >> 16;

	while (len) {
		size_t n = len < ADLER_NMAX ? len : ADLER_NMAX;

		len -= n;
		while (n >= 16) {
			for (int i = 0; i < 16; i++) {
				a += buf[i];
				b += a;
			}
			buf += 16;
			n -= 16;
		}
		while (n--) {
			a += *buf++;
			b += a;
		}
		a %= ADLER_BASE;
		b %= ADLER_BASE;
	}
	return b << 16 | a;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static uint16_t next_id(uint16_t id)
{
	return id >= MAX_ID ? 1 : id + 1;
}

static void bit_set(uint64_t *m, unsigned int n)
{
	m[n / 64] |= 1ull << (n % 64);
}

static bool bit_test(const uint64_t *m, unsigned int n)
{
	return m[n / 64] >> (n % 64) & 1;
}

/* --- peers ---------------------------------------------------------------- */
static void addr_key(const struct sockaddr *sa, struct uu_key *k)
{
	memset(k, 0, sizeof(*k));
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)sa;

		k->addr[10] = k->addr[11] = 0xff;
		memcpy(&k->addr[12], &sin->sin_addr, 4);
		k->port = sin->sin_port;
	} else {
		const struct sockaddr_in6 *sin6 = (const void *)sa;

		memcpy(k->addr, &sin6->sin6_addr, 16);
		k->port = sin6->sin6_port;
	}
}

static size_t key_hash(const struct uu_key *k, size_t size)
{
	uint64_t h = 1469598103934665603ull;
	const uint8_t *p = (const uint8_t *)k;

	for (size_t i = 0; i < sizeof(*k); i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return (h ^ h >> 29) & (size - 1);
}

static void tab_grow(struct uudpcp *u)
{
	size_t size = u->tabsize * 2;
	struct uu_peer **tab = calloc(size, sizeof(*tab));

	if (!tab)
		return;
	for (size_t i = 0; i < u->tabsize; i++) {
		struct uu_peer *p = u->tab[i], *n;

		for (; p; p = n) {
			size_t h = key_hash(&p->key, size);

			n = p->hnext;
			p->hnext = tab[h];
			tab[h] = p;
		}
	}
	free(u->tab);
	u->tab = tab;
	u->tabsize = size;
}

static struct uu_peer *peer_find(struct uudpcp *u, const struct sockaddr *sa,
				 socklen_t len, bool create)
{
	struct uu_key k;
	struct uu_peer *p;
	size_t h;

	addr_key(sa, &k);
	h = key_hash(&k, u->tabsize);
	for (p = u->tab[h]; p; p = p->hnext)
		if (!memcmp(&p->key, &k, sizeof(k)))
			return p;
	if (!create)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->key = k;
	memcpy(&p->addr, sa, len);
	p->alen = len;
	p->next_id = 1;
	p->need_sync = true;
	p->hnext = u->tab[h];
	u->tab[h] = p;
	if (++u->npeers > u->tabsize * 2)
		tab_grow(u);
	return p;
}

static void timed_update(struct uudpcp *u, struct uu_peer *p)
{
	bool want = p->tx_deadline || p->rx_deadline;

	if (want == p->timed)
		return;
	p->timed = want;
	if (want) {
		p->tprev = NULL;
		p->tnext = u->timed;
		if (u->timed)
			u->timed->tprev = p;
		u->timed = p;
		return;
	}
	if (p->tprev)
		p->tprev->tnext = p->tnext;
	else
		u->timed = p->tnext;
	if (p->tnext)
		p->tnext->tprev = p->tprev;
}

/* --- output: packets collect here and leave in one sendmmsg ------------- */
static void out_flush(struct uudpcp *u)
{
	int done = 0, n;

	while (done < u->nout) {
		n = sendmmsg(u->fd, u->omsg + done, u->nout - done, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			done++;		/* this packet is lost: timers recover */
			continue;
		}
		done += n;
	}
	u->nout = 0;
}

static struct uu_out *out_slot(struct uudpcp *u, struct uu_peer *p)
{
	struct uu_out *o;
	struct msghdr *m;

	if (u->nout == TX_BATCH)
		out_flush(u);
	o = &u->out[u->nout];
	m = &u->omsg[u->nout].msg_hdr;
	u->nout++;
	m->msg_name = &p->addr;
	m->msg_namelen = p->alen;
	m->msg_iov = o->iov;
	m->msg_control = NULL;
	m->msg_controllen = 0;
	m->msg_flags = 0;
	o->iov[0].iov_base = o->hdr;
	o->iov[0].iov_len = HDR_LEN;
	u->st.tx_packets++;
	return o;
}

static void hdr_build(uint8_t *h, int type, int flags, int flags2, int amount,
		      int num, uint16_t id, uint16_t len)
{
	memset(h, 0, 4);
	h[4] = type << 6 | VERSION << 3 | flags;
	h[5] = flags2;
	h[6] = amount;
	h[7] = num;
	h[8] = id >> 8;
	h[9] = id;
	h[10] = len >> 8;
	h[11] = len;
}

static void hdr_csum(uint8_t *h, const uint8_t *payload, size_t len)
{
	uint32_t s = uu_adler32(1, h, HDR_LEN);

	if (len)
		s = uu_adler32(s, payload, len);
	h[0] = s >> 24;
	h[1] = s >> 16;
	h[2] = s >> 8;
	h[3] = s;
}

static void send_ack(struct uudpcp *u, struct uu_peer *p, const uint8_t *dh,
		     int num, bool dup)
{
	bool csum = dh[4] & F_CSUM;
	struct uu_out *o = out_slot(u, p);

	hdr_build(o->hdr, TYPE_ACK, F_NOACK | F_SINGLE | (csum ? F_CSUM : 0),
		  dup ? F_DUP : 0, dh[6], num, dh[8] << 8 | dh[9], 0);
	if (csum)
		hdr_csum(o->hdr, NULL, 0);
	u->omsg[u->nout - 1].msg_hdr.msg_iovlen = 1;
}

static void send_sync(struct uudpcp *u, struct uu_peer *p)
{
	struct uu_out *o = out_slot(u, p);
	int c = u->p.checksum ? F_CSUM : 0;

	hdr_build(o->hdr, TYPE_DATA, F_SINGLE | c, 0, 1, 0, 0, 0);
	if (c)
		hdr_csum(o->hdr, NULL, 0);
	u->omsg[u->nout - 1].msg_hdr.msg_iovlen = 1;
}

static void send_frag(struct uudpcp *u, struct uu_peer *p, unsigned int num)
{
	struct uu_msg *m = p->cur;
	size_t off = (size_t)num * u->payload;
	size_t len = m->len - off < u->payload ? m->len - off : u->payload;
	struct uu_out *o = out_slot(u, p);
	int flags = u->p.checksum ? F_CSUM : 0;

	if (p->mode == UU_NOACK)
		flags |= F_NOACK | F_SINGLE;
	else if (p->mode == UU_SINGLE_ACK)
		flags |= F_SINGLE;
	hdr_build(o->hdr, TYPE_DATA, flags, 0, p->frags, num, p->tx_id, m->len);
	if (flags & F_CSUM)
		hdr_csum(o->hdr, m->data + off, len);
	o->iov[1].iov_base = m->data + off;
	o->iov[1].iov_len = len;
	u->omsg[u->nout - 1].msg_hdr.msg_iovlen = len ? 2 : 1;
}

/* --- sender ------------------------------------------------------------- */
static void tx_next(struct uudpcp *u, struct uu_peer *p);

static void tx_fill(struct uudpcp *u, struct uu_peer *p)
{
	unsigned int window = p->mode == UU_ACK ? (unsigned int)u->p.outstanding : p->frags;

	while (p->next < p->frags && (unsigned int)(p->next - p->base) < window)
		send_frag(u, p, p->next++);
}

/* The message is acknowledged, failed, or (no-ack) sent. */
static void tx_finish(struct uudpcp *u, struct uu_peer *p, struct uu_msg *m, int err)
{
	size_t len = m->len;

	out_flush(u);	/* packets may still point into m */
	free(m);
	if (err)
		u->st.tx_failed++;
	else
		u->st.tx_msgs++;
	u->pending--;
	if (u->done)
		u->done(u->ctx, (struct sockaddr *)&p->addr, len, err);
}

static void tx_start(struct uudpcp *u, struct uu_peer *p, struct uu_msg *m)
{
	p->tx_id = p->next_id;
	p->next_id = next_id(p->next_id);
	p->frags = m->len ? (m->len + u->payload - 1) / u->payload : 1;
	p->cur = m;
	p->base = p->next = 0;
	p->tries = 1;
	memset(p->acked, 0, sizeof(p->acked));
	tx_fill(u, p);
	if (p->mode == UU_NOACK) {
		p->cur = NULL;
		tx_finish(u, p, m, 0);
		return;
	}
	p->state = TX_SENDING;
	p->tx_deadline = now_ns() + u->p.tx_timeout_ms * 1000000ull;
	timed_update(u, p);
}

static void tx_next(struct uudpcp *u, struct uu_peer *p)
{
	struct uu_msg *m;

	while (p->state == TX_IDLE && (m = p->qhead) != NULL) {
		p->mode = m->mode;
		if (p->mode != UU_NOACK && p->need_sync) {
			p->state = TX_SYNC;
			p->tries = 1;
			p->tx_deadline = now_ns() + u->p.tx_timeout_ms * 1000000ull;
			timed_update(u, p);
			send_sync(u, p);
			return;
		}
		p->qhead = m->next;
		if (!p->qhead)
			p->qtail = NULL;
		tx_start(u, p, m);
	}
}

static void tx_complete(struct uudpcp *u, struct uu_peer *p, int err)
{
	struct uu_msg *m = p->cur;

	p->cur = NULL;
	p->state = TX_IDLE;
	p->tx_deadline = 0;
	timed_update(u, p);
	if (err)
		p->need_sync = true;
	tx_finish(u, p, m, err);
}

static void tx_ack(struct uudpcp *u, struct uu_peer *p, const uint8_t *h)
{
	uint16_t id = h[8] << 8 | h[9];
	unsigned int num = h[7];

	switch (p->state) {
	case TX_SYNC:
		if (id != 0)
			return;
		p->need_sync = false;
		p->state = TX_IDLE;
		p->tx_deadline = 0;
		timed_update(u, p);
		break;
	case TX_SENDING:
		if (id != p->tx_id)
			return;
		if (p->mode == UU_SINGLE_ACK) {
			tx_complete(u, p, 0);
			break;
		}
		if (num >= p->next || bit_test(p->acked, num))
			return;
		bit_set(p->acked, num);
		if (num != p->base)
			return;
		while (p->base < p->next && bit_test(p->acked, p->base))
			p->base++;
		if (p->base == p->frags) {
			tx_complete(u, p, 0);
			break;
		}
		p->tries = 1;
		p->tx_deadline = now_ns() + u->p.tx_timeout_ms * 1000000ull;
		tx_fill(u, p);
		return;
	default:
		return;
	}
	tx_next(u, p);
}

static void tx_timeout(struct uudpcp *u, struct uu_peer *p)
{
	p->tx_deadline = 0;
	if (p->state == TX_SYNC) {
		if (p->tries < u->p.max_tries) {
			p->tries++;
			u->st.tx_retries++;
			p->tx_deadline = now_ns() + u->p.tx_timeout_ms * 1000000ull;
			send_sync(u, p);
			return;
		}
		/* The message waiting for the sync fails in its place. */
		p->state = TX_IDLE;
		if (p->qhead) {
			struct uu_msg *m = p->qhead;

			p->qhead = m->next;
			if (!p->qhead)
				p->qtail = NULL;
			p->next_id = next_id(p->next_id);
			tx_finish(u, p, m, ETIMEDOUT);
		}
	} else if (p->state == TX_SENDING) {
		if (p->tries < u->p.max_tries) {
			p->tries++;
			for (unsigned int i = p->base; i < p->next; i++) {
				if (bit_test(p->acked, i))
					continue;
				u->st.tx_retries++;
				send_frag(u, p, i);
			}
			p->tx_deadline = now_ns() + u->p.tx_timeout_ms * 1000000ull;
			return;
		}
		tx_complete(u, p, ETIMEDOUT);
	}
	tx_next(u, p);
}

/* --- receiver ------------------------------------------------------------- */
static void rx_drop_partial(struct uudpcp *u, struct uu_peer *p)
{
	p->rx_active = false;
	p->rx_deadline = 0;
	timed_update(u, p);
}

static void rx_deliver(struct uudpcp *u, struct uu_peer *p, uint16_t id,
		       const uint8_t *data, size_t len)
{
	u->st.rx_msgs++;
	p->rx_last_id = id;
	p->rx_valid = true;
	p->rx_dead = false;
	if (u->deliver)
		u->deliver(u->ctx, (struct sockaddr *)&p->addr, data, len);
}

static void rx_data(struct uudpcp *u, struct uu_peer *p, const uint8_t *h,
		    const uint8_t *pl, size_t plen)
{
	uint16_t id = h[8] << 8 | h[9], len = h[10] << 8 | h[11];
	unsigned int amount = h[6], num = h[7];
	int mode = h[4] & F_NOACK ? UU_NOACK : h[4] & F_SINGLE ? UU_SINGLE_ACK : UU_ACK;
	bool last;
	size_t off;

	if (id == 0) {		/* sync */
		if (p->rx_active)
			rx_drop_partial(u, p);
		p->rx_valid = p->rx_dead = false;
		if (mode != UU_NOACK)
			send_ack(u, p, h, 0, false);
		return;
	}
	if (p->rx_valid &&
	    (unsigned int)(p->rx_last_id + MAX_ID - id) % MAX_ID < DUP_WINDOW) {
		u->st.rx_dups++;
		if (mode == UU_ACK || (mode == UU_SINGLE_ACK && num == amount - 1))
			send_ack(u, p, h, num, true);
		return;
	}
	if (p->rx_dead && id == p->rx_dead_id)
		return;
	p->rx_dead = false;
	if (p->rx_active && id != p->rx_id)
		rx_drop_partial(u, p);

	if (amount == 1 && !p->rx_active) {
		/* The common case: deliver straight from the receive buffer. */
		if (plen != len) {
			u->st.rx_bad++;
			return;
		}
		rx_deliver(u, p, id, pl, plen);
		if (mode != UU_NOACK)
			send_ack(u, p, h, 0, false);
		return;
	}
	if (!p->rx_active) {
		if (!p->rx_buf && !(p->rx_buf = malloc(MAX_MSG)))
			return;
		p->rx_active = true;
		p->rx_id = id;
		p->rx_amount = amount;
		p->rx_len = len;
		p->rx_bytes = 0;
		p->rx_count = 0;
		memset(p->rx_have, 0, sizeof(p->rx_have));
		p->rx_deadline = now_ns() + u->p.rx_timeout_ms * 1000000ull;
		timed_update(u, p);
	} else if (amount != p->rx_amount || len != p->rx_len) {
		u->st.rx_bad++;
		return;
	}
	if (bit_test(p->rx_have, num)) {
		if (mode == UU_ACK)
			send_ack(u, p, h, num, false);
		return;
	}
	last = p->rx_count + 1 == p->rx_amount;
	off = num == amount - 1 ? len - plen : (size_t)num * plen;
	if (p->rx_bytes + plen > len || (last && p->rx_bytes + plen != len) ||
	    plen > len || off + plen > len) {
		u->st.rx_bad++;
		rx_drop_partial(u, p);
		return;
	}
	memcpy(p->rx_buf + off, pl, plen);
	bit_set(p->rx_have, num);
	p->rx_count++;
	p->rx_bytes += plen;
	if (!last) {
		if (mode == UU_ACK)
			send_ack(u, p, h, num, false);
		return;
	}
	rx_drop_partial(u, p);
	rx_deliver(u, p, id, p->rx_buf, len);
	if (mode == UU_ACK)
		send_ack(u, p, h, num, false);
	else if (mode == UU_SINGLE_ACK)
		send_ack(u, p, h, amount - 1, false);
}

static void rx_packet(struct uudpcp *u, const struct sockaddr *from,
		      socklen_t fromlen, const uint8_t *b, size_t n)
{
	static const uint8_t zero[4];
	struct uu_peer *p;
	size_t plen;
	int type;

	u->st.rx_packets++;
	if (n < HDR_LEN)
		goto bad;
	plen = n - HDR_LEN;
	type = b[4] >> 6;
	if (b[4] & F_CSUM) {
		uint32_t s = uu_adler32(uu_adler32(1, zero, 4), b + 4, n - 4);

		if (s != ((uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]))
			goto bad;
	}
	if (type == TYPE_ACK) {
		if (plen)
			goto bad;
		p = peer_find(u, from, fromlen, false);
		if (p)
			tx_ack(u, p, b);
		return;
	}
	if (type != TYPE_DATA)
		goto bad;
	{
		uint16_t id = b[8] << 8 | b[9], len = b[10] << 8 | b[11];

		if (!b[6] || b[7] >= b[6] || len > MAX_MSG || plen > len ||
		    id > MAX_ID)
			goto bad;
		if (id == 0 && (b[6] != 1 || len || plen))
			goto bad;
	}
	p = peer_find(u, from, fromlen, true);
	if (!p)
		return;
	rx_data(u, p, b, b + HDR_LEN, plen);
	return;
bad:
	u->st.rx_bad++;
}

static void rx_drain(struct uudpcp *u)
{
	int n;

	do {
		for (int i = 0; i < RX_BATCH; i++) {
			u->imsg[i].msg_hdr.msg_namelen = sizeof(u->iaddr[i]);
			u->iiov[i].iov_len = RX_BUF;
		}
		n = recvmmsg(u->fd, u->imsg, RX_BATCH, MSG_DONTWAIT, NULL);
		for (int i = 0; i < n; i++)
			rx_packet(u, (struct sockaddr *)&u->iaddr[i],
				  u->imsg[i].msg_hdr.msg_namelen,
				  u->iiov[i].iov_base, u->imsg[i].msg_len);
	} while (n == RX_BATCH);
}

/* --- timers --------------------------------------------------------------- */
static int timers_run(struct uudpcp *u)
{
	uint64_t now = now_ns(), next = 0;
	struct uu_peer *p, *n;

	for (p = u->timed; p; p = n) {
		n = p->tnext;
		if (p->tx_deadline && p->tx_deadline <= now)
			tx_timeout(u, p);
		if (p->rx_deadline && p->rx_deadline <= now) {
			p->rx_dead = true;
			p->rx_dead_id = p->rx_id;
			p->rx_active = false;
			p->rx_deadline = 0;
		}
		timed_update(u, p);
	}
	for (p = u->timed; p; p = p->tnext) {
		if (p->tx_deadline && (!next || p->tx_deadline < next))
			next = p->tx_deadline;
		if (p->rx_deadline && (!next || p->rx_deadline < next))
			next = p->rx_deadline;
	}
	if (!next)
		return -1;
	return next <= now ? 0 : (int)((next - now + 999999) / 1000000);
}

/* --- API ---------------------------------------------------------------- */
void uudpcp_default_params(struct uudpcp_params *p)
{
	/* The module's namespace defaults. */
	p->mode = UU_ACK;
	p->checksum = 1;
	p->tx_timeout_ms = 100;
	p->rx_timeout_ms = 1000;
	p->max_tries = 5;
	p->outstanding = 8;
	p->mtu = 1500;
}

struct uudpcp *uudpcp_open(int family, const struct sockaddr *bind_addr,
			   socklen_t bindlen, const struct uudpcp_params *p)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct uudpcp *u = calloc(1, sizeof(*u));
	int v;

	if (!u)
		return NULL;
	u->family = family;
	u->p = *p;
	u->payload = p->mtu - (family == AF_INET ? 20 : 40) - 8 - HDR_LEN;
	u->tabsize = 1024;
	u->tab = calloc(u->tabsize, sizeof(*u->tab));
	u->ibuf = malloc((size_t)RX_BATCH * RX_BUF);
	u->fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
	u->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (!u->tab || !u->ibuf || u->fd < 0 || u->epfd < 0)
		goto err;
	/* Fragments must not be IP-fragmented, as in the module. */
	if (family == AF_INET) {
		v = IP_PMTUDISC_DO;
		setsockopt(u->fd, IPPROTO_IP, IP_MTU_DISCOVER, &v, sizeof(v));
	} else {
		v = IPV6_PMTUDISC_DO;
		setsockopt(u->fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &v, sizeof(v));
	}
	if (bind_addr && bind(u->fd, bind_addr, bindlen) < 0)
		goto err;
	ev.data.ptr = u;
	if (epoll_ctl(u->epfd, EPOLL_CTL_ADD, u->fd, &ev) < 0)
		goto err;
	for (int i = 0; i < RX_BATCH; i++) {
		u->iiov[i].iov_base = u->ibuf + (size_t)i * RX_BUF;
		u->imsg[i].msg_hdr.msg_iov = &u->iiov[i];
		u->imsg[i].msg_hdr.msg_iovlen = 1;
		u->imsg[i].msg_hdr.msg_name = &u->iaddr[i];
	}
	return u;
err:
	uudpcp_close(u);
	return NULL;
}

void uudpcp_close(struct uudpcp *u)
{
	if (!u)
		return;
	for (size_t i = 0; u->tab && i < u->tabsize; i++) {
		struct uu_peer *p = u->tab[i], *n;

		for (; p; p = n) {
			struct uu_msg *m = p->qhead, *mn;

			n = p->hnext;
			for (; m; m = mn) {
				mn = m->next;
				free(m);
			}
			free(p->cur);
			free(p->rx_buf);
			free(p);
		}
	}
	if (u->fd >= 0)
		close(u->fd);
	if (u->epfd >= 0)
		close(u->epfd);
	free(u->tab);
	free(u->ibuf);
	free(u);
}

void uudpcp_callbacks(struct uudpcp *u, uudpcp_deliver_fn deliver,
		      uudpcp_done_fn done, void *ctx)
{
	u->deliver = deliver;
	u->done = done;
	u->ctx = ctx;
}

int uudpcp_fd(const struct uudpcp *u)
{
	return u->fd;
}

int uudpcp_send(struct uudpcp *u, const struct sockaddr *to, socklen_t tolen,
		const void *data, size_t len)
{
	struct uu_peer *p;
	struct uu_msg *m;

	if (len > MAX_MSG)
		return -EMSGSIZE;
	if (len > (size_t)MAX_FRAGS * u->payload)
		return -EMSGSIZE;
	p = peer_find(u, to, tolen, true);
	m = malloc(sizeof(*m) + len);
	if (!p || !m) {
		free(m);
		return -ENOMEM;
	}
	m->next = NULL;
	m->len = len;
	m->mode = u->p.mode;
	memcpy(m->data, data, len);
	if (p->qtail)
		p->qtail->next = m;
	else
		p->qhead = m;
	p->qtail = m;
	u->pending++;
	tx_next(u, p);
	out_flush(u);
	return 0;
}

int uudpcp_input(struct uudpcp *u)
{
	int t;

	rx_drain(u);
	t = u->timed ? timers_run(u) : -1;
	out_flush(u);
	return t;
}

int uudpcp_run(struct uudpcp *u, int timeout_ms)
{
	struct epoll_event ev;
	int t, n;

	t = timers_run(u);
	out_flush(u);
	if (t >= 0 && (timeout_ms < 0 || t < timeout_ms))
		timeout_ms = t;
	n = epoll_wait(u->epfd, &ev, 1, timeout_ms);
	if (n > 0)
		uudpcp_input(u);
	else if (u->timed)
		uudpcp_input(u);
	return n < 0 ? -errno : n;
}

size_t uudpcp_pending(const struct uudpcp *u)
{
	return u->pending;
}

const struct uudpcp_stats *uudpcp_stats(const struct uudpcp *u)
{
	return &u->st;
}
