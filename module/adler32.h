/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Adler-32 (RFC 1950) eight octets at a time.
 *
 * zlib_adler32() adds one octet per step; every fragment of every message
 * is summed on both ends, and that loop was the largest cost of a 64 KB
 * message.  Here one 64-bit load feeds both sums: the eight octets' plain
 * sum and their sum weighted 8..1 (each octet's share of s2 within the
 * word) come out of multiplications of 16-bit lanes, which cannot carry
 * into each other (a lane holds at most 255 * (8 + 6 + 4 + 2) = 5100).
 * The result equals zlib_adler32() for every input; tests/kmod checks
 * that.  A header, so that the test module compiles the same code.
 */
#ifndef _UDPCP_ADLER32_H
#define _UDPCP_ADLER32_H

#include <linux/types.h>

#include "compat.h"

#define UDPCP_ADLER_BASE	65521U
/* Largest n with 255 n (n + 1) / 2 + (n + 1) (BASE - 1) < 2^32 (zlib). */
#define UDPCP_ADLER_NMAX	5552U

static inline u32 udpcp_adler32(u32 adler, const u8 *buf, size_t len)
{
	const u64 lanes = 0x00ff00ff00ff00ffULL;
	u32 s1 = adler & 0xffff, s2 = adler >> 16;

	while (len) {
		/* NMAX is a multiple of 8: whole words until the tail. */
		size_t n = min_t(size_t, len, UDPCP_ADLER_NMAX);

		len -= n;
		for (; n >= 8; n -= 8, buf += 8) {
			u64 w = get_unaligned_le64(buf);
			u64 even = w & lanes, odd = (w >> 8) & lanes;

			s2 += 8 * s1;
			/* octets 0, 2, 4, 6 weigh 8, 6, 4, 2; 1, 3, 5, 7: 7, 5, 3, 1 */
			s2 += (u32)((even * 0x0008000600040002ULL) >> 48) +
			      (u32)((odd * 0x0007000500030001ULL) >> 48);
			s1 += (u32)(((even + odd) * 0x0001000100010001ULL) >> 48);
		}
		for (; n; n--) {
			s1 += *buf++;
			s2 += s1;
		}
		s1 %= UDPCP_ADLER_BASE;
		s2 %= UDPCP_ADLER_BASE;
	}
	return s2 << 16 | s1;
}

#endif /* _UDPCP_ADLER32_H */
