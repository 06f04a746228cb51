#!/bin/bash
# Peers through the real module, as pm_netlink.sh does endpoints: add,
# show, change, del round trips with exact output and status, for peers of
# a socket (local-port, local ADDR:PORT, IPv4, IPv6, dual stack) and for
# namespace templates (no local); EEXIST "peer already exists", ENOENT
# "no such peer", the socket selection errors and family mismatches; a
# template applies to peers traffic creates (present or future), follows
# its changes, leaves them when deleted (keeping what "peer change" set on
# the peer itself), and never touches a peer added on its socket.
# timeout: 150
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
export A=$NS_A
hold_sock "$A" 0.0.0.0 5000
hold_sock "$A" "$A6" 6000 --v6only 1
hold_sock "$A" :: 6001 --v6only 0
hold_sock "$A" "$A4" 5002
hold_sock "$A" 127.0.0.1 5002

DP="    mode ack checksum on tx-timeout 100 rx-timeout 1000 max-try 5 outstanding-acks 8"
NEW="    next-msg-id 1 idle Nms rtt 0us"
# show ARGS...: peer show with the idle time (which moves) masked.
show() { "$U" -n "$A" "$@" | sed -E 's/ idle [0-9]+ms/ idle Nms/'; }

echo "# a socket's peer: add, show, change, del"
check "add" 0 "" "" uctl "$A" peer add "$B4" port 7000 local-port 5000
P7000="peer $B4 port 7000 local 0.0.0.0:5000 state idle flags configured,need-sync
$DP
$NEW"
check "show one (do)" 0 "$P7000" "" show peer show "$B4" port 7000 local-port 5000
check "show one, local ADDR:PORT (wildcard socket)" 0 "$P7000" "" \
	show peer show "$B4" port 7000 local "$A4:5000"
check "show all" 0 "$P7000" "" show peer show
check "peer (no command)" 0 "$P7000" "" show peer
check "add again" 2 "" "Error: peer already exists" uctl "$A" peer add "$B4" port 7000 local-port 5000
check "add again with params" 2 "" "Error: peer already exists" \
	uctl "$A" peer add "$B4" port 7000 local-port 5000 max-try 2
check "change max-try" 0 "" "" uctl "$A" peer change "$B4" port 7000 local-port 5000 max-try 2
check "show changed" 0 "${P7000/max-try 5/max-try 2}" "" show peer show "$B4" port 7000 local-port 5000
check "change nothing" 0 "" "" uctl "$A" peer change "$B4" port 7000 local-port 5000
check "change the rest" 0 "" "" uctl "$A" peer change "$B4" port 7000 local-port 5000 \
	mode noack checksum off tx-timeout 1 rx-timeout 60000 outstanding-acks 255
check "show the rest" 0 "peer $B4 port 7000 local 0.0.0.0:5000 state idle flags configured,need-sync
    mode noack checksum off tx-timeout 1 rx-timeout 60000 max-try 2 outstanding-acks 255
$NEW" "" show peer show "$B4" port 7000 local-port 5000
check "-j show one" 0 "{\"remote_address\":\"$B4\",\"remote_port\":7000,\"local_address\":\"0.0.0.0\",\"local_port\":5000,\"state\":\"idle\",\"flags\":[\"configured\",\"need-sync\"],\"mode\":\"noack\",\"checksum\":false,\"tx_timeout_ms\":1,\"rx_timeout_ms\":60000,\"max_try\":2,\"outstanding_acks\":255,\"next_msg_id\":1,\"rtt_us\":0}" "" \
	bash -c "\"\$U\" -n \"$A\" -j peer show $B4 port 7000 local-port 5000 | jq -c '.[0] | del(.idle_ms)'"
check "del" 0 "" "" uctl "$A" peer del "$B4" port 7000 local-port 5000
check "show after del" 0 "" "" uctl "$A" peer show
check "-j show after del" 0 "[]" "" uctl "$A" -j peer show
check "show one after del" 2 "" "Error: no such peer" uctl "$A" peer show "$B4" port 7000 local-port 5000
check "del again" 2 "" "Error: no such peer" uctl "$A" peer del "$B4" port 7000 local-port 5000
check "change after del" 2 "" "Error: no such peer" \
	uctl "$A" peer change "$B4" port 7000 local-port 5000 max-try 3

echo "# params at add, both families, every way to name the socket"
check "add with every param" 0 "" "" uctl "$A" peer add "$B4" port 7001 local "$A4:5000" \
	mode single-ack checksum off tx-timeout 60000 rx-timeout 1 max-try 10 outstanding-acks 1
check "add IPv6 (local [ADDR]:PORT)" 0 "" "" uctl "$A" peer add "$B6" port 7002 local "[$A6]:6000" max-try 1
check "add IPv4 on dual stack" 0 "" "" uctl "$A" peer add "$B4" port 7003 local-port 6001 tx-timeout 7
check "add IPv6 on dual stack, wildcard matched" 0 "" "" \
	uctl "$A" peer add "$B6" port 7003 local "[$A6]:6001"
