#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""47-nl-wire-peer.py: tests/t/47-nl-wire.sh's socket peer changed between
messages: a socket at 192.0.2.1:7000 sends to the closed port 5997 of
192.0.2.2 while udpcpctl sets its peer to max-try 2 tx-timeout 50, then 3
and 300, then noack.  Prints per message what failed, when, and the peer's
tx counters.
"""
import os
import re
import socket
import struct
import subprocess
import time

U, B4 = os.environ["U"], "192.0.2.2"
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 258)
s.bind(("192.0.2.1", 7000))
def ctl(*args):
    r = subprocess.run([U, *args], capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"udpcpctl {' '.join(args)}: {r.stderr}")
    return r.stdout
def send(n, limit, more):
    t0 = time.monotonic()
    s.sendto(b"x" * 100, (B4, 5997))
    s.setsockopt(258, 7, 30000)          # UDPCP_FLUSH
    ms = (time.monotonic() - t0) * 1000
    failed = []
    while True:
        try:
            _, anc, _, _ = s.recvmsg(0, 512, socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
        except BlockingIOError:
            break
        for lvl, typ, data in anc:
            errno_, origin, _, _, _, info, _ = struct.unpack("IBBBBII", data[:16])
            failed.append(info)
    ok = ms >= limit if more else ms < limit
    print(f"msg {n}: failed {failed}, {'>=' if more else '<'} {limit} ms: {ok}")
    tx = [l for l in ctl("-s", "peer", "show", B4, "port", "5997", "local-port", "7000").splitlines()
          if "tx:" in l]
    # B answers the closed port: some ICMP errors (how many, its rate
    # limit decides) are counted; N stands for any number but 0.
    print(re.sub(r"icmp-errors [1-9][0-9]*", "icmp-errors N", tx[0]))
    return ms
# A template for that endpoint too: the socket's own peer beats it.
ctl("peer", "add", B4, "port", "5997", "max-try", "1", "tx-timeout", "2000")
ctl("peer", "add", B4, "port", "5997", "local-port", "7000", "max-try", "2", "tx-timeout", "50")
print(f"msg 1: < 2000 ms: {send(1, 100, True) < 2000}")
ctl("peer", "change", B4, "port", "5997", "local-port", "7000", "max-try", "3", "tx-timeout", "300")
send(2, 900, True)
ctl("peer", "change", B4, "port", "5997", "local-port", "7000", "mode", "noack")
send(3, 900, True)
