#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tests/t/51-nl-ynl.sh's Python, in the namespace it runs in:

    51-nl-ynl.py peers               150 peers of every kind (raw netlink):
                                     prints how many were added
    51-nl-ynl.py compare-peers DIR   DIR/ours.json (udpcpctl -j -s peer show)
                                     against DIR/ynl.json (the ynl CLI's dump)
    51-nl-ynl.py compare-rest DIR    DIR/ours-{sock,defaults,stats,group}.json
                                     against the ynl library's answers
    51-nl-ynl.py write               peers written through the ynl library:
                                     new, set, new template, del

compare-* print "WHAT: N agree" or the differences.  The ynl library
(`lib`) comes from the kernel's tools/net/ynl on PYTHONPATH, SPEC from the
environment (nl.sh's ynl_pyfile); YnlFamily(SPEC, "") skips the schema
validation (seconds under TCG).
"""
import json
import os
import sys

from nlraw import CMD_PEER_NEW, PARAMS_MAX_TRIES, PARAMS_TX_TIMEOUT, Genl, peer, u8, u32

# Both sides in udpcpctl's JSON terms, sorted, without idle_ms (it moves).
PARAMS = {"transfer-mode": "mode", "checksum": "checksum", "tx-timeout": "tx_timeout_ms",
          "rx-timeout": "rx_timeout_ms", "max-tries": "max_try",
          "outstanding-acks": "outstanding_acks"}
def params(p):
    out = {PARAMS[k]: v for k, v in p.items()}
    if "checksum" in out:
        out["checksum"] = bool(out["checksum"])
    return out
def stats(st):
    return {k.replace("-", "_"): v for k, v in st.items()}
def addr(d, pre):
    return d.get(pre + "ipv4", d.get(pre + "ipv6"))
def ynl_peer(p):
    out = {"remote_address": addr(p, "remote-"), "remote_port": p["remote-port"]}
    if "sock" in p:
        out.update(local_address=addr(p["sock"], "local-"), local_port=p["sock"]["local-port"])
    out.update(state=p["state"], flags=sorted(p["flags"]), **params(p["params"]))
    for k in ("next-msg-id", "last-rx-msg-id", "rtt-us"):
        if k in p:
            out[k.replace("-", "_")] = p[k]
    if "stats" in p:
        out["stats"] = stats(p["stats"])
    return out
def ynl_sock(s):
    out = {"family": {2: "inet", 10: "inet6"}[s["family"]],
           "local_address": addr(s, "local-"), "local_port": s["local-port"],
           "peer_count": s["peer-count"], "uid": s["uid"], "inode": s["inode"],
           "cookie": s["cookie"], **params(s["params"]), "stats": stats(s["stats"])}
    for k in ("rx-queue-msgs", "rx-queue-bytes", "tx-queue-msgs", "tx-queue-bytes",
              "rx-partial-mem"):
        out[k.replace("-", "_")] = s[k]
    return out
def ynl_group(g):
    return {"group": addr(g, ""), "ifindex": g["ifindex"],
            "local_address": addr(g["sock"], "local-"), "local_port": g["sock"]["local-port"]}
def udpcpctl(o):
    o.pop("idle_ms", None)
    o.pop("dev", None)
    o.pop("users", None)        # udpcpctl's, from /proc, not netlink
    if "flags" in o:
        o["flags"] = sorted(o["flags"])
    return o
def canon(items):
    return sorted(json.dumps(i, sort_keys=True) for i in items)
def compare(what, ours, theirs):
    a, b = canon(map(udpcpctl, ours)), canon(theirs)
    if a == b:
        print(f"{what}: {len(a)} agree")
    else:
        print(f"{what}: udpcpctl {len(a)}, ynl {len(b)}")
        for x in sorted(set(a) ^ set(b))[:6]:
            print(("  udpcpctl only: " if x in a else "  ynl only: ") + x)


def add_peers():
    s = Genl()
    reqs = [peer(f"10.0.0.{i}" if i % 2 else f"2001:db8:5::{i:x}", 1000 + i,
                 5000 if i % 3 else 5001 if i % 2 else 5000,
                 [u8(PARAMS_MAX_TRIES, 1 + i % 10), u32(PARAMS_TX_TIMEOUT, 10 * i + 1)] if i % 5 else None)
            for i in range(1, 151)]
    print(sum(1 for e in s.batch(CMD_PEER_NEW, reqs) if e == 0))


def load(path):
    with open(path) as f:
        return json.load(f)


def compare_peers(t):
    compare("peers", load(t + "/ours.json"), [ynl_peer(m["peer"]) for m in load(t + "/ynl.json")])


def ynl_family():
    from lib import YnlFamily
    return YnlFamily(os.environ["SPEC"], "")


def compare_rest(t):
    ynl = ynl_family()

    def ours(w):
        return load(f"{t}/ours-{w}.json")

    # Counters and peer counts are equal: nothing moves meanwhile.
    compare("socks", ours("sock"), [ynl_sock(m["sock"]) for m in ynl.dump("sock-get", {})])
    d = ynl.do("defaults-get", {})["defaults"]
    compare("defaults", [ours("defaults")],
            [dict(params(d["params"]), max_peers=d["max-peers"], peer_expiry_ms=d["peer-expiry"])])
    compare("stats", [ours("stats")], [stats(ynl.do("stats-get", {})["stats"])])
    compare("groups", ours("group"), [ynl_group(m["group"]) for m in ynl.dump("group-get", {})])


def write():
    ynl = ynl_family()
    r = []

    def do(op, req):
        ynl.do(op, req)                      # raises NlError if refused
        return "ok"

    r.append(do("peer-new", {"peer": {"remote-ipv4": "c0000202", "remote-port": 7777,
                                      "sock": {"local-port": 5001},
                                      "params": {"transfer-mode": "noack", "max-tries": 3}}}))
    r.append(do("peer-set", {"peer": {"remote-ipv4": "c0000202", "remote-port": 7777,
                                      "sock": {"local-ipv4": "c0000201", "local-port": 5001},
                                      "params": {"rx-timeout": 4321}}}))
    r.append(do("peer-new", {"peer": {"remote-ipv6": "20010db8000000000000000000000002",
                                      "remote-port": 7778, "params": {"checksum": 0}}}))
    r.append(do("peer-del", {"peer": {"remote-ipv6": "20010db8000000000000000000000002",
                                      "remote-port": 9001}}))
    print(" ".join(r))


COMMANDS = {"peers": add_peers, "compare-peers": compare_peers, "compare-rest": compare_rest,
            "write": write}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](*sys.argv[2:])
