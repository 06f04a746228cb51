// SPDX-License-Identifier: GPL-2.0
/*
 * The counters (the MIB): what each is called in netlink and UDPCP_INFO,
 * how per-CPU parts are summed, and resets.
 */
#include <linux/percpu.h>
#include <net/genetlink.h>

#include "udpcp.h"

/* Each counter's UDPCP_A_STATS_* attribute and struct udpcp_info field. */
#define UDPCP_MIB_ITEM(item, field)					\
	[UDPCP_MIB_##item] = {						\
		.attr = UDPCP_A_STATS_##item,				\
		.info = offsetof(struct udpcp_info, udpi_##field),	\
	}

static const struct {
	u16	attr;
	u16	info;
} udpcp_mib_desc[UDPCP_MIB_MAX] = {
	UDPCP_MIB_ITEM(TX_MSGS, tx_msgs),
	UDPCP_MIB_ITEM(RX_MSGS, rx_msgs),
	UDPCP_MIB_ITEM(TX_BYTES, tx_bytes),
	UDPCP_MIB_ITEM(RX_BYTES, rx_bytes),
	UDPCP_MIB_ITEM(TX_TIMEOUT, tx_timeout),
	UDPCP_MIB_ITEM(RX_TIMEOUT, rx_timeout),
	UDPCP_MIB_ITEM(TX_RETRIES, tx_retries),
	UDPCP_MIB_ITEM(RX_DISCARDED_FRAGS, rx_discarded_frags),
	UDPCP_MIB_ITEM(CRC_ERRORS, crc_errors),
	UDPCP_MIB_ITEM(RX_DUPLICATES, rx_duplicates),
	UDPCP_MIB_ITEM(RX_MALFORMED, rx_malformed),
	UDPCP_MIB_ITEM(RX_DROPPED, rx_dropped),
	UDPCP_MIB_ITEM(RX_REFUSED, rx_refused),
	UDPCP_MIB_ITEM(ICMP_ERRORS, icmp_errors),
	UDPCP_MIB_ITEM(PMTU_RESTARTS, pmtu_restarts),
};

/* A counter added without its table entry is a bug found at load. */
int __init udpcp_mib_check(void)
{
	int i;

	for (i = 0; i < UDPCP_MIB_MAX; i++)
		if (WARN(!udpcp_mib_desc[i].attr, "udpcp: MIB item %d unnamed", i))
			return -EINVAL;
	return 0;
}

int udpcp_mib_nl_put(struct sk_buff *skb, int attr, const struct udpcp_mib *m)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, attr);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < UDPCP_MIB_MAX; i++) {
		if (nla_put_u64_64bit(skb, udpcp_mib_desc[i].attr, m->mibs[i],
				      UDPCP_A_STATS_PAD)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

void udpcp_mib_fill_info(struct udpcp_info *info, const struct udpcp_mib *m)
{
	int i;

	for (i = 0; i < UDPCP_MIB_MAX; i++)
		*(u64 *)((u8 *)info + udpcp_mib_desc[i].info) = m->mibs[i];
}

/* Adds what every CPU counted in @pcpu to @to. */
void udpcp_mib_fold(struct udpcp_mib *to,
		    const struct udpcp_pcpu_mib __percpu *pcpu)
{
	int cpu, i;

	for_each_possible_cpu(cpu) {
		const struct udpcp_pcpu_mib *c = per_cpu_ptr(pcpu, cpu);
		u64 v[UDPCP_MIB_MAX];
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&c->syncp);
			for (i = 0; i < UDPCP_MIB_MAX; i++)
				v[i] = u64_stats_read(&c->mibs[i]);
		} while (u64_stats_fetch_retry(&c->syncp, start));
		for (i = 0; i < UDPCP_MIB_MAX; i++)
			to->mibs[i] += v[i];
	}
}

/*
 * Zeroes every CPU's part.  Another CPU counting at that moment may keep
 * its increment or lose it; a reset is not a snapshot.
 */
void udpcp_mib_pcpu_reset(struct udpcp_pcpu_mib __percpu *pcpu)
{
	int cpu, i;

	for_each_possible_cpu(cpu) {
		struct udpcp_pcpu_mib *c = per_cpu_ptr(pcpu, cpu);

		for (i = 0; i < UDPCP_MIB_MAX; i++)
			u64_stats_set(&c->mibs[i], 0);
	}
}

/* Counts one on @usk without its lock: BH only (the receive path). */
void udpcp_sock_count(struct udpcp_sock *usk, enum udpcp_mib_item item)
{
	struct udpcp_pcpu_mib *c = this_cpu_ptr(usk->pcpu_stats);

	lockdep_assert_in_softirq();
	u64_stats_update_begin(&c->syncp);
	u64_stats_inc(&c->mibs[item]);
	u64_stats_update_end(&c->syncp);
}
