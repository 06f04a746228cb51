// SPDX-License-Identifier: GPL-2.0
/*
 * udpcp_broken: a deliberately broken module, the positive control of the
 * UDPCP debug-kernel run (tests/debug/selftest.sh).  Each parameter commits
 * one fault at load time; the debug kernel's checkers must report it:
 *
 *   uaf=1    reads a kmalloc'd object after kfree()     -> "BUG: KASAN"
 *   abba=1   takes mutex A then B, later B then A       -> lockdep
 *            ("possible circular locking dependency")
 *   shift=1  shifts an int by 40 bits                   -> "UBSAN: shift-out-of-bounds"
 *   leak=1   kmallocs objects and drops every pointer   -> kmemleak
 *            (after two scans: "unreferenced object", "N new suspected")
 *
 * Loaded with no parameter it does nothing wrong: the negative control.
 * Never load this module outside a throwaway QEMU guest.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/string.h>

static bool uaf;
module_param(uaf, bool, 0444);
MODULE_PARM_DESC(uaf, "commit a use-after-free");
static bool abba;
module_param(abba, bool, 0444);
MODULE_PARM_DESC(abba, "take two mutexes in both orders (AB-BA)");
static bool shift;
module_param(shift, bool, 0444);
MODULE_PARM_DESC(shift, "shift an int out of bounds");
static bool leak;
module_param(leak, bool, 0444);
MODULE_PARM_DESC(leak, "leak kmalloc'd memory");

/* Out of the compiler's sight, so nothing is folded at build time. */
static int shift_by = 40;
module_param(shift_by, int, 0444);
MODULE_PARM_DESC(shift_by, "shift count used by shift=1");

static DEFINE_MUTEX(broken_lock_a);
static DEFINE_MUTEX(broken_lock_b);

static noinline void broken_abba(void)
{
	mutex_lock(&broken_lock_a);
	mutex_lock(&broken_lock_b);
	mutex_unlock(&broken_lock_b);
	mutex_unlock(&broken_lock_a);

	/* The reverse order: lockdep sees the cycle without deadlocking. */
	mutex_lock(&broken_lock_b);
	mutex_lock(&broken_lock_a);
	mutex_unlock(&broken_lock_a);
	mutex_unlock(&broken_lock_b);
	pr_info("udpcp_broken: abba done\n");
}

static noinline void broken_shift(void)
{
	volatile int one = 1;
	int r = one << shift_by;

	pr_info("udpcp_broken: shift done (%d)\n", r);
}

static noinline void broken_leak_one(size_t i)
{
	char *p = kmalloc(128 + i, GFP_KERNEL);

	if (p)
		memset(p, 0x5a, 128 + i);
	/* p goes out of scope: nobody refers to it any more. */
}

/* Wipes the stale stack slots that may still hold the leaked pointers. */
static noinline void broken_clobber_stack(void)
{
	char buf[512];

	memzero_explicit(buf, sizeof(buf));
}

static noinline void broken_leak(void)
{
	size_t i;

	for (i = 0; i < 4; i++)
		broken_leak_one(i);
	broken_clobber_stack();
	pr_info("udpcp_broken: leak done\n");
}

static noinline void broken_uaf(void)
{
	char *p = kmalloc(64, GFP_KERNEL);
	char c;

	if (!p)
		return;
	memset(p, 1, 64);
	kfree(p);
	c = READ_ONCE(p[8]);
	pr_info("udpcp_broken: uaf done (%d)\n", c);
}

static int __init broken_init(void)
{
	pr_info("udpcp_broken: loading (uaf=%d abba=%d shift=%d leak=%d)\n",
		uaf, abba, shift, leak);
	/*
	 * Lockdep first: the first KASAN report taints the kernel and turns
	 * lockdep off, so the use-after-free comes last.
	 */
	if (abba)
		broken_abba();
	if (shift)
		broken_shift();
	if (leak)
		broken_leak();
	if (uaf)
		broken_uaf();
	return 0;
}

static void __exit broken_exit(void)
{
	pr_info("udpcp_broken: unloaded\n");
}

module_init(broken_init);
module_exit(broken_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("UDPCP debug-kernel positive control: deliberately broken");
