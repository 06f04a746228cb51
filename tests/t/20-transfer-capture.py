#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""20-transfer-capture.py CAPJSON FRAG_PAYLOAD SPEC...: tests/t/20-transfer.sh's
check of one family's capture (cap_udpcp's JSON lines): per SPEC
(SPORT:MODE:CSUM, one per sender) the flags, the sync first, the fragments
(FRAG_PAYLOAD octets at most) and the acks the mode wants.  Prints
"capture ok" or what is wrong (and exits 1).
"""
import json
import sys

cap, P = sys.argv[1], int(sys.argv[2])

spec = {}
for s in sys.argv[3:]:
    port, mode, csum = s.split(":")
    spec[int(port)] = (mode, csum == "on")
pkts = [json.loads(l) for l in open(cap)]
errs = []
bad = [p for p in pkts if "error" in p]
if bad:
    errs.append("undecodable: %s" % bad[:3])
def frags(size):
    return max(1, -(-size // P))
for port, (mode, csum) in spec.items():
    data = [p for p in pkts if p.get("type") == 1 and p["sport"] == port]
    acks = [p for p in pkts if p.get("type") == 2 and p["dport"] == port]
    msgs = {}
    for p in data:
        if p["id"] == 0:
            continue
        msgs.setdefault(p["id"], []).append(p)
        want = {"noack": (1, 1), "ack": (0, 0), "single-ack": (0, 1)}[mode]
        if (p["n"], p["s"]) != want or p["c"] != csum:
            errs.append("%d %s: data N=%d S=%d C=%d" % (port, mode, p["n"], p["s"], p["c"]))
            break
        if not csum and p["csum"] != 0:
            errs.append("%d: C=0 with checksum field %#x" % (port, p["csum"]))
        if p["plen"] > P:
            errs.append("%d: fragment of %d > %d" % (port, p["plen"], P))
    syncs = [p for p in data if p["id"] == 0]
    # Every mode syncs a unicast destination first, no-ack included.
    if not syncs:
        errs.append("%d %s: no sync before the first message" % (port, mode))
    elif data[0]["id"] != 0:
        errs.append("%d %s: data before the sync" % (port, mode))
    if mode == "noack" and [a for a in acks if a["id"] != 0]:
        errs.append("%d noack: %d acks of data" % (port, len([a for a in acks if a["id"] != 0])))
    for mid, ps in msgs.items():
        length, amount = ps[0]["len"], ps[0]["amount"]
        if amount != frags(length):
            errs.append("%d id %d: %d octets in %d fragments, want %d" % (port, mid, length, amount, frags(length)))
        nums = {p["num"] for p in ps}
        if nums != set(range(amount)):
            errs.append("%d id %d: fragments %s" % (port, mid, sorted(nums)))
        total = sum({p["num"]: p["plen"] for p in ps}.values())
        if total != length:
            errs.append("%d id %d: payloads sum to %d, length %d" % (port, mid, total, length))
        macks = [a for a in acks if a["id"] == mid]
        if mode == "ack" and {a["num"] for a in macks} != set(range(amount)):
            errs.append("%d id %d ack: acked %s of %d" % (port, mid, sorted({a["num"] for a in macks}), amount))
        if mode == "single-ack":
            if not macks or any(a["num"] != amount - 1 for a in macks):
                errs.append("%d id %d single-ack: acks %s" % (port, mid, [a["num"] for a in macks]))
        for a in macks:
            if (a["n"], a["s"], a["d"], a["c"], a["len"], a["amount"]) != (1, 1, 0, int(csum), 0, amount):
                errs.append("%d id %d: bad ack %s" % (port, mid, a))
    if len(msgs) != 7:
        errs.append("%d: %d messages on the wire, want 7" % (port, len(msgs)))
print("\n".join(errs) if errs else "capture ok")
sys.exit(1 if errs else 0)
