#!/bin/bash
# A no-ack sender that restarts without its message-ID history is synced
# first, so a receiver that still remembers it delivers everything.  Per
# family (IPv4, IPv6):
#  - A sends 50 no-ack messages from a fixed port to B, which delivers
#    them and keeps A's last message ID (udpcpctl shows last-rx-msg-id 50);
#  - A's namespace is deleted and made again with the same addresses (the
#    veth pair with it): a new namespace, no ID history, IDs start at 1;
#  - A sends 200 no-ack messages (100, 1400 and 3000 octets by turns) from
#    the same port: B delivers all 200, once each, in order, intact, and
#    counts no duplicate (without a sync it takes IDs 1..50 for duplicates
#    of the old messages and drops them);
#  - the capture at B shows A's sync (ID 0, N=0) first, B's ack of it,
#    then data from ID 1: no data before the sync is acknowledged;
#  - a no-ack message to a unicast port nobody answers fails in place of
#    its sync: ECONNREFUSED (B's port unreachables name the sync), its ID,
#    on the error queue.
# timeout: 240
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

N1=50 N2=200
SCALE=${UDPCP_TIMEOUT_SCALE:-1}

# A's namespace again, from nothing: what a rebooted unit looks like.
recreate_a() {
	ip netns del "$NS_A"
	ip netns add "$NS_A"
	ip -n "$NS_A" link set lo up
	in_ns "$NS_A" sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
	# The veth pair went with the old namespace.
	wait_until 10 '! ip -n "$NS_B" link show "$IF_B" >/dev/null 2>&1' || fail "old $IF_B stayed"
	ip link add "$IF_A" netns "$NS_A" index 10 type veth peer name "$IF_B" netns "$NS_B" index 11
	_if_up "$NS_A" "$IF_A" "$A4/24" "$A6/64"
	_if_up "$NS_B" "$IF_B" "$B4/24" "$B6/64"
	_wait_oper "$NS_A" "$IF_A"
	_wait_oper "$NS_B" "$IF_B"
}

for fam in v4 v6; do
	port=6001 sport=7001 dead=6101
	[ "$fam" = v6 ] && port=6002 sport=7002 dead=6102
	dst=$(fam_dst "$fam")
	rm -f "$TMP/ready-$fam"
	# Phase 1: messages 1000.. ; phase 2: messages 0..199.
	bg_start "rx-$fam" py_run -n "$NS_B" 33-noack-restart-recv.py "$fam" "$port" $((N1 + N2)) $((120 * SCALE)) "$TMP/ready-$fam"
	wait_until 30 "test -e $TMP/ready-$fam" || fail "$fam receiver did not start: $(cat "$TMP/rx-$fam.err")"

	out=$(py_run -n "$NS_A" 33-noack-restart-send.py "$fam" "$dst" "$port" "$sport" 1000 "$N1" 2>&1) ||
		fail "$fam first sender: $out"
	json_check "$fam first sender" "$out" ".tx_msgs == $N1 and .tx_timeout == 0 and .tx_pending == 0"
	# B remembers A's last message ID.
	wait_until 20 "in_ns '$NS_B' '$REPO/udpcpctl/udpcpctl' peer show '$(fam_src "$fam")' port $sport local-port $port | grep -q 'last-rx-msg-id $N1 '" ||
		fail "$fam: B does not hold A's last ID $N1: $(in_ns "$NS_B" "$REPO/udpcpctl/udpcpctl" peer show)"

	recreate_a
	cap_start "$NS_B" "$IF_B" "$TMP/$fam.pcap"
	out=$(py_run -n "$NS_A" 33-noack-restart-send.py "$fam" "$dst" "$port" "$sport" 0 "$N2" 2>&1) ||
		fail "$fam restarted sender: $out"
	json_check "$fam restarted sender" "$out" ".tx_msgs == $N2 and .tx_timeout == 0 and .tx_pending == 0"

	bg_wait "rx-$fam" || fail "$fam receiver: $(cat "$TMP/rx-$fam.err")"
	r=$(bg_json "rx-$fam")
	cap_stop
	first=$(jq -c '[.seqs[] | select(. >= 1000)] == [range(1000; 1000 + '$N1')]' <<<"$r")
	second=$(jq -c '[.seqs[] | select(. < 1000)]' <<<"$r")
	n2=$(jq 'length' <<<"$second")
	note "$fam: phase 1 $N1 sent, $(jq '[.seqs[] | select(. >= 1000)] | length' <<<"$r") delivered; after the restart $N2 sent, $n2 delivered; info $(jq -c '.info | {rx_msgs, rx_duplicates, rx_discarded_frags, rx_dropped}' <<<"$r")"
	assert_eq "$fam first 50 delivered once, in order" true "$first"
	assert_eq "$fam after the restart: delivered" "$N2" "$n2"
	json_check "$fam after the restart: once, in order" "$r" "[.seqs[] | select(. < 1000)] == [range(0; $N2)]"
	json_check "$fam receiver" "$r" ".bad == 0 and .info.rx_duplicates == 0 and .info.rx_msgs == $((N1 + N2))"

	cap_udpcp "$TMP/$fam.pcap" "$port" >"$TMP/$fam.json"
	out=$(py_run 33-noack-restart-capture.py "$TMP/$fam.json" "$sport" "$N2") || fail "$fam capture: $out"
	note "$fam $out"

	# No answer to the sync: the no-ack message fails in its place, with
	# the cause B's port unreachables give (not rate-limited away).
	in_ns "$NS_B" sysctl -qw net.ipv4.icmp_ratelimit=0 net.ipv6.icmp.ratelimit=0
	out=$(py_run -n "$NS_A" 33-noack-restart-dead.py "$fam" "$dst" "$dead" 2>&1) || fail "$fam dead port: $out"
	note "$fam $out"
done
echo "noack-restart ok"
