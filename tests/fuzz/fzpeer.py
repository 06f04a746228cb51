#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""UDPCP socket endpoints for the lifecycle, fuzz and limit tests.

  fzpeer.py send --dst ADDR PORT [--bind ADDR PORT] [--count N]
                 [--interval-ms MS] [--sizes a,b,c] [--mode ack|noack|single-ack]
                 [--tx-timeout MS] [--max-try N] [--stop-file F]
                 [--count-file F] [--flush-ms MS]
  fzpeer.py recv --bind ADDR PORT [--src ADDR:PORT] [--count N]
                 [--timeout S] [--stop-file F] [--count-file F] [--drain S]
                 [--rcvbuf N] [--rx-timeout MS]
  fzpeer.py churn --dst ADDR [--dst6 ADDR] --hub ADDR PORT --cycles N
                 [--ports LO-HI] [--per-cycle K] [--hold-ms MS] [--seed S]
                 [--stop-file F]

send: messages with the test pattern (tests/progs/pattern.h; sequence
numbers 0, 1, ...) on a UDPCP socket, one per --interval-ms, until --count
are sent or --stop-file exists; then writes the number sent to --count-file,
waits (UDPCP_FLUSH) until every message is acknowledged or failed, and
prints one JSON line: sent, failed, failed_ids, flush.

recv: receives on a UDPCP socket and checks each message from --src (every
source when not given) for content, exactly-once and order; messages from
other sources are only counted ("other").

