#!/bin/bash
# The documented example program: a dual-stack server receives from IPv4
# and IPv6 clients, each client's message is acknowledged; a client aimed
# at a port where nobody listens is told its message failed.
# timeout: 90
. "$(dirname "$0")/../lib/common.sh"
HELLO=$REPO/Documentation/examples/udpcp-hello
[ -x "$HELLO" ] || skip "not built: $HELLO"
udpcp_load
topo_pair
out=$(mktemp)
on_exit "rm -f $out"

in_ns "$NS_B" "$HELLO" server 5000 >"$out" &
sleep 1
assert_eq "IPv4 client" acknowledged "$(in_ns "$NS_A" "$HELLO" client "$B4" 5000)"
assert_eq "IPv6 client" acknowledged "$(in_ns "$NS_A" "$HELLO" client "$B6" 5000)"
wait_until 5 test "$(wc -l <"$out")" -ge 2 || fail "server printed $(cat "$out")"
grep -q "^16 bytes from \[::ffff:$A4\]:[0-9]*: hello over UDPCP$" "$out" || fail "IPv4 message: $(cat "$out")"
grep -q "^16 bytes from \[$A6\]:[0-9]*: hello over UDPCP$" "$out" || fail "IPv6 message: $(cat "$out")"
assert_eq "messages at the server" 2 "$(wc -l <"$out")"

# Nobody on port 5999: the failure comes back (max tries x tx timeout),
# with the cause B's port unreachables gave.
err=$(in_ns "$NS_A" "$HELLO" client "$B4" 5999 2>&1) && fail "client to a dead port succeeded: $err"
echo "$err" | grep -q "^message 1 (16 bytes) failed: Connection refused$" || fail "failure report: $err"
echo "example ok"
