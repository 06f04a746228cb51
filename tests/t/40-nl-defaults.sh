#!/bin/bash
# Namespace defaults through the real module: show (plain and JSON), every
# attribute set at its bounds and read back; one past refused by udpcpctl
# locally (exit 1, nothing sent) and, sent anyway through ynl, by the
# kernel's policy (ERANGE, the extack naming the attribute and its range);
# a request with one bad attribute changes nothing; plain output is valid
# input; new sockets (not old ones) take the defaults, through netlink and
# getsockopt; max-peers and peer-expiry act.
# timeout: 150
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
A=$NS_A

DEF="mode ack checksum on tx-timeout 100 rx-timeout 1000 max-try 5 outstanding-acks 8 max-peers 1024 peer-expiry 300000"
DEFJ='{"mode":"ack","checksum":true,"tx_timeout_ms":100,"rx_timeout_ms":1000,"max_try":5,"outstanding_acks":8,"max_peers":1024,"peer_expiry_ms":300000}'

echo "# show"
check "defaults show" 0 "$DEF" "" uctl "$A" defaults show
check "defaults (no command)" 0 "$DEF" "" uctl "$A" defaults
check "-j defaults show" 0 "$DEFJ" "" uctl "$A" -j defaults show
check "-j -p defaults" 0 "$(jq . <<<"$DEFJ" | sed 's/^  /    /')" "" uctl "$A" -j -p defaults

# The socket made before any change keeps the original defaults.
hold_sock "$A" 0.0.0.0 5000

echo "# every attribute at its bounds, read back"
# set_get WORD VALUE: set one default, expect only that word changed.
cur=$DEF
set_get() {
	local word=$1 val=$2
	check "set $word $val" 0 "" "" uctl "$A" defaults set "$word" "$val"
	cur=$(sed -E "s/(^| )$word [^ ]+/\1$word $val/" <<<"$cur")
	check "show after $word $val" 0 "$cur" "" uctl "$A" defaults show
}
for v in noack single-ack ack; do set_get mode "$v"; done
for v in off on; do set_get checksum "$v"; done
for w in tx-timeout rx-timeout; do
	set_get "$w" 1
	set_get "$w" 60000
done
set_get max-try 1
set_get max-try 10
set_get outstanding-acks 1
set_get outstanding-acks 255
set_get max-peers 1
set_get max-peers 1000000
set_get peer-expiry 1000
set_get peer-expiry 86400000
check "-j after the bounds" 0 '{"mode":"ack","checksum":true,"tx_timeout_ms":60000,"rx_timeout_ms":60000,"max_try":10,"outstanding_acks":255,"max_peers":1000000,"peer_expiry_ms":86400000}' "" \
	uctl "$A" -j defaults

echo "# one past: udpcpctl refuses locally, nothing changes"
past() { # WORD VALUE RANGE
	check "set $1 $2" 1 "" "udpcpctl: $1: \"$2\" is out of range ($3)" \
		uctl "$A" defaults set "$1" "$2"
}
past tx-timeout 0 1-60000
past tx-timeout 60001 1-60000
past rx-timeout 0 1-60000
past rx-timeout 60001 1-60000
past max-try 0 1-10
past max-try 11 1-10
past outstanding-acks 0 1-255
past outstanding-acks 256 1-255
past max-peers 0 1-1000000
past max-peers 1000001 1-1000000
past peer-expiry 999 1000-86400000
past peer-expiry 86400001 1000-86400000
check "set mode 3" 1 "" 'udpcpctl: unknown mode "3", expected noack, ack or single-ack' \
	uctl "$A" defaults set mode 3
check "set checksum 2" 1 "" 'udpcpctl: unknown checksum "2", expected off or on' \
	uctl "$A" defaults set checksum 2
check "unchanged after local refusals" 0 "$cur" "" uctl "$A" defaults show

echo "# one past, sent anyway: the kernel's policy refuses, naming the attribute"
# ynl's own CLI, once each way (it takes seconds under TCG) ...
out=$(ynl_ns "$A" --do defaults-set --json '{"defaults": {"params": {"max-tries": 11}}}' 2>&1) && rc=0 || rc=$?
check_eq "ynl cli max-tries 11: exit" 1 "$rc"
check_eq "ynl cli max-tries 11: error" "Netlink error: Numerical result out of range" "$(head -n1 <<<"$out")"
check_eq "ynl cli max-tries 11: extack" \
	"extack: {'msg': 'integer out of range', 'policy': {'min-value': 1, 'max-value': 10, 'type': 'u8'}, 'bad-attr': '.defaults.params.max-tries'}" \
	"$(grep -o "extack: .*" <<<"$out")"
out=$(ynl_ns "$A" --do defaults-set --json '{"defaults": {"peer-expiry": 999}}' 2>&1) && rc=0 || rc=$?
check_eq "ynl cli peer-expiry 999: exit" 1 "$rc"
check_eq "ynl cli peer-expiry 999: extack" \
	"extack: {'msg': 'integer out of range', 'policy': {'min-value': 1000, 'max-value': 86400000, 'type': 'u32'}, 'bad-attr': '.defaults.peer-expiry'}" \
	"$(grep -o "extack: .*" <<<"$out")"

