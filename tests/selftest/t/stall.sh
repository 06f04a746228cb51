#!/bin/bash
# Self-test: a guest that never finishes is stopped by the host's limit.
# timeout: 600
. "$(dirname "$0")/../../lib/common.sh"
sleep 1000
