#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""27-multicast-send.py COUNT: tests/t/27-multicast.sh's sender on h1: COUNT
messages to each group and to the broadcast address, from an ack-mode
socket (sent in no-ack mode), after checking that broadcast without
SO_BROADCAST is refused.  Prints "sent", or exits with what is wrong.
"""
import errno
import socket
import struct
import sys

from udpcp import pattern

count = int(sys.argv[1])

SIZES = (100, 3000, 1, 5000)
SOL_UDPCP, MODE, FLUSH, INFO = 258, 0, 7, 6
def udpcp(af, v6only=None):
    s = socket.socket(af, socket.SOCK_DGRAM, 258)
    if v6only is not None:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, v6only)
    s.setsockopt(SOL_UDPCP, MODE, 1)          # ack mode: groups override it
    return s
def send_all(s, dest):
    for k in range(count):
        s.sendto(pattern(k, SIZES[k % len(SIZES)]), dest)
    s.setsockopt(SOL_UDPCP, FLUSH, struct.pack("i", 5000))
    v = struct.unpack("6I12Q", s.getsockopt(SOL_UDPCP, INFO, 120))
    if v[6] != count or v[3] != 0 or v[10] != 0:
        sys.exit("%s: tx_msgs %d pending %d failed %d" % (dest, v[6], v[3], v[10]))
b = udpcp(socket.AF_INET)
for dest in (("192.0.2.255", 6004), ("255.255.255.255", 6004)):
    try:
        b.sendto(b"x", dest)
        sys.exit("broadcast to %s without SO_BROADCAST accepted" % dest[0])
    except OSError as e:
        if e.errno != errno.EACCES:
            sys.exit("broadcast to %s without SO_BROADCAST: %s, want EACCES" % (dest[0], e))
send_all(udpcp(socket.AF_INET), ("239.1.2.3", 6001))
send_all(udpcp(socket.AF_INET6, 1), ("ff0e::1:2:3", 6002))
send_all(udpcp(socket.AF_INET6, 0), ("::ffff:239.1.2.4", 6003))
# Last: h4 stops 2 s after the broadcast messages, so it has been listening
# while the multicast ones went out.
b.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
send_all(b, ("192.0.2.255", 6004))
print("sent")
