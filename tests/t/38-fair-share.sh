#!/bin/bash
# A flood from some sources does not starve the others.  Per family, 32
# sources in NS_A (plain UDP sockets, tests/fuzz/flood.py) send valid
# one-packet no-ack messages as fast as they can to a socket in NS_B whose
# reader takes 1000 messages a second (SO_RCVBUFFORCE 262144), slower than
# the flood: the receive queue stays full.  Meanwhile a legitimate sender
# (another source port) sends 150 ack-mode messages of 100 octets, 10 a
# second:
#  - every one arrives exactly once, intact, in order, and none fails;
#  - it needs at most one retransmission per ten messages (without the
#    shares, 112 of the 150 failed after 500 retransmissions);
#  - the flooders were refused for their share: at least half of the 32
#    flood peers count rx_refused, the socket's rx_refused moved, and the
#    reader got flood messages too (the flood reached the queue).
# The share is a thirty-third of three quarters of the buffer, about nine
# messages here: the legitimate sender gets through unhindered while its
# messages wait less than that long in the queue (half a second at this
# read rate; at 500 a second it needed about one retransmission each).
# On the debug kernel the flood reaches about 250 messages a second: the
# reader takes 150 a second (the queue, about 290 messages, is full within
# a few seconds and waits two seconds), and the legitimate sender sends 40
# messages, 2 a second, so it still holds fewer than its share.
# timeout: 150
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../fuzz/lib.sh"

N=$(fz_count 150 40)
read_rate=$(fz_count 1000 150)
interval_ms=$(fz_count 100 500)
fill_s=$(fz_count 1 5)
udpcp_load
topo_pair
ctl_b() { ip netns exec "$NS_B" "$CTL" "$@"; }

for fam in 4 6; do
	if [ "$fam" = 4 ]; then
		a=$A4 b=$B4 src="$A4:7100"
	else
		a=$A6 b=$B6 src="[$A6]:7100"
	fi
	port=$((7000 + fam))
	rm -f "$FZ_TMP/stop"
	ip netns exec "$NS_B" $FZPEER recv --bind "$b" $port --src "$src" \
		--rcvbuf 262144 --read-rate $read_rate --count $N --timeout 120 \
		--hold-file "$FZ_TMP/stop" \
		>"$FZ_TMP/recv$fam" 2>&1 &
	r=$!
	fz_wait_port "$NS_B" $port
	ip netns exec "$NS_A" python3 "$FZ/flood.py" messages --to "$b" $port \
		--sources 32 --size 100 --count 100000000 --time 120 \
		--stop-file "$FZ_TMP/stop" >"$FZ_TMP/flood$fam" 2>&1 &
	f=$!
	# The queue fills before the legitimate sender starts.
	sleep "$fill_s"
	ip netns exec "$NS_A" $FZPEER send --dst "$b" $port --bind "$a" 7100 \
		--count $N --interval-ms $interval_ms --sizes 100 --mode ack \
		>"$FZ_TMP/send$fam" 2>&1 || fail "IPv$fam sender: $(cat "$FZ_TMP/send$fam")"
	# The receiver holds its socket (and peers) once it has all N.
	wait_until 20 "[ -s '$FZ_TMP/recv$fam' ]" ||
		fail "IPv$fam: the receiver did not get all $N; sender: $(tail -n 1 "$FZ_TMP/send$fam")"
	peers=$(ctl_b -j -s peer show) || fail "IPv$fam: udpcpctl peer show"
	touch "$FZ_TMP/stop"
	wait $f || fail "IPv$fam flood: $(cat "$FZ_TMP/flood$fam")"
	wait $r || fail "IPv$fam receiver: $(cat "$FZ_TMP/recv$fam")"
	sj=$(tail -n 1 "$FZ_TMP/send$fam")
	rj=$(tail -n 1 "$FZ_TMP/recv$fam")
	echo "IPv$fam flood: $(cat "$FZ_TMP/flood$fam")"
	echo "IPv$fam sender: $sj"
	echo "IPv$fam receiver: $rj"

	ok=$(jq -n --argjson s "$sj" --argjson r "$rj" "\$s.sent == $N and \$s.failed == 0 and
		\$r.received == $N and \$r.bad == 0 and \$r.dups == 0 and \$r.out_of_order == 0")
	[ "$ok" = true ] || fail "IPv$fam: the legitimate messages did not all arrive once, or some failed"
	retries=$(jq -r .info.tx_retries <<<"$sj")
	((retries <= N / 10)) ||
		fail "IPv$fam: the legitimate sender needed $retries retransmissions for $N messages"
	[ "$(jq -r '.other > 0 and .info.rx_refused > 0' <<<"$rj")" = true ] ||
		fail "IPv$fam: the flood did not reach the queue or was never refused: $rj"
	refused=$(jq --argjson p $port '[.[] | select(.local_port == $p and .remote_port != 7100
		and .stats.rx_refused > 0)] | length' <<<"$peers")
	legit=$(jq -c --argjson p $port '[.[] | select(.local_port == $p and .remote_port == 7100)
		| {rx_dropped: .stats.rx_dropped, rx_refused: .stats.rx_refused}]' <<<"$peers")
	((refused >= 16)) || fail "IPv$fam: only $refused of 32 flood peers were refused for their share:" \
		"$(jq -c '[.[] | {local_port, remote_port, rx_refused: .stats.rx_refused}]' <<<"$peers")"
	note "IPv$fam: $N messages through a 32-source flood with $retries retransmissions;" \
		"$refused flood peers refused for their share; legitimate peer $legit"
done
