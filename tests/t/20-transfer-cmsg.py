#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""20-transfer-cmsg.py FAM DST PORT SPORT: tests/t/20-transfer.sh's cmsg sender:
from one socket at SPORT, six messages of 3000 octets to DST PORT, each
with the mode and checksum its SOL_UDPCP cmsgs choose; invalid cmsgs are
refused with EINVAL.  Prints "cmsg ok", or exits with what is wrong.
"""
import socket
import struct
import sys

from udpcp import pattern

fam, dst, port, sport = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

SOL_UDPCP, MODE, CSUM = 258, 0, 1
af = socket.AF_INET if fam == "v4" else socket.AF_INET6
s = socket.socket(af, socket.SOCK_DGRAM, 258)
s.bind(("0.0.0.0" if af == socket.AF_INET else "::", sport))
def opt(t, v):
    return (SOL_UDPCP, t, struct.pack("i", v))
# (mode cmsg, checksum cmsg): None = the socket's default (ack, checksum on)
plan = [(0, 3), (1, None), (2, 3), (None, None), (None, 3), (2, 4)]
for seq, (m, c) in enumerate(plan):
    anc = ([opt(MODE, m)] if m is not None else []) + \
          ([opt(CSUM, c)] if c is not None else [])
    s.sendmsg([pattern(seq, 3000)], anc, 0, (dst, port))
# Invalid values and types: EINVAL, nothing sent.
for anc in ([opt(MODE, 3)], [opt(MODE, -1)], [opt(CSUM, 2)], [opt(CSUM, 5)],
            [opt(9, 1)], [(SOL_UDPCP, MODE, struct.pack("h", 1))]):
    try:
        s.sendmsg([b"x"], anc, 0, (dst, port))
        sys.exit("cmsg %r accepted" % (anc,))
    except OSError as e:
        if e.errno != 22:
            sys.exit("cmsg %r: %s" % (anc, e))
s.setsockopt(SOL_UDPCP, 7, struct.pack("i", 20000))  # UDPCP_FLUSH
print("cmsg ok")
