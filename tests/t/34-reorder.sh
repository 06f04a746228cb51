#!/bin/bash
# No-ack messages whose fragments a path interleaves all arrive, once and
# in order.  A's egress is a netem that sends 25 % of packets at once and
# holds the rest 20 ms (delay 20ms reorder 25%), so the fragments of
# consecutive messages cross on the way.  For IPv4 and IPv6, to B's
# unicast address and to a multicast group B joined:
#  - 200 no-ack messages of 3000 octets (3 fragments each; 100 on the debug
#    kernel), in bursts of three: B delivers all of them, once each, in order, intact; it counts no
#    discarded fragment, no rx timeout, no duplicate;
#  - the capture at B proves the reordering: it counts the fragments that
#    arrived after a fragment of a later message, and replays the arrival
#    order under the rule of one partial message per source (the module
#    before it kept several): that rule loses messages on every run.
# timeout: 240
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair
static_neigh
topo_netem "$NS_A" "$IF_A" delay 20ms reorder 25%
# 100 on the debug kernel, ten times slower: still dozens of crossings.
N=200
[ "${UDPCP_DEBUG_KERNEL:-0}" = 1 ] && N=100

run() { # FAM CAST PORT
	local fam=$1 cast=$2 port=$3 sport=$(($3 + 1000)) dst out
	case $fam/$cast in
	v4/unicast) dst=$B4 ;;
	v6/unicast) dst=$B6 ;;
	v4/multicast) dst=239.1.2.3 ;;
	v6/multicast) dst=ff0e::1:2:3 ;;
	esac
	cap_start "$NS_B" "$IF_B" "$TMP/$fam-$cast.pcap"
	out=$(py_run 34-reorder.py "$fam" "$cast" "$dst" "$port" "$sport" "$NS_A" "$NS_B" "$IF_A" "$IF_B" "$A4" "$N" 2>&1) || fail "$fam $cast: $out"
	cap_stop
	note "$fam $cast: sent $N, $out"
	note "$fam $cast: netem $(in_ns "$NS_A" tc -s qdisc show dev "$IF_A" | grep -o 'requeues [0-9]*') (sent at once: the total so far)"
	json_check "$fam $cast" "$out" ".tx_msgs == $N and .received == $N and .bad == 0 and .in_order and .dups == 0 and .rx.rx_msgs == $N and .rx.rx_discarded_frags == 0 and .rx.rx_timeout == 0 and .rx.rx_duplicates == 0"

	cap_udpcp "$TMP/$fam-$cast.pcap" "$port" >"$TMP/$fam-$cast.json"
	out=$(py_run 34-reorder-capture.py "$TMP/$fam-$cast.json" "$sport" "$N") || fail "$fam $cast capture: no reordering to speak of: $out"
	note "$fam $cast capture: $out"
}

run v4 unicast 6001
run v4 multicast 6002
run v6 unicast 6003
run v6 multicast 6004
echo "reorder ok"
