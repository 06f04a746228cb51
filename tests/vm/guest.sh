#!/bin/bash
# Runs a command in a throw-away QEMU guest (host side).  Nothing is ever
# loaded into this machine's kernel: the project's module lives in the guest.
#
#   tests/vm/guest.sh [--kernel IMAGE] [--modules DIR] [--timeout SECS]
#                     [--append ARGS] [--out DIR] [--icount SHIFT] [--shell]
#                     [--] CMD...
#
# The guest sees this machine's / read-only (9p) under a tmpfs overlay, so
# every installed tool and the work tree are there at the same paths; CMD
# runs as root in the current directory with the UDPCP_* variables of this
# environment.  Its stdout/stderr stream here; its exit status is ours.
#   124  the guest did not finish within --timeout (default 1200 s)
#   125  the guest died without reporting a status (panic, oops, triple fault)
# The guest's full kernel log is saved to OUT/dmesg.log (OUT defaults to
# build/guest/ of this repo), the serial console to OUT/console.log.
#
#   --kernel IMAGE  a bzImage or an ELF vmlinux (PVH); default: Debian's
#                   /boot/vmlinuz-$(scripts/kver.sh), unpacked once into the
#                   cache (${UDPCP_CACHE:-/var/cache/udpcp}/guest) and booted PVH
#   --modules DIR   modules for that kernel: DIR/lib/modules/<release> (as
#                   from make modules_install INSTALL_MOD_PATH=DIR) or a
#                   /lib/modules/<release> directory; shown in the guest as
#                   /lib/modules/$(uname -r)
#   --append ARGS   extra kernel command line (the debug kernel wants pci=noacpi)
#   --out DIR       where the outputs go (and the I/O share; one guest per DIR)
#   --icount SHIFT  guest time counts executed instructions, 2^SHIFT ns each
#                   (QEMU -icount shift=SHIFT,sleep=off): timings no longer
#                   depend on the host's load (the benchmark uses it); the
#                   guest's clock then runs apart from the host's (--timeout
#                   stays host seconds); the guest gets one CPU then
#   --shell         interactive shell on the serial console instead of (or
#                   after) CMD; `exit` powers off, Ctrl-A X kills QEMU
# UDPCP_KERNEL, UDPCP_MODULES, UDPCP_APPEND in the environment are the
# defaults of --kernel, --modules, --append (so check.sh and demo.sh take them).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${UDPCP_CACHE:-/var/cache/udpcp}/guest

usage() {
	sed -n '4,7p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

kernel=${UDPCP_KERNEL:-} modules=${UDPCP_MODULES:-} append=${UDPCP_APPEND:-} shell=0 out=$repo/build/guest timeout=
icount=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--modules) modules=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--icount) icount=$2; shift 2 ;;
	--shell) shell=1; shift ;;
	--) shift; break ;;
	-h | --help) usage ;;
	-*) echo "guest: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || [ $shell = 1 ] || usage
[ -z "$icount" ] || [[ "$icount" =~ ^[0-9]+$ ]] || { echo "guest: --icount wants a shift (0-10)" >&2; usage; }
# A shell waits for a human: no timeout unless asked for.
[ -n "$timeout" ] || { [ $shell = 1 ] && timeout=0 || timeout=1200; }

