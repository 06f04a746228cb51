# SPDX-License-Identifier: GPL-2.0
"""Raw generic netlink for the udpcp family: what udpcpctl and ynl cannot
send (wrong lengths and types, garbage in nests) and speed (batches).

    s = Genl()                         # resolves "udpcp" in this namespace
    r = s.request(CMD_PEER_NEW, nest(A_PEER, ipv4(PEER_REMOTE_IPV4, "192.0.2.2"),
                                     u16(PEER_REMOTE_PORT, 5000)))
    print(r)        # "ok", or "EINVAL: text at .peer.remote-port", ...
    s.batch(CMD_PEER_NEW, [attrs, ...])    # many requests, few syscalls
    s.dump(CMD_PEER_GET)               # [top-level attrs dict], decoded
"""
import errno
import ipaddress
import socket
import struct
import time

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_ADD_MEMBERSHIP, NETLINK_CAP_ACK, NETLINK_EXT_ACK = 1, 10, 11
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK, NLM_F_DUMP = 1, 2, 4, 0x300
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLA_F_NESTED = 0x8000
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME, CTRL_ATTR_MCAST_GROUPS = 1, 2, 7

(CMD_DEFAULTS_GET, CMD_DEFAULTS_SET, CMD_SOCK_GET, CMD_PEER_NEW, CMD_PEER_SET,
 CMD_PEER_DEL, CMD_PEER_GET, CMD_STATS_GET, CMD_STATS_RESET, CMD_GROUP_GET,
 CMD_GROUP_JOIN, CMD_GROUP_LEAVE) = range(1, 13)
A_DEFAULTS, A_SOCK, A_PEER, A_STATS, A_GROUP = range(1, 6)
(PARAMS_TRANSFER_MODE, PARAMS_CHECKSUM, PARAMS_TX_TIMEOUT, PARAMS_RX_TIMEOUT,
 PARAMS_MAX_TRIES, PARAMS_OUTSTANDING_ACKS) = range(1, 7)
DEFAULTS_PARAMS, DEFAULTS_MAX_PEERS, DEFAULTS_PEER_EXPIRY = range(1, 4)
(SOCK_PAD, SOCK_COOKIE, SOCK_FAMILY, SOCK_LOCAL_IPV4, SOCK_LOCAL_IPV6,
 SOCK_LOCAL_PORT, SOCK_PARAMS, SOCK_PEER_COUNT, SOCK_STATS, SOCK_INODE,
 SOCK_UID) = range(1, 12)
(PEER_PAD, PEER_REMOTE_IPV4, PEER_REMOTE_IPV6, PEER_REMOTE_PORT, PEER_SOCK,
 PEER_PARAMS, PEER_STATE, PEER_FLAGS, PEER_NEXT_MSG_ID, PEER_LAST_RX_MSG_ID,
 PEER_IDLE_MS, PEER_RTT_US, PEER_STATS, PEER_MSG_ID) = range(1, 15)
GROUP_SOCK, GROUP_IPV4, GROUP_IPV6, GROUP_IFINDEX = range(1, 5)

# Attribute sets: type -> (name, kind, nested set).  kind: u8 u16 u32 u64
# addr nest pad.
_STATS = {i + 2: (n, "u64", None) for i, n in enumerate(
    "tx-msgs rx-msgs tx-bytes rx-bytes tx-timeout rx-timeout tx-retries "
    "rx-discarded-frags crc-errors rx-duplicates rx-malformed rx-dropped".split())}
_STATS[1] = ("pad", "pad", None)
SETS = {
    "udpcp": {1: ("defaults", "nest", "defaults"), 2: ("sock", "nest", "sock"),
              3: ("peer", "nest", "peer"), 4: ("stats", "nest", "stats"),
              5: ("group", "nest", "group")},
    "params": {1: ("transfer-mode", "u8", None), 2: ("checksum", "u8", None),
               3: ("tx-timeout", "u32", None), 4: ("rx-timeout", "u32", None),
               5: ("max-tries", "u8", None),
               6: ("outstanding-acks", "u8", None)},
    "defaults": {1: ("params", "nest", "params"), 2: ("max-peers", "u32", None),
                 3: ("peer-expiry", "u32", None)},
    "sock": {1: ("pad", "pad", None), 2: ("cookie", "u64", None),
             3: ("family", "u16", None), 4: ("local-ipv4", "addr", None),
             5: ("local-ipv6", "addr", None), 6: ("local-port", "u16", None),
             7: ("params", "nest", "params"), 8: ("peer-count", "u32", None),
             9: ("stats", "nest", "stats"), 10: ("inode", "u64", None),
             11: ("uid", "u32", None)},
    "peer": {1: ("pad", "pad", None), 2: ("remote-ipv4", "addr", None),
             3: ("remote-ipv6", "addr", None), 4: ("remote-port", "u16", None),
             5: ("sock", "nest", "sock"), 6: ("params", "nest", "params"),
             7: ("state", "u8", None), 8: ("flags", "u32", None),
             9: ("next-msg-id", "u16", None),
             10: ("last-rx-msg-id", "u16", None), 11: ("idle-ms", "u32", None),
             12: ("rtt-us", "u32", None), 13: ("stats", "nest", "stats"),
             14: ("msg-id", "u16", None)},
    "stats": _STATS,
    "group": {1: ("sock", "nest", "sock"), 2: ("ipv4", "addr", None),
              3: ("ipv6", "addr", None), 4: ("ifindex", "u32", None)},
}


