#!/bin/bash
# Prints the release of the newest installed Debian kernel that has headers.
set -euo pipefail
for d in $(ls -d /lib/modules/*/build 2>/dev/null | sort -rV); do
	kver=$(basename "$(dirname "$d")")
	if [ -e "/boot/vmlinuz-$kver" ]; then
		echo "$kver"
		exit 0
	fi
done
echo "kver: no kernel with headers installed (run make deps)" >&2
exit 1
