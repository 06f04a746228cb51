# Sourced by every test in tests/t/ (which run inside the guest, under
# tests/run-tests.sh):   . "$(dirname "$0")/../lib/common.sh"
#
# Gives: REPO, UDPCP_KO; udpcp_load / udpcp_unload / udpcp_install_for_autoload;
# fail MSG, skip MSG, assert_eq WHAT EXPECTED ACTUAL, expect_fail CMD...,
# wait_until SECS CMD... (or SECS 'STRING' to eval each time); in_ns NS CMD...;
# topologies topo_pair, topo_bridge N, topo_netem NS DEV ARGS...,
# topo_netem_clear NS DEV, topo_link_down NS DEV, topo_link_up NS DEV;
# on_exit CMD (cleanup); PY, TESTS_PYPATH, py_run [-n NS] FILE ARGS... (Python).
# Everything a topology creates is torn down when the test exits, however it
# exits: tests must not set their own EXIT trap, use on_exit instead.
# Note: fail/skip inside $(...) only leave that subshell.
# shellcheck shell=bash
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
UDPCP_KO=${UDPCP_KO:-$REPO/module/udpcp.ko}
export REPO UDPCP_KO

# Tests load modules and rewire networking: never on the host.
if [ ! -e /run/udpcp-io/env ] || [ "$(cat /proc/sys/kernel/hostname)" != udpcp-guest ]; then
	echo "tests run only inside the test guest (tests/vm/guest.sh tests/run-tests.sh)" >&2
	exit 2
fi

