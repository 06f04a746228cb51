#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""00-harness-mcast-recv.py GROUP DEV READY: joins GROUP on DEV with a plain UDP
socket at port 5000, touches READY and prints the first datagram (10 s at
most).
"""
import socket
import struct
import sys

group, dev, ready = sys.argv[1], sys.argv[2], sys.argv[3]

idx = socket.if_nametoindex(dev)
if ":" in group:
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.bind(("", 5000))
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_JOIN_GROUP,
                 socket.inet_pton(socket.AF_INET6, group) + struct.pack("@I", idx))
else:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("", 5000))
    s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                 struct.pack("@4s4si", socket.inet_aton(group), b"\0" * 4, idx))
s.settimeout(10)
open(ready, "w").close()
print(s.recv(100).decode(), flush=True)
