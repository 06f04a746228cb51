#!/bin/bash
# A multicast or broadcast sender that restarts (closes its socket and opens
# a new one on the same port) keeps reaching its receivers.  Group traffic
# is never synced, so a receiver keeps the last message ID it delivered
# from that source and takes IDs at or behind it for duplicates: the new
# socket must continue the old one's ID sequence (the namespace's ID
# history) or its messages are silently dropped.  For an IPv4 group, an
# IPv6 group, an IPv4 group through a dual-stack socket and the IPv4
# broadcast address: 3 messages, restart, 3 more: all 6 delivered once, in
# order; the capture shows IDs 1-6.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

i=0
for kind in v4 v6 mapped bcast; do
	i=$((i + 1))
	port=$((6000 + i)) sport=$((7000 + i))
	case $kind in
	v4) group=239.1.2.3 join=(--join "239.1.2.3%$IF_B") bind=(-b 0.0.0.0 "$port") dst=$group ;;
	v6) group=ff0e::1:2:3 join=(--join "ff0e::1:2:3%$IF_B") bind=(-b :: "$port" --v6only 1) dst=$group ;;
	mapped) group=239.1.2.4 join=(--join "239.1.2.4%$IF_B") bind=(-b :: "$port" --v6only 0) dst=::ffff:$group ;;
	bcast) join=() bind=(-b 0.0.0.0 "$port") dst=192.0.2.255 ;;
	esac
	cap_start "$NS_B" "$IF_B" "$TMP/$kind.pcap"
	bg_start "rx-$kind" in_ns "$NS_B" "$TOOL" recv "${bind[@]}" "${join[@]}" -n 6 -t 30000
	wait_port "$NS_B" "$port"
	out=$(py_run -n "$NS_A" 31-group-restart.py "$kind" "$dst" "$port" "$sport" 2>&1) || fail "$kind sender: $out"
	rc=0
	bg_wait "rx-$kind" || rc=$?
	rx=$(bg_json "rx-$kind")
	cap_stop
	ids=$(cap_udpcp "$TMP/$kind.pcap" "$port" | jq -r "select(.type == 1 and .sport == $sport and .num == 0) | .id" | tr '\n' ' ')
	echo "$kind: receiver $rx; IDs on the wire: $ids"
	[ "$rc" = 0 ] || fail "$kind: receiver exit $rc, $rx (IDs on the wire: $ids)"
	json_check "$kind receiver" "$rx" '.received == 6 and .bad == 0 and .dups == 0 and .out_of_order == 0'
	assert_eq "$kind IDs on the wire" "1 2 3 4 5 6 " "$ids"
done
echo "group restart ok"
