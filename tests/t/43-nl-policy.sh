#!/bin/bash
# What neither udpcpctl nor ynl would send, sent by hand (raw generic
# netlink in python): missing required attributes, wrong lengths and types,
# unknown and foreign attributes, nests without NLA_F_NESTED or with garbage
# in them, an operation in the wrong mode.  Each is refused with its errno
# and extack text, at the attribute the kernel points to; none changes
# anything.  ynl's own CLI is refused the same way for a missing address.
# timeout: 150
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
A=$NS_A
hold_sock "$A" 0.0.0.0 5000
hold_sock "$A" "$A4" 5001
hold_sock "$A" 127.0.0.1 5001
hold_sock "$A" :: 6000 --v6only 1
check "one peer before" 0 "" "" uctl "$A" peer add "$B4" port 9 local-port 5000 max-try 2
before=$(uctl "$A" -j peer show | jq -c 'map(del(.idle_ms))')
before_def=$(uctl "$A" defaults show)

check "malformed requests" 0 "\
peer-new without peer: EINVAL missing type 3
peer-new, empty peer: EINVAL: missing remote address (remote-ipv4 or remote-ipv6) at .peer
peer-new, no port: EINVAL: missing remote port at .peer
peer-del, no port: EINVAL: missing remote port at .peer
peer-new, port 0: ERANGE: integer out of range at .peer.remote-port (range 1-65535)
peer-new, both addresses: EINVAL: give an IPv4 or an IPv6 address, not both at .peer.remote-ipv6
peer-new, ipv4 of 5 bytes: ERANGE: binary attribute size out of range at .peer.remote-ipv4 (length 4-4)
peer-new, ipv4 of 3 bytes: ERANGE: binary attribute size out of range at .peer.remote-ipv4 (length 4-4)
peer-new, ipv6 of 4 bytes: ERANGE: binary attribute size out of range at .peer.remote-ipv6 (length 16-16)
peer-new, port as u32: EINVAL: invalid attribute length at .peer.remote-port (range 1-65535)
peer-new, port as u8: EINVAL: invalid attribute length at .peer.remote-port (range 1-65535)
peer-new, tx-timeout as u8: EINVAL: invalid attribute length at .peer.params.tx-timeout (range 1-60000)
peer-new, outstanding-acks 256 as u16: EINVAL: invalid attribute length at .peer.params.outstanding-acks (range 1-255)
defaults-set, max-peers as u16: EINVAL: invalid attribute length at .defaults.max-peers (range 1-1000000)
peer-new, unknown attribute in peer: EINVAL: Unknown attribute type at .peer.type-40
peer-new, unknown top-level attribute: EINVAL: Unknown attribute type at .type-9
peer-new, a reply-only attribute (state): EINVAL: Unsupported attribute at .peer.state
peer-new, another op's object (defaults): EINVAL: Unsupported attribute at .defaults
stats-reset, another op's object (defaults): EINVAL: Unsupported attribute at .defaults
peer-new, peer without NLA_F_NESTED: EINVAL: NLA_F_NESTED is missing at .peer
peer-new, peer as u32: EINVAL: NLA_F_NESTED is missing at .peer
peer-new, params without NLA_F_NESTED: EINVAL: NLA_F_NESTED is missing at .peer.params
peer-new, sock without NLA_F_NESTED: EINVAL: NLA_F_NESTED is missing at .peer.sock
peer-new, 3 bytes of garbage in peer: ERANGE: Attribute failed policy validation at .peer
peer-new, truncated attribute in peer: EINVAL: bytes leftover after parsing attributes
peer-new, attribute overrunning the message: EINVAL: bytes leftover after parsing attributes
peer-new, empty sock: EINVAL: a socket is named by its local port or cookie at .peer.sock
peer-new, sock with port 0: ERANGE: integer out of range at .peer.sock.local-port (range 1-65535)
peer-new, sock with local ipv4 of 16 bytes: ERANGE: binary attribute size out of range at .peer.sock.local-ipv4 (length 4-4)
peer-new, two sockets match: EINVAL: more than one socket matches: give the local address at .peer.sock
peer-new, no such cookie: ENOENT: no UDPCP socket is bound there at .peer.sock
peer-new, IPv6 peer on IPv4 socket: EAFNOSUPPORT: an IPv4 socket cannot reach an IPv6 peer
peer-new, IPv4 peer on IPv6-only socket: EAFNOSUPPORT: an IPv6-only socket cannot reach an IPv4 peer
peer-new, mode 3: ERANGE: integer out of range at .peer.params.transfer-mode (range 0-2)
peer-new, max-tries 0: ERANGE: integer out of range at .peer.params.max-tries (range 1-10)
peer-set, rx-timeout 60001: ERANGE: integer out of range at .peer.params.rx-timeout (range 1-60000)
peer-set, template, checksum 2: ERANGE: integer out of range at .peer.params.checksum (range 0-1)
defaults-set without defaults: EINVAL missing type 1
defaults-set, max-peers 0: ERANGE: integer out of range at .defaults.max-peers (range 1-1000000)
defaults-set, params of garbage: EINVAL: bytes leftover after parsing attributes
group-join without group: EINVAL missing type 5
group-join, no address: EINVAL: missing group address (ipv4 or ipv6) at .group
group-join, unicast address: EINVAL: not a multicast address at .group.ipv4
group-join, IPv6 unicast address: EINVAL: not a multicast address at .group.ipv6
group-join, no socket: EINVAL: missing socket (local port) at .group
group-join, IPv6 group on IPv4 socket: EAFNOSUPPORT: an IPv4 socket cannot join an IPv6 group
group-join, IPv4 group on IPv6-only socket: EAFNOSUPPORT: an IPv6-only socket cannot join an IPv4 group
group-join, ifindex 0: ERANGE: integer out of range at .group.ifindex (range 1-4294967295)
group-join, no such ifindex: ENODEV: no such interface
group-leave, not a member: EADDRNOTAVAIL: the socket is not a member of that group
group-leave, IPv6, not a member: EADDRNOTAVAIL: the socket is not a member of that group
peer-get, no such peer: ENOENT: no such peer
peer-get, no such template: ENOENT: no such peer
peer-new as a dump: EOPNOTSUPP
sock-get as a do: EOPNOTSUPP
command 40: EOPNOTSUPP
an event's command (peer-created): EOPNOTSUPP
header shorter than genlmsghdr: EINVAL" "" nl_py "$A" <<'PY'
import struct
from nlraw import *
s = Genl()
B4, B6 = "192.0.2.2", "2001:db8::2"
def rq(name, cmd, *a, **kw):
    print(f"{name}: {s.request(cmd, *a, **kw)}")
