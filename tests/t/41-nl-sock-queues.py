#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""41-nl-sock-queues.py: tests/t/41-nl-sock.sh's queue depths: three messages
sent to a socket at 192.0.2.1:5010 and left unread, two sent from
192.0.2.1:5011 to an address nobody answers (a minute per try, so they stay
queued).  Prints the queue line of udpcpctl sock show for both, then for
5010 again once the three were read.
"""
import os
import socket
import subprocess

U = os.environ["U"]
def queues(port):
    out = subprocess.run([U, "sock", "show", "local-port", str(port)],
                         capture_output=True, text=True, check=True).stdout
    return out.splitlines()[2].strip()
unread = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 258)
unread.bind(("192.0.2.1", 5010))
tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 258)
tx.bind(("192.0.2.1", 5011))
for n in (100, 200, 300):
    tx.sendto(b"q" * n, ("192.0.2.1", 5010))
tx.setsockopt(258, 7, 30000)                      # UDPCP_FLUSH: all acked
# An address nobody answers, with a minute per try: both stay queued.
tx.setsockopt(258, 2, 60000)                      # UDPCP_OPT_TX_TIMEOUT
tx.sendto(b"w" * 100, ("192.0.2.99", 5012))
tx.sendto(b"w" * 3000, ("192.0.2.99", 5012))
print(queues(5010))
print(queues(5011))
unread.recv(100); unread.recv(200); unread.recv(300)
print(queues(5010))
