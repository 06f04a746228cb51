#!/bin/bash
# Shared fragments: two UDPCP sockets on one multicast group and port
# (SO_REUSEADDR) each get the same datagrams, as clones of one skb.  3000
# three-fragment no-ack messages (200 on the debug kernel) go to the group
# with their fragments in reverse order, so that fragment 0, which heads the
# reassembled message, arrives last.  Both sockets must deliver every
# message intact, and once they are closed the kernel's slab must be back
# near where it started: a head fragment whose shared info (frag_list) both
# sockets wrote would leak the other socket's fragments, about 5 kB per
# message.  Any kernel report fails it too (harness).
# timeout: 300
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../fuzz/lib.sh"

n=$(fz_count 3000 200)
udpcp_load
topo_pair
group=239.1.2.3

slab() { awk '/^Slab:/ { print $2 }' /proc/meminfo; }
echo 3 >/proc/sys/vm/drop_caches
slab0=$(slab)
ip netns exec "$NS_B" python3 - "$group" 7000 "$n" >"$FZ_TMP/recv" 2>&1 <<'PY' &
import select, socket, struct, sys, time
group, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
socks = []
for _ in range(2):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 258)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.setsockopt(socket.SOL_SOCKET, 33, 8 << 20)     # SO_RCVBUFFORCE
    s.bind(("0.0.0.0", port))
    s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                 socket.inet_aton(group) + socket.inet_aton("0.0.0.0"))
    socks.append(s)
open("/dev/shm/fz76.ready", "w").close()
got = [0, 0]
bad = 0
end = time.monotonic() + 600
idle = None
while min(got) < n and time.monotonic() < end:
    r, _, _ = select.select(socks, [], [], 0.5)
    if not r:
        # quiet for 10 s once messages flow (the sender may start late)
        if idle and max(got) and time.monotonic() - idle > 10:
            break
        idle = idle or time.monotonic()
        continue
    idle = None
    for s in r:
        data = s.recv(65536)
        seq = struct.unpack_from("!I", data)[0]
        if data != struct.pack("!I", seq) + bytes((seq + i) & 0xFF for i in range(4, 3000)):
            bad += 1
        got[socks.index(s)] += 1
print("received %d %d bad %d" % (got[0], got[1], bad))
sys.exit(0 if got == [n, n] and not bad else 1)
PY
r=$!
on_exit "kill $r 2>/dev/null; rm -f /dev/shm/fz76.ready"
wait_until 30 '[ -e /dev/shm/fz76.ready ]' || fail "receivers did not start"

ip netns exec "$NS_A" python3 - "$group" 7000 "$n" <<'PY' || fail "sender failed"
import socket, struct, sys, time, zlib
group, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
for seq in range(n):
    body = struct.pack("!I", seq) + bytes((seq + i) & 0xFF for i in range(4, 3000))
    mid = seq % 0xFFFE + 1
    for num in (2, 1, 0):
        part = body[num * 1000:(num + 1) * 1000]
        # data, version 2, N=1 C=1 S=1: no-ack, as a group always is
        h = struct.pack("!IBBBBHH", 0, 1 << 6 | 2 << 3 | 7, 0, 3, num, mid, 3000)
        pkt = h + part
        pkt = struct.pack("!I", zlib.adler32(pkt) & 0xFFFFFFFF) + pkt[4:]
        s.sendto(pkt, (group, port))
    if seq % 50 == 49:
        time.sleep(0.02)
PY
wait "$r" || fail "receivers: $(cat "$FZ_TMP/recv")"
echo "receivers: $(cat "$FZ_TMP/recv")"
fz_wait_released 60 || fail "sockets still hold the module"
sleep 2
echo 3 >/proc/sys/vm/drop_caches
slab1=$(slab)
echo "mcast-clone: $n reversed 3-fragment messages to 2 sockets; slab $slab0 kB -> $slab1 kB"
((slab1 - slab0 < 6000)) || fail "slab grew by $((slab1 - slab0)) kB after the sockets closed: fragments leaked"
