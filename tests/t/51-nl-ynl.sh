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
check "150 peers" 0 "150" "" nl_pyfile "$A" 51-nl-ynl.py peers
check "template v4" 0 "" "" uctl "$A" peer add "$B4" port 9000 mode single-ack checksum off
check "template v6" 0 "" "" uctl "$A" peer add "$B6" port 9001 outstanding-acks 200
# Traffic: a peer with counters and a last received message ID.
ip netns exec "$NS_B" "$TOOL" send -b "$B4" 6001 -d "$A4" 5000 -n 2 -s 30 >/dev/null || fail "B to A"
check "group" 0 "" "" uctl "$A" group join 239.1.2.3 local 5001

echo "# the ynl CLI's peer dump"
uctl "$A" -j -s peer show >"$NL_TMP/ours.json" || fail "udpcpctl peer show"
ynl_fast "$A" --dump peer-get --output-json --dbg-small-recv >"$NL_TMP/ynl.json" 2>"$NL_TMP/ynl.err" ||
	fail "ynl --dump peer-get: $(cat "$NL_TMP/ynl.err")"
rounds=$(grep -c '^Recv: read' "$NL_TMP/ynl.err" || true)
echo "# (ynl read the dump in $rounds receives)"
check_eq "ynl needed many receives" 1 "$((rounds > 5))"
check "peer dump: ynl CLI = udpcpctl" 0 "peers: 153 agree" "" \
	py_run 51-nl-ynl.py compare-peers "$NL_TMP"
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
groups: 1 agree" "" ynl_pyfile "$A" 51-nl-ynl.py compare-rest "$NL_TMP"

echo "# peers written through ynl"
check "ynl: new, set, new template, del" 0 "ok ok ok ok" "" ynl_pyfile "$A" 51-nl-ynl.py write
check "udpcpctl sees them" 0 "peer $B4 port 7777 local $A4:5001 state idle flags configured,need-sync
    mode noack checksum on tx-timeout 100 rx-timeout 4321 max-try 3 outstanding-acks 8
peer $B6 port 7778 state configured flags configured
    mode ack checksum off tx-timeout 100 rx-timeout 1000 max-try 5 outstanding-acks 8" "" \
	bash -c "{ \"\$U\" -n \"$A\" peer show $B4 port 7777 local-port 5001 | head -n2; \"\$U\" -n \"$A\" peer show $B6 port 7778; }"
check "template 9001 gone" 0 "" "" uctl "$A" peer show "$B6" port 9001
nl_done
