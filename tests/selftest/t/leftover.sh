#!/bin/bash
# Self-test, with clean.sh: leaves a namespace with a process in it behind
# (bypassing the topology helpers' own teardown) ...
. "$(dirname "$0")/../../lib/common.sh"
ip netns add selftest-leftover
# setsid: out of reach of the process-group kill, only the netns cleanup finds it.
setsid ip netns exec selftest-leftover sleep 1001 &
disown
