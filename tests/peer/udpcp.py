#!/usr/bin/env python3
"""A UDPCP peer over plain UDP sockets, written from the protocol description alone
(Documentation/udpcp-protocol.rst).

It is the independent other end for the kernel module's tests: it sends and
receives UDPCP in every transfer mode, IPv4 and IPv6, and counts everything a
receiver or sender is told to count.

  udpcp.py recv --bind ADDR PORT [--count N] [--expect-pattern] [--timeout S]
                [--idle S] [--linger S] [--rx-timeout MS] [--ack-frag0]
                [--no-ack] [--loss P [--seed N]] [--list-sizes] [--json]
  udpcp.py send --to ADDR PORT [--bind ADDR PORT] [--count N]
                [--size N | --sizes a,b,c] [--mode noack|ack|single-ack]
                [--checksum on|off] [--mtu N | --frag-size N]
                [--tx-timeout MS] [--max-try N] [--outstanding N]
                [--start-id N] [--no-sync] [--gap-ms MS]

Each prints a one-line JSON summary on stdout.  recv exits 1 when fewer than
--count messages arrived or (with --expect-pattern) any content, order or
exactly-once check failed; send exits 3 when a message failed.
"""

import argparse
import ipaddress
import json
import random
import select
import socket
import struct
import sys
import time
import zlib

# --- wire constants (Documentation/udpcp-protocol.rst) ---------------------
HDR_LEN = 12
# checksum, octet 4, octet 5, fragment amount, number, message ID, length
HDR = struct.Struct("!IBBBBHH")
TYPE_DATA = 1
TYPE_ACK = 2
VERSION = 2
MAX_MSG = 65487                  # the 2011 API's limit, kept
SYNC_ID = 0
MAX_ID = 0xFFFE                  # data IDs count 1..MAX_ID and wrap to 1
MAX_FRAGS = 255
UDP_HDR = 8
IP_HDR = {socket.AF_INET: 20, socket.AF_INET6: 40}
MAX_DATAGRAM = 65507             # largest IPv4 UDP payload

MODES = ("noack", "ack", "single-ack")

# Choices the doc leaves open, each in one place (see "assumption" there).
SYNC_S, SYNC_C = 1, 1            # deployed peers send syncs with S=1, C=1
NOACK_S = 1                      # deployed peers send S=1 with N=1
SYNC_IN_NOACK = True             # a unicast no-ack sender still syncs first
ACCEPT_ID_FFFF = True            # "never sent", but nothing says to drop it


# --- message content: mirrors tests/progs/pattern.h ----------------------
PATTERN_SEQ_LEN = 4


def pattern_byte(seq, off):
    """Octet off of message seq; see tests/progs/pattern.h."""
    if off < PATTERN_SEQ_LEN:
        return (seq >> (24 - 8 * off)) & 0xFF
    return (seq * 7 + off * 13 + (off >> 8) * 29) & 0xFF


def pattern(seq, size):
    return bytes(pattern_byte(seq, i) for i in range(size))


def pattern_seq(data):
    """The sequence number a message claims, or None if it is too short."""
    if len(data) < PATTERN_SEQ_LEN:
        return None
    return struct.unpack_from("!I", data)[0]


class PatternTracker:
    """Checks content, exactly-once and in-order delivery per source."""

    def __init__(self):
        self.next = {}       # source -> next expected seq
        self.seen = {}       # source -> set of seqs delivered
        self.bad = self.dups = self.out_of_order = 0

    def check(self, src, data):
        expected = self.next.get(src, 0)
        seq = pattern_seq(data)
        if seq is None:
            seq = expected   # a short message can only be the expected one
        if data != pattern(seq, len(data)):
            self.bad += 1
            return False
        seen = self.seen.setdefault(src, set())
        if seq in seen:
            self.dups += 1
            return False
        seen.add(seq)
        if seq != expected:
            self.out_of_order += 1
        self.next[src] = max(expected, seq + 1)
        return seq == expected


# --- packets --------------------------------------------------------------
class Malformed(Exception):
    pass


class BadChecksum(Exception):
    pass


