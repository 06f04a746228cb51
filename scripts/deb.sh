#!/bin/bash
# Builds the Debian packages (make deb): udpcp-dkms, udpcpctl, udpcp-dev.
#
#   scripts/deb.sh
#
# dpkg-buildpackage -us -uc -b runs in a copy of the tree under
# build/deb/udpcp-VERSION (the work tree is left as it is); the .debs land
# in build/deb/.  Then lintian checks them: any error fails the build
# (UDPCP_LINTIAN=0 skips it).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$repo/build/deb
cd "$repo"

version=$(dpkg-parsechangelog -S Version)
src=$out/udpcp-$version

# What the packages are built from: the sources of the tree, without
# build products (tracked and untracked files git does not ignore, in a
# git checkout).
parts=(Makefile LICENSE README.md dkms.conf debian module uapi udpcpctl Documentation scripts systemd)
rm -rf "$out"
mkdir -p "$src"
if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$repo" ls-files -z -c -o --exclude-standard -- "${parts[@]}" |
		while IFS= read -r -d '' f; do
			# Deleted but not yet committed: nothing to copy.
			[ -e "$f" ] || [ -L "$f" ] || continue
			printf '%s\0' "$f"
		done | cpio -0 -pdm --quiet "$src"
else
	cp -a "${parts[@]}" "$src"/
	find "$src" \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name '*.symvers' -o -name '*.order' \) -delete
	rm -f "$src/udpcpctl/udpcpctl"
fi

echo "deb: dpkg-buildpackage in ${src#"$repo"/}"
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 || {
	tail -n 40 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed (log: build/deb/build.log)" >&2
	exit 1
}

debs=("$out"/*.deb)
for d in "${debs[@]}"; do
	echo "deb: build/deb/$(basename "$d")"
done

if [ "${UDPCP_LINTIAN:-1}" != 0 ]; then
	# Errors fail; warnings and the rest are printed.
	if ! lintian --fail-on error "${debs[@]}" >"$out/lintian.log" 2>&1; then
		cat "$out/lintian.log" >&2
		echo "deb: lintian reports errors (build/deb/lintian.log)" >&2
		exit 1
	fi
	grep -v 'running with root privileges' "$out/lintian.log" | sed 's/^/deb: lintian: /' || true
fi
