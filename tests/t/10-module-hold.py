#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""10-module-hold.py READY: bound UDPCP sockets of both families in A's
namespace, each with a message in flight to nobody; touches READY, then
holds them for 600 s.
"""
import socket
import sys
import time

s4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 258)
s4.bind(("192.0.2.1", 5000))
s6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM, 258)
s6.bind(("::", 5001))
s4.sendto(b"x" * 3000, ("192.0.2.2", 6000))
s6.sendto(b"y" * 100, ("2001:db8::2", 6000))
open(sys.argv[1], "w").close()
time.sleep(600)
