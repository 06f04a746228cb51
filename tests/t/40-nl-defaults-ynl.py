#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""40-nl-defaults-ynl.py: tests/t/40-nl-defaults.sh's out-of-range defaults-set
requests through the ynl library, each parameter at both ends of its range,
and two with a good attribute beside a bad one.  Prints per request what
the kernel answered: errno, extack message, attribute and policy range.
"""
import errno
import os

from lib import YnlFamily, NlError

ynl = YnlFamily(os.environ["SPEC"], "")
def try_set(name, req):
    try:
        ynl.do("defaults-set", {"defaults": req})
        print(f"{name}: accepted")
    except NlError as e:
        x = e.nl_msg.extack or {}
        p = x.get("policy", {})
        print(f"{name}: {errno.errorcode[e.error]} {x.get('msg')} at {x.get('bad-attr')}"
              f" [{p.get('min-value', 0)}-{p.get('max-value')}]")
for attr, vals in [("transfer-mode", [3]), ("checksum", [2]),
                   ("tx-timeout", [0, 60001]), ("rx-timeout", [0, 60001]),
                   ("max-tries", [0, 11]), ("outstanding-acks", [0])]:
    for v in vals:
        try_set(f"{attr}={v}", {"params": {attr: v}})
for attr, vals in [("max-peers", [0, 1000001]), ("peer-expiry", [999, 86400001])]:
    for v in vals:
        try_set(f"{attr}={v}", {attr: v})
# One bad attribute: the good one beside it is not applied either.
try_set("max-peers=7 with max-tries=11", {"max-peers": 7, "params": {"max-tries": 11}})
try_set("max-peers=7 with mode 3", {"max-peers": 7, "params": {"transfer-mode": 3, "max-tries": 2}})