churn: peers come and go.  Per cycle a new UDPCP socket (IPv4, or IPv6 to
--dst6 every other cycle when given) sends a no-ack message to each of
--per-cycle random ports of --ports (a new peer each), waits up to
--hold-ms and closes (its peers go with it); a long-lived --hub socket sends
to a fifth as many random ports (peers the namespace's peer expiry
collects).  Runs --cycles cycles, and on until --stop-file exists when
given.  Prints one JSON line: cycles, messages.  Stops after --count messages
from --src, or once --stop-file exists and as many have arrived as
--count-file says were sent (or --drain seconds after that), or after
--timeout.  Prints one JSON line: received, bytes, bad, dups, out_of_order,
other, info (UDPCP_INFO counters).
"""

import argparse
import errno
import json
import os
import select
import socket
import struct
import sys
import time

IPPROTO_UDPCP = 258
SOL_UDPCP = 258
OPT_TRANSFER_MODE, OPT_TX_TIMEOUT, OPT_RX_TIMEOUT, OPT_MAXTRY = 0, 2, 3, 4
UDPCP_INFO, UDPCP_FLUSH = 6, 7
MODES = {"noack": 0, "ack": 1, "single-ack": 2}
INFO_FIELDS = ("size tx_nodes rx_nodes tx_pending rx_queued rtt_us tx_msgs "
               "rx_msgs tx_bytes rx_bytes tx_timeout rx_timeout tx_retries "
               "rx_discarded_frags crc_errors rx_duplicates rx_malformed "
               "rx_dropped rx_refused icmp_errors pmtu_restarts").split()
INFO = struct.Struct("=6I15Q")

# pattern.h: octet off >= 4 is (seq * 7 + off * 13 + (off >> 8) * 29) & 255.
_BASE = bytes((off * 13 + (off >> 8) * 29) & 0xFF for off in range(65536))
_ADD = [bytes((i + k) & 0xFF for i in range(256)) for k in range(256)]


def pattern(seq, size):
    body = _BASE[:size].translate(_ADD[(seq * 7) & 0xFF])
    head = struct.pack("!I", seq & 0xFFFFFFFF)
    n = min(4, size)
    return head[:n] + body[n:]


def family_of(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def udpcp_socket(addr):
    return socket.socket(family_of(addr), socket.SOCK_DGRAM, IPPROTO_UDPCP)


def src_str(sa):
    host, port = sa[0], sa[1]
    if host.startswith("::ffff:"):
        host = host[7:]
    return "[%s]:%d" % (host, port) if ":" in host else "%s:%d" % (host, port)


def info_of(s):
    raw = s.getsockopt(SOL_UDPCP, UDPCP_INFO, INFO.size)
    vals = INFO.unpack(raw.ljust(INFO.size, b"\0"))
    return dict(zip(INFO_FIELDS, vals))


def read_count(path):
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def cmd_send(a):
    s = udpcp_socket(a.dst[0])
    if a.bind:
        s.bind((a.bind[0], int(a.bind[1])))
    s.setsockopt(SOL_UDPCP, OPT_TRANSFER_MODE, MODES[a.mode])
    if a.tx_timeout:
        s.setsockopt(SOL_UDPCP, OPT_TX_TIMEOUT, a.tx_timeout)
    if a.max_try:
        s.setsockopt(SOL_UDPCP, OPT_MAXTRY, a.max_try)
    if s.family == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, 25, 1)  # IPV6_RECVERR
    else:
        s.setsockopt(socket.IPPROTO_IP, 11, 1)  # IP_RECVERR
    sizes = [int(x) for x in a.sizes.split(",")]
    dst = (a.dst[0], int(a.dst[1]))
    sent = 0
    next_t = time.monotonic()
    while a.count is None or sent < a.count:
        if a.stop_file and os.path.exists(a.stop_file):
            break
        s.sendto(pattern(sent, sizes[sent % len(sizes)]), dst)
        sent += 1
        if a.interval_ms:
            next_t += a.interval_ms / 1000.0
            delay = next_t - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            else:
                next_t = time.monotonic()
    if a.count_file:
        with open(a.count_file + ".tmp", "w") as f:
            f.write("%d\n" % sent)
        os.rename(a.count_file + ".tmp", a.count_file)
    flush = "ok"
    try:
        s.setsockopt(SOL_UDPCP, UDPCP_FLUSH, a.flush_ms)
    except OSError as e:
        flush = errno.errorcode.get(e.errno, str(e.errno))
    failed_ids = []
    while True:
        try:
            _, anc, _, _ = s.recvmsg(1, 512, socket.MSG_ERRQUEUE |
                                     socket.MSG_DONTWAIT)
        except BlockingIOError:
            break
        for _, _, data in anc:
            if len(data) >= 16:
                ee = struct.unpack_from("=IBBBBII", data)
                failed_ids.append(ee[5])    # ee_info: the message ID
    out = dict(sent=sent, failed=len(failed_ids), failed_ids=failed_ids[:64],
               flush=flush, info=info_of(s))
    print(json.dumps(out), flush=True)
    s.close()
    return 0


def cmd_recv(a):
    s = udpcp_socket(a.bind[0])
    if a.rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, 33, a.rcvbuf)  # SO_RCVBUFFORCE
    if a.rx_timeout:
        s.setsockopt(SOL_UDPCP, OPT_RX_TIMEOUT, a.rx_timeout)
    s.bind((a.bind[0], int(a.bind[1])))
    want_src = a.src
    received = nbytes = bad = dups = ooo = other = 0
    seen = set()
    expect = 0
    t_end = time.monotonic() + a.timeout
    drain_end = None
    reads = 0
    t_read = time.monotonic()
    while True:
        now = time.monotonic()
        if a.read_rate:
            # pace whole reads, whoever they come from
            ahead = t_read + reads / a.read_rate - now
            if ahead > 0:
                time.sleep(min(ahead, 0.2))
                continue
        if a.count is not None and received >= a.count:
            break
        if now >= t_end:
            break
        if a.stop_file and os.path.exists(a.stop_file):
            n = read_count(a.count_file) if a.count_file else None
            if n is not None and received >= n:
                break
            if drain_end is None:
                drain_end = now + a.drain
            elif now >= drain_end:
                break
        r, _, _ = select.select([s], [], [], 0.2)
        if not r:
            continue
        data, sa = s.recvfrom(65536)
        reads += 1
        if want_src and src_str(sa) != want_src:
            other += 1
            continue
        received += 1
        nbytes += len(data)
        seq = struct.unpack_from("!I", data)[0] if len(data) >= 4 else expect
        if data != pattern(seq, len(data)):
            bad += 1
            continue
        if seq in seen:
            dups += 1
            continue
        seen.add(seq)
        if seq != expect:
            ooo += 1
        expect = max(expect, seq + 1)
    out = dict(received=received, bytes=nbytes, bad=bad, dups=dups,
               out_of_order=ooo, other=other, info=info_of(s))
    print(json.dumps(out), flush=True)
    # Keep the socket, and so its peers, until told: a test reads them.
    while a.hold_file and not os.path.exists(a.hold_file) \
            and time.monotonic() < t_end:
        time.sleep(0.1)
    s.close()
    return 0


def cmd_churn(a):
    import random
    rnd = random.Random(a.seed)
    lo, hi = (int(x) for x in a.ports.split("-"))
    hub = udpcp_socket(a.hub[0])
    hub.bind((a.hub[0], int(a.hub[1])))
    hub.setsockopt(SOL_UDPCP, OPT_TRANSFER_MODE, MODES["noack"])
    msgs = c = 0
    while c < a.cycles or (a.stop_file and not os.path.exists(a.stop_file)):
        c += 1
        dst = a.dst6 if a.dst6 and c % 2 else a.dst
        s = udpcp_socket(dst)
        s.setsockopt(SOL_UDPCP, OPT_TRANSFER_MODE, MODES["noack"])
        for port in rnd.sample(range(lo, hi + 1), a.per_cycle):
            s.sendto(b"c", (dst, port))
            msgs += 1
        for port in rnd.sample(range(lo, hi + 1), max(1, a.per_cycle // 5)):
            hub.sendto(b"h", (a.dst, port))
            msgs += 1
        time.sleep(rnd.uniform(0, a.hold_ms / 1000.0))
        s.close()
    print(json.dumps(dict(cycles=c, messages=msgs)), flush=True)
    hub.close()
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    ps = sub.add_parser("send")
    ps.add_argument("--dst", nargs=2, required=True, metavar=("ADDR", "PORT"))
    ps.add_argument("--bind", nargs=2, metavar=("ADDR", "PORT"))
    ps.add_argument("--count", type=int)
    ps.add_argument("--interval-ms", type=float, default=0)
    ps.add_argument("--sizes", default="100")
    ps.add_argument("--mode", choices=MODES, default="ack")
    ps.add_argument("--tx-timeout", type=int)
    ps.add_argument("--max-try", type=int)
    ps.add_argument("--stop-file")
    ps.add_argument("--count-file")
    ps.add_argument("--flush-ms", type=int, default=120000)
    pr = sub.add_parser("recv")
    pr.add_argument("--bind", nargs=2, required=True, metavar=("ADDR", "PORT"))
    pr.add_argument("--src")
    pr.add_argument("--count", type=int)
    pr.add_argument("--timeout", type=float, default=60)
    pr.add_argument("--stop-file")
    pr.add_argument("--count-file")
    pr.add_argument("--drain", type=float, default=60)
    pr.add_argument("--hold-file")
    pr.add_argument("--rcvbuf", type=int)
    pr.add_argument("--rx-timeout", type=int)
    pr.add_argument("--read-rate", type=float,
                    help="read at most this many messages a second (all "
                         "sources): a reader slower than its senders")
    pc = sub.add_parser("churn")
    pc.add_argument("--dst", required=True)
    pc.add_argument("--dst6")
    pc.add_argument("--hub", nargs=2, required=True, metavar=("ADDR", "PORT"))
    pc.add_argument("--cycles", type=int, default=100)
    pc.add_argument("--ports", default="20000-29999")
    pc.add_argument("--per-cycle", type=int, default=100)
    pc.add_argument("--hold-ms", type=float, default=300)
    pc.add_argument("--seed", type=int, default=1)
    pc.add_argument("--stop-file")
    a = p.parse_args()
    return {"send": cmd_send, "recv": cmd_recv, "churn": cmd_churn}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
