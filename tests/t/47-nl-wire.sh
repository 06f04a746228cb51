#!/bin/bash
# Per-peer settings made through netlink change what goes on the wire.
# A message to a dead port fails after max-try sends, tx-timeout apart:
# a template with max-try 1 makes it fail after one send (0 retries),
# sooner than the default five (4 retries, >= 5 x tx-timeout); a template
# beats the application's socket option, a socket's own peer (added with
# local) beats the template; peer change takes effect on the next
# message (max-try, tx-timeout), and mode noack still owes the sync that
# follows a failure: unanswered, it fails the no-ack message in its place
# after max-try sends.  The failed message IDs come back on the error queue.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
A=$NS_A
TX=500
check "defaults tx-timeout $TX" 0 "" "" uctl "$A" defaults set tx-timeout $TX
check "template max-try 1" 0 "" "" uctl "$A" peer add "$B4" port 5999 max-try 1
check "template max-try 1 (5996)" 0 "" "" uctl "$A" peer add "$B4" port 5996 max-try 1

# send PORT [ARGS]: one message to a dead port of B; prints the tool's JSON
# summary reduced to what it says about the failure.
send() {
	local port=$1 out rc=0
	shift
	out=$(ip netns exec "$A" "$TOOL" send -d "$B4" "$port" "$@") || rc=$?
	echo "rc $rc $(jq -c '{failed_ids, tx_timeout: .info.tx_timeout, tx_retries: .info.tx_retries}' <<<"$out")"
}

echo "# template max-try 1 against the default 5"
check "max-try 1: fails after one send" 0 'rc 3 {"failed_ids":[1],"tx_timeout":1,"tx_retries":0}' "" send 5999
check "max-try 5 (default): after five" 0 'rc 3 {"failed_ids":[1],"tx_timeout":1,"tx_retries":4}' "" send 5998
# Timed in the sending process (starting one costs more than a timeout).
check "max-try 1 fails sooner" 0 "max-try 1: failed [1], >= 1 x $TX ms: True, < 5 x $TX ms: True
max-try 5: failed [1], >= 5 x $TX ms: True" "" nl_pyfile "$A" 47-nl-wire-times.py $TX
cat "$NL_TMP/times"
# A template is the administrator's word on that peer: it beats the
# application's socket option.
check "template over the socket option max-try 3" 0 'rc 3 {"failed_ids":[1],"tx_timeout":1,"tx_retries":0}' "" \
	send 5996 --max-try 3
check "socket option max-try 3 without a template" 0 'rc 3 {"failed_ids":[1],"tx_timeout":1,"tx_retries":2}' "" \
	send 5995 --max-try 3

echo "# a socket's peer, changed between messages"
check "socket peer: max-try 2 tx-timeout 50, then 3 and 300, then noack" 0 "\
msg 1: failed [1], >= 100 ms: True
    tx: msgs 0 bytes 0 timeout 1 retries 1 pmtu-restarts 0 icmp-errors N
msg 1: < 2000 ms: True
msg 2: failed [2], >= 900 ms: True
    tx: msgs 0 bytes 0 timeout 2 retries 3 pmtu-restarts 0 icmp-errors N
msg 3: failed [3], >= 900 ms: True
    tx: msgs 0 bytes 0 timeout 3 retries 5 pmtu-restarts 0 icmp-errors N" "" nl_pyfile "$A" 47-nl-wire-peer.py
nl_done
