#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""28-opts.py: tests/t/28-opts.sh's extremes, for an AF_INET and an AF_INET6
socket: unknown SOL_UDPCP options refused with ENOPROTOOPT (get and set),
INT_MIN, INT_MAX and one past the range refused with EINVAL leaving the
value as it was, UDPCP_FLUSH with a negative timeout refused.  Prints
"extremes ok", or exits with what is wrong.
"""
import errno
import socket
import sys

SOL_UDPCP = 258
for af in (socket.AF_INET, socket.AF_INET6):
    s = socket.socket(af, socket.SOCK_DGRAM, 258)
    for opt in (8, 100, -1):
        try:
            s.setsockopt(SOL_UDPCP, opt, 1)
            sys.exit("setsockopt SOL_UDPCP %d accepted" % opt)
        except OSError as e:
            if e.errno != errno.ENOPROTOOPT:
                sys.exit("setsockopt SOL_UDPCP %d: %s, want ENOPROTOOPT" % (opt, e))
    for opt in (7, 8, 100):       # UDPCP_FLUSH is set-only
        try:
            s.getsockopt(SOL_UDPCP, opt)
            sys.exit("getsockopt SOL_UDPCP %d accepted" % opt)
        except OSError as e:
            if e.errno != errno.ENOPROTOOPT:
                sys.exit("getsockopt SOL_UDPCP %d: %s, want ENOPROTOOPT" % (opt, e))
    for opt in range(6):
        before = s.getsockopt(SOL_UDPCP, opt)
        for v in (-2**31, 2**31 - 1, 0 if opt in (2, 3, 4, 5) else 5):
            try:
                s.setsockopt(SOL_UDPCP, opt, v)
                sys.exit("option %d = %d accepted" % (opt, v))
            except OSError as e:
                if e.errno != errno.EINVAL:
                    sys.exit("option %d = %d: %s, want EINVAL" % (opt, v, e))
        if s.getsockopt(SOL_UDPCP, opt) != before:
            sys.exit("option %d changed by refused values" % opt)
    try:
        s.setsockopt(SOL_UDPCP, 7, -1)      # UDPCP_FLUSH with a negative timeout
        sys.exit("UDPCP_FLUSH -1 accepted")
    except OSError as e:
        if e.errno != errno.EINVAL:
            sys.exit("UDPCP_FLUSH -1: %s" % e)
print("extremes ok")
