#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""32-sndbuf.py FAM DST PORT NS_A NS_B DEV: tests/t/32-sndbuf.sh's checks for
one family (v4, v6, mapped): no-ack blasts from A over DEV's token bucket
to DST PORT in B, blocking, with MSG_DONTWAIT, and the 4 MiB control.
Prints the figures, or exits with what is wrong.
"""
import json
import re
import select
import socket
import struct
import subprocess
import sys
import threading

from udpcp import pattern
from ksock import (SOL_UDPCP, TRANSFER_MODE, RX_TIMEOUT, NOACK, SO_SNDBUFFORCE, SO_RCVBUFFORCE,
                   wildcard, family, udpcp_socket, info)

fam, dst, port, ns_a, ns_b, dev = sys.argv[1:]
port = int(port)

SIZE, COUNT = 16000, 120
MSGS = [pattern(k, SIZE) for k in range(COUNT)]     # made up front: the
                                                    # sender must outrun the link

def fail(msg):
    diag = ""
    for ns in (ns_a, ns_b):
        for cmd in ("ip -s link", "nstat -az", "ip neigh", "tc -s qdisc"):
            out = subprocess.run(["ip", "netns", "exec", ns] + cmd.split(),
                                 capture_output=True, text=True).stdout
            if cmd.startswith("nstat"):
                out = "".join(l for l in out.splitlines(True) if not re.search(r"\s0\s", l))
            diag += "## %s: %s\n%s" % (ns, cmd, out)
    sys.exit("%s: %s\n%s" % (fam, msg, diag))

def qdisc_drops():
    out = subprocess.run(["ip", "netns", "exec", ns_a, "tc", "-s", "qdisc", "show", "dev", dev],
                         capture_output=True, text=True, check=True).stdout
    return int(re.search(r"dropped (\d+)", out).group(1))

def receive(r, got):
    r.settimeout(3)     # the queue drains in 35 ms
    while True:
        try:
            data = r.recv(65536)
        except socket.timeout:
            return
        got.append(data)

def run(port, sndbuf, nonblock):
    r = udpcp_socket(fam, ns_b)
    r.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 16 << 20)
    # A guest stalled by a loaded host must not expire a partial message
    # (1 s by default): lost fragments are what this test looks for.
    r.setsockopt(SOL_UDPCP, RX_TIMEOUT, 20000)
    r.bind((wildcard(family(fam)), port))
    s = udpcp_socket(fam, ns_a)
    s.setsockopt(SOL_UDPCP, TRANSFER_MODE, NOACK)
    s.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, sndbuf)
    got = []
    t = threading.Thread(target=receive, args=(r, got))
    t.start()
    drops0 = qdisc_drops()
    sent = eagain = 0
    while sent < COUNT:
        try:
            s.sendto(MSGS[sent], socket.MSG_DONTWAIT if nonblock else 0, (dst, port))
            sent += 1
        except BlockingIOError:
            eagain += 1
            p = select.poll()
            p.register(s, select.POLLOUT)
            if not p.poll(5000):
                fail("EAGAIN, and no POLLOUT within 5 s")
    t.join()
    res = dict(sent=sent, eagain=eagain, drops=qdisc_drops() - drops0,
               received=len(got), tx_msgs=info(s)["tx_msgs"],
               rx={k: v for k, v in info(r).items() if v and k.startswith(("rx", "crc"))})
    res["intact"] = all(d == MSGS[k] for k, d in enumerate(got))
    seqs = {struct.unpack_from("!I", d)[0] for d in got}
    res["missing"] = [k for k in range(sent) if k not in seqs][:10]
    s.close()
    r.close()
    return res

blocking = run(port, 16384, False)
if (blocking["received"] != COUNT or not blocking["intact"] or blocking["drops"]
        or blocking["tx_msgs"] != COUNT):
    fail("blocking, 32 KiB send buffer: %s" % blocking)
nonblocking = run(port + 100, 16384, True)
if (nonblocking["eagain"] < 1 or nonblocking["received"] != COUNT
        or not nonblocking["intact"] or nonblocking["drops"]):
    fail("MSG_DONTWAIT, 32 KiB send buffer: %s" % nonblocking)
control = run(port + 200, 4 << 20, False)
if control["drops"] < 1 or control["received"] >= COUNT:
    fail("control, 4 MiB send buffer: the queue did not overflow: %s" % control)
print(json.dumps(dict(blocking=blocking, nonblocking=nonblocking, control=control)))
