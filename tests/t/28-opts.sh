#!/bin/bash
# Socket options at the ends of their ranges, for AF_INET and AF_INET6
# sockets: udpcp-tool opts (each option's minimum and maximum accepted and
# read back, one past each end refused with EINVAL leaving the value as it
# was, short optlen, UDPCP_INFO full and truncated, UDPCP_FLUSH idle), plus
# unknown option numbers (ENOPROTOOPT) and extremes (INT_MIN, INT_MAX).
# The extremes also act: outstanding acks 1 and 255 carry a 65487-octet
# message in ack mode (a capture shows at most 1 fragment unacked, and more
# than the default 8); max tries 1 with tx timeout 1 ms fails a message to
# nobody within moments, max tries 10 with 60000 ms keeps it pending.
# timeout: 90
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

udpcp_load
topo_pair

for f in -4 -6; do
	out=$(in_ns "$NS_A" "$TOOL" opts "$f") || fail "udpcp-tool opts $f: $(grep -v '^ok' <<<"$out")"
	n=$(sed -n 's/^opts: \([0-9]*\) checks, 0 failed$/\1/p' <<<"$out")
	[ "${n:-0}" -ge 30 ] || fail "udpcp-tool opts $f ran ${n:-no} checks: $out"
	echo "opts $f: $n checks ok"
done

out=$(py_run -n "$NS_A" 28-opts.py 2>&1) || fail "$out"
echo "$out"

# The ends of the ranges in use.  Outstanding acks: seen from A, never more
# than W fragments sent and not yet acked; with 255, more than the default 8.
bg_start rx in_ns "$NS_B" "$TOOL" recv -b 0.0.0.0 6000 -n 2 -t 60000
wait_port "$NS_B" 6000
for w in 1 255; do
	cap_start "$NS_A" "$IF_A" "$TMP/w$w.pcap"
	out=$(in_ns "$NS_A" "$TOOL" send -d "$B4" 6000 -s 65487 --mode ack --outstanding $w --tx-timeout 1000) ||
		fail "outstanding acks $w: $out"
	json_check "outstanding acks $w" "$out" '.failed == 0 and .info.tx_msgs == 1 and .info.tx_retries == 0'
	cap_stop
	inflight=$(cap_udpcp "$TMP/w$w.pcap" 6000 | py_run 28-opts-inflight.py)
	case $w in
	1) [ "$inflight" = 1 ] || fail "outstanding acks 1: up to $inflight fragments unacked" ;;
	255) [ "$inflight" -gt 8 ] || fail "outstanding acks 255: only up to $inflight fragments unacked" ;;
	esac
	echo "outstanding acks $w: at most $inflight unacked"
done
bg_wait rx || fail "receiver: $(cat "$TMP/rx.out")"
json_check receiver "$(bg_json rx)" '.received == 2 and .bad == 0'

t0=$EPOCHREALTIME
out=$(in_ns "$NS_A" "$TOOL" send -d "$B4" 6999 --max-try 1 --tx-timeout 1 --recverr --flush 5000) && rc=0 || rc=$?
dt=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
[ "$rc" = 3 ] || fail "max tries 1, tx timeout 1: exit $rc: $out"
json_check "max tries 1, tx timeout 1" "$out" '.failed == 1 and .failed_ids == [1] and .info.tx_retries == 0'
awk -v d="$dt" 'BEGIN { exit !(d < 2) }' || fail "max tries 1, tx timeout 1 ms took $dt s"

out=$(in_ns "$NS_A" "$TOOL" send -d "$B4" 6999 --max-try 10 --tx-timeout 60000 --flush 1500) && rc=0 || rc=$?
[ "$rc" = 4 ] || fail "max tries 10, tx timeout 60 s: exit $rc (want 4, flush timeout): $out"
json_check "max tries 10, tx timeout 60 s" "$out" '.flush == "timeout" and .info.tx_pending == 1 and .info.tx_retries == 0'
echo "opts ok"
