// SPDX-License-Identifier: GPL-2.0
/*
 * udpcp_adler32_test: the module's Adler-32 (module/adler32.h) against the
 * kernel's zlib_adler32(), bit for bit, then their speed.
 *
 * Every variant is checked on its own: the scalar word loop, and on x86-64
 * each vector one the CPU has (SSSE3, AVX2), plus udpcp_adler32() itself,
 * which picks one by length (set here to the widest the CPU has, whatever
 * udpcp_adler32_pick() would choose, so that its vector path is checked).
 * On load, over all 0xff, zeros and random octets, at every start offset
 * 0..7: every length 0..NMAX+16 from the initial value 1, the short and
 * near-NMAX lengths from values near the modulus, and 64 KB messages.
 * Any difference fails the load (-EINVAL) after printing it.  Then each
 * sums the same 64 KB buffer a number of times, and the log says ns per
 * KB of each, and ns per call of the scalar and the chosen vector variant
 * at short lengths (where the FPU starts to pay).  Load it only in a test
 * guest.
 */
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/ktime.h>
#include <linux/zutil.h>

#include "adler32.h"

#define BUF_LEN		(64 * 1024 + 8)
#define TIME_ROUNDS	16
#define TIME_TRIES	8
#define CALL_ROUNDS	2000

typedef u32 (*adler_fn)(u32 adler, const u8 *buf, size_t len);

static u32 sum_zlib(u32 adler, const u8 *buf, size_t len)
{
	return zlib_adler32(adler, buf, len);
}

static u32 sum_scalar(u32 adler, const u8 *buf, size_t len)
{
	return udpcp_adler32_scalar(adler, buf, len);
}

static u32 sum_any(u32 adler, const u8 *buf, size_t len)
{
	return udpcp_adler32(adler, buf, len);
}

#ifdef CONFIG_X86_64
enum udpcp_adler32_simd udpcp_adler32_how;

static u32 sum_ssse3(u32 adler, const u8 *buf, size_t len)
{
	return udpcp_adler32_vec(adler, buf, len, UDPCP_ADLER_SSSE3);
}

static u32 sum_avx2(u32 adler, const u8 *buf, size_t len)
{
	return udpcp_adler32_vec(adler, buf, len, UDPCP_ADLER_AVX2);
}
#endif

static struct variant {
	const char *name;
	adler_fn fn;
	bool on;
} variants[] = {
	{ "scalar", sum_scalar, true },
#ifdef CONFIG_X86_64
	{ "ssse3", sum_ssse3 },
	{ "avx2", sum_avx2 },
#endif
	{ "udpcp_adler32", sum_any, true },
};

/* Every length and start offset from the initial value 1: all of NMAX. */
static bool sweep_len(unsigned int i, unsigned int len)
{
	return i == 0 || len <= 64 || len >= UDPCP_ADLER_NMAX - 16;
}

static unsigned int check(u32 start, const u8 *buf, size_t len,
			  const char *what, unsigned int bad)
{
	u32 want = zlib_adler32(start, buf, len);
	unsigned int v;

	for (v = 0; v < ARRAY_SIZE(variants); v++) {
		u32 got;

		if (!variants[v].on)
			continue;
		got = variants[v].fn(start, buf, len);
		if (got != want && bad++ < 5)
			pr_err("adler32 %s %s: start %08x off %lu len %zu: %08x, zlib %08x\n",
			       variants[v].name, what, start,
			       (unsigned long)buf & 7, len, got, want);
	}
	return bad;
}

static unsigned int compare(const u8 *buf, const char *what)
{
	static const u32 starts[] = { 1, 0, 0xfff0fff0, 0xfff00001, 0x0001fff0 };
	unsigned int off, len, i, bad = 0;

	for (i = 0; i < ARRAY_SIZE(starts); i++) {
		for (len = 0; len <= UDPCP_ADLER_NMAX + 16; len++) {
			if (!sweep_len(i, len))
				continue;
			for (off = 0; off < 8; off++)
				bad = check(starts[i], buf + off, len, what, bad);
			/* minutes under TCG: let the watchdog see progress */
			cond_resched();
		}
		for (off = 0; off < 8; off++)
			bad = check(starts[i], buf + off, BUF_LEN - 8, what, bad);
	}
	return bad;
}

