#!/bin/bash
# Messages that cannot be delivered fail after max tries, on time, and say
# so; the next message resynchronises.  Over IPv4, IPv6 and dual-stack
# mapped, with max tries 3 and tx timeout 300 ms:
#  - nobody bound at the destination (a fresh one: the sync never gets
#    acked), the receiver gone after a delivered message (the data is sent
#    3 times), and the sender's link down: each message fails 0.9 s
#    (3 x 300 ms; up to 2.5 s allowed under TCG) after it was sent;
#  - POLLERR is signalled, and the error queue holds one sock_extended_err
#    per failure: ECONNREFUSED where B answered with port unreachables
#    (nobody bound, receiver gone), ETIMEDOUT where nothing came back (link
#    down), SO_EE_ORIGIN_LOCAL, ee_info the message ID,
#    ee_data its length, the destination as the offender; UDPCP_INFO
#    counts tx_timeout;
#  - after recovery (receiver back, link up) the next message is delivered
#    and the capture at B shows a sync before it, and the failed message
#    sent exactly max-tries times.
# timeout: 150
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair
# B's port unreachables name the cause of a failure: none rate-limited away.
in_ns "$NS_B" sysctl -qw net.ipv4.icmp_ratelimit=0 net.ipv6.icmp.ratelimit=0

i=0
for fam in $FAMILIES; do
	i=$((i + 1))
	port=$((6000 + i)) dead=$((6100 + i)) sport=$((7000 + i))
	cap_start "$NS_B" "$IF_B" "$TMP/$fam.pcap"
	out=$(py_run 23-failure.py "$fam" "$(fam_dst "$fam")" "$port" "$dead" "$sport" "$NS_A" "$NS_B" "$IF_A" 2>&1) || fail "$out"
	echo "$out"
	cap_stop
	# Data packets from the sender to the receiver's port, consecutive
	# repeats folded: sync, 1, the failed 2, sync, 3, (4 never left A), sync, 5.
	cap_udpcp "$TMP/$fam.pcap" "$port" >"$TMP/$fam.json"
	seq=$(jq -r "select(.type == 1 and .sport == $sport) | .id" "$TMP/$fam.json" | uniq | tr '\n' ' ')
	assert_eq "$fam message IDs on the wire" "0 1 2 0 3 0 5 " "$seq"
	assert_eq "$fam transmissions of the failed message 2 (fragment 0)" 3 \
		"$(jq -r "select(.type == 1 and .sport == $sport and .id == 2 and .num == 0) | .id" "$TMP/$fam.json" | wc -l)"
	assert_eq "$fam acks of message 2" 0 \
		"$(jq -r "select(.type == 2 and .dport == $sport and .id == 2) | .id" "$TMP/$fam.json" | wc -l)"
done
echo "failure ok"
