#!/bin/bash
# Self-test: a test that outlives its timeout fails.
# timeout: 3
. "$(dirname "$0")/../../lib/common.sh"
sleep 1000
