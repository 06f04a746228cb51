#!/bin/bash
# Lifecycle under load (a): sockets closed with messages in flight and
# timers armed, 30 cycles (3 on the debug kernel).  Each cycle, in NS_A:
# a sender closes right after queueing messages (syncing, first fragments
# out) toward a receiver behind 30% netem loss; an IPv6 single-ack sender
# of 60000-octet messages does the same; a sender to a dead port closes
# after 0-50 ms of retransmissions; a sender killed with SIGKILL in the
# middle of UDPCP_FLUSH.  Every 10 cycles the receivers in NS_B are killed
# too, holding partial messages and undelivered ones.  Meanwhile a witness
# exchange in two other namespaces must deliver everything exactly once.
# Afterwards no socket holds the module and it unloads.
# timeout: 400
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../fuzz/lib.sh"

cycles=${FZ_CYCLES:-$(fz_count 30 3)}
udpcp_load
topo_pair
fz_witness_start
# Data A -> B is lost (acks too: netem on both ends).
topo_netem "$NS_A" "$IF_A" delay 1ms loss 30%
topo_netem "$NS_B" "$IF_B" loss 10%

rpids=()
start_receivers() {
	local p
	for p in "${rpids[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	ip netns exec "$NS_B" "$TOOL" recv -b 0.0.0.0 6000 -t 3600000 >/dev/null 2>&1 &
	rpids=($!)
	ip netns exec "$NS_B" "$TOOL" recv -b :: 6001 -t 3600000 >/dev/null 2>&1 &
	rpids+=($!)
	fz_wait_port "$NS_B" 6000
	fz_wait_port "$NS_B" 6001
}
on_exit 'kill -KILL "${rpids[@]}" 2>/dev/null'

t0=$SECONDS
for ((i = 1; i <= cycles; i++)); do
	((i % 10 == 1)) && start_receivers
	pids=()
	# Closes at once: the sync (or the first window) is in flight.
	ip netns exec "$NS_A" "$TOOL" send -d "$B4" 6000 -n 6 --sizes 100,3000,30000 --flush 0 >/dev/null 2>&1 &
	pids+=($!)
	ip netns exec "$NS_A" "$TOOL" send -d "$B6" 6001 -n 3 -s 60000 --mode single-ack --flush 0 >/dev/null 2>&1 &
	pids+=($!)
	# A dead port: nothing acknowledges; closes during the retries.
	ip netns exec "$NS_A" "$TOOL" send -d "$B4" 6999 -n 3 -s 5000 --tx-timeout 10 --flush $((RANDOM % 50)) >/dev/null 2>&1 &
	pids+=($!)
	# Killed in the middle of its flush.
	ip netns exec "$NS_A" "$TOOL" send -d "$B4" 6000 -n 20 -s 5000 --flush 10000 >/dev/null 2>&1 &
	k=$!
	sleep "0.0$((RANDOM % 10))"
	kill -KILL "$k" 2>/dev/null || true
	for p in "${pids[@]}" "$k"; do
		wait "$p" 2>/dev/null || true
	done
done
t_loop=$((SECONDS - t0))
echo "close-in-flight: $cycles cycles in ${t_loop}s"
kill -KILL "${rpids[@]}" 2>/dev/null || true
wait "${rpids[@]}" 2>/dev/null || true
fz_witness_stop
fz_wait_released 60 || fail "sockets still hold the module: refcnt $(fz_refcnt)"
fz_unload_clean
echo "close-in-flight: module unloaded clean"
