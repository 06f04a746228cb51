#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Netlink battery: every command of the "udpcp" generic netlink family with
random and boundary attribute sets, over raw generic netlink.

  nlfuzz.py [--count N] [--time S] [--seed S] [--port P]... [--expect-unpriv]
            [--json]

The family id and its operations come from the controller
(CTRL_CMD_GETFAMILY); NETLINK_EXT_ACK is on, and every error is read with
its extended ack (NLMSGERR_ATTR_MSG, _MISS_TYPE, _MISS_NEST, _OFFS).

Requests, each a seeded choice (--seed reproduces a run): every operation
the family lists, as do and as dump, plus unknown command numbers; their
attributes: the operation's own nest with valid, boundary (min-1, min, max,
max+1, 0, all ones) and random values, wrong lengths (short, long, empty),
wrong types (an integer where a nest belongs, a nest where an integer
belongs), nests with garbage inside, with and without NLA_F_NESTED,
NLA_F_NET_BYTEORDER set, duplicated attributes, unknown attribute types
(0, one past the last, 0x3fff), other operations' nests, attributes whose
length runs past the message, and a version or reserved field that is not
0.  --port names local ports with UDPCP sockets (so that requests reach
real sockets and peers); addresses come from 192.0.2.0/24, 2001:db8::/64
and the multicast ranges.

