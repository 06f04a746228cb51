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

# The N: 10.0.x.y and 2001:db8:1::x:y, ports 1000 + i % 5000 (46-nl-dump.py).

echo "# adding $N peers"
t0=$(date +%s%N)
check "batch add" 0 "$N added" "" nl_pyfile "$A" 46-nl-dump.py add "$N"
echo "# ($(( ($(date +%s%N) - t0) / 1000000 )) ms for $N requests in batches of 100)"
check "peer count" 0 "$N" "" bash -c "\"\$U\" -n \"$A\" -j sock show | jq '.[0].peer_count'"

echo "# complete dumps"
t0=$(date +%s%N)
uctl "$A" -j peer show >"$NL_TMP/dump.json" || fail "peer show -j"
echo "# (udpcpctl -j peer show: $(( ($(date +%s%N) - t0) / 1000000 )) ms)"
check "udpcpctl -j: every peer once" 0 "udpcpctl -j: $((N + 3)) entries, $((N + 3)) distinct, 0 missing, 0 unexpected" "" \
	py_run 46-nl-dump.py verify "$N" "$NL_TMP/dump.json"
check "udpcpctl plain: every peer" 0 "$((N + 3))" "" bash -c "\"\$U\" -n \"$A\" peer show | grep -c '^peer '"
t0=$(date +%s%N)
check "raw dump in small rounds" 0 "raw: $((N + 3)) entries, $((N + 3)) distinct, 0 missing, 0 unexpected" "" \
	nl_pyfile "$A" 46-nl-dump.py dump "$N"
echo "# (raw dump, 8 KiB rounds: $(( ($(date +%s%N) - t0) / 1000000 )) ms)"

echo "# dumps while peers come and go"
# The churn: other peers (10.1.x.y) added and removed in batches, and
# templates, until told to stop; up to N + 3000 peers in all, past a
# threshold where the table grows (12288 of 16384 buckets; 3072 of 4096 on
# the debug kernel).
touch "$NL_TMP/churn"
nl_pyfile "$A" 46-nl-dump.py churn "$NL_TMP/churn" >"$NL_TMP/churn.out" 2>&1 &
churn=$!
sleep 2
t0=$(date +%s%N)
check "dumps under churn" 0 "raw 1: 0 of $((N + 3)) missing
udpcpctl 1: 0 of $((N + 3)) missing" "" nl_pyfile "$A" 46-nl-dump.py churn-dumps "$N" "$NL_TMP/dups"
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
