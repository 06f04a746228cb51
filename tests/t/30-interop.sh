#!/bin/bash
# Interoperation with the Python peer (tests/peer/udpcp.py, written from the
# wire doc alone, on plain UDP sockets), both ways, over IPv4, IPv6 and
# dual-stack mapped (the module's end an AF_INET6 socket without V6ONLY,
# the peer on IPv4), in ack and single-ack mode, with fragmentation
# (sizes 0, 1, a fragment's payload, 3000, 20000: Python builds its pattern
# octet by octet, slow under TCG; 65487 is covered by 20-transfer):
#  - module -> Python: every message delivered once, in order, intact (the
#    peer checks the pattern), the module's sender saw no failure; also
#    against a peer that echoes fragment 0 in single-ack acks, as deployed
#    receivers do;
#  - Python -> module: udpcp-tool recv gets them all, once, in order,
#    intact; the peer saw no failure, the module no checksum error and no
#    malformed packet.
# timeout: 170
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

N=5
port=6000
for fam in $FAMILIES; do
	P=$(frag_payload "$fam")
	sizes="0,1,$P,3000,20000"
	peer_addr=$(fam_dst "$fam")
	peer_addr=${peer_addr#::ffff:}

	# module -> Python
	for variant in ack single-ack single-ack-frag0; do
		port=$((port + 1))
		mode=${variant%-frag0}
		extra=()
		[ "$variant" = single-ack-frag0 ] && extra=(--ack-frag0)
		bg_start "py-$fam-$variant" in_ns "$NS_B" python3 "$PEER" recv --bind "$peer_addr" $port \
			--count $N --expect-pattern --timeout 90 --linger 1 "${extra[@]}"
		wait_port "$NS_B" $port
		tx=$(in_ns "$NS_A" "$TOOL" send -d "$(fam_dst "$fam")" $port -n $N --sizes "$sizes" \
			--mode "$mode" --tx-timeout 1000) || fail "$fam $variant module sender: $tx"
		json_check "$fam $variant module sender" "$tx" ".failed == 0 and .info.tx_msgs == $N"
		bg_wait "py-$fam-$variant" || fail "$fam $variant Python receiver: $(cat "$TMP/py-$fam-$variant.out" "$TMP/py-$fam-$variant.err")"
		rx=$(bg_json "py-$fam-$variant")
		json_check "$fam $variant Python receiver" "$rx" ".messages == $N and .bad == 0 and .dups == 0 and .out_of_order == 0 and .crc_errors == 0 and .rx_malformed == 0 and .syncs >= 1"
		echo "$fam module -> python $variant ok"
	done

	# Python -> module
	for mode in ack single-ack; do
		port=$((port + 1))
		# shellcheck disable=SC2046
		bg_start "mod-$fam-$mode" in_ns "$NS_B" "$TOOL" recv -b "$(fam_bind "$fam")" $port \
			$(fam_recv_opts "$fam") -n $N -t 90000 --info --list-sizes
		wait_port "$NS_B" $port
		tx=$(in_ns "$NS_A" python3 "$PEER" send --to "$peer_addr" $port --count $N --sizes "$sizes" \
			--mode "$mode" --tx-timeout 1000) || fail "$fam $mode Python sender: $tx"
		json_check "$fam $mode Python sender" "$tx" ".messages == $N and .failures == 0 and .frag_size == $P"
		bg_wait "mod-$fam-$mode" || fail "$fam $mode module receiver: $(cat "$TMP/mod-$fam-$mode.out" "$TMP/mod-$fam-$mode.err")"
		rx=$(bg_json "mod-$fam-$mode")
		json_check "$fam $mode module receiver" "$rx" ".received == $N and .bad == 0 and .dups == 0 and .out_of_order == 0 and .sizes == [${sizes}] and .info.crc_errors == 0 and .info.rx_malformed == 0"
		echo "$fam python -> module $mode ok"
	done
done
echo "interop ok"
