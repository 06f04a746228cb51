#!/bin/bash
# udpcpctl top: B receives from two peers of A, one busy (ack-mode
# messages every 20 ms), one that sent a single message before.  Two JSON
# views a second apart list the busy peer first, with the messages of
# each interval counted on its rx side (between 10 and 60 a second: a
# paced sender under TCG), the idle one after it with none; the plain view
# has its header and one line per peer; a bad argument is refused.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
. "$(dirname "$0")/../fuzz/lib.sh"
udpcp_load
topo_pair
A=$NS_A B=$NS_B
hold_sock "$B" 0.0.0.0 5000

ip netns exec "$A" "$TOOL" send -b "$A4" 7001 -d "$B4" 5000 -s 10 >/dev/null ||
	fail "the idle peer's message"
rm -f "$FZ_TMP/stop"
ip netns exec "$A" $FZPEER send --dst "$B4" 5000 --bind "$A4" 7000 --count 100000 \
	--interval-ms 20 --sizes 100 --mode ack --stop-file "$FZ_TMP/stop" \
	>"$FZ_TMP/send" 2>&1 &
sender=$!
on_exit "touch '$FZ_TMP/stop'"
wait_until 20 "[ \"\$(uctl '$B' -j stats | jq .rx_msgs)\" -gt 20 ]" ||
	fail "the busy sender did not start: $(cat "$FZ_TMP/send")"

views=$(uctl "$B" -j top interval 1 count 2) || fail "top -j: $views"
echo "$views"
check_eq "two views" 2 "$(wc -l <<<"$views")"
while read -r v; do
	check_eq "a view: busy peer first, idle one after" true "$(jq '.interval_ms >= 1000
		and (.peers | length) == 2
		and .peers[0].remote_port == 7000 and .peers[0].local_port == 5000
		and .peers[0].rx_msgs >= 10 * .interval_ms / 1000
		and .peers[0].rx_msgs <= 60 * .interval_ms / 1000
		and .peers[1].remote_port == 7001 and .peers[1].rx_msgs == 0' <<<"$v")"
done <<<"$views"

plain=$(uctl "$B" top count 1) || fail "top: $plain"
echo "$plain"
check_eq "plain header" "PEER LOCAL TX/s RX/s RETRY/s FAILED RTT(us)" \
	"$(sed -n 2p <<<"$plain" | tr -s ' ')"
check_eq "busy peer first" "$A4:7000 0.0.0.0:5000" \
	"$(sed -n 3p <<<"$plain" | awk '{ print $1, $2 }')"
check_eq "one line per peer" 4 "$(wc -l <<<"$plain")"

check "a bad interval" 1 "" 'udpcpctl: interval: "x" is not a number' uctl "$B" top interval x

touch "$FZ_TMP/stop"
wait "$sender" || fail "busy sender: $(cat "$FZ_TMP/send")"
check_eq "busy sender: none failed" 0 "$(tail -n 1 "$FZ_TMP/send" | jq .failed)"
nl_done
