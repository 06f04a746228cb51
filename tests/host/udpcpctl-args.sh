#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side tests of udpcpctl; they load no module, and need none:
#   - usage errors: exact messages, exit 1, nothing on stdout;
#   - the "module not loaded" line and exit 2 (skipped if a udpcp module is
#     loaded here);
#   - with udpcpctl/test/fakegenl.c preloaded as a stand-in kernel: the
#     requests each command sends, plain and JSON output, extack errors and
#     warnings, dump errors, monitor;
#   - -b FILE / -b - and -force: word splitting, comments, continuations,
#     errors named FILE:LINE, one netlink socket; save; durations with
#     units; ip's option spellings; list/ls/lst; help OBJECT; the bash
#     completion;
#   - -n NETNS (if ip netns works here);
#   - the YAML spec against its schema and uapi/linux/udpcp.h (if the
#     linux-source-6.12 package is installed).
# Ends with "N passed, N failed, N skipped"; exits 1 if any failed.
set -u

cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
U=$ROOT/udpcpctl/udpcpctl
pass=0 fail=0 skip=0
TMP=$(mktemp -d)
NS=udpcpctl-test-$$
cleanup()
{
	ip netns del "$NS" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

make -s udpcpctl/udpcpctl || { echo "0 passed, 1 failed"; exit 1; }

ok() { pass=$((pass + 1)); }
nok()
{
	fail=$((fail + 1))
	echo "FAIL: $1"
	shift
	printf '    %s\n' "$@"
}
skipped() { skip=$((skip + $1)); echo "SKIP: $2"; }

# check NAME RC STDOUT STDERR CMD...: exact exit status, stdout and stderr.
check()
{
	local name=$1 rc=$2 out=$3 err=$4 got_out got_err got_rc
	shift 4
	got_out=$("$@" 2>"$TMP/err")
	got_rc=$?
	got_err=$(cat "$TMP/err")
	if [[ $got_rc == "$rc" && $got_out == "$out" && $got_err == "$err" ]]; then
		ok
	else
		nok "$name" "status $got_rc, expected $rc" \
			"stdout: ${got_out:0:300}" "expected: ${out:0:300}" \
			"stderr: $got_err" "expected: $err"
	fi
}

# usage MESSAGE ARGS...: exit 1, "udpcpctl: MESSAGE" on stderr, no stdout.
usage() { local msg=$1; shift; check "udpcpctl $*" 1 "" "udpcpctl: $msg" "$U" "$@"; }

# first_line NAME RC LINE CMD...: exit status and the first stdout line.
first_line()
{
	local name=$1 rc=$2 line=$3 got got_rc
	shift 3
	got=$("$@" 2>/dev/null | head -n1)
	"$@" >/dev/null 2>&1
	got_rc=$?
	if [[ $got_rc == "$rc" && $got == "$line" ]]; then ok; else
		nok "$name" "status $got_rc, expected $rc" "got: $got" "expected: $line"
	fi
}

# ---- help and version ----------------------------------------------------

MAIN_USAGE="Usage: udpcpctl [ OPTIONS ] OBJECT { COMMAND | help }"
first_line "--help" 0 "$MAIN_USAGE" "$U" --help
first_line "-h" 0 "$MAIN_USAGE" "$U" -h
first_line "help" 0 "$MAIN_USAGE" "$U" help
first_line "peer help" 0 \
	"Usage: udpcpctl peer { add | replace | change } ADDR port PORT [ LOCAL ] [ PARAM VALUE ]..." \
	"$U" peer help
first_line "pe h" 0 \
	"Usage: udpcpctl peer { add | replace | change } ADDR port PORT [ LOCAL ] [ PARAM VALUE ]..." \
	"$U" pe h
first_line "defaults help" 0 "Usage: udpcpctl defaults [ show ]" "$U" defaults help
first_line "monitor help" 0 "Usage: udpcpctl [ -j ] [ -s ] [ -t ] monitor [ EVENT... ] [ ADDR ] [ port PORT ]" "$U" monitor help
PEER_USAGE="Usage: udpcpctl peer { add | replace | change } ADDR port PORT [ LOCAL ] [ PARAM VALUE ]..."
first_line "help peer" 0 "$PEER_USAGE" "$U" help peer
first_line "help pe" 0 "$PEER_USAGE" "$U" help pe
first_line "help save" 0 "Usage: udpcpctl [ -n NETNS ] save" "$U" help save
first_line "save help" 0 "Usage: udpcpctl [ -n NETNS ] save" "$U" save help
first_line "help help" 0 "$MAIN_USAGE" "$U" help help
check "help OBJECT = OBJECT help" 0 "$("$U" group help)" "" "$U" help group
first_line "-help" 0 "$MAIN_USAGE" "$U" -help
check "--version" 0 "udpcpctl 0.1 (generic netlink family udpcp version 1)" "" "$U" --version
check "no object" 1 "" "$("$U" 2>&1)" "$U"
if [[ $("$U" 2>&1 | head -n1) == "$MAIN_USAGE" ]]; then ok; else
	nok "no object prints the usage"
fi
# Every object's usage is in --help.
for o in defaults sock peer stats group monitor save; do
	if "$U" --help | grep -qF "$("$U" "$o" help | head -n1)"; then ok; else
		nok "--help lacks $o"
	fi
done

# ---- usage errors: exit 1, whether or not the module is loaded -----------

usage 'unknown option "-x"' -x sock
usage 'unknown option "--bogus"' --bogus sock
usage '-n: missing value' -n
usage '-n: "a/b" is not a network namespace name' -n a/b sock
usage '-n: ".." is not a network namespace name' -n .. sock
usage "cannot open network namespace \"$NS-none\": No such file or directory" \
	-n "$NS-none" sock
usage 'unknown object "x", expected defaults, sock, peer, stats, group, monitor, save, top or help' x
usage 'ambiguous object "s": sock, stats or save' s
usage 'unknown option "-bogus"' -bogus sock
usage 'unknown option "-jn"' -jn x sock
usage '--json: takes no value' --json=1 sock
usage '-b: missing value' -b
usage '-batch: missing value' -batch
usage '-b: missing FILE' -b ""
usage '-b: cannot open "/nonexistent/udpcp.conf": No such file or directory' -b /nonexistent/udpcp.conf
usage '-b: unexpected argument "peer"' -force -b /dev/null peer
usage 'unknown object "help-me", expected defaults, sock, peer, stats, group, monitor, save, top or help' help help-me
usage 'help: unexpected argument "add"' help peer add
usage 'unknown save command "now", expected help' save now
usage 'monitor: unknown event "ls", expected peer-created, peer-removed, msg-failed or peer-resync' monitor ls
# list, ls and lst are show, as exact words only: "l" is still leave.
usage 'group leave: missing GROUP' group l
usage 'defaults show: unexpected argument "x"' defaults ls x
usage 'unknown sock show argument "x", expected local or local-port' sock lst x
usage 'peer show: "1.2.3" is not an IPv4 or IPv6 address' peer list 1.2.3
usage 'unknown peer command "frob", expected add, replace, change, del, show or help' peer frob
usage 'ambiguous defaults command "s": show or set' defaults s
usage 'defaults show: unexpected argument "extra"' defaults show extra
usage 'defaults set: nothing to set' defaults set
usage 'max-try: "11" is out of range (1-10)' defaults set max-try 11
usage 'max-try: "0" is out of range (1-10)' defaults set max-try 0
usage 'tx-timeout: "60001" is out of range (1-60000)' defaults set tx-timeout 60001
usage 'rx-timeout: "0" is out of range (1-60000)' defaults set rx-timeout 0
usage 'outstanding-acks: "256" is out of range (1-255)' defaults set outstanding-acks 256
usage 'peer-expiry: "4294967296" is out of range (1000-86400000)' \
	defaults set peer-expiry 4294967296
usage 'peer-expiry: "999" is out of range (1000-86400000)' defaults set peer-expiry 999
usage 'max-peers: "0" is out of range (1-1000000)' defaults set max-peers 0
usage 'max-peers: "1000001" is out of range (1-1000000)' defaults set max-peers 1000001
DUR='is not a duration (milliseconds, or a number with us, ms or s: 200, 200ms, 1.5s)'
for v in abc -1 0x10 "" 10xs 1.5 1. .5s 1e3 1S "1 s" 2min ms 1.5.s; do
	usage "tx-timeout: \"$v\" $DUR" defaults set tx-timeout "$v"
done
usage "rx-timeout: \"5m\" $DUR" peer add 192.0.2.2 port 5 rx-timeout 5m
usage "peer-expiry: \"1h\" $DUR" defaults set peer-expiry 1h
usage 'tx-timeout: "61s" is out of range (1-60000 ms)' defaults set tx-timeout 61s
usage 'tx-timeout: "0ms" is out of range (1-60000 ms)' defaults set tx-timeout 0ms
usage 'tx-timeout: "0.0s" is out of range (1-60000 ms)' defaults set tx-timeout 0.0s
usage 'tx-timeout: "99999999999999999999s" is out of range (1-60000 ms)' \
	defaults set tx-timeout 99999999999999999999s
usage 'peer-expiry: "999ms" is out of range (1000-86400000 ms)' defaults set peer-expiry 999ms
usage 'peer-expiry: "86401s" is out of range (1000-86400000 ms)' defaults set peer-expiry 86401s
usage 'tx-timeout: "500us" is not a whole number of milliseconds' defaults set tx-timeout 500us
usage 'tx-timeout: "1.0005s" is not a whole number of milliseconds' defaults set tx-timeout 1.0005s
usage 'rx-timeout: "1.5ms" is not a whole number of milliseconds' defaults set rx-timeout 1.5ms
usage 'max-try: "3s" is not a number' defaults set max-try 3s
usage 'unknown mode "x", expected noack, ack or single-ack' defaults set mode x
usage 'ambiguous checksum "o": off or on' defaults set checksum o
usage 'mode given twice' defaults set mode ack mode noack
usage 'mode: missing value' defaults set mode
usage 'unknown defaults set argument "bogus", expected mode, checksum, tx-timeout, rx-timeout, max-try, outstanding-acks, max-peers or peer-expiry' \
	defaults set bogus 1
usage 'peer add: missing ADDR' peer add
usage 'peer add: missing port' peer add 192.0.2.2
usage 'peer add: "x" is not an IPv4 or IPv6 address' peer add x port 5
usage 'port: "0" is out of range (1-65535)' peer add 192.0.2.2 port 0
usage 'port: "65536" is out of range (1-65535)' peer add 192.0.2.2 port 65536
usage 'port given twice' peer add 192.0.2.2 port 5 port 6
usage 'local: "192.0.2.1" is not ADDR:PORT' peer add 192.0.2.2 port 5 local 192.0.2.1
usage 'local: "::1:5": write an IPv6 address as [ADDR]:PORT' peer add ::1 port 5 local ::1:5
usage 'local: "0" is out of range (1-65535)' peer add ::1 port 5 local '[::1]:0'
usage 'local-port conflicts with local' peer add ::1 port 5 local '[::1]:5' local-port 6
usage 'unknown peer add argument "max-peers", expected port, local, local-port, mode, checksum, tx-timeout, rx-timeout, max-try or outstanding-acks' \
	peer add 192.0.2.2 port 5 max-peers 3
usage 'unknown peer del argument "mode", expected port, local or local-port' \
	peer del 192.0.2.2 port 5 mode ack
usage 'ambiguous peer add argument "l": local or local-port' peer add 192.0.2.2 port 5 l 1
usage 'unknown peer show argument "foo", expected port, local, local-port or state' peer show foo
usage 'state: "busy" is not a state (idle, syncing, sending or configured)' peer show state busy
usage 'monitor: unknown event "peer-lost", expected peer-created, peer-removed, msg-failed or peer-resync' monitor peer-lost
usage 'monitor: "1.2.3" is not an IPv4 or IPv6 address' monitor msg-failed 1.2.3
usage 'unknown monitor argument "bogus", expected port, local, local-port or state' monitor 192.0.2.1 bogus
usage 'peer show: "10.0.0.256" is not an IPv4 or IPv6 address' peer show 10.0.0.256
usage 'peer show: "fe80:x" is not an IPv4 or IPv6 address' peer show fe80:x
usage 'local-port: "x" is not a number' sock show local-port x
usage 'unknown stats reset argument "now", expected local, local-port, peer or port' stats reset now
usage 'stats reset: peer ADDR and port PORT go together' stats reset local-port 5 peer 192.0.2.1
usage 'unknown top argument "bogus", expected interval, count or lines' top bogus
usage 'interval: "0" is out of range (1-3600)' top interval 0
usage 'top: count needs a value' top count
usage 'stats reset: peer ADDR and port PORT go together' stats reset local-port 5 port 7
usage "stats reset: a peer's counters are on its socket: give local or local-port" stats reset peer 192.0.2.1 port 7
usage 'peer: "192.0.2" is not an IPv4 or IPv6 address' stats reset local-port 5 peer 192.0.2 port 7
usage 'group join: missing GROUP' group join
usage 'group join: "10.0.0.1" is not a multicast address' group join 10.0.0.1 local 5
usage 'group join: missing local' group join 239.1.1.1
usage 'ifindex: "0" is out of range (1-2147483647)' group join 239.1.1.1 local 5 ifindex 0
usage 'ifindex conflicts with dev' group join 239.1.1.1 local 5 dev lo ifindex 1
usage 'dev: cannot find device "udpcpnodev0"' group join 239.1.1.1 local 5 dev udpcpnodev0
usage 'dev: "a/b" is not an interface name' group join 239.1.1.1 local 5 dev a/b
usage 'local: "x" is not a number' group leave ff02::1 local '[::1]:x'
usage 'group show: "192.0.2.1" is not a multicast address' group show 192.0.2.1
usage 'monitor: unknown event "now", expected peer-created, peer-removed, msg-failed or peer-resync' monitor now

# ---- no module: one line, exit 2 ------------------------------------------

NOFAM="udpcpctl: the udpcp generic netlink family is not available (is the udpcp module loaded?)"
if [ -d /sys/module/udpcp ]; then
	skipped 15 "a udpcp module is loaded on this host"
else
	# A batch stops at its first line; -force tries each.
	printf 'stats\n\ndefaults\n' >"$TMP/nomod.conf"
	check "no module: -b" 2 "" "udpcpctl: $TMP/nomod.conf:1: ${NOFAM#udpcpctl: }" \
		"$U" -b "$TMP/nomod.conf"
	check "no module: -force -b" 2 "" "udpcpctl: $TMP/nomod.conf:1: ${NOFAM#udpcpctl: }
udpcpctl: $TMP/nomod.conf:3: ${NOFAM#udpcpctl: }" "$U" -force -b "$TMP/nomod.conf"
	for args in "defaults" "defaults set mode ack" "sock" "-s peer" \
		"peer add 192.0.2.2 port 5" "peer show 192.0.2.2 port 5" "stats" \
		"stats reset" "group" "group join 239.1.1.1 local 5 dev lo" \
		"monitor" "-j peer" "-j -p stats"; do
		# shellcheck disable=SC2086 # words on purpose
		check "no module: $args" 2 "" "$NOFAM" "$U" $args
	done
fi

# ---- a stand-in kernel ------------------------------------------------------

FAKE=$TMP/fakegenl.so
read -ra NL_CFLAGS <<<"$(pkg-config --cflags libnl-genl-3.0)"
read -ra NL_LIBS <<<"$(pkg-config --libs libnl-genl-3.0)"
if ! cc -O2 -Wall -Wextra -Werror -I"$ROOT/uapi" "${NL_CFLAGS[@]}" -shared \
	-fPIC -o "$FAKE" udpcpctl/test/fakegenl.c "${NL_LIBS[@]}" -ldl; then
	nok "cannot build udpcpctl/test/fakegenl.c"
	FAKE=
fi

fk() { LD_PRELOAD=$FAKE FAKEGENL_LOG=$TMP/log "$U" "$@"; }

# req "REQUEST LOG" ARGS...: the command succeeds and sends exactly that.
req()
{
	local want=$1 got
	shift
	: >"$TMP/log"
	fk "$@" >/dev/null 2>"$TMP/err" || { nok "udpcpctl $*" "failed: $(cat "$TMP/err")"; return; }
	got=$(cat "$TMP/log")
	if [[ $got == "$want" ]]; then ok; else
		nok "request of udpcpctl $*" "sent: $got" "expected: $want"
	fi
}

# json NAME PYTHON-EXPR ARGS...: stdout parses, and EXPR holds of it (d).
json()
{
	local name=$1 expr=$2
	shift 2
	fk "$@" >"$TMP/json" 2>"$TMP/err"
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 3)' "$TMP/json" "$expr" 2>"$TMP/pyerr"; then
		ok
	else
		nok "$name" "stdout: $(head -c 400 "$TMP/json")" "$(tail -n1 "$TMP/pyerr")"
	fi
}

SOCK4='sock inet 192.0.2.1:5000 peers 2 uid 0 inode 1234 cookie 4097
    mode ack checksum on tx-timeout 500 rx-timeout 5000 max-try 5 outstanding-acks 1
    rx-queue 3 bytes 300 tx-queue 1 bytes 100 partial-mem 0'
SOCK4S="$SOCK4
    tx: msgs 102 bytes 104 timeout 106 retries 108 pmtu-restarts 116 icmp-errors 115
    rx: msgs 103 bytes 105 timeout 107 discarded-frags 109 duplicates 111 malformed 112 dropped 113 refused 114 crc-errors 110"
SOCK6='sock inet6 [2001:db8::1]:6000 peers 1 uid 0 inode 5678 cookie 8193
    mode single-ack checksum on tx-timeout 500 rx-timeout 5000 max-try 5 outstanding-acks 1'
SOCK6S="$SOCK6
    tx: msgs 202 bytes 204 timeout 206 retries 208 pmtu-restarts 216 icmp-errors 215
    rx: msgs 203 bytes 205 timeout 207 discarded-frags 209 duplicates 211 malformed 212 dropped 213 refused 214 crc-errors 210"
PEER0='peer 192.0.2.2 port 5000 local 192.0.2.1:5000 state idle flags configured
    mode noack checksum on tx-timeout 500 rx-timeout 5000 max-try 5 outstanding-acks 1
    next-msg-id 12 last-rx-msg-id 7 idle 1500ms rtt 250us'
PEER0S="$PEER0
    tx: msgs 12 bytes 14 timeout 16 retries 18 pmtu-restarts 26 icmp-errors 25
    rx: msgs 13 bytes 15 timeout 17 discarded-frags 19 duplicates 21 malformed 22 dropped 23 refused 24 crc-errors 20"
PEER1='peer 192.0.2.3 port 5001 local 192.0.2.1:5000 state syncing
    mode ack checksum on tx-timeout 500 rx-timeout 5000 max-try 5 outstanding-acks 1
    next-msg-id 13 last-rx-msg-id 8 idle 1501ms rtt 251us icmp-errors 3 icmp-last ECONNREFUSED icmp-age 40ms rx-queued 2304B'
PEER2='peer 2001:db8::2 port 5002 local [2001:db8::1]:6000 state 9 flags configured,need-sync,0x10
    mode single-ack checksum on tx-timeout 500 rx-timeout 5000 max-try 5 outstanding-acks 1
    next-msg-id 14 last-rx-msg-id 9 idle 1502ms rtt 252us'
DEFAULTS='mode ack checksum on tx-timeout 500 rx-timeout 5000 max-try 5 outstanding-acks 1 max-peers 64 peer-expiry 60000'
STATS='tx: msgs 1002 bytes 1004 timeout 1006 retries 1008 pmtu-restarts 1016 icmp-errors 1015
rx: msgs 1003 bytes 1005 timeout 1007 discarded-frags 1009 duplicates 1011 malformed 1012 dropped 1013 refused 1014 crc-errors 1010'
lo=$(cat /sys/class/net/lo/ifindex 2>/dev/null)
GROUP4="group 239.1.1.1 dev lo local 0.0.0.0:5000"
[ "$lo" = 1 ] || GROUP4="group 239.1.1.1 ifindex 1 local 0.0.0.0:5000"
GROUP6="group ff02::1:3 ifindex 999999 local [::]:6000"
EVENTS='peer-created 192.0.2.2 port 5000 local 192.0.2.1:5000 state idle flags configured
msg-failed 192.0.2.3 port 5001 local 192.0.2.1:5000 msg-id 17 state syncing
peer-resync 2001:db8::2 port 5002 local [2001:db8::1]:6000 state 9 flags configured,need-sync,0x10
peer-removed 192.0.2.3 port 5001 local 192.0.2.1:5000 state syncing'

# shellcheck disable=SC2016 # bash -c '...' expands its own arguments
if [ -n "$FAKE" ]; then
	# What each command sends, attribute by attribute, in order.
	req "defaults-get v1" defaults
	req "defaults-set v1 defaults(params(transfer-mode=2 checksum=0 tx-timeout=100 rx-timeout=200 max-tries=3 outstanding-acks=4) max-peers=10 peer-expiry=1000)" \
		defaults set mode single-ack checksum off tx-timeout 100 rx-timeout 200 \
		max-try 3 outstanding-acks 4 max-peers 10 peer-expiry 1000
	req "defaults-set v1 defaults(max-peers=7)" defaults set max-peers 7
	req "sock-get dump v1" sock
	req "peer-new v1 peer(remote-ipv4=192.0.2.9 remote-port=5000 sock(local-ipv4=192.0.2.1 local-port=5000) params(transfer-mode=1))" \
		peer add 192.0.2.9 port 5000 local 192.0.2.1:5000 mode ack
	req "peer-set v1 peer(remote-ipv6=2001:db8::9 remote-port=1 sock(local-port=6000) params(transfer-mode=0))" \
		pe ch 2001:db8::9 po 1 local-port 6000 mo no
	req "peer-del v1 peer(remote-ipv6=2001:db8::9 remote-port=1 sock(local-ipv6=2001:db8::1 local-port=6000))" \
		peer del 2001:db8::9 port 1 local '[2001:db8::1]:6000'
	req "peer-get v1 peer(remote-ipv4=192.0.2.2 remote-port=5000 sock(local-ipv4=192.0.2.1 local-port=5000))" \
		peer show 192.0.2.2 port 5000 local 192.0.2.1:5000
	req "peer-get dump v1" peer show 192.0.2.2 port 5000
	req "peer-get dump v1" peer show 192.0.2.2
	req "peer-get dump v1" peer
	req "stats-get v1" stats
	req "stats-reset v1" stats reset
	req "stats-reset v1 sock(local-port=5000)" stats reset local-port 5000
	req "stats-reset v1 peer(remote-ipv6=2001:db8::2 remote-port=7 sock(local-ipv4=192.0.2.1 local-port=5000))" \
		stats reset local 192.0.2.1:5000 peer 2001:db8::2 port 7
	req "group-get dump v1" group
	req "group-join v1 group(sock(local-ipv4=192.0.2.1 local-port=5000) ipv4=239.1.1.1 ifindex=$lo)" \
		group join 239.1.1.1 dev lo local 192.0.2.1:5000
	req "group-leave v1 group(sock(local-port=6000) ipv6=ff02::1:3 ifindex=3)" \
		group leave ff02::1:3 ifindex 3 local 6000
	# Plain output of defaults show is valid input to defaults set.
	# shellcheck disable=SC2046 # words on purpose
	req "defaults-set v1 defaults(params(transfer-mode=1 checksum=1 tx-timeout=500 rx-timeout=5000 max-tries=5 outstanding-acks=1) max-peers=64 peer-expiry=60000)" \
		defaults set $(fk defaults show)

	# list, ls and lst are show; help OBJECT.
	req "peer-get dump v1" peer list
	req "peer-get dump v1" peer ls 192.0.2.2
	req "peer-get dump v1" peer lst
	req "peer-get v1 peer(remote-ipv4=192.0.2.2 remote-port=5000 sock(local-port=5000))" \
		peer ls 192.0.2.2 port 5000 local-port 5000
	req "sock-get dump v1" sock ls
	req "group-get dump v1" group list
	req "defaults-get v1" defaults lst
	req "stats-get v1" stats ls
	check "peer ls = peer show" 0 "$PEER0
$PEER1
$PEER2" "" fk peer ls

	# Durations: plain milliseconds, or us, ms, s with a fraction.
	req "defaults-set v1 defaults(params(tx-timeout=200 rx-timeout=1500) peer-expiry=2000)" \
		defaults set tx-timeout 200ms rx-timeout 1.5s peer-expiry 2s
	req "defaults-set v1 defaults(params(tx-timeout=1 rx-timeout=60000) peer-expiry=86400000)" \
		defaults set tx-timeout 1000us rx-timeout 60s peer-expiry 86400s
	req "defaults-set v1 defaults(params(tx-timeout=1 rx-timeout=10) peer-expiry=1000)" \
		defaults set tx-timeout 0.001s rx-timeout 10.000ms peer-expiry 1000
	req "peer-new v1 peer(remote-ipv4=192.0.2.9 remote-port=5 params(tx-timeout=250 rx-timeout=3000))" \
		peer add 192.0.2.9 port 5 tx-timeout 0.25s rx-timeout 3000
	req "peer-set v1 peer(remote-ipv6=2001:db8::9 remote-port=5 params(tx-timeout=7))" \
		peer change 2001:db8::9 port 5 tx-timeout 7000us
	req "peer-new v1 peer(remote-ipv4=192.0.2.9 remote-port=5 params(max-tries=2) replace=<0 bytes>)" \
		peer replace 192.0.2.9 port 5 max-try 2

	# ip's spellings of the options.
	check "-json" 0 "$(fk -j defaults)" "" fk -json defaults
	check "--json" 0 "$(fk -j defaults)" "" fk --json defaults
	check "-json -pretty" 0 "$(fk -j -p defaults)" "" fk -json -pretty defaults
	check "-jp" 0 "$(fk -j -p defaults)" "" fk -jp defaults
	check "-pretty alone is plain" 0 "$DEFAULTS" "" fk -pretty defaults
	check "-js -netns" 0 "$(fk -j -s sock)" "" fk -js sock
	check "-stats" 0 "$SOCK4S
$SOCK6S" "" fk -stats sock

	# -b: one command per line, as on the command line.
	cat >"$TMP/b.conf" <<-'EOF'
	# udpcp.conf: a comment, then a blank line

	defaults set mode ack tx-timeout 1.5s   # a comment after a command
	  peer add 192.0.2.9 port 5000 \
	      mode single-ack max-try 3
	peer add 2001:db8::9 port "5001" 'tx-timeout' "2"00ms
	peer del 192.0.2.9 port 5000 local "192.0.2.1:5000"
	peer change 192.0.2.9 port 5\000 max-try 2#not a comment
	stats
	EOF
	BREQ="socket
defaults-set v1 defaults(params(transfer-mode=1 tx-timeout=1500))
peer-new v1 peer(remote-ipv4=192.0.2.9 remote-port=5000 params(transfer-mode=2 max-tries=3))
peer-new v1 peer(remote-ipv6=2001:db8::9 remote-port=5001 params(tx-timeout=200))
peer-del v1 peer(remote-ipv4=192.0.2.9 remote-port=5000 sock(local-ipv4=192.0.2.1 local-port=5000))"
	: >"$TMP/log"
	FAKEGENL_LOG_OPEN=1 check "-b: the last line refused locally" 1 "" \
		'udpcpctl: '"$TMP"'/b.conf:8: max-try: "2#not" is not a number' fk -b "$TMP/b.conf"
	check_log() { # NAME EXPECTED
		if [[ $(cat "$TMP/log") == "$2" ]]; then ok; else
			nok "$1" "sent: $(cat "$TMP/log")" "expected: $2"
		fi
	}
	check_log "-b: one socket, the requests of lines 3-7" "$BREQ"
	sed -i 's/#not a comment/ # a comment/' "$TMP/b.conf"
	: >"$TMP/log"
	FAKEGENL_LOG_OPEN=1 check "-b" 0 "$STATS" "" fk -b "$TMP/b.conf"
	check_log "-b: one socket, every request" "$BREQ
peer-set v1 peer(remote-ipv4=192.0.2.9 remote-port=5000 params(max-tries=2))
stats-get v1"
	: >"$TMP/log"
	FAKEGENL_LOG=$TMP/log FAKEGENL_LOG_OPEN=1 check "-b -" 0 "$STATS" "" bash -c 'LD_PRELOAD=$0 "$1" -b - <"$2"' "$FAKE" "$U" "$TMP/b.conf"
	check_log "-b -: the same" "$BREQ
peer-set v1 peer(remote-ipv4=192.0.2.9 remote-port=5000 params(max-tries=2))
stats-get v1"
	check "-j -b: a document per line" 0 "$(fk -j defaults)
$(fk -j stats)" "" bash -c 'printf "defaults\nstats\n" | LD_PRELOAD=$0 "$1" -j -b -' "$FAKE" "$U"

	# The kernel refuses line 3: stop there (lines 1-2 sent, 4 not), or
	# with -force go on; the exit status is the first failure's.
	printf 'defaults set max-try 3\npeer add 192.0.2.9 port 5\npeer add 192.0.2.9 port 5\nstats reset\n' \
		>"$TMP/e.conf"
	export FAKEGENL_ERR="17:peer already exists"
	: >"$TMP/log"
	FAKEGENL_ERR_AT=3 check "-b: error on line 3" 2 "" \
		"udpcpctl: $TMP/e.conf:3: Error: peer already exists" fk -b "$TMP/e.conf"
	check_log "-b: lines 1-3 sent" "defaults-set v1 defaults(params(max-tries=3))
peer-new v1 peer(remote-ipv4=192.0.2.9 remote-port=5)
peer-new v1 peer(remote-ipv4=192.0.2.9 remote-port=5)"
	: >"$TMP/log"
	FAKEGENL_ERR_AT=3 check "-force -b: error on line 3" 2 "" \
		"udpcpctl: $TMP/e.conf:3: Error: peer already exists" fk -force -b "$TMP/e.conf"
	check_log "-force -b: all sent" "defaults-set v1 defaults(params(max-tries=3))
peer-new v1 peer(remote-ipv4=192.0.2.9 remote-port=5)
peer-new v1 peer(remote-ipv4=192.0.2.9 remote-port=5)
stats-reset v1"
	FAKEGENL_ERR_AT=3 check "-b -f" 2 "" \
		"udpcpctl: $TMP/e.conf:3: Error: peer already exists" fk -b "$TMP/e.conf" -f
	FAKEGENL_ERR_AT=3 check "--force --batch=FILE" 2 "" \
		"udpcpctl: $TMP/e.conf:3: Error: peer already exists" fk --force --batch="$TMP/e.conf"
	printf 'stats\nstats reset now\nstats reset\n' >"$TMP/u.conf"
	FAKEGENL_ERR_AT=2 check "-force: a usage error, then the kernel's; exit 1" 1 "$STATS" \
		"udpcpctl: $TMP/u.conf:2: unknown stats reset argument \"now\", expected local, local-port, peer or port
udpcpctl: $TMP/u.conf:3: Error: peer already exists" fk -force -b "$TMP/u.conf"
	FAKEGENL_ERR=1 check "-b -: errno without extack" 2 "" \
		"udpcpctl: <stdin>:1: Error: Operation not permitted" bash -c 'echo "stats reset" | LD_PRELOAD=$0 "$1" -b -' "$FAKE" "$U"
	unset FAKEGENL_ERR
	FAKEGENL_WARN="peer exists, updated" check "-b: a warning names its line" 0 "" \
		"udpcpctl: <stdin>:2: Warning: peer exists, updated" \
		bash -c 'printf "\npeer add 192.0.2.9 port 5\n" | LD_PRELOAD=$0 "$1" -b -' "$FAKE" "$U"
	for bad in "peer add \"192.0.2.9 port 5" "peer add '192.0.2.9 port 5" "peer add 192.0.2.9 port 5 \\"; do
		printf 'stats reset\n%s\n' "$bad" >"$TMP/q.conf"
		check "-b: unterminated: $bad" 1 "" \
			"udpcpctl: $TMP/q.conf:2: unterminated quote or backslash at the end of the file" \
			fk -b "$TMP/q.conf"
	done
	printf 'stats reset\nmonitor\n' >"$TMP/m.conf"
	check "-b: no monitor" 1 "" "udpcpctl: $TMP/m.conf:2: monitor runs until killed: not in a batch" \
		fk -b "$TMP/m.conf"
	check "-b: monitor help" 0 "$("$U" monitor help)" "" bash -c 'echo "monitor help" | "$0" -b -' "$U"
	check "-b: a line of options is no object" 1 "" \
		'udpcpctl: <stdin>:1: unknown object "-j", expected defaults, sock, peer, stats, group, monitor, save, top or help' \
		bash -c 'echo "-j stats" | "$0" -b -' "$U"

	# save: the defaults, all of them, and the peers without a socket
	# with what differs from the defaults; a batch that -b takes.
	SAVED="# udpcpctl 0.1 save: the udpcp configuration of a network namespace
# restore with: udpcpctl [ -n NETNS ] -b FILE
defaults set mode ack checksum on tx-timeout 500 rx-timeout 5000 max-try 5 outstanding-acks 1 max-peers 64 peer-expiry 60000"
	FAKEGENL_TEMPLATES=1 check "save" 0 "$SAVED
peer replace 198.51.100.7 port 7000 mode noack
peer replace 2001:db8::7 port 7001 mode single-ack" "" fk save
	check "save: peers of sockets left out" 0 "$SAVED" "" fk save
	FAKEGENL_TEMPLATES=1 check "-j save is the same text" 0 "$(FAKEGENL_TEMPLATES=1 fk save)" "" fk -j save
	FAKEGENL_TEMPLATES=1 req "defaults-get v1
peer-get dump v1" save
	FAKEGENL_TEMPLATES=1 fk save >"$TMP/saved.conf"
	: >"$TMP/log"
	check "-b of save's output" 0 "" "" fk -b "$TMP/saved.conf"
	check_log "-b of save's output: requests" "defaults-set v1 defaults(params(transfer-mode=1 checksum=1 tx-timeout=500 rx-timeout=5000 max-tries=5 outstanding-acks=1) max-peers=64 peer-expiry=60000)
peer-new v1 peer(remote-ipv4=198.51.100.7 remote-port=7000 params(transfer-mode=0) replace=<0 bytes>)
peer-new v1 peer(remote-ipv6=2001:db8::7 remote-port=7001 params(transfer-mode=2) replace=<0 bytes>)"
	FAKEGENL_TEMPLATES=1 FAKEGENL_DUMPERR="105:dump failed" check "save: a failed dump prints nothing" 2 "" \
		"Error: dump failed" fk save
	FAKEGENL_ERR="1:not allowed" check "save: refused, prints nothing" 2 "" "Error: not allowed" fk save

	# Plain output.
	check "defaults" 0 "$DEFAULTS" "" fk defaults
	check "stats" 0 "$STATS" "" fk stats show
	check "sock" 0 "$SOCK4
$SOCK6" "" fk sock
	check "-s sock" 0 "$SOCK4S
$SOCK6S" "" fk -s sock
	check "sock show local-port 6000" 0 "$SOCK6" "" fk sock show local-port 6000
	check "sock show local 192.0.2.1:5000" 0 "$SOCK4" "" fk sock show local 192.0.2.1:5000
	check "peer" 0 "$PEER0
$PEER1
$PEER2" "" fk peer
	check "-s peer show 192.0.2.2 port 5000" 0 "$PEER0S" "" fk -s peer show 192.0.2.2 port 5000
	check "peer show 192.0.2.3" 0 "$PEER1" "" fk peer show 192.0.2.3
	check "peer show port 5001" 0 "$PEER1" "" fk peer show port 5001
	check "peer show local [2001:db8::1]:6000" 0 "$PEER2" "" fk peer show local '[2001:db8::1]:6000'
	check "peer show 192.0.2.99" 0 "" "" fk peer show 192.0.2.99
	check "peer show state syncing" 0 "$PEER1" "" fk peer show state syncing
	check "peer show 192.0.2.3 state idle" 0 "" "" fk peer show 192.0.2.3 state idle
	req "peer-get dump v1" peer show 192.0.2.2 port 5000 local-port 5000 state idle
	check "group" 0 "$GROUP4
$GROUP6" "" fk group
	check "group show ff02::1:3" 0 "$GROUP6" "" fk group show ff02::1:3
	check "group show local [::]:6000" 0 "$GROUP6" "" fk group show local '[::]:6000'
	# A socket bound to the wildcard address has every address.
	check "group show local 10.1.1.1:5000" 0 "$GROUP4" "" fk group show local 10.1.1.1:5000

	# JSON: valid, with these keys and types.
	json "-j defaults" 'd == {"mode": "ack", "checksum": True, "tx_timeout_ms": 500, "rx_timeout_ms": 5000, "max_try": 5, "outstanding_acks": 1, "max_peers": 64, "peer_expiry_ms": 60000}' \
		-j defaults
	json "-j -p defaults" 'd["peer_expiry_ms"] == 60000' -j -p defaults
	json "-j stats" 'd["tx_msgs"] == 1002 and d["crc_errors"] == 1010 and len(d) == 15 and d["rx_refused"] == 1014 and d["pmtu_restarts"] == 1016' -j stats
	json "-j sock" 'len(d) == 2 and d[1]["family"] == "inet6" and d[1]["local_address"] == "2001:db8::1" and d[1]["local_port"] == 6000 and d[0]["cookie"] == 4097 and "stats" not in d[0]' \
		-j sock
	json "-j -p -s sock" 'd[0]["stats"]["rx_dropped"] == 113 and d[0]["peer_count"] == 2' -j -p -s sock
	# The fake's counters stand still: every peer with a socket, 0 per interval.
	json "-j top" 'd["interval_ms"] >= 1000 and len(d["peers"]) == 3 and all(p["tx_msgs"] == 0 and p["rx_msgs"] == 0 for p in d["peers"]) and d["peers"][1]["rtt_us"] in (250, 251, 252)' \
		-j top count 1
	check "top, plain: header, then the busiest first" 0 "PEER LOCAL TX/s RX/s RETRY/s FAILED RTT(us)
3" "" bash -c 'LD_PRELOAD=$0 "$1" top count 1 lines 5 | sed -n "2p" | tr -s " "; LD_PRELOAD=$0 "$1" top count 1 | tail -n +3 | wc -l' "$FAKE" "$U"
	json "-j peer" '[p["state"] for p in d] == ["idle", "syncing", "9"] and d[2]["flags"] == ["configured", "need-sync", "0x10"] and d[1]["flags"] == [] and d[0]["mode"] == "noack" and d[2]["remote_address"] == "2001:db8::2"' \
		-j peer
	json "-j -s -p peer" 'd[0]["stats"]["tx_retries"] == 18 and d[0]["idle_ms"] == 1500 and d[0]["rtt_us"] == 250 and d[0]["next_msg_id"] == 12 and d[0]["last_rx_msg_id"] == 7' \
		-j -s -p peer
	json "-j peer: ICMP errors" '"icmp_errors" not in d[0] and d[1]["icmp_errors"] == 3 and d[1]["icmp_last_errno"] == 111 and d[1]["icmp_last_error"] == "ECONNREFUSED" and d[1]["icmp_last_ms"] == 40' \
		-j peer
	json "-j peer show ADDR port PORT" 'len(d) == 1 and d[0]["remote_port"] == 5000' \
		-j peer show 192.0.2.2 port 5000
	json "-j peer show ADDR port PORT LOCAL" 'len(d) == 1 and d[0]["local_port"] == 5000' \
		-j peer show 192.0.2.2 port 5000 local 192.0.2.1:5000
	json "-j peer show (none)" 'd == []' -j peer show 192.0.2.99
	json "-j group" 'd[0] == {"group": "239.1.1.1", "ifindex": 1, "local_address": "0.0.0.0", "local_port": 5000, **({"dev": "lo"} if d[0].get("dev") else {})} and d[1] == {"group": "ff02::1:3", "ifindex": 999999, "local_address": "::", "local_port": 6000}' \
		-j group

	# The kernel refuses: its extack text, or strerror; exit 2.
	FAKEGENL_ERR="1:udpcp: not allowed here" check "extack error" 2 "" \
		"Error: udpcp: not allowed here" fk peer add 192.0.2.9 port 5
	FAKEGENL_ERR=17 check "errno error" 2 "" "Error: File exists" fk peer add 192.0.2.9 port 5
	FAKEGENL_ERR="2:no such peer" check "error of -j show" 2 "[]" "Error: no such peer" \
		fk -j peer show 192.0.2.2 port 5000 local 192.0.2.1:5000
	FAKEGENL_DUMPERR="105:dump failed" check "dump error" 2 "$SOCK4
$SOCK6" "Error: dump failed" fk sock
	FAKEGENL_DUMPERR=105 check "dump errno" 2 "$SOCK4
$SOCK6" "Error: No buffer space available" fk sock
	FAKEGENL_DUMPERR="105:dump failed" json "dump error leaves valid JSON" 'len(d) == 2' -j sock
	FAKEGENL_WARN="peer exists, updated" check "extack warning" 0 "" \
		"Warning: peer exists, updated" fk peer add 192.0.2.9 port 5

	# Events, each flushed (the stand-in ends with _exit(): no final flush).
	FAKEGENL_EVENTS=1 check "monitor" 0 "$EVENTS" "" fk monitor
	# shellcheck disable=SC2016 # expanded by that bash
	FAKEGENL_EVENTS=1 check "monitor | cat" 0 "$EVENTS" "" \
		bash -c 'LD_PRELOAD=$0 "$1" monitor | cat' "$FAKE" "$U"
	FAKEGENL_EVENTS=1 FAKEGENL_OVERRUN=1 check "monitor: overrun" 0 "$EVENTS" \
		"udpcpctl: warning: receive buffer overrun, events were lost" fk monitor
	head=${PEER0S%%$'\n'*}
	FAKEGENL_EVENTS=1 first_line "-s monitor" 0 "peer-created${head#peer}" fk -s monitor
	FAKEGENL_EVENTS=1 fk -s monitor >"$TMP/events" 2>&1
	if [ "$(sed -n 2,5p "$TMP/events")" = "$(sed 1d <<<"$PEER0S")" ]; then ok; else
		nok "-s monitor: the whole peer" "$(cat "$TMP/events")"
	fi
	FAKEGENL_EVENTS=1 fk -j -p monitor >"$TMP/events" 2>&1
	if python3 -c 'import json, sys
lines = open(sys.argv[1]).read().splitlines()
ev = [json.loads(l) for l in lines]
assert [e["event"] for e in ev] == ["peer-created", "msg-failed", "peer-resync", "peer-removed"]
assert ev[1]["msg_id"] == 17 and "msg_id" not in ev[0]
assert ev[2]["local_address"] == "2001:db8::1" and "mode" not in ev[2]' "$TMP/events"; then ok; else
		nok "-j monitor: one JSON object per line" "$(cat "$TMP/events")"
	fi
else
	skipped 57 "no stand-in kernel"
fi

# ---- -n NETNS --------------------------------------------------------------

if [ -n "$FAKE" ] && ip netns add "$NS" 2>/dev/null; then
	# lo is ifindex 1 in a new namespace; a host-only device is unknown there.
	req "group-join v1 group(sock(local-port=5) ipv4=239.1.1.1 ifindex=1)" \
		-n "$NS" group join 239.1.1.1 dev lo local 5
	hostdev=
	for d in /sys/class/net/*; do
		[ "${d##*/}" != lo ] && { hostdev=${d##*/}; break; }
	done
	if [ -n "$hostdev" ]; then
		check "-n: device of the host" 1 "" "udpcpctl: dev: cannot find device \"$hostdev\"" \
			fk -n "$NS" group join 239.1.1.1 dev "$hostdev" local 5
	else
		skipped 1 "no network device besides lo"
	fi
	check "--netns=NETNS" 0 "$DEFAULTS" "" fk --netns="$NS" defaults
	check "-netns NETNS save" 0 "$SAVED" "" fk -netns "$NS" save
	# The namespace is entered once, for the whole batch.
	printf 'group join 239.1.1.1 dev lo local 5\ngroup leave 239.1.1.1 dev lo local 5\n' >"$TMP/g.conf"
	: >"$TMP/log"
	check "-n NETNS -b" 0 "" "" fk -n "$NS" -b "$TMP/g.conf"
	check_log "-n NETNS -b: lo of the namespace" "group-join v1 group(sock(local-port=5) ipv4=239.1.1.1 ifindex=1)
