#!/bin/bash
# A large message's fragments leave as UDP GSO bursts: 10 messages of
# 65487 octets (45 fragments each on the 1500-octet veth) in no-ack and
# single-ack mode, checksums on, over IPv4, IPv6 and mapped.  With the
# sender's device taking bursts whole (gso_max_segs 65535) it transmits
# fewer packets than there are fragments; with gso_max_segs 1 the stack
# cuts every burst before the device, which then sends one packet per
# fragment.  Either way the receiver gets every message once, intact, with
# no checksum error and no retransmission: each datagram of a burst
# carries its own header and Adler-32 at its gso_size boundary.
# timeout: 200
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

N=10
fams=$FAMILIES
# The debug kernel under TCG is about ten times slower: fewer messages,
# and mapped (IPv4's path from an IPv6 socket) left to Debian's kernel.
[ "${UDPCP_DEBUG_KERNEL:-0}" = 1 ] && N=2 fams="v4 v6"
SIZE=65487
tx_packets() { ip -n "$NS_A" -s -j link show dev "$IF_A" | jq '.[0].stats64.tx.packets'; }

i=0
for fam in $fams; do
	P=$(frag_payload "$fam")
	frags=$(((SIZE + P - 1) / P))
	for mode in noack single-ack; do
		for segs in 65535 1; do
			i=$((i + 1))
			port=$((6000 + i))
			what="$fam $mode gso_max_segs $segs"
			ip -n "$NS_A" link set dev "$IF_A" gso_max_segs "$segs" || fail "$what: cannot set gso_max_segs"
			# shellcheck disable=SC2046
			bg_start "recv-$i" in_ns "$NS_B" "$TOOL" recv -b "$(fam_bind "$fam")" "$port" \
				$(fam_recv_opts "$fam") -n "$N" -t 60000 --rcvbuf 8388608 --info
			wait_port "$NS_B" "$port"
			before=$(tx_packets)
			out=$(in_ns "$NS_A" "$TOOL" send -d "$(fam_dst "$fam")" "$port" -b "$(fam_bind "$fam")" $((7000 + i)) \
				-n "$N" -s "$SIZE" --mode "$mode" --checksum on --tx-timeout 2000) ||
				fail "$what: send exit $?: $out"
			bg_wait "recv-$i" || fail "$what receiver: $(cat "$TMP/recv-$i.out" "$TMP/recv-$i.err")"
			sent=$(($(tx_packets) - before))
			json_check "$what sender" "$out" ".sent == $N and .failed == 0 and .info.tx_retries == 0"
			r=$(bg_json "recv-$i")
			json_check "$what receiver" "$r" ".received == $N and .bad == 0 and .dups == 0 and .out_of_order == 0 and .info.crc_errors == 0 and .info.rx_bytes == $((N * SIZE))"
			# The sync, an ack in single-ack mode, ARP or ND: a few more.
			if [ "$segs" = 1 ]; then
				[ "$sent" -ge $((N * frags)) ] ||
					fail "$what: $sent packets for $((N * frags)) fragments"
			else
				[ "$sent" -lt $((N * frags / 2)) ] ||
					fail "$what: $sent packets for $((N * frags)) fragments: no bursts"
			fi
			note "$what: $N x $frags fragments in $sent packets, delivered intact"
		done
	done
done
