#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""10-module-socket.py 4|6: socket(AF_INET or AF_INET6, SOCK_DGRAM, IPPROTO_UDPCP).
Prints "ok", or the errno name it failed with.
"""
import errno
import socket
import sys

fam = socket.AF_INET6 if sys.argv[1] == "6" else socket.AF_INET

try:
    socket.socket(fam, socket.SOCK_DGRAM, 258).close()
    print("ok")
except OSError as e:
    print(errno.errorcode[e.errno])
