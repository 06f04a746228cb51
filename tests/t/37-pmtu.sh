#!/bin/bash
# The path MTU drops in the middle of traffic: A -- R -- B, R routing,
# N = 500 ack-mode messages of 5000 octets from A to B per family while
# R's link toward B goes from MTU 1500 to 1280 (after N/5 messages
# arrived) and back to 1500 (after 3N/5).  Not fewer on the debug kernel:
# there udpcpctl, which watches the count, lags by some 60 messages (with
# 200, IPv6 was done before the MTU dropped).  R answers the fragments
# that no longer fit with ICMP "fragmentation needed" / "packet too big", the kernel
# lowers A's route MTU, and the message in flight starts again under a
# new ID with smaller fragments: 0 failed, every message delivered once,
# in order, intact; the capture at B holds fragments of both sizes (1460
# and 1240 octets of payload for IPv4, 1440 and 1220 for IPv6) and not
# one IP fragment (IPv4 carries DF, IPv6 routers never fragment).
# R's ICMP rate limits are off, so that each family's single drop is
# answered at once; R delays what it sends to A by 10 ms.
# timeout: 240
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

N=500
SIZE=5000
CTL=$REPO/udpcpctl/udpcpctl

udpcp_load
_ns_add NS_A a
_ns_add NS_R r
_ns_add NS_B b
ip link add veth-a netns "$NS_A" index 10 type veth peer name veth-ra netns "$NS_R" index 11
ip link add veth-b netns "$NS_B" index 12 type veth peer name veth-rb netns "$NS_R" index 13
_if_up "$NS_A" veth-a 192.0.2.1/24 2001:db8::1/64
_if_up "$NS_R" veth-ra 192.0.2.254/24 2001:db8::fe/64
# (_if_up would add R's multicast route a second time.)
ip -n "$NS_R" addr add 198.51.100.254/24 dev veth-rb
ip -n "$NS_R" addr add 2001:db8:1::fe/64 dev veth-rb nodad
ip -n "$NS_R" link set veth-rb up
_if_up "$NS_B" veth-b 198.51.100.2/24 2001:db8:1::2/64
ip -n "$NS_A" route add default via 192.0.2.254
ip -n "$NS_A" -6 route add default via 2001:db8::fe
ip -n "$NS_B" route add default via 198.51.100.254
ip -n "$NS_B" -6 route add default via 2001:db8:1::fe
in_ns "$NS_R" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1 \
	net.ipv4.icmp_ratelimit=0 net.ipv6.icmp.ratelimit=0
for d in "$NS_A veth-a" "$NS_R veth-ra" "$NS_R veth-rb" "$NS_B veth-b"; do
	# shellcheck disable=SC2086 # NS DEV
	_wait_oper $d
done

# Acks back to A take 10 ms, so that a message takes that long at least
# and the MTU changes while messages flow (unpaced, 500 take a second).
topo_netem "$NS_R" veth-ra delay 10ms

rx_msgs() { "$CTL" -n "$NS_B" -j stats | jq .rx_msgs; }

# check_capture PCAP FAMILY BIG SMALL: prints what is wrong, if anything.
check_capture() {
	py_run 37-pmtu-capture.py "$@"
}

port=6000
for fam in v4 v6; do
	port=$((port + 1))
	if [ "$fam" = v4 ]; then
		dst=198.51.100.2 bind=0.0.0.0 opts="" big=1460 small=1240
	else
		dst=2001:db8:1::2 bind=:: opts="--v6only 1" big=1440 small=1220
	fi
	ip -n "$NS_R" link set veth-rb mtu 1500
	base=$(rx_msgs)
	cap_start "$NS_B" veth-b "$TMP/$fam.pcap"
	# shellcheck disable=SC2086
	bg_start "recv-$fam" in_ns "$NS_B" "$TOOL" recv -b "$bind" "$port" $opts \
		-n "$N" -t $((120000 * ${UDPCP_TIMEOUT_SCALE:-1})) --rcvbuf 8388608 --info
	wait_port "$NS_B" "$port"
	bg_start "send-$fam" in_ns "$NS_A" "$TOOL" send -d "$dst" "$port" -n "$N" -s "$SIZE" \
		--mode ack --tx-timeout 200 --max-try 5 --flush 60000 --info

	# shellcheck disable=SC2016 # eval'ed by wait_until
	wait_until 120 '[ $(($(rx_msgs) - base)) -ge $((N / 5)) ]' || fail "$fam: $((N / 5)) messages did not arrive"
	ip -n "$NS_R" link set veth-rb mtu 1280
	# shellcheck disable=SC2016
	wait_until 120 '[ $(($(rx_msgs) - base)) -ge $((N * 3 / 5)) ]' || fail "$fam: $((N * 3 / 5)) messages did not arrive"
	ip -n "$NS_R" link set veth-rb mtu 1500

	bg_wait "send-$fam" || fail "$fam sender: $(cat "$TMP/send-$fam.out" "$TMP/send-$fam.err")"
	bg_wait "recv-$fam" || fail "$fam receiver: $(cat "$TMP/recv-$fam.out" "$TMP/recv-$fam.err")"
	s=$(bg_json "send-$fam")
	r=$(bg_json "recv-$fam")
	json_check "$fam sender" "$s" ".sent == $N and .failed == 0 and .flush == \"ok\" and .info.tx_msgs == $N and .info.tx_timeout == 0"
	json_check "$fam receiver" "$r" ".received == $N and .bad == 0 and .dups == 0 and .out_of_order == 0 and .info.rx_msgs == $N"
	cap_stop
	sum=$(check_capture "$TMP/$fam.pcap" "$fam" "$big" "$small") || fail "$fam capture: $sum"
	note "$sum; sender retries $(jget "$s" .info.tx_retries)"
	echo "$fam ok: $sum"
done
echo "pmtu ok"
