#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""76-mcast-clone-recv.py GROUP PORT N: tests/t/76-mcast-clone.sh's receivers
at B: two UDPCP sockets on GROUP PORT (SO_REUSEADDR); touches
/dev/shm/fz76.ready, then receives until both have N messages (or 10 s of
quiet once messages flow), checking each one's content.  Prints the counts;
exits 0 only if both got N, all intact.
"""
import select
import socket
import struct
import sys
import time

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
