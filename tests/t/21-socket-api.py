#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""21-socket-api.py FAM DST SRC IF_B NS_A NS_B IF_A: tests/t/21-socket-api.sh's checks
for one family (v4, v6, mapped): DST is where A sends to B, SRC where B
sees A.  Prints "FAM: N checks ok", or exits with the first that failed.
"""
import ctypes
import errno
import select
import socket
import struct
import sys
import time

import ksock
from ksock import SOL_UDPCP, TX_TIMEOUT, MAXTRY, setns as netns, udpcp_socket, info, family, wildcard

fam, me, other, ifname, ns_a, ns_b, if_a = sys.argv[1:]
libc = ctypes.CDLL(None, use_errno=True)
IP_PKTINFO = 8
af = family(fam)
any_addr = wildcard(af)
checks = 0

def check(cond, what):
    global checks
    checks += 1
    if not cond:
        sys.exit("%s: %s" % (fam, what))

def sock():
    return udpcp_socket(fam)

def flush(s):
    ksock.flush(s, 10000)

def errno_of(fn):
    try:
        fn()
    except OSError as e:
        return e.errno
    return 0

# bind to port 0 picks a port; receivers in B, senders in A
netns(ns_b)
idx = socket.if_nametoindex(ifname)
r = sock()
r2 = sock()
r2.bind((any_addr, 0))
r.bind((any_addr, 0))
rport = r.getsockname()[1]
check(rport != 0, "bind port 0: getsockname port 0")
dest = (me, rport)

# autobind: an unbound socket sends from a port it picked
netns(ns_a)
s = sock()
check(s.getsockname()[1] == 0, "unbound socket has a port")
s.sendto(b"auto", dest)
flush(s)
sport = s.getsockname()[1]
check(sport != 0, "autobind: still port 0 after sendto")
data, src = r.recvfrom(100)
check(data == b"auto", "autobind message %r" % data)
check(src[0] == other and src[1] == sport, "recvfrom names %s, want %s port %d" % (src, other, sport))

# MSG_DONTWAIT on an empty queue: EAGAIN
check(errno_of(lambda: r.recv(100, socket.MSG_DONTWAIT)) == errno.EAGAIN, "MSG_DONTWAIT: no EAGAIN")

# poll: POLLOUT always, POLLIN only with a message
p = select.poll()
p.register(r, select.POLLIN | select.POLLOUT)
ev = dict(p.poll(0)).get(r.fileno(), 0)
check(ev & select.POLLOUT and not ev & select.POLLIN, "poll on empty: %#x" % ev)

# connect: the default destination
s.connect(dest)
check(s.getpeername()[:2] == dest, "getpeername %s" % (s.getpeername(),))
s.send(b"x" * 100)
s.send(b"second")
flush(s)
ev = dict(p.poll(2000)).get(r.fileno(), 0)
check(ev & select.POLLIN, "poll after a message: %#x" % ev)

# MSG_PEEK leaves the message queued
check(r.recv(1000, socket.MSG_PEEK) == b"x" * 100, "MSG_PEEK")
# MSG_TRUNC as input: the message's real length; the message is consumed
n = r.recv_into(bytearray(10), 10, socket.MSG_TRUNC)
check(n == 100, "MSG_TRUNC in: %d, want 100" % n)
check(r.recv(1000) == b"second", "the message after a MSG_TRUNC read")

# MSG_TRUNC as output: a short buffer is truncated and flagged
s.send(b"y" * 50)
flush(s)
data, anc, flags, _ = r.recvmsg(20)
check(data == b"y" * 20 and flags & socket.MSG_TRUNC, "truncated read: %d octets, flags %#x" % (len(data), flags))
check(errno_of(lambda: r.recv(100, socket.MSG_DONTWAIT)) == errno.EAGAIN, "rest of a truncated message kept")

# an explicit address wins over the connected one
s.sendto(b"elsewhere", (me, r2.getsockname()[1]))
flush(s)
r2.settimeout(5)
check(r2.recv(100) == b"elsewhere", "sendto on a connected socket")

# connect(AF_UNSPEC) undoes it
unspec = struct.pack("HH12x", socket.AF_UNSPEC, 0)
check(libc.connect(s.fileno(), unspec, len(unspec)) == 0, "connect(AF_UNSPEC): errno %d" % ctypes.get_errno())
check(errno_of(lambda: s.send(b"z")) == errno.EDESTADDRREQ, "send after AF_UNSPEC: no EDESTADDRREQ")
check(errno_of(s.getpeername) == errno.ENOTCONN, "getpeername after AF_UNSPEC")

# SO_RCVTIMEO: EAGAIN after the timeout
r.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("ll", 0, 300000))
t = time.monotonic()
e = errno_of(lambda: r.recv(100))
dt = time.monotonic() - t
check(e == errno.EAGAIN and 0.25 <= dt < 3, "SO_RCVTIMEO: errno %d after %.2f s" % (e, dt))
r.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("ll", 0, 0))

# A full send buffer: MSG_DONTWAIT gives EAGAIN and POLLOUT is off; when
# the messages fail (nobody listens; 1 try of 300 ms each) the buffer
# drains and POLLOUT comes back.
w = sock()
w.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
w.setsockopt(SOL_UDPCP, TX_TIMEOUT, 300)
w.setsockopt(SOL_UDPCP, MAXTRY, 1)
queued = 0
for k in range(50):
    try:
        w.sendto(b"w" * 3000, socket.MSG_DONTWAIT, (me, 9))
        queued += 1
    except BlockingIOError:
        break
check(1 <= queued < 50, "full send buffer: %d messages queued without EAGAIN" % queued)
pw = select.poll()
pw.register(w, select.POLLOUT)
ev = dict(pw.poll(0)).get(w.fileno(), 0)
check(not ev & select.POLLOUT, "POLLOUT with a full send buffer: %#x" % ev)
t = time.monotonic()
end = t + queued * 0.6 + 3
failures = 0
while time.monotonic() < end:
    ev = dict(pw.poll(int((end - time.monotonic()) * 1000) + 1)).get(w.fileno(), 0)
    if ev & select.POLLOUT:
        break
    while ev & select.POLLERR:        # the failures, each reported
        try:
            w.recvmsg(1, 512, socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
            failures += 1
        except BlockingIOError:
            break
check(ev & select.POLLOUT, "no POLLOUT after the queued messages failed (%.1f s, %d failures)" % (time.monotonic() - t, failures))
check(failures >= 1, "POLLOUT came back with no message failed")
w.close()

# PKTINFO: the local address and interface the message came to
if af == socket.AF_INET:
    r.setsockopt(socket.IPPROTO_IP, IP_PKTINFO, 1)
else:
    r.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_RECVPKTINFO, 1)
s.sendto(b"info", dest)
flush(s)
data, anc, flags, src = r.recvmsg(100, 256)
check(data == b"info", "pktinfo message")
got = None
for level, typ, val in anc:
    if level == socket.IPPROTO_IP and typ == IP_PKTINFO:
        ifindex, spec, addr = struct.unpack("I4s4s", val)
        got = (socket.inet_ntop(socket.AF_INET, addr), ifindex)
    if level == socket.IPPROTO_IPV6 and typ == socket.IPV6_PKTINFO:
        addr, ifindex = struct.unpack("16sI", val)
        got = (socket.inet_ntop(socket.AF_INET6, addr), ifindex)
check(got == (me, idx), "pktinfo %s, want %s" % (got, (me, idx)))
# IPv6 link-local: the scope ID picks the interface both ways.
if fam == "v6":
    def linklocal(ns, dev):
        netns(ns)
        for line in open("/proc/net/if_inet6"):
            f = line.split()
            if f[5] == dev and f[0].startswith("fe80"):
                return socket.inet_ntop(socket.AF_INET6, bytes.fromhex(f[0])), int(f[1], 16)
        sys.exit("no link-local address on %s" % dev)
    ll_b, idx_b = linklocal(ns_b, ifname)
    ll_a, idx_a = linklocal(ns_a, if_a)
    netns(ns_b)
    rl = sock()
    rl.bind(("::", 0))
    netns(ns_a)
    sl = sock()
    sl.sendto(b"link-local", (ll_b, rl.getsockname()[1], 0, idx_a))
    flush(sl)
    rl.settimeout(5)
    data, src = rl.recvfrom(100)
    check(data == b"link-local", "link-local message %r" % data)
    check(src[0] == ll_a and src[3] == idx_b, "link-local source %s, want %s scope %d" % (src, ll_a, idx_b))
    # a V6ONLY socket cannot reach an IPv4 peer through ::ffff:a.b.c.d
    check(errno_of(lambda: sl.sendto(b"v4", ("::ffff:192.0.2.2", 9))) == errno.ENETUNREACH,
          "V6ONLY socket to a mapped address: no ENETUNREACH")
    # the ack came back: nothing pending, nothing failed
    v = info(sl)
    check(v["tx_pending"] == 0 and v["tx_msgs"] == 1 and v["tx_timeout"] == 0,
          "link-local sender: %s" % v)

print("%s: %d checks ok" % (fam, checks))
