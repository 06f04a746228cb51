#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Render the netlink spec with the kernel's ynl-gen-c.py (linux-source-6.12's
# tools/net/ynl, unpacked into $UDPCP_CACHE/ynl) into the files it owns:
#   uapi/linux/udpcp_nl.h      the family's enums and limits
#   module/netlink-gen.h       the request policies and the op table
#   module/netlink-gen.c
# usage: scripts/ynl-gen.sh           write them
#        scripts/ynl-gen.sh --check   fail if what is checked in differs
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# shellcheck source=../tests/lib/ynl.sh
. tests/lib/ynl.sh

ynl_setup

# ynl-gen-c names the spec by its path below the kernel tree (the directory
# holding MAINTAINERS): lay one out, so that the files say what they would
# say in a kernel tree.
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/Documentation/netlink/specs" "$tree/out"
touch "$tree/MAINTAINERS"
cp "$YNL_DIR"/Documentation/netlink/*.yaml "$tree/Documentation/netlink/"
cp "$YNL_SPEC" "$tree/Documentation/netlink/specs/udpcp.yaml"

gen() {
	timeout 120 python3 "$repo/scripts/ynl-gen.py" "$YNL_DIR/tools/net/ynl" \
		--spec "$tree/Documentation/netlink/specs/udpcp.yaml" \
		--mode "$1" "$2" -o "$tree/out/$3" >/dev/null
}
gen uapi --header udpcp_nl.h
gen kernel --header netlink-gen.h
gen kernel --source netlink-gen.c

status=0
for f in uapi/linux/udpcp_nl.h module/netlink-gen.h module/netlink-gen.c; do
	new=$tree/out/$(basename "$f")
	if [ "${1:-}" = --check ]; then
		if ! diff -u "$f" "$new"; then
			echo "ynl-gen: $f differs from what the spec renders;" \
				"run scripts/ynl-gen.sh"
			status=1
		fi
	elif ! cmp -s "$new" "$f"; then
		cp "$new" "$f"
		echo "ynl-gen: wrote $f"
	fi
done
exit $status