def pn(name, *inner, cmd=CMD_PEER_NEW):
    rq(name, cmd, nest(A_PEER, *inner))
R4, P9 = ipv4(PEER_REMOTE_IPV4, B4), u16(PEER_REMOTE_PORT, 9)
S5000 = nest(PEER_SOCK, u16(SOCK_LOCAL_PORT, 5000))
rq("peer-new without peer", CMD_PEER_NEW)
pn("peer-new, empty peer")
pn("peer-new, no port", R4)
pn("peer-del, no port", R4, S5000, cmd=CMD_PEER_DEL)
pn("peer-new, port 0", R4, u16(PEER_REMOTE_PORT, 0))
pn("peer-new, both addresses", R4, ipv6(PEER_REMOTE_IPV6, B6), P9)
pn("peer-new, ipv4 of 5 bytes", attr(PEER_REMOTE_IPV4, b"\xc0\0\2\2\0"), P9)
pn("peer-new, ipv4 of 3 bytes", attr(PEER_REMOTE_IPV4, b"\xc0\0\2"), P9)
pn("peer-new, ipv6 of 4 bytes", attr(PEER_REMOTE_IPV6, b"\xc0\0\2\2"), P9)
pn("peer-new, port as u32", R4, u32(PEER_REMOTE_PORT, 9))
pn("peer-new, port as u8", R4, u8(PEER_REMOTE_PORT, 9))
pn("peer-new, tx-timeout as u8", R4, P9, S5000, nest(PEER_PARAMS, u8(PARAMS_TX_TIMEOUT, 50)))
pn("peer-new, outstanding-acks 256 as u16", R4, P9, S5000,
   nest(PEER_PARAMS, u16(PARAMS_OUTSTANDING_ACKS, 256)))
