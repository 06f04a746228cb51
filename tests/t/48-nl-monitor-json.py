#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tests/t/48-nl-monitor.sh's checks of the monitors' JSON output:

    48-nl-monitor-json.py keys FILE           every line of FILE (udpcpctl -j
                                              -s monitor) has every peer key:
                                              "N lines, all with KEYS"
    48-nl-monitor-json.py times FILE T0 T1    every line of FILE (-t -j) has a
                                              UTC timestamp within [T0 - 1,
                                              T1 + 1], in order: "N ok"
"""
import datetime
import json
import sys


def keys(path):
    lines = open(path).read().splitlines()
    keys = "remote_address remote_port local_address local_port state flags mode checksum tx_timeout_ms rx_timeout_ms max_try outstanding_acks next_msg_id idle_ms rtt_us stats".split()
    ok = all(all(k in json.loads(l) for k in keys) for l in lines)
    print("%d lines, %s with %s" % (len(lines), "all" if ok else "not all", " ".join(keys)))


def times(path, t0, t1):
    lines = open(path).read().splitlines()
    ts = [datetime.datetime.fromisoformat(json.loads(l)["timestamp"].replace("Z", "+00:00")).timestamp() for l in lines]
    ok = all(float(t0) - 1 <= t <= float(t1) + 1 for t in ts) and ts == sorted(ts)
    print(len(ts), "ok" if ok else "bad: %s" % ts)


if __name__ == "__main__":
    {"keys": keys, "times": times}[sys.argv[1]](*sys.argv[2:])
