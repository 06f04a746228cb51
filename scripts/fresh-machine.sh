#!/bin/bash
# Makes this machine look, to the project, like a fresh Debian 12 machine:
# removes the project's own build dependencies that are installed (libnl's
# headers, matplotlib, the kernel headers), so that the README's commands
# must install them again.  CI (.ci/run) runs it first: a missing install
# step then fails CI instead of a user.  Leaves caches outside the
# repository (the debug kernel) alone.  Needs root; changes nothing in the
# running kernel.
set -euo pipefail

pkgs=(libnl-3-dev libnl-genl-3-dev python3-matplotlib linux-headers-amd64)
# The headers of the kernel the project builds for, and of every other
# installed Debian kernel: a leftover would let the build find headers that
# `make deps` never installed.
pkgs+=($(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 'linux-headers-*' 2>/dev/null |
	awk '$1 == "ii" { print $2 }'))

present=()
for p in "${pkgs[@]}"; do
	if dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii'; then
		present+=("$p")
	fi
done
if [ ${#present[@]} -eq 0 ]; then
	echo "fresh-machine: none of the project's build dependencies is installed"
	exit 0
fi
echo "fresh-machine: removing ${present[*]}"
DEBIAN_FRONTEND=noninteractive apt-get remove -y -q "${present[@]}" >/dev/null
# What removal left (an unpacked tree a build wrote into) goes too.
for p in "${present[@]}"; do
	case $p in linux-headers-*) rm -rf "/usr/src/$p" ;; esac
done
