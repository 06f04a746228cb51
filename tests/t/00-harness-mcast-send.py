#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""00-harness-mcast-send.py GROUP: three datagrams to GROUP port 5000, sent
without naming an interface (the routes choose).
"""
import socket
import sys
import time

group = sys.argv[1]

fam = socket.AF_INET6 if ":" in group else socket.AF_INET
s = socket.socket(fam, socket.SOCK_DGRAM)
for _ in range(3):
    s.sendto(b"hello " + group.encode(), (group, 5000))
    time.sleep(0.05)
