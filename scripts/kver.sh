#!/bin/bash
# Prints the kernel release the project builds for: $KVER when set, else the
# one Debian's linux-image-amd64 depends on (the default kernel, even when
# another is installed beside it), else the newest installed kernel that has
# headers.  Found when a recipe runs, never when the Makefile is read: on a
# fresh machine the headers arrive with `make deps`.
#
#   scripts/kver.sh [SERIES]
# With SERIES (e.g. 6.12): the newest installed Debian release of that series
# (SERIES.N+debV-amd64) that has its image and headers, whatever $KVER says:
# the second kernel the suite boots (make ci), installed beside the default.
set -euo pipefail

# newest_bootable GLOB: prints the newest release /lib/modules/GLOB that has
# headers (build) and an image in /boot, and exits; returns if none has.
newest_bootable() {
	local d kver
	for d in $(ls -d /lib/modules/$1/build 2>/dev/null | sort -rV); do
		kver=$(basename "$(dirname "$d")")
		if [ -e "/boot/vmlinuz-$kver" ]; then
			echo "$kver"
			exit 0
		fi
	done
}

if [ -n "${1:-}" ]; then
	newest_bootable "$1.*-amd64"
	echo "kver: no $1 kernel with headers installed (run make deps)" >&2
	exit 1
fi
if [ -n "${KVER:-}" ]; then
	echo "$KVER"
	exit 0
fi
meta=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null || true)
kver=$(grep -o 'linux-image-[^ ,]*' <<<"$meta" | head -n1 | sed 's/^linux-image-//' || true)
if [ -n "$kver" ] && [ -e "/lib/modules/$kver/build" ] && [ -e "/boot/vmlinuz-$kver" ]; then
	echo "$kver"
	exit 0
fi
newest_bootable '*'
echo "kver: no kernel with headers installed (run make deps)" >&2
exit 1