check "same remote, other socket" 0 "" "" uctl "$A" peer add "$B4" port 7003 local-port 5000
check "show all" 0 "peer $B4 port 7001 local 0.0.0.0:5000 state idle flags configured,need-sync
    mode single-ack checksum off tx-timeout 60000 rx-timeout 1 max-try 10 outstanding-acks 1
$NEW
peer $B6 port 7002 local [$A6]:6000 state idle flags configured,need-sync
    mode ack checksum on tx-timeout 100 rx-timeout 1000 max-try 1 outstanding-acks 8
$NEW
peer $B4 port 7003 local 0.0.0.0:5000 state idle flags configured,need-sync
$DP
$NEW
peer $B4 port 7003 local [::]:6001 state idle flags configured,need-sync
    mode ack checksum on tx-timeout 7 rx-timeout 1000 max-try 5 outstanding-acks 8
$NEW
peer $B6 port 7003 local [::]:6001 state idle flags configured,need-sync
$DP
$NEW" "" bash -c "$(declare -f show); show peer show | paste - - - | sort -t' ' -k4,4 -k2,2 | tr '\t' '\n'"
check "filter by address" 0 "7001 7003 7003" "" \
	bash -c "\"\$U\" -n \"$A\" -j peer show $B4 | jq -r '[.[].remote_port] | sort | map(tostring) | join(\" \")'"
check "filter by port" 0 "$B4 $B4 $B6" "" \
	bash -c "\"\$U\" -n \"$A\" -j peer show port 7003 | jq -r '[.[].remote_address] | sort | join(\" \")'"
check "filter by socket" 0 "7001 7003" "" \
	bash -c "\"\$U\" -n \"$A\" -j peer show local-port 5000 | jq -r '[.[].remote_port] | sort | map(tostring) | join(\" \")'"
check "filter by all, IPv6 (do)" 0 "peer $B6 port 7003 local [::]:6001 state idle flags configured,need-sync" "" \
	bash -c "\"\$U\" -n \"$A\" peer show $B6 port 7003 local-port 6001 | head -n1"
# ::ffff:a.b.c.d is the IPv4 address a.b.c.d.
check "v4-mapped is the IPv4 peer" 2 "" "Error: peer already exists" \
	uctl "$A" peer add "::ffff:$B4" port 7003 local-port 6001
check "del v4-mapped" 0 "" "" uctl "$A" peer del "::ffff:$B4" port 7003 local-port 6001
check "gone as IPv4" 2 "" "Error: no such peer" uctl "$A" peer show "$B4" port 7003 local-port 6001
check "show filter: v4-mapped is IPv4" 0 "[[7001,5000],[7003,5000]]" "" \
	bash -c "\"\$U\" -n \"$A\" -j peer show ::ffff:$B4 | jq -c '[.[] | [.remote_port, .local_port]] | sort'"

echo "# selecting the socket"
check "two sockets on 5002" 2 "" "Error: more than one socket matches: give the local address" \
	uctl "$A" peer add "$B4" port 1 local-port 5002
check "the one on A4" 0 "" "" uctl "$A" peer add "$B4" port 1 local "$A4:5002"
check "the one on 127.0.0.1" 0 "" "" uctl "$A" peer add "$B4" port 1 local 127.0.0.1:5002
check "both there" 0 "127.0.0.1 $A4" "" \
	bash -c "\"\$U\" -n \"$A\" -j peer show port 1 | jq -r '[.[].local_address] | sort | join(\" \")'"
check "del ambiguous" 2 "" "Error: more than one socket matches: give the local address" \
	uctl "$A" peer del "$B4" port 1 local-port 5002
check "no socket there" 2 "" "Error: no UDPCP socket is bound there" \
	uctl "$A" peer add "$B4" port 1 local-port 5999
check "no socket at that address" 2 "" "Error: no UDPCP socket is bound there" \
	uctl "$A" peer add "$B4" port 1 local "$B4:5002"
check "IPv6 peer, IPv4 socket" 2 "" "Error: an IPv4 socket cannot reach an IPv6 peer" \
	uctl "$A" peer add "$B6" port 1 local-port 5000
check "IPv4 peer, IPv6-only socket" 2 "" "Error: an IPv6-only socket cannot reach an IPv4 peer" \
	uctl "$A" peer add "$B4" port 1 local-port 6000
check "IPv4 local, IPv6 socket" 2 "" "Error: no UDPCP socket is bound there" \
	uctl "$A" peer add "$B6" port 1 local "$A4:6000"

echo "# namespace templates"
check "template add" 0 "" "" uctl "$A" peer add "$B4" port 8000 mode noack max-try 2
check "template IPv6" 0 "" "" uctl "$A" peer add "$B6" port 8000
check "template dup" 2 "" "Error: peer already exists" uctl "$A" peer add "$B4" port 8000
T8000="peer $B4 port 8000 state configured flags configured
    mode noack checksum on tx-timeout 100 rx-timeout 1000 max-try 2 outstanding-acks 8"
