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
	in_ns "$NS_A" python3 - "$fam" "$(fam_dst "$fam")" "$port" "$sport" "$P" >"$TMP/$fam.plan" <<'PY' || fail "$fam sender"
import os, socket, struct, sys
sys.path.insert(0, os.environ["REPO"] + "/tests/peer")
from udpcp import pattern
fam, dst, port, sport, P = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
af = socket.AF_INET if fam == "v4" else socket.AF_INET6
s = socket.socket(af, socket.SOCK_DGRAM, 258)
if af == socket.AF_INET6:
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1 if fam == "v6" else 0)
s.bind(("0.0.0.0" if af == socket.AF_INET else "::", sport))
s.setsockopt(258, 2, 2000)          # tx timeout: no spurious retransmissions
seq = 0
for mode, name in ((0, "noack"), (1, "ack"), (2, "single-ack")):
    for size in (0, 1, P, P + 1, 5000, 65487):
        csum = 4 if seq % 2 else 3
        anc = [(258, 0, struct.pack("i", mode)), (258, 1, struct.pack("i", csum))]
        s.sendmsg([pattern(seq, size)], anc, 0, (dst, port))
        seq += 1
        print(seq, name, 1 if csum == 4 else 0, size)
s.setsockopt(258, 7, struct.pack("i", 60000))
PY
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
	out=$(python3 - "$TMP/$fam.tshark" "$TMP/$fam.plan" "$P" "$sport" <<'PY'
import sys
tshark, plan, P, sport = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
want = {}
for line in open(plan):
    mid, mode, csum, size = line.split()
    want[int(mid)] = (mode, int(csum), int(size))
errs, reasm, seen, acks = [], {}, set(), {}
for line in open(tshark):
    if not line[:1].isdigit():
        continue
    f = line.rstrip("\n").split(",")
    frame, mtype, n, c, s, d, mid, amount, num, length, rlen, src = f
    mtype, n, c, s, d = (int(x, 0) for x in (mtype, n, c, s, d))
    mid, amount, num = int(mid), int(amount), int(num)
    if mtype == 2:
        acks.setdefault(mid, set()).add(num)
        continue
    if src != sport or mid == 0:
        continue
    mode, csum, size = want[mid]
    flags = {"noack": (1, 1), "ack": (0, 0), "single-ack": (0, 1)}[mode]
    if (n, s) != flags or c != csum or d != 0:
        errs.append("frame %s id %d (%s): N=%s S=%s C=%s D=%s" % (frame, mid, mode, n, s, c, d))
    if int(length) != size:
        errs.append("frame %s id %d: data length %s, sent %d" % (frame, mid, length, size))
    if amount != max(1, -(-size // P)):
        errs.append("frame %s id %d: %d fragments for %d octets" % (frame, mid, amount, size))
    seen.add(mid)
    if rlen:
        if mid in reasm:
            errs.append("id %d reassembled twice" % mid)
        reasm[mid] = int(rlen)
for mid, (mode, csum, size) in want.items():
    if mid not in seen:
        errs.append("id %d not in the capture" % mid)
    amount = max(1, -(-size // P))
    if amount > 1 and reasm.get(mid) != size:
        errs.append("id %d: reassembled length %s, sent %d" % (mid, reasm.get(mid), size))
    if amount == 1 and mid in reasm:
        errs.append("id %d: one fragment, yet reassembled" % mid)
    want_acks = {"noack": set(), "ack": set(range(amount)), "single-ack": {amount - 1}}[mode]
    if acks.get(mid, set()) != want_acks:
        errs.append("id %d (%s): acks of fragments %s, want %s" % (mid, mode, sorted(acks.get(mid, ())), sorted(want_acks)))
print("\n".join(errs) or "wireshark: %d messages, %d reassembled, all match" % (len(want), len(reasm)))
sys.exit(1 if errs else 0)
PY
) || fail "$fam: $out"
	echo "$fam: $out"
done
echo "wireshark ok"
