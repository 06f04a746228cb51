#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""28-opts-inflight.py < CAPJSON: from a capture at the sender (cap_udpcp's
JSON lines), the most data fragments ever sent and not yet acked at once.
"""
import json
import sys

out, peak = set(), 0
for p in map(json.loads, sys.stdin):
    if p.get("id", 0) == 0:
        continue
    if p["type"] == 1:
        out.add(p["num"])
    else:
        out.discard(p["num"])
    peak = max(peak, len(out))
print(peak)