class Packet:
    """One UDPCP packet; field names follow the doc's table."""

    __slots__ = ("mtype", "version", "n", "c", "s", "d", "reserved",
                 "amount", "number", "msg_id", "length", "payload", "checksum")

    def __init__(self, mtype=TYPE_DATA, n=0, c=1, s=0, d=0, amount=1,
                 number=0, msg_id=0, length=0, payload=b"", version=VERSION,
                 reserved=0, checksum=0):
        self.mtype, self.version = mtype, version
        self.n, self.c, self.s, self.d, self.reserved = n, c, s, d, reserved
        self.amount, self.number = amount, number
        self.msg_id, self.length = msg_id, length
        self.payload, self.checksum = payload, checksum

    def is_sync(self):
        return self.mtype == TYPE_DATA and self.msg_id == SYNC_ID

    def encode(self, checksum=None):
        """Bytes on the wire.  checksum=None computes it when C=1 (else 0);
        an int forces that value (craft.py uses it for bad checksums)."""
        o4 = (self.mtype & 3) << 6 | (self.version & 7) << 3 | \
            (self.n & 1) << 2 | (self.c & 1) << 1 | (self.s & 1)
        o5 = (self.d & 1) << 7 | (self.reserved & 0x7F)
        body = HDR.pack(0, o4, o5, self.amount, self.number, self.msg_id,
                        self.length) + self.payload
        if checksum is None:
            checksum = adler32(body) if self.c else 0
        return struct.pack("!I", checksum & 0xFFFFFFFF) + body[4:]

    def __repr__(self):
        return ("Packet(t=%d N=%d C=%d S=%d D=%d %d/%d id=%d len=%d pl=%d)" %
                (self.mtype, self.n, self.c, self.s, self.d, self.number,
                 self.amount, self.msg_id, self.length, len(self.payload)))


def adler32(data):
    """RFC 1950 Adler-32 (initial value 1), as zlib computes it."""
    return zlib.adler32(data) & 0xFFFFFFFF


def checksum_of(datagram):
    """The Adler-32 a datagram should carry: computed with the field zeroed."""
    return adler32(b"\0\0\0\0" + datagram[4:])


def decode(datagram):
    """Parse and validate one datagram on its own.  Raises Malformed or
    BadChecksum; checks that need the other fragments are the receiver's."""
    if len(datagram) < HDR_LEN:
        raise Malformed("short header (%d octets)" % len(datagram))
    csum, o4, o5, amount, number, msg_id, length = HDR.unpack_from(datagram)
    p = Packet(mtype=o4 >> 6, version=(o4 >> 3) & 7, n=(o4 >> 2) & 1,
               c=(o4 >> 1) & 1, s=o4 & 1, d=o5 >> 7, reserved=o5 & 0x7F,
               amount=amount, number=number, msg_id=msg_id, length=length,
               payload=datagram[HDR_LEN:], checksum=csum)
    # The checksum comes first: a corrupted header must count as a checksum
    # error, not as whatever malformation the corruption happens to look like.
    if p.c and csum != checksum_of(datagram):
        raise BadChecksum("checksum 0x%08x, computed 0x%08x" %
                          (csum, checksum_of(datagram)))
    if p.mtype not in (TYPE_DATA, TYPE_ACK):
        raise Malformed("invalid message type %d" % p.mtype)
    if amount == 0:
        raise Malformed("fragment amount 0")
    if number >= amount:
        raise Malformed("fragment number %d >= amount %d" % (number, amount))
    if length > MAX_MSG:
        raise Malformed("message length %d > %d" % (length, MAX_MSG))
    if p.mtype == TYPE_DATA:
        if len(p.payload) > length:
            raise Malformed("fragment of %d octets in a message of %d" %
                            (len(p.payload), length))
        if msg_id == SYNC_ID and (length or amount != 1 or p.n):
            raise Malformed("bad sync (len %d, amount %d, N %d)" %
                            (length, amount, p.n))
        if msg_id == 0xFFFF and not ACCEPT_ID_FFFF:
            raise Malformed("message ID 0xFFFF")
    return p


def make_ack(data, dup=False, number=None):
    """The ack for a data packet: no payload, N=S=1, C as the data had."""
    return Packet(mtype=TYPE_ACK, n=1, c=data.c, s=1, d=1 if dup else 0,
                  amount=data.amount,
                  number=data.number if number is None else number,
                  msg_id=data.msg_id, length=0)


def payload_per_packet(family, mtu):
    """Payload octets per packet for a path MTU (doc: "Sender")."""
    return mtu - IP_HDR[family] - UDP_HDR - HDR_LEN


