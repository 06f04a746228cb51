#!/bin/bash
# The demo, inside the guest (tests/demo.sh boots it): two namespaces with
# IPv4/IPv6, the module and udpcpctl when they are built (and says so when
# not), then tests/demo-data.sh, sourced when it exists, to show messages
# crossing.  It gets NS_A NS_B IF_A IF_B A4 B4 A6 B6 (see lib/common.sh),
# UDPCPCTL (path, empty if not built) and HAVE_MODULE (1/0).
# UDPCP_KO and UDPCP_CTL point at other builds of the module and the CLI.
export UDPCP_TEST=demo # names the namespaces
. "$(dirname "$0")/lib/common.sh"

say() { printf '\n== %s\n' "$*"; }
run() { # show a command and its output; a failure is shown, not fatal
	local out rc=0
	echo "\$ $*"
	out=$("$@" 2>&1) || rc=$?
	[ -z "$out" ] || sed 's/^/  /' <<<"$out"
	[ "$rc" = 0 ] || echo "  (exit $rc)"
}

say "UDPCP demo: guest kernel $(uname -r)"
topo_pair
say "two namespaces joined by a veth pair"
run ip -n "$NS_A" -br addr show dev "$IF_A"
run ip -n "$NS_B" -br addr show dev "$IF_B"
in_ns "$NS_A" busybox ping -c 1 -W 2 "$B4" >/dev/null && echo "ping $A4 -> $B4: ok" || echo "ping $A4 -> $B4: FAILED"
in_ns "$NS_A" busybox ping -6 -c 1 -W 2 "$B6" >/dev/null && echo "ping $A6 -> $B6: ok" || echo "ping $A6 -> $B6: FAILED"

say "the module"
HAVE_MODULE=0
if [ -e "$UDPCP_KO" ]; then
	udpcp_load
	HAVE_MODULE=1
	echo "loaded $UDPCP_KO"
	run modinfo -F description "$UDPCP_KO"
	run grep '^udpcp ' /proc/modules
else
	echo "not built yet: $UDPCP_KO is missing (make module)"
fi

say "udpcpctl"
UDPCPCTL=${UDPCP_CTL:-$REPO/udpcpctl/udpcpctl}
if [ -x "$UDPCPCTL" ]; then
	run "$UDPCPCTL" --version
	run "$UDPCPCTL" defaults show
	run "$UDPCPCTL" -n "$NS_A" sock show
else
	echo "not built yet: $UDPCPCTL is missing (make progs)"
	UDPCPCTL=
fi
export HAVE_MODULE UDPCPCTL

say "messages"
if [ -f "$REPO/tests/demo-data.sh" ]; then
	# shellcheck source=/dev/null
	. "$REPO/tests/demo-data.sh"
else
	echo "tests/demo-data.sh is not written yet: nothing to send"
fi
say "demo done"
