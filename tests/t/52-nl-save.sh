#!/bin/bash
# Configuration that survives a module reload: udpcpctl save prints the
# namespace's defaults (all of them) and its namespace-wide peers, v4 and
# v6, with the parameters that differ from the defaults, as a batch, and
# leaves out a socket's peer; after rmmod and insmod, save shows the
# built-in defaults and no peers, -b FILE restores, and save again gives
# the same bytes; likewise in a second namespace through -n, each apart
# from the other.  -b stops at the first failing line (a duplicate peer on
# line 3: the kernel's extack text, FILE:3, exit 2), lines 1-2 took
# effect, line 4 not; -force goes on, names every failing line, and still
# exits 2; -b - reads stdin, and a usage error on its line 2 stops it
# there (exit 1).  Durations with units reach the kernel as milliseconds;
# ls is show.  -b of a save over itself changes nothing (peer replace);
# replace creates, or sets exactly the given parameters.  save without the module prints nothing and exits 2.
# timeout: 180
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
A=$NS_A B=$NS_B

VER=$("$U" -V | cut -d' ' -f2)
HEAD="# udpcpctl $VER save: the udpcp configuration of a network namespace
# restore with: udpcpctl [ -n NETNS ] -b FILE"
BUILTIN="defaults set mode ack checksum on tx-timeout 100 rx-timeout 1000 max-try 5 outstanding-acks 8 max-peers 1024 peer-expiry 300000"

echo "# a fresh namespace: the built-in defaults, no peers"
check "save, nothing configured" 0 "$HEAD
$BUILTIN" "" uctl "$A" save

echo "# configure A: defaults with units, v4 and v6 peers, a socket's peer"
# min is not a unit: refused locally, nothing sent.
check "peer-expiry 1.5min refused" 1 "" \
	'udpcpctl: peer-expiry: "1.5min" is not a duration (milliseconds, or a number with us, ms or s: 200, 200ms, 1.5s)' \
	uctl "$A" defaults set peer-expiry 1.5min
check "defaults set" 0 "" "" uctl "$A" defaults set mode single-ack checksum off \
	tx-timeout 250ms rx-timeout 2s max-try 3 outstanding-acks 4 max-peers 100 peer-expiry 90s
check "defaults in ms" 0 "mode single-ack checksum off tx-timeout 250 rx-timeout 2000 max-try 3 outstanding-acks 4 max-peers 100 peer-expiry 90000" "" \
	uctl "$A" defaults show
check "v4 peer" 0 "" "" uctl "$A" peer add 192.0.2.10 port 5000 mode noack max-try 2
check "v6 peer" 0 "" "" uctl "$A" peer add 2001:db8::10 port 5001 tx-timeout 1.5s checksum on
check "v4 peer, no parameters" 0 "" "" uctl "$A" peer add 198.51.100.20 port 7
check "v6 peer, every parameter" 0 "" "" uctl "$A" peer add 2001:db8:1::1 port 65535 \
	mode ack checksum on tx-timeout 60000 rx-timeout 1000us max-try 10 outstanding-acks 255
check "v4-mapped peer" 0 "" "" uctl "$A" peer add ::ffff:192.0.2.30 port 9 max-try 4
check "change the first" 0 "" "" uctl "$A" peer change 192.0.2.10 port 5000 outstanding-acks 16
hold_sock "$A" 0.0.0.0 6000
check "a socket's peer" 0 "" "" uctl "$A" peer add 192.0.2.99 port 1 local-port 6000 mode noack
check "peer ls is peer show" 0 "$(uctl "$A" peer show | sed -E 's/ idle [0-9]+ms//')" "" \
	bash -c "\"\$U\" -n \"$A\" peer ls | sed -E 's/ idle [0-9]+ms//'"
check "peer list is peer show" 0 "$(uctl "$A" -j peer show | jq -c '[.[] | del(.idle_ms)]')" "" \
	bash -c "\"\$U\" -n \"$A\" -j peer list | jq -c '[.[] | del(.idle_ms)]'"

