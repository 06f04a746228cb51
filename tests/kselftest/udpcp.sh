#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# UDPCP (OBSAI RP1 reliable messages over UDP): runs ./udpcp, the data
# path, socket option and netlink checks, in a network namespace of its
# own with only the loopback device up.

source lib.sh

modprobe -q udpcp 2>/dev/null
if ! grep -q '^UDPCP ' /proc/net/protocols; then
	echo "SKIP: UDPCP not available (CONFIG_UDPCP)"
	exit "$ksft_skip"
fi

setup_ns NS || exit "$ksft_skip"
trap 'cleanup_ns "$NS"' EXIT
ip -n "$NS" link set lo up

ip netns exec "$NS" ./udpcp
