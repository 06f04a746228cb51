#!/bin/bash
# Host-side self-tests of the test tools; no kernel module is involved.
#
#   tests/host/peer-selftest.sh [-k]      (-k: keep the work directory)
#
# - tests/peer/udpcp.py talks to itself on 127.0.0.1 and ::1 in every
#   transfer mode, fragmented, with checks of content and exactly-once;
#   with simulated loss; against a receiver that never acks.
# - Wireshark decodes captures of that traffic with no UDPCP expert info,
#   and reassembles the lengths that were sent (needs root for capture).
# - Every craft.py case against the Python receiver ends with the counters
#   its description promises.
# - udpcp-tool's own logic runs over plain UDP through an LD_PRELOAD
#   stand-in for the socket API (tests/host/fake-udpcp.c).
# Loopback only; every wait is bounded.  Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1

PEER=tests/peer/udpcp.py
CRAFT=tests/peer/craft.py
TOOL=tests/progs/udpcp-tool
TMP=$(mktemp -d /tmp/peer-selftest.XXXXXX)
KEEP=${1:-}
PIDS=()
PASS=0
FAIL=0

cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	if [ "$KEEP" = -k ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT

# jc EXPR < output: assert on a JSON summary (see jcheck.py)
jc() { python3 tests/host/jcheck.py "$@"; }
ok() { PASS=$((PASS + 1)); echo "ok   $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL $*"; }
# check NAME COMMAND...: one test, passed when the command succeeds
check() { local n=$1; shift; if "$@"; then ok "$n"; else bad "$n"; fi; }

# A port range of our own, so parallel runs do not meet.
PORT=$((20000 + $$ % 20000))
newport() { PORT=$((PORT + 1)); }

# Wait (at most 5 s) until something listens on UDP port $1.
wait_port() {
	if ! command -v ss >/dev/null; then sleep 0.5; return; fi
	for _ in $(seq 50); do
		[ -n "$(ss -Hlun "sport = :$1")" ] && return 0
		sleep 0.1
	done
	return 1
}

# exchange NAME PORT RECV-ARGS... -- SEND-ARGS...
# Runs a udpcp.py receiver and sender; leaves $TMP/NAME.recv, .send, .rcs
# (receiver and sender exit codes).
exchange() {
	local name=$1 port=$2 rargs=() rp rs rr
	shift 2
	while [ "$1" != -- ]; do rargs+=("$1"); shift; done
	shift
	timeout 120 python3 $PEER recv "${rargs[@]}" >"$TMP/$name.recv" 2>&1 &
	rp=$!
	PIDS+=("$rp")
	wait_port "$port"
	timeout 120 python3 $PEER send "$@" >"$TMP/$name.send" 2>&1
	rs=$?
	wait "$rp"
	rr=$?
	echo "$rr $rs" >"$TMP/$name.rcs"
}
rcs() { cat "$TMP/$1.rcs"; }

echo "# build"
check "make $TOOL" make -s "$TOOL"
check "build fake-udpcp.so" gcc -O2 -Wall -Wextra -Werror -Iuapi -shared \
	-fPIC -o "$TMP/fake-udpcp.so" tests/host/fake-udpcp.c -ldl

echo "# unit checks"
python3 tests/host/peer_unit.py "$TOOL" >"$TMP/unit.out" 2>&1
PASS=$((PASS + $(grep -c '^ok' "$TMP/unit.out")))
FAIL=$((FAIL + $(grep -c '^FAIL' "$TMP/unit.out")))
grep '^FAIL' "$TMP/unit.out"
"$TOOL" selftest >"$TMP/selftest.out" 2>&1
check "udpcp-tool selftest" [ $? = 0 ]
grep '^FAIL' "$TMP/selftest.out"

echo "# udpcp.py to itself"
SIZES=0,1,3,4,5,1000,1440,1441,1460,1461,3000,65487
for addr in 127.0.0.1 ::1; do
	for mode in ack single-ack noack; do
		for csum in on off; do
			[ $mode != ack ] && [ $csum = off ] && continue
			n="$addr-$mode-$csum"
			newport
			exchange "$n" $PORT --bind $addr $PORT --count 24 \
				--expect-pattern --timeout 60 --list-sizes -- \
				--to $addr $PORT --count 24 --sizes $SIZES \
				--mode $mode --checksum $csum
			check "$n: exit codes" [ "$(rcs "$n")" = "0 0" ]
			# Retries are timing (a loaded host delays acks past the
			# timeout); what must hold is that nothing failed.
			check "$n: sent 24, none failed" jc \
				'j["messages"] == 24 and j["failures"] == 0' \
				<"$TMP/$n.send"
			check "$n: 24 delivered exactly once, in order, intact" jc \
				"j['messages'] == 24 and j['bad'] == j['dups'] == j['out_of_order'] == 0 and j['sizes'] == [int(x) for x in '$SIZES'.split(',')] * 2 and j['crc_errors'] == j['rx_malformed'] == 0" \
				<"$TMP/$n.recv"
		done
	done
done

newport
exchange mtu576 $PORT --bind ::1 $PORT --count 6 --expect-pattern \
	--ack-frag0 --timeout 60 -- --to ::1 $PORT --count 6 --sizes 100,20000 \
	--mtu 576 --mode single-ack --outstanding 1
check "mtu 576, single-ack acks naming fragment 0" jc \
	'j["messages"] == 6 and j["failures"] == 0 and j["frag_size"] == 516 and j["tx_packets"] == 1 + 3 * (1 + 39)' \
	<"$TMP/mtu576.send"

newport
exchange dual $PORT --bind :: $PORT --count 8 --expect-pattern \
	--timeout 60 --json -- --to 127.0.0.1 $PORT --count 8 --size 2000
check "IPv4 sender to a dual-stack receiver" jc \
	'j["messages"] == 8 and j["bad"] == 0' <"$TMP/dual.recv"
check "dual-stack source is ::ffff:127.0.0.1" \
	grep -q '"src": "::ffff:127.0.0.1:' "$TMP/dual.recv"

for mode in ack single-ack; do
	newport
	exchange loss-$mode $PORT --bind 127.0.0.1 $PORT --count 30 \
		--expect-pattern --loss 0.05 --seed 7 --timeout 60 -- \
		--to 127.0.0.1 $PORT --count 30 --sizes 10,5000,30000 \
		--mode $mode --tx-timeout 30 --max-try 10
	check "5% loss, $mode: sender retried, nothing failed" jc \
		'j["messages"] == 30 and j["failures"] == 0 and j["retries"] > 0' \
		<"$TMP/loss-$mode.send"
	check "5% loss, $mode: 30 delivered exactly once, in order" jc \
		'j["messages"] == 30 and j["bad"] == j["dups"] == j["out_of_order"] == 0 and j["sim_dropped"] > 0' \
		<"$TMP/loss-$mode.recv"
done

newport
exchange noack-rx $PORT --bind ::1 $PORT --no-ack --idle 1 --timeout 20 \
	-- --to ::1 $PORT --count 3 --tx-timeout 20 --max-try 2
check "unacked sender: exit 3, every message failed after a sync" jc \
	'j["failures"] == 3 and j["failed_ids"] == [1, 2, 3] and j["syncs"] == 3 and j["tx_packets"] == 6' \
	<"$TMP/noack-rx.send"
check "unacked sender: exit code 3" [ "$(rcs noack-rx | cut -d' ' -f2)" = 3 ]

newport
exchange wrap $PORT --bind 127.0.0.1 $PORT --count 4 --expect-pattern \
	--timeout 20 -- --to 127.0.0.1 $PORT --count 4 --start-id 65533
check "message IDs 65533, 65534, 1, 2" jc 'j["next_id"] == 3' \
	<"$TMP/wrap.send"
check "wrapped IDs delivered in order" jc \
	'j["messages"] == 4 and j["out_of_order"] == 0' <"$TMP/wrap.recv"

echo "# craft.py against udpcp.py"
for c in $(python3 $CRAFT --list | awk '{print $1}'); do
	newport
	timeout 30 python3 $PEER recv --bind 127.0.0.1 $PORT --idle 0.8 \
		--rx-timeout 300 --timeout 20 >"$TMP/craft-$c.recv" 2>&1 &
	rp=$!
	PIDS+=("$rp")
	wait_port $PORT
	timeout 30 python3 $CRAFT --to 127.0.0.1 $PORT "$c" \
		>"$TMP/craft-$c.out" 2>&1
	wait $rp
	check "craft $c: $(python3 $CRAFT --list | grep "^$c " | cut -c22-)" \
		python3 - "$TMP/craft-$c.out" "$TMP/craft-$c.recv" <<'EOF'
import json, sys
case = json.loads(open(sys.argv[1]).read().splitlines()[-1])
rx = json.loads(open(sys.argv[2]).read().splitlines()[-1])
exp = case["expect"]
got = {k: rx[k] for k in ("rx_msgs", "rx_malformed", "crc_errors",
                          "rx_duplicates", "rx_discarded_frags",
                          "rx_timeout", "syncs", "stray_acks")}
got["acks"] = len(case["acks"])
got["dup_acks"] = sum(a.get("d", 0) for a in case["acks"])
want = {k: exp.get(k, 0) for k in got}
if got != want:
    print("  want %s\n  got  %s" % (want, got))
    sys.exit(1)
EOF
done

echo "# Wireshark"
if ! command -v tshark >/dev/null; then
	bad "tshark not installed"
else
	tshark -G fields 2>/dev/null | awk -F'\t' '$1 == "F" { print $3 }' \
		| grep '^udpcp\.' >"$TMP/fields"
	check "dissector fields present" python3 - "$TMP/fields" <<'EOF'
import sys
have = set(open(sys.argv[1]).read().split())
need = {"udpcp.checksum", "udpcp.msg-type", "udpcp.version", "udpcp.n",
        "udpcp.c", "udpcp.s", "udpcp.d", "udpcp.reserved",
        "udpcp.fragment-amount", "udpcp.fragment-number",
        "udpcp.message-id", "udpcp.message-data-length",
        "udpcp.reassembled.length"}
missing = need - have
if missing:
    print("  missing: %s" % sorted(missing))
sys.exit(bool(missing))
EOF

	# capture NAME PORT: start tshark on lo; stop_capture NAME ends it.
	capture() {
		timeout 120 tshark -i lo -f "udp port $2" -w "$TMP/$1.pcapng" \
			>"$TMP/$1.tshark" 2>&1 &
		TSHARK=$!
		PIDS+=("$TSHARK")
		for _ in $(seq 100); do
			grep -qs "Capturing on" "$TMP/$1.tshark" && return 0
			sleep 0.1
		done
		return 1
	}
	stop_capture() { sleep 0.5; kill -INT "$TSHARK"; wait "$TSHARK"; }
	# The dissector hands payloads to the XML dissector by default, whose
	# warnings about our binary pattern are not UDPCP's: turn that off.
	ts() { tshark -r "$TMP/$1.pcapng" -o udpcp.attempt_xml_decode:FALSE \
		-d "udp.port==$2,udpcp" "${@:3}" 2>/dev/null; }

	for addr in 127.0.0.1 ::1; do
		n=ws-$addr
		newport
		if ! capture "$n" $PORT; then
			bad "$n: capture did not start"
			stop_capture
			continue
		fi
		timeout 60 python3 $PEER recv --bind $addr $PORT --count 15 \
			--expect-pattern --timeout 30 >"$TMP/$n.recv" 2>&1 &
		rp=$!
		PIDS+=("$rp")
		wait_port $PORT
		# Distinct message IDs per sender: the dissector reassembles by
		# message ID alone, whatever the addresses.
		id=1
		for mode in ack single-ack noack; do
			python3 $PEER send --to $addr $PORT --count 5 \
				--sizes 10,3000,65487,1,0 --mode $mode \
				--start-id $id >"$TMP/$n-$mode.send" 2>&1
			id=$((id + 1000))
		done
		wait $rp
		stop_capture
		check "$n: 15 delivered" jc 'j["messages"] == 15 and j["bad"] == 0' \
			<"$TMP/$n.recv"
		ts "$n" $PORT -z expert -q >"$TMP/$n.expert"
		check "$n: no UDPCP expert info" \
			sh -c "! grep -q UDPCP '$TMP/$n.expert'"
		check "$n: reassembled lengths are the sent ones" \
			[ "$(ts "$n" $PORT -Y udpcp.reassembled.length -T fields \
			  -e udpcp.reassembled.length | tr '\n' ' ')" \
			  = "3000 65487 3000 65487 3000 65487 " ]
		check "$n: 9 unfragmented data messages, 3 syncs" \
			[ "$(ts "$n" $PORT -Y 'udpcp.msg-type == 1 && udpcp.fragment-amount == 1' \
			  -T fields -e udpcp.message-id | sort -n | tr '\n' ' ')" \
			  = "0 0 0 1 4 5 1001 1004 1005 2001 2004 2005 " ]
		# The doc's sync bits, as Wireshark reads them: type 1, version
		# 2, C=1, S=1, N=0 (the doc's test vector header).
		check "$n: sync fields as in the doc's test vector" \
			[ "$(ts "$n" $PORT -Y 'udpcp.message-id == 0 && udpcp.msg-type == 1' \
			  -T fields -e udpcp.checksum -e udpcp.version -e udpcp.n \
			  -e udpcp.c -e udpcp.s | sort -u | tr '\t' ' ')" \
			  = "0x02aa0055 0x02 0x00 0x01 0x01" ]
	done

	# Crafted oddities that Wireshark does flag: our bit layout agrees.
	n=ws-craft
	newport
	if capture "$n" $PORT; then
		timeout 30 python3 $PEER recv --bind 127.0.0.1 $PORT --idle 0.8 \
			--timeout 20 >/dev/null 2>&1 &
		rp=$!
		PIDS+=("$rp")
		wait_port $PORT
		python3 $CRAFT --to 127.0.0.1 $PORT lax-header checksum-off \
			payload-over-length dup-message >/dev/null 2>&1
		wait $rp
		stop_capture
		ts "$n" $PORT -z expert -q >"$TMP/$n.expert"
		check "$n: reserved bits seen as reserved" \
			grep -q "Reserved bits not zero" "$TMP/$n.expert"
		check "$n: C=0 with a checksum seen" \
			grep -q "Checksum should be zero" "$TMP/$n.expert"
		check "$n: payload longer than the length seen" \
			grep -q "Data length field was 10 but 20 bytes found" \
			"$TMP/$n.expert"
		check "$n: D=1 ack seen as duplicate" \
			[ "$(ts "$n" $PORT -Y 'udpcp.msg-type == 2 && udpcp.d == 1' | wc -l)" = 1 ]
	else
		bad "$n: capture did not start"
		stop_capture
	fi
fi

echo "# udpcp-tool over the LD_PRELOAD stand-in"
FAKE="$TMP/fake-udpcp.so"
if [ -x "$TOOL" ] && [ -f "$FAKE" ]; then
	tool() { LD_PRELOAD=$FAKE "$TOOL" "$@"; }
	tool opts >"$TMP/opts.out"
	check "opts: all checks pass on a faithful socket" [ $? = 0 ]
	check "opts: fails on a socket that accepts anything" \
		sh -c "! FAKE_UDPCP_LAX=1 LD_PRELOAD=$FAKE $TOOL opts >/dev/null"

	# tool_exchange NAME PORT RECV-ARGS... -- SEND-ARGS...
	tool_exchange() {
		local name=$1 port=$2 rargs=() rp
		shift 2
		while [ "$1" != -- ]; do rargs+=("$1"); shift; done
		shift
		LD_PRELOAD=$FAKE timeout 60 "$TOOL" recv "${rargs[@]}" \
			>"$TMP/$name.recv" 2>&1 &
		rp=$!
		PIDS+=("$rp")
		wait_port "$port"
		LD_PRELOAD=$FAKE timeout 60 "$TOOL" send "$@" >"$TMP/$name.send" 2>&1
		echo "$? " >"$TMP/$name.rcs"
		wait "$rp"
		echo "$?" >>"$TMP/$name.rcs"
	}
	# receiver address, sender's destination: v4, v6, v4 to dual-stack
	for spec in "127.0.0.1 127.0.0.1" "::1 ::1" ":: 127.0.0.1"; do
		read -r local dest <<<"$spec"
		newport
		n=tool-$local-$dest
		tool_exchange "$n" $PORT -b "$local" $PORT -n 12 -t 10000 \
			--list-sizes --info -- -d "$dest" $PORT -n 12 \
			--sizes 0,1,4,1000,65487,7 --mode single-ack \
			--checksum off --cmsg --tx-timeout 50 --max-try 10 \
			--outstanding 255
		check "$n: send exit 0, recv exit 0" \
			[ "$(rcs "$n" | tr -d '\n')" = "0 0" ]
		check "$n: sender summary" jc \
			'j["sent"] == 12 and j["failed"] == 0 and j["flush"] == "ok" and j["info"]["tx_msgs"] == 12' \
			<"$TMP/$n.send"
		check "$n: receiver summary" jc \
			'j["received"] == 12 and j["bad"] == j["dups"] == j["out_of_order"] == 0 and j["sizes"] == [0,1,4,1000,65487,7] * 2 and j["info"]["rx_msgs"] == 12' \
			<"$TMP/$n.recv"
	done

	newport
	tool_exchange tool-connect $PORT -b ::1 $PORT -n 3 -t 10000 -- \
		-d ::1 $PORT -n 3 --connect -b ::1 $((PORT + 1000))
	check "connect and bind: 3 delivered" [ "$(rcs tool-connect | tr -d '\n')" = "0 0" ]

	newport
	FAKE_UDPCP_FAIL=2 tool send -d 127.0.0.1 $PORT -n 3 >"$TMP/tool-fail.send"
	check "error queue failures: exit 3" [ $? = 3 ]
	check "error queue failures: ids" jc \
		'j["failed"] == 2 and j["failed_ids"] == [1, 2]' <"$TMP/tool-fail.send"
	FAKE_UDPCP_FLUSH=timeout tool send -d 127.0.0.1 $PORT -n 1 >/dev/null
	check "UDPCP_FLUSH timeout: exit 4" [ $? = 4 ]
	tool send -d 127.0.0.1 $PORT --tx-timeout 0 >/dev/null 2>&1
	check "tx timeout 0 refused: exit 1" [ $? = 1 ]
	tool send -d 127.0.0.1 $PORT --cmsg --mode 7 >"$TMP/tool-cmsg.send" 2>&1
	check "invalid mode in a cmsg: exit 1, EINVAL" [ $? = 1 ]
	check "invalid mode in a cmsg: reported" jc \
		'j["sent"] == 0 and j["send_error"] == "Invalid argument"' \
		<"$TMP/tool-cmsg.send"
	tool send -d 127.0.0.1 $PORT -n 2 --sizes 65487,65488 \
		>"$TMP/tool-big.send" 2>&1
	check "65488 octets: exit 1, EMSGSIZE after one sent" [ $? = 1 ]
	check "65488 octets: reported" jc \
		'j["sent"] == 1 and j["send_error"] == "Message too long"' \
		<"$TMP/tool-big.send"
	tool recv -b 127.0.0.1 $PORT -n 1 -t 300 >"$TMP/tool-short.recv"
	check "receive timeout with too few: exit 1" [ $? = 1 ]

	# Plain datagrams: seq 0, 1, 1 (dup), 3 (gap), a corrupt 4.
	newport
	LD_PRELOAD=$FAKE timeout 30 "$TOOL" recv -b 127.0.0.1 $PORT -n 5 -t 5000 \
		--print --slow 1 --rcvbuf 65536 >"$TMP/tool-dup.recv" 2>&1 &
	rp=$!
	PIDS+=("$rp")
	wait_port $PORT
	python3 - $PORT <<'EOF'
import socket, sys
sys.path.insert(0, "tests/peer")
from udpcp import pattern
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
bad = bytearray(pattern(4, 50)); bad[20] ^= 1
for m in [pattern(0, 10), pattern(1, 10), pattern(1, 10), pattern(3, 10),
          bytes(bad)]:
    s.sendto(m, ("127.0.0.1", int(sys.argv[1])))
EOF
	wait $rp
	check "recv flags a dup, a gap and corruption (exit 1)" [ $? = 1 ]
	check "recv counts them" jc \
		'j["received"] == 5 and j["dups"] == 1 and j["out_of_order"] == 1 and j["bad"] == 1' \
		<"$TMP/tool-dup.recv"
else
	bad "udpcp-tool or the stand-in did not build"
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
