#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Resource floods at a UDPCP socket, from plain UDP sockets.

  flood.py partials --to ADDR PORT [--sources K] [--frags F] [--size S]
                    [--count N] [--time T]
  flood.py peers    --to ADDR PORT [--sources K] [--count N] [--time T]
  flood.py messages --to ADDR PORT [--sources K] [--size S] [--count N]
                    [--time T] [--stop-file F]

partials: K sources (source ports) each send fragments 0..F-2 of an
F-fragment message of S-octet fragments (valid headers and checksums, ack
mode), never the last, then start the next message ID: partial messages
that never complete, F-1 fragments each, as much as the sources can hold.
peers: K sources each send the first half of a two-fragment no-ack
message, again and again (new IDs): every source is a peer for the
receiver; nothing is delivered, so the application's queue stays free.
messages: K sources each send whole no-ack messages of one S-octet packet,
IDs in turn, as fast as they can: all of them valid, for the application's
queue (a flood of a slow reader).
Stops after N packets, T seconds, or once file F exists.  Prints one JSON line: packets, bytes
(UDPCP payload octets offered), sources, seconds.
"""

import argparse
import json
import os
import resource
import socket
import struct
import sys
import time
import zlib

HDR = struct.Struct("!IBBBBHH")


def packet(n, s, amount, number, msg_id, length, payload):
    o4 = 1 << 6 | 2 << 3 | n << 2 | 1 << 1 | s     # data, v2, C=1
    body = HDR.pack(0, o4, 0, amount, number, msg_id, length) + payload
    return struct.pack("!I", zlib.adler32(body) & 0xFFFFFFFF) + body[4:]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", choices=("partials", "peers", "messages"))
    p.add_argument("--to", nargs=2, required=True, metavar=("ADDR", "PORT"))
    p.add_argument("--sources", type=int, default=500)
    p.add_argument("--frags", type=int, default=40)
    p.add_argument("--size", type=int, default=1400)
    p.add_argument("--count", type=int, default=100000)
    p.add_argument("--time", type=float, default=30)
    p.add_argument("--stop-file")
    a = p.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = a.sources + 64
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    dst = (a.to[0], int(a.to[1]))
    fam = socket.AF_INET6 if ":" in dst[0] else socket.AF_INET
    socks = []
    for _ in range(a.sources):
        s = socket.socket(fam, socket.SOCK_DGRAM)
        s.setblocking(False)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.bind(("::" if fam == socket.AF_INET6 else "0.0.0.0", 0))
        socks.append(s)
    sent = nbytes = 0
    t0 = time.monotonic()
    msg_id = [1 + (i * 7) % 0xFFFE for i in range(a.sources)]
    payload = bytes(range(256)) * (a.size // 256 + 1)
    payload = payload[:a.size]
    length = a.size * a.frags
    rnd = 0
    while sent < a.count and time.monotonic() - t0 < a.time:
        if a.stop_file and rnd % 16 == 0 and os.path.exists(a.stop_file):
            break
        if a.what == "messages":
            for i, s in enumerate(socks):
                pkt = packet(1, 0, 1, 0, msg_id[i], a.size, payload)
                try:
                    s.sendto(pkt, dst)
                except OSError:
                    pass
                sent += 1
                nbytes += a.size
            msg_id = [m % 0xFFFE + 1 for m in msg_id]
        elif a.what == "partials":
            # one fragment from each source per pass
            num = rnd % (a.frags - 1)
            for i, s in enumerate(socks):
                pkt = packet(0, 0, a.frags, num, msg_id[i], length, payload)
                try:
                    s.sendto(pkt, dst)
                except OSError:
                    pass
                sent += 1
                nbytes += a.size
            if num == a.frags - 2:
                msg_id = [m % 0xFFFE + 1 for m in msg_id]
        else:
            for i, s in enumerate(socks):
                pkt = packet(1, 1, 2, 0, msg_id[i], 16, b"peerpeer")
                try:
                    s.sendto(pkt, dst)
                except OSError:
                    pass
                sent += 1
                nbytes += 8
            msg_id = [m % 0xFFFE + 1 for m in msg_id]
        rnd += 1
        for s in socks:         # acks: not read, just dropped
            try:
                while s.recv(64):
                    pass
            except OSError:
                pass
    secs = time.monotonic() - t0
    print(json.dumps(dict(what=a.what, packets=sent, bytes=nbytes,
                          sources=a.sources, seconds=round(secs, 1))),
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
