#!/bin/bash
# The udpcp tracepoints and drop reasons, read through tracefs, against
# what the sockets themselves report:
#  - crafted packets at a receiver (as in 26-malformed): a bad checksum, a
#    malformed header and a duplicate message each give one udpcp_drop
#    with that reason, and the checksum drop's skb reaches skb:kfree_skb
#    (same skbaddr) with the kernel's reason SKB_CSUM;
#  - ack-mode traffic over a lossy link (netem 20% loss both ways, 1 to 3
#    fragments a message): every message the application received appears
#    exactly once as udpcp_msg_deliver, and nothing else does; every
#    message acknowledged appears once as udpcp_msg_acked; the frag and
#    sync retransmission events add up to the sender's tx_retries
#    (UDPCP_INFO), and match udpcpctl's cookie for the socket;
#  - a peer nobody listens at (IPv6): the message fails, and its
#    udpcp_msg_fail event names the errno the error queue reports.
# Prints one failed and one retransmitted message's events.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

T=/sys/kernel/tracing
if [ ! -e "$T/trace" ]; then
	mount -t tracefs nodev "$T" || fail "cannot mount tracefs at $T"
fi
[ -d "$T/events/udpcp" ] || fail "no udpcp events in $T/events"
trace_off() {
	echo 0 >"$T/tracing_on"
	echo 0 >"$T/events/udpcp/enable"
	echo 0 >"$T/events/skb/kfree_skb/enable"
	echo >"$T/trace"
}
on_exit trace_off
trace_off
echo 4096 >"$T/buffer_size_kb"
echo 1 >"$T/events/udpcp/enable"
echo 1 >"$T/events/skb/kfree_skb/enable"
echo 1 >"$T/tracing_on"

out=$(py_run 19-trace.py "$NS_A" "$NS_B" "$IF_A" "$IF_B" "$B4" "$B6" "$T" "$REPO/udpcpctl/udpcpctl" 2>&1) || fail "$out"
echo "$out"
echo "trace ok"
