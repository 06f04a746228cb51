#!/bin/bash
# Big and moving peer dumps.  N = 10000 peers (2000 on the debug kernel;
# IPv4 and IPv6, on one dual-stack socket, max-peers raised to 20000) plus
# three templates: `udpcpctl -j peer show`, its plain output and a raw dump
# resumed in many small rounds each list exactly those N + 3, once each.  Then a raw dump and
# udpcpctl's run while other peers and templates are added and removed
# (thousands, the table growing past its resize threshold): each still
# lists every one of the N + 3 present throughout.
# Closing the socket takes them all away.
# timeout: 175
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
A=$NS_A
N=10000
[ "${UDPCP_DEBUG_KERNEL:-0}" = 1 ] && N=2000

check "max-peers 20000" 0 "" "" uctl "$A" defaults set max-peers 20000
hold_sock "$A" :: 5000 --v6only 0
for p in 1 2; do check "template $p" 0 "" "" uctl "$A" peer add "$B4" port $p; done
check "template 3" 0 "" "" uctl "$A" peer add "$B6" port 3 max-try 1

# The N: 10.0.x.y and 2001:db8:1::x:y, ports 1000 + i % 5000.
cat >"$NL_TMP/peers.py" <<PY
import ipaddress
N = $N
def stable(i):
    a = f"10.0.{i >> 8}.{i & 255}" if i % 2 else f"2001:db8:1::{i >> 8:x}:{i & 255:x}"
    return a, 1000 + i % 5000
def expected():
    keys = {(str(ipaddress.ip_address(a)), p, 5000) for a, p in map(stable, range(N))}
    return keys | {("192.0.2.2", 1, None), ("192.0.2.2", 2, None), ("2001:db8::2", 3, None)}
def verify(name, entries):
    keys = [(e["remote_address"], e["remote_port"], e.get("local_port")) for e in entries]
    want = expected()
    missing = want - set(keys)
    extra = set(keys) - want
    print(f"{name}: {len(keys)} entries, {len(set(keys))} distinct, "
          f"{len(missing)} missing, {len(extra)} unexpected")
PY

echo "# adding $N peers"
t0=$(date +%s%N)
check "batch add" 0 "$N added" "" nl_py "$A" <<'PY'
from nlraw import *
from peers import N, stable
s = Genl()
errs = s.batch(CMD_PEER_NEW, [peer(a, p, 5000) for a, p in map(stable, range(N))])
bad = [e for e in errs if e]
print(f"{len(errs) - len(bad)} added" + (f", {len(bad)} refused: {set(bad)}" if bad else ""))
PY
echo "# ($(( ($(date +%s%N) - t0) / 1000000 )) ms for $N requests in batches of 100)"
check "peer count" 0 "$N" "" bash -c "\"\$U\" -n \"$A\" -j sock show | jq '.[0].peer_count'"

echo "# complete dumps"
t0=$(date +%s%N)
uctl "$A" -j peer show >"$NL_TMP/dump.json" || fail "peer show -j"
echo "# (udpcpctl -j peer show: $(( ($(date +%s%N) - t0) / 1000000 )) ms)"
check "udpcpctl -j: every peer once" 0 "udpcpctl -j: $((N + 3)) entries, $((N + 3)) distinct, 0 missing, 0 unexpected" "" \
	env NL_TMP="$NL_TMP" "$PY" -c '
import json, os, sys
sys.path.insert(0, os.environ["NL_TMP"])
from peers import verify
verify("udpcpctl -j", json.load(open(os.environ["NL_TMP"] + "/dump.json")))'
check "udpcpctl plain: every peer" 0 "$((N + 3))" "" bash -c "\"\$U\" -n \"$A\" peer show | grep -c '^peer '"
t0=$(date +%s%N)
check "raw dump in small rounds" 0 "raw: $((N + 3)) entries, $((N + 3)) distinct, 0 missing, 0 unexpected" "" nl_py "$A" <<'PY'
from nlraw import *
from peers import verify
s = Genl(recv_size=8192)
verify("raw", [dict(zip(("remote_address", "remote_port", "local_port"), k))
               for k in s.dump_peer_keys()])
