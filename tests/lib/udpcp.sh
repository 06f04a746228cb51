# Shared setup of the data-path tests (tests/t/2x-*, 3x-*), sourced after
# common.sh:   . "$(dirname "$0")/../lib/udpcp.sh"
#
# Gives: TOOL (udpcp-tool), PEER (udpcp.py), CRAFT (craft.py), TMP (a
# scratch directory removed on exit);
#   jget JSON JQ-EXPR             one value out of a JSON line
#   json_check WHAT JSON JQ-BOOL  fail WHAT unless the expression holds
#   wait_port NS PORT             until a UDP socket is bound to PORT in NS
#   bg_start NAME CMD...          run CMD in the background, output in
#                                 $TMP/NAME.out (stderr $TMP/NAME.err)
#   bg_wait NAME                  its exit status; fails the test if it is
#                                 still running after 300 s
#   cap_start NS IF FILE          capture IF with dumpcap (pcap format)
#   cap_stop                      stop every capture started
#   cap_udpcp FILE [PORT]         one JSON line per UDPCP packet to/from PORT
#                                 (ts: capture time, as Python's time.time())
#   frag_payload FAMILY           payload per fragment on the 1500-octet veth
#   FAMILIES                      "v4 v6 mapped", and for each fam_* below:
#   fam_dst FAM                   the address A sends to B at
#   fam_src FAM                   the address B sees A at (in JSON: src)
#   fam_bind FAM                  what B's receiver binds
#   fam_recv_opts FAM             extra udpcp-tool recv options
# A family "mapped" is an AF_INET6 socket without V6ONLY on both ends,
# talking IPv4 on the wire through ::ffff:a.b.c.d.
# shellcheck shell=bash

TOOL=$REPO/tests/progs/udpcp-tool
PEER=$REPO/tests/peer/udpcp.py
CRAFT=$REPO/tests/peer/craft.py
[ -x "$TOOL" ] || skip "not built: $TOOL (make progs)"
export TOOL PEER CRAFT

TMP=$(mktemp -d)
on_exit "rm -rf $TMP"

jget() {
	jq -r "$2" <<<"$1"
}
json_check() {
	local what=$1 json=$2 expr=$3
	[ "$(jq -r "$expr" <<<"$json" 2>/dev/null)" = true ] ||
		fail "$what: not ($expr) in $json"
}

_udp_bound() { [ -n "$(ip netns exec "$1" ss -Hulan "sport = :$2" 2>/dev/null)" ]; }
wait_port() {
	wait_until 20 _udp_bound "$1" "$2" || fail "nothing bound to UDP port $2 in $1"
}

declare -A _bg_pid
bg_start() {
	local name=$1
	shift
	"$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	_bg_pid[$name]=$!
	on_exit "kill ${_bg_pid[$name]} 2>/dev/null"
}
bg_wait() {
	local name=$1 pid=${_bg_pid[$1]} i rc
	for ((i = 0; i < 3000; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && fail "$name still running after 300 s"
	rc=0
	wait "$pid" || rc=$?
	return $rc
}
# The last line of a background command's stdout (its JSON summary).
bg_json() {
	tail -n 1 "$TMP/$1.out"
}

_caps=()
cap_start() {
	local ns=$1 dev=$2 file=$3 n d
	# The module sends a large message's fragments as UDP GSO bursts: a
	# capture would see one packet per burst where the wire has one per
	# datagram.  With gso_max_segs 1 every device cuts a burst into its
	# datagrams before the packet taps (validate_xmit).
	for n in $(ip netns list | awk '{ print $1 }'); do
		for d in $(ip -n "$n" -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
			ip -n "$n" link set dev "$d" gso_max_segs 1 2>/dev/null
		done
	done
	ip netns exec "$ns" dumpcap -q -P -i "$dev" -w "$file" >"$file.log" 2>&1 &
	_caps+=($!)
	on_exit "kill $! 2>/dev/null"
	wait_until 20 "grep -q 'Capturing on' '$file.log'" || fail "dumpcap on $dev: $(cat "$file.log")"
}
cap_stop() {
	local p
	sleep 0.3
	for p in "${_caps[@]}"; do
		kill -INT "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	_caps=()
}
# cap_udpcp FILE [PORT]: decodes every UDP datagram (to or from PORT) of a
# pcap as UDPCP with the Python peer's decoder; IP fragments are skipped
# (tests/lib/py/capudpcp.py).
cap_udpcp() {
	py_run "$REPO/tests/lib/py/capudpcp.py" "$@"
}

# shellcheck disable=SC2034  # used by the tests
FAMILIES="v4 v6 mapped"
frag_payload() {
	case $1 in
	v6) echo 1440 ;;
	*) echo 1460 ;;
	esac
}
fam_dst() {
	case $1 in
	v4) echo "$B4" ;;
	v6) echo "$B6" ;;
	mapped) echo "::ffff:$B4" ;;
	esac
}
fam_src() {
	case $1 in
	v4) echo "$A4" ;;
	v6) echo "$A6" ;;
	mapped) echo "::ffff:$A4" ;;
	esac
}
fam_bind() {
	case $1 in
	v4) echo 0.0.0.0 ;;
	*) echo :: ;;
	esac
}
fam_recv_opts() {
	case $1 in
	v6) echo "--v6only 1" ;;
	mapped) echo "--v6only 0" ;;
	esac
}

# static_neigh: permanent ARP/ND entries between NS_A and NS_B, so that a
# lossy link (netem) or a link that was down does not first have to resolve
# the neighbour (which retries once a second, longer than a UDPCP message
# lives with short timeouts).
static_neigh() {
	local mac_a mac_b
	mac_a=$(ip -n "$NS_A" -j link show dev "$IF_A" | jq -r '.[0].address')
	mac_b=$(ip -n "$NS_B" -j link show dev "$IF_B" | jq -r '.[0].address')
	ip -n "$NS_A" neigh replace "$B4" lladdr "$mac_b" dev "$IF_A" nud permanent
	ip -n "$NS_A" neigh replace "$B6" lladdr "$mac_b" dev "$IF_A" nud permanent
	ip -n "$NS_B" neigh replace "$A4" lladdr "$mac_a" dev "$IF_B" nud permanent
	ip -n "$NS_B" neigh replace "$A6" lladdr "$mac_a" dev "$IF_B" nud permanent
}
