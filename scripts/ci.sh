#!/bin/bash
# What CI runs (make ci, .ci/run): `make check` (the suite on Debian's
# kernel) and `make check-debug` (the suite on the KASAN/lockdep/kmemleak
# kernel), then one total line `N passed, N failed`; exit status non-zero
# on any failure.
#
# The debug kernel is built first, alone, with every CPU (about 11 minutes
# when it is not cached; nothing when it is): built beside a guest it took
# twice as long and starved the guest's time limits.  Then the two suites
# run side by side: each guest is one TCG thread, so on a machine with two
# CPUs or more they share it without waiting on each other.  The debug
# suite is the longer: when make check is done, its CPU runs the second
# part of tests/debug/suite.list in a second debug guest (work directory
# build/debug-2), so that both end at about the same time and the whole
# fits CI's time.  Then the same CPU runs tests/suite-6.12.list on Debian
# 12's 6.12 kernel (make check KVER=...: the module built, style-checked
# and tested there too).  UDPCP_CI_SERIAL=1 runs them one after the other.  Each
# one's output goes to build/ci/<target>.log and is shown, whole, when it
# ends.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/ci

# Built once here: the two runs below would otherwise both build the
# same programs at the same time.
make -s deps all || { echo "0 passed, 1 failed"; exit 1; }

t0=$SECONDS
if ! tests/debug/build-kernel.sh >/dev/null 2>build/ci/debug-kernel.log; then
	tail -n 30 build/ci/debug-kernel.log
	echo "ci: the debug kernel did not build (make check-debug will say so)"
fi
echo "ci: debug kernel ready after $((SECONDS - t0)) s"

passed=0 failed=0
# fold TARGET RC: add the target's summary line to the totals.
fold() {
	local log=build/ci/$1.log line p f
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	if [ -z "$line" ]; then
		echo "ci: make $1 ended without a summary (exit $2)"
		failed=$((failed + 1))
		return
	fi
	read -r p _ f _ <<<"${line//,/ }"
	passed=$((passed + p)) failed=$((failed + f))
	if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "ci: make $1 failed (exit $2) with no test counted failed"
		failed=$((failed + 1))
	fi
}

# check_612: make check on the 6.12 kernel, the tests of suite-6.12.list.
rc_612=
check_612() {
	local k t
	mapfile -t t < <(awk '!/^[[:space:]]*(#|$)/ { print $1 }' tests/suite-6.12.list)
	if k=$(scripts/kver.sh 6.12); then
		UDPCP_SKIP_SELFTEST=1 UDPCP_GUEST_OUT=$PWD/build/guest-6.12 \
			make check KVER="$k" TESTS="${t[*]}" >build/ci/check-6.12.log 2>&1
		rc_612=$?
	else
		echo "FAIL check-6.12 (no 6.12 kernel: make deps installs it)" >build/ci/check-6.12.log
		echo "0 passed, 1 failed" >>build/ci/check-6.12.log
		rc_612=1
	fi
	echo "=== make check KVER=${k:-6.12} (exit $rc_612, after $((SECONDS - t0)) s)"
	cat build/ci/check-6.12.log
}

t0=$SECONDS
if [ "${UDPCP_CI_SERIAL:-0}" = 1 ] || [ "$(nproc)" -lt 2 ]; then
	make check 2>&1 | tee build/ci/check.log
	rc_check=${PIPESTATUS[0]}
	make check-debug 2>&1 | tee build/ci/check-debug.log
	rc_debug=${PIPESTATUS[0]}
	rc_debug2=
	check_612
else
	mapfile -t first < <(tests/debug/suite.sh first)
	mapfile -t second < <(tests/debug/suite.sh second)
	make check >build/ci/check.log 2>&1 &
	pid_check=$!
	make check-debug TESTS="${first[*]}" >build/ci/check-debug.log 2>&1 &
	pid_debug=$!
	wait "$pid_check"
	rc_check=$?
	echo "=== make check (exit $rc_check, after $((SECONDS - t0)) s)"
	cat build/ci/check.log
	rc_debug2=
	if [ ${#second[@]} -gt 0 ]; then
		UDPCP_DEBUG_WORK=$PWD/build/debug-2 UDPCP_SKIP_DEBUG_SELFTEST=1 \
			make check-debug TESTS="${second[*]}" >build/ci/check-debug-2.log 2>&1
		rc_debug2=$?
		echo "=== make check-debug, second guest (exit $rc_debug2, after $((SECONDS - t0)) s)"
		cat build/ci/check-debug-2.log
	fi
	check_612
	wait "$pid_debug"
	rc_debug=$?
	echo "=== make check-debug (exit $rc_debug, after $((SECONDS - t0)) s)"
	cat build/ci/check-debug.log
fi
fold check "$rc_check"
fold check-debug "$rc_debug"
[ -n "$rc_debug2" ] && fold check-debug-2 "$rc_debug2"
fold check-6.12 "$rc_612"
echo "ci: $((SECONDS - t0)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
