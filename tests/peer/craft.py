#!/usr/bin/env python3
"""Malformed and edge-case UDPCP packets, one case per name.

  craft.py --to ADDR PORT [--wait S] CASE... | all
  craft.py --list

Each case goes out from a fresh UDP socket (so a new source to the receiver,
with no history), then the acks that come back within --wait seconds are
collected.  One JSON line per case: {"case", "sent", "acks": [...],
"expect": {...}}.

"expect" is what a receiver following Documentation/udpcp-protocol.rst ends with for that
source, in udpcp.py Receiver counter names, which are struct udpcp_info's
without "udpi_": rx_msgs (delivered), rx_malformed, crc_errors,
rx_duplicates, rx_discarded_frags, rx_timeout (once the rx timeout has
passed), syncs; plus acks and dup_acks (acks with D=1) seen here, and
stray_acks (udpcp.py only; the module need not count them).  Counters not
listed stay 0.  Delivered messages carry the test pattern, sequence numbers
0, 1, ... per case, so udpcp-tool recv can check them.
"""

import argparse
import json
import select
import socket
import sys
import time

from udpcp import (HDR_LEN, MAX_DATAGRAM, MAX_ID, MAX_MSG, TYPE_ACK,
                   TYPE_DATA, Packet, decode, pattern, sockaddr)


def data(msg_id, number, amount, length, payload, n=0, c=1, s=0, **kw):
    kw.setdefault("mtype", TYPE_DATA)
    return Packet(n=n, c=c, s=s, amount=amount,
                  number=number, msg_id=msg_id, length=length,
                  payload=payload, **kw)


