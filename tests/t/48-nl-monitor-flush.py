#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""48-nl-monitor-flush.py RECV_PID: tests/t/48-nl-monitor.sh's two messages
through and a third that fails: a socket at 192.0.2.1:7002 (max-try 2,
tx-timeout 50 ms) sends two to 192.0.2.2:5998 and flushes, waits until the
receiver (RECV_PID) has exited, sends a third and flushes.  Prints each
flush's result and the message IDs the error queue held.
"""
import socket
import struct
import sys
import time

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 258)
s.bind(("192.0.2.1", 7002))
s.setsockopt(258, 4, 2)                  # UDPCP_OPT_MAXTRY
s.setsockopt(258, 2, 50)                 # UDPCP_OPT_TX_TIMEOUT
def flush(n):
    r = s.setsockopt(258, 7, 20000)      # UDPCP_FLUSH
    ids = []
    while True:
        try:
            _, anc, _, _ = s.recvmsg(0, 512, socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
        except BlockingIOError:
            break
        ids += [struct.unpack("IBBBBII", d[:16])[5] for _, _, d in anc]
    print(f"flush {n}: {r or 0}, failed {ids}")
for _ in range(2):
    s.sendto(b"y" * 10, ("192.0.2.2", 5998))
flush(1)
def running(pid):                       # not gone, and not a zombie
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
while running(sys.argv[1]):             # the receiver exits after 2
    time.sleep(0.05)
s.sendto(b"z" * 10, ("192.0.2.2", 5998))
flush(2)
