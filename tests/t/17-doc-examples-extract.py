#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""17-doc-examples-extract.py FILE: tests/t/17-doc-examples.sh's extraction of
the commands a .rst file shows (the rule is in the test's header): one
record per line, tab-separated: LINE KIND TEXT, KIND being run, shown,
socket or note; TEXT on one line (continuations joined).
"""
import re
import sys

lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
opener = re.compile(r"^\s*\.\. (code-block|code|sourcecode)::")
def indent(s):
    return len(s) - len(s.lstrip(" "))
def out(n, kind, text):
    print(f"{n}\t{kind}\t{text}")
i = 0
while i < len(lines):
    line = lines[i]
    m = re.match(r"^\s*\.\. doc-test:\s*(.*)$", line)
    if m:
        out(i + 1, "socket", m.group(1).strip())
    if not (line.rstrip().endswith("::") or opener.match(line)):
        i += 1
        continue
    base = indent(line)
    i += 1
    if opener.match(line):
        # the directive's options, then the body
        while i < len(lines) and lines[i].strip() and indent(lines[i]) > base \
                and lines[i].strip().startswith(":"):
            i += 1
    while i < len(lines) and (not lines[i].strip() or indent(lines[i]) > base):
        text = lines[i].strip()
        start = i + 1
        if text.startswith("$ "):
            cmd = text[2:]
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd[:-1].rstrip() + " " + lines[i].strip()
            word = cmd.split()[0] if cmd.split() else ""
            run = word == "udpcpctl" or word.endswith("cli.py")
            out(start, "run" if run else "shown", cmd)
        elif re.match(r"^# (udpcpctl|\S*cli\.py)\b", text):
            out(start, "note", text[2:])
        i += 1
