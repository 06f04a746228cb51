#!/bin/bash
# The receive-path fuzzer (tests/fuzz/rxfuzz.py): 20000 random and mutated
# UDPCP packets (2000 on the debug kernel) from 16 plain UDP sockets per
# family at a dual-stack UDPCP socket in NS_B, over IPv4 and IPv6, acks for
# unknown messages also at the legitimate sender's port, while that sender
# (another source port) sends 1-, 2-, 4- and 22-fragment messages in ack
# mode.  Every legitimate message must arrive exactly once and intact, none
# may fail; the receiver's rx_malformed and crc_errors must have moved;
# every ack the module sent back must be well formed.  Any kernel report
# fails it too (harness).  UDPCP_RXFUZZ_COUNT / _SEED override.
# By hand, a million packets: see tests/fuzz/rxfuzz.py.
# timeout: 400
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../fuzz/lib.sh"

n=${UDPCP_RXFUZZ_COUNT:-$(fz_count 20000 2000)}
seed=${UDPCP_RXFUZZ_SEED:-$RANDOM}
udpcp_load
topo_pair

ip netns exec "$NS_B" $FZPEER recv --bind :: 7000 --src "$A4:7100" \
	--stop-file "$FZ_TMP/stop" --count-file "$FZ_TMP/count" --timeout 3000 --rx-timeout 10000 \
	>"$FZ_TMP/recv" 2>&1 &
r=$!
on_exit "kill $r 2>/dev/null"
fz_wait_port "$NS_B" 7000
ip netns exec "$NS_A" $FZPEER send --dst "$B4" 7000 --bind "$A4" 7100 \
	--interval-ms 10 --sizes 10,1400,5000,30000 --tx-timeout 200 --max-try 10 \
	--stop-file "$FZ_TMP/stop" --count-file "$FZ_TMP/count" >"$FZ_TMP/send" 2>&1 &
s=$!
on_exit "kill $s 2>/dev/null"
fz_wait_port "$NS_A" 7100

t0=$SECONDS
ip netns exec "$NS_A" python3 "$FZ/rxfuzz.py" --to "$B4" 7000 --to "$B6" 7000 \
	--ack-to "$A4" 7100 --count "$n" --time 1800 --seed "$seed" >"$FZ_TMP/fuzz" 2>&1 || rc=$?
cat "$FZ_TMP/fuzz"
[ "${rc:-0}" = 0 ] || fail "rxfuzz: $(tail -n 2 "$FZ_TMP/fuzz")"
t_fuzz=$((SECONDS - t0))
touch "$FZ_TMP/stop"
wait "$s" || fail "legitimate sender: $(cat "$FZ_TMP/send")"
wait "$r" || fail "receiver: $(cat "$FZ_TMP/recv")"
sj=$(tail -n 1 "$FZ_TMP/send")
rj=$(tail -n 1 "$FZ_TMP/recv")
echo "legitimate sender: $sj"
echo "receiver: $rj"
[ "$(jq -r .failed <<<"$sj")" = 0 ] || fail "legitimate messages failed: $sj"
[ "$(jq -r .received <<<"$rj")" = "$(jq -r .sent <<<"$sj")" ] ||
	fail "legitimate: sent $(jq -r .sent <<<"$sj"), received $(jq -r .received <<<"$rj")"
[ "$(jq -r '.dups + .bad + .out_of_order' <<<"$rj")" = 0 ] ||
	fail "legitimate traffic not exactly once and intact: $rj"
[ "$(jq -r '.info.rx_malformed > 0 and .info.crc_errors > 0' <<<"$rj")" = true ] ||
	fail "counters did not move: $rj"
note "rxfuzz: $(grep -o '^rxfuzz: [0-9]* packets fuzzed' "$FZ_TMP/fuzz" | cut -d' ' -f2) packets fuzzed in ${t_fuzz}s," \
	"$(jq -r .sent <<<"$sj") legitimate messages exactly once;" \
	"rx_malformed $(jq -r .info.rx_malformed <<<"$rj"), crc_errors $(jq -r .info.crc_errors <<<"$rj")," \
	"rx_dropped $(jq -r .info.rx_dropped <<<"$rj"), rx_discarded_frags $(jq -r .info.rx_discarded_frags <<<"$rj")"
