#!/bin/bash
# Multicast and broadcast on a bridge of four hosts (h1 sends; h2 and h3
# are members; h4 is bound to the same ports but joins nothing):
#  - to an IPv4 group, an IPv6 group, an IPv4 group through a dual-stack
#    AF_INET6 socket (::ffff:239.x), and the IPv4 subnet broadcast address,
#    four messages each (one of them fragmented) reach every member exactly
#    once, in order, intact; h2 joins with IP_ADD_MEMBERSHIP /
#    IPV6_JOIN_GROUP on the UDPCP socket, h3 with MCAST_JOIN_GROUP
#    (udpcp-tool --join); h2 has a second member socket on the IPv4 and
#    the IPv6 group's port (SO_REUSEADDR), which gets every message too;
#  - h4 gets the broadcast ones and none of the multicast ones;
#  - a socket in ack mode sends them in no-ack mode: N=1 on the wire, no
#    sync, no acks at all;
#  - broadcast needs SO_BROADCAST: EACCES without it (also to
#    255.255.255.255).
# timeout: 150
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_bridge 4

G4=239.1.2.3 G6=ff0e::1:2:3 GM=239.1.2.4
# How long receivers wait for the messages, from their start: setting up
# the other hosts and starting Python takes most of a minute on the debug
# kernel, which scales test limits (UDPCP_TIMEOUT_SCALE).
export RECV_SECS=$((60 * ${UDPCP_TIMEOUT_SCALE:-1}))
P4=6001 P6=6002 PM=6003 PB=6004
COUNT=4

# One process per host holds a socket per scenario.  MODE member: h2's
# sockets join (IP_ADD_MEMBERSHIP, IPV6_JOIN_GROUP); MODE bystander: h4's
# only bind.  Prints one JSON object: port -> {received, bad, in_order}.
hosts_recv() { # NS MODE EXPECT(port:count,...)
	py_run -n "$1" 27-multicast-recv.py "$@" "$IF_H"
}

# No-ack messages are never retransmitted: a fragment that comes more
# than the rx timeout (1 s) after the first loses its message.  The debug
# kernel sharing a loaded machine can take that long; the partial-message
# timeout is not what this test is about.
for ns in "$NS_H2" "$NS_H3" "$NS_H4"; do
	in_ns "$ns" "$REPO/udpcpctl/udpcpctl" defaults set rx-timeout 20000 ||
		fail "udpcpctl defaults set rx-timeout in $ns"
done

rm -f /tmp/ready-*
bg_start h2 hosts_recv "$NS_H2" member "$P4:$COUNT,${P4}b:$COUNT,$P6:$COUNT,${P6}b:$COUNT,$PM:$COUNT,$PB:$COUNT"
bg_start h4 hosts_recv "$NS_H4" bystander "$P4:0,$P6:0,$PM:0,$PB:$COUNT"
# h3: udpcp-tool, joining with MCAST_JOIN_GROUP
bg_start h3-4 in_ns "$NS_H3" "$TOOL" recv -b 0.0.0.0 $P4 --join "$G4%$IF_H" -n $COUNT -t $((RECV_SECS * 1000)) --info
bg_start h3-6 in_ns "$NS_H3" "$TOOL" recv -b :: $P6 --v6only 1 --join "$G6%$IF_H" -n $COUNT -t $((RECV_SECS * 1000)) --info
bg_start h3-m in_ns "$NS_H3" "$TOOL" recv -b :: $PM --v6only 0 --join "$GM%$IF_H" -n $COUNT -t $((RECV_SECS * 1000)) --info
bg_start h3-b in_ns "$NS_H3" "$TOOL" recv -b 0.0.0.0 $PB -n $COUNT -t $((RECV_SECS * 1000)) --info
wait_until 60 "test -e /tmp/ready-$NS_H2 -a -e /tmp/ready-$NS_H4" || fail "receivers did not start"
for p in $P4 $P6 $PM $PB; do
	wait_port "$NS_H3" "$p"