# The initramfs carries the 9p/overlay modules of the kernel being booted:
# the host's for the stock kernel, the --modules tree's for a custom one.
if [ -n "$modules" ]; then
	modules=$(cd "$modules" && pwd) || exit 2
	moddir=$modules
	if [ -d "$modules/lib/modules" ]; then
		rels=("$modules"/lib/modules/*/)
		moddir=${rels[0]%/}
	fi
fi
if [ -z "$kernel" ] || [ -z "$modules" ]; then
	kver=$("$repo/scripts/kver.sh")
	[ -n "$modules" ] || moddir=/lib/modules/$kver
	[ -n "$kernel" ] || kernel=$(python3 "$here/prepare.py" vmlinux "$cache" "/boot/vmlinuz-$kver")
fi
[ -r "$kernel" ] || { echo "guest: cannot read kernel $kernel" >&2; exit 2; }
busybox=$(command -v busybox) || { echo "guest: busybox-static is not installed" >&2; exit 2; }
initrd=$(python3 "$here/prepare.py" initramfs "$cache" "$here/init" "$busybox" "$moddir" \
	virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci \
	netfs fscache 9pnet 9pnet_virtio 9p overlay)

# OUT doubles as the read-write I/O share; one guest at a time per OUT.
mkdir -p "$out"
out=$(cd "$out" && pwd)
exec 9>"$out/.lock"
flock -n 9 || { echo "guest: $out is in use by another guest (use --out)" >&2; exit 2; }
rm -f "$out"/{status,status.tmp,stdout,stderr,dmesg.log,dmesg.tmp,console.log,cmd,env,keep}
cp "$here/stage2.sh" "$out/stage2.sh"
: >"$out/stdout"
: >"$out/stderr"

{
	printf 'GUEST_MODE=%s\n' "$([ $shell = 1 ] && echo shell || echo cmd)"
	printf 'GUEST_DIR=%q\n' "$PWD"
	printf 'GUEST_MODULES=%q\n' "$modules"
	if [ $shell = 1 ]; then
		printf 'export TERM=%q\n' "${TERM:-linux}"
		if size=$(stty size 2>/dev/null); then
			# shellcheck disable=SC2086 # "ROWS COLS"
			printf 'GUEST_ROWS=%s GUEST_COLS=%s\n' $size
		fi
	fi
	for v in $(compgen -e | grep '^UDPCP_' || true); do
		printf 'export %s=%q\n' "$v" "${!v}"
	done
} >"$out/env"
if [ $# -gt 0 ]; then
	printf '%q ' "$@" >"$out/cmd"
	echo >>"$out/cmd"
else
	: >"$out/cmd"
fi
# Paths that must stay visible even under the guest's fresh /tmp, /run.
printf '%s\n' "$PWD" "$repo" ${modules:+"$modules"} >"$out/keep"

cmdline="console=ttyS0 loglevel=4 panic=-1 oops=panic rdinit=/init"
cmdline+=" reboot=t tsc=reliable no_timer_check i8042.noaux i8042.nokbd"
[ -n "$append" ] && cmdline+=" $append"

# la57=off: 4-level paging as on real machines; with 5-level paging the
# debug kernel (KASAN) sometimes reports a wild access in an early IRQ.
# shellcheck disable=SC2054 # commas inside option values
qemu=(qemu-system-x86_64 -accel tcg,thread=single -smp 2 -m 2G -cpu max,la57=off
	-M pc -nodefaults -no-user-config -display none -vga none -no-reboot
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	-fsdev "local,id=root,path=/,security_model=none,readonly=on,multidevs=remap"
	-device virtio-9p-pci,fsdev=root,mount_tag=hostroot
	-fsdev "local,id=io,path=$out,security_model=none,multidevs=remap"
	-device virtio-9p-pci,fsdev=io,mount_tag=udpcpio)
# -icount needs single-threaded TCG (above); sleep=off: an idle guest skips
# ahead to its next timer instead of waiting for the host's clock.  One
# CPU: QEMU 7.2 hangs bringing up the second CPU under -icount.
[ -n "$icount" ] && qemu+=(-icount "shift=$icount,sleep=off" -smp 1)

if [ $shell = 1 ]; then
	if [ "$timeout" = 0 ]; then
		"${qemu[@]}" -serial mon:stdio && rc=0 || rc=$?
	else
		timeout --foreground "$timeout" "${qemu[@]}" -serial mon:stdio && rc=0 || rc=$?
	fi
else
	timeout "$timeout" "${qemu[@]}" -serial "file:$out/console.log" </dev/null &
	qpid=$!
	trap 'kill $qpid 2>/dev/null' INT TERM
	# Stream the command's output as the guest writes it (9p, cache=none).
	tail -s 0.2 -n +1 -f --pid=$qpid "$out/stdout" &
	t1=$!
	tail -s 0.2 -n +1 -f --pid=$qpid "$out/stderr" >&2 &
	t2=$!
	wait $qpid && rc=0 || rc=$?
	wait $t1 $t2 || true
	trap - INT TERM
fi

if [ "$rc" = 124 ]; then
	echo "guest: timed out after ${timeout}s (console: $out/console.log)" >&2
	exit 124
fi
[ "$rc" = 0 ] || { echo "guest: qemu failed (exit $rc)" >&2; exit "$rc"; }
[ -s "$out/dmesg.log" ] && echo "guest: dmesg saved to $out/dmesg.log" >&2
if [ ! -s "$out/status" ]; then
	echo "guest: no exit status: the guest crashed; console tail ($out/console.log):" >&2
	[ -f "$out/console.log" ] && tail -n 40 "$out/console.log" >&2
	exit 125
fi
exit "$(cat "$out/status")"
