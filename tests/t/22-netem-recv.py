#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""22-netem-recv.py FAM PORT DONEFILE: tests/t/22-netem.sh's receiver at B: runs
until DONEFILE exists (its sender is done) and the socket has been quiet
for 2 s, checking content, order and exactly-once itself.  Prints one
JSON object: what it received (count, bad, duplicates, order, missing)
and UDPCP_INFO.
"""
import json
import os
import select
import socket
import struct
import sys
import time

fam, port, done = sys.argv[1], int(sys.argv[2]), sys.argv[3]

af = socket.AF_INET if fam == "v4" else socket.AF_INET6
s = socket.socket(af, socket.SOCK_DGRAM, 258)
if af == socket.AF_INET6:
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1 if fam == "v6" else 0)
s.setsockopt(socket.SOL_SOCKET, 33, 4 << 20)        # SO_RCVBUFFORCE
s.bind(("0.0.0.0" if af == socket.AF_INET else "::", port))
# pattern.h, fast: octet off >= 4 is (seq*7 + off*13 + (off>>8)*29) & 255
BASE = bytes((off * 13 + (off >> 8) * 29) & 255 for off in range(65536))
def ok(data):
    if len(data) < 4:
        return None
    seq = struct.unpack_from("!I", data)[0]
    rot = bytes((b + seq * 7) & 255 for b in range(256))
    return seq if data[4:] == BASE[4:len(data)].translate(rot) else None
seqs, bad, quiet_since = [], 0, None
while True:
    r, _, _ = select.select([s], [], [], 0.5)
    now = time.monotonic()
    if r:
        data = s.recv(65536)
        seq = ok(data)
        if seq is None:
            bad += 1
        else:
            seqs.append(seq)
        quiet_since = now
        continue
    if os.path.exists(done):
        quiet_since = quiet_since or now
        if now - quiet_since >= 2:
            break
# struct udpcp_info: 6 u32 then 12 u64
raw = s.getsockopt(258, 6, 120)
names = ("size tx_nodes rx_nodes tx_pending rx_queued rtt_us tx_msgs rx_msgs "
         "tx_bytes rx_bytes tx_timeout rx_timeout tx_retries rx_discarded_frags "
         "crc_errors rx_duplicates rx_malformed rx_dropped").split()
info = dict(zip(names, struct.unpack("6I12Q", raw)))
dup_seqs = sorted({x for x in seqs if seqs.count(x) > 1}) if len(seqs) != len(set(seqs)) else []
dups = len(seqs) - len(set(seqs))
disorder = [(a, b) for a, b in zip(seqs, seqs[1:]) if a >= b]
in_order = not disorder
top = max(seqs) + 1 if seqs else 0
print(json.dumps(dict(received=len(seqs), bad=bad, dups=dups, in_order=in_order,
                      dup_seqs=dup_seqs[:20], disorder=disorder[:20], head=seqs[:5],
                      missing=sorted(set(range(top)) - set(seqs)), last=top - 1,
                      info=info)))
