/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Adler-32 (RFC 1950) eight octets at a time, or 32 and 64 with SSSE3
 * and AVX2 on x86-64.
 *
 * zlib_adler32() adds one octet per step; every fragment of every message
 * is summed on both ends, and that loop was the largest cost of a 64 KB
 * message.  Here one 64-bit load feeds both sums: the eight octets' plain
 * sum and their sum weighted 8..1 (each octet's share of s2 within the
 * word) come out of multiplications of 16-bit lanes, which cannot carry
 * into each other (a lane holds at most 255 * (8 + 6 + 4 + 2) = 5100).
 * The vector steps do the same with psadbw (plain sum) and pmaddubsw +
 * pmaddwd (weighted sum) over 32 or 64 octets.  Every variant reduces
 * modulo BASE after the same NMAX octets as zlib, so their unreduced sums
 * are the same integers and the result equals zlib_adler32() for every
 * input; tests/kmod checks each variant.  A header, so that the test
 * module compiles the same code.
 */
#ifndef _UDPCP_ADLER32_H
#define _UDPCP_ADLER32_H

#include <linux/types.h>
#include <linux/minmax.h>

#include "compat.h"

#ifdef CONFIG_X86_64
#include <linux/cpufeature.h>
#include <linux/timekeeping.h>
#include <asm/fpu/api.h>
#endif

#define UDPCP_ADLER_BASE	65521U
/* Largest n with 255 n (n + 1) / 2 + (n + 1) (BASE - 1) < 2^32 (zlib). */
#define UDPCP_ADLER_NMAX	5552U

/* Adds @n <= NMAX octets to the unreduced sums. */
static __always_inline void udpcp_adler32_words(u32 *s1p, u32 *s2p,
						const u8 *buf, size_t n)
{
	const u64 lanes = 0x00ff00ff00ff00ffULL;
	u32 s1 = *s1p, s2 = *s2p;

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
	*s1p = s1;
	*s2p = s2;
}

static inline u32 udpcp_adler32_scalar(u32 adler, const u8 *buf, size_t len)
{
	u32 s1 = adler & 0xffff, s2 = adler >> 16;

	while (len) {
		/* NMAX is a multiple of 8: whole words until the tail. */
		size_t n = min_t(size_t, len, UDPCP_ADLER_NMAX);

		udpcp_adler32_words(&s1, &s2, buf, n);
		buf += n;
		len -= n;
		s1 %= UDPCP_ADLER_BASE;
		s2 %= UDPCP_ADLER_BASE;
	}
	return s2 << 16 | s1;
}

#ifdef CONFIG_X86_64
enum udpcp_adler32_simd {
	UDPCP_ADLER_SCALAR,
	UDPCP_ADLER_SSSE3,
	UDPCP_ADLER_AVX2,
};

/*
 * Shorter calls stay scalar: below this, kernel_fpu_begin()/_end() cost
 * more than the vector steps save (tests/kmod measures the crossing).
 */
#define UDPCP_ADLER_SIMD_MIN	128U

/*
 * The vector registers stay live from one asm statement to the next only
 * because nothing else in the kernel may touch them between
 * kernel_fpu_begin() and kernel_fpu_end(); so one asm statement does a
 * whole run of steps.  Per step: v_ps += v_s1 (the s1 of the steps before,
 * weighted by the step's length at the end), v_s1 += the octets' sum,
 * v_s2 += the octets weighted by their distance from the step's end.  No
 * lane can overflow: all are non-negative and add up to the unreduced s2,
 * which NMAX bounds.
 */

