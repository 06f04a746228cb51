#!/bin/bash
# The demo, inside the guest (tests/demo.sh boots it): two namespaces with
# IPv4/IPv6, the module and udpcpctl, then tests/demo.py: messages crossing,
# what udpcpctl sees while they do, and a failure.  Exits non-zero when
# something did not work (CI runs the demo).
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
if [ ! -e "$UDPCP_KO" ]; then
	echo "not built: $UDPCP_KO is missing (make module)"
	exit 1
fi
udpcp_load
echo "loaded $UDPCP_KO"
run modinfo -F description "$UDPCP_KO"
run grep '^udpcp ' /proc/modules

say "udpcpctl"
UDPCPCTL=${UDPCP_CTL:-$REPO/udpcpctl/udpcpctl}
if [ ! -x "$UDPCPCTL" ]; then
	echo "not built: $UDPCPCTL is missing (make progs)"
	exit 1
fi
run "$UDPCPCTL" --version
run "$UDPCPCTL" defaults show

say "messages"
python3 "$REPO/tests/demo.py" "$NS_A" "$NS_B" "$A4" "$B4" "$A6" "$B6" "$UDPCPCTL"
rc=$?
say "demo done"
exit $rc
