/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The content of every test message, so that a receiver can check what it
 * got without knowing what was sent.  tests/peer/udpcp.py (pattern_byte)
 * mirrors this definition; change both together.
 *
 * Octets 0..3 are the message's sequence number, big-endian (a message
 * shorter than 4 octets carries its first octets).  Octet off >= 4 is
 * (seq * 7 + off * 13 + (off >> 8) * 29) mod 256: it depends on the offset
 * beyond 256 too, so fragments swapped or shifted by any amount show up.
 */
#ifndef UDPCP_TESTS_PATTERN_H
#define UDPCP_TESTS_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define PATTERN_SEQ_LEN	4

static inline unsigned char pattern_byte(uint32_t seq, size_t off)
{
	if (off < PATTERN_SEQ_LEN)
		return (unsigned char)(seq >> (24 - 8 * off));
	return (unsigned char)(seq * 7u + off * 13u + (off >> 8) * 29u);
}

static inline void pattern_fill(unsigned char *buf, size_t len, uint32_t seq)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pattern_byte(seq, i);
}

/* The sequence number a message claims; a short message claims none. */
static inline int pattern_seq(const unsigned char *buf, size_t len,
			      uint32_t *seq)
{
	if (len < PATTERN_SEQ_LEN)
		return -1;
	*seq = (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 |
	       (uint32_t)buf[2] << 8 | buf[3];
	return 0;
}

/* Offset of the first octet that differs from the pattern of seq, or len. */
static inline size_t pattern_check(const unsigned char *buf, size_t len,
				   uint32_t seq)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != pattern_byte(seq, i))
			return i;
	return len;
}

#endif /* UDPCP_TESTS_PATTERN_H */
