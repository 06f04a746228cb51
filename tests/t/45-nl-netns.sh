#!/bin/bash
# Network namespaces are separate worlds: a peer or template added in one
# is invisible in, and cannot be changed or deleted from, another, which
# may add the same one with other parameters; sockets, defaults, counters,
# groups and events are per namespace too.  -n NETNS is the same as
# running inside it.  A namespace holding templates and changed defaults
# is deleted cleanly.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
_ns_add NS_C c
A=$NS_A B=$NS_B C=$NS_C
hold_sock "$A" 0.0.0.0 5000
hold_sock "$B" 0.0.0.0 5000

# Events in B and C, from before anything happens.
mon_start "$B" "$NL_TMP/mon-b"
mon_start "$C" "$NL_TMP/mon-c" -j

echo "# a peer and a template in A"
check "A: peer add" 0 "" "" uctl "$A" peer add "$B4" port 7000 local-port 5000 max-try 2
check "A: template add" 0 "" "" uctl "$A" peer add "$B4" port 8000 mode noack
check "A: two peers" 0 "[[7000,5000],[8000,null]]" "" \
	bash -c "\"\$U\" -n \"$A\" -j peer show | jq -c '[.[] | [.remote_port, .local_port]] | sort'"
for ns in "$B" "$C"; do
	n=${ns##*-}
	check "$n: none" 0 "" "" uctl "$ns" peer show
	check "$n: -j none" 0 "[]" "" uctl "$ns" -j peer show
	check "$n: template invisible" 0 "" "" uctl "$ns" peer show "$B4" port 8000
	check "$n: template change" 2 "" "Error: no such peer" uctl "$ns" peer change "$B4" port 8000 max-try 1
	check "$n: template del" 2 "" "Error: no such peer" uctl "$ns" peer del "$B4" port 8000
done
check "b: peer show (do)" 2 "" "Error: no such peer" uctl "$B" peer show "$B4" port 7000 local-port 5000
check "b: peer change" 2 "" "Error: no such peer" uctl "$B" peer change "$B4" port 7000 local-port 5000 max-try 1
check "b: peer del" 2 "" "Error: no such peer" uctl "$B" peer del "$B4" port 7000 local-port 5000
check "c: no socket" 2 "" "Error: no UDPCP socket is bound there" uctl "$C" peer add "$B4" port 7000 local-port 5000

echo "# the same peer and template in B, with other parameters"
check "B: peer add" 0 "" "" uctl "$B" peer add "$B4" port 7000 local-port 5000 max-try 9
check "B: template add" 0 "" "" uctl "$B" peer add "$B4" port 8000 mode single-ack
check "A: its own params" 0 '[[7000,"ack",2],[8000,"noack",5]]' "" \
	bash -c "\"\$U\" -n \"$A\" -j peer show | jq -c '[.[] | [.remote_port, .mode, .max_try]] | sort'"
check "B: its own params" 0 '[[7000,"ack",9],[8000,"single-ack",5]]' "" \
	bash -c "\"\$U\" -n \"$B\" -j peer show | jq -c '[.[] | [.remote_port, .mode, .max_try]] | sort'"
check "A: del" 0 "" "" uctl "$A" peer del "$B4" port 7000 local-port 5000
check "A: template del" 0 "" "" uctl "$A" peer del "$B4" port 8000
check "B: still both" 0 "[7000,8000]" "" bash -c "\"\$U\" -n \"$B\" -j peer show | jq -c '[.[].remote_port] | sort'"
check "-n is ip netns exec" 0 "$(uctl "$B" -s peer show | sed -E 's/idle [0-9]+/idle N/')" "" \
	bash -c "ip netns exec \"$B\" \"\$U\" -s peer show | sed -E 's/idle [0-9]+/idle N/'"

echo "# sockets, defaults, groups, counters"
check "A: its socket" 0 "[5000]" "" bash -c "\"\$U\" -n \"$A\" -j sock show | jq -c '[.[].local_port]'"
check "C: no socket" 0 "[]" "" uctl "$C" -j sock show
check "cookies differ across namespaces" 0 "2" "" bash -c \
	"{ \"\$U\" -n \"$A\" -j sock show; \"\$U\" -n \"$B\" -j sock show; } | jq -s '[.[][].cookie] | unique | length'"
check "C: defaults set" 0 "" "" uctl "$C" defaults set max-try 1 tx-timeout 7
check "A: defaults untouched" 0 "5 100" "" bash -c "\"\$U\" -n \"$A\" -j defaults | jq -r '\"\\(.max_try) \\(.tx_timeout_ms)\"'"
check "A: group join" 0 "" "" uctl "$A" group join 239.1.1.1 local 5000
check "B: no group" 0 "[]" "" uctl "$B" -j group show
ip netns exec "$A" "$TOOL" send -b "$A4" 7001 -d "$B4" 5000 -n 3 -s 10 >/dev/null || fail "A to B"
check "A: sent" 0 "3 30 0 0" "" bash -c "\"\$U\" -n \"$A\" -j stats | jq -r '\"\\(.tx_msgs) \\(.tx_bytes) \\(.rx_msgs) \\(.rx_bytes)\"'"
check "B: received" 0 "0 0 3 30" "" bash -c "\"\$U\" -n \"$B\" -j stats | jq -r '\"\\(.tx_msgs) \\(.tx_bytes) \\(.rx_msgs) \\(.rx_bytes)\"'"
check "C: nothing" 0 "[0]" "" bash -c "\"\$U\" -n \"$C\" -j stats | jq -c '[.[]] | unique'"
check "B: stats reset" 0 "" "" uctl "$B" stats reset
check "A: not reset" 0 "3" "" bash -c "\"\$U\" -n \"$A\" -j stats | jq .tx_msgs"

echo "# events stay in their namespace"
sleep 1
# B saw its configured peer, the peer the traffic made, both templates
# (no events) and nothing of A's.
check "B's events" 0 "peer-created $B4 port 7000 local 0.0.0.0:5000 state idle flags configured,need-sync
peer-created $A4 port 7001 local 0.0.0.0:5000 state idle flags need-sync" "" cat "$NL_TMP/mon-b"
check "C's events: none" 0 "" "" cat "$NL_TMP/mon-c"

echo "# a namespace with templates and changed defaults goes away cleanly"
check "C: template" 0 "" "" uctl "$C" peer add "$B6" port 1 max-try 3
ip netns del "$C"
check "C is gone" 1 "" "udpcpctl: cannot open network namespace \"$C\": No such file or directory" \
	uctl "$C" peer show
check "A still works" 0 "[]" "" uctl "$A" -j peer show
nl_done