def message(msg_id, seq, size, frags, **kw):
    """The packets of a whole message of `size` pattern octets."""
    body = pattern(seq, size)
    step = -(-size // frags)
    return [data(msg_id, i, frags, size, body[i * step:(i + 1) * step], **kw)
            for i in range(frags)]


def sync(**kw):
    return data(0, 0, 1, 0, b"", s=1, **kw)


# name -> (what a correct receiver does, packets or bytes to send, expect)
CASES = {}


def case(name, doc, expect):
    def register(fn):
        CASES[name] = (doc, fn, expect)
        return fn
    return register


@case("short-header", "11 octets, less than a header: drop, count malformed",
      dict(rx_malformed=1))
def _():
    return [data(1, 0, 1, 10, pattern(0, 10)).encode()[:HDR_LEN - 1]]


@case("type0", "message type 0: drop, count malformed, no ack",
      dict(rx_malformed=1))
def _():
    return [data(1, 0, 1, 10, pattern(0, 10), mtype=0)]


@case("type3", "message type 3: drop, count malformed, no ack",
      dict(rx_malformed=1))
def _():
    return [data(1, 0, 1, 10, pattern(0, 10), mtype=3)]


@case("amount0", "fragment amount 0: drop, count malformed, no ack",
      dict(rx_malformed=1))
def _():
    return [data(1, 0, 0, 10, pattern(0, 10))]


@case("number-ge-amount", "fragment number 2 of amount 2: drop, count "
      "malformed, no ack", dict(rx_malformed=1))
def _():
    return [data(1, 2, 2, 20, pattern(0, 10))]


@case("length-over", "message length 65488 (> 65487) in an otherwise sane "
      "first fragment: drop, count malformed, no ack", dict(rx_malformed=1))
def _():
    return [data(1, 0, 46, MAX_MSG + 1, pattern(0, 1440))]


@case("payload-over-length", "one fragment carrying 20 octets of a 10-octet "
      "message: drop, count malformed, no ack", dict(rx_malformed=1))
def _():
    return [data(1, 0, 1, 10, pattern(0, 20))]


@case("frag-sum", "single-ack message of length 100 whose two fragments hold "
      "40+40 octets: drop at completion, count malformed, no ack, deliver "
      "nothing", dict(rx_malformed=1, rx_discarded_frags=2))
def _():
    body = pattern(0, 80)
    return [data(1, 0, 2, 100, body[:40], s=1),
            data(1, 1, 2, 100, body[40:], s=1)]


@case("bad-checksum", "C=1 and a wrong Adler-32: drop silently, count a "
      "checksum error, no ack", dict(crc_errors=1))
def _():
    p = data(1, 0, 1, 10, pattern(0, 10))
    good = int.from_bytes(p.encode()[:4], "big")
    return [p.encode(checksum=good ^ 0x00010000)]


@case("oversized", "a 65507-octet datagram, longer than any UDPCP packet "
      "(12 + 65487): drop, count malformed", dict(rx_malformed=1))
def _():
    return [data(1, 0, 1, MAX_MSG, pattern(0, MAX_DATAGRAM - HDR_LEN))]


@case("ack-unknown", "an ack for message 1234, never sent: ignore it (no "
      "reply, nothing delivered)", dict(stray_acks=1))
def _():
    return [Packet(mtype=TYPE_ACK, n=1, c=1, s=1, amount=1, number=0,
                   msg_id=1234)]


@case("sync-mid", "fragment 0/2 of message 5, a sync, then message 6 whole: "
      "the sync drops the partial (1 fragment discarded) and is acked; "
      "message 6 is delivered", dict(rx_msgs=1, rx_discarded_frags=1,
                                     syncs=1, acks=4))
def _():
    return message(5, 1, 200, 2)[:1] + [sync()] + message(6, 0, 200, 2)


@case("dup-fragment", "fragment 0 of a 2-fragment ack-mode message twice: "
      "acked both times, stored once, the message delivered once",
      dict(rx_msgs=1, acks=3))
def _():
    p0, p1 = message(7, 0, 300, 2)
    return [p0, p0, p1]


@case("dup-message", "the same one-fragment message twice: delivered once, "
      "the second acked with D=1 and counted duplicate",
      dict(rx_msgs=1, rx_duplicates=1, acks=2, dup_acks=1))
def _():
    return message(9, 0, 50, 1) * 2


@case("interleave", "fragments of messages 10 and 11 alternating (10/0 11/0 "
      "10/1 11/1): each replaces the other's partial (3 fragments "
      "discarded), nothing delivered, the last partial expires",
      dict(rx_discarded_frags=4, rx_timeout=1, acks=4))
def _():
    a, b = message(10, 0, 100, 2), message(11, 0, 100, 2)
    return [a[0], b[0], a[1], b[1]]


@case("id-wrap", "message 0xFFFE then message 1: both delivered (IDs wrap "
      "to 1)", dict(rx_msgs=2, acks=2))
def _():
    return message(MAX_ID, 0, 30, 1) + message(1, 1, 30, 1)


@case("resync", "message 5, a sync, message 5 again: the sync forgets the "
      "last ID, so both are delivered", dict(rx_msgs=2, syncs=1, acks=3))
def _():
    return message(5, 0, 30, 1) + [sync()] + message(5, 1, 30, 1)


@case("lax-header", "version 7 and reserved bits set: ignored, delivered "
      "(Wireshark flags reserved-not-zero)", dict(rx_msgs=1, acks=1))
def _():
    return message(1, 0, 30, 1, version=7, reserved=0x55)


@case("checksum-off", "C=0 with a non-zero checksum field: not verified, "
      "delivered (Wireshark flags checksum-not-zero)", dict(rx_msgs=1, acks=1))
def _():
    p = message(1, 0, 30, 1, c=0)[0]
    return [p.encode(checksum=0x12345678)]


def run_case(name, dest, family, wait):
    doc, fn, expect = CASES[name]
    sock = socket.socket(family, socket.SOCK_DGRAM)
    sent = 0
    for pkt in fn():
        raw = pkt if isinstance(pkt, bytes) else pkt.encode()
        sock.sendto(raw, dest)
        sent += 1
        time.sleep(0.005)   # keep the order; a receiver is not a race here
    acks = []
    end = time.monotonic() + wait
    while True:
        left = end - time.monotonic()
        if left <= 0 or not select.select([sock], [], [], left)[0]:
            break
        raw, _ = sock.recvfrom(65536)
        try:
            p = decode(raw)
            acks.append(dict(type=p.mtype, id=p.msg_id, num=p.number,
                             amount=p.amount, d=p.d, c=p.c, n=p.n, s=p.s))
        except Exception as e:     # report, do not judge: that is the test's
            acks.append(dict(error=str(e)))
    sock.close()
    return dict(case=name, sent=sent, acks=acks, expect=expect)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--to", nargs=2, metavar=("ADDR", "PORT"))
    ap.add_argument("--wait", type=float, default=0.3,
                    help="seconds to collect acks after each case")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("cases", nargs="*")
    args = ap.parse_args(argv)
    if args.list:
        for name, (doc, _, _) in CASES.items():
            print("%-20s %s" % (name, doc))
        return 0
    names = list(CASES) if args.cases == ["all"] else args.cases
    unknown = [n for n in names if n not in CASES]
    if not args.to or not names or unknown:
        ap.error("need --to and known cases (unknown: %s)" % unknown)
    family, dest = sockaddr(args.to[0], int(args.to[1]))
    for name in names:
        print(json.dumps(run_case(name, dest, family, args.wait)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
