#!/usr/bin/env python3
"""Unit checks of tests/peer/udpcp.py without the network.

  peer_unit.py [UDPCP_TOOL]    (with the C tool: also its pattern matches)

One line per check, "ok NAME" or "FAIL NAME: why"; exit status = failures.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "peer"))
import udpcp as u  # noqa: E402

results = []


def check(name, cond, why=""):
    results.append(bool(cond))
    print(("ok   %s" % name) if cond else ("FAIL %s: %s" % (name, why)))


class FakeSock:
    """Records what a Receiver sends."""
    def __init__(self):
        self.sent = []

    def sendto(self, data, addr):
        self.sent.append(u.decode(data))


# The doc's test vector: the sync header carries Adler-32 0x02AA0055.
vec = bytes.fromhex("02AA0055530001000000000000"[:24])
check("adler32 test vector", u.checksum_of(vec) == 0x02AA0055,
      hex(u.checksum_of(vec)))
s = u.Packet(mtype=u.TYPE_DATA, n=0, c=u.SYNC_C, s=u.SYNC_S, msg_id=0)
check("sync encodes to the test vector", s.encode() == vec, s.encode().hex())
p = u.decode(vec)
check("test vector decodes as a sync", p.is_sync() and p.c and p.s and
      p.version == 2 and not p.n, repr(p))

# Round trip of every header field.
p = u.Packet(mtype=u.TYPE_ACK, n=1, c=1, s=1, d=1, amount=200, number=199,
             msg_id=0xFFFE, length=0)
q = u.decode(p.encode())
check("ack round trip", (q.mtype, q.n, q.c, q.s, q.d, q.amount, q.number,
                         q.msg_id, q.length) ==
      (u.TYPE_ACK, 1, 1, 1, 1, 200, 199, 0xFFFE, 0), repr(q))
raw = bytearray(u.Packet(c=1, amount=1, msg_id=3, length=4,
                         payload=b"abcd").encode())
raw[-1] ^= 0x20
try:
    u.decode(bytes(raw))
    check("corrupt payload is a checksum error", False, "accepted")
except u.BadChecksum:
    check("corrupt payload is a checksum error", True)
raw = u.Packet(c=0, amount=1, msg_id=3, length=4, payload=b"abcd").encode()
check("C=0 carries checksum 0", raw[:4] == b"\0\0\0\0", raw[:4].hex())

for name, pkt in [("type 0", u.Packet(mtype=0, amount=1)),
                  ("amount 0", u.Packet(amount=0)),
                  ("number >= amount", u.Packet(amount=2, number=2)),
                  ("length > 65487", u.Packet(amount=1, msg_id=1,
                                              length=65488)),
                  ("payload > length", u.Packet(amount=1, msg_id=1, length=1,
                                                payload=b"ab")),
                  ("sync with length", u.Packet(amount=1, msg_id=0, length=1,
                                                payload=b"a"))]:
    try:
        u.decode(pkt.encode())
        check("malformed: " + name, False, "accepted")
    except u.Malformed:
        check("malformed: " + name, True)

# Fragmentation: sizes per MTU, the 255-fragment limit, empty messages.
check("payload per packet", u.payload_per_packet(u.socket.AF_INET, 1500) ==
      1460 and u.payload_per_packet(u.socket.AF_INET6, 1500) == 1440)
check("65487 octets at MTU 1500/IPv6 = 46 fragments",
      len(u.fragment(b"x" * 65487, 1440)) == 46)
check("empty message is one fragment", u.fragment(b"", 100) == [b""])
try:
    u.fragment(b"x" * 256, 1)
    check("more than 255 fragments refused", False, "accepted")
except ValueError:
    check("more than 255 fragments refused", True)

# Message IDs wrap from 0xFFFE to 1, never 0 or 0xFFFF.
tx = u.Sender(None, ("127.0.0.1", 1), start_id=0xFFFD)
ids = [tx._alloc_id() for _ in range(4)]
check("message IDs wrap to 1", ids == [0xFFFD, 0xFFFE, 1, 2], ids)
check("groups get no-ack and no sync",
      u.Sender(None, ("239.1.2.3", 1), mode="ack").mode == "noack" and
      not u.Sender(None, ("ff02::1", 1, 0, 0)).need_sync)

# Pattern: octets fixed here and in tests/progs/pattern.h.
check("pattern octets", u.pattern(0x01020304, 4) == b"\1\2\3\4" and
      u.pattern_byte(5, 4) == (5 * 7 + 4 * 13) % 256 and
      u.pattern_byte(5, 300) == (5 * 7 + 300 * 13 + 29) % 256)
if len(sys.argv) > 1:
    for seq, size in [(0, 0), (1, 3), (7, 4), (123456789, 1500),
                      (0xFFFFFFFF, 65487)]:
        out = subprocess.run([sys.argv[1], "pattern", str(seq), str(size)],
                             capture_output=True, check=True).stdout
        check("C pattern == Python pattern (%d, %d)" % (seq, size),
              out == u.pattern(seq, size))

# Receiver: single-ack acks once, at completion, with the last fragment's
# number (or 0 with ack_frag0); a duplicate gets D=1 on its last fragment.
for frag0 in (False, True):
    sock = FakeSock()
    rx = u.Receiver(sock, ack_frag0=frag0)
    msg = [u.Packet(c=1, s=1, amount=3, number=i, msg_id=4, length=9,
                    payload=b"abc") for i in range(3)]
    for p in [msg[2], msg[0], msg[1]]:      # out of order: fine
        rx.handle(p.encode(), ("::1", 9), 0.0)
    for p in msg:
        rx.handle(p.encode(), ("::1", 9), 0.1)
    acks = [(a.msg_id, a.number, a.d) for a in sock.sent]
    want = [(4, 0 if frag0 else 2, 0), (4, 0 if frag0 else 2, 1)]
    check("single-ack acks%s" % (" (frag 0)" if frag0 else ""),
          acks == want and rx.stats["rx_msgs"] == 1, acks)

# Receiver: an rx timeout drops the partial; a sync forgets the last ID.
sock = FakeSock()
rx = u.Receiver(sock, rx_timeout=1.0)
rx.handle(u.Packet(amount=2, number=0, msg_id=8, length=4,
                   payload=b"ab").encode(), ("1.2.3.4", 5), 0.0)
rx.expire(0.5)
ok = "1.2.3.4" in str(rx.partial)
rx.expire(1.5)
check("rx timeout drops the partial", ok and not rx.partial and
      rx.stats["rx_timeout"] == 1 and rx.stats["rx_discarded_frags"] == 1,
      rx.stats)
one = u.Packet(amount=1, msg_id=8, length=2, payload=b"ab").encode()
rx.handle(one, ("1.2.3.4", 5), 2.0)
rx.handle(one, ("1.2.3.4", 5), 2.1)
rx.handle(u.Packet(s=1, msg_id=0).encode(), ("1.2.3.4", 5), 2.2)
rx.handle(one, ("1.2.3.4", 5), 2.3)
check("sync forgets the last ID", rx.stats["rx_msgs"] == 2 and
      rx.stats["rx_duplicates"] == 1 and rx.stats["syncs"] == 1, rx.stats)
rx.handle(u.Packet(amount=2, number=0, msg_id=9, length=4,
                   payload=b"ab").encode(), ("1.2.3.4", 5), 3.0)
rx.handle(u.Packet(amount=3, number=1, msg_id=9, length=4,
                   payload=b"ab").encode(), ("1.2.3.4", 5), 3.1)
check("same ID, other amount: malformed", rx.stats["rx_malformed"] == 1,
      rx.stats)

print("peer_unit: %d passed, %d failed" %
      (results.count(True), results.count(False)))
sys.exit(results.count(False))
