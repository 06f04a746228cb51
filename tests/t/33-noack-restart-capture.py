#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""33-noack-restart-capture.py CAPJSON SPORT N: the capture at B after A's restart
(cap_udpcp's JSON lines) shows A's sync first, B's ack of it, then data
IDs 1..N, all N=1.  Prints a summary, or exits with what is wrong.
"""
import json
import sys

pkts = [json.loads(l) for l in open(sys.argv[1])]
sport, n = int(sys.argv[2]), int(sys.argv[3])

pkts.sort(key=lambda p: p["ts"])
errs = [p for p in pkts if "error" in p]
if errs:
    sys.exit("undecodable: %s" % errs[:2])
mine = [p for p in pkts if (p["sport"] == sport and p["type"] == 1) or (p["dport"] == sport and p["type"] == 2)]
first = mine[0] if mine else None
if not first or first["type"] != 1 or first["id"] != 0 or first["n"] != 0:
    sys.exit("first packet from A is not a sync: %s" % first)
ack = next((i for i, p in enumerate(mine) if p["type"] == 2 and p["id"] == 0), None)
data = [i for i, p in enumerate(mine) if p["type"] == 1 and p["id"] > 0]
if ack is None:
    sys.exit("B never acked the sync")
if not data or data[0] < ack:
    sys.exit("data before the sync's ack: %s" % mine[:4])
ids = sorted({mine[i]["id"] for i in data})
if ids != list(range(1, n + 1)):
    sys.exit("data IDs %s..%s (%d), want 1..%d" % (ids[:1], ids[-1:], len(ids), n))
if any(mine[i]["n"] != 1 for i in data):
    sys.exit("a data packet without N=1")
syncs = sum(1 for p in mine if p["type"] == 1 and p["id"] == 0)
print("capture: sync (ID 0, N=0) at %.3f, its ack at %.3f, first data (ID %d) at %.3f; "
      "%d syncs, %d data packets, IDs 1..%d" %
      (first["ts"], mine[ack]["ts"], mine[data[0]]["id"], mine[data[0]]["ts"], syncs, len(data), ids[-1]))
