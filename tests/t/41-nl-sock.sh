#!/bin/bash
# sock show through the real module: the namespace's bound sockets (not
# unbound ones, not another namespace's), each with family, local address
# and port, peer count, owner uid, inode (that of the owning process's fd)
# and cookie, and its parameters; -s adds the counters; -j is valid JSON
# with exactly the documented keys; local / local-port select as the
# kernel does (a wildcard socket matches any address, an IPv4-mapped one
# its IPv4 address); a closed socket goes; a socket is found by its cookie.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
A=$NS_A
P="    mode ack checksum on tx-timeout 100 rx-timeout 1000 max-try 5 outstanding-acks 8"
Z="    tx: msgs 0 bytes 0 timeout 0 retries 0 pmtu-restarts 0 icmp-errors 0
    rx: msgs 0 bytes 0 timeout 0 discarded-frags 0 duplicates 0 malformed 0 dropped 0 refused 0 crc-errors 0"

echo "# no sockets"
check "sock show, none" 0 "" "" uctl "$A" sock show
check "-j sock show, none" 0 "[]" "" uctl "$A" -j sock show

# A socket that is not bound is not listed (python holds one meanwhile).
check "unbound socket not listed" 0 "[]" "" nl_py "$A" <<'PY'
import socket, subprocess, os
s4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 258)
s6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM, 258)
print(subprocess.run([os.environ["U"], "-j", "sock", "show"], capture_output=True,
                     text=True).stdout.strip())
PY

echo "# bound sockets of both families"
declare -A INO PID
hold() { # ADDR PORT [OPTS]: remember the holder's pid and its socket's inode
	local port=$2
	hold_sock "$A" "$@"
	PID[$port]=$HELD_PID
	INO[$port]=$(readlink "/proc/$HELD_PID/fd/3" | tr -dc 0-9)
	[ -n "${INO[$port]}" ] || fail "no socket fd 3 in the holder of $port"
}
hold 0.0.0.0 5000
hold "$A4" 5001
hold "$A6" 6000
hold :: 6001 --v6only 0
hold :: 6002 --v6only 1
# Owned by uid 1000.
ip netns exec "$A" setpriv --reuid=1000 --regid=1000 --clear-groups \
	"$TOOL" recv -b "$A4" 5003 -t 600000 >/dev/null 2>&1 &
disown $!
wait_until 30 _sock_listed "$A" 5003 || fail "uid 1000 socket not listed"
PID[5003]=$(pgrep -f "recv -b $A4 5003")
INO[5003]=$(readlink "/proc/${PID[5003]}/fd/3" | tr -dc 0-9)

cookies=$(uctl "$A" -j sock show | jq -c '[.[].cookie]')
check_eq "cookies are distinct and increasing" "$cookies" "$(jq -c 'unique' <<<"$cookies")"
mapfile -t C <<<"$(jq -r ".[]" <<<"$cookies")"
check_eq "six sockets" 6 "${#C[@]}"

Q="    rx-queue 0 bytes 0 tx-queue 0 bytes 0 partial-mem 0"
line() { # FAMILY ENDPOINT PEERS UID PORT INDEX
	printf 'sock %s %s peers %s uid %s inode %s cookie %s\n%s\n%s' \
		"$1" "$2" "$3" "$4" "${INO[$5]}" "${C[$6]}" "$P" "$Q"
}
users() { # PORT: the process holding it, as ss -p shows it
	printf 'users (("%s",pid=%s,fd=3))' "$(cat "/proc/${PID[$1]}/comm")" "${PID[$1]}"
}
S0=$(line inet 0.0.0.0:5000 0 0 5000 0)
S1=$(line inet "$A4:5001" 0 0 5001 1)
S2=$(line inet6 "[$A6]:6000" 0 0 6000 2)
S3=$(line inet6 "[::]:6001" 0 0 6001 3)
S4=$(line inet6 "[::]:6002" 0 0 6002 4)
S5=$(line inet "$A4:5003" 0 1000 5003 5)
check "sock show" 0 "$S0
$S1
$S2
$S3
$S4
$S5" "" uctl "$A" sock show
check "sock (no command)" 0 "$(uctl "$A" sock show)" "" uctl "$A" sock
check "-s sock show local-port 5001" 0 "$S1
$Z" "" uctl "$A" -s sock show local-port 5001
# -u: the holder, as in ss -p; looked up only when asked (it walks /proc).
check "-u sock show local-port 5001" 0 "$(sed "1s/\$/ $(users 5001)/" <<<"$S1")" "" \
	uctl "$A" -u sock show local-port 5001

