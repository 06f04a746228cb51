#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""27-multicast-recv.py NS MODE EXPECT IF: tests/t/27-multicast.sh's receivers
on one host (in namespace NS, interface IF): a UDPCP socket per scenario's
port, joined to the groups when MODE is member (h2, with a second socket on
two ports), only bound when it is bystander (h4).  EXPECT is port:count,...
Touches /tmp/ready-NS once listening, then prints one JSON object:
port -> {received, bad, in_order}.
"""
import json
import os
import select
import socket
import struct
import sys
import time

from udpcp import pattern

ns, mode, expect, ifname = sys.argv[1:]
expect = {k: int(v) for k, v in (x.split(":") for x in expect.split(","))}

idx = socket.if_nametoindex(ifname)
socks = {}
def udpcp(name, af, port, v6only=None):
    s = socket.socket(af, socket.SOCK_DGRAM, 258)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if v6only is not None:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, v6only)
    s.bind(("0.0.0.0" if af == socket.AF_INET else "::", port))
    socks[name] = s
    return s
def mreqn(group):
    return struct.pack("4s4si", socket.inet_aton(group), b"\0" * 4, idx)
def join6(s):
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_JOIN_GROUP,
                 socket.inet_pton(socket.AF_INET6, "ff0e::1:2:3") + struct.pack("@I", idx))
s4 = udpcp("6001", socket.AF_INET, 6001)
s6 = udpcp("6002", socket.AF_INET6, 6002, 1)
sm = udpcp("6003", socket.AF_INET6, 6003, 0)
sb = udpcp("6004", socket.AF_INET, 6004)
if mode == "member":
    s4.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreqn("239.1.2.3"))
    join6(s6)
    sm.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreqn("239.1.2.4"))
    # A second member socket on the same port (SO_REUSEADDR): each gets
    # its own copy of every packet, and delivers every message once.
    udpcp("6001b", socket.AF_INET, 6001).setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreqn("239.1.2.3"))
    join6(udpcp("6002b", socket.AF_INET6, 6002, 1))
open("/tmp/ready-" + ns, "w").close()
got = {n: [] for n in socks}
bad = {n: 0 for n in socks}
names = {s.fileno(): n for n, s in socks.items()}
end = time.monotonic() + int(os.environ["RECV_SECS"])
done_at = None
while time.monotonic() < end:
    if done_at is None and all(len(got[n]) >= expect[n] for n in socks):
        done_at = time.monotonic()
    if done_at is not None and time.monotonic() > done_at + 2:
        break     # linger: anything more would be a duplicate or a leak
    r, _, _ = select.select(list(socks.values()), [], [], 0.2)
    for s in r:
        n = names[s.fileno()]
        data = s.recv(65536)
        seq = struct.unpack_from("!I", data)[0] if len(data) >= 4 else len(got[n])
        if data != pattern(seq, len(data)):
            bad[n] += 1
        got[n].append(seq)
print(json.dumps({n: dict(received=len(got[n]), bad=bad[n],
                          in_order=got[n] == list(range(len(got[n]))))
                  for n in socks}))
