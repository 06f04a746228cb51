#!/bin/bash
# Builds the UDPCP debug kernel (KASAN, UBSAN, lockdep, kmemleak, ...) from
# Debian's linux-source package, or reuses the one already built.
#
# usage: [UDPCP_KSRC_PKG=linux-source-X.Y] tests/debug/build-kernel.sh [--config-only] [--prune]
#   --config-only  unpack + configure + verify the fragment, do not build
#   --prune        remove cached debug kernels other than the current one
#
# The kernel lives in ${UDPCP_CACHE:-/var/cache/udpcp}/debug-kernel/<key>/,
# where <key> is a hash of the source package's name and version, this
# recipe's version and tests/debug/debug.config's content:
#   src/      the configured, built tree (build out-of-tree modules here)
#   modroot/  make modules_install INSTALL_MOD_PATH=modroot
#   stamp     written last; without it the directory is never reused as is
#   build.log the make output
# A build that was interrupted is resumed (make is incremental) but is only
# used once it has finished and written its stamp.
# UDPCP_DEBUG_REBUILD=1 throws the cached directory away first.
#
# On success, stdout carries only these lines (eval-able), build noise goes to
# stderr and build.log:
#   DEBUG_KEY=...  DEBUG_KREL=...  DEBUG_BZIMAGE=...  DEBUG_KDIR=...
#   DEBUG_MODROOT=...
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
frag=$here/debug.config
cache=${UDPCP_CACHE:-/var/cache/udpcp}
# Bump when the steps below change in a way that changes the result.
recipe=1

config_only=0 prune=0
for a in "$@"; do
	case $a in
	--config-only) config_only=1 ;;
	--prune) prune=1 ;;
	-h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "build-kernel: unknown argument $a" >&2; exit 2 ;;
	esac
done

log() { echo "build-kernel: $*" >&2; }
die() { echo "build-kernel: error: $*" >&2; exit 1; }

# --- which source ----------------------------------------------------------
# UDPCP_KSRC_PKG, else the linux-source-X.Y of the stock kernel's series (the
# one scripts/kver.sh picks, which make check boots), else the newest
# installed linux-source-X.Y.
pkg=${UDPCP_KSRC_PKG:-}
if [ -z "$pkg" ] && kver=$("$here/../../scripts/kver.sh" 2>/dev/null); then
	series=$(sed -E 's/^([0-9]+\.[0-9]+).*/\1/' <<<"$kver")
	if dpkg-query -W -f='${db:Status-Abbrev}' "linux-source-$series" 2>/dev/null | grep -q '^ii'; then
		pkg=linux-source-$series
	fi
fi
if [ -z "$pkg" ]; then
	pkg=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 'linux-source-*' 2>/dev/null |
		awk '$1 == "ii" && $2 ~ /^linux-source-[0-9.]+$/ { print $2 }' |
		sort -V | tail -n1)
fi
[ -n "$pkg" ] || die "no linux-source-X.Y package installed (run make deps)"
pkgver=$(dpkg-query -W -f='${Version}' "$pkg") ||
	die "$pkg is not installed"
tarball=$(dpkg-query -L "$pkg" | grep -E '^/usr/src/linux-source-[^/]*\.tar\.(xz|bz2|gz)$' | head -n1)
{ [ -n "$tarball" ] && [ -f "$tarball" ]; } || die "$pkg ships no source tarball?"

key=$( { echo "$pkg $pkgver recipe=$recipe"; cat "$frag"; } | sha256sum | cut -c1-16)
top=$cache/debug-kernel
dir=$top/$key
src=$dir/src
modroot=$dir/modroot
stamp=$dir/stamp
mkdir -p "$top"

