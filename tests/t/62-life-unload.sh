#!/bin/bash
# Lifecycle under load (c): load -> traffic -> close -> rmmod at once, 30
# cycles (5 on the debug kernel).  Each cycle loads the module, sends 20
# messages (1, 3 and 22 fragments; IPv4 and IPv6 in turn; ack and
# single-ack in turn) that must arrive exactly once and intact, leaves a
# netlink peer template and a configured peer behind, kills a sender to a
# dead port in the middle of its retries on odd cycles, and then unloads the
# module as soon as the last socket is gone: rmmod is tried at once and
# every 20 ms (sockets are freed after an RCU grace period) and must
# succeed within 10 s.  No witness can run across an unload (any open
# UDPCP socket pins the module): the per-cycle exchange is the check.
# timeout: 700
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../fuzz/lib.sh"

cycles=${FZ_CYCLES:-$(fz_count 30 5)}
n=20
topo_pair
udpcp_unload

max_tries=0
t0=$SECONDS
for ((i = 1; i <= cycles; i++)); do
	udpcp_load
	if ((i % 2)); then dst=$B4 any=0.0.0.0; else dst=$B6 any=::; fi
	if ((i % 4 < 2)); then mode=ack; else mode=single-ack; fi
	ip netns exec "$NS_B" "$TOOL" recv -b "$any" 6000 -n $n -t 60000 >"$FZ_TMP/r" 2>&1 &
	r=$!
	fz_wait_port "$NS_B" 6000
	ip netns exec "$NS_A" "$CTL" peer add "$dst" port 6000 mode "$mode" >/dev/null ||
		fail "cycle $i: peer template add"
	if ((i % 2)); then
		ip netns exec "$NS_A" "$TOOL" send -d "$B4" 6999 -n 3 -s 3000 --tx-timeout 5 >/dev/null 2>&1 &
		k=$!
	fi
	ip netns exec "$NS_A" "$TOOL" send -d "$dst" 6000 -b "$any" 6500 -n $n \
		--sizes 100,3000,30000 --mode "$mode" >"$FZ_TMP/s" 2>&1 ||
		fail "cycle $i: send: $(cat "$FZ_TMP/s")"
	# A configured peer on the receiver's socket while it still exists.
	ip netns exec "$NS_B" "$CTL" peer add "$A4" port 7000 local-port 6000 >/dev/null 2>&1 || true
	wait "$r" || fail "cycle $i: recv: $(cat "$FZ_TMP/r")"
	if ((i % 2)); then
		kill -KILL "$k" 2>/dev/null || true
		wait "$k" 2>/dev/null || true
	fi
	# At once, then every 20 ms for 10 s.
	for ((t = 1; t <= 500; t++)); do
		rmmod udpcp 2>/dev/null && break
		sleep 0.02
	done
	grep -q '^udpcp ' /proc/modules && fail "cycle $i: rmmod failed for 10 s (refcnt $(fz_refcnt))"
	((t > max_tries)) && max_tries=$t
done
t_loop=$((SECONDS - t0))
echo "unload-after-close: $cycles cycles ($((cycles * n)) messages exactly once) in ${t_loop}s;" \
	"rmmod succeeded after at most $max_tries tries"
