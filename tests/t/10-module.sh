#!/bin/bash
# The module's life cycle: load and unload, socket() for both families with
# and without the module, autoload, the genl family, and a namespace holding
# UDPCP sockets deleted before unload.
# timeout: 180
. "$(dirname "$0")/../lib/common.sh"

# Prints "ok" or the errno name of socket(FAMILY, SOCK_DGRAM, IPPROTO_UDPCP).
try_socket() {
	py_run 10-module-socket.py "$1"
}

udpcp_unload
assert_eq "AF_INET without module" EPROTONOSUPPORT "$(try_socket 4)"
assert_eq "AF_INET6 without module" EPROTONOSUPPORT "$(try_socket 6)"

# Python starts slowly under TCG: sockets are tried on the first and last load.
for i in $(seq 20); do
	udpcp_load
	if [ "$i" = 1 ] || [ "$i" = 20 ]; then
		assert_eq "AF_INET socket (load $i)" ok "$(try_socket 4)"
		assert_eq "AF_INET6 socket (load $i)" ok "$(try_socket 6)"
	fi
	udpcp_unload || fail "unload $i"
done
grep -q '^udpcp ' /proc/modules && fail "module still loaded"

# genl family, only while loaded
expect_fail genl ctrl get name udpcp 2>/dev/null
udpcp_load
genl ctrl get name udpcp | grep -q "Name: udpcp" || fail "genl family udpcp not registered"
udpcp_unload

# socket() loads the module (module alias net-pf-N-proto-258-type-2).
udpcp_install_for_autoload
assert_eq "AF_INET autoload" ok "$(try_socket 4)"
grep -q '^udpcp ' /proc/modules || fail "socket() did not load the module"
udpcp_unload
assert_eq "AF_INET6 autoload" ok "$(try_socket 6)"
grep -q '^udpcp ' /proc/modules || fail "AF_INET6 socket() did not load the module"
udpcp_unload

# A namespace holding bound sockets of both families (one with a message in
# flight to nobody) is deleted; then the module unloads.
udpcp_load
topo_pair
ready=$(mktemp -u)
on_exit "rm -f $ready"
py_run -n "$NS_A" 10-module-hold.py "$ready" &
holder=$!
# Python starts slowly on a loaded host: wait until the sockets exist.
wait_until 60 test -e "$ready" || fail "socket holder did not start"
# While sockets are open the module cannot go.
expect_fail rmmod udpcp 2>/dev/null
# As when a container dies: its processes are killed, its namespace deleted.
kill -KILL $(ip netns pids "$NS_A")
wait "$holder" 2>/dev/null || true
ip netns del "$NS_A"
udpcp_unload || fail "unload after namespace deletion"
echo "module lifecycle ok"
