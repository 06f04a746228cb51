#!/bin/bash
# Self-test: a kernel crash ends the guest, and the run fails.
. "$(dirname "$0")/../../lib/common.sh"
insmod "$UDPCP_SELFTEST_MODS/selftest_bug.ko"
echo "still alive after BUG()"
