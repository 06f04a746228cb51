// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP: the packet header and its Adler-32 checksum.
 */
#include <linux/random.h>

#include "udpcp.h"
#include "adler32.h"

#ifdef CONFIG_X86_64
enum udpcp_adler32_simd udpcp_adler32_how __read_mostly;

/* Picks the fastest Adler-32 variant this CPU has, once, at load. */
void __init udpcp_adler32_init(void)
{
	u64 ns[3];
	u8 *buf;

	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return;	/* stays scalar */
	get_random_bytes(buf, PAGE_SIZE);
	udpcp_adler32_how = udpcp_adler32_pick(buf, PAGE_SIZE, ns);
	kfree(buf);
	pr_info("udpcp: Adler-32 by %s (ns per %lu octets: scalar %llu, ssse3 %llu, avx2 %llu; 0: not on this CPU)\n",
		udpcp_adler32_name(udpcp_adler32_how), PAGE_SIZE, ns[0], ns[1], ns[2]);
}
#else
void __init udpcp_adler32_init(void)
{
}
#endif

void udpcp_hdr_build(struct udpcp_hdr *h, u8 type, u8 flags, u8 flags2,
		     u8 amount, u8 num, u16 id, u16 len)
{
	h->checksum = 0;
	h->flags = type << 6 | UDPCP_VERSION << 3 | flags;
	h->flags2 = flags2;
	h->frag_amount = amount;
	h->frag_num = num;
	h->msg_id = htons(id);
	h->msg_len = htons(len);
}

/* Over octets @from to @to of @skb, linear or not; never written. */
static u32 udpcp_adler32_skb(u32 sum, const struct sk_buff *skb,
			     unsigned int from, unsigned int to)
{
	struct skb_seq_state st;
	unsigned int consumed = 0, n;
	const u8 *data;

	if (!skb_is_nonlinear(skb))
		return udpcp_adler32(sum, skb->data + from, to - from);
	skb_prepare_seq_read((struct sk_buff *)skb, from, to, &st);
	while ((n = skb_seq_read(consumed, &data, &st)) != 0) {
		/* A block runs to its frag's end, past @to if that is inside. */
		n = min(n, to - from - consumed);
		sum = udpcp_adler32(sum, data, n);
		consumed += n;
	}
	return sum;
}

/*
 * A header that a GSO burst carries apart from its payload, @len octets
 * of the message @msg from @off: summed as one packet.
 */
void udpcp_csum_set_part(struct udpcp_hdr *h, const struct sk_buff *msg,
			 unsigned int off, unsigned int len)
{
	u32 sum;

	h->checksum = 0;
	sum = udpcp_adler32(1, (const u8 *)h, UDPCP_HDR_LEN);
	h->checksum = htonl(udpcp_adler32_skb(sum, msg, off, off + len));
}

/* Over a packet that we built: header at skb->data, in the linear part. */
void udpcp_csum_set(struct sk_buff *skb)
{
	struct udpcp_hdr *h = (struct udpcp_hdr *)skb->data;

	h->checksum = 0;
	h->checksum = htonl(udpcp_adler32_skb(1, skb, 0, skb->len));
}

/*
 * Received packets may be clones (multicast) or non-linear: never write
 * into them; sum the header with the checksum field as zero, then the
 * payload.
 */
bool udpcp_csum_ok(const struct sk_buff *skb, unsigned int offset,
		   const struct udpcp_hdr *h)
{
	struct udpcp_hdr zeroed = *h;
	u32 sum;

	zeroed.checksum = 0;
	sum = udpcp_adler32(1, (const u8 *)&zeroed, sizeof(zeroed));
	return udpcp_adler32_skb(sum, skb, offset + UDPCP_HDR_LEN, skb->len) ==
	       ntohl(h->checksum);
}
