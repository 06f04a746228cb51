#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""33-noack-restart-recv.py FAM PORT TOTAL SECS READY: tests/t/33-noack-restart.sh's
receiver at B: binds PORT, touches READY, receives until TOTAL messages
came (then 2 s more, for duplicates) or SECS passed.  Prints one JSON
object: the pattern sequence numbers in the order received, bad (content
not its pattern), and UDPCP_INFO.
"""
import json
import socket
import sys
import time

from ksock import udpcp_socket, wildcard, family, info, SO_RCVBUFFORCE
from udpcp import pattern, pattern_seq

fam, port, total, secs, ready = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]

r = udpcp_socket(fam)
r.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
r.bind((wildcard(family(fam)), port))
open(ready, "w").close()
got, bad = [], 0
end = time.monotonic() + secs
linger = None
while time.monotonic() < (linger or end):
    r.settimeout(max(0.05, (linger or end) - time.monotonic()))
    try:
        data, frm = r.recvfrom(65536)
    except socket.timeout:
        break
    seq = pattern_seq(data)
    if seq is None or data != pattern(seq, len(data)):
        bad += 1
    got.append(seq)
    if len(got) >= total and linger is None:
        linger = time.monotonic() + 2     # anything more is a duplicate
print(json.dumps(dict(seqs=got, bad=bad, info=info(r))))
