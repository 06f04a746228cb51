#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""33-noack-restart-send.py FAM DST PORT SPORT FIRST N: tests/t/33-noack-restart.sh's
sender at A: N no-ack messages (patterns FIRST.., 100, 1400 and 3000 octets
by turns) from SPORT to DST PORT, flushed.  Prints UDPCP_INFO as JSON.
"""
import json
import sys

from ksock import udpcp_socket, wildcard, family, info, flush, SOL_UDPCP, TRANSFER_MODE, NOACK
from udpcp import pattern

fam, dst, port, sport, first, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])

s = udpcp_socket(fam)
s.bind((wildcard(family(fam)), sport))
s.setsockopt(SOL_UDPCP, TRANSFER_MODE, NOACK)
SIZES = (100, 1400, 3000)
for k in range(n):
    s.sendto(pattern(first + k, SIZES[k % len(SIZES)]), (dst, port))
flush(s, 60000)
print(json.dumps(info(s)))
