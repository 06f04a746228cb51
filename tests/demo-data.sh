# Sourced by tests/demo-guest.sh: messages crossing over IPv4, IPv6 and a
# dual-stack socket, what udpcpctl sees of them, and a failure reported to
# the application and to a monitoring daemon.
# shellcheck shell=bash
TOOL=$REPO/tests/progs/udpcp-tool
if [ "$HAVE_MODULE" != 1 ] || [ ! -x "$TOOL" ]; then
	echo "the module or tests/progs/udpcp-tool is not built: make"
	return 0
fi

demo_xfer() { # LABEL RECV-ADDR PORT SEND-TO MODE SIZES
	local out
	echo "-- $1: $5 mode, sizes $6"
	in_ns "$NS_B" "$TOOL" recv -b "$2" "$3" -n 3 -t 20000 >"$tmp/recv" &
	sleep 1
	out=$(in_ns "$NS_A" "$TOOL" send -d "$4" "$3" -n 3 --sizes "$6" \
		--mode "$5" --flush 10000 2>&1) || true
	wait $! || true
	echo "  sender:   $out"
	echo "  receiver: $(cat "$tmp/recv")"
}

tmp=$(mktemp -d)
demo_xfer "IPv4" "$B4" 5000 "$B4" ack 100,5000,65487
demo_xfer "IPv6" "$B6" 5001 "$B6" single-ack 100,5000,65487
demo_xfer "dual stack: IPv4 sender to an AF_INET6 socket" :: 5002 "$B4" noack 64,1400,3000

if [ -n "$UDPCPCTL" ]; then
	say "udpcpctl in the sender's namespace"
	run "$UDPCPCTL" -n "$NS_A" -s stats show
	run "$UDPCPCTL" -n "$NS_A" peer show

	say "a peer that fails fast, seen by the application and by 'udpcpctl monitor'"
	in_ns "$NS_A" timeout 15 "$UDPCPCTL" monitor >"$tmp/monitor" 2>&1 &
	mon=$!
	sleep 1
	# Nobody listens on port 7000: with max-try 2 the message fails soon.
	in_ns "$NS_A" "$TOOL" send -d "$B4" 7000 -b "$A4" 6000 -n 1 -s 100 \
		--max-try 2 --tx-timeout 100 --flush 5000 >"$tmp/fail" 2>&1 || true
	echo "  sender: $(cat "$tmp/fail")"
	sleep 1
	kill "$mon" 2>/dev/null; wait "$mon" 2>/dev/null || true
	echo "  monitor:"
	sed 's/^/    /' "$tmp/monitor"
fi
rm -rf "$tmp"
