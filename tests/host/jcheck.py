#!/usr/bin/env python3
"""Assert on a tool's JSON summary: jcheck.py EXPR < output.

The last line of stdin that parses as a JSON object is bound to `j`; EXPR is
a Python expression over it.  Exit 0 if it holds, 1 (printing the JSON) if
not or if there is no JSON line.
"""
import json
import sys

j = None
for line in sys.stdin:
    line = line.strip()
    if line.startswith("{"):
        try:
            j = json.loads(line)
        except ValueError:
            pass
if j is None:
    print("  no JSON summary", file=sys.stderr)
    sys.exit(1)
if not eval(sys.argv[1], {}, {"j": j}):
    print("  failed: %s\n  json: %s" % (sys.argv[1], json.dumps(j)),
          file=sys.stderr)
    sys.exit(1)
