#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tests/t/46-nl-dump.sh's raw netlink, in the namespace it runs in:

    46-nl-dump.py add N              the N peers, in batches; "N added"
    46-nl-dump.py verify N FILE      udpcpctl -j peer show's output in FILE
                                     against the N peers and 3 templates
    46-nl-dump.py dump N             the same for a raw dump, 8 KiB rounds
    46-nl-dump.py churn FLAG         other peers and templates added and
                                     removed while FLAG exists (2 rounds at
                                     least); then "churn: R rounds, C changes"
    46-nl-dump.py churn-dumps N DUPS a raw dump and udpcpctl's, each: how
                                     many of the N + 3 are missing; the
                                     entries repeated per dump go to DUPS

The N: 10.0.x.y and 2001:db8:1::x:y by turns, ports 1000 + i % 5000, on
the socket at local port 5000; the templates 192.0.2.2 ports 1 and 2,
2001:db8::2 port 3.
"""
import ipaddress
import json
import os
import random
import subprocess
import sys

from nlraw import CMD_PEER_DEL, CMD_PEER_NEW, Genl, peer


def stable(i):
    a = f"10.0.{i >> 8}.{i & 255}" if i % 2 else f"2001:db8:1::{i >> 8:x}:{i & 255:x}"
    return a, 1000 + i % 5000


def expected(n):
    keys = {(str(ipaddress.ip_address(a)), p, 5000) for a, p in map(stable, range(n))}
    return keys | {("192.0.2.2", 1, None), ("192.0.2.2", 2, None), ("2001:db8::2", 3, None)}


def verify(name, entries, n):
    keys = [(e["remote_address"], e["remote_port"], e.get("local_port")) for e in entries]
    want = expected(n)
    missing = want - set(keys)
    extra = set(keys) - want
    print(f"{name}: {len(keys)} entries, {len(set(keys))} distinct, "
          f"{len(missing)} missing, {len(extra)} unexpected")


def add(n):
    s = Genl()
    errs = s.batch(CMD_PEER_NEW, [peer(a, p, 5000) for a, p in map(stable, range(int(n)))])
    bad = [e for e in errs if e]
    print(f"{len(errs) - len(bad)} added" + (f", {len(bad)} refused: {set(bad)}" if bad else ""))


def verify_json(n, path):
    with open(path) as f:
        verify("udpcpctl -j", json.load(f), int(n))


def dump(n):
    s = Genl(recv_size=8192)
    verify("raw", [dict(zip(("remote_address", "remote_port", "local_port"), k))
                   for k in s.dump_peer_keys()], int(n))


def churn(flag):
    """Other peers (10.1.x.y) added and removed in batches, and templates,
    until told to stop; up to N + 3000 peers in all, past a threshold
    where the table grows."""
    s = Genl()
    rounds = ops = 0
    live = []
    while os.path.exists(flag) or rounds < 2:
        new = [(f"10.1.{(rounds * 7 + k) % 256}.{k % 256}", 2000 + k) for k in range(300)]
        errs = s.batch(CMD_PEER_NEW, [peer(a, p, 5000) for a, p in new], chunk=50)
        live += [x for x, e in zip(new, errs) if e == 0]
        s.request(CMD_PEER_NEW, peer("192.0.2.9", 100 + rounds % 50))
        random.shuffle(live)
        # keep up to 3000 extra peers, remove the rest in random order
        gone, live = live[3000:], live[:3000]
        if rounds % 3 == 2:
            gone, live = gone + live[:1500], live[1500:]
        s.batch(CMD_PEER_DEL, [peer(a, p, 5000) for a, p in gone], chunk=50)
        s.request(CMD_PEER_DEL, peer("192.0.2.9", 100 + rounds % 50))
        ops += len(new) + len(gone) + 2
        rounds += 1
    s.batch(CMD_PEER_DEL, [peer(a, p, 5000) for a, p in live], chunk=50)
    print(f"churn: {rounds} rounds, {ops + len(live)} changes")


def churn_dumps(n, dups_path):
    want = expected(int(n))
    dups = []

    def report(name, keys):
        print(f"{name}: {len(want - set(keys))} of {len(want)} missing")
        dups.append(len(keys) - len(set(keys)))

    for r in range(1, 2):
        report(f"raw {r}", Genl(recv_size=8192).dump_peer_keys())
        out = subprocess.run([os.environ["U"], "-j", "peer", "show"], capture_output=True, text=True)
        if out.returncode:
            print(f"udpcpctl {r}: exit {out.returncode}: {out.stderr.strip()}")
            continue
        report(f"udpcpctl {r}", [(e["remote_address"], e["remote_port"], e.get("local_port"))
                                 for e in json.loads(out.stdout)])
    with open(dups_path, "w") as f:
        f.write(f"# (entries repeated per dump, allowed: {dups})\n")


COMMANDS = {"add": add, "verify": verify_json, "dump": dump, "churn": churn,
            "churn-dumps": churn_dumps}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](*sys.argv[2:])
