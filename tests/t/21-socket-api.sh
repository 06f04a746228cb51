#!/bin/bash
# The socket API behaves as for UDP, over IPv4, IPv6 and dual-stack mapped:
# bind to port 0 and autobind pick a port (getsockname); connect sets a
# default destination (send without an address works, getpeername tells
# it, an explicit address still wins) and connect(AF_UNSPEC) undoes it
# (EDESTADDRREQ); recvfrom names the sender; MSG_TRUNC (flag out, and in:
# the real length), MSG_PEEK, MSG_DONTWAIT (EAGAIN), SO_RCVTIMEO (EAGAIN
# after the timeout), poll (POLLIN only with a message, POLLOUT),
# IP_PKTINFO / IPV6_RECVPKTINFO (the local address and interface); a full
# send buffer (EAGAIN with MSG_DONTWAIT, no POLLOUT until it drains); IPv6
# link-local addresses with a scope ID, both ways.
# timeout: 90
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

for fam in $FAMILIES; do
	out=$(py_run 21-socket-api.py "$fam" "$(fam_dst "$fam")" "$(fam_src "$fam")" "$IF_B" "$NS_A" "$NS_B" "$IF_A" 2>&1) || fail "$out"
	echo "$out"
done
echo "socket api ok"
