#!/bin/bash
# Malformed and edge-case packets from a plain UDP socket (tests/peer/craft.py,
# every case) at a UDPCP socket, over IPv4, IPv6 and dual-stack mapped (an
# AF_INET6 receiver without V6ONLY, the crafter on IPv4): after each case
# the receiver's UDPCP_INFO moved exactly as the case expects (rx_msgs,
# rx_malformed, crc_errors, rx_duplicates, rx_discarded_frags, rx_timeout),
# the acks that came back are the expected number (and D=1 ones), and only
# the messages the case expects were delivered, with the right content.
# Then 600 mutated and random datagrams (no oops, the socket keeps working):
# a legitimate message from a UDPCP socket still arrives.
#
# One reading differs from the Python peer's: when a message's fragments
# do not add up to its length ("frag-sum"), the module counts the stored
# fragment as discarded and the completing one as malformed (1 discarded),
# the Python peer both as discarded (2).  The doc only says "drop, count".
# timeout: 150
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

i=0
for fam in $FAMILIES; do
	i=$((i + 1))
	port=$((6000 + i))
	case $fam in
	v6) dst=$B6 ;;
	*) dst=$B4 ;;
	esac
	out=$(py_run 26-malformed.py "$fam" "$dst" "$port" "$NS_A" "$NS_B" 2>&1) || fail "$out"
	echo "$out"
done
echo "malformed ok"
