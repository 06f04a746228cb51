#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""47-nl-wire-times.py TX: tests/t/47-nl-wire.sh's timing of a failure, in the
sending process (starting one costs more than a timeout): a message to
port 5999 of 192.0.2.2 (template max-try 1) and one to 5998 (the default
5), TX ms per try.  Prints each failure against its bounds; the times go
to $NL_TMP/times.
"""
import os
import socket
import struct
import sys
import time

tx = int(sys.argv[1])

def fail_time(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 258)
    t0 = time.monotonic()
    s.sendto(b"x" * 100, ("192.0.2.2", port))
    s.setsockopt(258, 7, 30000)          # UDPCP_FLUSH
    ms = (time.monotonic() - t0) * 1000
    _, anc, _, _ = s.recvmsg(0, 512, socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
    ids = [struct.unpack("IBBBBII", d[:16])[5] for _, _, d in anc]
    with open(os.environ["NL_TMP"] + "/times", "a") as f:
        f.write(f"# (to port {port}: failed after {ms:.0f} ms)\n")
    return ms, ids
ms, ids = fail_time(5999)
print(f"max-try 1: failed {ids}, >= 1 x {tx} ms: {ms >= tx}, < 5 x {tx} ms: {ms < 5 * tx}")
ms, ids = fail_time(5998)
print(f"max-try 5: failed {ids}, >= 5 x {tx} ms: {ms >= 5 * tx}")