SAVED_A="$HEAD
defaults set mode single-ack checksum off tx-timeout 250 rx-timeout 2000 max-try 3 outstanding-acks 4 max-peers 100 peer-expiry 90000
peer replace 192.0.2.10 port 5000 mode noack max-try 2 outstanding-acks 16
peer replace 2001:db8::10 port 5001 checksum on tx-timeout 1500
peer replace 198.51.100.20 port 7
peer replace 2001:db8:1::1 port 65535 mode ack checksum on tx-timeout 60000 rx-timeout 1 max-try 10 outstanding-acks 255
peer replace 192.0.2.30 port 9 max-try 4"
check "save A" 0 "$SAVED_A" "" uctl "$A" save
uctl "$A" save >"$NL_TMP/a.conf"

echo "# B, through -n, apart from A"
check "B: defaults" 0 "" "" uctl "$B" defaults set max-peers 5 rx-timeout 1.25s
check "B: peer" 0 "" "" uctl "$B" peer add 203.0.113.5 port 4000 mode single-ack
check "B: v6 peer" 0 "" "" uctl "$B" peer add 2001:db8:2::5 port 4001 max-try 1
SAVED_B="$HEAD
defaults set mode ack checksum on tx-timeout 100 rx-timeout 1250 max-try 5 outstanding-acks 8 max-peers 5 peer-expiry 300000
peer replace 203.0.113.5 port 4000 mode single-ack
peer replace 2001:db8:2::5 port 4001 max-try 1"
check "save B" 0 "$SAVED_B" "" uctl "$B" save
uctl "$B" save >"$NL_TMP/b.conf"
check "A unchanged by B" 0 "$SAVED_A" "" uctl "$A" save

echo "# reload the module"
kill "$HELD_PID"
# shellcheck disable=SC2016 # eval'ed by wait_until
wait_until 30 '[ -z "$("$U" -n "$A" sock show)" ]' || fail "the held socket did not close"
udpcp_unload || fail "rmmod udpcp"
check "save without the module" 2 "" \
	"udpcpctl: the udpcp generic netlink family is not available (is the udpcp module loaded?)" \
	uctl "$A" save
udpcp_load
check "A after reload: built-in, no peers" 0 "$HEAD
$BUILTIN" "" uctl "$A" save
check "B after reload: built-in, no peers" 0 "$HEAD
$BUILTIN" "" uctl "$B" save

echo "# restore"
check "A: -b" 0 "" "" uctl "$A" -b "$NL_TMP/a.conf"
uctl "$A" save >"$NL_TMP/a2.conf"
check "A: save again, the same bytes" 0 "" "" cmp "$NL_TMP/a.conf" "$NL_TMP/a2.conf"
check "A: the v6 peer is back" 0 "peer 2001:db8:1::1 port 65535 state configured flags configured
    mode ack checksum on tx-timeout 60000 rx-timeout 1 max-try 10 outstanding-acks 255" "" \
	uctl "$A" peer show 2001:db8:1::1 port 65535
check "B: -b" 0 "" "" uctl "$B" -b "$NL_TMP/b.conf"
uctl "$B" save >"$NL_TMP/b2.conf"
check "B: save again, the same bytes" 0 "" "" cmp "$NL_TMP/b.conf" "$NL_TMP/b2.conf"
check "A still A" 0 "$SAVED_A" "" uctl "$A" save

echo "# restore again over itself (a restarted udpcp.service): nothing changes"
check "A: -b twice" 0 "" "" uctl "$A" -b "$NL_TMP/a.conf"
check "A: the same after -b twice" 0 "$SAVED_A" "" uctl "$A" save

echo "# replace: created, or its parameters become exactly the new ones"
check "replace, fewer parameters" 0 "" "" uctl "$A" peer replace 192.0.2.10 port 5000 tx-timeout 700
check "replace dropped mode and max-try" 0 "mode single-ack checksum off tx-timeout 700 rx-timeout 2000 max-try 3 outstanding-acks 4" "" \
	bash -c "\"\$U\" -n \"$A\" peer show 192.0.2.10 port 5000 | tail -n1 | sed 's/^ *//'"
