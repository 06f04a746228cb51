#!/bin/bash
# A no-ack sender that restarts without its message-ID history is synced
# first, so a receiver that still remembers it delivers everything.  Per
# family (IPv4, IPv6):
#  - A sends 50 no-ack messages from a fixed port to B, which delivers
#    them and keeps A's last message ID (udpcpctl shows last-rx-msg-id 50);
#  - A's namespace is deleted and made again with the same addresses (the
#    veth pair with it): a new namespace, no ID history, IDs start at 1;
#  - A sends 200 no-ack messages (100, 1400 and 3000 octets by turns) from
#    the same port: B delivers all 200, once each, in order, intact, and
#    counts no duplicate (without a sync it takes IDs 1..50 for duplicates
#    of the old messages and drops them);
#  - the capture at B shows A's sync (ID 0, N=0) first, B's ack of it,
#    then data from ID 1: no data before the sync is acknowledged;
#  - a no-ack message to a unicast port nobody answers fails in place of
#    its sync: ECONNREFUSED (B's port unreachables name the sync), its ID,
#    on the error queue.
# timeout: 240
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

N1=50 N2=200
SCALE=${UDPCP_TIMEOUT_SCALE:-1}

# A's namespace again, from nothing: what a rebooted unit looks like.
recreate_a() {
	ip netns del "$NS_A"
	ip netns add "$NS_A"
	ip -n "$NS_A" link set lo up
	in_ns "$NS_A" sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
	# The veth pair went with the old namespace.
	wait_until 10 '! ip -n "$NS_B" link show "$IF_B" >/dev/null 2>&1' || fail "old $IF_B stayed"
	ip link add "$IF_A" netns "$NS_A" index 10 type veth peer name "$IF_B" netns "$NS_B" index 11
	_if_up "$NS_A" "$IF_A" "$A4/24" "$A6/64"
	_if_up "$NS_B" "$IF_B" "$B4/24" "$B6/64"
	_wait_oper "$NS_A" "$IF_A"
	_wait_oper "$NS_B" "$IF_B"
}

cat >"$TMP/recv.py" <<'PY'
import json, os, socket, sys, time
sys.path.insert(0, os.environ["REPO"] + "/tests/peer")
from ksock import udpcp_socket, wildcard, family, info, SO_RCVBUFFORCE
from udpcp import pattern, pattern_seq
fam, port, total, secs, ready = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
r = udpcp_socket(fam)
r.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
r.bind((wildcard(family(fam)), port))
open(ready, "w").close()
got, bad = [], 0
end = time.monotonic() + secs
linger = None
while time.monotonic() < (linger or end):
    r.settimeout(max(0.05, (linger or end) - time.monotonic()))
    try:
        data, frm = r.recvfrom(65536)
    except socket.timeout:
        break
    seq = pattern_seq(data)
    if seq is None or data != pattern(seq, len(data)):
        bad += 1
    got.append(seq)
    if len(got) >= total and linger is None:
        linger = time.monotonic() + 2     # anything more is a duplicate
print(json.dumps(dict(seqs=got, bad=bad, info=info(r))))
PY

cat >"$TMP/send.py" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["REPO"] + "/tests/peer")
from ksock import udpcp_socket, wildcard, family, info, flush, SOL_UDPCP, TRANSFER_MODE, NOACK
from udpcp import pattern
fam, dst, port, sport, first, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
s = udpcp_socket(fam)
s.bind((wildcard(family(fam)), sport))
s.setsockopt(SOL_UDPCP, TRANSFER_MODE, NOACK)
SIZES = (100, 1400, 3000)
for k in range(n):
    s.sendto(pattern(first + k, SIZES[k % len(SIZES)]), (dst, port))
flush(s, 60000)
print(json.dumps(info(s)))
PY

