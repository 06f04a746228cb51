#!/bin/bash
# ... which run-tests.sh must have removed before the next test.
. "$(dirname "$0")/../../lib/common.sh"
assert_eq "namespaces left" "" "$(ip netns list)"
assert_eq "processes left" 0 "$(ps -eo args= | grep -c '^sleep 1001$' || true)"
