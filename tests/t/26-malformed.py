#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""26-malformed.py FAM DST PORT NS_A NS_B: tests/t/26-malformed.sh's checks for
one family (v4, v6, mapped): every case of tests/peer/craft.py from A at a
UDPCP socket at DST PORT in B, then mutated and random datagrams.  Prints a
line per case, or exits with what is wrong.
"""
import random
import socket
import struct
import sys
import time

import craft
from udpcp import pattern, Packet, TYPE_DATA, adler32
from ksock import SOL_UDPCP, RX_TIMEOUT, setns as netns, udpcp_socket, info, family, wildcard

fam, dst, port, ns_a, ns_b = sys.argv[1:]
port = int(port)

RX_TIMEOUT_MS = 200
COUNTERS = ("rx_msgs", "rx_malformed", "crc_errors", "rx_duplicates",
            "rx_discarded_frags", "rx_timeout")
# The module's reading where the doc leaves the count open (see the header).
MODULE_READING = {"frag-sum": dict(rx_discarded_frags=1)}

def drain(r):
    msgs = []
    while True:
        try:
            msgs.append(r.recvfrom(65536))
        except BlockingIOError:
            return msgs

netns(ns_b)
af = family(fam)
r = udpcp_socket(fam)
r.setsockopt(SOL_UDPCP, RX_TIMEOUT, RX_TIMEOUT_MS)
r.bind((wildcard(af), port))
r.setblocking(False)
netns(ns_a)
family, dest = craft.sockaddr(dst, port)

errors = []
for name in craft.CASES:
    before = info(r)
    res = craft.run_case(name, dest, family, 0.3)
    if name == "interleave":
        time.sleep(2 * RX_TIMEOUT_MS / 1000)   # let the last partial expire
    after = info(r)
    got = {k: after[k] - before[k] for k in COUNTERS}
    want = {k: res["expect"].get(k, 0) for k in COUNTERS}
    want.update(MODULE_READING.get(name, {}))
    if got != want:
        errors.append("%s: counters %s, want %s" % (name, got, want))
    acks = [a for a in res["acks"] if "error" not in a]
    if len(res["acks"]) != len(acks):
        errors.append("%s: undecodable reply %s" % (name, res["acks"]))
    if len(acks) != res["expect"].get("acks", 0) or \
       sum(a["d"] for a in acks) != res["expect"].get("dup_acks", 0):
        errors.append("%s: %d acks (%d with D=1), want %d (%d)" % (
            name, len(acks), sum(a["d"] for a in acks),
            res["expect"].get("acks", 0), res["expect"].get("dup_acks", 0)))
    msgs = drain(r)
    if len(msgs) != want["rx_msgs"]:
        errors.append("%s: %d messages delivered, want %d" % (name, len(msgs), want["rx_msgs"]))
    for seq, (data, _) in enumerate(msgs):
        if data != pattern(seq, len(data)):
            errors.append("%s: message %d has wrong content" % (name, seq))
if errors:
    sys.exit("%s:\n  %s" % (fam, "\n  ".join(errors)))
print("%s: %d craft cases ok" % (fam, len(craft.CASES)))

# Mutations of valid packets (half with the checksum fixed up) and random
# datagrams.  Some may get through as messages (C=0 or a fixed
# checksum can make a valid one, and with C=0 a damaged one); nothing may
# break the socket or the kernel.
rng = random.Random(port)
u = socket.socket(family, socket.SOCK_DGRAM)
for k in range(600):
    if k % 3 == 0:
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
    else:
        size = rng.choice((0, 1, 20, 300))
        p = Packet(mtype=TYPE_DATA, n=rng.randrange(2), c=1, s=rng.randrange(2),
                   amount=rng.choice((1, 2, 3)), number=0, msg_id=rng.randrange(1, 100),
                   length=size, payload=pattern(k, size))
        raw = bytearray(p.encode())
        for _ in range(rng.randrange(1, 4)):
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        if k % 2:
            raw[0:4] = b"\0\0\0\0"
            raw[0:4] = struct.pack("!I", adler32(bytes(raw)) if raw[4] & 2 else 0)
        raw = bytes(raw)
    u.sendto(raw, dest)
    if k % 50 == 0:
        time.sleep(0.02)
time.sleep(0.5)
drain(r)

# A legitimate message still arrives.
s = udpcp_socket(fam)
s.sendto(pattern(0, 3000), (dst if fam != "mapped" else "::ffff:" + dst, port))
r.setblocking(True)
r.settimeout(5)
try:
    data = r.recv(65536)
except socket.timeout:
    sys.exit("%s: the legitimate message after the fuzzing did not arrive" % fam)
if data != pattern(0, 3000):
    sys.exit("%s: the legitimate message arrived damaged" % fam)
print("%s: fuzzing survived, legitimate message delivered; receiver %s" % (fam, info(r)))
