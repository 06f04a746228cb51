#!/bin/bash
# Every transfer mode (noack, ack, single-ack) x checksum on/off x message
# sizes 0, 1, a fragment's payload -1, exactly, +1, 5000 and 65487, over
# IPv4, IPv6 and dual-stack mapped: each message delivered once, content
# identical, sizes as sent; 65488 is refused with EMSGSIZE.  A capture shows
# the flags of each mode (N, S, C, a zero checksum field when C=0), the
# fragment count and sizes (payload = MTU - IP - 8 - 12), a sync first in
# every mode, acks only where the mode wants them (every fragment / the
# last one / none but the sync's).  The SOL_UDPCP
# cmsgs choose mode and checksum per message on one socket (and bad values
# are EINVAL).  With MTU 1280 the fragment payload follows the MTU.
# timeout: 200
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

# Each mode with the checksum on and off; on the debug kernel, about ten
# times slower, each mode once, the checksum alternating, so that both
# settings still cross the wire and the kernel paths are all taken.
PLAN="noack:on noack:off ack:on ack:off single-ack:on single-ack:off"
[ "${UDPCP_DEBUG_KERNEL:-0}" = 1 ] && PLAN="noack:on ack:off single-ack:on"
per_run=7
runs=$(wc -w <<<"$PLAN")
cmsg_msgs=6

# The cmsg sender: one socket, the mode and checksum chosen per message.
cmsg_send() { # FAMILY DST PORT SPORT
	py_run -n "$NS_A" 20-transfer-cmsg.py "$@"
}

# Checks one family's capture.  Specs: "SPORT:MODE:CSUM" per sender.
check_capture() { # CAPJSON FRAG_PAYLOAD SPEC...
	py_run 20-transfer-capture.py "$@"
}