def _pad(b):
    return b + b"\0" * (-len(b) % 4)


def attr(t, payload, flags=0):
    """One attribute, padded; payload as given (any length)."""
    return _pad(struct.pack("HH", 4 + len(payload), t | flags) + payload)


def u8(t, v):
    return attr(t, struct.pack("B", v))


def u16(t, v):
    return attr(t, struct.pack("H", v))


def u32(t, v):
    return attr(t, struct.pack("I", v))


def u64(t, v):
    return attr(t, struct.pack("Q", v))


def ipv4(t, a):
    return attr(t, socket.inet_pton(socket.AF_INET, a))


def ipv6(t, a):
    return attr(t, socket.inet_pton(socket.AF_INET6, a))


def ip(t4, t6, a):
    return ipv4(t4, a) if ":" not in a else ipv6(t6, a)


def nest(t, *attrs, flag=True):
    return attr(t, b"".join(attrs), NLA_F_NESTED if flag else 0)


def peer(remote, port=None, sock=None, params=None):
    """A UDPCP_A_PEER nest: sock is a local port, or (addr, port)."""
    a = [ip(PEER_REMOTE_IPV4, PEER_REMOTE_IPV6, remote)]
    if port is not None:
        a.append(u16(PEER_REMOTE_PORT, port))
    if sock is not None:
        a.append(sock_sel(PEER_SOCK, sock))
    if params:
        a.append(nest(PEER_PARAMS, *params))
    return nest(A_PEER, *a)


def sock_sel(t, sock):
    if isinstance(sock, tuple):
        return nest(t, ip(SOCK_LOCAL_IPV4, SOCK_LOCAL_IPV6, sock[0]),
                    u16(SOCK_LOCAL_PORT, sock[1]))
    return nest(t, u16(SOCK_LOCAL_PORT, sock))


_FMT = {"u8": "B", "u16": "H", "u32": "I", "u64": "Q"}


def parse_attrs(b, aset="udpcp"):
    """Decode attributes of set @aset into {name: value}, nests as dicts."""
    out = {}
    off = 0
    while off + 4 <= len(b):
        ln, t = struct.unpack_from("HH", b, off)
        if ln < 4:
            break
        t &= 0x3FFF
        payload = b[off + 4:off + ln]
        off += (ln + 3) & ~3
        name, kind, sub = SETS[aset].get(t, (str(t), "raw", None))
        if kind == "nest":
            v = parse_attrs(payload, sub)
        elif kind in _FMT and len(payload) == struct.calcsize(_FMT[kind]):
            v = struct.unpack(_FMT[kind], payload)[0]
        elif kind == "addr" and len(payload) in (4, 16):
            v = str(ipaddress.ip_address(payload))
        elif kind == "pad":
            continue
        else:
            v = payload.hex()
        out[name] = v
    return out


def _attr_path(b, target, base, aset):
    """Name the attribute starting at @target, in attributes @b at @base."""
    off = 0
    while off + 4 <= len(b):
        ln, t = struct.unpack_from("HH", b, off)
        if ln < 4:
            return None
        t &= 0x3FFF
        name, kind, sub = SETS.get(aset, {}).get(t, ("type-%d" % t, "raw", None))
        if base + off == target:
            return "." + name
        if kind == "nest" and base + off < target < base + off + ln:
            rest = _attr_path(b[off + 4:off + ln], target, base + off + 4, sub)
            return "." + name + (rest or "?")
        off += (ln + 3) & ~3
    return None