for fam in v4 v6; do
	port=6001 sport=7001 dead=6101
	[ "$fam" = v6 ] && port=6002 sport=7002 dead=6102
	dst=$(fam_dst "$fam")
	rm -f "$TMP/ready-$fam"
	# Phase 1: messages 1000.. ; phase 2: messages 0..199.
	bg_start "rx-$fam" in_ns "$NS_B" python3 "$TMP/recv.py" "$fam" "$port" $((N1 + N2)) $((120 * SCALE)) "$TMP/ready-$fam"
	wait_until 30 "test -e $TMP/ready-$fam" || fail "$fam receiver did not start: $(cat "$TMP/rx-$fam.err")"

	out=$(in_ns "$NS_A" python3 "$TMP/send.py" "$fam" "$dst" "$port" "$sport" 1000 "$N1" 2>&1) ||
		fail "$fam first sender: $out"
	json_check "$fam first sender" "$out" ".tx_msgs == $N1 and .tx_timeout == 0 and .tx_pending == 0"
	# B remembers A's last message ID.
	wait_until 20 "in_ns '$NS_B' '$REPO/udpcpctl/udpcpctl' peer show '$(fam_src "$fam")' port $sport local-port $port | grep -q 'last-rx-msg-id $N1 '" ||
		fail "$fam: B does not hold A's last ID $N1: $(in_ns "$NS_B" "$REPO/udpcpctl/udpcpctl" peer show)"

	recreate_a
	cap_start "$NS_B" "$IF_B" "$TMP/$fam.pcap"
	out=$(in_ns "$NS_A" python3 "$TMP/send.py" "$fam" "$dst" "$port" "$sport" 0 "$N2" 2>&1) ||
		fail "$fam restarted sender: $out"
	json_check "$fam restarted sender" "$out" ".tx_msgs == $N2 and .tx_timeout == 0 and .tx_pending == 0"

	bg_wait "rx-$fam" || fail "$fam receiver: $(cat "$TMP/rx-$fam.err")"
	r=$(bg_json "rx-$fam")
	cap_stop
	first=$(jq -c '[.seqs[] | select(. >= 1000)] == [range(1000; 1000 + '$N1')]' <<<"$r")
	second=$(jq -c '[.seqs[] | select(. < 1000)]' <<<"$r")
	n2=$(jq 'length' <<<"$second")
	note "$fam: phase 1 $N1 sent, $(jq '[.seqs[] | select(. >= 1000)] | length' <<<"$r") delivered; after the restart $N2 sent, $n2 delivered; info $(jq -c '.info | {rx_msgs, rx_duplicates, rx_discarded_frags, rx_dropped}' <<<"$r")"
	assert_eq "$fam first 50 delivered once, in order" true "$first"
	assert_eq "$fam after the restart: delivered" "$N2" "$n2"
	json_check "$fam after the restart: once, in order" "$r" "[.seqs[] | select(. < 1000)] == [range(0; $N2)]"
	json_check "$fam receiver" "$r" ".bad == 0 and .info.rx_duplicates == 0 and .info.rx_msgs == $((N1 + N2))"

	cap_udpcp "$TMP/$fam.pcap" "$port" >"$TMP/$fam.json"
	out=$(python3 - "$TMP/$fam.json" "$sport" "$N2" <<'PY'
import json, sys
pkts = [json.loads(l) for l in open(sys.argv[1])]
sport, n = int(sys.argv[2]), int(sys.argv[3])
pkts.sort(key=lambda p: p["ts"])
errs = [p for p in pkts if "error" in p]
if errs:
    sys.exit("undecodable: %s" % errs[:2])
mine = [p for p in pkts if (p["sport"] == sport and p["type"] == 1) or (p["dport"] == sport and p["type"] == 2)]
first = mine[0] if mine else None
if not first or first["type"] != 1 or first["id"] != 0 or first["n"] != 0:
    sys.exit("first packet from A is not a sync: %s" % first)
ack = next((i for i, p in enumerate(mine) if p["type"] == 2 and p["id"] == 0), None)
data = [i for i, p in enumerate(mine) if p["type"] == 1 and p["id"] > 0]
if ack is None:
    sys.exit("B never acked the sync")
if not data or data[0] < ack:
    sys.exit("data before the sync's ack: %s" % mine[:4])
ids = sorted({mine[i]["id"] for i in data})
if ids != list(range(1, n + 1)):
    sys.exit("data IDs %s..%s (%d), want 1..%d" % (ids[:1], ids[-1:], len(ids), n))
if any(mine[i]["n"] != 1 for i in data):
    sys.exit("a data packet without N=1")
syncs = sum(1 for p in mine if p["type"] == 1 and p["id"] == 0)
print("capture: sync (ID 0, N=0) at %.3f, its ack at %.3f, first data (ID %d) at %.3f; "
      "%d syncs, %d data packets, IDs 1..%d" %
      (first["ts"], mine[ack]["ts"], mine[data[0]]["id"], mine[data[0]]["ts"], syncs, len(data), ids[-1]))
PY
) || fail "$fam capture: $out"
	note "$fam $out"

	# No answer to the sync: the no-ack message fails in its place, with
	# the cause B's port unreachables give (not rate-limited away).
	in_ns "$NS_B" sysctl -qw net.ipv4.icmp_ratelimit=0 net.ipv6.icmp.ratelimit=0
	out=$(in_ns "$NS_A" python3 - "$fam" "$dst" "$dead" 2>&1 <<'PY'
import errno, os, select, socket, struct, sys
sys.path.insert(0, os.environ["REPO"] + "/tests/peer")
from ksock import udpcp_socket, wildcard, family, info, SOL_UDPCP, TRANSFER_MODE, NOACK, TX_TIMEOUT, MAXTRY
fam, dst, dead = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = udpcp_socket(fam)
s.bind((wildcard(family(fam)), 0))
s.setsockopt(SOL_UDPCP, TRANSFER_MODE, NOACK)
s.setsockopt(SOL_UDPCP, TX_TIMEOUT, 200)
s.setsockopt(SOL_UDPCP, MAXTRY, 2)
s.sendto(b"z" * 77, (dst, dead))
p = select.poll()
p.register(s, select.POLLIN)
if not p.poll(20000):
    sys.exit("no POLLERR")
_, anc, _, name = s.recvmsg(0, 512, socket.MSG_ERRQUEUE)
e = struct.unpack_from("IBBBBII", anc[0][2])
if (e[0], e[5], e[6]) != (errno.ECONNREFUSED, 1, 77) or name[1] != dead:
    sys.exit("error queue: errno %d id %d len %d to %s" % (e[0], e[5], e[6], name))
st = info(s)
if st["tx_timeout"] != 1 or st["tx_msgs"] != 0:
    sys.exit("info %s" % st)
print("unanswered sync: message 1 failed with ECONNREFUSED")
PY
) || fail "$fam dead port: $out"
	note "$fam $out"
done
echo "noack-restart ok"
