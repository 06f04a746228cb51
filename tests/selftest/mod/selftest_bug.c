// SPDX-License-Identifier: GPL-2.0
/* Harness positive control: loading this oopses (oops=panic ends the guest). */
#include <linux/bug.h>
#include <linux/module.h>

static int __init selftest_bug_init(void)
{
	BUG();
	return 0;
}

module_init(selftest_bug_init);
MODULE_DESCRIPTION("UDPCP test harness: BUG on load");
MODULE_LICENSE("GPL");
