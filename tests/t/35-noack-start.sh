#!/bin/bash
# The start of a no-ack sequence, overtaken: a receiver that holds nothing
# of a source gets that source's message 2 whole before anything of message
# 1 (their packets took different CPUs' queues on the way).  Message 1 was
# never delivered, so it must not be taken for a duplicate: both arrive,
# then message 3; copies of 1 and 2 sent again afterwards are duplicates
# and are not delivered twice.  The packets are crafted over a plain UDP
# socket, in that order, for IPv4 and IPv6.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
udpcp_load
topo_pair
out=$(mktemp)
on_exit "rm -f $out /dev/shm/t35.ready.*"

for fam in 4 6; do
	if [ $fam = 4 ]; then dst=$B4; else dst=$B6; fi
	port=$((7100 + fam))
	py_run -n "$NS_B" 35-noack-start-recv.py "$fam" "$port" >"$out" 2>&1 &
	rpid=$!
	wait_until 30 "[ -e /dev/shm/t35.ready.$fam ]" || fail "receiver (IPv$fam) did not start"
	py_run -n "$NS_A" 35-noack-start-send.py "$fam" "$dst" "$port" || fail "sender failed"
	wait "$rpid" || true
	rm -f "/dev/shm/t35.ready.$fam"
	assert_eq "IPv$fam: messages delivered (first octet:length)" \
		"2:3000 1:3000 3:3000" "$(cat "$out")"
	echo "ok IPv$fam: 2 then 1 then 3, the copies of 1 and 2 not delivered again"
done
