#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make patches: the module as a git format-patch series against the newest
# installed linux-source-6.12 (a cover letter and five patches: uapi and
# netlink spec, the protocol, the Kconfig/Makefile hook, the documentation,
# the selftests), written into build/patches (PATCHES_OUT= elsewhere).
#
# The tree comes from scripts/series-tree.sh (unpacked once under
# $UDPCP_CACHE); scripts/patches.py does the transforms (compat.h resolved
# for the tree's version, Kbuild as an in-tree Makefile, the documents as
# one) and the commits.  The author and sign-off are the last commit's
# author's, or UDPCP_PATCH_AUTHOR="Name <email>".
# tests/host/patches.sh applies, builds and checkpatches what this writes.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${PATCHES_OUT:-build/patches}
tree=$(scripts/series-tree.sh)
base=$(git -C "$tree" log -1 --format=%s base)
python3 scripts/patches.py --repo . --tree "$tree" --out "$out" \
	--base-name "$base" ${UDPCP_PATCH_AUTHOR:+--author "$UDPCP_PATCH_AUTHOR"}
echo "patches: series against $base in $out:"
ls "$out" | sed 's/^/  /'
