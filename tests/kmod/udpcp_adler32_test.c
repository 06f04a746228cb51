// SPDX-License-Identifier: GPL-2.0
/*
 * udpcp_adler32_test: the module's Adler-32 (module/adler32.h) against the
 * kernel's zlib_adler32(), bit for bit, then their speed.
 *
 * On load, over all 0xff, zeros and random octets, at every start offset
 * 0..7: every length 0..NMAX+16 from the initial value 1, the short and
 * near-NMAX lengths from values near the modulus, and 64 KB messages.
 * Any difference fails the load (-EINVAL) after printing it.  Then both
 * sum the same 64 KB buffer a number of times, and the log says ns per KB
 * of each.  Load it only in a test guest.
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

/* Every length and start offset from the initial value 1: all of NMAX. */
static bool sweep_len(unsigned int i, unsigned int len)
{
	return i == 0 || len <= 64 || len >= UDPCP_ADLER_NMAX - 16;
}

static int compare(const u8 *buf, const char *what)
{
	static const u32 starts[] = { 1, 0, 0xfff0fff0, 0xfff00001, 0x0001fff0 };
	unsigned int off, len, i, bad = 0;

	for (i = 0; i < ARRAY_SIZE(starts); i++) {
		for (len = 0; len <= UDPCP_ADLER_NMAX + 16; len++) {
			if (!sweep_len(i, len))
				continue;
			for (off = 0; off < 8; off++) {
				u32 want = zlib_adler32(starts[i], buf + off, len);
				u32 got = udpcp_adler32(starts[i], buf + off, len);

				if (got != want && bad++ < 5)
					pr_err("adler32 %s: start %08x off %u len %u: %08x, zlib %08x\n",
					       what, starts[i], off, len, got, want);
			}
			/* minutes under TCG: let the watchdog see progress */
			cond_resched();
		}
		for (off = 0; off < 8; off++) {
			len = BUF_LEN - 8;
			if (udpcp_adler32(starts[i], buf + off, len) !=
			    zlib_adler32(starts[i], buf + off, len) && bad++ < 5)
				pr_err("adler32 %s: start %08x off %u len %u differs\n",
				       what, starts[i], off, len);
		}
	}
	return bad;
}

/* The fastest of a few rounds: a test guest shares a loaded host. */
static u64 ns_per_kb(bool ours, const u8 *buf)
{
	u64 t0 = ktime_get_ns();
	u32 sum = 1;
	int i;

	for (i = 0; i < TIME_ROUNDS; i++) {
		sum = ours ? udpcp_adler32(sum, buf, BUF_LEN - 8) :
			     zlib_adler32(sum, buf, BUF_LEN - 8);
	}
	/* keep the sums alive */
	if (sum == 0x12345678)
		pr_info("adler32: %08x\n", sum);
	return (ktime_get_ns() - t0) / (TIME_ROUNDS * 64);
}

static int __init adler32_test_init(void)
{
	unsigned int bad, i;
	u64 zlib_ns, ours_ns;
	u8 *buf;

	buf = kmalloc(BUF_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	memset(buf, 0xff, BUF_LEN);
	bad = compare(buf, "0xff");
	memset(buf, 0, BUF_LEN);
	bad += compare(buf, "zeros");
	get_random_bytes(buf, BUF_LEN);
	bad += compare(buf, "random");

	zlib_ns = U64_MAX;
	ours_ns = U64_MAX;
	for (i = 0; i < TIME_TRIES; i++) {
		zlib_ns = min(zlib_ns, ns_per_kb(false, buf));
		ours_ns = min(ours_ns, ns_per_kb(true, buf));
		cond_resched();
	}
	kfree(buf);
	pr_info("udpcp_adler32_test: %u differences; zlib_adler32 %llu ns/KB, udpcp_adler32 %llu ns/KB\n",
		bad, zlib_ns, ours_ns);
	return bad ? -EINVAL : 0;
}

static void __exit adler32_test_exit(void)
{
}

module_init(adler32_test_init);
module_exit(adler32_test_exit);
MODULE_DESCRIPTION("UDPCP test: Adler-32 against zlib_adler32");
MODULE_LICENSE("GPL");
