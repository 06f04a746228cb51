#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel tree the patch series (make patches) is made against and
# tested on: the newest installed linux-source-6.12 tarball, unpacked once
# under $UDPCP_CACHE (never into the repository), committed into a git
# repository of its own (tag "base": what the series applies to), and
# configured and prepared for external modules (modules_prepare), so that
# `make M=net/udpcp` builds there.  Prints the tree's path.
#
#   scripts/series-tree.sh            the tree, unpacked, committed, prepared
#   scripts/series-tree.sh --tarball  only the tarball's path
#
# The cache is keyed by the source package's version: a new linux-source-6.12
# gets a new tree and the old one is removed.  Callers that change the tree
# (tests/host/patches.sh) hold $tree.lock (flock) and return it to "base".
set -euo pipefail

series=6.12
cache=${UDPCP_CACHE:-/var/cache/udpcp}/series-tree

tarball=$(ls /usr/src/linux-source-"$series"*.tar.xz 2>/dev/null | sort -V | tail -n1 || true)
if [ -z "$tarball" ]; then
	echo "series-tree: no /usr/src/linux-source-$series*.tar.xz (make deps installs it)" >&2
	exit 1
fi
if [ "${1:-}" = --tarball ]; then
	echo "$tarball"
	exit 0
fi
pkg=$(dpkg -S "$tarball" 2>/dev/null | cut -d: -f1 | head -n1)
ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || stat -c %Y "$tarball")
tree=$cache/$(basename "$tarball" .tar.xz)_$(tr -c 'A-Za-z0-9.+\n' _ <<<"$ver")

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -e "$tree/.udpcp-prepared" ]; then
	echo "$tree"
	exit 0
fi

# Prepared in place (kbuild's files name it); .udpcp-prepared marks it
# complete.  Older versions' trees go: each is about 2 GB.
for old in "$cache"/*/; do
	[ "${old%/}" = "$tree" ] || rm -rf "$old"
done
rm -rf "$tree"
mkdir -p "$tree"
echo "series-tree: unpacking $tarball ($ver) into $tree" >&2
tar -C "$tree" --strip-components=1 -xJf "$tarball"
cd "$tree"

# The base commit: git am applies the series onto it, checkpatch finds the
# tree by it, and a run's changes are undone by going back to it.
git init -q
git config user.name "series-tree"
git config user.email "series-tree@localhost"
git config gc.auto 0
# -f: Debian's top-level .gitignore ignores everything at the top level.
git add -A -f
git commit -q -m "$(basename "$tarball" .tar.xz) $ver"
git tag base

# What the module needs from the kernel's configuration (and no BTF: pahole
# would have to match); then only what external modules need.
make -s defconfig >/dev/null
scripts/config -e MODULES -e INET -e IPV6 -m NET_UDP_TUNNEL -d DEBUG_INFO_BTF
make -s olddefconfig >/dev/null
make -s -j"$(nproc)" modules_prepare >/dev/null
touch "$tree/.udpcp-prepared"
echo "$tree"
