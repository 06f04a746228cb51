#!/bin/bash
# Counters move with traffic, exactly: namespace totals (stats), per socket
# (-s sock show), per peer (-s peer show), on the sending and the receiving
# side, in plain and JSON; a closed socket's counts stay in the totals, a
# deleted peer's stay in its socket's; stats reset needs admin (refused
# for nobody, changing nothing), then zeroes all three levels, and
# counting starts again from zero.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
A=$NS_A B=$NS_B
# No retransmission of what gets through, however slow the guest.
check "A: tx-timeout 5000" 0 "" "" uctl "$A" defaults set tx-timeout 5000
hold_sock "$B" 0.0.0.0 5000
ZERO="tx: msgs 0 bytes 0 timeout 0 retries 0
rx: msgs 0 bytes 0 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0"
check "A: zero" 0 "$ZERO" "" uctl "$A" stats
check "B: zero" 0 "$ZERO" "" uctl "$B" stats show

echo "# traffic: 4 messages (4600 bytes) A -> B, 2 failures to a dead port"
check "A's socket and peer while open" 0 "\
sock tx: msgs 4 bytes 4600 timeout 0 retries 0
sock rx: msgs 0 bytes 0 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0
peer tx: msgs 4 bytes 4600 timeout 0 retries 0
peer rx: msgs 0 bytes 0 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0
sock -j: {\"tx_msgs\":4,\"tx_bytes\":4600,\"tx_timeout\":0,\"tx_retries\":0,\"rx_msgs\":0,\"rx_bytes\":0,\"rx_timeout\":0,\"rx_discarded_frags\":0,\"rx_duplicates\":0,\"rx_malformed\":0,\"rx_dropped\":0,\"rx_refused\":0,\"crc_errors\":0}" "" \
	nl_py "$A" <<'PY'
import json, os, socket, subprocess
U = os.environ["U"]
def ctl(*a):
    return subprocess.run([U, *a], capture_output=True, text=True, check=True).stdout
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 258)
s.bind(("192.0.2.1", 7000))
for n in (100, 200, 300, 4000):                 # 4000: three fragments
    s.sendto(b"m" * n, ("192.0.2.2", 5000))
s.setsockopt(258, 7, 30000)                     # UDPCP_FLUSH
for l in ctl("-s", "sock", "show", "local-port", "7000").splitlines()[2:]:
    print("sock " + l.strip())
for l in ctl("-s", "peer", "show", "192.0.2.2", "port", "5000", "local-port", "7000").splitlines()[3:]:
    print("peer " + l.strip())
print("sock -j: " + json.dumps(json.loads(ctl("-j", "-s", "sock", "show"))[0]["stats"],
                               separators=(",", ":")))
PY
out=$(ip netns exec "$A" "$TOOL" send -b "$A4" 7001 -d "$B4" 5999 -n 2 --max-try 2 --tx-timeout 50) && rc=0 || rc=$?
check_eq "two failures" "3 [1,2]" "$rc $(jq -c .failed_ids <<<"$out")"

SENT="tx: msgs 4 bytes 4600 timeout 2 retries 2
rx: msgs 0 bytes 0 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0"
RECV="tx: msgs 0 bytes 0 timeout 0 retries 0
rx: msgs 4 bytes 4600 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0"
check "A: totals keep closed sockets' counts" 0 "$SENT" "" uctl "$A" stats
check "A: -j totals" 0 '{"tx_msgs":4,"tx_bytes":4600,"tx_timeout":2,"tx_retries":2,"rx_msgs":0,"rx_bytes":0,"rx_timeout":0,"rx_discarded_frags":0,"rx_duplicates":0,"rx_malformed":0,"rx_dropped":0,"rx_refused":0,"crc_errors":0}' "" \
	uctl "$A" -j stats
check "B: totals" 0 "$RECV" "" uctl "$B" stats
sock_stats() { "$U" -n "$B" -s sock show | tail -n 2 | sed 's/^ *//'; }
peer_stats() { "$U" -n "$B" -s peer show "$A4" port 7000 local-port 5000 | tail -n 2 | sed 's/^ *//'; }
check "B: socket" 0 "$RECV" "" sock_stats
check "B: peer" 0 "$RECV" "" peer_stats
check "B: -j -s peer" 0 '{"tx_msgs":0,"tx_bytes":0,"tx_timeout":0,"tx_retries":0,"rx_msgs":4,"rx_bytes":4600,"rx_timeout":0,"rx_discarded_frags":0,"rx_duplicates":0,"rx_malformed":0,"rx_dropped":0,"rx_refused":0,"crc_errors":0}' "" \
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
check "A: unchanged" 0 "$SENT" "" uctl "$A" stats
check "B: unchanged" 0 "$RECV" "" uctl "$B" stats
check "B: reset" 0 "" "" uctl "$B" stats reset
check "A: reset" 0 "" "" uctl "$A" stats reset
check "A: zero" 0 "$ZERO" "" uctl "$A" stats
check "B: zero" 0 "$ZERO" "" uctl "$B" stats
check "B: socket zero" 0 "$ZERO" "" sock_stats

echo "# counting again"
ip netns exec "$A" "$TOOL" send -b "$A4" 7000 -d "$B4" 5000 -s 10 >/dev/null || fail "send after reset"
ONE="tx: msgs 0 bytes 0 timeout 0 retries 0
rx: msgs 1 bytes 10 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0"
check "B: one message" 0 "$ONE" "" uctl "$B" stats
check "B: socket" 0 "$ONE" "" sock_stats
check "B: peer" 0 "$ONE" "" peer_stats
check "A: one message" 0 "tx: msgs 1 bytes 10 timeout 0 retries 0
rx: msgs 0 bytes 0 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0" "" uctl "$A" stats
echo "# peers with counters reset while present"
check "B: reset with a peer present" 0 "" "" uctl "$B" stats reset
check "B: peer zero" 0 "$ZERO" "" peer_stats
nl_done
