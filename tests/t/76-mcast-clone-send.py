#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""76-mcast-clone-send.py GROUP PORT N: tests/t/76-mcast-clone.sh's crafted
sender at A, over a plain UDP socket: N no-ack messages of 3000 octets to
GROUP PORT, each as three fragments in reverse order (fragment 0 last).
"""
import socket
import struct
import sys
import time
import zlib

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
