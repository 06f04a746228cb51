#!/bin/bash
# Installs UDPCP from the tree (make install runs it after make all):
#
#   scripts/install.sh [--dkms]
#
# Environment (make install passes DESTDIR and PREFIX on):
#   DESTDIR     staging root (default: none, install into this system)
#   PREFIX      /usr/local by default; /usr for a system-wide install
#   SYSCONFDIR  /etc by default
#   KDIR, KVER  the kernel the module is built for, as for `make module`
#
# What goes where (the same set as the Debian packages of `make deb`):
#   the module      the kernel's modules_install: DESTDIR/lib/modules/KVER/
#                   updates/udpcp.ko, built with its version; then depmod,
#                   which is skipped (with a message) when DESTDIR is set
#   --dkms instead  the module's source and dkms.conf, for DKMS to build:
#                   DESTDIR/usr/src/udpcp-VERSION (dkms add/build/install)
#   PREFIX/sbin/udpcpctl
#   PREFIX/share/man/man8/udpcpctl.8, man7/udpcp.7 (if Documentation/udpcp.7)
#   PREFIX/share/bash-completion/completions/udpcpctl
#   PREFIX/include/linux/udpcp.h                 the user API header
#   PREFIX/include/linux/udpcp_nl.h              its netlink part, generated
#   PREFIX/share/ynl/specs/udpcp.yaml            the netlink spec, where the
#                                                kernel's installed ynl looks
#   UNITDIR/udpcp.service   the systemd unit (UNITDIR: systemd's own with
#                   PREFIX=/usr, else PREFIX/lib/systemd/system); its paths
#                   follow PREFIX and SYSCONFDIR
#   SYSCONFDIR/udpcp/udpcp.conf   the example configuration, unless one
#                   is there already
# The version is debian/changelog's.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

dkms=0
case "${1:-}" in
--dkms) dkms=1 ;;
"") ;;
*)
	sed -n '3,4p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
	;;
esac

DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
SYSCONFDIR=${SYSCONFDIR:-/etc}
if [ -z "${UNITDIR:-}" ]; then
	if [ "$PREFIX" = /usr ]; then
		UNITDIR=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || true)
		UNITDIR=${UNITDIR:-/lib/systemd/system}
	else
		UNITDIR=$PREFIX/lib/systemd/system
	fi
fi

# debian/changelog's first line: "udpcp (VERSION) ...", without an epoch
# or a Debian revision.
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
version=${version#*:}
version=${version%-*}
if ! [[ $version =~ ^[0-9][0-9A-Za-z.+~]*$ ]]; then
	echo "install: no usable version in debian/changelog: '$version'" >&2
	exit 1
fi

say() { echo "install: $*"; }

inst() { # MODE SRC DST
	install -D -m "$1" "$2" "$DESTDIR$3"
	say "$3"
}

# --- the module ------------------------------------------------------------
if [ $dkms = 1 ]; then
	src=/usr/src/udpcp-$version
	rm -rf "$DESTDIR$src"
	for f in module/Kbuild module/*.c module/*.h uapi/linux/*.h; do
		[[ $f == *.mod.c ]] && continue # kbuild's, from a build of the tree
		install -D -m 0644 "$f" "$DESTDIR$src/$f"
	done
	mkdir -p "$DESTDIR$src"
	sed "s/#MODULE_VERSION#/$version/g" dkms.conf >"$DESTDIR$src/dkms.conf"
	chmod 0644 "$DESTDIR$src/dkms.conf"
	say "$src (module source and dkms.conf)"
	[ -z "$DESTDIR" ] &&
		say "next: dkms add udpcp/$version && dkms build udpcp/$version && dkms install udpcp/$version"
else
	if [ -n "${KDIR:-}" ]; then
		kdir=$KDIR
	else
		kdir=/lib/modules/$(scripts/kver.sh)/build
	fi
	# The release the headers were made for (what modules_install and
	# depmod need), as in the module's vermagic.
	krel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h" 2>/dev/null || true)
	[ -n "$krel" ] || { echo "install: no kernel headers in $kdir" >&2; exit 1; }
	# The tree's build, again with its version (kbuild rebuilds what the
	# new flag changes), then the kernel's own modules_install.
	make -C "$kdir" M="$repo/module" KCFLAGS="${KCFLAGS:-} -DUDPCP_PKG_VERSION=$version" modules
	# Not signed here (CONFIG_MODULE_SIG_ALL=): the kernel's signing key is
	# not part of its headers.
	make -C "$kdir" M="$repo/module" KERNELRELEASE="$krel" INSTALL_MOD_PATH="$DESTDIR" \
		INSTALL_MOD_DIR=updates CONFIG_MODULE_SIG_ALL= modules_install
	say "/lib/modules/$krel/updates/udpcp.ko"
	if [ -n "$DESTDIR" ]; then
		say "depmod skipped: DESTDIR is set (on the target run: depmod -a $krel)"
	else
		depmod -a "$krel"
		say "depmod -a $krel"
	fi
fi

# --- the tool, its documentation, the development files ----------------------
[ -x udpcpctl/udpcpctl ] || { echo "install: udpcpctl/udpcpctl is not built (make all)" >&2; exit 1; }
inst 0755 udpcpctl/udpcpctl "$PREFIX/sbin/udpcpctl"
inst 0644 udpcpctl/udpcpctl.8 "$PREFIX/share/man/man8/udpcpctl.8"
if [ -f Documentation/udpcp.7 ]; then
	inst 0644 Documentation/udpcp.7 "$PREFIX/share/man/man7/udpcp.7"
else
	say "no Documentation/udpcp.7 in this tree: udpcp(7) not installed"
fi
inst 0644 udpcpctl/udpcpctl.bash-completion "$PREFIX/share/bash-completion/completions/udpcpctl"
inst 0644 uapi/linux/udpcp.h "$PREFIX/include/linux/udpcp.h"
inst 0644 uapi/linux/udpcp_nl.h "$PREFIX/include/linux/udpcp_nl.h"
inst 0644 Documentation/netlink/specs/udpcp.yaml "$PREFIX/share/ynl/specs/udpcp.yaml"

# --- the unit and the configuration --------------------------------------------
mkdir -p "$DESTDIR$UNITDIR"
sed -e "s|/usr/sbin/udpcpctl|$PREFIX/sbin/udpcpctl|g" \
	-e "s|/etc/udpcp/udpcp.conf|$SYSCONFDIR/udpcp/udpcp.conf|g" \
	systemd/udpcp.service >"$DESTDIR$UNITDIR/udpcp.service"
chmod 0644 "$DESTDIR$UNITDIR/udpcp.service"
say "$UNITDIR/udpcp.service"
conf=$SYSCONFDIR/udpcp/udpcp.conf
if [ -e "$DESTDIR$conf" ]; then
	say "$conf exists: kept (the example is systemd/udpcp.conf)"
else
	inst 0644 systemd/udpcp.conf "$conf"
fi