group-leave v1 group(sock(local-port=5) ipv4=239.1.1.1 ifindex=1)"
else
	skipped 5 "ip netns add does not work here"
fi

# ---- the netlink spec ------------------------------------------------------

# shellcheck source=tests/lib/ynl.sh
. tests/lib/ynl.sh
if ! python3 -c 'import jsonschema, yaml' 2>/dev/null; then
	skipped 8 "python3-jsonschema or python3-yaml is not installed (ynl)"
elif ! ynl_setup 2>"$TMP/ynl"; then
	skipped 8 "no ynl tools: $(cat "$TMP/ynl")"
else
	for f in ynl_check_spec ynl_check_generated; do
		if "$f" >"$TMP/ynl" 2>&1; then ok; else
			nok "$f" "$(tail -n20 "$TMP/ynl")"
		fi
	done
	if [ -n "$FAKE" ]; then
		ynl_json()
		{
			local name=$1 expr=$2
			shift 2
			LD_PRELOAD=$FAKE FAKEGENL_KNOWN=1 ynl_cli "$@" --output-json >"$TMP/json" 2>"$TMP/err"
			if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 3)' "$TMP/json" "$expr" 2>/dev/null; then ok; else
				nok "ynl $name" "$(head -c 300 "$TMP/json")" "$(tail -n2 "$TMP/err")"
			fi
		}
		# The spec decodes what the header says is on the wire.
		ynl_json "defaults-get" 'd == {"defaults": {"params": {"transfer-mode": "ack", "checksum": 1, "tx-timeout": 500, "rx-timeout": 5000, "max-tries": 5, "outstanding-acks": 1}, "max-peers": 64, "peer-expiry": 60000}}' \
			--do defaults-get
		ynl_json "peer-get dump" 'len(d) == 3 and d[2]["peer"]["remote-ipv6"] == "2001:db8::2" and d[0]["peer"]["flags"] == ["configured"] and d[1]["peer"]["state"] == "syncing" and d[0]["peer"]["stats"]["crc-errors"] == 20' \
			--dump peer-get
		ynl_json "sock-get dump" 'd[1]["sock"]["local-ipv6"] == "2001:db8::1" and d[0]["sock"]["cookie"] == 4097' \
			--dump sock-get
		ynl_json "group-get dump" 'd[0]["group"]["ipv4"] == "239.1.1.1" and d[1]["group"]["ifindex"] == 999999' \
			--dump group-get
		FAKEGENL_EVENTS=1 ynl_json "events" '[e["name"] for e in d] == ["peer-created-ntf", "msg-failed-ntf", "peer-resync-ntf", "peer-removed-ntf"] and d[1]["msg"]["peer"]["msg-id"] == 17' \
			--subscribe events
		# ynl and udpcpctl send the same attributes for the same request.
		: >"$TMP/log"
		LD_PRELOAD=$FAKE FAKEGENL_LOG=$TMP/log ynl_cli --do peer-new --json \
			'{"peer": {"remote-ipv6": "20010db8000000000000000000000009", "remote-port": 1, "sock": {"local-ipv4": "c0000201", "local-port": 5000}, "params": {"transfer-mode": 2, "tx-timeout": 100}}}' \
			>/dev/null 2>&1
		want=$(cat "$TMP/log")
		req "$want" peer add 2001:db8::9 port 1 local 192.0.2.1:5000 mode single-ack tx-timeout 100
	else
		skipped 6 "no stand-in kernel (ynl)"
	fi
