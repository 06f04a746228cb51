#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""24-restart.py FAM DST SRC PORT SPORT NS_A NS_B: tests/t/24-restart.sh's
restarts for one family (v4, v6, mapped): the sender's socket at SPORT
closed and opened again, the receiver's at PORT too, and a socket on
another port.  Prints "FAM: ok", or exits with what is wrong.
"""
import socket
import sys

from ksock import udpcp_socket, family, wildcard
import ksock

fam, dst, src, port, sport, ns_a, ns_b = sys.argv[1:]
port, sport = int(port), int(sport)

af = family(fam)
any_addr = wildcard(af)

def sock(ns, bind_port):
    s = udpcp_socket(fam, ns)
    s.bind((any_addr, bind_port))
    return s

def fail(msg):
    sys.exit("%s: %s" % (fam, msg))

def flush(s):
    ksock.flush(s, 10000)

def exchange(s, r, tag, n=3, from_port=sport):
    for k in range(n):
        s.sendto(b"%s%d" % (tag, k) * 300, (dst, port))
    flush(s)
    r.settimeout(5)
    for k in range(n):
        try:
            data, frm = r.recvfrom(65536)
        except socket.timeout:
            fail("%s%d not delivered" % (tag.decode(), k))
        if data != b"%s%d" % (tag, k) * 300 or frm[:2] != (src, from_port):
            fail("want %s%d from %s:%d, got %r from %s" % (tag.decode(), k, src, from_port, data[:8], frm))
    r.settimeout(0.5)
    try:
        data = r.recv(65536)
        fail("unexpected extra message %r" % data[:8])
    except socket.timeout:
        pass

r = sock(ns_b, port)
s = sock(ns_a, sport)
exchange(s, r, b"a")            # IDs 1-3
s.close()
s = sock(ns_a, sport)           # the sender restarts on the same port
exchange(s, r, b"b")            # IDs 4-6, after a sync
r.close()
r = sock(ns_b, port)            # the receiver restarts
exchange(s, r, b"c")            # IDs 7-9
s2 = sock(ns_a, sport + 100)    # another local port: its own sequence
exchange(s2, r, b"d", 2, sport + 100)
print("%s: ok" % fam)
