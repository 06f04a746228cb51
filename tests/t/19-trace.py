#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""19-trace.py NS_A NS_B IF_A IF_B B4 B6 TRACEFS UDPCPCTL: tests/t/19-trace.sh's checks, the
tracepoints already enabled: crafted drops, lossy ack-mode traffic and a
failing message, each against the trace.  Prints the events it shows, or
exits with what is wrong.
"""
import errno
import json
import re
import select
import socket
import struct
import subprocess
import sys

import craft
from udpcp import pattern
from ksock import (SOL_UDPCP, TX_TIMEOUT, MAXTRY, TRANSFER_MODE, ACK,
                   SO_RCVBUFFORCE, setns, udpcp_socket, info, flush)

ns_a, ns_b, if_a, if_b, b4, b6, tracefs, udpcpctl = sys.argv[1:]

N, SIZES = 60, (100, 1500, 3000)
CRAFT_PORT, RX_PORT, TX_PORT, DEAD_PORT, FAIL_PORT = 6001, 6002, 7002, 6099, 7099
IPV6_RECVERR = 25

def fail(msg):
    sys.exit(msg)

# --- drops provoked on purpose, on a clean link --------------------------
setns(ns_b)
crafted = udpcp_socket("v4")
crafted.bind(("0.0.0.0", CRAFT_PORT))
setns(ns_a)
fam, dest = craft.sockaddr(b4, CRAFT_PORT)
for name in ("bad-checksum", "type3", "dup-message"):
    craft.run_case(name, dest, fam, 0.2)

# --- ack-mode traffic on a lossy link ------------------------------------
for ns, dev in ((ns_a, if_a), (ns_b, if_b)):
    subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "replace", "dev",
                    dev, "root", "netem", "loss", "20%"], check=True)
setns(ns_b)
r = udpcp_socket("v4")
r.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 4 << 20)
r.bind(("0.0.0.0", RX_PORT))
setns(ns_a)
s = udpcp_socket("v4")
s.bind(("0.0.0.0", TX_PORT))
s.setsockopt(SOL_UDPCP, TRANSFER_MODE, ACK)
s.setsockopt(SOL_UDPCP, TX_TIMEOUT, 50)
s.setsockopt(SOL_UDPCP, MAXTRY, 10)
f = udpcp_socket("v6")
f.bind(("::", FAIL_PORT))
f.setsockopt(SOL_UDPCP, TX_TIMEOUT, 100)
f.setsockopt(SOL_UDPCP, MAXTRY, 3)
f.setsockopt(socket.IPPROTO_IPV6, IPV6_RECVERR, 1)

f.sendto(b"nobody listens", (b6, DEAD_PORT))
for seq in range(N):
    s.sendto(pattern(seq, SIZES[seq % len(SIZES)]), (b4, RX_PORT))
try:
    flush(s, 30000)
except OSError:
    pass    # a failed message: its ID is missing from the delivered ones
tx = info(s)
if tx["tx_pending"]:
    fail("the sender still has messages pending: %s" % tx)
received = []
r.setblocking(False)
while True:
    try:
        data = r.recv(65536)
    except BlockingIOError:
        break
    seq = struct.unpack_from("!I", data)[0]
    if data != pattern(seq, len(data)):
        fail("message %d arrived damaged" % seq)
    received.append(seq)
if not select.select([f], [], [], 5)[0]:
    fail("the message to a dead port did not fail")
_, anc, _, _ = f.recvmsg(100, 512, socket.MSG_ERRQUEUE)
ee_errno = [struct.unpack_from("I", v)[0] for lvl, typ, v in anc
            if (lvl, typ) == (socket.IPPROTO_IPV6, IPV6_RECVERR)]
if not ee_errno:
    fail("no IPV6_RECVERR in %s" % anc)
cause = errno.errorcode[ee_errno[0]]
cookies = {e["local_port"]: e["cookie"] for e in json.loads(subprocess.run(
    ["ip", "netns", "exec", ns_a, udpcpctl, "-j", "sock", "show"],
    check=True, capture_output=True, text=True).stdout)}
with open(tracefs + "/tracing_on", "w") as t:
    t.write("0")
with open(tracefs + "/trace") as t:
    lines = [l.rstrip("\n") for l in t if not l.startswith("#")]

# --- the trace against what the sockets say ------------------------------
events = []
for l in lines:
    m = re.search(r" (udpcp_\w+|kfree_skb): (.*)$", l)
    if not m:
        continue
    ev = dict(re.findall(r"(\w+)[=:] ?(\S+)", m.group(2)))
    ev["event"], ev["line"] = m.group(1), l.strip()
    events.append(ev)

def select_ev(name, **kw):
    return [e for e in events if e["event"] == name and
            all(e.get(k) == str(v) for k, v in kw.items())]

errors = []
def check(what, ok):
    if not ok:
        errors.append(what)

# Drops, each with its reason, and the checksum one in skb:kfree_skb.
for reason, case_id in (("checksum", 1), ("malformed", 1), ("duplicate", 9)):
    d = select_ev("udpcp_drop", lport=CRAFT_PORT, reason=reason, id=case_id)
    check("one udpcp_drop reason=%s id=%d at port %d, got %d" %
          (reason, case_id, CRAFT_PORT, len(d)), len(d) == 1)
# The next kfree_skb of that skb (addresses are reused, so the next one).
csum = select_ev("udpcp_drop", lport=CRAFT_PORT, reason="checksum")
freed = []
if csum:
    at = events.index(csum[0])
    freed = [e for e in events[at:] if e["event"] == "kfree_skb" and
             e.get("skbaddr") == csum[0]["skbaddr"]][:1]
    check("skb:kfree_skb after the checksum drop, with reason SKB_CSUM: %s" %
          freed, freed and freed[0].get("reason") == "SKB_CSUM")

# Delivered: exactly the messages received, once each (IDs 1.. in order).
dlv = select_ev("udpcp_msg_deliver", lport=RX_PORT, rport=TX_PORT)
ids = [int(e["id"]) for e in dlv]
check("deliver events %d, messages received %d" % (len(dlv), len(received)),
      len(dlv) == len(received))
check("deliver event IDs %s are not the received messages' %s" %
      (ids, [q + 1 for q in received]), ids == [q + 1 for q in received])
acked = select_ev("udpcp_msg_acked", lport=TX_PORT)
check("acked events %d, tx_msgs %d" % (len(acked), tx["tx_msgs"]),
      len(acked) == tx["tx_msgs"])
check("sender's cookie: udpcpctl says %s" % cookies.get(TX_PORT),
      all(e["cookie"] == str(cookies.get(TX_PORT)) for e in acked))

# Retransmissions: the events add up to the counter.
rtx = select_ev("udpcp_frag_retransmit", lport=TX_PORT)
sync_rtx = [e for e in select_ev("udpcp_sync_send", lport=TX_PORT)
            if int(e["try"]) > 1]
check("retransmit events %d + %d sync, tx_retries %d" %
      (len(rtx), len(sync_rtx), tx["tx_retries"]),
      len(rtx) + len(sync_rtx) == tx["tx_retries"] and tx["tx_retries"] > 0)

# The failed message names its cause, as the error queue does.
fl = select_ev("udpcp_msg_fail", lport=FAIL_PORT, rport=DEAD_PORT)
check("one udpcp_msg_fail for the dead port, got %d" % len(fl), len(fl) == 1)
check("failure cause %s, error queue %s" % (fl and fl[0].get("cause"), cause),
      len(fl) == 1 and fl[0].get("cause") == cause)
check("udpcp_peer_create for the dead peer",
      len(select_ev("udpcp_peer_create", lport=FAIL_PORT, rport=DEAD_PORT)) == 1)

print("sender %s; %d received; %d events" % (tx, len(received), len(events)))
print("-- the failed message:")
for e in events:
    if e.get("lport") == str(FAIL_PORT) and e["event"] != "kfree_skb":
        print(e["line"])
retried = rtx[0]["id"] if rtx else None
print("-- a retransmitted message (id %s):" % retried)
for e in events:
    if e.get("lport") in (str(TX_PORT), str(RX_PORT)) and e.get("id") == retried:
        print(e["line"])
print("-- the checksum drop:")
for e in csum[:1] + freed:
    print(e["line"])
if errors:
    fail("trace:\n  " + "\n  ".join(errors))
