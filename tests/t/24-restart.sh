#!/bin/bash
# Restarts, over IPv4, IPv6 and dual-stack mapped:
#  - the sender closes its socket and opens a new one on the same port: its
#    next messages arrive (after a sync), and their message IDs continue
#    where the old socket stopped (the namespace keeps the ID history), so
#    a receiver that keeps its duplicate history does not drop them;
#  - the receiver closes and reopens its socket: the sender's next messages
#    arrive (the new receiver accepts whatever ID comes first);
#  - a socket on another local port starts its own sequence at 1.
# Every message is delivered once, in order; the capture at B shows the IDs.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

i=0
for fam in $FAMILIES; do
	i=$((i + 1))
	port=$((6000 + i)) sport=$((7000 + i))
	cap_start "$NS_B" "$IF_B" "$TMP/$fam.pcap"
	out=$(python3 - "$fam" "$(fam_dst "$fam")" "$(fam_src "$fam")" "$port" "$sport" "$NS_A" "$NS_B" 2>&1 <<'PY'
import os, socket, sys
fam, dst, src, port, sport, ns_a, ns_b = sys.argv[1:]
port, sport = int(port), int(sport)
sys.path.insert(0, os.environ["REPO"] + "/tests/peer")
from ksock import udpcp_socket, family, wildcard
import ksock
af = family(fam)
any_addr = wildcard(af)

def sock(ns, bind_port):
    s = udpcp_socket(fam, ns)
    s.bind((any_addr, bind_port))
    return s

def fail(msg):
    sys.exit("%s: %s" % (fam, msg))

def flush(s):
    ksock.flush(s, 10000)

def exchange(s, r, tag, n=3, from_port=sport):
    for k in range(n):
        s.sendto(b"%s%d" % (tag, k) * 300, (dst, port))
    flush(s)
    r.settimeout(5)
    for k in range(n):
        try:
            data, frm = r.recvfrom(65536)
        except socket.timeout:
            fail("%s%d not delivered" % (tag.decode(), k))
        if data != b"%s%d" % (tag, k) * 300 or frm[:2] != (src, from_port):
            fail("want %s%d from %s:%d, got %r from %s" % (tag.decode(), k, src, from_port, data[:8], frm))
    r.settimeout(0.5)
    try:
        data = r.recv(65536)
        fail("unexpected extra message %r" % data[:8])
    except socket.timeout:
        pass

r = sock(ns_b, port)
s = sock(ns_a, sport)
exchange(s, r, b"a")            # IDs 1-3
s.close()
s = sock(ns_a, sport)           # the sender restarts on the same port
exchange(s, r, b"b")            # IDs 4-6, after a sync
r.close()
r = sock(ns_b, port)            # the receiver restarts
exchange(s, r, b"c")            # IDs 7-9
s2 = sock(ns_a, sport + 100)    # another local port: its own sequence
exchange(s2, r, b"d", 2, sport + 100)
print("%s: ok" % fam)
PY
) || fail "$out"
	echo "$out"
	cap_stop
	cap_udpcp "$TMP/$fam.pcap" "$port" >"$TMP/$fam.json"
	ids=$(jq -r "select(.type == 1 and .sport == $sport and .num == 0) | .id" "$TMP/$fam.json" | uniq | tr '\n' ' ')
	assert_eq "$fam IDs from port $sport" "0 1 2 3 0 4 5 6 7 8 9 " "$ids"
	ids=$(jq -r "select(.type == 1 and .sport == $((sport + 100)) and .num == 0) | .id" "$TMP/$fam.json" | uniq | tr '\n' ' ')
	assert_eq "$fam IDs from port $((sport + 100))" "0 1 2 " "$ids"
	# Nothing was taken for a duplicate.
	assert_eq "$fam acks with D=1" 0 "$(jq -r 'select(.type == 2 and .d == 1) | .id' "$TMP/$fam.json" | wc -l)"
done
echo "restart ok"
