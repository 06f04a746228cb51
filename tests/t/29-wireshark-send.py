#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""29-wireshark-send.py FAM DST PORT SPORT P: tests/t/29-wireshark.sh's sender
at A: one socket at SPORT sends to DST PORT a message of each size (0, 1,
P, P+1, 5000, 65487) in each mode, the mode and the checksum (on and off by
turns) chosen by cmsg.  Prints the plan, one line "id mode csum size" per
message.
"""
import socket
import struct
import sys

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