rq("defaults-set, max-peers as u16", CMD_DEFAULTS_SET, nest(A_DEFAULTS, u16(DEFAULTS_MAX_PEERS, 7)))
pn("peer-new, unknown attribute in peer", R4, P9, u32(40, 1))
rq("peer-new, unknown top-level attribute", CMD_PEER_NEW, nest(A_PEER, R4, P9), u32(9, 1))
pn("peer-new, a reply-only attribute (state)", R4, P9, u8(PEER_STATE, 1))
rq("peer-new, another op's object (defaults)", CMD_PEER_NEW, nest(A_PEER, R4, P9), nest(A_DEFAULTS))
rq("stats-reset, another op's object (defaults)", CMD_STATS_RESET, nest(A_DEFAULTS))
rq("peer-new, peer without NLA_F_NESTED", CMD_PEER_NEW, nest(A_PEER, R4, P9, flag=False))
rq("peer-new, peer as u32", CMD_PEER_NEW, u32(A_PEER, 7))
pn("peer-new, params without NLA_F_NESTED", R4, P9, S5000,
   nest(PEER_PARAMS, u8(PARAMS_MAX_TRIES, 2), flag=False))
pn("peer-new, sock without NLA_F_NESTED", R4, P9, nest(PEER_SOCK, u16(SOCK_LOCAL_PORT, 5000), flag=False))
rq("peer-new, 3 bytes of garbage in peer", CMD_PEER_NEW, attr(A_PEER, b"\x01\x02\x03", NLA_F_NESTED))
rq("peer-new, truncated attribute in peer", CMD_PEER_NEW,
   attr(A_PEER, struct.pack("HH", 12, PEER_REMOTE_IPV4) + b"\xc0\0", NLA_F_NESTED))
# The peer nest claims 200 bytes; the message ends after 12.
rq("peer-new, attribute overrunning the message", CMD_PEER_NEW,
   raw=struct.pack("HH", 200, A_PEER | NLA_F_NESTED) + R4)
pn("peer-new, empty sock", R4, P9, nest(PEER_SOCK))
pn("peer-new, sock with port 0", R4, P9, nest(PEER_SOCK, u16(SOCK_LOCAL_PORT, 0)))
pn("peer-new, sock with local ipv4 of 16 bytes", R4, P9,
   nest(PEER_SOCK, attr(SOCK_LOCAL_IPV4, bytes(16)), u16(SOCK_LOCAL_PORT, 5000)))
pn("peer-new, two sockets match", R4, P9, nest(PEER_SOCK, u16(SOCK_LOCAL_PORT, 5001)))
pn("peer-new, no such cookie", R4, P9, nest(PEER_SOCK, u64(SOCK_COOKIE, 1 << 40)))
pn("peer-new, IPv6 peer on IPv4 socket", ipv6(PEER_REMOTE_IPV6, B6), P9, S5000)
pn("peer-new, IPv4 peer on IPv6-only socket", R4, P9, nest(PEER_SOCK, u16(SOCK_LOCAL_PORT, 6000)))
pn("peer-new, mode 3", R4, u16(PEER_REMOTE_PORT, 10), S5000, nest(PEER_PARAMS, u8(PARAMS_TRANSFER_MODE, 3)))
pn("peer-new, max-tries 0", R4, u16(PEER_REMOTE_PORT, 10), S5000, nest(PEER_PARAMS, u8(PARAMS_MAX_TRIES, 0)))
pn("peer-set, rx-timeout 60001", R4, P9, S5000, nest(PEER_PARAMS, u32(PARAMS_RX_TIMEOUT, 60001)), cmd=CMD_PEER_SET)
pn("peer-set, template, checksum 2", R4, P9, nest(PEER_PARAMS, u8(PARAMS_CHECKSUM, 2)), cmd=CMD_PEER_SET)
rq("defaults-set without defaults", CMD_DEFAULTS_SET)
rq("defaults-set, max-peers 0", CMD_DEFAULTS_SET, nest(A_DEFAULTS, u32(DEFAULTS_MAX_PEERS, 0)))
rq("defaults-set, params of garbage", CMD_DEFAULTS_SET,
   nest(A_DEFAULTS, attr(DEFAULTS_PARAMS, b"\xff\xff\xff\xff\xff", NLA_F_NESTED)))
