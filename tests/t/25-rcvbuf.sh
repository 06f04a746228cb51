#!/bin/bash
# A full receive buffer holds the sender back instead of losing messages,
# over IPv4, IPv6 and dual-stack mapped:
#  - a receiver with a tiny buffer (room for one 5000-octet message) that
#    does not read: the message that does not fit is not acknowledged (its
#    last fragment's ack appears in the capture only after the application
#    started reading), the sender keeps it pending (UDPCP_INFO tx_pending),
#    the receiver counts rx_dropped and holds one message (rx_queued);
#    partial messages from six other sources then need more room than is
#    left: they evict each other (rx_discarded_frags moves) but not the
#    waiting message, whose fragments but the last were acked; once the
#    application reads, every message arrives, in order, once, none failed;
#  - a slow reader (udpcp-tool recv --slow) with a small buffer and a
#    sender in single-ack mode: 20 messages all arrive exactly once, the
#    sender retransmitted and nothing failed.
# timeout: 150
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

i=0
for fam in $FAMILIES; do
	i=$((i + 1))
	port=$((6000 + i)) sport=$((7000 + i))
	cap_start "$NS_B" "$IF_B" "$TMP/$fam.pcap"
	out=$(py_run 25-rcvbuf.py "$fam" "$(fam_dst "$fam")" "$port" "$sport" "$NS_A" "$NS_B" 2>&1) || fail "$out"
	echo "$fam: $out"
	t_read=$(jget "$out" .t_read)

	# The slow reader: 20 messages of 5000 octets, single-ack, 100 ms a read.
	# shellcheck disable=SC2046
	bg_start "slow-$fam" in_ns "$NS_B" "$TOOL" recv -b "$(fam_bind "$fam")" $((port + 100)) \
		$(fam_recv_opts "$fam") --rcvbuf 8192 --slow 100 -n 20 -t 60000 --info
	wait_port "$NS_B" $((port + 100))
	tx=$(in_ns "$NS_A" "$TOOL" send -d "$(fam_dst "$fam")" $((port + 100)) -n 20 -s 5000 \
		--mode single-ack --tx-timeout 100 --max-try 10) || fail "$fam slow reader: sender: $tx"
	bg_wait "slow-$fam" || fail "$fam slow reader: $(cat "$TMP/slow-$fam.out" "$TMP/slow-$fam.err")"
	rx=$(bg_json "slow-$fam")
	echo "$fam slow reader: $rx"
	json_check "$fam slow reader, receiver" "$rx" '.received == 20 and .bad == 0 and .dups == 0 and .out_of_order == 0 and .info.rx_dropped > 0'
	json_check "$fam slow reader, sender" "$tx" '.failed == 0 and .info.tx_msgs == 20 and .info.tx_retries > 0'

	cap_stop
	cap_udpcp "$TMP/$fam.pcap" "$port" >"$TMP/$fam.json"
	# Message 2 is the first that did not fit: its last fragment is acked
	# only after the application started reading.
	first=$(jq -s "[.[] | select(.type == 2 and .dport == $sport and .id == 2 and .num == 3) | .ts] | min" "$TMP/$fam.json")
	[ "$first" != null ] || fail "$fam: message 2 never acked"
	awk -v a="$first" -v r="$t_read" 'BEGIN { exit !(a >= r) }' ||
		fail "$fam: message 2 acked at $first, before the application read (at $t_read)"
	# ... though it was sent (and resent) before.
	sent=$(jq -s "[.[] | select(.type == 1 and .sport == $sport and .id == 2 and .num == 3 and .ts < $t_read)] | length" "$TMP/$fam.json")
	[ "$sent" -ge 2 ] || fail "$fam: message 2's last fragment sent $sent times before the read, want >= 2"
done
echo "rcvbuf ok"
