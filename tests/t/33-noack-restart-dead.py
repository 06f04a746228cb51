#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""33-noack-restart-dead.py FAM DST DEAD: a no-ack message to DST DEAD, where
nobody answers but port unreachables, fails in place of its sync:
ECONNREFUSED, its ID and length on the error queue, counted as a timeout.
"""
import errno
import select
import socket
import struct
import sys

from ksock import udpcp_socket, wildcard, family, info, SOL_UDPCP, TRANSFER_MODE, NOACK, TX_TIMEOUT, MAXTRY

fam, dst, dead = sys.argv[1], sys.argv[2], int(sys.argv[3])

s = udpcp_socket(fam)
s.bind((wildcard(family(fam)), 0))
s.setsockopt(SOL_UDPCP, TRANSFER_MODE, NOACK)
s.setsockopt(SOL_UDPCP, TX_TIMEOUT, 200)
s.setsockopt(SOL_UDPCP, MAXTRY, 2)
s.sendto(b"z" * 77, (dst, dead))
p = select.poll()
p.register(s, select.POLLIN)
if not p.poll(20000):
    sys.exit("no POLLERR")
_, anc, _, name = s.recvmsg(0, 512, socket.MSG_ERRQUEUE)
e = struct.unpack_from("IBBBBII", anc[0][2])
if (e[0], e[5], e[6]) != (errno.ECONNREFUSED, 1, 77) or name[1] != dead:
    sys.exit("error queue: errno %d id %d len %d to %s" % (e[0], e[5], e[6], name))
st = info(s)
if st["tx_timeout"] != 1 or st["tx_msgs"] != 0:
    sys.exit("info %s" % st)
print("unanswered sync: message 1 failed with ECONNREFUSED")