echo "# JSON"
check "-j is JSON (json.tool)" 0 "" "" bash -c "\"\$U\" -n \"$A\" -j sock show | \"\$PY\" -m json.tool >/dev/null"
check "-j -p -s is JSON" 0 "" "" bash -c "\"\$U\" -n \"$A\" -j -p -s sock show | \"\$PY\" -m json.tool >/dev/null"
keys='[.[] | keys_unsorted] | unique | .[]'
Q_KEYS='"rx_queue_msgs","rx_queue_bytes","tx_queue_msgs","tx_queue_bytes","rx_partial_mem"'
check "-j keys" 0 '["family","local_address","local_port","peer_count","uid","inode","cookie","mode","checksum","tx_timeout_ms","rx_timeout_ms","max_try","outstanding_acks",'"$Q_KEYS]" "" \
	bash -c "\"\$U\" -n \"$A\" -j sock show | jq -c '$keys'"
check "-j -s keys" 0 '["family","local_address","local_port","peer_count","uid","inode","cookie","mode","checksum","tx_timeout_ms","rx_timeout_ms","max_try","outstanding_acks",'"$Q_KEYS"',"stats"]' "" \
	bash -c "\"\$U\" -n \"$A\" -j -s sock show | jq -c '$keys'"
check "-j -s stats keys and values" 0 '{"tx_msgs":0,"tx_bytes":0,"tx_timeout":0,"tx_retries":0,"pmtu_restarts":0,"icmp_errors":0,"rx_msgs":0,"rx_bytes":0,"rx_timeout":0,"rx_discarded_frags":0,"rx_duplicates":0,"rx_malformed":0,"rx_dropped":0,"rx_refused":0,"crc_errors":0}' "" \
	bash -c "\"\$U\" -n \"$A\" -j -s sock show | jq -c '[.[].stats] | unique | .[]'"
