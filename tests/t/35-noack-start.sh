#!/bin/bash
# The start of a no-ack sequence, overtaken: a receiver that holds nothing
# of a source gets that source's message 2 whole before anything of message
# 1 (their packets took different CPUs' queues on the way).  Message 1 was
# never delivered, so it must not be taken for a duplicate: both arrive,
# then message 3; copies of 1 and 2 sent again afterwards are duplicates
# and are not delivered twice.  The packets are crafted over a plain UDP
# socket, in that order, for IPv4 and IPv6.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
udpcp_load
topo_pair
out=$(mktemp)
on_exit "rm -f $out /dev/shm/t35.ready.*"

for fam in 4 6; do
	if [ $fam = 4 ]; then dst=$B4; else dst=$B6; fi
	port=$((7100 + fam))
	ip netns exec "$NS_B" python3 - "$fam" "$port" >"$out" 2>&1 <<'PY' &
import os, socket, sys
fam, port = sys.argv[1], int(sys.argv[2])
SCALE = int(os.environ.get("UDPCP_TIMEOUT_SCALE", "1"))
af = socket.AF_INET if fam == "4" else socket.AF_INET6
s = socket.socket(af, socket.SOCK_DGRAM, 258)
s.bind(("0.0.0.0" if fam == "4" else "::", port))
open("/dev/shm/t35.ready." + fam, "w").close()
# The sender may take long to start (a debug kernel, a loaded host); once
# messages flow, 5 s of quiet ends the wait.
s.settimeout(SCALE * 60)
got = []
try:
    while True:
        got.append(s.recv(65536))
        s.settimeout(5)
except socket.timeout:
    pass
print(" ".join("%d:%d" % (d[0], len(d)) for d in got))
PY
	rpid=$!
	wait_until 30 "[ -e /dev/shm/t35.ready.$fam ]" || fail "receiver (IPv$fam) did not start"
	ip netns exec "$NS_A" python3 - "$fam" "$dst" "$port" <<'PY' || fail "sender failed"
import socket, struct, sys, zlib
fam, dst, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket(socket.AF_INET if fam == "4" else socket.AF_INET6, socket.SOCK_DGRAM)
def msg(mid):
    body = bytes([mid]) * 3000
    for num in range(3):
        part = body[num * 1000:(num + 1) * 1000]
        # data, version 2, N=1 C=1 S=1: no-ack
        h = struct.pack("!IBBBBHH", 0, 1 << 6 | 2 << 3 | 7, 0, 3, num, mid, 3000)
        pkt = h + part
        s.sendto(struct.pack("!I", zlib.adler32(pkt) & 0xFFFFFFFF) + pkt[4:], (dst, port))
for mid in (2, 1, 3, 1, 2):
    msg(mid)
PY
	wait "$rpid" || true
	rm -f "/dev/shm/t35.ready.$fam"
	assert_eq "IPv$fam: messages delivered (first octet:length)" \
		"2:3000 1:3000 3:3000" "$(cat "$out")"
	echo "ok IPv$fam: 2 then 1 then 3, the copies of 1 and 2 not delivered again"
done
