#!/bin/bash
# ICMP errors about what a socket sent are heard, matched to the message in
# flight, counted per peer, and name the cause when the message fails.
# A <-> B, B a router (forwarding on) to 198.51.100.0/24 and
# 2001:db8:100::/64 on a link where nobody answers ARP/ND, with no route to
# 203.0.113.0/24 and 2001:db8:300::/64, a blackhole to 198.51.200.0/24 and
# 2001:db8:200::/64.  Per family (IPv4, IPv6, dual-stack mapped), tx
# timeout 300 ms, max tries 3:
#  - a message to a closed port on B fails with ECONNREFUSED on the error
#    queue (ID, length, destination); the peer counts exactly 3 ICMP errors
#    (one per sync sent) and `udpcpctl peer show` shows the last one
#    (text and JSON);
#  - a message to a host B cannot resolve fails with EHOSTUNREACH, to a net
#    B has no route to with ENETUNREACH;
#  - a receiver that starts listening 0.6 s after the message was sent to
#    its closed port (max tries 6: inside the retry window, after port
#    unreachables were counted) gets the message exactly once, and nothing
#    fails;
#  - forged port unreachables (raw socket at B) quoting the message already
#    delivered, the next ID, the sync and another port change nothing: no
#    count, nothing on the error queue, the next message delivered; one
#    quoting a message in flight to the blackhole is counted and names its
#    failure (so the forged packets are well-formed: the test can fail).
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

# B answers every error: no ICMP rate limit (per namespace), and no cost
# per routing error (global on 6.1: restored on exit).
in_ns "$NS_B" sysctl -qw net.ipv4.icmp_ratelimit=0 net.ipv6.icmp.ratelimit=0 \
	net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
old_cost=$(sysctl -n net.ipv4.route.error_cost)
on_exit "sysctl -qw net.ipv4.route.error_cost=$old_cost"
sysctl -qw net.ipv4.route.error_cost=0
in_ns "$NS_B" sysctl -qw net.ipv4.route.error_cost=0 2>/dev/null || true

# B's link to hosts that never answer: resolution fails after 100 ms.
ip -n "$NS_B" link add vx0 type veth peer name vx1
ip -n "$NS_B" link set vx1 up
in_ns "$NS_B" sysctl -qw net.ipv4.neigh.vx0.retrans_time_ms=100 net.ipv4.neigh.vx0.mcast_solicit=1 \
	net.ipv6.neigh.vx0.retrans_time_ms=100 net.ipv6.neigh.vx0.mcast_solicit=1
ip -n "$NS_B" addr add 198.51.100.1/24 dev vx0
ip -n "$NS_B" addr add 2001:db8:100::1/64 dev vx0 nodad
ip -n "$NS_B" link set vx0 up
ip -n "$NS_B" route add blackhole 198.51.200.0/24
ip -n "$NS_B" -6 route add blackhole 2001:db8:200::/64
for net in 198.51.100.0/24 198.51.200.0/24 203.0.113.0/24; do
	ip -n "$NS_A" route add "$net" via "$B4"
done
for net in 2001:db8:100::/64 2001:db8:200::/64 2001:db8:300::/64; do
	ip -n "$NS_A" -6 route add "$net" via "$B6"
done
static_neigh

i=0
for fam in $FAMILIES; do
	i=$((i + 1))
	out=$(py_run 36-icmp.py "$fam" "$NS_A" "$NS_B" "$A4" "$B4" "$A6" "$B6" "$i" 2>&1) || fail "$out"
	# The figures also go to the kernel log, which the harness keeps.
	while read -r line; do
		echo "$line"
		echo "<6>udpcp-test: 36: $fam $line" >/dev/kmsg 2>/dev/null || true
	done <<<"$out"
done
echo "icmp ok"