check "-j values" 0 "[\"inet\",\"0.0.0.0\",5000,0,0,${INO[5000]},${C[0]}]
[\"inet\",\"$A4\",5001,0,0,${INO[5001]},${C[1]}]
[\"inet6\",\"$A6\",6000,0,0,${INO[6000]},${C[2]}]
[\"inet6\",\"::\",6001,0,0,${INO[6001]},${C[3]}]
[\"inet6\",\"::\",6002,0,0,${INO[6002]},${C[4]}]
[\"inet\",\"$A4\",5003,0,1000,${INO[5003]},${C[5]}]" "" \
	bash -c "\"\$U\" -n \"$A\" -j sock show | jq -c '.[] | [.family, .local_address, .local_port, .peer_count, .uid, .inode, .cookie]'"

echo "# selection, as the kernel selects"
check "local-port 5000" 0 "$S0" "" uctl "$A" sock show local-port 5000
check "local A4:5001" 0 "$S1" "" uctl "$A" sock show local "$A4:5001"
check "local B4:5001 (no such socket)" 0 "" "" uctl "$A" sock show local "$B4:5001"
check "local 10.9.9.9:5000 (wildcard)" 0 "$S0" "" uctl "$A" sock show local 10.9.9.9:5000
check "local [A6]:6000" 0 "$S2" "" uctl "$A" sock show local "[$A6]:6000"
check "local [A6]:6001 (wildcard)" 0 "$S3" "" uctl "$A" sock show local "[$A6]:6001"
check "local-port 7000 (none)" 0 "" "" uctl "$A" sock show local-port 7000
check "-j local-port 7000 (none)" 0 "[]" "" uctl "$A" -j sock show local-port 7000

check "-j -u users" 0 "[{\"comm\":\"$(cat "/proc/${PID[5003]}/comm")\",\"pid\":${PID[5003]},\"fd\":3}]" "" \
	bash -c "\"\$U\" -n \"$A\" -j -u sock show local-port 5003 | jq -c '.[0].users'"

echo "# queue depths: three messages unread, two waiting for an ack"
check "queues" 0 "rx-queue 3 bytes 600 tx-queue 0 bytes 0 partial-mem 0
rx-queue 0 bytes 0 tx-queue 2 bytes 3100 partial-mem 0
rx-queue 0 bytes 0 tx-queue 0 bytes 0 partial-mem 0" "" nl_pyfile "$A" 41-nl-sock-queues.py

echo "# peer count follows peers"
check "add peer 1" 0 "" "" uctl "$A" peer add "$B4" port 1 local-port 5000
check "add peer 2" 0 "" "" uctl "$A" peer add "$B6" port 2 local "[::]:6001"
check "add peer 3" 0 "" "" uctl "$A" peer add "$B4" port 3 local-port 6001
check "add template" 0 "" "" uctl "$A" peer add "$B4" port 4
check "peer counts" 0 "[1,0,0,2,0,0]" "" bash -c "\"\$U\" -n \"$A\" -j sock show | jq -c '[.[].peer_count]'"
check "del peer 3" 0 "" "" uctl "$A" peer del "$B4" port 3 local-port 6001
check "peer counts after del" 0 "[1,0,0,1,0,0]" "" bash -c "\"\$U\" -n \"$A\" -j sock show | jq -c '[.[].peer_count]'"

echo "# a socket named by its cookie (raw netlink)"
check "peer by cookie" 0 "ok
ENOENT: no UDPCP socket is bound there at .peer.sock
ENOENT: no UDPCP socket is bound there at .peer.sock
EINVAL: a socket is named by its local port or cookie at .peer.sock" "" \
	nl_pyfile "$A" 41-nl-sock-cookie.py "${C[1]}" "${C[0]}"
check "peer added by cookie" 0 "peer $B4 port 9 local $A4:5001" "" \
	bash -c "\"\$U\" -n \"$A\" peer show port 9 | head -n1 | sed -E 's/ state .*//'"

echo "# a closed socket goes; other namespaces see none"
kill "${PID[5001]}"
wait_until 10 '! _sock_listed "$A" 5001' || true
check "after close" 0 "[5000,6000,6001,6002,5003]" "" \
	bash -c "\"\$U\" -n \"$A\" -j sock show | jq -c '[.[].local_port]'"
check "namespace B" 0 "[]" "" uctl "$NS_B" -j sock show

echo "# a socket bound to an IPv4-mapped address is selected by the IPv4 one"
hold_sock "$A" "::ffff:$A4" 5004 --v6only 0
M=$(uctl "$A" sock show local-port 5004)
check_eq "listed as inet6" "sock inet6 [::ffff:$A4]:5004" "$(head -n1 <<<"$M" | sed -E 's/ peers .*//')"
check "local A4:5004" 0 "$M" "" uctl "$A" sock show local "$A4:5004"
check "local [::ffff:A4]:5004" 0 "$M" "" uctl "$A" sock show local "[::ffff:$A4]:5004"
check "local B4:5004" 0 "" "" uctl "$A" sock show local "$B4:5004"
check "the kernel selects it alike" 0 "" "" uctl "$A" peer add "$B4" port 9 local "$A4:5004"
check "its peer" 0 "peer $B4 port 9 local [::ffff:$A4]:5004" "" \
	bash -c "\"\$U\" -n \"$A\" peer show local $A4:5004 | head -n1 | sed -E 's/ state .*//'"
nl_done
