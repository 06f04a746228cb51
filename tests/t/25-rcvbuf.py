#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""25-rcvbuf.py FAM DST PORT SPORT NS_A NS_B: tests/t/25-rcvbuf.sh's full
receive buffer for one family (v4, v6, mapped): a receiver at PORT with
room for one 5000-octet message that does not read, a sender at SPORT kept
pending, then the reader.  Prints {"t_read": when reading started,
"blocked": 2} as JSON, or exits with what is wrong.
"""
import json
import socket
import struct
import sys
import time

from udpcp import Packet, pattern
from ksock import SOL_UDPCP, TX_TIMEOUT, MAXTRY, FLUSH, udpcp_socket, info, family, wildcard

fam, dst, port, sport, ns_a, ns_b = sys.argv[1:]
port, sport = int(port), int(sport)

af = family(fam)
any_addr = wildcard(af)
SIZE, COUNT = 5000, 4
MSGS = [pattern(k, SIZE) for k in range(COUNT)]

def sock(ns, bind_port):
    return udpcp_socket(fam, ns)

def fail(msg):
    sys.exit("%s: %s" % (fam, msg))

r = sock(ns_b, port)
# SO_RCVBUFFORCE: 12 KiB.  A 5000-octet message is four fragments, 8-9.2 KiB
# of truesize depending on how the sender lays them out: one fits, two do not.
r.setsockopt(socket.SOL_SOCKET, 33, 6144)
r.bind((any_addr, port))
s = sock(ns_a, sport)
s.bind((any_addr, sport))
s.setsockopt(SOL_UDPCP, TX_TIMEOUT, 300)
s.setsockopt(SOL_UDPCP, MAXTRY, 10)             # 3 s before a message fails
for m in MSGS:
    s.sendto(m, (dst, port))
time.sleep(1.5)
si, ri = info(s), info(r)
if si["tx_pending"] != COUNT - 1 or si["tx_msgs"] != 1:
    fail("sender while the receiver does not read: %s (want 1 sent, %d pending)" % (si, COUNT - 1))
if ri["rx_queued"] != 1 or ri["rx_msgs"] != 1 or ri["rx_dropped"] < 1:
    fail("receiver not reading: %s (want 1 queued, rx_dropped > 0)" % ri)

# Message 2 now waits for queue room: its first fragments are stored and
# acked, its last was refused.  Other sources' partial messages need more
# than the room left for partials: theirs are evicted for each other, but
# message 2's must not be, or its sender, retransmitting the last fragment
# alone, could only fail it.
FRAG = 1000
flood = []
for k in range(6):
    f = socket.socket(af, socket.SOCK_DGRAM)
    f.bind((any_addr, 0))
    flood.append(f)
    for num in range(2):
        # Packet's defaults: data, ack mode (N=0, S=0), Adler-32 (C=1).
        f.sendto(Packet(amount=10, number=num, msg_id=1, length=10 * FRAG,
                        payload=bytes([k]) * FRAG).encode(), (dst, port))
time.sleep(0.5)
fi = info(r)
if fi["rx_discarded_frags"] <= ri["rx_discarded_frags"]:
    fail("the flood of partial messages evicted nothing: %s" % fi)
t_read = time.time()
r.settimeout(5)
for k in range(COUNT):
    try:
        data = r.recv(65536)
    except socket.timeout:
        fail("message %d not delivered after reading started" % k)
    if data != MSGS[k]:
        fail("message %d: wrong content or order (seq %d)" % (k, struct.unpack_from("!I", data)[0]))
s.setsockopt(SOL_UDPCP, FLUSH, struct.pack("i", 10000))
si = info(s)
if si["tx_timeout"] or si["tx_msgs"] != COUNT or si["tx_retries"] < 1:
    fail("sender after reading: %s" % si)
print(json.dumps(dict(t_read=t_read, blocked=2)))
