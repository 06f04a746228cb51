#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""41-nl-sock-cookie.py GOOD OTHER: tests/t/41-nl-sock.sh's peer-new requests
naming the socket by its cookie (raw netlink): GOOD, a cookie no socket
has, OTHER with a port it is not bound to, and 0.  Prints each answer.
"""
import sys

from nlraw import (A_PEER, CMD_PEER_NEW, Genl, PEER_REMOTE_IPV4, PEER_REMOTE_PORT,
                   PEER_SOCK, SOCK_COOKIE, SOCK_LOCAL_PORT, ipv4, nest, u16, u64)

s = Genl()
good, other = int(sys.argv[1]), int(sys.argv[2])
def req(*sock):
    return str(s.request(CMD_PEER_NEW, nest(A_PEER, ipv4(PEER_REMOTE_IPV4, "192.0.2.2"),
                         u16(PEER_REMOTE_PORT, 9), nest(PEER_SOCK, *sock))))
print(req(u64(SOCK_COOKIE, good)))
print(req(u64(SOCK_COOKIE, good + 1000)))
# cookie and port must both fit
print(req(u64(SOCK_COOKIE, other), u16(SOCK_LOCAL_PORT, 5001)))
print(req(u64(SOCK_COOKIE, 0)))
