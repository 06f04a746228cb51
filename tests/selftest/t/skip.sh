#!/bin/bash
# Self-test: exit 77 is a skip.
. "$(dirname "$0")/../../lib/common.sh"
skip "deliberately skipped"
