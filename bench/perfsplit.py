#!/usr/bin/python3
"""Where the time per message goes, from a profile of bench/guest.sh --profile.

  perfsplit.py DIR NAME [NAME...]      (DIR holds NAME.data, NAME.json, kallsyms)

For each profile: every sample (cpu-clock, 999 Hz per CPU, whole guest)
is charged to the innermost frame of its stack that is in BUCKETS, else to
"other kernel"/"user"/"idle"; the result is guest-µs per message (messages
from NAME.json: the run's rate x 5 s).
"""
import json
import subprocess
import sys
from collections import Counter

# (bucket, frames): the innermost frame of a stack found in any list wins.
BUCKETS = [
    ("idle", ["do_idle"]),
    ("Adler-32 (udpcp_csum_set/_ok, zlib_adler32 inlined)", ["zlib_adler32", "udpcp_csum_set",
                                                         "udpcp_csum_ok",
                                                         "udpcp_csum_set_part"]),
    ("hrtimer (arm/cancel/expire)", ["hrtimer_start_range_ns", "hrtimer_try_to_cancel",
                                     "hrtimer_cancel", "udpcp_peer_timer", "__hrtimer_run_queues",
                                     "hrtimer_run_softirq"]),
    ("udpcp route/dst_cache", ["udpcp_udp_route", "udpcp_udp_mtu_payload", "dst_cache_get_ip4",
                               "dst_cache_get_ip6", "dst_cache_set_ip4", "dst_cache_set_ip6"]),
    ("udpcp packet alloc (alloc_skb)", ["udpcp_udp_alloc"]),
    ("udpcp fragment copy (skb_copy_bits)", ["skb_copy_bits"]),
    ("udpcp peer lookup (rhashtable)", ["udpcp_peer_lookup", "udpcp_peer_get_or_create"]),
    ("udpcp flush wakeup", ["udpcp_sock_wake_flush"]),
    ("udpcp rx queue (sock_queue_rcv_skb)", ["__sock_queue_rcv_skb"]),
    ("udpcp rx: rest of udpcp_encap_rcv", ["udpcp_encap_rcv"]),
    ("udpcp tx: rest of udpcp_tx_*", ["udpcp_tx_queue", "udpcp_tx_ack", "udpcp_tx_next",
                                      "udpcp_tx_fill", "udpcp_tx_frag",
                                      "udpcp_tx_burst"]),
    ("UDP GSO segmentation (either end)", ["skb_segment", "__udp_gso_segment"]),
    ("msg alloc+copy from user", ["sock_alloc_send_pskb", "skb_copy_datagram_from_iter",
                                  "ip_make_skb", "ip6_make_skb"]),
    ("UDP/IP transmit + veth + rx softirq below UDP", ["udpcp_udp_xmit_list", "udp_send_skb",
                                                       "udp_v6_send_skb", "ip_send_skb"]),
    ("udp rx (queue to socket)", ["__udp_enqueue_schedule_skb", "udp_queue_rcv_one_skb",
                                  "udpv6_queue_rcv_one_skb"]),
    ("ip defrag", ["ip_defrag", "ipv6_frag_rcv"]),
    ("sendmsg: rest", ["udpcp_sendmsg", "udp_sendmsg", "udpv6_sendmsg", "tcp_sendmsg"]),
    ("recvmsg (copy to user, dequeue)", ["udpcp_recvmsg", "udp_recvmsg", "udpv6_recvmsg",
                                         "tcp_recvmsg", "___sys_recvmsg", "__sys_recvfrom",
                                         "__sys_recvmmsg"]),
    ("setsockopt (UDPCP_FLUSH wait)", ["__sys_setsockopt"]),
    ("epoll/poll", ["do_epoll_wait", "do_sys_poll"]),
    ("scheduler/wakeups", ["schedule", "try_to_wake_up", "__wake_up_common_lock"]),
    ("syscall entry/exit", ["do_syscall_64", "syscall_exit_to_user_mode"]),
    ("softirq (other)", ["handle_softirqs", "net_rx_action"]),
    ("interrupts", ["asm_sysvec_apic_timer_interrupt", "asm_common_interrupt"]),
]


def samples(path, kallsyms):
    out = subprocess.run(["perf", "script", "-i", path, "--kallsyms", kallsyms, "-F", "comm,ip,sym"],
                         capture_output=True, text=True).stdout
    stack, comm = [], None
    for line in out.splitlines():
        if not line.strip():
            if comm is not None:
                yield comm, stack
            stack, comm = [], None
            continue
        if not line.startswith("\t") and not line.startswith(" "):
            comm = line.strip()
            continue
        parts = line.split(None, 1)
        stack.append(parts[1].strip() if len(parts) > 1 else "?")
    if comm is not None:
        yield comm, stack


def classify(stack, is_kernel):
    where = {}
    for b, frames in BUCKETS:
        for f in frames:
            where[f] = b
    for fr in stack:  # innermost first
        b = where.get(fr)
        if b:
            return b
    return "other kernel" if is_kernel else "user space"


def analyse(d, name):
    meta = json.load(open(f"{d}/{name}.json"))
    msgs = meta["rate"][0] * meta["secs"]
    c = Counter()
    total = 0
    for comm, stack in samples(f"{d}/{name}.data", f"{d}/kallsyms"):
        total += 1
        if comm == "perf":
            c["perf itself"] += 1
            continue
        kern = any(not s.startswith("[unknown]") and s != "?" for s in stack[:1])
        c[classify(stack, kern)] += 1
    us = 1e6 / 999  # per sample
    return meta, msgs, total, c, us


def main():
    d = sys.argv[1]
    for name in sys.argv[2:]:
        meta, msgs, total, c, us = analyse(d, name)
        busy = total - c["idle"] - c["perf itself"]
        print(f"== {name}: {meta['rate'][0]:.0f} msgs/s, {total} samples, busy "
              f"{busy * us / msgs:.1f} guest-us/msg")
        for b, n in c.most_common():
            if b in ("idle", "perf itself"):
                continue
            print(f"   {b:48} {n * us / msgs:8.2f} us/msg  {100 * n / max(busy, 1):5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
