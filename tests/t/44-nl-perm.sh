#!/bin/bash
# Who may change what (GENL_UNS_ADMIN_PERM: CAP_NET_ADMIN in the user
# namespace that owns the network namespace): an unprivileged user is
# refused every change with EPERM (exit 2) and changes nothing, but reads
# everything as root does; CAP_NET_ADMIN alone, without root, suffices.
# Root of a user namespace is refused in a network namespace it does not
# own (and sees foreign uids as the overflow uid), but administers one it
# created, without touching the others.
# timeout: 170
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
export A=$NS_A
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
as_nobody() { ip netns exec "$A" "${NOBODY[@]}" "$U" "$@"; }
in_userns() { ip netns exec "$A" "$UNCHROOT" unshare -U -r "$U" "$@"; }

hold_sock "$A" 0.0.0.0 5000
ip netns exec "$A" setpriv --reuid=1000 --regid=1000 --clear-groups \
	"$TOOL" recv -b "$A4" 5001 -t 600000 >/dev/null 2>&1 &
disown $!
wait_until 30 _sock_listed "$A" 5001 || fail "uid 1000 socket not listed"
check "setup: peer" 0 "" "" uctl "$A" peer add "$B4" port 7000 local-port 5000
check "setup: template" 0 "" "" uctl "$A" peer add "$B4" port 8000 max-try 2
check "setup: group" 0 "" "" uctl "$A" group join 239.1.1.1 local 5000
# Some counters to keep: a message to nobody fails.
ip netns exec "$A" "$TOOL" send -d "$B4" 5999 --max-try 1 --tx-timeout 20 >/dev/null && rc=0 || rc=$?
check_eq "setup: a failed message" 3 "$rc"

# Everything readable, idle times masked; so are the sockets' users, which
# udpcpctl finds in /proc as ss -p does: nobody may not look into root's
# processes (checked below).
state() {
	local what
	for what in "defaults" "-s sock" "-s peer" "stats" "group" "-j defaults" \
		"-j -s sock" "-j -s peer" "-j stats" "-j group"; do
		# shellcheck disable=SC2086
		"$@" $what show | sed -E 's/(idle |"idle_ms":)[0-9]+/\1N/
			s/ users \(\(.*\)\)$//; s/"users":\[[^]]*\],//g'
	done
}
before=$(state uctl "$A")
[[ $before == *"timeout 1"* && $before == *"max-try 2"* ]] || fail "setup state: $before"

# Every change, each refused with EPERM: one shell runs them all (a start
# of unchroot costs a second under TCG), printing status and stderr.
CHANGES='
for c in "defaults set max-try 3" "peer add 192.0.2.2 port 7001 local-port 5000" \
	"peer add 192.0.2.2 port 8001" "peer change 192.0.2.2 port 7000 local-port 5000 max-try 1" \
	"peer change 192.0.2.2 port 8000 max-try 1" "peer del 192.0.2.2 port 7000 local-port 5000" \
	"peer del 192.0.2.2 port 8000" "stats reset" "group join 239.1.1.2 local 5000" \
	"group leave 239.1.1.1 local 5000"; do
	err=$("$U" $c 2>&1 >/dev/null)
	echo "$c: $? $err"
done'
REFUSED="defaults set max-try 3: 2 Error: Operation not permitted
peer add 192.0.2.2 port 7001 local-port 5000: 2 Error: Operation not permitted
peer add 192.0.2.2 port 8001: 2 Error: Operation not permitted
peer change 192.0.2.2 port 7000 local-port 5000 max-try 1: 2 Error: Operation not permitted
peer change 192.0.2.2 port 8000 max-try 1: 2 Error: Operation not permitted
peer del 192.0.2.2 port 7000 local-port 5000: 2 Error: Operation not permitted
peer del 192.0.2.2 port 8000: 2 Error: Operation not permitted
stats reset: 2 Error: Operation not permitted
group join 239.1.1.2 local 5000: 2 Error: Operation not permitted
group leave 239.1.1.1 local 5000: 2 Error: Operation not permitted"
refused() { # NAME RUNNER...: RUNNER sh -c SCRIPT runs SCRIPT as that user
	local name=$1
	shift
	check "$name: every change refused" 0 "$REFUSED" "" "$@" sh -c "$CHANGES"
	check "$name: nothing changed" 0 "$before" "" state uctl "$A"
}

echo "# nobody: no changes, every read"
refused nobody ip netns exec "$A" "${NOBODY[@]}"
check "nobody reads what root reads" 0 "$before" "" state as_nobody
users_seen() { "$@" -u -j sock show | jq '[.[].users] | map(select(.)) | length'; }
check "root sees both sockets' users" 0 2 "" users_seen uctl "$A"
check "nobody sees neither" 0 0 "" users_seen as_nobody
# A refused request is refused before it is parsed: even a malformed one.
check "nobody, malformed request" 0 "EPERM" "" \
	ip netns exec "$A" "${NOBODY[@]}" env PYTHONPATH="$TESTS_PYPATH" "$PY" -c '