/* 32 octets per step, @blocks >= 1 steps. */
static inline void udpcp_adler32_ssse3_blocks(u32 *s1p, u32 *s2p,
					      const u8 *buf, size_t blocks)
{
	/* weights 32..1; pmaddubsw treats them as signed, the data unsigned */
	static const u8 taps[32] __aligned(16) = {
		32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
		16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
	};
	u32 s1 = *s1p, v1, v2;

	*s2p += 32 * blocks * s1;
	asm volatile("pxor %%xmm0, %%xmm0\n\t"
		     "pxor %%xmm1, %%xmm1\n\t"
		     "pxor %%xmm2, %%xmm2\n\t"
		     "pxor %%xmm3, %%xmm3\n\t"
		     "movdqa (%[taps]), %%xmm4\n\t"
		     "movdqa 16(%[taps]), %%xmm5\n\t"
		     "pcmpeqw %%xmm6, %%xmm6\n\t"
		     "psrlw $15, %%xmm6\n\t"
		     "1:\n\t"
		     "movdqu (%[buf]), %%xmm7\n\t"
		     "movdqu 16(%[buf]), %%xmm8\n\t"
		     "paddd %%xmm1, %%xmm2\n\t"
		     "movdqa %%xmm7, %%xmm9\n\t"
		     "psadbw %%xmm0, %%xmm9\n\t"
		     "paddd %%xmm9, %%xmm1\n\t"
		     "movdqa %%xmm8, %%xmm9\n\t"
		     "psadbw %%xmm0, %%xmm9\n\t"
		     "paddd %%xmm9, %%xmm1\n\t"
		     "pmaddubsw %%xmm4, %%xmm7\n\t"
		     "pmaddubsw %%xmm5, %%xmm8\n\t"
		     /* words of at most 255 * (63 + 31): the sum stays signed */
		     "paddw %%xmm8, %%xmm7\n\t"
		     "pmaddwd %%xmm6, %%xmm7\n\t"
		     "paddd %%xmm7, %%xmm3\n\t"
		     "add $32, %[buf]\n\t"
		     "dec %[n]\n\t"
		     "jnz 1b\n\t"
		     "pslld $5, %%xmm2\n\t"
		     "paddd %%xmm2, %%xmm3\n\t"
		     "pshufd $0x4e, %%xmm1, %%xmm9\n\t"
		     "paddd %%xmm9, %%xmm1\n\t"
		     "movd %%xmm1, %[v1]\n\t"
		     "pshufd $0x4e, %%xmm3, %%xmm9\n\t"
		     "paddd %%xmm9, %%xmm3\n\t"
		     "pshufd $0xb1, %%xmm3, %%xmm9\n\t"
		     "paddd %%xmm9, %%xmm3\n\t"
		     "movd %%xmm3, %[v2]\n\t"
		     : [buf] "+r" (buf), [n] "+r" (blocks),
		       [v1] "=r" (v1), [v2] "=r" (v2)
		     : [taps] "r" (taps)
		     : "cc", "memory");
	*s1p = s1 + v1;
	*s2p += v2;
}

/* 64 octets per step, @blocks >= 1 steps. */
static inline void udpcp_adler32_avx2_blocks(u32 *s1p, u32 *s2p,
					     const u8 *buf, size_t blocks)
{
	static const u8 taps[64] __aligned(32) = {
		64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49,
		48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33,
		32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
		16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
	};
	u32 s1 = *s1p, v1, v2;

	*s2p += 64 * blocks * s1;
	asm volatile("vpxor %%ymm0, %%ymm0, %%ymm0\n\t"
		     "vpxor %%ymm1, %%ymm1, %%ymm1\n\t"
		     "vpxor %%ymm2, %%ymm2, %%ymm2\n\t"
		     "vpxor %%ymm3, %%ymm3, %%ymm3\n\t"
		     "vmovdqa (%[taps]), %%ymm4\n\t"
		     "vmovdqa 32(%[taps]), %%ymm5\n\t"
		     "vpcmpeqw %%ymm6, %%ymm6, %%ymm6\n\t"
		     "vpsrlw $15, %%ymm6, %%ymm6\n\t"
		     "1:\n\t"
		     "vmovdqu (%[buf]), %%ymm7\n\t"
		     "vmovdqu 32(%[buf]), %%ymm8\n\t"
		     "vpaddd %%ymm1, %%ymm2, %%ymm2\n\t"
		     "vpsadbw %%ymm0, %%ymm7, %%ymm9\n\t"
		     "vpaddd %%ymm9, %%ymm1, %%ymm1\n\t"
		     "vpsadbw %%ymm0, %%ymm8, %%ymm9\n\t"
		     "vpaddd %%ymm9, %%ymm1, %%ymm1\n\t"
		     /* 255 * (64 + 63) fits a signed word, two of them not */
		     "vpmaddubsw %%ymm4, %%ymm7, %%ymm7\n\t"
		     "vpmaddubsw %%ymm5, %%ymm8, %%ymm8\n\t"
		     "vpmaddwd %%ymm6, %%ymm7, %%ymm7\n\t"
		     "vpmaddwd %%ymm6, %%ymm8, %%ymm8\n\t"
		     "vpaddd %%ymm7, %%ymm3, %%ymm3\n\t"
		     "vpaddd %%ymm8, %%ymm3, %%ymm3\n\t"
		     "add $64, %[buf]\n\t"
		     "dec %[n]\n\t"
		     "jnz 1b\n\t"
		     "vpslld $6, %%ymm2, %%ymm2\n\t"
		     "vpaddd %%ymm2, %%ymm3, %%ymm3\n\t"
		     "vextracti128 $1, %%ymm1, %%xmm9\n\t"
		     "vpaddd %%xmm9, %%xmm1, %%xmm1\n\t"
		     "vpshufd $0x4e, %%xmm1, %%xmm9\n\t"
		     "vpaddd %%xmm9, %%xmm1, %%xmm1\n\t"
		     "vmovd %%xmm1, %[v1]\n\t"
		     "vextracti128 $1, %%ymm3, %%xmm9\n\t"
		     "vpaddd %%xmm9, %%xmm3, %%xmm3\n\t"
		     "vpshufd $0x4e, %%xmm3, %%xmm9\n\t"
		     "vpaddd %%xmm9, %%xmm3, %%xmm3\n\t"
		     "vpshufd $0xb1, %%xmm3, %%xmm9\n\t"
		     "vpaddd %%xmm9, %%xmm3, %%xmm3\n\t"
		     "vmovd %%xmm3, %[v2]\n\t"
		     /* no SSE-AVX transition penalty for whoever comes next */
		     "vzeroupper\n\t"
		     : [buf] "+r" (buf), [n] "+r" (blocks),
		       [v1] "=r" (v1), [v2] "=r" (v2)
		     : [taps] "r" (taps)
		     : "cc", "memory");
	*s1p = s1 + v1;
	*s2p += v2;
}

