#!/bin/bash
# Counters move with traffic, exactly: namespace totals (stats), per socket
# (-s sock show), per peer (-s peer show), on the sending and the receiving
# side, in plain and JSON, and UDPCP_INFO says the same as netlink; a
# closed socket's counts stay in the totals, a deleted peer's stay in its
# socket's; stats reset needs admin (refused
# for nobody, changing nothing), then zeroes all three levels, and
# counting starts again from zero.  A reset of one socket or of one peer
# clears that and nothing else (the namespace total drops by as much).
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
A=$NS_A B=$NS_B
# No retransmission of what gets through, however slow the guest.
check "A: tx-timeout 5000" 0 "" "" uctl "$A" defaults set tx-timeout 5000
hold_sock "$B" 0.0.0.0 5000
ZERO="tx: msgs 0 bytes 0 timeout 0 retries 0 pmtu-restarts 0 icmp-errors 0
rx: msgs 0 bytes 0 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0"
check "A: zero" 0 "$ZERO" "" uctl "$A" stats
check "B: zero" 0 "$ZERO" "" uctl "$B" stats show

echo "# traffic: 4 messages (4600 bytes) A -> B, 2 failures to a dead port"
check "A's socket and peer while open" 0 "\
sock tx: msgs 4 bytes 4600 timeout 0 retries 0 pmtu-restarts 0 icmp-errors 0
sock rx: msgs 0 bytes 0 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0
peer tx: msgs 4 bytes 4600 timeout 0 retries 0 pmtu-restarts 0 icmp-errors 0
peer rx: msgs 0 bytes 0 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0
sock -j: {\"tx_msgs\":4,\"tx_bytes\":4600,\"tx_timeout\":0,\"tx_retries\":0,\"pmtu_restarts\":0,\"icmp_errors\":0,\"rx_msgs\":0,\"rx_bytes\":0,\"rx_timeout\":0,\"rx_discarded_frags\":0,\"rx_duplicates\":0,\"rx_malformed\":0,\"rx_dropped\":0,\"rx_refused\":0,\"crc_errors\":0}
UDPCP_INFO = netlink: True" "" \
	nl_pyfile "$A" 49-nl-stats-traffic.py
out=$(ip netns exec "$A" "$TOOL" send -b "$A4" 7001 -d "$B4" 5999 -n 2 --max-try 2 --tx-timeout 50) && rc=0 || rc=$?
check_eq "two failures" "3 [1,2]" "$rc $(jq -c .failed_ids <<<"$out")"

# B answers A's packets to its closed port with ICMP errors, as many as its
# rate limit lets through: icmp_errors N stands for any number but 0.
SENT="tx: msgs 4 bytes 4600 timeout 2 retries 2 pmtu-restarts 0 icmp-errors N
rx: msgs 0 bytes 0 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0"
RECV="tx: msgs 0 bytes 0 timeout 0 retries 0 pmtu-restarts 0 icmp-errors 0
rx: msgs 4 bytes 4600 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0"
icmp_n() { "$@" | sed -E 's/icmp-errors [1-9][0-9]*/icmp-errors N/; s/"icmp_errors":[1-9][0-9]*/"icmp_errors":"N"/'; }
check "A: totals keep closed sockets' counts" 0 "$SENT" "" icmp_n uctl "$A" stats
check "A: -j totals" 0 '{"tx_msgs":4,"tx_bytes":4600,"tx_timeout":2,"tx_retries":2,"pmtu_restarts":0,"icmp_errors":"N","rx_msgs":0,"rx_bytes":0,"rx_timeout":0,"rx_discarded_frags":0,"rx_duplicates":0,"rx_malformed":0,"rx_dropped":0,"rx_refused":0,"crc_errors":0}' "" \
	icmp_n uctl "$A" -j stats
check "B: totals" 0 "$RECV" "" uctl "$B" stats
sock_stats() { "$U" -n "$B" -s sock show | tail -n 2 | sed 's/^ *//'; }
peer_stats() { "$U" -n "$B" -s peer show "$A4" port 7000 local-port 5000 | tail -n 2 | sed 's/^ *//'; }
check "B: socket" 0 "$RECV" "" sock_stats
check "B: peer" 0 "$RECV" "" peer_stats
check "B: -j -s peer" 0 '{"tx_msgs":0,"tx_bytes":0,"tx_timeout":0,"tx_retries":0,"pmtu_restarts":0,"icmp_errors":0,"rx_msgs":4,"rx_bytes":4600,"rx_timeout":0,"rx_discarded_frags":0,"rx_duplicates":0,"rx_malformed":0,"rx_dropped":0,"rx_refused":0,"crc_errors":0}' "" \
	bash -c "\"\$U\" -n \"$B\" -j -s peer show $A4 port 7000 local-port 5000 | jq -c '.[0].stats'"
check "B: without -s, no counters" 0 "false" "" \
	bash -c "\"\$U\" -n \"$B\" -j peer show | jq '.[0] | has(\"stats\")'"

echo "# a deleted peer's counts stay with its socket"
check "B: peer del" 0 "" "" uctl "$B" peer del "$A4" port 7000 local-port 5000
check "B: socket after del" 0 "$RECV" "" sock_stats
check "B: totals after del" 0 "$RECV" "" uctl "$B" stats

echo "# reset"
for ns in "$A" "$B"; do
	check "nobody: reset refused" 2 "" "Error: Operation not permitted" \
		ip netns exec "$ns" setpriv --reuid=65534 --regid=65534 --clear-groups "$U" stats reset
done
check "A: unchanged" 0 "$SENT" "" icmp_n uctl "$A" stats
check "B: unchanged" 0 "$RECV" "" uctl "$B" stats
check "B: reset" 0 "" "" uctl "$B" stats reset
check "A: reset" 0 "" "" uctl "$A" stats reset
check "A: zero" 0 "$ZERO" "" uctl "$A" stats
check "B: zero" 0 "$ZERO" "" uctl "$B" stats
check "B: socket zero" 0 "$ZERO" "" sock_stats

echo "# counting again"
ip netns exec "$A" "$TOOL" send -b "$A4" 7000 -d "$B4" 5000 -s 10 >/dev/null || fail "send after reset"
ONE="tx: msgs 0 bytes 0 timeout 0 retries 0 pmtu-restarts 0 icmp-errors 0
rx: msgs 1 bytes 10 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0"
check "B: one message" 0 "$ONE" "" uctl "$B" stats
check "B: socket" 0 "$ONE" "" sock_stats
check "B: peer" 0 "$ONE" "" peer_stats
check "A: one message" 0 "tx: msgs 1 bytes 10 timeout 0 retries 0 pmtu-restarts 0 icmp-errors 0
rx: msgs 0 bytes 0 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0" "" uctl "$A" stats
echo "# peers with counters reset while present"
check "B: reset with a peer present" 0 "" "" uctl "$B" stats reset
check "B: peer zero" 0 "$ZERO" "" peer_stats

echo "# resets of one socket, of one peer"
hold_sock "$B" 0.0.0.0 5001
for m in "7000 5000 10" "7001 5000 20" "7000 5001 30"; do
	read -r sport dport size <<<"$m"
	ip netns exec "$A" "$TOOL" send -b "$A4" "$sport" -d "$B4" "$dport" -s "$size" >/dev/null ||
		fail "send $m"
done
# "rx msgs bytes" of the namespace, a socket, a peer of socket 5000
rx_total() { "$U" -n "$B" -j stats | jq -r '"\(.rx_msgs) \(.rx_bytes)"'; }
rx_sock() { "$U" -n "$B" -j -s sock show local-port "$1" | jq -r '.[0].stats | "\(.rx_msgs) \(.rx_bytes)"'; }
rx_peer() {
	"$U" -n "$B" -j -s peer show "$A4" port "$1" local-port 5000 |
		jq -r '.[0].stats | "\(.rx_msgs) \(.rx_bytes)"'
}
rx_all() { rx_total; rx_sock 5000; rx_sock 5001; rx_peer 7000; rx_peer 7001; }
check "B: before" 0 "3 60
2 30
1 30
1 10
1 20" "" rx_all
check "B: reset one peer" 0 "" "" uctl "$B" stats reset local-port 5000 peer "$A4" port 7000
check "B: that peer only" 0 "2 50
1 20
1 30
0 0
1 20" "" rx_all
check "B: reset one socket" 0 "" "" uctl "$B" stats reset local-port 5001
check "B: that socket only" 0 "1 20
1 20
0 0
0 0
1 20" "" rx_all
check "B: reset a peer that is not there" 2 "" "Error: no such peer" \
	uctl "$B" stats reset local-port 5000 peer "$A4" port 7999
check "B: reset a socket that is not there" 2 "" "Error: no UDPCP socket is bound there" \
	uctl "$B" stats reset local-port 5999
check "B: nothing else changed" 0 "1 20" "" rx_total
check "B: resets the kernel refuses, and why" 0 "EINVAL: name a socket or a peer, not both at .peer
EINVAL: missing sock: a peer's counters are on its socket at .peer
EINVAL: a reset takes no parameters at .peer" "" nl_py "$B" <<'PY'
from nlraw import *
s = Genl()
print(s.request(CMD_STATS_RESET, sock_sel(A_SOCK, 5000), peer("192.0.2.1", 7001, 5000)))
print(s.request(CMD_STATS_RESET, peer("192.0.2.1", 7001)))
print(s.request(CMD_STATS_RESET, peer("192.0.2.1", 7001, 5000, [u8(PARAMS_MAX_TRIES, 2)])))
PY
check "B: and changes nothing" 0 "1 20" "" rx_total
nl_done