T8000v6="peer $B6 port 8000 state configured flags configured
$DP"
check "template show" 0 "$T8000" "" uctl "$A" peer show "$B4" port 8000
check "template show IPv6" 0 "$T8000v6" "" uctl "$A" peer show "$B6" port 8000
check "-j template" 0 "[{\"remote_address\":\"$B4\",\"remote_port\":8000,\"state\":\"configured\",\"flags\":[\"configured\"],\"mode\":\"noack\",\"checksum\":true,\"tx_timeout_ms\":100,\"rx_timeout_ms\":1000,\"max_try\":2,\"outstanding_acks\":8}]" "" \
	uctl "$A" -j peer show "$B4" port 8000
check "template change" 0 "" "" uctl "$A" peer change "$B4" port 8000 max-try 4 checksum off
check "template changed" 0 "${T8000/checksum on tx-timeout 100 rx-timeout 1000 max-try 2/checksum off tx-timeout 100 rx-timeout 1000 max-try 4}" "" \
	uctl "$A" peer show "$B4" port 8000
# Its unset params are the namespace defaults of the moment.
check "defaults set tx-timeout 300" 0 "" "" uctl "$A" defaults set tx-timeout 300
check "template follows defaults" 0 "${T8000v6/tx-timeout 100/tx-timeout 300}" "" uctl "$A" peer show "$B6" port 8000
check "defaults back" 0 "" "" uctl "$A" defaults set tx-timeout 100
check "template del" 0 "" "" uctl "$A" peer del "$B4" port 8000
check "template del again" 2 "" "Error: no such peer" uctl "$A" peer del "$B4" port 8000
check "template change, none" 2 "" "Error: no such peer" uctl "$A" peer change "$B4" port 8000 max-try 1
check "template del IPv6" 0 "" "" uctl "$A" peer del "$B6" port 8000
check "templates gone" 0 "" "" bash -c "\"\$U\" -n \"$A\" peer show port 8000"

echo "# a template applies to peers created by traffic"
check "template 8001" 0 "" "" uctl "$A" peer add "$B4" port 8001 max-try 7 tx-timeout 42
check "socket's own peer at 8002" 0 "" "" uctl "$A" peer add "$B4" port 8002 local-port 5000 max-try 3
for p in 8001 8002 8003; do
	ip netns exec "$NS_B" "$TOOL" send -b "$B4" $p -d "$A4" 5000 >/dev/null ||
		fail "send from $B4 port $p"
done
# params of the peers of socket 5000 from ports 8001-8003, and flags
pp() {
	"$U" -n "$A" -j peer show local-port 5000 | jq -c '[.[] | select(.remote_port >= 8001) |
		[.remote_port, (.flags | join(",")), .tx_timeout_ms, .max_try]] | sort | .[]'
}
check "traffic peers" 0 '[8001,"need-sync",42,7]
[8002,"configured,need-sync",100,3]
[8003,"need-sync",100,5]' "" pp
# The administrator's own change of a peer traffic made (rx-timeout, here)
# stays when a template comes and goes; what the template set goes with it.
check "peer change of a traffic peer" 0 "" "" uctl "$A" peer change "$B4" port 8003 local-port 5000 rx-timeout 777
check "template added later" 0 "" "" uctl "$A" peer add "$B4" port 8003 outstanding-acks 3 max-try 9
check "template on 8002" 0 "" "" uctl "$A" peer add "$B4" port 8002 max-try 8 tx-timeout 8
check "template change" 0 "" "" uctl "$A" peer change "$B4" port 8001 max-try 1
check "peers follow" 0 '[8001,"need-sync",42,1]
[8002,"configured,need-sync",100,3]
[8003,"need-sync",100,9]' "" pp
check "outstanding-acks from the later template, rx-timeout its own" 0 "3 777" "" \
	bash -c "\"\$U\" -n \"$A\" -j peer show $B4 port 8003 local-port 5000 | jq -r '.[0] | \"\\(.outstanding_acks) \\(.rx_timeout_ms)\"'"
check "template 8001 del" 0 "" "" uctl "$A" peer del "$B4" port 8001
check "template 8003 del" 0 "" "" uctl "$A" peer del "$B4" port 8003
check "back to the socket's" 0 '[8001,"need-sync",100,5]
[8002,"configured,need-sync",100,3]
[8003,"need-sync",100,5]' "" pp
check "a peer's last-rx-msg-id; its own rx-timeout stayed" 0 "peer $B4 port 8003 local 0.0.0.0:5000 state idle flags need-sync
    mode ack checksum on tx-timeout 100 rx-timeout 777 max-try 5 outstanding-acks 8
    next-msg-id 1 last-rx-msg-id 1 idle Nms rtt 0us" "" show peer show "$B4" port 8003 local-port 5000
check "template 8002 still there" 0 '{"remote_address":"192.0.2.2","remote_port":8002,"state":"configured","flags":["configured"],"mode":"ack","checksum":true,"tx_timeout_ms":8,"rx_timeout_ms":1000,"max_try":8,"outstanding_acks":8}' "" \
	bash -c "\"\$U\" -n \"$A\" -j peer show port 8002 | jq -c '.[] | select(.local_port == null)'"
nl_done
