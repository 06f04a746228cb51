#!/bin/bash
# Shared fragments: two UDPCP sockets on one multicast group and port
# (SO_REUSEADDR) each get the same datagrams, as clones of one skb.  3000
# three-fragment no-ack messages (200 on the debug kernel) go to the group
# with their fragments in reverse order, so that fragment 0, which heads the
# reassembled message, arrives last.  Both sockets must deliver every
# message intact, and once they are closed the kernel's slab must be back
# near where it started: a head fragment whose shared info (frag_list) both
# sockets wrote would leak the other socket's fragments, about 5 kB per
# message.  Any kernel report fails it too (harness).
# timeout: 300
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../fuzz/lib.sh"

n=$(fz_count 3000 200)
udpcp_load
topo_pair
group=239.1.2.3

slab() { awk '/^Slab:/ { print $2 }' /proc/meminfo; }
echo 3 >/proc/sys/vm/drop_caches
slab0=$(slab)
py_run -n "$NS_B" 76-mcast-clone-recv.py "$group" 7000 "$n" >"$FZ_TMP/recv" 2>&1 &
r=$!
on_exit "kill $r 2>/dev/null; rm -f /dev/shm/fz76.ready"
wait_until 30 '[ -e /dev/shm/fz76.ready ]' || fail "receivers did not start"

py_run -n "$NS_A" 76-mcast-clone-send.py "$group" 7000 "$n" || fail "sender failed"
wait "$r" || fail "receivers: $(cat "$FZ_TMP/recv")"
echo "receivers: $(cat "$FZ_TMP/recv")"
fz_wait_released 60 || fail "sockets still hold the module"
sleep 2
echo 3 >/proc/sys/vm/drop_caches
slab1=$(slab)
echo "mcast-clone: $n reversed 3-fragment messages to 2 sockets; slab $slab0 kB -> $slab1 kB"
((slab1 - slab0 < 6000)) || fail "slab grew by $((slab1 - slab0)) kB after the sockets closed: fragments leaked"
