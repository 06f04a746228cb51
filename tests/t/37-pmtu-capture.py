#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""37-pmtu-capture.py PCAP FAMILY BIG SMALL: tests/t/37-pmtu.sh's check of
the capture at B: UDPCP fragments of both payload sizes (BIG before the
MTU dropped, SMALL after) and not one IP fragment.  Prints one line: what
is wrong if anything, then the counts and payload sizes seen.
"""
import struct
import sys

path, fam, big, small = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

data = open(path, "rb").read()
endian = "<" if struct.unpack_from("<I", data)[0] in (0xa1b2c3d4, 0xa1b23c4d) else ">"
off, frags, sizes, data_pkts = 24, 0, {}, 0
while off + 16 <= len(data):
    caplen = struct.unpack_from(endian + "IIII", data, off)[2]
    frame = data[off + 16:off + 16 + caplen]
    off += 16 + caplen
    etype, l3 = struct.unpack_from("!H", frame, 12)[0], frame[14:]
    if etype == 0x0800:
        if struct.unpack_from("!H", l3, 6)[0] & 0x3FFF:
            frags += 1
            continue
        if l3[9] != 17:
            continue
        udp = l3[(l3[0] & 15) * 4:]
    elif etype == 0x86DD:
        if l3[6] == 44:
            frags += 1
            continue
        if l3[6] != 17:
            continue
        udp = l3[40:]
    else:
        continue
    plen = struct.unpack_from("!H", udp, 4)[0] - 8 - 12
    if len(udp) >= 20 and udp[12] >> 6 == 1:
        data_pkts += 1
        sizes[plen] = sizes.get(plen, 0) + 1
errs = []
if frags:
    errs.append("%d IP fragments" % frags)
for want in (big, small):
    if not sizes.get(want):
        errs.append("no fragment of %d octets" % want)
if max(sizes, default=0) > big:
    errs.append("a fragment over %d octets: %s" % (big, sorted(sizes)))
print("%s%s: %d data packets, %d IP fragments, fragment payloads %s" %
      ("; ".join(errs) + ": " if errs else "", fam, data_pkts, frags,
       dict(sorted(sizes.items()))))
sys.exit(1 if errs else 0)
