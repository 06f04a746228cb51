#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""35-noack-start-send.py FAM DST PORT: tests/t/35-noack-start.sh's crafted
sender at A, over a plain UDP socket: no-ack messages of 3000 octets in
three fragments each (every octet the message ID), IDs 2, 1, 3, then 1 and
2 again.
"""
import socket
import struct
import sys
import zlib

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
