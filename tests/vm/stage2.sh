#!/bin/bash
# Stage 2 of the test guest, run by /init inside the new root (the host's
# tools over 9p + overlay).  guest.sh copies it into the I/O share with:
#   env      settings (GUEST_MODE=cmd|shell, GUEST_DIR, GUEST_MODULES, ...)
#            and the exports of the host's UDPCP_* variables
#   cmd      the command line (may be empty with --shell)
# and gets back stdout, stderr, dmesg.log and, written last and atomically,
# status.  Runs as PID 1 and powers the guest off at the end.
io=/run/udpcp-io
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8 PYTHONUNBUFFERED=1
# shellcheck source=/dev/null
. "$io/env"

# The end, parsed here before anything runs: from 6.11 the power-off resets
# the virtio devices, which breaks the 9p shares this script (cache=none) and
# every external command come from, and PID 1 must never exit (that panics,
# as a read of the rest of this script failing did under load on 6.12).  So:
# builtins and tmpfs only, and no return.
power_off() {
	echo o >/proc/sysrq-trigger
	while :; do
		read -r -t 10 <>/run/udpcp-tick
		echo b >/proc/sysrq-trigger # -no-reboot turns a reboot into an exit too
	done
}
mkfifo /run/udpcp-tick

# A live copy of the kernel log, so a crash still leaves what came before it.
dmesg -w >"$io/dmesg.log" 2>/dev/null &
dmesg_pid=$!

echo udpcp-guest >/proc/sys/kernel/hostname

# --modules: show that tree as /lib/modules/$(uname -r).  An overlay rather
# than a plain bind keeps it writable (depmod, extra/) like the stock one.
if [ -n "${GUEST_MODULES:-}" ]; then
	rel=$(uname -r)
	src=
	for c in "$GUEST_MODULES/lib/modules/$rel" "$GUEST_MODULES/$rel" "$GUEST_MODULES"; do
		if [ -e "$c/modules.dep" ] || [ -d "$c/kernel" ]; then
			src=$c
			break
		fi
	done
	if [ -z "$src" ] && [ -d "$GUEST_MODULES/lib/modules" ]; then
		only=("$GUEST_MODULES"/lib/modules/*)
		[ ${#only[@]} -eq 1 ] && src=${only[0]}
	fi
	if [ -n "$src" ]; then
		dst=/lib/modules/$rel
		mkdir -p "$dst" /run/udpcp-mods/upper /run/udpcp-mods/work
		mount -t overlay -o "lowerdir=$src,upperdir=/run/udpcp-mods/upper,workdir=/run/udpcp-mods/work" \
			udpcp-mods "$dst" 2>/dev/null || mount --bind "$src" "$dst"
	else
		echo "guest: no modules for $rel under $GUEST_MODULES" >&2
	fi
fi

if [ "$GUEST_MODE" = shell ]; then
	[ -n "${GUEST_ROWS:-}" ] && stty -F /dev/ttyS0 rows "$GUEST_ROWS" cols "$GUEST_COLS" 2>/dev/null
	echo "udpcp guest: $(uname -r); 'exit' or Ctrl-D powers off (Ctrl-A X kills QEMU)" >/dev/ttyS0
	cd "$GUEST_DIR" 2>/dev/null || cd /
	[ -s "$io/cmd" ] && setsid -c bash "$io/cmd" <>/dev/ttyS0 >&0 2>&0
	setsid -c bash -i <>/dev/ttyS0 >&0 2>&0
	rc=$?
else
	if cd "$GUEST_DIR"; then
		bash "$io/cmd" </dev/null >"$io/stdout" 2>"$io/stderr"
		rc=$?
	else
		echo "guest: $GUEST_DIR is not visible in the guest" >"$io/stderr"
		rc=125
	fi
fi

kill "$dmesg_pid" 2>/dev/null
wait "$dmesg_pid" 2>/dev/null
dmesg >"$io/dmesg.tmp" 2>/dev/null && mv -f "$io/dmesg.tmp" "$io/dmesg.log"
echo "$rc" >"$io/status.tmp" && mv -f "$io/status.tmp" "$io/status"
sync
power_off
