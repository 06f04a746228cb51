#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""49-nl-stats-traffic.py: tests/t/49-nl-stats.sh's traffic from A: four messages
(4600 octets, one of three fragments) from 192.0.2.1:7000 to
192.0.2.2:5000, flushed; then, the socket still open, its counters and its
peer's as udpcpctl shows them, and whether UDPCP_INFO agrees with netlink.
"""
import json
import os
import socket
import subprocess

from ksock import info

U = os.environ["U"]
def ctl(*a):
    return subprocess.run([U, *a], capture_output=True, text=True, check=True).stdout
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 258)
s.bind(("192.0.2.1", 7000))
for n in (100, 200, 300, 4000):                 # 4000: three fragments
    s.sendto(b"m" * n, ("192.0.2.2", 5000))
s.setsockopt(258, 7, 30000)                     # UDPCP_FLUSH
for l in ctl("-s", "sock", "show", "local-port", "7000").splitlines()[3:]:
    print("sock " + l.strip())
for l in ctl("-s", "peer", "show", "192.0.2.2", "port", "5000", "local-port", "7000").splitlines()[3:]:
    print("peer " + l.strip())
nl = json.loads(ctl("-j", "-s", "sock", "show"))[0]["stats"]
print("sock -j: " + json.dumps(nl, separators=(",", ":")))
ui = info(s)
ui = {k: ui.get(k) for k in nl}             # a counter UDPCP_INFO lacks: None
print("UDPCP_INFO = netlink:", ui == nl or (ui, nl))