def _policy(b):
    a = {}
    off = 0
    while off + 4 <= len(b):
        ln, t = struct.unpack_from("HH", b, off)
        t &= 0x3FFF
        p = b[off + 4:off + ln]
        if len(p) in (4, 8):
            a[t] = struct.unpack("I" if len(p) == 4 else "Q", p)[0]
        off += (ln + 3) & ~3
    # NL_POLICY_TYPE_ATTR_MIN_VALUE_U/MAX_VALUE_U, MIN_LENGTH/MAX_LENGTH
    if 4 in a and 5 in a:
        return "range %d-%d" % (a[4], a[5])
    if 6 in a or 7 in a:
        return "length %s-%s" % (a.get(6, "?"), a.get(7, "?"))
    return None


class Result:
    def __init__(self, err=0, msg=None, where=None, policy=None, missing=None):
        self.err, self.msg, self.where = err, msg, where
        self.policy, self.missing = policy, missing

    def __str__(self):
        if not self.err:
            return "ok" + (" (warning: %s)" % self.msg if self.msg else "")
        s = errno.errorcode.get(-self.err, str(self.err))
        if s == "ENOTSUP":      # the same number; the kernel says EOPNOTSUPP
            s = "EOPNOTSUPP"
        if self.msg:
            s += ": " + self.msg
        if self.where:
            s += " at " + self.where
        if self.policy:
            s += " (" + self.policy + ")"
        if self.missing:
            s += " missing " + self.missing
        return s