G5000, G6000 = sock_sel(GROUP_SOCK, 5000), sock_sel(GROUP_SOCK, 6000)
def gj(name, *inner, cmd=CMD_GROUP_JOIN):
    rq(name, cmd, nest(A_GROUP, *inner))
rq("group-join without group", CMD_GROUP_JOIN)
gj("group-join, no address", G5000)
gj("group-join, unicast address", G5000, ipv4(GROUP_IPV4, "192.0.2.9"))
gj("group-join, IPv6 unicast address", G6000, ipv6(GROUP_IPV6, B6))
gj("group-join, no socket", ipv4(GROUP_IPV4, "239.1.1.1"))
gj("group-join, IPv6 group on IPv4 socket", G5000, ipv6(GROUP_IPV6, "ff02::1:3"))
gj("group-join, IPv4 group on IPv6-only socket", G6000, ipv4(GROUP_IPV4, "239.1.1.1"))
gj("group-join, ifindex 0", G5000, ipv4(GROUP_IPV4, "239.1.1.1"), u32(GROUP_IFINDEX, 0))
gj("group-join, no such ifindex", G5000, ipv4(GROUP_IPV4, "239.1.1.1"), u32(GROUP_IFINDEX, 99))
gj("group-leave, not a member", G5000, ipv4(GROUP_IPV4, "239.1.1.1"), cmd=CMD_GROUP_LEAVE)
gj("group-leave, IPv6, not a member", G6000, ipv6(GROUP_IPV6, "ff02::1:3"), cmd=CMD_GROUP_LEAVE)
pn("peer-get, no such peer", R4, u16(PEER_REMOTE_PORT, 7), S5000, cmd=CMD_PEER_GET)
pn("peer-get, no such template", R4, u16(PEER_REMOTE_PORT, 7), cmd=CMD_PEER_GET)
rq("peer-new as a dump", CMD_PEER_NEW, nest(A_PEER, R4, P9),
   flags=NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP)
rq("sock-get as a do", CMD_SOCK_GET)
rq("command 40", 40)
rq("an event's command (peer-created)", 13)
# An nlmsghdr followed by 2 bytes instead of the 4 of a genlmsghdr.
s.seq += 1
m = struct.pack("IHHII", 18, s.family, NLM_F_REQUEST | NLM_F_ACK, s.seq, 0) + b"\1\1"
s.s.send(m)
for t, fl, p in s._replies(s.seq):
    print(f"header shorter than genlmsghdr: {s._result(fl, p, m)}")
PY

echo "# nothing changed"
check "peers unchanged" 0 "$before" "" bash -c "\"\$U\" -n \"$A\" -j peer show | jq -c 'map(del(.idle_ms))'"
check "defaults unchanged" 0 "$before_def" "" uctl "$A" defaults show
check "no group joined" 0 "[]" "" uctl "$A" -j group show

echo "# udpcpctl prints the kernel's text; ynl's CLI its extack"
check "udpcpctl: ambiguous socket" 2 "" "Error: more than one socket matches: give the local address" \
	uctl "$A" peer del "$B4" port 9 local-port 5001
out=$(ynl_ns "$A" --do peer-new --json '{"peer": {"remote-port": 5, "sock": {"local-port": 5000}}}' 2>&1) && rc=0 || rc=$?
check_eq "ynl cli, no address: exit" 1 "$rc"
check_eq "ynl cli, no address: error" "Netlink error: Invalid argument" "$(head -n1 <<<"$out")"
check_eq "ynl cli, no address: extack" \
	"extack: {'msg': 'missing remote address (remote-ipv4 or remote-ipv6)', 'bad-attr': '.peer'}" \
	"$(grep -o "extack: .*" <<<"$out")"
nl_done
