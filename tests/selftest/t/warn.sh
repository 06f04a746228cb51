#!/bin/bash
# Self-test: a test during which the kernel WARNs fails, although it exits 0.
. "$(dirname "$0")/../../lib/common.sh"
insmod "$UDPCP_SELFTEST_MODS/selftest_warn.ko"
rmmod selftest_warn
