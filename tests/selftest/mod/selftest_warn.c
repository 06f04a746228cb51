// SPDX-License-Identifier: GPL-2.0
/* Harness positive control: loading this WARNs (and nothing else). */
#include <linux/bug.h>
#include <linux/module.h>

static int __init selftest_warn_init(void)
{
	WARN(1, "udpcp selftest: deliberate warning\n");
	return 0;
}

static void __exit selftest_warn_exit(void)
{
}

module_init(selftest_warn_init);
module_exit(selftest_warn_exit);
MODULE_DESCRIPTION("UDPCP test harness: WARN on load");
MODULE_LICENSE("GPL");
