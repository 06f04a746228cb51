#!/bin/bash
# Self-test: a passing test passes.
. "$(dirname "$0")/../../lib/common.sh"
assert_eq "arithmetic" 4 $((2 + 2))
expect_fail false