/* The fastest of a few rounds: a test guest shares a loaded host. */
static u64 ns_per_kb(adler_fn fn, const u8 *buf)
{
	u64 best = U64_MAX;
	int i, t;

	for (t = 0; t < TIME_TRIES; t++) {
		u64 t0 = ktime_get_ns();
		u32 sum = 1;

		for (i = 0; i < TIME_ROUNDS; i++)
			sum = fn(sum, buf, BUF_LEN - 8);
		/* keep the sums alive */
		if (sum == 0x12345678)
			pr_info("adler32: %08x\n", sum);
		best = min(best, (ktime_get_ns() - t0) / (TIME_ROUNDS * 64));
		cond_resched();
	}
	return best;
}

/* ns per call of @len octets, FPU section included: where SIMD pays. */
static u64 ns_per_call(adler_fn fn, const u8 *buf, size_t len)
{
	u64 best = U64_MAX;
	int i, t;

	for (t = 0; t < TIME_TRIES; t++) {
		u64 t0 = ktime_get_ns();
		u32 sum = 1;

		for (i = 0; i < CALL_ROUNDS; i++)
			sum = fn(sum, buf + (i & 7), len);
		if (sum == 0x12345678)
			pr_info("adler32: %08x\n", sum);
		best = min(best, (ktime_get_ns() - t0) / CALL_ROUNDS);
	}
	return best;
}

static void time_calls(adler_fn simd, const u8 *buf)
{
	static const unsigned int lens[] = { 16, 32, 48, 64, 96, 128, 192, 256,
					     512, 1452 };
	char line[256];
	int n = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		n += scnprintf(line + n, sizeof(line) - n, " %u:%llu/%llu",
			       lens[i], ns_per_call(sum_scalar, buf, lens[i]),
			       ns_per_call(simd, buf, lens[i]));
		cond_resched();
	}
	pr_info("udpcp_adler32_test: ns per call, length:scalar/simd%s\n", line);
}

static int __init adler32_test_init(void)
{
	const char *simd = "none", *pick = "scalar";
	unsigned int from = 0;
	adler_fn simd_fn = NULL;
	char speeds[200], ran[80];
	unsigned int bad, v;
	int n = 0, r = 0;
	u8 *buf;

#ifdef CONFIG_X86_64
	/* every variant this CPU can run, whatever udpcp_adler32() picks */
	if (boot_cpu_has(X86_FEATURE_SSSE3) && irq_fpu_usable())
		variants[1].on = true;
	if (udpcp_adler32_simd() == UDPCP_ADLER_AVX2 && irq_fpu_usable())
		variants[2].on = true;
	if (udpcp_adler32_simd() == UDPCP_ADLER_AVX2) {
		simd = "avx2";
		simd_fn = sum_avx2;
	} else if (udpcp_adler32_simd() == UDPCP_ADLER_SSSE3) {
		simd = "ssse3";
		simd_fn = sum_ssse3;
	}
	from = UDPCP_ADLER_SIMD_MIN;
	udpcp_adler32_how = udpcp_adler32_simd();
#endif
	buf = kmalloc(BUF_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
#ifdef CONFIG_X86_64
	{
		u64 ns[3];

		get_random_bytes(buf, PAGE_SIZE);
		pick = udpcp_adler32_name(udpcp_adler32_pick(buf, PAGE_SIZE, ns));
	}
#endif
	memset(buf, 0xff, BUF_LEN);
	bad = compare(buf, "0xff");
	memset(buf, 0, BUF_LEN);
	bad += compare(buf, "zeros");
	get_random_bytes(buf, BUF_LEN);
	bad += compare(buf, "random");

	n = scnprintf(speeds, sizeof(speeds), "zlib_adler32 %llu ns/KB",
		      ns_per_kb(sum_zlib, buf));
	for (v = 0; v < ARRAY_SIZE(variants); v++) {
		if (!variants[v].on)
			continue;
		r += scnprintf(ran + r, sizeof(ran) - r, " %s", variants[v].name);
		n += scnprintf(speeds + n, sizeof(speeds) - n, ", %s %llu ns/KB",
			       variants[v].name, ns_per_kb(variants[v].fn, buf));
	}
	if (simd_fn)
		time_calls(simd_fn, buf);
	kfree(buf);
	pr_info("udpcp_adler32_test: %u differences; checked:%s; simd %s, from %u octets; %s; the module would pick %s\n",
		bad, ran, simd, from, speeds, pick);
	return bad ? -EINVAL : 0;
}

static void __exit adler32_test_exit(void)
{
}

module_init(adler32_test_init);
module_exit(adler32_test_exit);
MODULE_DESCRIPTION("UDPCP test: Adler-32 against zlib_adler32");
MODULE_LICENSE("GPL");
