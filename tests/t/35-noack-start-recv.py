#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""35-noack-start-recv.py FAM PORT: tests/t/35-noack-start.sh's receiver at B
(FAM 4 or 6): a UDPCP socket at PORT; touches /dev/shm/t35.ready.FAM, then
receives until 5 s pass without a message (60 s before the first).  Prints
"first-octet:length" per message delivered.
"""
import os
import socket
import sys

fam, port = sys.argv[1], int(sys.argv[2])
SCALE = int(os.environ.get("UDPCP_TIMEOUT_SCALE", "1"))

af = socket.AF_INET if fam == "4" else socket.AF_INET6
s = socket.socket(af, socket.SOCK_DGRAM, 258)
s.bind(("0.0.0.0" if fam == "4" else "::", port))
open("/dev/shm/t35.ready." + fam, "w").close()
# The sender may take long to start (a debug kernel, a loaded host); once
# messages flow, 5 s of quiet ends the wait.
s.settimeout(SCALE * 60)
got = []
try:
    while True:
        got.append(s.recv(65536))
        s.settimeout(5)
except socket.timeout:
    pass
print(" ".join("%d:%d" % (d[0], len(d)) for d in got))
