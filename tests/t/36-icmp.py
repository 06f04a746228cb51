#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""36-icmp.py FAM NS_A NS_B A4 B4 A6 B6 I: tests/t/36-icmp.sh's checks for
one family (v4, v6, mapped; I its index: ports differ per family).

A's sockets send to B (a router to hosts that never answer, a blackhole
and a net it has no route to); prints a line per step and "ok" at the end,
exits with the reason at the first thing that is not as it should be.
"""
import errno
import json
import os
import select
import socket
import struct
import subprocess
import sys
import time

from ksock import SOL_UDPCP, TX_TIMEOUT, MAXTRY, setns, udpcp_socket, info, family, wildcard

fam, ns_a, ns_b, a4, b4, a6, b6, i = sys.argv[1:]
i = int(i)
U = os.environ["REPO"] + "/udpcpctl/udpcpctl"
IP_RECVERR, IPV6_RECVERR, SO_EE_ORIGIN_LOCAL = 11, 25, 1
SCALE = float(os.environ.get("UDPCP_TIMEOUT_SCALE", "1"))
af = family(fam)
v4 = fam != "v6"
pre = "::ffff:" if fam == "mapped" else ""
me, b = (a4, b4) if v4 else (a6, b6)
dst = pre + b
host_unreach = pre + ("198.51.100.2" if v4 else "2001:db8:100::2")
net_unreach = pre + ("203.0.113.2" if v4 else "2001:db8:300::2")
hole = "198.51.200.2" if v4 else "2001:db8:200::2"
sport = 7000 + 10 * i

def fail(msg):
    sys.exit("%s: %s" % (fam, msg))

def sock(port, ns, tries=3, timeout=300):
    setns(ns)
    s = udpcp_socket(fam)
    s.bind((wildcard(af), port))
    s.setsockopt(SOL_UDPCP, TX_TIMEOUT, timeout)
    s.setsockopt(SOL_UDPCP, MAXTRY, tries)
    s.setsockopt(socket.IPPROTO_IP, IP_RECVERR, 1)
    if af == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, IPV6_RECVERR, 1)
    setns(ns_a)
    return s

def peer(lport, rport):
    """The peer of local port lport to rport, from udpcpctl -j (or {})."""
    out = subprocess.run([U, "-n", ns_a, "-j", "peer"], check=True,
                         capture_output=True, text=True).stdout
    for p in json.loads(out):
        if p.get("local_port") == lport and p.get("remote_port") == rport:
            return p
    return {}

def errq(s, wait_s):
    """The next sock_extended_err: (errno, origin, id, len, offender) or None."""
    p = select.poll()
    p.register(s, select.POLLIN)
    if not p.poll(int(wait_s * SCALE * 1000)):
        return None
    try:
        _, anc, _, name = s.recvmsg(100, 512, socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return None
    for level, typ, val in anc:
        if (level, typ) in ((socket.IPPROTO_IP, IP_RECVERR), (socket.IPPROTO_IPV6, IPV6_RECVERR)):
            e = struct.unpack_from("IBBBBII", val)
            return e[0], e[1], e[5], e[6], name[:2]
    fail("no IP_RECVERR cmsg in %s" % anc)

def expect_fail(s, to, dport, msg, want_id, want, what):
    t0 = time.monotonic()
    s.sendto(msg, (to, dport))
    e = errq(s, 10)
    if e is None:
        fail("%s: no error after %.1f s" % (what, time.monotonic() - t0))
    got = (errno.errorcode.get(e[0], e[0]), e[1], e[2], e[3], e[4])
    exp = (errno.errorcode[want], SO_EE_ORIGIN_LOCAL, want_id, len(msg), (to, dport))
    if got != exp:
        fail("%s: error queue %s, want %s" % (what, got, exp))
    print("%s: failed with %s after %.2f s" % (what, got[0], time.monotonic() - t0))

# 1. A closed port on B: ECONNREFUSED, 3 errors counted, shown.
dead = 6000 + i
s = sock(sport, ns_a)
expect_fail(s, dst, dead, b"c" * 100, 1, errno.ECONNREFUSED, "closed port")
p = peer(sport, dead)
if (p.get("icmp_errors"), p.get("icmp_last_errno"), p.get("icmp_last_error")) != \
        (3, errno.ECONNREFUSED, "ECONNREFUSED") or not 0 <= p.get("icmp_last_ms", -1) < 60000:
    fail("peer show -j after the closed port: %s" % p)
text = subprocess.run([U, "-n", ns_a, "peer"], check=True, capture_output=True, text=True).stdout
if " icmp-errors 3 icmp-last ECONNREFUSED icmp-age " not in text or " port %d " % dead not in text:
    fail("peer show text: %r" % text)
print("closed port: peer shows icmp_errors 3, last ECONNREFUSED")

# 2. Unreachable host and net behind B.
expect_fail(s, host_unreach, 5000, b"h" * 10, 1, errno.EHOSTUNREACH, "unreachable host")
expect_fail(s, net_unreach, 5000, b"n" * 10, 1, errno.ENETUNREACH, "unreachable net")
for dest, want in ((host_unreach, "EHOSTUNREACH"), (net_unreach, "ENETUNREACH")):
    out = subprocess.run([U, "-n", ns_a, "-j", "peer"], check=True, capture_output=True, text=True).stdout
    ps = [q for q in json.loads(out) if q.get("local_port") == sport and q.get("remote_port") == 5000
          and q.get("remote_address", "").endswith(dest.replace("::ffff:", ""))]
    if len(ps) != 1 or ps[0].get("icmp_errors", 0) < 1 or ps[0].get("icmp_last_error") != want:
        fail("peer %s: %s, want icmp_last_error %s" % (dest, ps, want))
st = info(s)
if st["tx_timeout"] != 3 or st["tx_msgs"] != 0:
    fail("UDPCP_INFO after three failures: %s" % st)
s.close()

# 3. The receiver starts inside the retry window: delivered once.
port = 6100 + i
# The retry window (6 x 300 ms) stretches with the time limits: the sleep
# before the receiver starts does too.
s = sock(sport + 1, ns_a, tries=6, timeout=int(300 * SCALE))
t0 = time.monotonic()
s.sendto(b"late receiver", (dst, port))
time.sleep(0.6 * SCALE)
before = peer(sport + 1, port).get("icmp_errors", 0)
if before < 1:
    fail("no ICMP error counted before the receiver started: %s" % peer(sport + 1, port))
r = sock(port, ns_b)
r.settimeout(5 * SCALE)
data = r.recv(100)
if data != b"late receiver":
    fail("late receiver got %r" % data)
r.settimeout(1)
try:
    fail("delivered twice: %r" % r.recv(100))
except socket.timeout:
    pass
if errq(s, 0.1) is not None:
    fail("an error queued for the delivered message")
st = info(s)
if st["tx_msgs"] != 1 or st["tx_timeout"] != 0:
    fail("UDPCP_INFO after the late receiver: %s" % st)
print("late receiver: 1 message delivered once after %d ICMP errors, no failure" % before)
# The baseline for the forgeries: a retransmission refused just before the
# receiver bound may have been counted after the read above.
before = peer(sport + 1, port).get("icmp_errors", 0)

# 4. Forged port unreachables that match nothing in flight.
setns(ns_b)
if v4:
    raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
else:
    raw = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
setns(ns_a)

def csum(data):
    if len(data) % 2:
        data += b"\0"
    t = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while t >> 16:
        t = (t & 0xffff) + (t >> 16)
    return ~t & 0xffff

def forge(to, sp, dp, msg_id, sync=False):
    """A port unreachable to A quoting A:sp -> to:dp, a DATA packet msg_id."""
    flags = (1 << 6) | (2 << 3) | 1          # DATA, version 2, S
    udpcp = struct.pack("!IBBBBHH", 0, flags, 0, 1, 0, msg_id, 0 if sync else 10)
    udpcp += b"" if sync else b"x" * 10
    udp = struct.pack("!HHHH", sp, dp, 8 + len(udpcp), 0)
    if v4:
        iph = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp) + len(udpcp), 1, 0x4000, 64, 17, 0,
                          socket.inet_aton(me), socket.inet_aton(to))
        iph = iph[:10] + struct.pack("!H", csum(iph)) + iph[12:]
        body = iph + udp + udpcp
        icmp = struct.pack("!BBHI", 3, 3, 0, 0) + body
        icmp = icmp[:2] + struct.pack("!H", csum(icmp)) + icmp[4:]
        raw.sendto(icmp, (me, 0))
    else:
        ip6 = struct.pack("!IHBB16s16s", 6 << 28, len(udp) + len(udpcp), 17, 64,
                          socket.inet_pton(socket.AF_INET6, me), socket.inet_pton(socket.AF_INET6, to))
        raw.sendto(struct.pack("!BBHI", 1, 4, 0, 0) + ip6 + udp + udpcp, (me, 0))

forge(b, sport + 1, port, 1)                 # the message delivered
forge(b, sport + 1, port, 2)                 # the next, not sent yet
forge(b, sport + 1, port, 0, sync=True)      # a sync: none in flight
forge(b, sport + 1, port + 50, 1)            # another port: no such peer
time.sleep(0.3 * SCALE)
after = peer(sport + 1, port)
if after.get("icmp_errors", 0) != before or after.get("state") != "idle":
    fail("forged errors changed the peer: %d -> %s" % (before, after))
if errq(s, 0.1) is not None:
    fail("forged errors queued an error")
s.sendto(b"after forgery", (dst, port))
r.settimeout(5 * SCALE)
if r.recv(100) != b"after forgery":
    fail("message after the forged errors not delivered")
if errq(s, 0.5) is not None:
    fail("an error queued after the forged errors")
print("forged: 4 errors matching nothing ignored (icmp_errors stays %d), next message delivered" % before)

# The control: a forged error quoting the sync in flight to the blackhole
# (where no genuine error comes from) counts and names the failure.
s2 = sock(sport + 2, ns_a, tries=2, timeout=int(1000 * SCALE))
to = pre + hole
s2.sendto(b"into the hole", (to, 5000))
time.sleep(0.2 * SCALE)
forge(hole, sport + 2, 5000, 7)              # wrong ID: ignored
forge(hole, sport + 2, 5000, 0, sync=True)   # the sync in flight: counted
e = errq(s2, 10)
if e is None or e[0] != errno.ECONNREFUSED:
    fail("blackhole with a forged error for its sync: %s" % (e,))
p = peer(sport + 2, 5000)
if p.get("icmp_errors") != 1:
    fail("blackhole peer: %s, want icmp_errors 1" % p)
print("control: the forged error for the sync in flight counted once, message failed with ECONNREFUSED")
print("ok")
