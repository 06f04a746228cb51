#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""29-wireshark-check.py TSHARK PLAN P SPORT: tests/t/29-wireshark.sh's
comparison of tshark's decoding (TSHARK) with what was sent (PLAN, from
29-wireshark-send.py): every data packet's N/S/C, each fragmented message
reassembled once at its length, acks where the mode wants them.  Prints the
summary or what differs (and exits 1).
"""
import sys

tshark, plan, P, sport = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

want = {}
for line in open(plan):
    mid, mode, csum, size = line.split()
    want[int(mid)] = (mode, int(csum), int(size))
errs, reasm, seen, acks = [], {}, set(), {}
for line in open(tshark):
    if not line[:1].isdigit():
        continue
    f = line.rstrip("\n").split(",")
    frame, mtype, n, c, s, d, mid, amount, num, length, rlen, src = f
    mtype, n, c, s, d = (int(x, 0) for x in (mtype, n, c, s, d))
    mid, amount, num = int(mid), int(amount), int(num)
    if mtype == 2:
        acks.setdefault(mid, set()).add(num)
        continue
    if src != sport or mid == 0:
        continue
    mode, csum, size = want[mid]
    flags = {"noack": (1, 1), "ack": (0, 0), "single-ack": (0, 1)}[mode]
    if (n, s) != flags or c != csum or d != 0:
        errs.append("frame %s id %d (%s): N=%s S=%s C=%s D=%s" % (frame, mid, mode, n, s, c, d))
    if int(length) != size:
        errs.append("frame %s id %d: data length %s, sent %d" % (frame, mid, length, size))
    if amount != max(1, -(-size // P)):
        errs.append("frame %s id %d: %d fragments for %d octets" % (frame, mid, amount, size))
    seen.add(mid)
    if rlen:
        if mid in reasm:
            errs.append("id %d reassembled twice" % mid)
        reasm[mid] = int(rlen)
for mid, (mode, csum, size) in want.items():
    if mid not in seen:
        errs.append("id %d not in the capture" % mid)
    amount = max(1, -(-size // P))
    if amount > 1 and reasm.get(mid) != size:
        errs.append("id %d: reassembled length %s, sent %d" % (mid, reasm.get(mid), size))
    if amount == 1 and mid in reasm:
        errs.append("id %d: one fragment, yet reassembled" % mid)
    want_acks = {"noack": set(), "ack": set(range(amount)), "single-ack": {amount - 1}}[mode]
    if acks.get(mid, set()) != want_acks:
        errs.append("id %d (%s): acks of fragments %s, want %s" % (mid, mode, sorted(acks.get(mid, ())), sorted(want_acks)))
print("\n".join(errs) or "wireshark: %d messages, %d reassembled, all match" % (len(want), len(reasm)))
sys.exit(1 if errs else 0)
