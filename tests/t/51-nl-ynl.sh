#!/bin/bash
# The kernel's ynl tools with our spec against the real module: the ynl
# CLI's peer dump (forced into many small receives) lists the same 153
# peers and templates as udpcpctl -j -s peer show, value for value
# (addresses, sockets, state, flags, parameters, message IDs, RTT,
# counters); the library's sock, defaults, stats and group answers agree
# with udpcpctl's too; and peers written through ynl (new, set, del) are
# what udpcpctl then shows.
# timeout: 150
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
A=$NS_A
hold_sock "$A" :: 5000 --v6only 0
hold_sock "$A" "$A4" 5001

echo "# peers of every kind"
check "150 peers" 0 "150" "" nl_py "$A" <<'PY'
from nlraw import *
s = Genl()
reqs = [peer(f"10.0.0.{i}" if i % 2 else f"2001:db8:5::{i:x}", 1000 + i, 5000 if i % 3 else 5001 if i % 2 else 5000,
             [u8(PARAMS_MAX_TRIES, 1 + i % 10), u32(PARAMS_TX_TIMEOUT, 10 * i + 1)] if i % 5 else None)
        for i in range(1, 151)]
print(sum(1 for e in s.batch(CMD_PEER_NEW, reqs) if e == 0))
PY
check "template v4" 0 "" "" uctl "$A" peer add "$B4" port 9000 mode single-ack checksum off
check "template v6" 0 "" "" uctl "$A" peer add "$B6" port 9001 outstanding-acks 200
# Traffic: a peer with counters and a last received message ID.
ip netns exec "$NS_B" "$TOOL" send -b "$B4" 6001 -d "$A4" 5000 -n 2 -s 30 >/dev/null || fail "B to A"
check "group" 0 "" "" uctl "$A" group join 239.1.2.3 local 5001

# Both sides in udpcpctl's JSON terms, sorted, without idle_ms (it moves).
cat >"$NL_TMP/canon.py" <<'PY'
import json, sys
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
PY

echo "# the ynl CLI's peer dump"
uctl "$A" -j -s peer show >"$NL_TMP/ours.json" || fail "udpcpctl peer show"
ynl_fast "$A" --dump peer-get --output-json --dbg-small-recv >"$NL_TMP/ynl.json" 2>"$NL_TMP/ynl.err" ||
	fail "ynl --dump peer-get: $(cat "$NL_TMP/ynl.err")"
rounds=$(grep -c '^Recv: read' "$NL_TMP/ynl.err" || true)
echo "# (ynl read the dump in $rounds receives)"
check_eq "ynl needed many receives" 1 "$((rounds > 5))"
check "peer dump: ynl CLI = udpcpctl" 0 "peers: 153 agree" "" \
	env PYTHONPATH="$NL_TMP" "$PY" -c '
import json, os
from canon import *
t = os.environ["NL_TMP"]
compare("peers", json.load(open(t + "/ours.json")), [ynl_peer(m["peer"]) for m in json.load(open(t + "/ynl.json"))])'
check "what the traffic left" 0 '[2,2,60]' "" \
	jq -c '.[] | select(.remote_port == 6001) | [.last_rx_msg_id, .stats.rx_msgs, .stats.rx_bytes]' "$NL_TMP/ours.json"

echo "# sock, defaults, stats, groups: the ynl library = udpcpctl"
for w in "-j -s sock" "-j defaults" "-j stats" "-j group"; do
	# shellcheck disable=SC2086
	uctl "$A" $w show >"$NL_TMP/ours-${w##* }.json" || fail "udpcpctl $w"
done
check "the rest" 0 "socks: 2 agree
defaults: 1 agree
stats: 1 agree
groups: 1 agree" "" ynl_py "$A" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["NL_TMP"])
from canon import *
from lib import YnlFamily
ynl = YnlFamily(os.environ["SPEC"], "")
t = os.environ["NL_TMP"]
ours = lambda w: json.load(open(f"{t}/ours-{w}.json"))
# Counters and peer counts are equal: nothing moves meanwhile.
compare("socks", ours("sock"), [ynl_sock(m["sock"]) for m in ynl.dump("sock-get", {})])
d = ynl.do("defaults-get", {})["defaults"]
compare("defaults", [ours("defaults")],
        [dict(params(d["params"]), max_peers=d["max-peers"], peer_expiry_ms=d["peer-expiry"])])
compare("stats", [ours("stats")], [stats(ynl.do("stats-get", {})["stats"])])
compare("groups", ours("group"), [ynl_group(m["group"]) for m in ynl.dump("group-get", {})])
PY

echo "# peers written through ynl"
check "ynl: new, set, new template, del" 0 "ok ok ok ok" "" ynl_py "$A" <<'PY'
import os
from lib import YnlFamily
ynl = YnlFamily(os.environ["SPEC"], "")
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
PY
check "udpcpctl sees them" 0 "peer $B4 port 7777 local $A4:5001 state idle flags configured,need-sync
    mode noack checksum on tx-timeout 100 rx-timeout 4321 max-try 3 outstanding-acks 8
peer $B6 port 7778 state configured flags configured
    mode ack checksum off tx-timeout 100 rx-timeout 1000 max-try 5 outstanding-acks 8" "" \
	bash -c "{ \"\$U\" -n \"$A\" peer show $B4 port 7777 local-port 5001 | head -n2; \"\$U\" -n \"$A\" peer show $B6 port 7778; }"
check "template 9001 gone" 0 "" "" uctl "$A" peer show "$B6" port 9001
nl_done
