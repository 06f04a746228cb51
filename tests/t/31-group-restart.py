#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""31-group-restart.py KIND DST PORT SPORT: tests/t/31-group-restart.sh's sender
at A: twice, a socket at SPORT (v4, v6, mapped, or bcast: IPv4 with
SO_BROADCAST) sends three messages of 2000 octets to DST PORT, flushes and
closes.  Prints "sent".
"""
import socket
import struct
import sys

from udpcp import pattern

kind, dst, port, sport = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

af = socket.AF_INET if kind in ("v4", "bcast") else socket.AF_INET6
seq = 0
for run in range(2):
    s = socket.socket(af, socket.SOCK_DGRAM, 258)
    if af == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1 if kind == "v6" else 0)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    s.bind(("0.0.0.0" if af == socket.AF_INET else "::", sport))
    for _ in range(3):
        s.sendto(pattern(seq, 2000), (dst, port))
        seq += 1
    s.setsockopt(258, 7, struct.pack("i", 5000))
    s.close()
print("sent")
