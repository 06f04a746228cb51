# SPDX-License-Identifier: GPL-2.0
"""capudpcp.py FILE [PORT]: every UDP datagram of a pcap (to or from PORT)
decoded as UDPCP by the Python peer's decoder, one JSON line each; IP
fragments are skipped.  ts is the capture time, as time.time() gives it.

As a module: packets(path, port=None) yields the same records as dicts.
"""
import json
import socket
import struct
import sys

import udpcp


def packets(path, port=None):
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack_from("<I", data)[0]
    endian = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    linktype = struct.unpack_from(endian + "I", data, 20)[0]
    off = 24
    while off + 16 <= len(data):
        sec, usec, caplen, _ = struct.unpack_from(endian + "IIII", data, off)
        frame = data[off + 16:off + 16 + caplen]
        off += 16 + caplen
        if linktype == 1:
            etype, l3 = struct.unpack_from("!H", frame, 12)[0], frame[14:]
        elif linktype == 113:
            etype, l3 = struct.unpack_from("!H", frame, 14)[0], frame[16:]
        else:
            continue
        if etype == 0x0800:
            ihl = (l3[0] & 15) * 4
            if l3[9] != 17 or struct.unpack_from("!H", l3, 6)[0] & 0x3FFF:
                continue
            src = socket.inet_ntop(socket.AF_INET, l3[12:16])
            dst = socket.inet_ntop(socket.AF_INET, l3[16:20])
            udp = l3[ihl:]
        elif etype == 0x86DD:
            if l3[6] != 17:
                continue
            src = socket.inet_ntop(socket.AF_INET6, l3[8:24])
            dst = socket.inet_ntop(socket.AF_INET6, l3[24:40])
            udp = l3[40:]
        else:
            continue
        sport, dport, ulen = struct.unpack_from("!HHH", udp)
        if port is not None and port not in (sport, dport):
            continue
        payload = udp[8:ulen]
        rec = dict(ts=sec + usec / 1e6, src=src, sport=sport, dst=dst, dport=dport,
                   size=len(payload))
        try:
            p = udpcp.decode(payload)
            rec.update(csum=p.checksum, type=p.mtype, n=p.n, c=p.c, s=p.s, d=p.d,
                       amount=p.amount, num=p.number, id=p.msg_id, len=p.length,
                       plen=len(p.payload))
        except Exception as e:
            rec.update(error=str(e))
        yield rec


def main(argv):
    port = int(argv[2]) if len(argv) > 2 else None
    for rec in packets(argv[1], port):
        print(json.dumps(rec))


if __name__ == "__main__":
    main(sys.argv)
