#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Receive-path fuzzer: random and mutated UDPCP packets at a UDPCP socket.

  rxfuzz.py --to ADDR PORT [--to ADDR PORT]... [--count N] [--time S]
            [--seed S] [--sources K] [--ack-to ADDR PORT] [--pps N]
            [--json]

Sends from K plain UDP sockets (K source ports; the module keeps a peer
per source) until --count packets are sent or --time seconds have passed,
whichever comes first, each packet to one of the --to targets in turn.
The packets, by kind (a seeded choice; --seed reproduces a run):

  sweep       first, once per target: every value of octet 4 (message type,
              version, N, C, S) times D, on an otherwise valid packet
  random      random octets, 0..1500 of them (a fifth shorter than a header)
  mutate      a valid fragment with bits flipped, a field replaced,
              truncated, or junk appended
  huge        fragment amount 255 (and 0, and number >= amount): fragments of
              a 255-fragment message, some of them whole messages
  interleave  the fragments of two or three message IDs interleaved, in
              order, reversed or shuffled, repeats included
  acks        acks for messages never sent (random IDs and fragments, with
              payload, with D), also at --ack-to (a sender's port)
  sync        a sync in the middle of a message, valid and invalid syncs
              (amount 2, length or payload), then the rest of the message
  lengths     message lengths that lie: shorter than the payload, over
              65487, fragments that add up to more or less
  dups        whole valid messages, resent; IDs 0xFFFE, 0xFFFF, wrap to 1
  checksum    (applies to all of the above) C=1 with a correct Adler-32
              most of the time, a wrong one otherwise; C=0 with junk in it

Acks that come back are read and checked: each must be a well-formed ack
(12 octets, type 2, N=1, S=1, length 0, a valid checksum when C=1).
Prints a summary (packets sent, per kind, acks, bad acks, pps); with
--json one JSON line.  Exit status 1 if any ack was malformed.

By hand, a million packets against a receiver in the guest (tests/vm/guest.sh
--shell, after loading the module and binding a UDPCP socket on port 7000):
  python3 tests/fuzz/rxfuzz.py --to 127.0.0.1 7000 --to ::1 7000 \\
          --count 1000000 --time 3600
"""

import argparse
import json
import os
import random
import select
import socket
import struct
import sys
import time
import zlib

HDR = struct.Struct("!IBBBBHH")
HDR_LEN = 12
MAX_MSG = 65487
TYPE_DATA, TYPE_ACK = 1, 2


def adler(b):
    return zlib.adler32(b) & 0xFFFFFFFF


def build(mtype=TYPE_DATA, ver=2, n=0, c=1, s=0, d=0, rsv=0, amount=1,
          number=0, msg_id=1, length=None, payload=b"", csum="auto"):
    """A packet; csum: "auto" (correct when C=1, 0 otherwise), "bad", or an
    int for the field as is."""
    if length is None:
        length = len(payload)
    o4 = (mtype & 3) << 6 | (ver & 7) << 3 | (n & 1) << 2 | (c & 1) << 1 | \
        (s & 1)
    o5 = (d & 1) << 7 | (rsv & 0x7F)
    body = HDR.pack(0, o4, o5, amount & 0xFF, number & 0xFF,
                    msg_id & 0xFFFF, length & 0xFFFF) + payload
    if csum == "auto":
        v = adler(body) if c else 0
    elif csum == "bad":
        v = (adler(body) ^ (1 << random.randrange(32))) if c else \
            random.getrandbits(32)
    else:
        v = csum
    return struct.pack("!I", v & 0xFFFFFFFF) + body[4:]


class Fuzzer:
    KINDS = ("random", "mutate", "huge", "interleave", "acks", "sync",
             "lengths", "dups")
    WEIGHTS = (12, 30, 1, 10, 12, 8, 12, 8)

    def __init__(self, rnd):
        self.r = rnd
        self.next_id = {}

    def csum(self):
        # Mostly correct: wrong checksums stop a packet before the state.
        return "auto" if self.r.random() < 0.8 else "bad"

    def flags(self):
        """Transfer mode bits of a data packet: ack, single-ack, no-ack."""
        m = self.r.choice(("ack", "single", "noack", "noack-s"))
        return dict(n=int(m.startswith("noack")),
                    s=int(m in ("single", "noack-s")),
                    c=int(self.r.random() < 0.85))

    def new_id(self, src):
        i = self.next_id.get(src, self.r.randrange(1, 0xFFFE))
        self.next_id[src] = i % 0xFFFE + 1
        return i

    def message(self, src, size=None, frags=None, **kw):
        """The fragments (packets) of a valid message."""
        r = self.r
        if size is None:
            size = r.choice((0, 1, 5, 100, 1000, 3000, 9000, 30000))
        if frags is None:
            frags = r.randint(1, max(1, min(255, size // 200 or 1, 40)))
        frags = max(1, min(frags, 255, max(size, 1)))
        fl = self.flags()
        fl.update(kw)
        msg_id = fl.pop("msg_id", None) or self.new_id(src)
        body = bytes(r.getrandbits(8) for _ in range(min(size, 64))) * \
            (size // 64 + 1)
        body = body[:size]
        step = -(-size // frags) if size else 0
        out = []
        for i in range(frags):
            part = body[i * step:(i + 1) * step]
            out.append(dict(amount=frags, number=i, msg_id=msg_id,
                            length=size, payload=part, **fl))
        return out

    def emit(self, parts, csum=True):
        return [build(csum=self.csum() if csum else "auto", **p)
                for p in parts]

    # ---- kinds ------------------------------------------------------------
    def k_random(self, src):
        r = self.r
        n = r.randint(0, HDR_LEN - 1) if r.random() < 0.2 else \
            r.randint(0, 1500)
        return [bytes(r.getrandbits(8) for _ in range(n))]

    def k_mutate(self, src):
        r = self.r
        p = r.choice(self.message(src))
        pkt = bytearray(build(**p))
        how = r.randrange(5)
        if how == 0 and pkt:
            for _ in range(r.randint(1, 8)):
                i = r.randrange(len(pkt))
                pkt[i] ^= 1 << r.randrange(8)
        elif how == 1:
            field = r.choice(("mtype", "ver", "amount", "number", "msg_id",
                              "length", "d", "rsv"))
            p[field] = r.getrandbits(16)
            pkt = bytearray(build(csum=self.csum(), **p))
        elif how == 2:
            pkt = pkt[:r.randrange(len(pkt) + 1)]
        elif how == 3:
            pkt += bytes(r.getrandbits(8) for _ in range(r.randint(1, 300)))
        else:
            # header of one message, checksum recomputed over the mutation
            i = r.randrange(4, HDR_LEN)
            pkt[i] = r.getrandbits(8)
            if pkt[4] & 2:
                pkt[0:4] = b"\0\0\0\0"
                pkt[0:4] = struct.pack("!I", adler(bytes(pkt)))
        return [bytes(pkt)]

    def k_huge(self, src):
        r = self.r
        how = r.randrange(4)
        if how == 0:
            # amount 0, number >= amount
            a = r.choice((0, 1, 2, 254, 255))
            num = r.randint(a, 255) if a < 255 else 255
            return [build(amount=a, number=num, msg_id=self.new_id(src),
                          payload=b"z" * r.randint(0, 20),
                          csum=self.csum(), **self.flags())]
        if how == 1:
            # a whole 255-fragment message, in order or not
            size = r.choice((255, 255 * 40, 255 * 256))
            parts = self.message(src, size=size, frags=255)
            if r.random() < 0.5:
                r.shuffle(parts)
            return self.emit(parts, csum=r.random() < 0.3)
        # some fragments of a 255-fragment message: a partial left behind
        parts = self.message(src, size=r.choice((255 * 10, 255 * 200)),
                             frags=255)
        return self.emit(r.sample(parts, r.randint(1, 30)))

    def k_interleave(self, src):
        r = self.r
        msgs = [self.message(src, size=r.choice((300, 3000, 9000)),
                             frags=r.randint(2, 12))
                for _ in range(r.randint(2, 3))]
        order = r.choice(("rr", "reverse", "shuffle"))
        seq = []
        if order == "rr":
            for i in range(max(len(m) for m in msgs)):
                for m in msgs:
                    if i < len(m):
                        seq.append(m[i])
        else:
            seq = [p for m in msgs for p in m]
            if order == "reverse":
                seq.reverse()
            else:
                r.shuffle(seq)
        if r.random() < 0.3:
            seq += r.sample(seq, min(len(seq), 3))     # repeats
        return self.emit(seq)

    def k_acks(self, src):
        r = self.r
        out = []
        for _ in range(r.randint(1, 5)):
            out.append(build(mtype=TYPE_ACK, n=1, s=1, c=r.randint(0, 1),
                             d=r.randint(0, 1), amount=r.randint(0, 255),
                             number=r.randint(0, 255),
                             msg_id=r.getrandbits(16), length=0,
                             payload=b"" if r.random() < 0.8 else b"pl",
                             csum=self.csum()))
        return out

    def k_sync(self, src):
        r = self.r
        parts = self.message(src, size=r.choice((3000, 9000)),
                             frags=r.randint(3, 10))
        cut = r.randint(1, len(parts) - 1)
        good = dict(amount=1, number=0, msg_id=0, length=0, n=0,
                    s=r.randint(0, 1), c=r.randint(0, 1))
        bad = dict(good)
        k = r.randrange(4)
        if k == 0:
            bad["amount"] = 2
        elif k == 1:
            bad["length"] = 5
        elif k == 2:
            bad["payload"] = b"hello"
        else:
            bad["n"] = 1        # a sync in no-ack mode
        sync = r.choice((good, good, bad))
        return self.emit(parts[:cut] + [sync] + parts[cut:])

    def k_lengths(self, src):
        r = self.r
        parts = self.message(src, size=r.choice((100, 3000, 9000)),
                             frags=r.randint(1, 6))
        k = r.randrange(4)
        for p in parts:
            if k == 0:
                p["length"] = max(0, len(p["payload"]) - r.randint(1, 50))
            elif k == 1:
                p["length"] = r.randint(MAX_MSG + 1, 0xFFFF)
            elif k == 2:
                p["length"] += r.randint(1, 500)
            else:
                p["length"] = max(0, p["length"] - r.randint(1, 500))
        if k == 3 and r.random() < 0.5:
            parts[-1]["payload"] += b"extra"
        return self.emit(parts)

    def k_dups(self, src):
        r = self.r
        mid = r.choice((None, 0xFFFE, 0xFFFF, 1, r.randint(1, 0xFFFE)))
        kw = {"msg_id": mid} if mid else {}
        parts = self.message(src, size=r.choice((10, 1500, 6000)),
                             frags=r.randint(1, 4), **kw)
        pk = self.emit(parts, csum=False)
        return pk + pk[: r.randint(1, len(pk))] + pk

    def sweep(self):
        """Every value of octet 4 times D, on a one-fragment message."""
        out = []
        for o4 in range(256):
            for d in (0, 1):
                mtype, ver = o4 >> 6, (o4 >> 3) & 7
                n, c, s = (o4 >> 2) & 1, (o4 >> 1) & 1, o4 & 1
                ack = mtype == TYPE_ACK
                out.append(build(mtype=mtype, ver=ver, n=n, c=c, s=s, d=d,
                                 amount=1, number=0,
                                 msg_id=0 if (o4 + d) % 7 == 0 else
                                 self.r.randint(1, 0xFFFE),
                                 payload=b"" if ack else b"sweep",
                                 length=0 if ack else 5))
        return out

    def next(self, src):
        kind = self.r.choices(self.KINDS, self.WEIGHTS)[0]
        return kind, getattr(self, "k_" + kind)(src)


def check_ack(data):
    """None if a well-formed UDPCP ack, else what is wrong."""
    if len(data) != HDR_LEN:
        return "length %d" % len(data)
    cs, o4, o5, amount, number, msg_id, length = HDR.unpack(data)
    if o4 >> 6 != TYPE_ACK:
        return "type %d" % (o4 >> 6)
    if not (o4 & 4) or not (o4 & 1):
        return "N/S not set: octet 4 = %#x" % o4
    if length:
        return "length field %d" % length
    if o4 & 2 and adler(b"\0\0\0\0" + data[4:]) != cs:
        return "bad checksum"
    if not o4 & 2 and cs:
        return "checksum %#x with C=0" % cs
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--to", nargs=2, action="append", required=True,
                   metavar=("ADDR", "PORT"))
    p.add_argument("--ack-to", nargs=2, metavar=("ADDR", "PORT"))
    p.add_argument("--count", type=int, default=20000)
    p.add_argument("--time", type=float, default=120)
    p.add_argument("--seed", type=int)
    p.add_argument("--sources", type=int, default=16)
    p.add_argument("--pps", type=float, default=0, help="rate limit (0: none)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4),
                                                            "big")
    rnd = random.Random(seed)
    random.seed(seed ^ 0x5A5A)
    fz = Fuzzer(rnd)
    targets = [(h, int(pt)) for h, pt in a.to]
    socks = {}
    for fam in {socket.AF_INET6 if ":" in h else socket.AF_INET
                for h, _ in targets}:
        lst = []
        for _ in range(a.sources):
            s = socket.socket(fam, socket.SOCK_DGRAM)
            s.bind(("::" if fam == socket.AF_INET6 else "0.0.0.0", 0))
            s.setblocking(False)
            lst.append(s)
        socks[fam] = lst
    allsocks = [s for lst in socks.values() for s in lst]
    by_kind = {}
    sent = send_errors = acks = 0
    bad_acks = []
    t0 = time.monotonic()
    deadline = t0 + a.time

    def drain():
        nonlocal acks
        while True:
            r, _, _ = select.select(allsocks, [], [], 0)
            if not r:
                return
            for s in r:
                try:
                    data = s.recv(70000)
                except OSError:
                    continue
                acks += 1
                why = check_ack(data)
                if why and len(bad_acks) < 20:
                    bad_acks.append("%s: %s" % (why, data.hex()))

    def send(s, dst, pkt):
        nonlocal sent, send_errors
        for _ in range(200):
            try:
                s.sendto(pkt, dst)
                break
            except BlockingIOError:
                time.sleep(0.005)
            except OSError:
                send_errors += 1
                break
        sent += 1

    queue = []
    for dst in targets:
        fam = socket.AF_INET6 if ":" in dst[0] else socket.AF_INET
        queue += [("sweep", socks[fam][0], dst, pk) for pk in fz.sweep()]
    ti = 0
    while sent < a.count and time.monotonic() < deadline:
        if not queue:
            dst = targets[ti % len(targets)]
            ti += 1
            fam = socket.AF_INET6 if ":" in dst[0] else socket.AF_INET
            si = rnd.randrange(a.sources)
            s = socks[fam][si]
            kind, pkts = fz.next((fam, si))
            if kind == "acks" and a.ack_to and rnd.random() < 0.5:
                adst = (a.ack_to[0], int(a.ack_to[1]))
                afam = socket.AF_INET6 if ":" in adst[0] else socket.AF_INET
                if afam in socks:
                    s, dst = socks[afam][si], adst
            queue = [(kind, s, dst, pk) for pk in pkts]
        kind, s, dst, pk = queue.pop(0)
        send(s, dst, pk)
        by_kind[kind] = by_kind.get(kind, 0) + 1
        if sent % 64 == 0:
            drain()
        if a.pps:
            lag = t0 + sent / a.pps - time.monotonic()
            if lag > 0:
                time.sleep(lag)
    time.sleep(0.3)
    drain()
    secs = time.monotonic() - t0
    out = dict(packets=sent, seconds=round(secs, 1),
               pps=round(sent / secs if secs else 0), seed=seed,
               sources=len(allsocks), by_kind=by_kind, acks=acks,
               send_errors=send_errors, bad_acks=len(bad_acks),
               bad_ack_examples=bad_acks[:5])
    if a.json:
        print(json.dumps(out), flush=True)
    else:
        print("rxfuzz: %(packets)d packets fuzzed in %(seconds)ss "
              "(%(pps)d/s, seed %(seed)d, %(sources)d sources), "
              "%(acks)d acks back, %(bad_acks)d malformed" % out)
        print("rxfuzz: by kind: %s" % json.dumps(by_kind, sort_keys=True))
        for b in bad_acks[:5]:
            print("rxfuzz: malformed ack: %s" % b)
    return 1 if bad_acks else 0


if __name__ == "__main__":
    sys.exit(main())