done
# udpcp-tool joins after it binds: a message sent in between is lost to it.
h3_joined() {
	local m
	m=$(in_ns "$NS_H3" ip maddr show dev "$IF_H") &&
		grep -qE "inet +$G4( |\$)" <<<"$m" && grep -qE "inet +$GM( |\$)" <<<"$m" &&
		grep -qE "inet6 +$G6( |\$)" <<<"$m"
}
wait_until 20 h3_joined || fail "h3 did not join: $(in_ns "$NS_H3" ip maddr show dev "$IF_H")"
cap_start "$NS_H2" "$IF_H" "$TMP/h2.pcap"

out=$(py_run -n "$NS_H1" 27-multicast-send.py "$COUNT" 2>&1) || fail "sender: $out"

# What h3 saw, for a failure's report.
h3_diag() {
	local cmd
	for cmd in "ip -s link show dev $IF_H" "ip maddr show dev $IF_H" "cat /proc/net/igmp" \
		"nstat -az" "$REPO/udpcpctl/udpcpctl stats"; do
		echo "## h3: $cmd"
		in_ns "$NS_H3" $cmd 2>&1 | grep -v -E '^\S+ +0 +0\.0$'
	done
	echo "## bridge: ip -s link show p3"
	in_ns "$NS_BR" ip -s link show p3
	echo "## h3: sysctl"
	in_ns "$NS_H3" sysctl net.ipv4.conf.all.rp_filter net.ipv4.conf.$IF_H.rp_filter net.ipv4.ip_early_demux net.ipv4.udp_early_demux
}
h3_bad=
for n in h3-4 h3-6 h3-m h3-b; do
	bg_wait $n || { echo "$n failed: $(cat "$TMP/$n.err")"; h3_bad="$h3_bad $n"; }
	echo "$n $(bg_json $n)"
	jq -e ".received == $COUNT and .bad == 0 and .dups == 0 and .out_of_order == 0" \
		<<<"$(bg_json $n)" >/dev/null || h3_bad="$h3_bad $n"
done
[ -z "$h3_bad" ] || { h3_diag; fail "h3 receivers$h3_bad: not every message once, intact, in order"; }
bg_wait h2 || fail "h2: $(cat "$TMP/h2.err")"
bg_wait h4 || fail "h4: $(cat "$TMP/h4.err")"
h2=$(bg_json h2) h4=$(bg_json h4)
echo "h2 $h2"
echo "h4 $h4"
for p in $P4 ${P4}b $P6 ${P6}b $PM $PB; do
	json_check "h2 socket $p" "$h2" ".\"$p\" | .received == $COUNT and .bad == 0 and .in_order"
done
for p in $P4 $P6 $PM; do
	json_check "h4 (not a member) port $p" "$h4" ".\"$p\".received == 0"
done
json_check "h4 broadcast" "$h4" ".\"$PB\" | .received == $COUNT and .bad == 0 and .in_order"

cap_stop
cap_udpcp "$TMP/h2.pcap" >"$TMP/h2.json"
for p in $P4 $P6 $PM $PB; do
	n=$(jq -s "[.[] | select(.dport == $p and .type == 1 and .n == 1 and .id > 0)] | length" "$TMP/h2.json")
	other=$(jq -s "[.[] | select((.dport == $p or .sport == $p) and (.type != 1 or .n != 1 or .id == 0))] | length" "$TMP/h2.json")
	# 100 + 3000 (3 fragments) + 1 + 5000 (4) octets: 9 packets
	[ "$n" = 9 ] || fail "port $p: $n no-ack data packets at h2, want 9"
	[ "$other" = 0 ] || fail "port $p: $other acks, syncs or N=0 packets: $(jq -c "select(.dport == $p or .sport == $p)" "$TMP/h2.json" | head -3)"
done
echo "multicast ok"
