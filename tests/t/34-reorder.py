#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""34-reorder.py FAM CAST DST PORT SPORT NS_A NS_B IF_A IF_B A4 N: tests/t/34-reorder.sh's
traffic for one family (v4, v6) and CAST (unicast, multicast): N no-ack
messages of 3000 octets from A's port SPORT to DST PORT, where B receives
them.  Prints what B received and counted as one JSON line.
"""
import json
import socket
import struct
import sys
import threading
import time

from ksock import (udpcp_socket, setns, family, wildcard, info, flush, SOL_UDPCP,
                   TRANSFER_MODE, RX_TIMEOUT, NOACK, SO_RCVBUFFORCE)
from udpcp import pattern, pattern_seq

fam, cast, dst, port, sport, ns_a, ns_b, if_a, if_b, a4, n = sys.argv[1:]
port, sport, n = int(port), int(sport), int(n)

af = family(fam)

setns(ns_b)
r = udpcp_socket(fam)
r.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
r.setsockopt(SOL_UDPCP, RX_TIMEOUT, 5000)
r.bind((wildcard(af), port))
if cast == "multicast":
    idx = socket.if_nametoindex(if_b)
    if af == socket.AF_INET:
        r.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                     struct.pack("4s4si", socket.inet_aton(dst), b"\0" * 4, idx))
    else:
        r.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_JOIN_GROUP,
                     socket.inet_pton(af, dst) + struct.pack("@I", idx))
got, bad = [], 0
def receive():
    global bad
    r.settimeout(30)
    linger = None
    while True:
        try:
            data = r.recv(65536)
        except socket.timeout:
            return
        seq = pattern_seq(data)
        if seq is None or data != pattern(seq, len(data)):
            bad += 1
        got.append(seq)
        if len(got) >= n and linger is None:
            linger = True
            r.settimeout(2)       # anything more is a duplicate
t = threading.Thread(target=receive)
t.start()

setns(ns_a)
s = udpcp_socket(fam)
s.bind((wildcard(af), sport))
s.setsockopt(SOL_UDPCP, TRANSFER_MODE, NOACK)
if cast == "multicast":
    if af == socket.AF_INET:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(a4))
    else:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_IF, socket.if_nametoindex(if_a))
# The first message alone: the receiver learns where the sequence is.
s.sendto(pattern(0, 3000), (dst, port))
flush(s, 10000)
time.sleep(0.3)
# Bursts of three messages, 60 ms apart: within a burst the fragments
# cross in netem; no more than three messages are ever in flight (fewer
# than the receiver's four partial messages), whatever the guest's speed.
for k in range(1, n):
    s.sendto(pattern(k, 3000), (dst, port))
    if k % 3 == 0:
        time.sleep(0.06)
flush(s, 10000)
t.join()
st = info(r)
print(json.dumps(dict(received=len(got), bad=bad, in_order=got == list(range(n)),
                      dups=len(got) - len(set(got)), tx_msgs=info(s)["tx_msgs"],
                      rx={k: st[k] for k in ("rx_msgs", "rx_discarded_frags", "rx_timeout",
                                             "rx_duplicates", "rx_dropped", "rx_malformed")})))
