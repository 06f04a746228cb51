#!/bin/bash
# A slow link holds a no-ack sender back instead of losing messages: the
# fragments in the device queue are charged to the socket's send buffer, so
# sendmsg waits (or says EAGAIN) while the queue drains.  A's egress is a
# 20 Mbit/s token bucket that queues at most 80 KB (netem would not do:
# it orphans what it delays, which ends any socket's charge).  For IPv4,
# IPv6 and dual-stack mapped:
#  - blocking sends, a 32 KiB send buffer: 120 messages of 16000 octets
#    (12 fragments each, 1440 packets) all arrive once, intact, in order,
#    and the queue dropped nothing;
#  - MSG_DONTWAIT: sendmsg says EAGAIN at some point, poll() says POLLOUT
#    once the queue drained, and every message sendmsg accepted arrives;
#  - the control that shows the test can fail: with a 4 MiB send buffer
#    the same blast overflows the queue (drops, messages lost).
# timeout: 240
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair
ip netns exec "$NS_A" tc qdisc replace dev "$IF_A" root tbf rate 20mbit burst 16kb limit 80kb
# The queue is run by whichever CPU the sender or the qdisc's timer is on,
# and veth hands each packet to that CPU's backlog: on a loaded guest the
# two backlogs reorder packets, and a fragment of the next message that
# overtakes the last of this one ends this one (no-ack, one partial message
# per source: Documentation/udpcp-protocol.rst).  Steering B's receive to one CPU keeps the
# order, which is what a single link has.
ip netns exec "$NS_B" sh -c "echo 1 > /sys/class/net/$IF_B/queues/rx-0/rps_cpus" ||
	fail "RPS on $IF_B"

i=0
for fam in $FAMILIES; do
	i=$((i + 1))
	out=$(py_run 32-sndbuf.py "$fam" "$(fam_dst "$fam")" $((6000 + i)) "$NS_A" "$NS_B" "$IF_A" 2>&1) || fail "$out"
	echo "$fam: $out"
done
echo "sndbuf ok"
