#!/bin/bash
# A bad link both ways (netem: 20% loss, 10% duplication, 25% reordering,
# 10 ms +- 5 ms jitter; 5% corruption of the acks, payload corruption of
# the data): in ack and single-ack mode, over IPv4, IPv6 and dual-stack
# mapped, N messages each (six streams at once; N=400, so 1200 per mode:
# 1000 per stream would take ~5 minutes under TCG; UDPCP_NETEM_MSGS
# overrides) are delivered exactly once, in order, with the right content;
# the senders count retransmissions (tx_retries) and the receivers checksum
# errors (crc_errors).
#
# netem's corruption flips a bit after the UDP checksum was computed, so
# UDP itself drops those packets before UDPCP sees them (counted in UDP's
# InCsumErrors).  To reach UDPCP's Adler-32, a tc filter on B's ingress
# corrupts one payload octet of ~5% of the data packets and fixes the
# UDP checksum up (pedit + csum): those the receiver must count in
# crc_errors and never ack.
#
# With max tries 10 a packet is lost for good with probability
# (1 - 0.8*0.95 * 0.8*0.95)^10 ~ 2e-4 (single fragment), so a message may
# fail now and then: a failed message must be reported to its sender (error
# queue), may be missing at the receiver only then, and must not break the
# order of the others.  More than 1% failures fails the test.
# timeout: 240
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

N=${UDPCP_NETEM_MSGS:-400}
SIZES=100,1000,2000

udpcp_load
topo_pair
static_neigh
# (No netem corruption toward B: the corrupter below recomputes the UDP
# checksum, which would pass a bit netem flipped anywhere, header included.)
topo_netem "$NS_A" "$IF_A" delay 10ms 5ms loss 20% duplicate 10% reorder 25%
topo_netem "$NS_B" "$IF_B" delay 10ms 5ms loss 20% duplicate 10% reorder 25% corrupt 5%

# Payload corruption that UDP does not see: on B's ingress, one in 20
# (random) of the UDP datagrams to ports 6000-6127 with 64 or more octets
# after the IP header gets payload octet 8 (UDP 8 + UDPCP 12 + 8) inverted
# and its UDP checksum recomputed.  Offsets count from the IP header (20
# octets for IPv4: the module sends no options; 40 for IPv6).
tc_corrupt() {
	local ns=$1 dev=$2
	in_ns "$ns" tc qdisc add dev "$dev" clsact
	in_ns "$ns" tc filter add dev "$dev" ingress protocol ip prio 1 u32 \
		match ip protocol 17 0xff match ip dport 6000 0xff80 \
		match u16 0 0xffc0 at 2 action gact pass
	in_ns "$ns" tc filter add dev "$dev" ingress protocol ip prio 2 u32 \
		match ip protocol 17 0xff match ip dport 6000 0xff80 \
		action gact pass random netrand pipe 20 \
		action pedit munge offset 48 u8 invert pipe \
		action csum udp
	in_ns "$ns" tc filter add dev "$dev" ingress protocol ipv6 prio 3 u32 \
		match ip6 protocol 17 0xff match ip6 dport 6000 0xff80 \
		match u16 0 0xffc0 at 4 action gact pass
	in_ns "$ns" tc filter add dev "$dev" ingress protocol ipv6 prio 4 u32 \
		match ip6 protocol 17 0xff match ip6 dport 6000 0xff80 \
		action gact pass random netrand pipe 20 \
		action pedit munge offset 68 u8 invert pipe \
		action csum udp
}
tc_corrupt "$NS_B" "$IF_B" || fail "tc: cannot set up the payload corrupter"

# A receiver that runs until its sender is done and the socket has been
# quiet for 2 s; it checks content, order and exactly-once itself and
# prints {"seqs": first..last summary, "missing": [...], "info": {...}}.
receiver() { # FAMILY PORT DONEFILE
	py_run -n "$NS_B" 22-netem-recv.py "$@"
}

streams=()
i=0
for fam in $FAMILIES; do
	for mode in ack single-ack; do
		i=$((i + 1))
		name=$fam-$mode
		port=$((6000 + i))
		streams+=("$name:$port")
		bg_start "rx-$name" receiver "$fam" "$port" "$TMP/done-$name"
	done
done
for st in "${streams[@]}"; do
	wait_port "$NS_B" "${st#*:}"
done
t0=$SECONDS
for st in "${streams[@]}"; do
	name=${st%:*} port=${st#*:}
	fam=${name%%-*} mode=${name#*-}
	bg_start "tx-$name" sh -c "ip netns exec '$NS_A' '$TOOL' send -d '$(fam_dst "$fam")' $port \
		-n $N --sizes $SIZES --mode $mode --max-try 10 --tx-timeout 60 --outstanding 4 \
		--recverr --flush 170000; touch '$TMP/done-$name'"
done

tx_retries=0 crc=0
for st in "${streams[@]}"; do
	name=${st%:*}
	rc=0
	bg_wait "tx-$name" || rc=$?
	bg_wait "rx-$name" || fail "$name receiver: $(cat "$TMP/rx-$name.err")"
	tx=$(bg_json "tx-$name")
	rx=$(bg_json "rx-$name")
	echo "$name: sender $tx"
	echo "$name: receiver $rx"
	[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "$name sender exit $rc: $tx $(cat "$TMP/tx-$name.err")"
	json_check "$name sender" "$tx" ".sent == $N and .flush == \"ok\" and .errq_other == 0 and .info.tx_pending == 0 and .info.tx_msgs + .info.tx_timeout == $N and .failed == .info.tx_timeout and .failed * 100 <= $N"
	json_check "$name receiver" "$rx" '.bad == 0 and .dups == 0 and .in_order and .info.rx_malformed == 0'
	# Every message not delivered was reported failed (ID = seq + 1: a
	# fresh socket and destination start at 1).
	failed=$(jq -c '[.failed_ids[] - 1] | sort' <<<"$tx")
	json_check "$name missing messages were reported failed (failed seqs $failed)" "$rx" \
		"(.missing - $failed) == [] and .received + (.missing | length) == .last + 1 and .last >= $N - 1 - ($failed | length)"
	tx_retries=$((tx_retries + $(jget "$tx" .info.tx_retries)))
	crc=$((crc + $(jget "$rx" .info.crc_errors)))
	json_check "$name sender retried" "$tx" '.info.tx_retries > 0'
	json_check "$name receiver saw checksum errors" "$rx" '.info.crc_errors > 0'
done
echo "netem: $((SECONDS - t0)) s for ${#streams[@]} x $N messages; tx_retries $tx_retries, crc_errors $crc"
echo "UDP InCsumErrors (netem corruption) at B: $(in_ns "$NS_B" awk '/^Udp:/ { n++; if (n == 1) { for (i = 1; i <= NF; i++) if ($i == "InCsumErrors") c = i } else print $c }' /proc/net/snmp)"
echo "netem ok"