check "replace creates" 0 "peer 192.0.2.11 port 5000 state configured flags configured" "" \
	bash -c "\"\$U\" -n \"$A\" peer replace 192.0.2.11 port 5000 && \"\$U\" -n \"$A\" peer show 192.0.2.11 port 5000 | head -n1"
check "add still refuses an existing peer" 2 "" "Error: peer already exists" \
	uctl "$A" peer add 192.0.2.11 port 5000
check "clean up" 0 "" "" bash -c "\"\$U\" -n \"$A\" peer del 192.0.2.11 port 5000 && \"\$U\" -n \"$A\" -b \"$NL_TMP/a.conf\""
check "A is A again" 0 "$SAVED_A" "" uctl "$A" save

echo "# -b stops at the first failing line"
F=$NL_TMP/err.conf
cat >"$F" <<'EOF'
peer add 192.0.2.40 port 1 mode noack
defaults set max-try 7
peer add 192.0.2.10 port 5000
peer add 192.0.2.41 port 1
EOF
check "error on line 3" 2 "" "udpcpctl: $F:3: Error: peer already exists" uctl "$A" -b "$F"
check "line 1 took effect" 0 "peer 192.0.2.40 port 1 state configured flags configured" "" \
	bash -c "\"\$U\" -n \"$A\" peer show 192.0.2.40 port 1 | head -n1"
check "line 2 took effect" 0 "7" "" bash -c "\"\$U\" -n \"$A\" -j defaults | jq .max_try"
check "line 4 did not" 0 "" "" uctl "$A" peer show 192.0.2.41 port 1

echo "# -force goes on"
check "-force: lines 1 and 3 fail" 2 "" "udpcpctl: $F:1: Error: peer already exists
udpcpctl: $F:3: Error: peer already exists" uctl "$A" -force -b "$F"
check "-force: line 4 took effect" 0 "peer 192.0.2.41 port 1 state configured flags configured" "" \
	bash -c "\"\$U\" -n \"$A\" peer show 192.0.2.41 port 1 | head -n1"

echo "# -b - reads stdin"
check "stdin: usage error on line 2" 1 "" \
	'udpcpctl: <stdin>:2: max-try: "11" is out of range (1-10)' \
	bash -c "printf 'peer add 192.0.2.42 port 1\npeer add 192.0.2.43 port 1 max-try 11\npeer add 192.0.2.44 port 1\n' | \"\$U\" -n \"$A\" -b -"
check "stdin: line 1 took effect" 0 "peer 192.0.2.42 port 1 state configured flags configured" "" \
	bash -c "\"\$U\" -n \"$A\" peer show 192.0.2.42 port 1 | head -n1"
check "stdin: line 3 did not" 0 "" "" uctl "$A" peer show 192.0.2.44 port 1
check "stdin: clean up, quoted, commented, continued" 0 "" "" \
	bash -c "printf '# back to the saved state\n\npeer del 192.0.2.40 port 1\npeer del \"192.0.2.41\" port 1  # a comment\npeer del 192.0.2.42 \\\\\n    port 1\ndefaults set max-try 3\n' | \"\$U\" -n \"$A\" -b -"
uctl "$A" save >"$NL_TMP/a3.conf"
check "back to the saved state" 0 "" "" cmp "$NL_TMP/a.conf" "$NL_TMP/a3.conf"
check "stdin: an empty batch" 0 "" "" bash -c "\"\$U\" -n \"$A\" -b - </dev/null"

echo "# the examples of Documentation/udpcpctl.rst, as written, in a fresh namespace"
_ns_add C c
# Each "$ " line of a literal block runs in C with bash; the lines after it
# are its stdout; it must exit 0.  Prints what differs.
check "udpcpctl.rst examples" 0 "" "" py_run 52-nl-save-doc.py "$REPO/Documentation/udpcpctl.rst" "$C" "$(dirname "$U")"
nl_done