/*
 * One FPU section per NMAX octets (5.5 KB at most: a fragment is summed
 * in one), the tail of each by the word loop.  The caller checked that
 * the CPU has @how and that irq_fpu_usable().
 */
static inline u32 udpcp_adler32_vec(u32 adler, const u8 *buf, size_t len,
				    enum udpcp_adler32_simd how)
{
	size_t step = how == UDPCP_ADLER_AVX2 ? 64 : 32;
	u32 s1 = adler & 0xffff, s2 = adler >> 16;

	while (len) {
		size_t n = min_t(size_t, len, UDPCP_ADLER_NMAX);
		size_t blocks = n / step;

		len -= n;
		if (blocks) {
			kernel_fpu_begin();
			if (how == UDPCP_ADLER_AVX2)
				udpcp_adler32_avx2_blocks(&s1, &s2, buf, blocks);
			else
				udpcp_adler32_ssse3_blocks(&s1, &s2, buf, blocks);
			kernel_fpu_end();
			buf += blocks * step;
			n -= blocks * step;
		}
		udpcp_adler32_words(&s1, &s2, buf, n);
		buf += n;
		s1 %= UDPCP_ADLER_BASE;
		s2 %= UDPCP_ADLER_BASE;
	}
	return s2 << 16 | s1;
}

/* The best variant this CPU has (static_cpu_has: patched at load). */
static inline enum udpcp_adler32_simd udpcp_adler32_simd(void)
{
	if (static_cpu_has(X86_FEATURE_AVX2) &&
	    cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL))
		return UDPCP_ADLER_AVX2;
	if (static_cpu_has(X86_FEATURE_SSSE3))
		return UDPCP_ADLER_SSSE3;
	return UDPCP_ADLER_SCALAR;
}

static inline const char *udpcp_adler32_name(enum udpcp_adler32_simd how)
{
	static const char * const names[] = { "scalar", "ssse3", "avx2" };

	return names[how];
}

/*
 * The variant udpcp_adler32() uses, set once before the first socket by
 * udpcp_adler32_pick() (each user of this header defines it).
 */
extern enum udpcp_adler32_simd udpcp_adler32_how;

/* Nanoseconds @how takes for @len octets of @buf, the best of a few runs. */
static inline u64 udpcp_adler32_time(enum udpcp_adler32_simd how,
				     const u8 *buf, size_t len)
{
	u64 best = U64_MAX, t;
	int run;

	for (run = 0; run < 5; run++) {
		t = ktime_get_ns();
		if (how == UDPCP_ADLER_SCALAR)
			udpcp_adler32_scalar(1, buf, len);
		else
			udpcp_adler32_vec(1, buf, len, how);
		best = min(best, ktime_get_ns() - t);
	}
	return best;
}

/*
 * The fastest variant this CPU has, measured on @buf as lib/raid6 and
 * crypto/xor choose theirs: whether the vector units pay depends on the
 * CPU, and an emulated one (QEMU's TCG) runs AVX2 several times slower
 * than the word loop.  Process context, where the FPU may be used.
 * @ns gets each variant's time (scalar, SSSE3, AVX2; 0: not on this CPU).
 */
static inline enum udpcp_adler32_simd
udpcp_adler32_pick(const u8 *buf, size_t len, u64 ns[3])
{
	enum udpcp_adler32_simd best = UDPCP_ADLER_SCALAR, how;
	enum udpcp_adler32_simd top = udpcp_adler32_simd();

	ns[0] = udpcp_adler32_time(UDPCP_ADLER_SCALAR, buf, len);
	ns[1] = 0;
	ns[2] = 0;
	if (!irq_fpu_usable())
		return best;
	for (how = UDPCP_ADLER_SSSE3; how <= top; how++) {
		ns[how] = udpcp_adler32_time(how, buf, len);
		if (ns[how] < ns[best])
			best = how;
	}
	return best;
}
#endif /* CONFIG_X86_64 */

static inline u32 udpcp_adler32(u32 adler, const u8 *buf, size_t len)
{
#ifdef CONFIG_X86_64
	if (len >= UDPCP_ADLER_SIMD_MIN && udpcp_adler32_how != UDPCP_ADLER_SCALAR &&
	    irq_fpu_usable())
		return udpcp_adler32_vec(adler, buf, len, udpcp_adler32_how);
#endif
	return udpcp_adler32_scalar(adler, buf, len);
}

#endif /* _UDPCP_ADLER32_H */
