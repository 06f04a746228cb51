#!/bin/bash
# Installs what the project needs on Debian 12; does nothing when all is there.
set -euo pipefail

pkgs=(
	build-essential linux-image-amd64 linux-headers-amd64 linux-source-6.1
	qemu-system-x86 busybox-static kmod cpio xz-utils python3 python3-yaml
	libnl-3-dev libnl-genl-3-dev pkg-config iproute2 tshark sparse
	util-linux procps
)
# For the debug kernel (make check-debug).
pkgs+=(flex bison libelf-dev bc libssl-dev dwarves rsync)
# For the netlink spec: 6.12's tools/net/ynl and its schema check.
pkgs+=(linux-source-6.12 python3-jsonschema)
# For the patch series (make patches): git (format-patch, am) and what the
# 6.12 tree's checkpatch.pl runs for SPDX tags (scripts/spdxcheck.py).
pkgs+=(git python3-ply python3-git)
# For the benchmark plot.
pkgs+=(python3-matplotlib)
# For the style gate on the tests' Python (scripts/check-style.sh).
pkgs+=(python3-pyflakes)
# For the packages (make deb, make install) and their test: debhelper with
# dh-dkms, lintian; dkms and systemd-analyze run in the guest from this root.
pkgs+=(dkms dh-dkms debhelper dpkg-dev fakeroot lintian systemd)

# The headers of exactly the kernel linux-image-amd64 installed (the one
# the guest boots): linux-headers-amd64 alone may bring a newer release
# when the archive moved on since the image was installed.
image=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null |
	grep -o 'linux-image-[^ ,]*' | head -n1 || true)
[ -n "$image" ] && pkgs+=("linux-headers-${image#linux-image-}")

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
export DEBIAN_FRONTEND=noninteractive
updated=0
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	apt-get update -q >/dev/null
	updated=1
	# tshark asks whether non-root users may capture; the answer does not matter.
	echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# Debian 12's 6.12 kernel beside the default one, for the suite's 6.12 run
# (make ci; make check KVER=...): the newest linux-image-6.12.N+deb12-amd64
# the archive has, unsigned (the guest boots it directly), and its headers.
# Its name is only known from the archive, so it is looked up here.
here=$(cd "$(dirname "$0")" && pwd)
if ! "$here/kver.sh" 6.12 >/dev/null 2>&1; then
	find612() {
		apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' |
			awk '{ print $1 }' | sort -V | tail -n1
	}
	image=$(find612)
	if [ -z "$image" ] && [ $updated = 0 ]; then
		apt-get update -q >/dev/null
		image=$(find612)
	fi
	if [ -z "$image" ]; then
		echo "deps: no linux-image-6.12.*+deb12-amd64-unsigned in the archive" >&2
		exit 1
	fi
	rel=${image#linux-image-}
	rel=${rel%-unsigned}
	echo "deps: installing $image linux-headers-$rel"
	apt-get install -y -q --no-install-recommends "$image" "linux-headers-$rel" >/dev/null
fi