def fragment(data, frag_size):
    """Split a message into payload pieces; an empty message is one piece."""
    if frag_size < 1:
        raise ValueError("fragment size %d" % frag_size)
    pieces = [data[i:i + frag_size] for i in range(0, len(data), frag_size)]
    pieces = pieces or [b""]
    if len(pieces) > MAX_FRAGS:
        raise ValueError("%d octets need %d fragments of %d (max %d)" %
                         (len(data), len(pieces), frag_size, MAX_FRAGS))
    return pieces


# --- sockets ---------------------------------------------------------------
def family_of(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def sockaddr(addr, port):
    """A sockaddr tuple for sendto/bind; handles fe80::1%ifname."""
    fam = family_of(addr)
    info = socket.getaddrinfo(addr, port, fam, socket.SOCK_DGRAM, 0,
                              socket.AI_NUMERICHOST)
    return fam, info[0][4]


def src_key(addr):
    """Source identity (address, port): drops flowinfo and scope."""
    return (addr[0], addr[1])


def open_socket(family, bind=None, rcvbuf=4 << 20):
    sock = socket.socket(family, socket.SOCK_DGRAM)
    # Big buffers: a Python peer is slow, and in no-ack mode a full buffer
    # is a loss that nothing repairs.  FORCE works as root, beyond rmem_max.
    for opt in (getattr(socket, "SO_RCVBUFFORCE", 33), socket.SO_RCVBUF):
        try:
            sock.setsockopt(socket.SOL_SOCKET, opt, rcvbuf)
            break
        except OSError:
            pass
    if bind:
        sock.bind(bind)
    return sock


def is_group(addr):
    try:
        ip = ipaddress.ip_address(addr.split("%")[0])
    except ValueError:
        return False
    return ip.is_multicast or str(ip) == "255.255.255.255"


# --- receiver --------------------------------------------------------------
class Partial:
    def __init__(self, p, now):
        self.msg_id, self.amount, self.length = p.msg_id, p.amount, p.length
        self.frags = {}
        self.started = now


class Receiver:
    """Per source: the last delivered message ID and one partial message."""

    def __init__(self, sock, rx_timeout=2.0, ack_frag0=False, no_ack=False,
                 loss=0.0, seed=1, on_deliver=None):
        self.sock = sock
        self.rx_timeout = rx_timeout
        self.ack_frag0 = ack_frag0    # echo fragment 0 in single-ack acks,
                                      # as the doc says deployed receivers do
        self.no_ack = no_ack          # never ack: makes senders fail
        self.loss = loss              # pretend this share of datagrams was
        self.rng = random.Random(seed)  # lost: seeded, so runs repeat
        self.on_deliver = on_deliver
        self.last = {}                # source -> last delivered message ID
        self.partial = {}             # source -> Partial
        self.received = 0
        # Names follow struct udpcp_info where one exists.
        self.stats = dict(rx_msgs=0, rx_bytes=0, rx_duplicates=0,
                          crc_errors=0, rx_malformed=0, rx_timeout=0,
                          rx_discarded_frags=0, syncs=0, acks_sent=0,
                          stray_acks=0, sim_dropped=0)

    def _ack(self, p, addr, dup=False, number=None):
        if self.no_ack:
            return
        self.sock.sendto(make_ack(p, dup, number).encode(), addr)
        self.stats["acks_sent"] += 1

    def _drop_partial(self, src, counter=None):
        part = self.partial.pop(src, None)
        if part:
            self.stats["rx_discarded_frags"] += len(part.frags)
            if counter:
                self.stats[counter] += 1

    def expire(self, now):
        for src in [s for s, part in self.partial.items()
                    if now - part.started > self.rx_timeout]:
            self._drop_partial(src, "rx_timeout")

    def next_deadline(self):
        if not self.partial:
            return None
        return min(p.started for p in self.partial.values()) + self.rx_timeout

    def handle(self, datagram, addr, now):
        self.received += 1
        if self.loss and self.rng.random() < self.loss:
            self.stats["sim_dropped"] += 1
            return
        src = src_key(addr)
        try:
            p = decode(datagram)
        except BadChecksum:
            self.stats["crc_errors"] += 1      # silently: no ack
            return
        except Malformed:
            self.stats["rx_malformed"] += 1
            return
        if p.mtype == TYPE_ACK:
            self.stats["stray_acks"] += 1      # we send nothing to be acked
            return
        if p.is_sync():
            self.stats["syncs"] += 1
            self._drop_partial(src)
            self.last.pop(src, None)           # accept any next ID
            self._ack(p, addr)
            return
        wants_ack = not p.n
        single = wants_ack and p.s
        last_frag = p.number == p.amount - 1
        # A single-ack ack names the last fragment, whichever one completed
        # the message (or 0, as deployed receivers do).
        ack_number = 0 if self.ack_frag0 else p.amount - 1

        if self.last.get(src) == p.msg_id:
            self.stats["rx_duplicates"] += 1
            if wants_ack and (not single or last_frag):
                self._ack(p, addr, dup=True,
                          number=ack_number if single else None)
            return

        part = self.partial.get(src)
        if part and part.msg_id != p.msg_id:
            self._drop_partial(src)
            part = None
        if part and (part.amount != p.amount or part.length != p.length):
            # Same ID, different shape: this packet cannot belong to it.
            self.stats["rx_malformed"] += 1
            return
        if part is None:
            part = self.partial[src] = Partial(p, now)
        if p.number not in part.frags:
            part.frags[p.number] = p.payload
        if wants_ack and not single:
            self._ack(p, addr)                 # every fragment, repeats too
        if len(part.frags) < part.amount:
            return

        del self.partial[src]
        data = b"".join(part.frags[i] for i in range(part.amount))
        if len(data) != part.length:
            self.stats["rx_malformed"] += 1    # fragments do not add up
            self.stats["rx_discarded_frags"] += part.amount
            return
        self.last[src] = p.msg_id
        self.stats["rx_msgs"] += 1
        self.stats["rx_bytes"] += len(data)
        if single:
            self._ack(p, addr, number=ack_number)
        if self.on_deliver:
            self.on_deliver(src, p.msg_id, data)


# --- sender ----------------------------------------------------------------
class MessageFailed(Exception):
    pass


class Sender:
    """One message at a time to one destination, as the doc's sender."""

    def __init__(self, sock, dest, mode="ack", checksum=True, frag_size=1000,
                 tx_timeout=0.2, max_try=5, outstanding=8, start_id=1,
                 sync=True):
        if mode not in MODES:
            raise ValueError("mode %r" % mode)
        self.sock, self.dest = sock, dest
        self.group = is_group(dest[0])
        self.mode = "noack" if self.group else mode  # groups: never acked
        self.c = 1 if checksum else 0
        self.frag_size = frag_size
        self.tx_timeout, self.max_try = tx_timeout, max_try
        self.outstanding = outstanding
        self.next_id = start_id
        self.need_sync = sync and not self.group and \
            (self.mode != "noack" or SYNC_IN_NOACK)
        self.stats = dict(tx_msgs=0, tx_bytes=0, tx_retries=0, tx_timeout=0,
                          tx_packets=0, dup_acks=0, crc_errors=0,
                          stray_packets=0, syncs=0)
        self.failed_ids = []

    def _alloc_id(self):
        msg_id = self.next_id
        self.next_id = 1 if msg_id >= MAX_ID else msg_id + 1
        return msg_id

    def _xmit(self, p):
        self.sock.sendto(p.encode(), self.dest)
        self.stats["tx_packets"] += 1

    def _acks(self, deadline):
        """Yield the acks from our destination until deadline."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            r, _, _ = select.select([self.sock], [], [], left)
            if not r:
                return
            data, addr = self.sock.recvfrom(65536)
            if src_key(addr) != src_key(self.dest):
                self.stats["stray_packets"] += 1
                continue
            try:
                p = decode(data)
            except BadChecksum:
                self.stats["crc_errors"] += 1
                continue
            except Malformed:
                self.stats["stray_packets"] += 1
                continue
            if p.mtype != TYPE_ACK:
                self.stats["stray_packets"] += 1
                continue
            if p.d:
                self.stats["dup_acks"] += 1
            yield p

    def _send_acked(self, packets, per_fragment):
        """Send until acked.  per_fragment: ack mode, a window of
        `outstanding` packets each acked on its own.  Otherwise single-ack:
        one ack, matched by message ID alone, for the whole message; a
        timeout sends all of it again."""
        msg_id = packets[0].msg_id
        if not per_fragment:
            for tries in range(1, self.max_try + 1):
                if tries > 1:
                    self.stats["tx_retries"] += len(packets)
                for p in packets:
                    self._xmit(p)
                deadline = time.monotonic() + self.tx_timeout
                for ack in self._acks(deadline):
                    if ack.msg_id == msg_id:
                        return
            raise MessageFailed(msg_id)

        pending = {}               # number -> [tries, deadline]
        unsent = list(range(len(packets)))
        while unsent or pending:
            while unsent and len(pending) < self.outstanding:
                i = unsent.pop(0)
                self._xmit(packets[i])
                pending[i] = [1, time.monotonic() + self.tx_timeout]
            deadline = min(d for _, d in pending.values())
            for ack in self._acks(deadline):
                if ack.msg_id == msg_id and ack.number in pending:
                    del pending[ack.number]
                    break          # refill the window
            now = time.monotonic()
            for i, slot in pending.items():
                if slot[1] > now:
                    continue
                if slot[0] >= self.max_try:
                    raise MessageFailed(msg_id)
                slot[0] += 1
                slot[1] = now + self.tx_timeout
                self.stats["tx_retries"] += 1
                self._xmit(packets[i])

    def _sync(self):
        self.stats["syncs"] += 1
        self._send_acked([Packet(mtype=TYPE_DATA, n=0, c=SYNC_C, s=SYNC_S,
                                 msg_id=SYNC_ID, length=0)], True)
        self.need_sync = False

    def send(self, data):
        """Send one message; returns True when delivered (or sent, in no-ack
        mode), False when it failed after max tries."""
        if len(data) > MAX_MSG:
            raise ValueError("message of %d octets > %d" %
                             (len(data), MAX_MSG))
        pieces = fragment(data, self.frag_size)
        try:
            if self.need_sync:
                self._sync()
        except MessageFailed:
            # The sync failed; the message was never sent, but it is lost
            # all the same and the next one syncs again.
            msg_id = self._alloc_id()
            self._failed(msg_id)
            return False
        msg_id = self._alloc_id()
        n, s = {"noack": (1, NOACK_S), "ack": (0, 0),
                "single-ack": (0, 1)}[self.mode]
        packets = [Packet(mtype=TYPE_DATA, n=n, c=self.c, s=s,
                          amount=len(pieces), number=i, msg_id=msg_id,
                          length=len(data), payload=piece)
                   for i, piece in enumerate(pieces)]
        try:
            if self.mode == "noack":
                for p in packets:
                    self._xmit(p)
            else:
                self._send_acked(packets, self.mode == "ack")
        except MessageFailed:
            self._failed(msg_id)
            return False
        self.stats["tx_msgs"] += 1
        self.stats["tx_bytes"] += len(data)
        return True

    def _failed(self, msg_id):
        self.stats["tx_timeout"] += 1
        self.failed_ids.append(msg_id)
        self.need_sync = True


# --- command line ------------------------------------------------------------
def cmd_recv(args):
    fam, addr = sockaddr(args.bind[0], int(args.bind[1]))
    sock = open_socket(fam, addr)
    tracker = PatternTracker()
    sizes = []

    def deliver(src, msg_id, data):
        sizes.append(len(data))
        ok = tracker.check(src, data) if args.expect_pattern else True
        if args.json:
            print(json.dumps({"src": "%s:%d" % src, "id": msg_id,
                              "len": len(data), "seq": pattern_seq(data),
                              "ok": ok}), flush=True)

    rx = Receiver(sock, rx_timeout=args.rx_timeout / 1000.0,
                  ack_frag0=args.ack_frag0, no_ack=args.no_ack,
                  loss=args.loss, seed=args.seed, on_deliver=deliver)
    start = time.monotonic()
    end = start + args.timeout
    last_rx = None
    done_at = None             # when --count was reached
    while True:
        now = time.monotonic()
        rx.expire(now)
        if done_at is None and args.count and len(sizes) >= args.count:
            done_at = now
        waits = [end - now]
        if done_at is not None:
            # Linger: answer retransmissions of the last message, whose ack
            # the sender may not have seen yet.
            waits.append(done_at + args.linger - now)
        if args.idle and last_rx is not None:
            waits.append(last_rx + args.idle - now)
        nd = rx.next_deadline()
        if nd is not None:
            waits.append(max(nd - now, 0.001))
        wait = min(waits)
        if wait <= 0:
            break
        r, _, _ = select.select([sock], [], [], wait)
        if r:
            data, src = sock.recvfrom(65536)
            last_rx = time.monotonic()
            rx.handle(data, src, last_rx)
    summary = dict(messages=rx.stats["rx_msgs"], bytes=rx.stats["rx_bytes"],
                   partials_left=len(rx.partial),
                   duplicates=rx.stats["rx_duplicates"],
                   checksum_errors=rx.stats["crc_errors"], **rx.stats)
    if args.expect_pattern:
        summary.update(bad=tracker.bad, dups=tracker.dups,
                       out_of_order=tracker.out_of_order)
    if args.list_sizes:
        summary["sizes"] = sizes
    print(json.dumps(summary), flush=True)
    short = args.count and len(sizes) < args.count
    wrong = args.expect_pattern and (tracker.bad or tracker.dups or
                                     tracker.out_of_order)
    return 1 if short or wrong else 0


def parse_sizes(args):
    if args.sizes:
        return [int(x) for x in args.sizes.split(",")]
    return [args.size]


def cmd_send(args):
    fam, dest = sockaddr(args.to[0], int(args.to[1]))
    bind = sockaddr(args.bind[0], int(args.bind[1]))[1] if args.bind else None
    sock = open_socket(fam, bind)
    frag = args.frag_size or payload_per_packet(fam, args.mtu)
    tx = Sender(sock, dest, mode=args.mode, checksum=args.checksum == "on",
                frag_size=frag, tx_timeout=args.tx_timeout / 1000.0,
                max_try=args.max_try, outstanding=args.outstanding,
                start_id=args.start_id, sync=not args.no_sync)
    sizes = parse_sizes(args)
    for seq in range(args.count):
        tx.send(pattern(seq, sizes[seq % len(sizes)]))
        if args.gap_ms:
            time.sleep(args.gap_ms / 1000.0)
    st = tx.stats
    print(json.dumps(dict(messages=st["tx_msgs"], bytes=st["tx_bytes"],
                          retries=st["tx_retries"], failures=st["tx_timeout"],
                          failed_ids=tx.failed_ids,
                          duplicates=st["dup_acks"],
                          checksum_errors=st["crc_errors"],
                          mode=tx.mode, frag_size=frag, next_id=tx.next_id,
                          **st)), flush=True)
    return 3 if tx.failed_ids else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)

    r = sub.add_parser("recv", help="receive and acknowledge")
    r.add_argument("--bind", nargs=2, required=True, metavar=("ADDR", "PORT"))
    r.add_argument("--count", type=int, default=0,
                   help="stop after N messages (0: run until --timeout)")
    r.add_argument("--expect-pattern", action="store_true",
                   help="check content, exactly-once and order per source")
    r.add_argument("--timeout", type=float, default=10.0, help="seconds")
    r.add_argument("--idle", type=float, default=0,
                   help="stop after S seconds without a packet")
    r.add_argument("--linger", type=float, default=0.5,
                   help="after --count, keep acking retransmits S seconds")
    r.add_argument("--rx-timeout", type=int, default=2000, help="ms")
    r.add_argument("--ack-frag0", action="store_true",
                   help="single-ack acks carry fragment number 0")
    r.add_argument("--no-ack", action="store_true", help="never acknowledge")
    r.add_argument("--loss", type=float, default=0.0, metavar="P",
                   help="ignore this share of datagrams (simulated loss)")
    r.add_argument("--seed", type=int, default=1, help="for --loss")
    r.add_argument("--list-sizes", action="store_true")
    r.add_argument("--json", action="store_true",
                   help="also a JSON line per delivered message")

    s = sub.add_parser("send", help="send pattern messages")
    s.add_argument("--to", nargs=2, required=True, metavar=("ADDR", "PORT"))
    s.add_argument("--bind", nargs=2, metavar=("ADDR", "PORT"))
    s.add_argument("--count", type=int, default=1)
    s.add_argument("--size", type=int, default=100)
    s.add_argument("--sizes", help="comma-separated sizes, used in turn")
    s.add_argument("--mode", choices=MODES, default="ack")
    s.add_argument("--checksum", choices=("on", "off"), default="on")
    s.add_argument("--mtu", type=int, default=1500)
    s.add_argument("--frag-size", type=int, default=0,
                   help="payload octets per packet (overrides --mtu)")
    s.add_argument("--tx-timeout", type=int, default=200, help="ms")
    s.add_argument("--max-try", type=int, default=5)
    s.add_argument("--outstanding", type=int, default=8)
    s.add_argument("--start-id", type=int, default=1)
    s.add_argument("--no-sync", action="store_true",
                   help="do not sync before the first message")
    s.add_argument("--gap-ms", type=float, default=0,
                   help="pause between messages")

    args = ap.parse_args(argv)
    return cmd_recv(args) if args.cmd == "recv" else cmd_send(args)


if __name__ == "__main__":
    sys.exit(main())
