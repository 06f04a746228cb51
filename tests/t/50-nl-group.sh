#!/bin/bash
# Multicast groups through netlink: group join makes multicast sent to the
# group (from another namespace, in no-ack mode) arrive at the socket,
# group leave stops it, joining again resumes it; IPv4 and IPv6 groups, an
# IPv4 group on a dual-stack socket; group show lists memberships (plain,
# JSON, filtered); joining twice is "the socket is a member of that group
# already", leaving twice "... not a member ..."; closing the socket drops
# its memberships.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
B=$NS_B
G4=239.1.2.3 G6=ff0e::1:3 G4b=239.1.2.4
IFB=$(ip -n "$B" -o link show dev "$IF_B" | cut -d: -f1)

# Receivers printing a line per message, for the whole test.
declare -A RPID
recv() { # PORT ADDR [OPTS]
	local port=$1 addr=$2
	shift 2
	ip netns exec "$B" "$TOOL" recv -b "$addr" "$port" -t 600000 --print "$@" \
		>"$NL_TMP/recv-$port" 2>&1 &
	RPID[$port]=$!
	disown $!
	wait_until 30 _sock_listed "$B" "$port" || fail "receiver on $port"
}
recv 5000 0.0.0.0
recv 6000 :: --v6only 1
recv 6001 :: --v6only 0
got() { grep -c '"verdict"' "$NL_TMP/recv-$1" || true; }
send() { # GROUP PORT COUNT
	ip netns exec "$NS_A" "$TOOL" send -d "$1" "$2" -n "$3" -s 50 >"$NL_TMP/send.out" ||
		fail "send to $1 $2: $(cat "$NL_TMP/send.out")"
}
# expect PORT COUNT: wait for COUNT messages there, then make sure no more come.
expect() {
	wait_until 10 "[ \$(got $1) -ge $2 ]" || true
	sleep 0.5
	check_eq "messages at $1" "$2" "$(got "$1")"
}

echo "# nothing joined: nothing arrives"
check "group show, none" 0 "" "" uctl "$B" group show
check "-j group show, none" 0 "[]" "" uctl "$B" -j group show
send "$G4" 5000 2
expect 5000 0

echo "# join: multicast arrives"
check "join $G4" 0 "" "" uctl "$B" group join "$G4" dev "$IF_B" local 5000
check "join $G4 again" 2 "" "Error: the socket is a member of that group already" \
	uctl "$B" group join "$G4" dev "$IF_B" local 5000
check "join $G6 (ifindex)" 0 "" "" uctl "$B" group join "$G6" ifindex "$IFB" local "[::]:6000"
check "join $G4b on dual stack" 0 "" "" uctl "$B" group join "$G4b" local 6001
check "group show" 0 "group $G4 dev $IF_B local 0.0.0.0:5000
group $G4b dev $IF_B local [::]:6001
group $G6 dev $IF_B local [::]:6000" "" bash -c "\"\$U\" -n \"$B\" group show | sort"
check "-j group show $G4" 0 "[{\"group\":\"$G4\",\"ifindex\":$IFB,\"dev\":\"$IF_B\",\"local_address\":\"0.0.0.0\",\"local_port\":5000}]" "" \
	uctl "$B" -j group show "$G4"
check "filter by socket" 0 "group $G6 dev $IF_B local [::]:6000" "" uctl "$B" group show local 6000
check "filter by dev" 0 "3" "" bash -c "\"\$U\" -n \"$B\" group show dev $IF_B | wc -l"
check "filter, no match" 0 "" "" uctl "$B" group show 239.9.9.9
send "$G4" 5000 3
send "$G6" 6000 2
send "$G4b" 6001 1
expect 5000 3
expect 6000 2
expect 6001 1
check "from A" 0 "$A4" "" bash -c "jq -r .src '$NL_TMP/recv-5000' | sed 's/:[0-9]*\$//' | sort -u"

echo "# leave: it stops; join again: it resumes"
check "leave $G4" 0 "" "" uctl "$B" group leave "$G4" dev "$IF_B" local 5000
check "leave $G4 again" 2 "" "Error: the socket is not a member of that group" \
	uctl "$B" group leave "$G4" dev "$IF_B" local 5000
check "leave $G6" 0 "" "" uctl "$B" group leave "$G6" local 6000
check "left" 0 "group $G4b dev $IF_B local [::]:6001" "" uctl "$B" group show
send "$G4" 5000 2
send "$G6" 6000 2
expect 5000 3
expect 6000 2
check "join $G4 again" 0 "" "" uctl "$B" group join "$G4" local 5000
send "$G4" 5000 1
expect 5000 4

echo "# refusals"
check "no such device" 1 "" 'udpcpctl: dev: cannot find device "nosuch"' \
	uctl "$B" group join "$G4" dev nosuch local 5000
check "no such ifindex" 2 "" "Error: no such interface" uctl "$B" group join 239.1.2.9 ifindex 999 local 5000
check "not multicast" 1 "" 'udpcpctl: group join: "192.0.2.9" is not a multicast address' \
	uctl "$B" group join 192.0.2.9 local 5000
check "no socket" 2 "" "Error: no UDPCP socket is bound there" uctl "$B" group join "$G4" local 5999
check "IPv6 group, IPv4 socket" 2 "" "Error: an IPv4 socket cannot join an IPv6 group" \
	uctl "$B" group join "$G6" local 5000
check "IPv4 group, IPv6-only socket" 2 "" "Error: an IPv6-only socket cannot join an IPv4 group" \
	uctl "$B" group join "$G4" local 6000
check "memberships unchanged" 0 "2" "" bash -c "\"\$U\" -n \"$B\" group show | wc -l"

echo "# a closed socket's memberships go"
kill "${RPID[5000]}"
wait_until 10 '! _sock_listed "$B" 5000' || true
check "after close" 0 "group $G4b dev $IF_B local [::]:6001" "" uctl "$B" group show
check "A has none" 0 "[]" "" uctl "$NS_A" -j group show
nl_done
