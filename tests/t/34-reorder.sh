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
	out=$(python3 - "$fam" "$cast" "$dst" "$port" "$sport" "$NS_A" "$NS_B" "$IF_A" "$IF_B" "$A4" "$N" 2>&1 <<'PY'
import json, os, socket, struct, sys, threading, time
fam, cast, dst, port, sport, ns_a, ns_b, if_a, if_b, a4, n = sys.argv[1:]
port, sport, n = int(port), int(sport), int(n)
sys.path.insert(0, os.environ["REPO"] + "/tests/peer")
from ksock import (udpcp_socket, setns, family, wildcard, info, flush, SOL_UDPCP,
                   TRANSFER_MODE, RX_TIMEOUT, NOACK, SO_RCVBUFFORCE)
from udpcp import pattern, pattern_seq
af = family(fam)

setns(ns_b)
r = udpcp_socket(fam)
r.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
r.setsockopt(SOL_UDPCP, RX_TIMEOUT, 5000)
r.bind((wildcard(af), port))
if cast == "multicast":
    idx = socket.if_nametoindex(if_b)
    if af == socket.AF_INET:
        r.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                     struct.pack("4s4si", socket.inet_aton(dst), b"\0" * 4, idx))
    else:
        r.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_JOIN_GROUP,
                     socket.inet_pton(af, dst) + struct.pack("@I", idx))
got, bad = [], 0
def receive():
    global bad
    r.settimeout(30)
    linger = None
    while True:
        try:
            data = r.recv(65536)
        except socket.timeout:
            return
        seq = pattern_seq(data)
        if seq is None or data != pattern(seq, len(data)):
            bad += 1
        got.append(seq)
        if len(got) >= n and linger is None:
            linger = True
            r.settimeout(2)       # anything more is a duplicate
t = threading.Thread(target=receive)
t.start()

setns(ns_a)
s = udpcp_socket(fam)
s.bind((wildcard(af), sport))
s.setsockopt(SOL_UDPCP, TRANSFER_MODE, NOACK)
if cast == "multicast":
    if af == socket.AF_INET:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(a4))
    else:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_IF, socket.if_nametoindex(if_a))
# The first message alone: the receiver learns where the sequence is.
s.sendto(pattern(0, 3000), (dst, port))
flush(s, 10000)
time.sleep(0.3)
# Bursts of three messages, 60 ms apart: within a burst the fragments
# cross in netem; no more than three messages are ever in flight (fewer
# than the receiver's four partial messages), whatever the guest's speed.
for k in range(1, n):
    s.sendto(pattern(k, 3000), (dst, port))
    if k % 3 == 0:
        time.sleep(0.06)
flush(s, 10000)
t.join()
st = info(r)
print(json.dumps(dict(received=len(got), bad=bad, in_order=got == list(range(n)),
                      dups=len(got) - len(set(got)), tx_msgs=info(s)["tx_msgs"],
                      rx={k: st[k] for k in ("rx_msgs", "rx_discarded_frags", "rx_timeout",
                                             "rx_duplicates", "rx_dropped", "rx_malformed")})))
PY
) || fail "$fam $cast: $out"
	cap_stop
	note "$fam $cast: sent $N, $out"
	note "$fam $cast: netem $(in_ns "$NS_A" tc -s qdisc show dev "$IF_A" | grep -o 'requeues [0-9]*') (sent at once: the total so far)"
	json_check "$fam $cast" "$out" ".tx_msgs == $N and .received == $N and .bad == 0 and .in_order and .dups == 0 and .rx.rx_msgs == $N and .rx.rx_discarded_frags == 0 and .rx.rx_timeout == 0 and .rx.rx_duplicates == 0"

	cap_udpcp "$TMP/$fam-$cast.pcap" "$port" >"$TMP/$fam-$cast.json"
	out=$(python3 - "$TMP/$fam-$cast.json" "$sport" "$N" <<'PY'
import json, sys
sport, n = int(sys.argv[2]), int(sys.argv[3])
pkts = [json.loads(l) for l in open(sys.argv[1])]
data = [p for p in pkts if p.get("type") == 1 and p["sport"] == sport and p["id"] > 0]
# Packets that came after a fragment of a later message.
crossed, top = 0, 0
for p in data:
    if p["id"] < top:
        crossed += 1
    top = max(top, p["id"])
# The rule of one partial message per source, replayed on this order.
last, cur, have, old = None, None, set(), 0
for p in data:
    if last is not None and (last - p["id"]) % 0xFFFE < 32767:
        continue
    if p["id"] != cur:
        cur, have = p["id"], set()
    have.add(p["num"])
    if len(have) == p["amount"]:
        old, last, cur, have = old + 1, p["id"], None, set()
ids = {p["id"] for p in data}
print(json.dumps(dict(packets=len(data), messages=len(ids), crossed=crossed,
                      one_partial_rule_delivers=old)))
if len(ids) != n or crossed < 1 or old >= n:
    sys.exit(1)
PY
) || fail "$fam $cast capture: no reordering to speak of: $out"
	note "$fam $cast capture: $out"
}

run v4 unicast 6001
run v4 multicast 6002
run v6 unicast 6003
run v6 multicast 6004
echo "reorder ok"