if [ "$prune" = 1 ]; then
	for d in "$top"/*/; do
		d=${d%/}
		[ "$d" = "$dir" ] && continue
		[ -d "$d" ] || continue
		# Skip a directory whose build is in progress.
		if exec 8>"$d.lock" && flock -n 8; then
			log "pruning $d"
			rm -rf "$d"
			rm -f "$d.lock"
			exec 8>&-
		else
			log "$d is in use, kept"
		fi
	done
fi

# One build per key at a time; a second caller waits, then reuses.
exec 9>"$dir.lock"
if ! flock -n 9; then
	log "another build of $key is running; waiting for it"
	flock 9
fi

report() {
	local krel
	krel=$(cat "$src/include/config/kernel.release")
	echo "DEBUG_KEY=$key"
	echo "DEBUG_KREL=$krel"
	echo "DEBUG_BZIMAGE=$src/arch/x86/boot/bzImage"
	echo "DEBUG_KDIR=$src"
	echo "DEBUG_MODROOT=$modroot"
}

if [ "${UDPCP_DEBUG_REBUILD:-0}" = 1 ]; then
	log "UDPCP_DEBUG_REBUILD=1: removing $dir"
	rm -rf "$dir"
fi

if [ -f "$stamp" ] && [ "$config_only" = 0 ]; then
	log "reusing $dir ($pkg $pkgver)"
	report
	exit 0
fi
rm -f "$stamp"
mkdir -p "$dir"

# --- unpack ------------------------------------------------------------------
if [ ! -f "$dir/unpacked" ]; then
	log "unpacking $tarball ($pkg $pkgver) into $src"
	t0=$SECONDS
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xf "$tarball" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
	echo "$pkg $pkgver" >"$dir/unpacked"
	log "unpacked in $((SECONDS - t0)) s"
fi

# --- configure and verify ---------------------------------------------------
# Re-done whenever the tree has no configured marker (cheap: ~7 s).
verify_config() {
	local bad=0 line opt val
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			if ! grep -qxF -- "$line" "$src/.config"; then
				val=$(grep -E "^(# )?${BASH_REMATCH[1]}[= ]" "$src/.config" || true)
				log "option did not stick: want '$line', got '${val:-<absent>}'"
				bad=1
			fi
		elif [[ $line =~ ^\#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			opt=${BASH_REMATCH[1]}
			if grep -qE "^$opt=" "$src/.config"; then
				log "option did not stick: want '$line', got '$(grep -E "^$opt=" "$src/.config")'"
				bad=1
			fi
		fi
	done <"$frag"
	return $bad
}

if [ ! -f "$dir/configured" ]; then
	log "configuring (x86_64_defconfig + kvm_guest.config + $(basename "$frag"))"
	t0=$SECONDS
	(
		cd "$src"
		make -s x86_64_defconfig kvm_guest.config >/dev/null
		# merge_config.sh -m: merge only; -O: write .config here.
		scripts/kconfig/merge_config.sh -m -O . .config "$frag" >/dev/null
		make -s olddefconfig >/dev/null
	) >&2
	verify_config || die "config fragment did not apply (see above); fix $frag"
	touch "$dir/configured"
	log "configured in $((SECONDS - t0)) s"
else
	verify_config || die "configured tree in $src lost options?"
fi

if [ "$config_only" = 1 ]; then
	log "config-only: $src/.config"
	exit 0
fi

# --- build ---------------------------------------------------------------------
jobs=$(nproc)
log "building bzImage + modules with -j$jobs (about 11 min from clean at -j2); log: $dir/build.log"
t0=$SECONDS
if ! make -C "$src" -j"$jobs" bzImage modules >"$dir/build.log" 2>&1; then
	tail -n 40 "$dir/build.log" >&2
	die "kernel build failed; full log: $dir/build.log"
fi
log "built in $((SECONDS - t0)) s"

rm -rf "$modroot"
make -C "$src" -s modules_install INSTALL_MOD_PATH="$modroot" >>"$dir/build.log" 2>&1 ||
	die "modules_install failed; see $dir/build.log"
# The build/source links point at the tree; keep them (module builds in the
# guest are not done, but they are harmless and useful for inspection).

[ -f "$src/arch/x86/boot/bzImage" ] || die "no bzImage after the build?"
{
	echo "pkg=$pkg $pkgver"
	echo "krel=$(cat "$src/include/config/kernel.release")"
	echo "built=$(date -u +%FT%TZ)"
	echo "build_seconds=$((SECONDS - t0))"
} >"$stamp.tmp"
mv "$stamp.tmp" "$stamp"
log "done: $dir"
report
