#!/bin/bash
# The netlink battery (tests/fuzz/nlfuzz.py): every command of the udpcp
# family with random, boundary and malformed attributes over raw generic
# netlink, 4000 requests as root (600 on the debug kernel) and 1000 (150)
# as an unprivileged user (setpriv --reuid=65534).  Requests name real
# sockets (ports 5000-5003 in NS_A: IPv4, IPv6 dual-stack, IPv4 bound to an
# address, one with a peer from traffic).  Fails on a refusal without an
# extack message where one is due (see nlfuzz.py: EINVAL and ERANGE always),
# on EPERM as root, on an admin command an unprivileged user is not refused
# with EPERM, and when the unprivileged run changed the namespace's
# defaults or configured peers.  Any kernel report fails it too (harness).
# Counts: UDPCP_NLFUZZ_COUNT overrides the root count (the unprivileged run
# is a quarter of it).
# timeout: 300
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../fuzz/lib.sh"

n=${UDPCP_NLFUZZ_COUNT:-$(fz_count 4000 600)}
nu=$((n / 4))
udpcp_load
topo_pair
run_a() { ip netns exec "$NS_A" "$@"; }
run_a "$TOOL" recv -b 0.0.0.0 5000 -t 3600000 >/dev/null 2>&1 &
on_exit "kill $! 2>/dev/null"
run_a "$TOOL" recv -b :: 5001 -t 3600000 >/dev/null 2>&1 &
on_exit "kill $! 2>/dev/null"
run_a "$TOOL" recv -b "$A4" 5002 -t 3600000 >/dev/null 2>&1 &
on_exit "kill $! 2>/dev/null"
ip netns exec "$NS_B" "$TOOL" recv -b :: 6000 -t 3600000 >/dev/null 2>&1 &
on_exit "kill $! 2>/dev/null"
for p in 5000 5001 5002; do fz_wait_port "$NS_A" $p; done
fz_wait_port "$NS_B" 6000
# A socket with a peer from traffic: syncing with a dead port for 10 minutes.
run_a "$TOOL" send -d "$B4" 6999 -b 0.0.0.0 5003 -n 5 -s 3000 --tx-timeout 60000 \
	--max-try 10 --flush 3600000 >/dev/null 2>&1 &
on_exit "kill $! 2>/dev/null"
fz_wait_port "$NS_A" 5003
ports=(--port 5000 --port 5001 --port 5002 --port 5003)

seed=${UDPCP_NLFUZZ_SEED:-$RANDOM}
t0=$SECONDS
run_a python3 "$FZ/nlfuzz.py" --count "$n" --time 900 --seed "$seed" "${ports[@]}" \
	>"$FZ_TMP/root.out" 2>&1 || rc=$?
cat "$FZ_TMP/root.out"
[ "${rc:-0}" = 0 ] || fail "nlfuzz as root: $(grep -m1 FAIL "$FZ_TMP/root.out" || tail -n 3 "$FZ_TMP/root.out")"

# What the unprivileged run must not change.
state() {
	run_a "$CTL" -j defaults show
	run_a "$CTL" -j peer show | jq -c 'map(select(.flags | index("configured"))
		| del(.idle_ms, .rtt_us, .stats, .state, .next_msg_id, .last_rx_msg_id, .flags))
		| sort_by(.remote_address, .remote_port, .local_port)'
}
before=$(state)
run_a setpriv --reuid=65534 --regid=65534 --clear-groups \
	python3 "$FZ/nlfuzz.py" --count "$nu" --time 600 --seed "$((seed + 1))" "${ports[@]}" \
	--expect-unpriv >"$FZ_TMP/unpriv.out" 2>&1 || rc=$?
cat "$FZ_TMP/unpriv.out"
[ "${rc:-0}" = 0 ] || fail "nlfuzz unprivileged: $(grep -m1 FAIL "$FZ_TMP/unpriv.out" || tail -n 3 "$FZ_TMP/unpriv.out")"
after=$(state)
[ "$before" = "$after" ] || fail "the unprivileged run changed the namespace: before $before after $after"
echo "nlfuzz: $((n + nu)) netlink requests tried ($n as root, $nu unprivileged) in $((SECONDS - t0))s"