PY
echo "# (raw dump, 8 KiB rounds: $(( ($(date +%s%N) - t0) / 1000000 )) ms)"

echo "# dumps while peers come and go"
# The churn: other peers (10.1.x.y) added and removed in batches, and
# templates, until told to stop; up to N + 3000 peers in all, past a
# threshold where the table grows (12288 of 16384 buckets; 3072 of 4096 on
# the debug kernel).
touch "$NL_TMP/churn"
nl_py "$A" >"$NL_TMP/churn.out" 2>&1 <<'PY' &
import os, random
from nlraw import *
s = Genl()
flag = os.environ.get("NL_TMP", "") + "/churn"
rounds = ops = 0
live = []
while os.path.exists(flag) or rounds < 2:
    new = [(f"10.1.{(rounds * 7 + k) % 256}.{k % 256}", 2000 + k) for k in range(300)]
    errs = s.batch(CMD_PEER_NEW, [peer(a, p, 5000) for a, p in new], chunk=50)
    live += [x for x, e in zip(new, errs) if e == 0]
    s.request(CMD_PEER_NEW, peer("192.0.2.9", 100 + rounds % 50))
    random.shuffle(live)
    # keep up to 3000 extra peers, remove the rest in random order
    gone, live = live[3000:], live[:3000]
    if rounds % 3 == 2:
        gone, live = gone + live[:1500], live[1500:]
    s.batch(CMD_PEER_DEL, [peer(a, p, 5000) for a, p in gone], chunk=50)
    s.request(CMD_PEER_DEL, peer("192.0.2.9", 100 + rounds % 50))
    ops += len(new) + len(gone) + 2
    rounds += 1
s.batch(CMD_PEER_DEL, [peer(a, p, 5000) for a, p in live], chunk=50)
print(f"churn: {rounds} rounds, {ops + len(live)} changes")
PY
churn=$!
sleep 2
t0=$(date +%s%N)
check "dumps under churn" 0 "raw 1: 0 of $((N + 3)) missing
udpcpctl 1: 0 of $((N + 3)) missing" "" nl_py "$A" <<'PY'
import json, os, subprocess
from nlraw import *
from peers import expected
want = expected()
dups = []
def report(name, keys):
    print(f"{name}: {len(want - set(keys))} of {len(want)} missing")
    dups.append(len(keys) - len(set(keys)))
for r in range(1, 2):
    report(f"raw {r}", Genl(recv_size=8192).dump_peer_keys())
    out = subprocess.run([os.environ["U"], "-j", "peer", "show"], capture_output=True, text=True)
    if out.returncode:
        print(f"udpcpctl {r}: exit {out.returncode}: {out.stderr.strip()}")
        continue
    report(f"udpcpctl {r}", [(e["remote_address"], e["remote_port"], e.get("local_port"))
                             for e in json.loads(out.stdout)])
open(os.environ["NL_TMP"] + "/dups", "w").write(f"# (entries repeated per dump, allowed: {dups})\n")
PY
cat "$NL_TMP/dups"
echo "# ($(( ($(date +%s%N) - t0) / 1000000 )) ms for the dumps under churn)"
rm -f "$NL_TMP/churn"
wait "$churn" || fail "churn: $(cat "$NL_TMP/churn.out")"
cat "$NL_TMP/churn.out"
check "churn left nothing" 0 "$N" "" bash -c "\"\$U\" -n \"$A\" -j sock show | jq '.[0].peer_count'"

echo "# closing the socket removes them"
kill "$HELD_PID"
wait_until 30 '[ "$("$U" -n "$A" -j sock show)" = "[]" ]' || true
check "no socket" 0 "[]" "" uctl "$A" -j sock show
check "only the templates" 0 "[1,2,3]" "" bash -c "\"\$U\" -n \"$A\" -j peer show | jq -c '[.[].remote_port] | sort'"
nl_done
