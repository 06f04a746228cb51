#!/bin/bash
# Positive control of the debug kernel: boots the debug guest once, loads the
# deliberately broken module (tests/debug/broken) once per fault and checks
# that each class of checker reports its fault, and that a clean load reports
# nothing.  One `ok NAME` / `FAIL NAME` line per case, then
# `N passed, N failed`; exit status non-zero on any failure.
#
#   tests/debug/selftest.sh
#
# Cases: selftest/guest (the guest ran to the end), selftest/boot (the boot
# log before the first load is clean),
# selftest/clean (load + unload without a fault reports nothing),
# selftest/kasan, selftest/lockdep, selftest/ubsan, selftest/kmemleak.
# Uses the kernel from tests/debug/build-kernel.sh (building it if needed;
# DEBUG_BZIMAGE/DEBUG_KDIR/DEBUG_MODROOT in the environment skip that) and
# writes under build/debug/ (module build, guest output in build/debug/selftest).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$repo/build/debug/selftest
t_start=$SECONDS

if [ -z "${DEBUG_BZIMAGE:-}" ] || [ -z "${DEBUG_KDIR:-}" ] || [ -z "${DEBUG_MODROOT:-}" ]; then
	vars=$("$here/build-kernel.sh") || { echo "selftest: debug kernel build failed" >&2; exit 1; }
	eval "$vars"
fi

# Build the broken module against the debug tree, outside the source dir.
bdir=$repo/build/debug/broken
rm -rf "$bdir"
mkdir -p "$bdir"
cp "$here/broken/Kbuild" "$here/broken/"*.c "$bdir/"
if ! make -s -C "$DEBUG_KDIR" M="$bdir" modules >"$bdir/build.log" 2>&1; then
	cat "$bdir/build.log" >&2
	echo "FAIL selftest/build (udpcp_broken against $DEBUG_KDIR)"
	echo "0 passed, 1 failed"
	exit 1
fi

mkdir -p "$out"
t_boot=$SECONDS
"$repo/tests/vm/guest.sh" --kernel "$DEBUG_BZIMAGE" --modules "$DEBUG_MODROOT" \
	--append "pci=noacpi${UDPCP_APPEND:+ $UDPCP_APPEND}" --timeout 600 --out "$out" -- \
	bash "$here/selftest-guest.sh" "$bdir/udpcp_broken.ko" >"$out/guest.out" 2>&1
grc=$?
t_guest=$((SECONDS - t_boot))
dmesg=$out/dmesg.log
[ -f "$dmesg" ] || : >"$dmesg"

# Everything the debug run treats as a report.  Each fault must also match
# the harness's own pattern (tests/lib/kreport.sh, which run-tests.sh uses to
# fail a test), so a test doing the same would fail the suite.
reports='BUG: KASAN|UBSAN:|possible circular locking|possible recursive locking|suspicious RCU usage|kmemleak: [0-9]+ new suspected|ODEBUG|list_add corruption|list_del corruption|refcount_t:|WARNING:|BUG:|Oops'
KREPORT_RE=
# shellcheck source=../lib/kreport.sh
[ -f "$repo/tests/lib/kreport.sh" ] && . "$repo/tests/lib/kreport.sh"
harness_sees() { # TEXT: true when the harness's pattern matches it
	[ -z "$KREPORT_RE" ] || grep -aqE "$KREPORT_RE" <<<"$1"
}

# The kernel log between "udpcp-selftest: begin X" and "... end X".
slice() {
	awk -v b="udpcp-selftest: begin $1" -v e="udpcp-selftest: end $1" \
		'index($0, e) { p = 0 } p { print } index($0, b) { p = 1 }' "$dmesg"
}
boot_log() { awk '/udpcp-selftest: begin clean/ { exit } { print }' "$dmesg"; }

pass=0 fail=0
result() { # NAME OK(0/1) WHY
	if [ "$2" = 0 ]; then
		echo "ok $1"
		pass=$((pass + 1))
	else
		echo "FAIL $1${3:+: $3}"
		fail=$((fail + 1))
	fi
}

# selftest/guest: the guest booted, ran every case and shut down cleanly.
if [ $grc -ne 0 ] || ! grep -q "udpcp-selftest: done" "$dmesg"; then
	echo "selftest: the guest run failed (exit $grc); output ($out/guest.out):" >&2
	tail -n 30 "$out/guest.out" >&2
	result selftest/guest 1 "guest exit $grc (console: $out/console.log)"
else
	result selftest/guest 0
fi

# selftest/boot: the debug kernel itself boots without a report.
if grep -q "udpcp-selftest: begin clean" "$dmesg"; then
	hits=$(boot_log | grep -aE "$reports${KREPORT_RE:+|$KREPORT_RE}" | head -n 3)
	result selftest/boot "$([ -z "$hits" ] && echo 0 || echo 1)" "boot reports: $hits"
else
	result selftest/boot 1 "the guest never started the selftest"
fi

# selftest/clean: a fault-free load and unload reports nothing.
s=$(slice clean)
if ! grep -q "udpcp-selftest: end clean" "$dmesg"; then
	result selftest/clean 1 "case did not run"
elif grep -qE "$reports" <<<"$s" || { [ -n "$KREPORT_RE" ] && grep -aqE "$KREPORT_RE" <<<"$s"; }; then
	result selftest/clean 1 "$(grep -aE "$reports${KREPORT_RE:+|$KREPORT_RE}" <<<"$s" | head -n 1)"
else
	result selftest/clean 0
fi

check_case() { # NAME CASE PATTERN SUBJECT
	local s
	s=$(slice "$2")
	if ! grep -q "udpcp-selftest: end $2" "$dmesg"; then
		result "$1" 1 "case $2 did not run"
	elif ! grep -qE "$3" <<<"$s"; then
		result "$1" 1 "no '$3' after loading with $2=1"
	elif [ -n "$4" ] && ! grep -qE "$4" <<<"$s"; then
		result "$1" 1 "the report does not name $4"
	elif ! harness_sees "$(grep -E "$3" <<<"$s")"; then
		result "$1" 1 "tests/lib/kreport.sh's KREPORT_RE misses '$3'"
	else
		result "$1" 0
	fi
}
check_case selftest/lockdep abba "WARNING: possible circular locking dependency detected" "broken_lock_[ab]"
check_case selftest/ubsan shift "UBSAN: shift-out-of-bounds" "udpcp_broken\.c"
check_case selftest/kasan uaf "BUG: KASAN: (slab-)?use-after-free" "broken_uaf"

# selftest/kmemleak: the two scans report the leaked objects, whose
# allocation backtrace names the broken module.
s=$(slice kmemleak)
kml=$(sed -n '/^---- kmemleak ----$/,/^---- end kmemleak ----$/p' "$out/stdout" 2>/dev/null)
if ! grep -q "udpcp-selftest: end kmemleak" "$dmesg"; then
	result selftest/kmemleak 1 "case did not run"
elif ! grep -qE "kmemleak: [0-9]+ new suspected" <<<"$s"; then
	result selftest/kmemleak 1 "no 'kmemleak: N new suspected' after two scans"
elif ! grep -q "broken_leak" <<<"$kml"; then
	result selftest/kmemleak 1 "kmemleak did not report the module's objects"
elif ! harness_sees "$(grep -E "kmemleak: [0-9]+ new suspected" <<<"$s")"; then
	result selftest/kmemleak 1 "tests/lib/kreport.sh's KREPORT_RE misses 'kmemleak: N new suspected'"
else
	result selftest/kmemleak 0
fi

echo "selftest: guest ${t_guest}s, total $((SECONDS - t_start))s; log: $dmesg" >&2
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
