// SPDX-License-Identifier: GPL-2.0
/*
 * UDPCP: the packet header and its Adler-32 checksum.
 *
 * <linux/zutil.h> defines macros with common names; it stays in this file.
 */
#include <linux/zutil.h>

#include "udpcp.h"

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

/* Over a linear packet that we built: header at skb->data. */
void udpcp_csum_set(struct sk_buff *skb)
{
	struct udpcp_hdr *h = (struct udpcp_hdr *)skb->data;

	h->checksum = 0;
	h->checksum = htonl(zlib_adler32(1, skb->data, skb->len));
}

/*
 * Received packets may be clones (multicast) or non-linear: never write
 * into them; sum the header with the checksum field as zero, then walk the
 * payload.
 */
bool udpcp_csum_ok(const struct sk_buff *skb, unsigned int offset,
		   const struct udpcp_hdr *h)
{
	struct udpcp_hdr zeroed = *h;
	struct skb_seq_state st;
	unsigned int consumed = 0, n;
	const u8 *data;
	u32 sum;

	zeroed.checksum = 0;
	sum = zlib_adler32(1, (const u8 *)&zeroed, sizeof(zeroed));

	skb_prepare_seq_read((struct sk_buff *)skb, offset + UDPCP_HDR_LEN,
			     skb->len, &st);
	while ((n = skb_seq_read(consumed, &data, &st)) != 0) {
		sum = zlib_adler32(sum, data, n);
		consumed += n;
	}
	return sum == ntohl(h->checksum);
}
