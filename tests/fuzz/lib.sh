# Shared setup of the lifecycle, fuzz and limit tests (tests/t/6x-*, 7x-*),
# sourced after common.sh:   . "$(dirname "$0")/../fuzz/lib.sh"
#
# Gives: TOOL (udpcp-tool), CTL (udpcpctl), FZPEER (fzpeer.py: paced
# sender, filtering receiver), FZ_TMP (scratch, removed on exit);
#   fz_debug_kernel            true on the debug kernel (KASAN/kmemleak):
#                              UDPCP_DEBUG_KERNEL=1 (check-debug.sh exports
#                              it; 0 forces stock sizing), else
#                              /sys/kernel/debug/kmemleak (not the time
#                              scale: that also grows with the host's load)
#   fz_count STOCK DEBUG       STOCK, or DEBUG on the debug kernel
#   fz_pair VA VB SUF NET4 NET6  a veth pair of two fresh namespaces (names in
#                              $VA $VB; addresses NET4.1/.2, NET6::1/::2)
#   fz_witness_start           a steady fzpeer exchange in its own pair of
#                              namespaces (W_A -> W_B), paced, ack mode
#   fz_witness_stop            stops it; fails unless every message it sent
#                              arrived exactly once and intact, none failed
#   fz_wait_port NS PORT       until a UDP socket is bound to PORT in NS
#   fz_refcnt                  /sys/module/udpcp/refcnt (sockets hold one each)
#   fz_wait_released SECS      until no UDPCP socket holds the module
#   fz_unload_clean            the module unloads; fails otherwise
# shellcheck shell=bash

TOOL=$REPO/tests/progs/udpcp-tool
CTL=$REPO/udpcpctl/udpcpctl
FZ=$REPO/tests/fuzz
FZPEER="python3 $FZ/fzpeer.py"
[ -x "$TOOL" ] || skip "not built: $TOOL (make progs)"
[ -x "$CTL" ] || skip "not built: $CTL (make progs)"
export TOOL CTL FZ FZPEER

FZ_TMP=$(mktemp -d)
on_exit "rm -rf $FZ_TMP"

fz_debug_kernel() {
	case ${UDPCP_DEBUG_KERNEL:-} in
	1) return 0 ;;
	0) return 1 ;;
	esac
	[ -e /sys/kernel/debug/kmemleak ]
}

fz_count() {
	if fz_debug_kernel; then echo "$2"; else echo "$1"; fi
}

fz_pair() { # VA VB SUFFIX NET4 NET6
	local va=$1 vb=$2 suf=$3 n4=$4 n6=$5 a b
	_ns_add "$va" "${suf}a"
	_ns_add "$vb" "${suf}b"
	a=${!va}
	b=${!vb}
	ip link add "v$suf-a" netns "$a" index 30 type veth peer name "v$suf-b" netns "$b" index 31
	_if_up "$a" "v$suf-a" "$n4.1/24" "$n6::1/64"
	_if_up "$b" "v$suf-b" "$n4.2/24" "$n6::2/64"
	_wait_oper "$a" "v$suf-a"
	_wait_oper "$b" "v$suf-b"
}

# The witness: an unrelated pair of namespaces whose UDPCP exchange must
# not notice anything the test does to the others.  Paced (one message per
# FZ_WITNESS_MS, sizes of 1, 3 and 14 fragments), with generous timers so
# that a slow guest is not mistaken for a loss: 10 tries 300 ms apart, and a
# receiver (4 MB buffer) that keeps partial messages 30 s.  Its receive
# timeout must stay well above the sender's retries: a partial message that
# expires while the application is slow to read is lost (its ID is dead).
fz_witness_start() {
	fz_pair W_A W_B w 198.51.100 2001:db8:77
	ip netns exec "$W_B" $FZPEER recv --bind 198.51.100.2 7700 --src 198.51.100.1:7701 \
		--stop-file "$FZ_TMP/w.stop" --count-file "$FZ_TMP/w.count" \
		--timeout 3000 --rcvbuf 4194304 --rx-timeout 30000 >"$FZ_TMP/w.recv" 2>&1 &
	_fz_wr=$!
	fz_wait_port "$W_B" 7700
	ip netns exec "$W_A" $FZPEER send --dst 198.51.100.2 7700 --bind 198.51.100.1 7701 \
		--interval-ms "${FZ_WITNESS_MS:-20}" --sizes 200,3000,20000 \
		--tx-timeout 300 --max-try 10 \
		--stop-file "$FZ_TMP/w.stop" --count-file "$FZ_TMP/w.count" \
		>"$FZ_TMP/w.send" 2>&1 &
	_fz_ws=$!
	on_exit "touch $FZ_TMP/w.stop; kill $_fz_ws $_fz_wr 2>/dev/null"
}

fz_witness_stop() {
	local s r
	touch "$FZ_TMP/w.stop"
	wait "$_fz_ws" || fail "witness sender: $(cat "$FZ_TMP/w.send")"
	wait "$_fz_wr" || fail "witness receiver: $(cat "$FZ_TMP/w.recv")"
	s=$(tail -n 1 "$FZ_TMP/w.send")
	r=$(tail -n 1 "$FZ_TMP/w.recv")
	echo "witness: sent $s"
	echo "witness: received $r"
	[ "$(jq -r '.failed' <<<"$s")" = 0 ] || fail "witness: messages failed: $s"
	[ "$(jq -r '.sent > 0' <<<"$s")" = true ] || fail "witness sent nothing: $s"
	[ "$(jq -r '.received' <<<"$r")" = "$(jq -r '.sent' <<<"$s")" ] ||
		fail "witness: sent $(jq -r .sent <<<"$s"), received $(jq -r .received <<<"$r")"
	[ "$(jq -r '.dups + .bad + .out_of_order' <<<"$r")" = 0 ] ||
		fail "witness: not exactly once and intact: $r"
}

_fz_bound() { [ -n "$(ip netns exec "$1" ss -Hulan "sport = :$2" 2>/dev/null)" ]; }
fz_wait_port() { # NS PORT (Python starts in seconds under TCG, a minute under KASAN)
	wait_until "$(fz_count 30 180)" _fz_bound "$1" "$2" || fail "nothing bound to UDP port $2 in $1"
}

fz_refcnt() {
	cat /sys/module/udpcp/refcnt 2>/dev/null || echo 0
}

fz_wait_released() {
	wait_until "$1" '[ "$(fz_refcnt)" = 0 ]'
}

fz_unload_clean() {
	fz_wait_released 60 || fail "sockets still hold the module: refcnt $(fz_refcnt)"
	udpcp_unload || fail "module did not unload"
	! grep -q '^udpcp ' /proc/modules || fail "module still loaded"
}
