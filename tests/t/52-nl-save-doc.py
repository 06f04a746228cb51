#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""52-nl-save-doc.py DOC NS BINDIR: runs each "$ " line of DOC's literal blocks
(Documentation/udpcpctl.rst) with bash in namespace NS, udpcpctl from
BINDIR first on PATH; the lines after it are its stdout, and it must exit
0 with nothing on stderr.  Prints what differs (nothing: all as written).
"""
import os
import subprocess
import sys

doc, ns, bindir = sys.argv[1:4]

cmds, cur = [], None
for line in open(doc):
    line = line.rstrip("\n")
    if line.startswith("    $ "):
        cur = [line[6:], []]
        cmds.append(cur)
    elif cur is not None and line.startswith("    ") and line.strip():
        cur[1].append(line[4:])
    else:
        cur = None
if len(cmds) < 10:
    print(f"only {len(cmds)} commands found")
env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"])
for cmd, want in cmds:
    r = subprocess.run(["ip", "netns", "exec", ns, "bash", "-c", cmd], env=env,
                       capture_output=True, text=True)
    got = r.stdout.rstrip("\n").split("\n") if r.stdout else []
    if r.returncode or got != want or r.stderr:
        print(f"$ {cmd}: exit {r.returncode}\n  stdout {got}\n  expected {want}\n  stderr {r.stderr!r}")
