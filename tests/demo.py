#!/usr/bin/env python3
"""The demo's messages (tests/demo-guest.sh runs it in the guest).

Usage: demo.py NS_A NS_B A4 B4 A6 B6 UDPCPCTL

Opens UDPCP sockets in two namespaces, sends messages over IPv4, IPv6 and a
dual-stack socket, and says in words what became of each one; while the
sockets are open and their peers known it shows what `udpcpctl sock show`
and `udpcpctl peer show` see.  Then a message to a port nobody listens on,
which fails and is reported on the error queue.  Exits 1 when anything did
not happen as shown (CI runs the demo).
"""

import errno
import os
import select
import socket
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peer"))
import ksock  # noqa: E402

NS_A, NS_B, A4, B4, A6, B6, UDPCPCTL = sys.argv[1:8]
IP_RECVERR = 11  # <linux/in.h>; Python does not name it
MODES = {"ack": ksock.ACK, "single-ack": ksock.SINGLE_ACK, "no-ack": ksock.NOACK}
problems = 0


def problem(text):
    global problems
    problems += 1
    print("  PROBLEM: " + text)


def payload(seq, size):
    """Message `seq` of `size` octets: recognisable, different per message."""
    head = ("message %d " % seq).encode()
    return (head * (size // len(head) + 1))[:size]


def udpcpctl(*args):
    cmd = [UDPCPCTL, "-n", NS_A] + list(args)
    print("$ udpcpctl " + " ".join(cmd[1:]))
    out = subprocess.run(cmd, capture_output=True, text=True)
    text = (out.stdout + out.stderr).rstrip()
    for line in text.splitlines() or ["(nothing)"]:
        print("  " + line)
    if out.returncode:
        problem("udpcpctl exited %d" % out.returncode)
    return text


def transfer(title, fam_tx, fam_rx, bind_rx, send_to, port, mode, sizes, show=False):
    print("\n-- %s: %s mode, messages of %s octets" % (title, mode, ", ".join(map(str, sizes))))
    ksock.setns(NS_B)
    rx = ksock.udpcp_socket(fam_rx)
    rx.bind((bind_rx, port))
    rx.settimeout(20)
    ksock.setns(NS_A)
    tx = ksock.udpcp_socket(fam_tx)
    tx.setsockopt(ksock.SOL_UDPCP, ksock.TRANSFER_MODE, MODES[mode])
    dest = ("::ffff:" + send_to) if fam_tx == "mapped" and ":" not in send_to else send_to
    for seq, size in enumerate(sizes, 1):
        tx.sendto(payload(seq, size), (dest, port))
    ksock.flush(tx, 10000)
    for seq, size in enumerate(sizes, 1):
        try:
            data, src = rx.recvfrom(65536)
        except socket.timeout:
            problem("message %d did not arrive within 20 s" % seq)
            continue
        if data == payload(seq, size):
            how = "acknowledged, " if mode != "no-ack" else ""
            print("  message %d: %d octets from %s port %d, %sdelivered intact"
                  % (seq, len(data), src[0], src[1], how))
        else:
            problem("message %d arrived changed (%d octets)" % (seq, len(data)))
    info = ksock.info(tx)
    print("  sender: %d sent, %d retransmitted, %d failed; round trip %s"
          % (info["tx_msgs"], info["tx_retries"], info["tx_timeout"],
             "%d us" % info["rtt_us"] if info["rtt_us"] else "not measured (no acks)"))
    if info["tx_timeout"]:
        problem("the sender counted %d failures" % info["tx_timeout"])
    if show:
        print("\n  while both sockets are open, udpcpctl in the sender's namespace sees:")
        udpcpctl("sock", "show")
        udpcpctl("peer", "show")
        udpcpctl("-s", "stats", "show")
    tx.close()
    rx.close()


def failure():
    print("\n-- a message to %s port 7000, where nobody listens (max 2 tries, 100 ms apart)" % B4)
    mon = subprocess.Popen(["ip", "netns", "exec", NS_A, UDPCPCTL, "monitor"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    time.sleep(1)
    ksock.setns(NS_A)
    tx = ksock.udpcp_socket("v4")
    tx.setsockopt(socket.IPPROTO_IP, IP_RECVERR, 1)
    tx.setsockopt(ksock.SOL_UDPCP, ksock.MAXTRY, 2)
    tx.setsockopt(ksock.SOL_UDPCP, ksock.TX_TIMEOUT, 100)
    tx.bind((A4, 6000))
    tx.sendto(payload(1, 100), (B4, 7000))
    poll = select.poll()
    poll.register(tx, select.POLLERR)
    if not poll.poll(10000):
        problem("no failure reported within 10 s")
    else:
        _, anc, _, addr = tx.recvmsg(100, 512, socket.MSG_ERRQUEUE)
        for level, ctype, data in anc:
            if level == socket.IPPROTO_IP and ctype == IP_RECVERR:
                ee_errno, origin, _, _, _, ee_info, ee_data = struct.unpack("=IBBBBII", data[:16])
                print("  the application is told: message %d (%d octets) to %s port %d failed: %s"
                      % (ee_info, ee_data, addr[0], addr[1], os.strerror(ee_errno)))
                if ee_errno not in (errno.ETIMEDOUT, errno.ECONNREFUSED) or ee_info != 1:
                    problem("unexpected error report: errno %d, message %d" % (ee_errno, ee_info))
    tx.close()
    time.sleep(1)
    mon.terminate()
    out = mon.communicate()[0]
    print("  'udpcpctl monitor' saw:")
    for line in out.splitlines():
        print("    " + line)
    if "msg-failed" not in out:
        problem("the monitor did not see the failure")


transfer("IPv4", "v4", "v4", B4, B4, 5000, "ack", [100, 5000, 65487], show=True)
transfer("IPv6", "v6", "v6", B6, B6, 5001, "single-ack", [100, 5000, 65487])
transfer("dual stack: an IPv4 sender to an AF_INET6 socket", "v4", "mapped", "::", B4, 5002,
         "no-ack", [64, 1400, 3000])
failure()
print("\n%s" % ("every message went as shown" if not problems else "%d problem(s) above" % problems))
sys.exit(1 if problems else 0)