What counts as a failure (exit status 1, each printed with the request):
  - a refusal with errno EINVAL, ERANGE, E2BIG, EAFNOSUPPORT, EADDRINUSE,
    EADDRNOTAVAIL, ENODEV, ENOBUFS, EMSGSIZE or any errno not listed below,
    that carries neither an extack message (NLMSGERR_ATTR_MSG) nor a
    missing-attribute report (NLMSGERR_ATTR_MISS_TYPE / _MISS_NEST, what
    the kernel's GENL_REQ_ATTR_CHECK sends instead of a message): the
    policy's own refusals (EINVAL, ERANGE) always carry a message;
  - allowed without a message: EPERM (genetlink's permission check sends
    none), ENOENT and EEXIST (self-explanatory, though udpcp sends one
    anyway), EOPNOTSUPP for an unknown command or a do/dump the operation
    does not have (genetlink's answer, before the family sees it), and
    ENOMEM;
  - as an unprivileged user (--expect-unpriv: run under setpriv
    --reuid=65534): any operation flagged admin-only (GENL_UNS_ADMIN_PERM)
    not refused with EPERM (but for EINVAL when the genetlink header's
    reserved field is not 0: genetlink checks that first), or any other refused with EPERM; as root, any
    EPERM at all;
  - no answer within 10 s, or an answer that is not a netlink message.
Prints a summary (requests tried, by errno, by command); with --json one
JSON line.
"""

import argparse
import errno
import json
import os
import random
import socket
import struct
import sys
import time

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_EXT_ACK = 11
NETLINK_CAP_ACK = 10
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK = 1, 2, 4
NLM_F_DUMP = 0x300
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NLMSG_ERROR, NLMSG_DONE = 2, 3
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
CTRL_ATTR_OPS = 6
CTRL_ATTR_OP_ID, CTRL_ATTR_OP_FLAGS = 1, 2
GENL_ADMIN_PERM, GENL_CMD_CAP_DO, GENL_CMD_CAP_DUMP = 0x01, 0x02, 0x04
GENL_UNS_ADMIN_PERM = 0x10
NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS = 1, 2
NLMSGERR_ATTR_MISS_TYPE, NLMSGERR_ATTR_MISS_NEST = 5, 6
NLA_F_NESTED, NLA_F_NET_BYTEORDER = 0x8000, 0x4000

NLMSG = struct.Struct("=IHHII")
GENL = struct.Struct("=BBH")

# errnos that may come without an extack message (see the docstring)
BARE_OK = {errno.EPERM, errno.ENOENT, errno.EEXIST, errno.EOPNOTSUPP,
           errno.ENOMEM}

# --- the family, as uapi/linux/udpcp.h defines it ---------------------------
# attribute set: {type: (name, kind, arg)}; kind u8/u16/u32/u64/bin/nest/pad
# arg: (min, max) for integers, the exact length for binaries, the nested
# set's name for nests.
SETS = {
    "top": {1: ("defaults", "nest", "defaults"), 2: ("sock", "nest", "sock"),
            3: ("peer", "nest", "peer"), 4: ("stats", "nest", "stats"),
            5: ("group", "nest", "group")},
    "params": {1: ("transfer-mode", "u8", (0, 2)),
               2: ("checksum", "u8", (0, 1)),
               3: ("tx-timeout", "u32", (1, 60000)),
               4: ("rx-timeout", "u32", (1, 60000)),
               5: ("max-tries", "u8", (1, 10)),
               6: ("outstanding-acks", "u8", (1, 255))},
    "defaults": {1: ("params", "nest", "params"),
                 2: ("max-peers", "u32", (1, 1000000)),
                 3: ("peer-expiry", "u32", (1000, 86400000))},
    "sock": {1: ("pad", "pad", None), 2: ("cookie", "u64", (0, 2**64 - 1)),
             3: ("family", "u16", (0, 65535)), 4: ("local-ipv4", "bin", 4),
             5: ("local-ipv6", "bin", 16),
             6: ("local-port", "u16", (1, 65535)),
             7: ("params", "nest", "params"), 8: ("peer-count", "u32", None),
             9: ("stats", "nest", "stats"), 10: ("inode", "u64", None),
             11: ("uid", "u32", None)},
    "peer": {1: ("pad", "pad", None), 2: ("remote-ipv4", "bin", 4),
             3: ("remote-ipv6", "bin", 16),
             4: ("remote-port", "u16", (1, 65535)),
             5: ("sock", "nest", "sock"), 6: ("params", "nest", "params"),
             7: ("state", "u8", None), 8: ("flags", "u32", None),
             9: ("next-msg-id", "u16", None),
             10: ("last-rx-msg-id", "u16", None),
             11: ("idle-ms", "u32", None), 12: ("rtt-us", "u32", None),
             13: ("stats", "nest", "stats"), 14: ("msg-id", "u16", None)},
    "stats": dict((i, ("stat%d" % i, "u64", None)) for i in range(2, 14)),
    "group": {1: ("sock", "nest", "sock"), 2: ("ipv4", "bin", 4),
              3: ("ipv6", "bin", 16), 4: ("ifindex", "u32", (1, 2**32 - 1))},
}
SETS["stats"][1] = ("pad", "pad", None)
CMDS = {1: "defaults-get", 2: "defaults-set", 3: "sock-get", 4: "peer-new",
        5: "peer-set", 6: "peer-del", 7: "peer-get", 8: "stats-get",
        9: "stats-reset", 10: "group-get", 11: "group-join",
        12: "group-leave"}
# the top-level nest each command is about
CMD_OBJ = {1: 1, 2: 1, 3: 2, 4: 3, 5: 3, 6: 3, 7: 3, 8: 4, 9: 4, 10: 5,
           11: 5, 12: 5}
INT_LEN = {"u8": 1, "u16": 2, "u32": 4, "u64": 8}


def nla(atype, payload, flags=0, length=None):
    ln = 4 + len(payload) if length is None else length
    pad = (-len(payload)) % 4
    return struct.pack("=HH", ln & 0xFFFF, (atype | flags) & 0xFFFF) + \
        payload + b"\0" * pad


def attrs_of(buf):
    out, off = [], 0
    while off + 4 <= len(buf):
        ln, at = struct.unpack_from("=HH", buf, off)
        if ln < 4 or off + ln > len(buf):
            break
        out.append((at & 0x3FFF, buf[off + 4:off + ln]))
        off += (ln + 3) & ~3
    return out


class Genl:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               NETLINK_GENERIC)
        self.s.bind((0, 0))
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        self.s.settimeout(10)
        self.seq = int(time.time()) & 0xFFFFFF

    def request(self, raw_msg):
        """Send raw bytes (a whole netlink message); returns (error, extack
        dict, number of data messages)."""
        self.s.send(raw_msg)
        seq = struct.unpack_from("=I", raw_msg, 8)[0] if len(raw_msg) >= 12 \
            else None
        nmsgs = 0
        while True:
            data = self.s.recv(1 << 20)
            off = 0
            while off + NLMSG.size <= len(data):
                ln, typ, flags, mseq, _ = NLMSG.unpack_from(data, off)
                if ln < NLMSG.size or off + ln > len(data):
                    raise ValueError("bad netlink message length %d" % ln)
                body = data[off + NLMSG.size:off + ln]
                off += (ln + 3) & ~3
                if seq is not None and mseq != seq:
                    continue        # a stale answer to an earlier request
                if typ == NLMSG_ERROR:
                    err = struct.unpack_from("=i", body)[0]
                    return err, self.extack(body, flags), nmsgs
                if typ == NLMSG_DONE:
                    err = struct.unpack_from("=i", body)[0] if len(body) >= 4 \
                        else 0
                    ext = self.extack(body, flags, done=True)
                    return err, ext, nmsgs
                nmsgs += 1
                if not flags & NLM_F_MULTI:
                    # a do's reply: the ack follows
                    continue

    @staticmethod
    def extack(body, flags, done=False):
        ext = {}
        if not flags & NLM_F_ACK_TLVS:
            return ext
        if done:
            tlv = body[4:]
        else:
            off = 4
            olen = struct.unpack_from("=I", body, off)[0] if \
                len(body) >= off + 4 else 0
            off += NLMSG.size if flags & NLM_F_CAPPED else (olen + 3) & ~3
            tlv = body[off:]
        for at, val in attrs_of(tlv):
            if at == NLMSGERR_ATTR_MSG:
                ext["msg"] = val.rstrip(b"\0").decode(errors="replace")
            elif at == NLMSGERR_ATTR_OFFS:
                ext["offs"] = struct.unpack("=I", val[:4])[0]
            elif at == NLMSGERR_ATTR_MISS_TYPE:
                ext["miss_type"] = struct.unpack("=I", val[:4])[0]
            elif at == NLMSGERR_ATTR_MISS_NEST:
                ext["miss_nest"] = struct.unpack("=I", val[:4])[0]
        return ext

    def msg(self, typ, flags, cmd, payload, version=1, reserved=0,
            length=None):
        self.seq += 1
        body = GENL.pack(cmd, version, reserved) + payload
        ln = NLMSG.size + len(body) if length is None else length
        return NLMSG.pack(ln, typ, flags, self.seq, 0) + body

    def family(self, name):
        m = self.msg(GENL_ID_CTRL, NLM_F_REQUEST, CTRL_CMD_GETFAMILY,
                     nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
        self.s.send(m)
        data = self.s.recv(1 << 16)
        ln, typ, _, _, _ = NLMSG.unpack_from(data)
        if typ == NLMSG_ERROR:
            err = struct.unpack_from("=i", data, NLMSG.size)[0]
            raise OSError(-err, "CTRL_CMD_GETFAMILY %s" % name)
        fid, ops = None, {}
        for at, val in attrs_of(data[NLMSG.size + GENL.size:ln]):
            if at == CTRL_ATTR_FAMILY_ID:
                fid = struct.unpack("=H", val[:2])[0]
            elif at == CTRL_ATTR_OPS:
                for _, op in attrs_of(val):
                    d = dict(attrs_of(op))
                    oid = struct.unpack("=I", d[CTRL_ATTR_OP_ID][:4])[0]
                    ofl = struct.unpack("=I", d.get(CTRL_ATTR_OP_FLAGS,
                                                    b"\0" * 4)[:4])[0]
                    ops[oid] = ofl
        return fid, ops


class Gen:
    """Attribute generator."""

    def __init__(self, rnd, ports):
        self.r = rnd
        self.ports = ports or [5000]

    def int_value(self, kind, rng):
        r = self.r
        bits = INT_LEN[kind] * 8
        top = 2 ** bits - 1
        lo, hi = rng if rng else (0, top)
        c = [0, top, lo, hi, r.randint(0, top)]
        if lo > 0:
            c.append(lo - 1)
        if hi < top:
            c.append(hi + 1)
        c += [r.randint(lo, hi)] * 3
        return r.choice(c) & top

    def addr(self, n):
        r = self.r
        if n == 4:
            return bytes(r.choice(([192, 0, 2, r.choice((1, 2, 3, 255))],
                                   [224, 0, 0, r.randint(1, 255)],
                                   [239, 1, 2, 3], [0, 0, 0, 0],
                                   [255, 255, 255, 255], [127, 0, 0, 1],
                                   [r.getrandbits(8) for _ in range(4)])))
        pre = r.choice((bytes.fromhex("20010db8" + "0" * 16),
                        bytes.fromhex("ff02" + "0" * 20),
                        bytes.fromhex("ff05" + "0" * 20),
                        bytes(12), bytes(10) + b"\xff\xff"))
        return pre + bytes([0, 0, 0, r.choice((1, 2, r.getrandbits(8)))])

    def value(self, kind, arg, depth):
        """A well-formed payload of the right type (value random/boundary)."""
        r = self.r
        if kind in INT_LEN:
            if arg and arg[0] == 1 and arg[1] == 65535 and r.random() < 0.6:
                v = r.choice(self.ports)      # ports that have sockets
            else:
                v = self.int_value(kind, arg)
            return struct.pack("=" + "BHIQ"[[1, 2, 4, 8].index(
                INT_LEN[kind])], v)
        if kind == "bin":
            return self.addr(arg)
        if kind == "pad":
            return b"" if r.random() < 0.5 else b"\0" * r.randint(1, 8)
        return self.nest_body(arg, depth + 1)

    def garbage(self):
        r = self.r
        return bytes(r.getrandbits(8) for _ in range(r.choice((0, 1, 3, 4, 7,
                                                               8, 17, 64))))

    def attr(self, aset, atype, depth):
        """One attribute of set aset, usually right, sometimes wrong."""
        r = self.r
        name, kind, arg = SETS[aset][atype]
        flags = NLA_F_NESTED if kind == "nest" else 0
        how = r.random()
        if how < 0.60 or depth > 4:
            payload = self.value(kind, arg, depth)
        elif how < 0.70:        # wrong length
            good = self.value(kind, arg, depth) if kind != "nest" else b"x"
            payload = r.choice((b"", good[:-1] if good else b"\1",
                                good + b"\0", good + b"\0" * 4,
                                good * 2))
        elif how < 0.78:        # wrong type: nest <-> scalar
            if kind == "nest":
                payload = struct.pack("=I", r.getrandbits(32))
                flags = 0 if r.random() < 0.5 else NLA_F_NESTED
            else:
                payload = self.nest_body(r.choice(list(SETS)), depth + 1)
                flags = NLA_F_NESTED
        elif how < 0.86:        # garbage inside
            payload = self.garbage()
        elif how < 0.92:        # flags
            payload = self.value(kind, arg, depth)
            flags ^= r.choice((NLA_F_NESTED, NLA_F_NET_BYTEORDER))
        else:                   # length field runs past the end
            payload = self.value(kind, arg, depth)
            return nla(atype, payload, flags,
                       length=4 + len(payload) + r.randint(1, 300))
        return nla(atype, payload, flags)

    def nest_body(self, aset, depth=0):
        r = self.r
        types = list(SETS[aset])
        if aset == "top":
            types = [t for t in types]
        out = b""
        for t in r.sample(types, r.randint(0, len(types))):
            out += self.attr(aset, t, depth)
            if r.random() < 0.05:
                out += self.attr(aset, t, depth)        # duplicate
        if r.random() < 0.1:
            unk = r.choice((0, max(SETS[aset]) + 1, 0x3FFF, r.randint(1, 100)))
            out += nla(unk, self.garbage())
        return out

    def sensible(self, aset):
        """The attributes a request of this object usually has: a socket by
        port, a peer address and port, a params nest."""
        r = self.r
        port = struct.pack("=H", r.choice(self.ports))
        v6 = r.random() < 0.4
        sock = nla(6, port)
        if r.random() < 0.3:
            sock += nla(5, self.addr(16)) if v6 else nla(4, self.addr(4))
        if aset == "peer":
            body = nla(3, self.addr(16)) if v6 else nla(2, self.addr(4))
            body += nla(4, struct.pack("=H", r.choice((6000, 6001, 1,
                                                       65535))))
            if r.random() < 0.7:
                body += nla(5, sock, NLA_F_NESTED)
            if r.random() < 0.6:
                body += nla(6, self.nest_body("params", 1), NLA_F_NESTED)
            return body
        if aset == "group":
            body = nla(3, self.addr(16)) if v6 else nla(2, self.addr(4))
            if r.random() < 0.8:
                body += nla(1, sock, NLA_F_NESTED)
            if r.random() < 0.3:
                body += nla(4, struct.pack("=I", r.choice((1, 2, 99, 0))))
            return body
        if aset == "sock":
            return sock
        if aset == "defaults":
            return self.nest_body("defaults", 1)
        return self.nest_body(aset, 1)

    def payload(self, cmd):
        """Top-level attributes of a request for cmd."""
        r = self.r
        obj = CMD_OBJ.get(cmd, r.randint(1, 5))
        objset = SETS["top"][obj][2]
        how = r.random()
        if how < 0.45:
            return nla(obj, self.sensible(objset), NLA_F_NESTED)
        if how < 0.75:
            return self.attr("top", obj, 0)
        if how < 0.85:
            return self.nest_body("top", 0)
        if how < 0.90:
            return b""
        if how < 0.95:
            return self.garbage()
        # deeply nested garbage
        body = self.garbage()
        for _ in range(r.randint(2, 30)):
            body = nla(r.randint(1, 6), body, NLA_F_NESTED)
        return body


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--count", type=int, default=5000)
    p.add_argument("--time", type=float, default=120)
    p.add_argument("--seed", type=int)
    p.add_argument("--port", type=int, action="append", default=[])
    p.add_argument("--expect-unpriv", action="store_true")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4),
                                                            "big")
    rnd = random.Random(seed)
    nl = Genl()
    fid, ops = nl.family("udpcp")
    gen = Gen(rnd, a.port)
    failures, by_errno, by_cmd = [], {}, {}
    tried = answered = 0
    t0 = time.monotonic()

    def fail(what, raw):
        if len(failures) < 50:
            failures.append("%s; request %s" % (what, raw.hex()))

    while tried < a.count and time.monotonic() - t0 < a.time:
        r = rnd.random()
        cmd = rnd.choice(list(ops)) if r < 0.93 else \
            rnd.choice((0, max(ops) + 1, 17, 200, 255))
        dump = rnd.random() < 0.3
        flags = NLM_F_REQUEST | NLM_F_ACK | (NLM_F_DUMP if dump else 0)
        version = 1 if rnd.random() < 0.95 else rnd.randint(0, 255)
        reserved = 0 if rnd.random() < 0.97 else rnd.randint(1, 65535)
        raw = nl.msg(fid, flags, cmd, gen.payload(cmd), version, reserved)
        tried += 1
        try:
            err, ext, nmsgs = nl.request(raw)
        except socket.timeout:
            fail("no answer within 10 s (cmd %d)" % cmd, raw)
            nl = Genl()
            continue
        except ValueError as e:
            fail(str(e), raw)
            continue
        answered += 1
        name = CMDS.get(cmd, "cmd%d" % cmd) + (" dump" if dump else "")
        e = -err
        ename = errno.errorcode.get(e, str(e)) if e else "ok"
        by_errno[ename] = by_errno.get(ename, 0) + 1
        c = by_cmd.setdefault(name, {})
        c[ename] = c.get(ename, 0) + 1
        opflags = ops.get(cmd)
        admin = opflags is not None and opflags & (GENL_ADMIN_PERM |
                                                   GENL_UNS_ADMIN_PERM)
        has_handler = opflags is not None and \
            opflags & (GENL_CMD_CAP_DUMP if dump else GENL_CMD_CAP_DO)
        if e and e not in BARE_OK and not (ext.get("msg") or
                                           "miss_type" in ext or
                                           "miss_nest" in ext):
            fail("%s: %s without an extack message" % (name, ename), raw)
        if a.expect_unpriv:
            # genetlink checks the header (reserved field) before the
            # permission: such a request gets EINVAL first.
            if admin and has_handler and e != errno.EPERM and \
                    not (reserved and e == errno.EINVAL):
                fail("%s as an unprivileged user: %s, not EPERM" %
                     (name, ename), raw)
            if not admin and e == errno.EPERM:
                fail("%s (not admin-only) refused with EPERM" % name, raw)
        elif e == errno.EPERM:
            fail("%s as root: EPERM" % name, raw)
    secs = time.monotonic() - t0
    out = dict(requests=tried, answered=answered, seconds=round(secs, 1),
               seed=seed, unpriv=a.expect_unpriv, by_errno=by_errno,
               failures=len(failures), failure_examples=failures[:10],
               by_cmd=by_cmd)
    if a.json:
        print(json.dumps(out), flush=True)
    else:
        print("nlfuzz: %d netlink requests tried in %.1fs (seed %d%s), "
              "%d failures" % (tried, secs, seed,
                               ", unprivileged" if a.expect_unpriv else "",
                               len(failures)))
        print("nlfuzz: by errno: %s" % json.dumps(by_errno, sort_keys=True))
        for k in sorted(by_cmd):
            print("nlfuzz:   %-18s %s" % (k, json.dumps(by_cmd[k],
                                                         sort_keys=True)))
        for f in failures[:10]:
            print("nlfuzz: FAIL %s" % f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
