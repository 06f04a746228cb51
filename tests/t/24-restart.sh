#!/bin/bash
# Restarts, over IPv4, IPv6 and dual-stack mapped:
#  - the sender closes its socket and opens a new one on the same port: its
#    next messages arrive (after a sync), and their message IDs continue
#    where the old socket stopped (the namespace keeps the ID history), so
#    a receiver that keeps its duplicate history does not drop them;
#  - the receiver closes and reopens its socket: the sender's next messages
#    arrive (the new receiver accepts whatever ID comes first);
#  - a socket on another local port starts its own sequence at 1.
# Every message is delivered once, in order; the capture at B shows the IDs.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

i=0
for fam in $FAMILIES; do
	i=$((i + 1))
	port=$((6000 + i)) sport=$((7000 + i))
	cap_start "$NS_B" "$IF_B" "$TMP/$fam.pcap"
	out=$(py_run 24-restart.py "$fam" "$(fam_dst "$fam")" "$(fam_src "$fam")" "$port" "$sport" "$NS_A" "$NS_B" 2>&1) || fail "$out"
	echo "$out"
	cap_stop
	cap_udpcp "$TMP/$fam.pcap" "$port" >"$TMP/$fam.json"
	ids=$(jq -r "select(.type == 1 and .sport == $sport and .num == 0) | .id" "$TMP/$fam.json" | uniq | tr '\n' ' ')
	assert_eq "$fam IDs from port $sport" "0 1 2 3 0 4 5 6 7 8 9 " "$ids"
	ids=$(jq -r "select(.type == 1 and .sport == $((sport + 100)) and .num == 0) | .id" "$TMP/$fam.json" | uniq | tr '\n' ' ')
	assert_eq "$fam IDs from port $((sport + 100))" "0 1 2 " "$ids"
	# Nothing was taken for a duplicate.
	assert_eq "$fam acks with D=1" 0 "$(jq -r 'select(.type == 2 and .d == 1) | .id' "$TMP/$fam.json" | wc -l)"
done
echo "restart ok"