# ... and every other bound through its library, in one process.
check "ynl library: every attribute one past" 0 "\
transfer-mode=3: ERANGE integer out of range at .defaults.params.transfer-mode [0-2]
checksum=2: ERANGE integer out of range at .defaults.params.checksum [0-1]
tx-timeout=0: ERANGE integer out of range at .defaults.params.tx-timeout [1-60000]
tx-timeout=60001: ERANGE integer out of range at .defaults.params.tx-timeout [1-60000]
rx-timeout=0: ERANGE integer out of range at .defaults.params.rx-timeout [1-60000]
rx-timeout=60001: ERANGE integer out of range at .defaults.params.rx-timeout [1-60000]
max-tries=0: ERANGE integer out of range at .defaults.params.max-tries [1-10]
max-tries=11: ERANGE integer out of range at .defaults.params.max-tries [1-10]
outstanding-acks=0: ERANGE integer out of range at .defaults.params.outstanding-acks [1-255]
max-peers=0: ERANGE integer out of range at .defaults.max-peers [1-1000000]
max-peers=1000001: ERANGE integer out of range at .defaults.max-peers [1-1000000]
peer-expiry=999: ERANGE integer out of range at .defaults.peer-expiry [1000-86400000]
peer-expiry=86400001: ERANGE integer out of range at .defaults.peer-expiry [1000-86400000]
max-peers=7 with max-tries=11: ERANGE integer out of range at .defaults.params.max-tries [1-10]
max-peers=7 with mode 3: ERANGE integer out of range at .defaults.params.transfer-mode [0-2]" "" \
	ynl_pyfile "$A" 40-nl-defaults-ynl.py
check "unchanged after kernel refusals" 0 "$cur" "" uctl "$A" defaults show

echo "# plain output is valid input"
# shellcheck disable=SC2086 # words, as typed
check "set defaults back" 0 "" "" uctl "$A" defaults set $DEF
check "show original" 0 "$DEF" "" uctl "$A" defaults show
NEW="mode single-ack checksum off tx-timeout 250 rx-timeout 3000 max-try 3 outstanding-acks 4 max-peers 2 peer-expiry 1000"
# shellcheck disable=SC2086
check "set all at once" 0 "" "" uctl "$A" defaults set $NEW
check "show all at once" 0 "$NEW" "" uctl "$A" defaults show
# shellcheck disable=SC2046
check "set its own output" 0 "" "" uctl "$A" defaults set $(uctl "$A" defaults show)
check "show unchanged" 0 "$NEW" "" uctl "$A" defaults show

echo "# new sockets take the defaults, old ones keep theirs"
hold_sock "$A" "$A4" 5001
hold_sock "$A" :: 5002
params='[.[] | {local_port, mode, checksum, tx_timeout_ms, rx_timeout_ms, max_try, outstanding_acks}] | sort_by(.local_port) | .[]'
check "sock params" 0 '{"local_port":5000,"mode":"ack","checksum":true,"tx_timeout_ms":100,"rx_timeout_ms":1000,"max_try":5,"outstanding_acks":8}
{"local_port":5001,"mode":"single-ack","checksum":false,"tx_timeout_ms":250,"rx_timeout_ms":3000,"max_try":3,"outstanding_acks":4}
{"local_port":5002,"mode":"single-ack","checksum":false,"tx_timeout_ms":250,"rx_timeout_ms":3000,"max_try":3,"outstanding_acks":4}' "" \
	bash -c "\"\$U\" -n \"$A\" -j sock show | jq -c '$params'"
check "sock show local-port 5001" 0 "sock inet $A4:5001 peers 0 uid 0
    mode single-ack checksum off tx-timeout 250 rx-timeout 3000 max-try 3 outstanding-acks 4" "" \
	bash -c "\"\$U\" -n \"$A\" sock show local-port 5001 | head -n 2 | sed -E 's/ inode [0-9]+ cookie [0-9]+.*//'"
# getsockopt of fresh sockets, both families (SOL_UDPCP 258; the options 0-5).
check "getsockopt of new sockets" 0 "[2, 3, 250, 3000, 3, 4]
[2, 3, 250, 3000, 3, 4]" "" nl_py "$A" <<'PY'
import socket
for fam in (socket.AF_INET, socket.AF_INET6):
    s = socket.socket(fam, socket.SOCK_DGRAM, 258)
    print([s.getsockopt(258, opt) for opt in range(6)])
PY

echo "# max-peers 2: a third peer is refused"
check "peer 1" 0 "" "" uctl "$A" peer add "$B4" port 1 local-port 5001
check "peer 2" 0 "" "" uctl "$A" peer add "$B4" port 2 local-port 5001
check "peer 3" 2 "" "Error: the socket has max-peers peers already" \
	uctl "$A" peer add "$B4" port 3 local-port 5001
check "peer count" 0 "2" "" bash -c "\"\$U\" -n \"$A\" -j sock show local-port 5001 | jq '.[0].peer_count'"
# A template is per namespace, not per socket: max-peers does not count it.
check "template beyond max-peers" 0 "" "" uctl "$A" peer add "$B4" port 3
check "template del" 0 "" "" uctl "$A" peer del "$B4" port 3

echo "# peer-expiry 1000: a peer made by traffic goes, a configured one stays"
ip netns exec "$NS_B" "$TOOL" send -b "$B4" 6000 -d "$A4" 5002 -n 1 >/dev/null ||
	fail "send to the socket of 5002"
peer_ports() { "$U" -n "$A" -j peer show | jq -c '[.[] | .remote_port] | sort'; }
check "peers after traffic" 0 "[1,2,6000]" "" peer_ports
wait_until 10 '[ "$(peer_ports)" = "[1,2]" ]' || true
check "idle peer expired" 0 "[1,2]" "" peer_ports
sleep 2.5
check "configured peers stay" 0 "[1,2]" "" peer_ports

echo "# defaults are per namespace"
check "other namespace untouched" 0 "$DEF" "" uctl "$NS_B" defaults show
nl_done
