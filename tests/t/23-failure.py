#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""23-failure.py FAM DST PORT DEAD SPORT NS_A NS_B IF_A: tests/t/23-failure.sh's checks
for one family (v4, v6, mapped): messages from A's port SPORT to DST fail
with nobody at DEAD, with B's receiver at PORT gone, and with A's link IF_A
down; each failure on time, on the error queue, counted.  Prints what it
saw, or exits with what is wrong.
"""
import errno
import select
import socket
import struct
import subprocess
import sys
import time

from ksock import SOL_UDPCP, TX_TIMEOUT, MAXTRY, setns as netns, udpcp_socket, info, flush, family, wildcard

fam, dst, port, dead, sport, ns_a, ns_b, if_a = sys.argv[1:]
port, dead, sport = int(port), int(dead), int(sport)

IP_RECVERR, IPV6_RECVERR, SO_EE_ORIGIN_LOCAL = 11, 25, 1
af = family(fam)
any_addr = wildcard(af)
EXPECT, SLACK = 0.9, 2.5

def sock(bind_port):
    s = udpcp_socket(fam)
    s.bind((any_addr, bind_port))
    return s

def receiver():
    netns(ns_b)
    r = sock(port)
    r.settimeout(10)
    return r

def fail(msg):
    sys.exit("%s: %s" % (fam, msg))

def expect_failure(s, msg, want_id, dport, what, want_errno):
    """Send msg, wait for POLLERR, check the time and the error queue."""
    p = select.poll()
    p.register(s, select.POLLIN)
    t0 = time.monotonic()
    s.sendto(msg, (dst, dport))
    ev = p.poll(int(SLACK * 1000) + 2000)
    dt = time.monotonic() - t0
    if not ev or not ev[0][1] & select.POLLERR:
        fail("%s: no POLLERR after %.2f s (%s)" % (what, dt, ev))
    if not EXPECT - 0.05 <= dt <= SLACK:
        fail("%s: failed after %.2f s, want %.1f..%.1f" % (what, dt, EXPECT, SLACK))
    data, anc, flags, name = s.recvmsg(100, 512, socket.MSG_ERRQUEUE)
    ee = None
    for level, typ, val in anc:
        if (level, typ) in ((socket.IPPROTO_IP, IP_RECVERR), (socket.IPPROTO_IPV6, IPV6_RECVERR)):
            ee = struct.unpack_from("IBBBBII", val)
    if ee is None:
        fail("%s: no IP_RECVERR/IPV6_RECVERR cmsg in %s" % (what, anc))
    e_errno, origin, _, _, _, e_info, e_data = ee
    if (e_errno, origin, e_info, e_data) != (want_errno, SO_EE_ORIGIN_LOCAL, want_id, len(msg)):
        fail("%s: error queue says errno %d origin %d id %d len %d, want %d %d %d %d" %
             (what, e_errno, origin, e_info, e_data, want_errno, SO_EE_ORIGIN_LOCAL, want_id, len(msg)))
    if name[0] != dst or name[1] != dport:
        fail("%s: offender %s, want %s port %d" % (what, name, dst, dport))
    try:
        s.recvmsg(100, 512, socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
        fail("%s: a second error queued" % what)
    except BlockingIOError:
        pass
    ev = p.poll(0)
    if ev and ev[0][1] & select.POLLERR:
        fail("%s: POLLERR still set after the error queue was read" % what)
    print("%s: failed after %.2f s, id %d, %s" % (what, dt, want_id, errno.errorcode[e_errno]))

r = receiver()
netns(ns_a)
s = sock(sport)
s.setsockopt(SOL_UDPCP, TX_TIMEOUT, 300)
s.setsockopt(SOL_UDPCP, MAXTRY, 3)
if af == socket.AF_INET6:
    s.setsockopt(socket.IPPROTO_IPV6, IPV6_RECVERR, 1)
s.setsockopt(socket.IPPROTO_IP, IP_RECVERR, 1)

# Nobody at the destination at all: the sync fails, the message with it.
expect_failure(s, b"n" * 33, 1, dead, "no receiver (sync)", errno.ECONNREFUSED)

# A delivered message, then the receiver goes: the data itself fails.
s.sendto(b"m0", (dst, port))
if r.recv(100) != b"m0":
    fail("m0 not delivered")
r.close()
expect_failure(s, b"m1" * 1000, 2, port, "receiver gone", errno.ECONNREFUSED)
if info(s)["tx_timeout"] != 2:
    fail("UDPCP_INFO tx_timeout %s, want 2" % info(s))

# The receiver is back: the next message is delivered (after a sync).
r = receiver()
netns(ns_a)
s.sendto(b"m2", (dst, port))
if r.recv(100) != b"m2":
    fail("m2 not delivered after the receiver came back")

# The sender's link goes down: the message fails; after link up the next
# one is delivered.
subprocess.run(["ip", "-n", ns_a, "link", "set", if_a, "down"], check=True)
expect_failure(s, b"m3" * 3000, 4, port, "link down", errno.ETIMEDOUT)
subprocess.run(["ip", "-n", ns_a, "link", "set", if_a, "up"], check=True)
for _ in range(100):
    if b"state UP" in subprocess.run(["ip", "-n", ns_a, "link", "show", if_a], capture_output=True).stdout:
        break
    time.sleep(0.1)
s.sendto(b"m4", (dst, port))
if r.recv(100) != b"m4":
    fail("m4 not delivered after link up")
flush(s, 10000)     # its ack may still be on the way back
st = info(s)
if st["tx_timeout"] != 3 or st["tx_msgs"] != 3:
    fail("UDPCP_INFO %s, want tx_timeout 3, tx_msgs 3" % st)
print("%s: ok" % fam)