class Genl:
    def __init__(self, family="udpcp", rcvbuf=1 << 22, recv_size=1 << 20):
        # The kernel sizes dump messages to the largest recv() seen (up to
        # 32 KiB): a small recv_size makes a dump take many rounds.
        self.recv_size = recv_size
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        try:
            self.s.setsockopt(socket.SOL_SOCKET, 33, rcvbuf)  # SO_RCVBUFFORCE
        except OSError:
            self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.s.bind((0, 0))
        self.seq = 0
        self.family, self.groups = self._resolve(family)

    def _msg(self, ftype, cmd, payload, flags, version=1):
        self.seq += 1
        hdr = struct.pack("IHHII", 16 + 4 + len(payload), ftype, flags, self.seq, 0)
        return hdr + struct.pack("BBH", cmd, version, 0) + payload

    def _resolve(self, name):
        m = self._msg(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                      attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"),
                      NLM_F_REQUEST | NLM_F_ACK)
        self.s.send(m)
        fid, groups = None, {}
        for t, flags, payload in self._replies(self.seq):
            if t == NLMSG_ERROR:
                err = struct.unpack_from("i", payload)[0]
                if err:
                    raise OSError(-err, "family %s" % name)
                break
            off = 4
            while off + 4 <= len(payload):
                ln, at = struct.unpack_from("HH", payload, off)
                p = payload[off + 4:off + ln]
                if at == CTRL_ATTR_FAMILY_ID:
                    fid = struct.unpack("H", p[:2])[0]
                elif at & 0x3FFF == CTRL_ATTR_MCAST_GROUPS:
                    o2 = 0
                    while o2 + 4 <= len(p):
                        l2, _ = struct.unpack_from("HH", p, o2)
                        g = p[o2 + 4:o2 + l2]
                        o3, gname, gid = 0, None, None
                        while o3 + 4 <= len(g):
                            l3, t3 = struct.unpack_from("HH", g, o3)
                            v = g[o3 + 4:o3 + l3]
                            if t3 == 1:    # CTRL_ATTR_MCAST_GRP_NAME
                                gname = v.rstrip(b"\0").decode()
                            elif t3 == 2:  # CTRL_ATTR_MCAST_GRP_ID
                                gid = struct.unpack("I", v)[0]
                            o3 += (l3 + 3) & ~3
                        groups[gname] = gid
                        o2 += (l2 + 3) & ~3
                off += (ln + 3) & ~3
        return fid, groups

    def _replies(self, seq):
        """Yield (type, flags, payload) of our replies until ack/done."""
        while True:
            data = self.s.recv(self.recv_size)
            off = 0
            while off + 16 <= len(data):
                ln, t, flags, s, _ = struct.unpack_from("IHHII", data, off)
                payload = data[off + 16:off + ln]
                off += (ln + 3) & ~3
                if s != seq:
                    continue
                yield t, flags, payload
                if t in (NLMSG_ERROR, NLMSG_DONE):
                    return

    def _result(self, flags, payload, request):
        err = struct.unpack_from("i", payload)[0]
        if flags & NLM_F_CAPPED:
            tlv = payload[4 + 16:]
        else:
            tlv = payload[4 + ((struct.unpack_from("I", payload, 4)[0] + 3) & ~3):]
        r = Result(err)
        if not flags & NLM_F_ACK_TLVS:
            return r
        off = 0
        while off + 4 <= len(tlv):
            ln, t = struct.unpack_from("HH", tlv, off)
            t &= 0x3FFF
            p = tlv[off + 4:off + ln]
            if t == 1:
                r.msg = p.rstrip(b"\0").decode()
            elif t == 2:
                target = struct.unpack("I", p)[0]
                r.where = _attr_path(request[20:], target, 20, "udpcp") or "offset %d" % target
            elif t == 4:
                r.policy = _policy(p)
            elif t == 5:
                mt = struct.unpack("I", p)[0]
                r.missing = (r.missing or "") + "type %d" % mt
            elif t == 6:
                target = struct.unpack("I", p)[0]
                r.missing = (_attr_path(request[20:], target, 20, "udpcp") or "?") + " " + (r.missing or "")
            off += (ln + 3) & ~3
        if r.missing:
            r.missing = r.missing.strip()
        return r

    def request(self, cmd, *attrs, flags=NLM_F_REQUEST | NLM_F_ACK, version=1,
                raw=None):
        """One request; @raw replaces the whole genl payload."""
        payload = raw if raw is not None else b"".join(attrs)
        m = self._msg(self.family, cmd, payload, flags, version)
        self.s.send(m)
        reply = None
        for t, fl, p in self._replies(self.seq):
            if t == NLMSG_ERROR:
                r = self._result(fl, p, m)
                r.reply = reply
                return r
            reply = parse_attrs(p[4:])
        r = Result(0)
        r.reply = reply
        return r

    def batch(self, cmd, attr_list, chunk=100):
        """Send each attrs as one request, @chunk to a sendmsg; returns
        the list of error numbers (0: ok), in order."""
        errs = []
        for i in range(0, len(attr_list), chunk):
            part = attr_list[i:i + chunk]
            first = self.seq + 1
            buf = b"".join(self._msg(self.family, cmd, a,
                                     NLM_F_REQUEST | NLM_F_ACK) for a in part)
            self.s.send(buf)
            got = {}
            while len(got) < len(part):
                data = self.s.recv(self.recv_size)
                off = 0
                while off + 16 <= len(data):
                    ln, t, fl, s, _ = struct.unpack_from("IHHII", data, off)
                    if t == NLMSG_ERROR:
                        got[s] = struct.unpack_from("i", data, off + 16)[0]
                    off += (ln + 3) & ~3
            errs += [got[first + k] for k in range(len(part))]
        return errs

    def dump(self, cmd, *attrs, pause=0):
        """All messages of a dump, decoded; raises OSError on an error.
        @pause: seconds to sleep after each message, so that the dump
        is resumed many times while other things happen."""
        m = self._msg(self.family, cmd, b"".join(attrs), NLM_F_REQUEST | NLM_F_DUMP)
        self.s.send(m)
        out = []
        for t, fl, p in self._replies(self.seq):
            if pause:
                time.sleep(pause)
            if t == NLMSG_ERROR:
                err = struct.unpack_from("i", p)[0]
                if err:
                    raise OSError(-err, "dump")
                break
            if t == NLMSG_DONE:
                err = struct.unpack_from("i", p)[0] if len(p) >= 4 else 0
                if err:
                    raise OSError(-err, "dump")
                break
            out.append(parse_attrs(p[4:]))
        return out

    def dump_peer_keys(self):
        """A peer dump reduced to (remote address, remote port, local port
        or None) per entry: decoding only those is much faster."""
        m = self._msg(self.family, CMD_PEER_GET, b"", NLM_F_REQUEST | NLM_F_DUMP)
        self.s.send(m)
        out = []
        for t, fl, p in self._replies(self.seq):
            if t in (NLMSG_ERROR, NLMSG_DONE):
                err = struct.unpack_from("i", p)[0] if len(p) >= 4 else 0
                if err:
                    raise OSError(-err, "dump")
                break
            ln = struct.unpack_from("H", p, 4)[0]     # the peer nest
            b, off, addr, port, lport = p[8:4 + ln], 0, None, None, None
            while off + 4 <= len(b):
                al, at = struct.unpack_from("HH", b, off)
                at &= 0x3FFF
                if at == PEER_REMOTE_IPV4 or at == PEER_REMOTE_IPV6:
                    addr = socket.inet_ntop(socket.AF_INET if al == 8 else socket.AF_INET6,
                                            b[off + 4:off + al])
                elif at == PEER_REMOTE_PORT:
                    port = struct.unpack_from("H", b, off + 4)[0]
                elif at == PEER_SOCK:
                    lport = parse_attrs(b[off + 4:off + al], "sock").get("local-port")
                off += (al + 3) & ~3
            out.append((addr, port, lport))
        return out

    def subscribe(self, group="events"):
        self.s.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, self.groups[group])
