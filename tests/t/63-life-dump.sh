#!/bin/bash
# Lifecycle under load (d): netlink dumps while peers come and go, 30
# cycles (3 on the debug kernel).  In NS_A (peer expiry 1 s):
#  - fzpeer churn (at least as many cycles, until the loop here is done):
#    per cycle a new socket sends to 150 random ports (150 new
#    peers, IPv4 and IPv6 in turn) and closes after 0-400 ms, taking its
#    peers along; a long-lived hub socket (port 5000) sends to 30 random
#    ports, whose peers the expiry collects a second later;
#  - the cycle loop here: udpcpctl peer add/change/del of peers configured
#    on the hub and of namespace templates, one new and one old per cycle;
#  - two dumpers: `udpcpctl -j peer show` and `udpcpctl -j -s sock show`
#    in loops.  Every peer dump must be valid JSON and hold the five peers
#    configured on the hub for the whole run (ports 9001-9005): peers present
#    throughout a dump are always reported, however the table resizes.
# A witness exchange in two other namespaces must deliver everything exactly
# once; afterwards only templates are left, and the module unloads.
# timeout: 700
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../fuzz/lib.sh"

cycles=${FZ_CYCLES:-$(fz_count 30 3)}
udpcp_load
topo_pair
fz_witness_start
ctl_a() { ip netns exec "$NS_A" "$CTL" "$@"; }
ctl_a defaults set peer-expiry 1000 || fail "defaults set peer-expiry"

ip netns exec "$NS_A" $FZPEER churn --dst "$B4" --dst6 "$B6" --hub "$A4" 5000 \
	--cycles "$cycles" --per-cycle 150 --hold-ms 400 --seed "$RANDOM" \
	--stop-file "$FZ_TMP/churn.stop" >"$FZ_TMP/churn" 2>&1 &
churn=$!
on_exit "kill $churn 2>/dev/null"
fz_wait_port "$NS_A" 5000
for p in 9001 9002 9003 9004 9005; do
	ctl_a peer add "$B4" port $p local-port 5000 mode ack || fail "peer add port $p"
done

# dumper NAME CMD...: runs CMD until $FZ_TMP/stop exists; counts runs in
# $FZ_TMP/NAME.n, failures (with the output) in $FZ_TMP/NAME.bad.
dumper() {
	local name=$1 n=0 out=$FZ_TMP/$1.out
	shift
	while [ ! -e "$FZ_TMP/stop" ]; do
		if ! "$@" >"$out" 2>&1; then
			{ echo "exit $?:"; cat "$out"; } >>"$FZ_TMP/$name.bad"
		elif [ "$name" = peers ] && ! jq -e \
			'map(select(.local_port == 5000 and .remote_port >= 9001 and .remote_port <= 9005) | .remote_port) | unique | length == 5' \
			"$out" >/dev/null 2>&1; then
			{ echo "stable peers missing:"; cat "$out"; } >>"$FZ_TMP/$name.bad"
		elif ! jq -e 'type == "array"' "$out" >/dev/null 2>&1; then
			{ echo "not a JSON array:"; cat "$out"; } >>"$FZ_TMP/$name.bad"
		fi
		n=$((n + 1))
		echo $n >"$FZ_TMP/$name.n"
		sleep 0.05
	done
}
dumper peers ip netns exec "$NS_A" "$CTL" -j peer show &
d1=$!
dumper socks ip netns exec "$NS_A" "$CTL" -j -s sock show &
d2=$!
on_exit "touch $FZ_TMP/stop; kill $d1 $d2 2>/dev/null"

t0=$SECONDS
for ((i = 1; i <= cycles; i++)); do
	p=$((9100 + i))
	ctl_a peer add "$B4" port $p local-port 5000 mode single-ack || fail "cycle $i: peer add"
	ctl_a peer add "$B6" port $p tx-timeout 200 || fail "cycle $i: template add"
	ctl_a peer change "$B4" port 9001 local-port 5000 tx-timeout $((100 + i)) ||
		fail "cycle $i: peer change"
	if ((i > 1)); then
		ctl_a peer del "$B4" port $((p - 1)) local-port 5000 || fail "cycle $i: peer del"
		ctl_a peer del "$B6" port $((p - 1)) || fail "cycle $i: template del"
	fi
	((i % 10)) || echo "cycle $i ($((SECONDS - t0))s): $(cat "$FZ_TMP/peers.n" 2>/dev/null) peer dumps"
done
t_loop=$((SECONDS - t0))
# The dumpers stop first: once the churn ends, its hub socket closes and
# the stable peers with it.
touch "$FZ_TMP/stop"
wait "$d1" "$d2" 2>/dev/null || true
touch "$FZ_TMP/churn.stop"
wait "$churn" || fail "churn: $(cat "$FZ_TMP/churn")"
t_all=$((SECONDS - t0))
np=$(cat "$FZ_TMP/peers.n" 2>/dev/null || echo 0)
ns=$(cat "$FZ_TMP/socks.n" 2>/dev/null || echo 0)
echo "dump-churn: $cycles netlink cycles in ${t_loop}s, churn $(cat "$FZ_TMP/churn") in ${t_all}s;" \
	"$np peer dumps, $ns socket dumps"
for d in peers socks; do
	[ -s "$FZ_TMP/$d.bad" ] && fail "$d dump: $(head -c 2000 "$FZ_TMP/$d.bad")"
done
[ "$np" -gt 0 ] && [ "$ns" -gt 0 ] || fail "no dumps ran"
fz_witness_stop
fz_wait_released 60 || fail "sockets still hold the module: refcnt $(fz_refcnt)"
# The last template is all that is left.
left=$(ctl_a -j peer show)
[ "$(jq length <<<"$left")" = 1 ] || fail "peers left after every socket closed: $left"
fz_unload_clean
echo "dump-churn: module unloaded clean"
