#!/bin/bash
# Wireshark, the one independent implementation we can run, agrees with the
# module's wire format.  Per family (IPv4, IPv6, dual-stack mapped), one
# socket sends messages in every mode (cmsg per message: no-ack, ack,
# single-ack; checksum on and off by turns) of sizes 0, 1, P, P+1, 5000 and
# 65487 (P: a fragment's payload); the capture at the receiver, decoded
# with `tshark -d udp.port==PORT,udpcp` (XML decoding off), has:
#  - no UDPCP expert warnings or errors (tshark -z expert,warn);
#  - every data packet's N/S/C as the message's mode and checksum;
#  - every fragmented message reassembled once, its reassembled length equal
#    to its data length and to what was sent; acks for what wants them.
# Wireshark's dissector reassembles by message ID alone: one sender and one
# capture per family, so IDs do not repeat.
# timeout: 180
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"
command -v tshark >/dev/null || skip "no tshark"

udpcp_load
topo_pair

i=0
for fam in $FAMILIES; do
	i=$((i + 1))
	port=$((6000 + i)) sport=$((7000 + i))
	P=$(frag_payload "$fam")
	cap_start "$NS_B" "$IF_B" "$TMP/$fam.pcap"
	# shellcheck disable=SC2046
	bg_start "rx-$fam" in_ns "$NS_B" "$TOOL" recv -b "$(fam_bind "$fam")" "$port" \
		$(fam_recv_opts "$fam") -n 18 -t 60000 --rcvbuf 8388608
	wait_port "$NS_B" "$port"
	# Prints the plan: one line "id mode csum size" per message.
	py_run -n "$NS_A" 29-wireshark-send.py "$fam" "$(fam_dst "$fam")" "$port" "$sport" "$P" >"$TMP/$fam.plan" || fail "$fam sender"
	# A canary Wireshark must flag (C=0 with a checksum): proves the expert
	# check below can see something.
	in_ns "$NS_A" python3 "$CRAFT" --to "$(fam_dst "$fam" | sed 's/^::ffff://')" $((port + 50)) --wait 0 checksum-off >/dev/null ||
		fail "$fam: craft.py"
	bg_wait "rx-$fam" || fail "$fam receiver: $(cat "$TMP/rx-$fam.out" "$TMP/rx-$fam.err")"
	json_check "$fam receiver" "$(bg_json "rx-$fam")" '.received == 18 and .bad == 0 and .dups == 0 and .out_of_order == 0'
	cap_stop

	# One tshark run: the fields of every UDPCP packet, then the expert items.
	tshark -r "$TMP/$fam.pcap" -d "udp.port==$port,udpcp" -d "udp.port==$((port + 50)),udpcp" -o udpcp.attempt_xml_decode:FALSE \
		-Y udpcp -T fields -E separator=, -E occurrence=f \
		-e frame.number -e udpcp.msg-type -e udpcp.n -e udpcp.c -e udpcp.s -e udpcp.d \
		-e udpcp.message-id -e udpcp.fragment-amount -e udpcp.fragment-number \
		-e udpcp.message-data-length -e udpcp.reassembled.length -e udp.srcport \
		-z expert,warn >"$TMP/$fam.tshark" 2>"$TMP/$fam.tshark.err" ||
		fail "$fam: tshark failed: $(cat "$TMP/$fam.tshark.err")"
	echo "$fam: $(grep -c '^[0-9]' "$TMP/$fam.tshark") UDPCP packets decoded"
	sed -n '/^[^0-9]/p' "$TMP/$fam.tshark"
	experts=$(sed -n '/^[^0-9]/p' "$TMP/$fam.tshark" | grep UDPCP || true)
	grep -q 'Checksum should be zero' <<<"$experts" || fail "$fam: tshark missed the canary's expert warning: $experts"
	experts=$(grep -v 'Checksum should be zero' <<<"$experts" || true)
	[ -z "$experts" ] || fail "$fam: UDPCP expert warnings or errors: $(head -3 <<<"$experts")"
	out=$(py_run 29-wireshark-check.py "$TMP/$fam.tshark" "$TMP/$fam.plan" "$P" "$sport") || fail "$fam: $out"
	echo "$fam: $out"
done
echo "wireshark ok"
