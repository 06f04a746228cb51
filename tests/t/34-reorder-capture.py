#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""34-reorder-capture.py FILE SPORT N: the capture at B (cap_udpcp's JSON lines
in FILE) shows reordering: prints the fragments that arrived after one of a
later message and what the rule of one partial message per source would
have delivered; exits 1 unless all N messages are there, something crossed
and that rule loses messages.
"""
import json
import sys

sport, n = int(sys.argv[2]), int(sys.argv[3])
pkts = [json.loads(l) for l in open(sys.argv[1])]

data = [p for p in pkts if p.get("type") == 1 and p["sport"] == sport and p["id"] > 0]
# Packets that came after a fragment of a later message.
crossed, top = 0, 0
for p in data:
    if p["id"] < top:
        crossed += 1
    top = max(top, p["id"])
# The rule of one partial message per source, replayed on this order.
last, cur, have, old = None, None, set(), 0
for p in data:
    if last is not None and (last - p["id"]) % 0xFFFE < 32767:
        continue
    if p["id"] != cur:
        cur, have = p["id"], set()
    have.add(p["num"])
    if len(have) == p["amount"]:
        old, last, cur, have = old + 1, p["id"], None, set()
ids = {p["id"] for p in data}
print(json.dumps(dict(packets=len(data), messages=len(ids), crossed=crossed,
                      one_partial_rule_delivers=old)))
if len(ids) != n or crossed < 1 or old >= n:
    sys.exit(1)
