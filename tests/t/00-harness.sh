#!/bin/bash
# Smoke test of the test bed itself: the topologies carry IPv4 and IPv6
# unicast (and not to absent hosts), netem and link down/up act, and
# multicast floods through the bridge.  Needs no module.
# timeout: 60
. "$(dirname "$0")/../lib/common.sh"

ping4() { in_ns "$1" busybox ping -c 1 -W "${3:-2}" "$2" >/dev/null; }
ping6() { in_ns "$1" busybox ping -6 -c 1 -W "${3:-2}" "$2" >/dev/null; }

topo_pair
ping4 "$NS_A" "$B4" || fail "IPv4 ping $A4 -> $B4"
ping6 "$NS_A" "$B6" || fail "IPv6 ping $A6 -> $B6"
ping4 "$NS_B" "$A4" || fail "IPv4 ping $B4 -> $A4"
ping6 "$NS_B" "$A6" || fail "IPv6 ping $B6 -> $A6"
expect_fail ping4 "$NS_A" 192.0.2.99 1
expect_fail ping6 "$NS_A" 2001:db8::99 1

# netem: a 100 ms delay shows in the round trip.
topo_netem "$NS_A" "$IF_A" delay 100ms
rtt=$(in_ns "$NS_A" busybox ping -c 1 -W 2 "$B4" | sed -n 's/.*time=\([0-9]*\).*/\1/p')
[ "${rtt:-0}" -ge 100 ] || fail "netem delay 100ms: rtt ${rtt:-none} ms"
topo_netem_clear "$NS_A" "$IF_A"

topo_link_down "$NS_B" "$IF_B"
expect_fail ping4 "$NS_A" "$B4" 1
topo_link_up "$NS_B" "$IF_B"
wait_until 5 ping4 "$NS_A" "$B4" 1 || fail "IPv4 after link up"
wait_until 5 ping6 "$NS_A" "$B6" 1 || fail "IPv6 after link up"

# Bridge: unicast between hosts, and one multicast datagram per family
# from h1 reaching both other hosts.
topo_bridge 3
ping4 "$NS_H1" "$H3_4" || fail "bridge IPv4 ping h1 -> h3"
ping6 "$NS_H3" "$H2_6" || fail "bridge IPv6 ping h3 -> h2"

mcast_recv() { # NS GROUP READYFILE -> prints the first datagram to port 5000
	py_run -n "$1" 00-harness-mcast-recv.py "$2" "$IF_H" "$3"
}
mcast_send() { # NS GROUP: sends without naming an interface (uses the routes)
	py_run -n "$1" 00-harness-mcast-send.py "$2"
}
tmp=$(mktemp -d)
on_exit "rm -rf $tmp"
for g in 239.1.2.3 ff0e::1:2:3; do
	rm -f "$tmp"/ready*
	mcast_recv "$NS_H2" "$g" "$tmp/ready2" >"$tmp/h2" &
	r2=$!
	mcast_recv "$NS_H3" "$g" "$tmp/ready3" >"$tmp/h3" &
	r3=$!
	wait_until 20 test -e "$tmp/ready2" -a -e "$tmp/ready3" || fail "multicast receivers did not start"
	mcast_send "$NS_H1" "$g"
	wait $r2 || fail "multicast $g: h2 received nothing"
	wait $r3 || fail "multicast $g: h3 received nothing"
	assert_eq "h2 got" "hello $g" "$(cat "$tmp/h2")"
	assert_eq "h3 got" "hello $g" "$(cat "$tmp/h3")"
done
echo "harness ok"
