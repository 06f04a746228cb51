#!/bin/bash
# Lifecycle under load (b): a namespace holding UDPCP sockets with traffic
# running is deleted, 30 cycles (4 on the debug kernel, one of them with
# a veth).  Each cycle a fresh namespace X gets receivers and senders
# over loopback (IPv4 and IPv6, 1-, 3- and 22-fragment messages), a
# netlink peer template, a sender to a dead port and, every third cycle,
# a veth to NS_B with a sender to a long-lived receiver there (which
# keeps the state of a peer whose namespace vanishes).  After 0.1-0.3 s
# the namespace goes: its processes killed, then `ip netns del` (even
# cycles), or `ip netns del` first and the processes killed after (odd
# cycles: the namespace dies with its last process).  A witness exchange
# in two other namespaces must deliver everything exactly once;
# afterwards no socket holds the module and it unloads.
#
# On the debug kernel this is what found IPv6 packets counted in the
# per-CPU stats of an ordinary device as if it were a tunnel's: per-CPU
# memory of others overwritten (a namespace's device refcount, mount
# write counts, route caches), seen as "waiting for sit0 to become free"
# and a WARNING in cleanup_mnt, and on Debian's kernel as a freed route.
# timeout: 900
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../fuzz/lib.sh"

cycles=${FZ_CYCLES:-$(fz_count 30 4)}
udpcp_load
topo_pair
fz_witness_start
ip netns exec "$NS_B" "$TOOL" recv -b 0.0.0.0 6100 -t 3600000 >/dev/null 2>&1 &
bpid=$!
on_exit "kill -KILL $bpid 2>/dev/null"
fz_wait_port "$NS_B" 6100

ns_pids() { ip netns pids "$1" 2>/dev/null | tr '\n' ' '; }

t0=$SECONDS
for ((i = 1; i <= cycles; i++)); do
	x=fz61-$$-x$i
	ip netns add "$x"
	ip -n "$x" link set lo up
	ip netns exec "$x" sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
	if ((i % 3 == 0)); then
		# A /30 of 203.0.113.0/24 per cycle: the last cycle's devices may
		# still be going away.
		o=$((4 * (i % 60)))
		ip link add "vx$i" netns "$x" type veth peer name "vb$i" netns "$NS_B"
		ip -n "$x" addr add "203.0.113.$((o + 1))/30" dev "vx$i"
		ip -n "$NS_B" addr add "203.0.113.$((o + 2))/30" dev "vb$i"
		ip -n "$x" link set "vx$i" up
		ip -n "$NS_B" link set "vb$i" up
	fi
	cp=()
	ip netns exec "$x" "$TOOL" recv -b 127.0.0.1 6000 -t 3600000 >/dev/null 2>&1 &
	cp+=($!)
	ip netns exec "$x" "$TOOL" recv -b ::1 6001 -t 3600000 >/dev/null 2>&1 &
	cp+=($!)
	ip netns exec "$x" "$CTL" peer add 127.0.0.1 port 6000 mode single-ack >/dev/null 2>&1 || true
	ip netns exec "$x" "$TOOL" send -d 127.0.0.1 6000 -n 100000 --sizes 100,3000,30000 >/dev/null 2>&1 &
	cp+=($!)
	ip netns exec "$x" "$TOOL" send -d ::1 6001 -n 100000 --sizes 3000,100 >/dev/null 2>&1 &
	cp+=($!)
	ip netns exec "$x" "$TOOL" send -d 127.0.0.1 6999 -n 5 -s 3000 >/dev/null 2>&1 &
	cp+=($!)
	if ((i % 3 == 0)); then
		ip netns exec "$x" "$TOOL" send -d "203.0.113.$((o + 2))" 6100 -n 100000 \
			--sizes 30000,100 >/dev/null 2>&1 &
		cp+=($!)
	fi
	sleep "0.$((RANDOM % 3 + 1))"
	if ((i % 2 == 0)); then
		# shellcheck disable=SC2046
		kill -KILL $(ns_pids "$x") 2>/dev/null || true
		ip netns del "$x"
	else
		pids=$(ns_pids "$x")
		ip netns del "$x"
		# shellcheck disable=SC2086
		kill -KILL $pids 2>/dev/null || true
	fi
	for p in "${cp[@]}"; do
		wait "$p" 2>/dev/null || true
	done
done
t_loop=$((SECONDS - t0))
echo "netns-delete: $cycles cycles in ${t_loop}s"
kill -KILL "$bpid" 2>/dev/null || true
wait "$bpid" 2>/dev/null || true
fz_witness_stop
# Namespaces are dismantled by a workqueue, in batches.
fz_wait_released 120 || fail "sockets still hold the module: refcnt $(fz_refcnt)"
fz_unload_clean
echo "netns-delete: module unloaded clean"