fi

# ---- bash completion ------------------------------------------------------

# comp LINE: the completions of LINE, cursor at its end, sorted, one line.
comp()
{
	bash -c '. "$0"; COMP_LINE=$1; COMP_POINT=${#1}; _udpcpctl
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
		udpcpctl/udpcpctl.bash-completion "$1"
}
comp_is() { # LINE EXPECTED
	local got
	got=$(comp "$1")
	if [[ ${got% } == "$2" ]]; then ok; else
		nok "completion of \"$1\"" "got: $got" "expected: $2"
	fi
}
comp_is "udpcpctl sa" "save"
comp_is "udpcpctl s" "save sock stats"
comp_is "udpcpctl help pe" "peer"
comp_is "udpcpctl help " "defaults group help monitor peer save sock stats top"
comp_is "udpcpctl top count 2 " "count help interval lines"
comp_is "udpcpctl stats reset local-port 5 p" "peer port"
comp_is "udpcpctl save " "help"
comp_is "udpcpctl -for" "-force"
comp_is "udpcpctl --ba" "--batch"
comp_is "udpcpctl -b /nonexistent/x" ""
comp_is "udpcpctl -b udpcpctl/udpcpctl.bash-c" "udpcpctl/udpcpctl.bash-completion"
comp_is "udpcpctl -b udpcpctl/udpcpctl.bash-completion -f pe" "peer"
comp_is "udpcpctl -json -n x peer ls " "local local-port port state"
comp_is "udpcpctl peer lst 192.0.2.1 port 5 " "local local-port state"
comp_is "udpcpctl peer show state s" "sending syncing"
comp_is "udpcpctl -t" "-t -timestamp"
comp_is "udpcpctl monitor msg" "msg-failed"
comp_is "udpcpctl monitor peer-created state c" "configured"
comp_is "udpcpctl group list l" "local"

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