from nlraw import *
print(Genl().request(CMD_PEER_NEW, u32(A_PEER, 1)))'
check "nobody cannot enter a namespace by name" 2 "" \
	"udpcpctl: cannot enter network namespace \"$A\": Operation not permitted" \
	"${NOBODY[@]}" "$U" -n "$A" defaults show
# Events: joinable by anyone before 6.7, CAP_NET_ADMIN since (the family
# asks for GENL_MCAST_CAP_NET_ADMIN where the kernel has it).
ip netns exec "$A" "${NOBODY[@]}" "$U" monitor >"$NL_TMP/mon" 2>&1 &
MON_PID=$!
wait_until 30 _mon_listens_or_gone || true
uctl "$A" peer add "$B4" port 7002 local-port 5000
uctl "$A" peer del "$B4" port 7002 local-port 5000
sleep 0.5
kill "$MON_PID" 2>/dev/null || true
wait "$MON_PID" 2>/dev/null || true
# The headers the module was built against (Debian keeps them in -common).
kr=$(uname -r)
kh=$(ls "/lib/modules/$kr/build/include/net/genetlink.h" \
	"/usr/src/linux-headers-${kr%-*}-common/include/net/genetlink.h" 2>/dev/null | head -n1) || true
if [ -z "$kh" ]; then
	echo "# (no kernel headers: nobody's monitor not checked)"
elif grep -q GENL_MCAST_CAP_NET_ADMIN "$kh"; then
	check_eq "nobody's monitor (GENL_MCAST_CAP_NET_ADMIN)" \
		"Error: cannot join the events group: Operation not permitted" "$(cat "$NL_TMP/mon")"
else
	check_eq "nobody's monitor (no GENL_MCAST_CAP_NET_ADMIN)" "peer-created $B4 port 7002 local 0.0.0.0:5000 state idle flags configured,need-sync
peer-removed $B4 port 7002 local 0.0.0.0:5000 state idle flags configured,need-sync" "$(cat "$NL_TMP/mon")"
fi

echo "# CAP_NET_ADMIN without root"
NETADMIN=(setpriv --reuid=1000 --regid=1000 --clear-groups --inh-caps=+net_admin --ambient-caps=+net_admin)
check "uid 1000 + CAP_NET_ADMIN: template add" 0 "" "" \
	ip netns exec "$A" "${NETADMIN[@]}" "$U" peer add "$B4" port 8009
check "uid 1000 + CAP_NET_ADMIN: template del" 0 "" "" \
	ip netns exec "$A" "${NETADMIN[@]}" "$U" peer del "$B4" port 8009
check "uid 1000 without it" 2 "" "Error: Operation not permitted" \
	ip netns exec "$A" setpriv --reuid=1000 --regid=1000 --clear-groups "$U" peer add "$B4" port 8009

echo "# root of a user namespace, in a network namespace it does not own"
refused "userns root" ip netns exec "$A" "$UNCHROOT" unshare -U -r
# Only uid 0 is mapped there: the socket of uid 1000 shows the overflow uid.
check "userns: sock uids" 0 "[0,65534]" "" bash -c "ip netns exec \"$A\" \"$UNCHROOT\" unshare -U -r \"\$U\" -j sock show | jq -c '[.[].uid]'"
check "root: sock uids" 0 "[0,1000]" "" bash -c "\"\$U\" -n \"$A\" -j sock show | jq -c '[.[].uid]'"
check "userns reads the defaults" 0 "$(uctl "$A" defaults show)" "" in_userns defaults show

echo "# root of a user namespace, in a network namespace it owns"
own() { # COMMAND...: in a new user namespace owning a new network namespace
	ip netns exec "$A" "$UNCHROOT" "$@" unshare -U -r -n sh -c '
		"$U" defaults set max-try 3 &&
		"$U" peer add 192.0.2.2 port 8000 mode noack &&
		"$U" peer show &&
		"$U" stats reset &&
		"$U" defaults show'
}
OWN="peer 192.0.2.2 port 8000 state configured flags configured
    mode noack checksum on tx-timeout 100 rx-timeout 1000 max-try 3 outstanding-acks 8
mode ack checksum on tx-timeout 100 rx-timeout 1000 max-try 3 outstanding-acks 8 max-peers 1024 peer-expiry 300000"
check "root's userns administers its netns" 0 "$OWN" "" own
if [ "$(sysctl -n kernel.unprivileged_userns_clone 2>/dev/null || echo 1)" = 1 ]; then
	check "nobody's userns administers its netns" 0 "$OWN" "" own "${NOBODY[@]}"
else
	echo "# (unprivileged user namespaces are disabled: nobody's own netns not tried)"
fi
check "and nothing here changed" 0 "$before" "" state uctl "$A"
nl_done