i=0
for fam in $FAMILIES; do
	i=$((i + 1))
	P=$(frag_payload "$fam")
	sizes="0,1,$((P - 1)),$P,$((P + 1)),5000,65487"
	dst=$(fam_dst "$fam")
	port=$((6000 + i))
	total=$((runs * per_run + cmsg_msgs))
	cap_start "$NS_B" "$IF_B" "$TMP/$fam.pcap"
	# shellcheck disable=SC2046
	bg_start "recv-$fam" in_ns "$NS_B" "$TOOL" recv -b "$(fam_bind "$fam")" "$port" \
		$(fam_recv_opts "$fam") -n "$total" -t 150000 --rcvbuf 8388608 --list-sizes --info
	wait_port "$NS_B" "$port"

	specs=()
	k=0
	for run in $PLAN; do
		mode=${run%:*} csum=${run#*:}
		sport=$((7000 + 10 * i + k))
		k=$((k + 1))
		specs+=("$sport:$mode:$csum")
		out=$(in_ns "$NS_A" "$TOOL" send -d "$dst" "$port" -b "$(fam_bind "$fam")" "$sport" \
			-n "$per_run" --sizes "$sizes" --mode "$mode" --checksum "$csum" --tx-timeout 1000) ||
			fail "$fam $mode checksum $csum: send exit $?: $out"
		json_check "$fam $mode $csum sender" "$out" \
			".sent == $per_run and .failed == 0 and .flush == \"ok\" and .info.tx_msgs == $per_run and .info.tx_timeout == 0 and .info.tx_pending == 0 and .info.tx_bytes == $((0 + 1 + P - 1 + P + P + 1 + 5000 + 65487))"
	done
	out=$(cmsg_send "$fam" "$dst" "$port" $((7000 + 10 * i + 9)) 2>&1) || fail "$fam cmsg: $out"

	# One octet too many: EMSGSIZE, nothing queued.
	out=$(in_ns "$NS_A" "$TOOL" send -d "$dst" "$port" -s 65488 --flush 1000) &&
		fail "$fam: a 65488-octet message was accepted: $out"
	json_check "$fam 65488" "$out" '.send_error == "Message too long" and .sent == 0 and .info.tx_msgs == 0 and .info.tx_pending == 0'

	bg_wait "recv-$fam" || fail "$fam receiver: $(cat "$TMP/recv-$fam.out" "$TMP/recv-$fam.err")"
	r=$(bg_json "recv-$fam")
	json_check "$fam receiver" "$r" ".received == $total and .bad == 0 and .dups == 0 and .out_of_order == 0 and .sources == $((runs + 1)) and .info.rx_msgs == $total and .info.crc_errors == 0 and .info.rx_malformed == 0"
	want=$(for _ in $(seq $runs); do tr , '\n' <<<"$sizes"; done; for _ in $(seq $cmsg_msgs); do echo 3000; done)
	assert_eq "$fam delivered sizes" "$(sort -n <<<"$want" | tr '\n' ' ')" \
		"$(jq -r '.sizes[]' <<<"$r" | sort -n | tr '\n' ' ')"
	# The receiver's byte count equals what was sent.
	assert_eq "$fam rx_bytes" "$(($(tr '\n' + <<<"$want")0))" "$(jget "$r" .info.rx_bytes)"

	cap_stop
	cap_udpcp "$TMP/$fam.pcap" "$port" >"$TMP/$fam.json"
	check_capture "$TMP/$fam.json" "$P" "${specs[@]}" || fail "$fam wire: $(check_capture "$TMP/$fam.json" "$P" "${specs[@]}" | head -5)"
	# The cmsg messages: their flags follow the plan, whatever the socket says.
	cm=$(jq -c --argjson p $((7000 + 10 * i + 9)) 'select(.type == 1 and .sport == $p and .id > 0 and .num == 0) | [.id, .n, .s, .c]' "$TMP/$fam.json" | sort -u | tr -d '\n')
	assert_eq "$fam cmsg flags [id,N,S,C]" "[1,1,1,0][2,0,0,1][3,0,1,0][4,0,0,1][5,0,0,0][6,0,1,1]" "$cm"
	echo "$fam ok"
done
# Another MTU: 1280 on both ends.  The fragment payload follows (1240 for
# IPv4, 1220 for IPv6): P and P+1 octets take 1 and 2 fragments.
ip -n "$NS_A" link set "$IF_A" mtu 1280
ip -n "$NS_B" link set "$IF_B" mtu 1280
for fam in v4 v6; do
	P=$(($(frag_payload "$fam") - 220))
	port=6105
	[ "$fam" = v6 ] && port=6106
	cap_start "$NS_B" "$IF_B" "$TMP/mtu-$fam.pcap"
	# shellcheck disable=SC2046
	bg_start "mtu-$fam" in_ns "$NS_B" "$TOOL" recv -b "$(fam_bind "$fam")" $port \
		$(fam_recv_opts "$fam") -n 3 -t 60000 --list-sizes
	wait_port "$NS_B" $port
	out=$(in_ns "$NS_A" "$TOOL" send -d "$(fam_dst "$fam")" $port -n 3 --sizes "$P,$((P + 1)),5000" \
		--mode ack --tx-timeout 1000) || fail "MTU 1280 $fam: $out"
	bg_wait "mtu-$fam" || fail "MTU 1280 $fam receiver: $(cat "$TMP/mtu-$fam.out")"
	json_check "MTU 1280 $fam receiver" "$(bg_json "mtu-$fam")" ".received == 3 and .bad == 0 and .sizes == [$P, $((P + 1)), 5000]"
	cap_stop
	cap_udpcp "$TMP/mtu-$fam.pcap" $port >"$TMP/mtu-$fam.json"
	got=$(jq -r 'select(.type == 1 and .id > 0) | "\(.id):\(.amount):\(.plen)"' "$TMP/mtu-$fam.json" | sort -u -t: -k1,1n -k3,3nr | tr '\n' ' ')
	# id 1: P in 1 fragment; id 2: P+1 in 2 (P and 1); id 3: 5000 in ceil(5000/P)
	n3=$(((5000 + P - 1) / P))
	want="1:1:$P 2:2:$P 2:2:1 "
	for ((k = 1; k < n3; k++)); do want+="3:$n3:$P "; done
	want+="3:$n3:$((5000 - (n3 - 1) * P)) "
	# shellcheck disable=SC2086
	assert_eq "MTU 1280 $fam fragments (id:amount:payload)" "$(printf '%s\n' $want | sort -u -t: -k1,1n -k3,3nr | tr '\n' ' ')" "$got"
	echo "MTU 1280 $fam ok (payload $P)"
done
echo "transfer ok"