# --- results ---------------------------------------------------------------
# The first line of MSG becomes the reason run-tests.sh prints.
_result() {
	[ -n "${UDPCP_RESULT:-}" ] && [ ! -s "$UDPCP_RESULT" ] && echo "$*" >"$UDPCP_RESULT"
	return 0
}
fail() {
	echo "FAIL: $*" >&2
	_result "$*"
	exit 1
}
skip() {
	echo "SKIP: $*" >&2
	_result "$*"
	exit 77
}
assert_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}
expect_fail() {
	if "$@"; then
		fail "expected to fail: $*"
	fi
}
# wait_until SECS CMD...: poll CMD every 0.1 s until it succeeds.  Its
# arguments are expanded once, by the caller: to re-evaluate an expansion
# each time, pass ONE string, which is eval'ed:
#   wait_until 20 'test -n "$(ip netns pids "$NS_A")"'
# SECS is stretched by UDPCP_TIMEOUT_SCALE (a slow kernel, a loaded host):
# a wait ends as soon as CMD succeeds, so that costs nothing when all goes
# well.
wait_until() {
	local end=$((SECONDS + $1 * ${UDPCP_TIMEOUT_SCALE:-1}))
	shift
	while true; do
		if [ $# -eq 1 ]; then
			eval "$1" && return 0
		else
			"$@" && return 0
		fi
		[ $SECONDS -lt $end ] || return 1
		sleep 0.1
	done
}

# --- Python ------------------------------------------------------------------
# The tests' Python is in files, not in heredocs: modules in tests/lib/py
# (tests/lib/py/README.md) and the Python peer's in tests/peer; a test's own
# larger body beside it, as tests/t/NN-name*.py, run by py_run.
#   PY                  the system's python3 (a pyenv shim costs a second per
#                       start under TCG)
#   TESTS_PYPATH        tests/lib/py:tests/peer, what that Python imports
#   py_run [-n NS] FILE ARGS...
#                       python FILE (a name: beside the test) with
#                       TESTS_PYPATH importable, in namespace NS if given
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
TESTS_PYPATH=$REPO/tests/lib/py:$REPO/tests/peer
export PY TESTS_PYPATH
py_run() {
	local ns=() f
	if [ "$1" = -n ]; then
		ns=(ip netns exec "$2")
		shift 2
	fi
	f=$1
	shift
	[[ $f == */* ]] || f=$(dirname "$0")/$f
	"${ns[@]}" env PYTHONPATH="$TESTS_PYPATH" "$PY" "$f" "$@"
}

# --- cleanup -----------------------------------------------------------------
_on_exit=()
_namespaces=()
# note TEXT: a figure worth keeping: printed, and written to the kernel
# log, which the harness keeps (a passing test's output is not kept).
note() {
	echo "# $*"
	echo "<6>udpcp-test: ${UDPCP_TEST:-test}: $*" >/dev/kmsg 2>/dev/null || true
}

on_exit() { _on_exit+=("$*"); }
_teardown() {
	local rc=$? i ns pids
	set +e
	for ((i = ${#_on_exit[@]} - 1; i >= 0; i--)); do
		eval "${_on_exit[i]}"
	done
	for ns in "${_namespaces[@]}"; do
		pids=$(ip netns pids "$ns" 2>/dev/null)
		# shellcheck disable=SC2086
		[ -n "$pids" ] && kill -KILL $pids 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	exit $rc
}
trap _teardown EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# --- the module ------------------------------------------------------------
# udpcp_load [PARAM=VALUE...]: its UDP tunnel dependencies come from the
# guest kernel's /lib/modules; the module itself from $UDPCP_KO.
udpcp_load() {
	[ -e "$UDPCP_KO" ] || skip "module not built: $UDPCP_KO"
	modprobe udp_tunnel || fail "modprobe udp_tunnel"
	modprobe ip6_udp_tunnel || fail "modprobe ip6_udp_tunnel"
	grep -q '^udpcp ' /proc/modules && return 0
	insmod "$UDPCP_KO" "$@" || fail "insmod $UDPCP_KO failed"
}
udpcp_unload() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		grep -q '^udpcp ' /proc/modules || return 0
		rmmod udpcp 2>/dev/null && return 0
		sleep 0.3
	done
	rmmod udpcp
}
# So that socket(..., IPPROTO_UDPCP) and modprobe find it (the guest root is
# a throw-away overlay; run-tests.sh removes it again after the test).
udpcp_install_for_autoload() {
	[ -e "$UDPCP_KO" ] || skip "module not built: $UDPCP_KO"
	local d
	d=/lib/modules/$(uname -r)/extra
	mkdir -p "$d"
	cp "$UDPCP_KO" "$d/udpcp.ko"
	touch /run/udpcp-autoload-installed
	depmod -a || fail "depmod -a"
}

# --- topologies --------------------------------------------------------------
in_ns() {
	local ns=$1
	shift
	ip netns exec "$ns" "$@"
}

# _ns_add VAR SUFFIX: a fresh namespace named after the test, in VAR.
_ns_add() {
	local ns="${UDPCP_TEST:-test}-$$-$2"
	ip netns add "$ns"
	_namespaces+=("$ns")
	ip -n "$ns" link set lo up
	# Before any device exists, so every interface inherits it; keep
	# IPv6 addresses across topo_link_down/up as IPv4 does.
	in_ns "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0 \
		net.ipv6.conf.all.keep_addr_on_down=1 net.ipv6.conf.default.keep_addr_on_down=1
	printf -v "$1" '%s' "$ns"
	export "${1?}"
}

# _if_up NS DEV ADDR4/LEN ADDR6/LEN
_if_up() {
	ip -n "$1" addr add "$3" dev "$2"
	ip -n "$1" addr add "$4" dev "$2" nodad
	ip -n "$1" link set "$2" up
	# IPv4 multicast needs a route (IPv6 gets ff00::/8 per device).
	ip -n "$1" route add 224.0.0.0/4 dev "$2"
}

# Until linkwatch has run after carrier-on (up to 1 s), the device has no
# qdisc and drops what is sent: wait for operational state UP.
_is_up() { ip -n "$1" -o link show dev "$2" | grep -q 'state UP'; }
_wait_oper() { # NS DEV
	wait_until 5 _is_up "$1" "$2" || fail "$2 in $1 did not come up"
}

# topo_pair: NS_A <-veth-> NS_B.  Sets NS_A NS_B IF_A IF_B A4 B4 A6 B6.
topo_pair() {
	_ns_add NS_A a
	_ns_add NS_B b
	export IF_A=veth-a IF_B=veth-b
	export A4=192.0.2.1 B4=192.0.2.2 A6=2001:db8::1 B6=2001:db8::2
	# Distinct ifindexes on the two ends make carrier changes "urgent" for
	# linkwatch (equal ones, the default in fresh namespaces, cost ~1 s).
	ip link add "$IF_A" netns "$NS_A" index 10 type veth peer name "$IF_B" netns "$NS_B" index 11
	_if_up "$NS_A" "$IF_A" "$A4/24" "$A6/64"
	_if_up "$NS_B" "$IF_B" "$B4/24" "$B6/64"
	_wait_oper "$NS_A" "$IF_A"
	_wait_oper "$NS_B" "$IF_B"
}

# topo_bridge N: hosts h1..hN, each a namespace with a veth into bridge br0
# (own namespace NS_BR, multicast snooping off so multicast floods).
# Host i: namespace NS_H<i> (also ${H_NS[i]}), interface $IF_H (eth0),
# addresses H<i>_4=192.0.2.i and H<i>_6=2001:db8::i; its bridge port is p<i>.
topo_bridge() {
	local n=$1 i ns
	if [ "$n" -lt 1 ] || [ "$n" -gt 250 ]; then
		fail "topo_bridge: bad host count $n"
	fi
	_ns_add NS_BR br
	ip -n "$NS_BR" link add br0 type bridge stp_state 0 mcast_snooping 0
	ip -n "$NS_BR" link set br0 up
	export IF_H=eth0
	H_NS=()
	for ((i = 1; i <= n; i++)); do
		_ns_add "NS_H$i" "h$i"
		ns=NS_H$i
		ns=${!ns}
		H_NS[i]=$ns
		ip link add "$IF_H" netns "$ns" index $((1000 + i)) type veth \
			peer name "p$i" netns "$NS_BR" index $((2000 + i))
		ip -n "$NS_BR" link set "p$i" master br0 up
		export "H${i}_4=192.0.2.$i" "H${i}_6=2001:db8::$i"
		_if_up "$ns" "$IF_H" "192.0.2.$i/24" "2001:db8::$i/64"
	done
	for ((i = 1; i <= n; i++)); do
		_wait_oper "${H_NS[i]}" "$IF_H"
	done
	_wait_oper "$NS_BR" br0
}

# topo_netem NS DEV ARGS...: e.g. topo_netem "$NS_A" "$IF_A" delay 20ms loss 5%
topo_netem() {
	local ns=$1 dev=$2
	shift 2
	ip netns exec "$ns" tc qdisc replace dev "$dev" root netem "$@"
}
topo_netem_clear() {
	ip netns exec "$1" tc qdisc del dev "$2" root 2>/dev/null || true
}
# Administrative down: sends through DEV fail at once.  Up restores the
# multicast route that going down flushed and waits until DEV carries again.
topo_link_down() { ip -n "$1" link set "$2" down; }
topo_link_up() {
	ip -n "$1" link set "$2" up
	ip -n "$1" route replace 224.0.0.0/4 dev "$2"
	_wait_oper "$1" "$2"
}
