#!/bin/bash
# The test suite on the debug kernel (make check-debug [TESTS="a b"]):
#
#   tests/debug/check-debug.sh [NAME...]
#
# 1. builds the debug kernel, or reuses it (tests/debug/build-kernel.sh:
#    KASAN, UBSAN, lockdep, kmemleak, debugobjects; ~11 min the first time);
# 2. builds the udpcp module against it into build/debug/module (a copy of
#    module/ and uapi/, so the stock build in module/ is left alone) and the
#    user-space programs (make progs);
# 3. the positive control (tests/debug/selftest.sh): one guest in which a
#    deliberately broken module must make each checker report; one
#    `ok`/`FAIL selftest/...` line per case, counted as tests;
# 4. the suite in a debug guest through the shared harness: the tests of
#    tests/debug/suite.list (NAME... or `all` instead):
#      UDPCP_KERNEL=<bzImage> UDPCP_MODULES=<modroot> UDPCP_APPEND="pci=noacpi"
#      UDPCP_KO=build/debug/module/udpcp.ko KDIR=<debug tree> tests/check.sh NAME...
#    every test fails on a kernel report in its part of the log (the patterns
#    are tests/lib/kreport.sh's); the last test, tests/t/99-kmemleak.sh,
#    unloads the module, has kmemleak scan twice and fails on any suspected
#    leak (it is added to NAME... when not named).
# Ends with `N passed, N failed[, N skipped]` over all of it; exit status 1
# on any failure or report.
#
# Environment: UDPCP_DEBUG_WORK (work directory, default build/debug),
# UDPCP_CACHE (kernel cache, default /var/cache/udpcp),
# UDPCP_KSRC_PKG (source package, default the stock kernel's series),
# UDPCP_APPEND (added to pci=noacpi), UDPCP_SKIP_DEBUG_SELFTEST=1 (skip 3.),
# UDPCP_DEBUG_HARNESS_SELFTEST=1 (also run the harness self-tests that
# check.sh runs first; skipped here by default), UDPCP_TIMEOUT_SCALE
# (default 4: multiplies the time limits), UDPCP_CHECK_TIMEOUT (whole-guest
# limit, default check.sh's times the scale).  Guest output: build/debug/guest
# (suite) and build/debug/selftest (positive control).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# UDPCP_DEBUG_WORK: where the module copy, logs and guest output go, so
# that a second debug guest can run beside the first (scripts/ci.sh).
dbg=${UDPCP_DEBUG_WORK:-$repo/build/debug}
mkdir -p "$dbg"

passed=0 failed=0 skipped=0
t_all=$SECONDS
say() { echo "check-debug: $*" >&2; }
failcase() { # NAME WHY
	echo "FAIL $1 ($2)"
	failed=$((failed + 1))
}
finish() {
	local total="$passed passed, $failed failed"
	[ "$skipped" -gt 0 ] && total+=", $skipped skipped"
	say "times: kernel ${t_kernel:-0}s, modules ${t_mod:-0}s, selftest ${t_self:-0}s, suite ${t_suite:-0}s, total $((SECONDS - t_all))s"
	echo "$total"
	[ "$failed" -eq 0 ] && exit 0
	exit 1
}

# --- 1. the debug kernel -----------------------------------------------------
t0=$SECONDS
if ! vars=$("$here/build-kernel.sh"); then
	failcase debug-kernel "build-kernel.sh failed"
	finish
fi
eval "$vars"
t_kernel=$((SECONDS - t0))
say "kernel $DEBUG_KREL: $DEBUG_BZIMAGE"

# --- 2. the module against the debug tree, and the programs -------------------
t0=$SECONDS
ko=$dbg/module/udpcp.ko
rm -rf "$dbg/module" "$dbg/uapi"
# module/Kbuild uses -I$(src)/../uapi: keep the relative layout.
cp -r "$repo/module" "$dbg/module"
cp -r "$repo/uapi" "$dbg/uapi"
# Only the sources: no objects of the stock build.
find "$dbg/module" \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
	-o -name '.*.cmd' -o -name '*.symvers' -o -name '*.order' \) -delete
if [ -f "$dbg/module/Kbuild" ] || [ -f "$dbg/module/Makefile" ]; then
	if make -C "$DEBUG_KDIR" M="$dbg/module" modules >"$dbg/module-build.log" 2>&1 && [ -f "$ko" ]; then
		say "module: $ko"
	else
		sed 's/^/    /' "$dbg/module-build.log" | tail -n 30
		failcase debug-module-build "udpcp against $DEBUG_KDIR; log: $dbg/module-build.log"
	fi
else
	say "no module/Kbuild yet: the suite's module tests will skip"
fi
if ! make -s -C "$repo" progs >"$dbg/progs-build.log" 2>&1; then
	sed 's/^/    /' "$dbg/progs-build.log" | tail -n 30
	failcase debug-progs-build "make progs; log: $dbg/progs-build.log"
fi
t_mod=$((SECONDS - t0))

# --- 3. positive control ------------------------------------------------------
t0=$SECONDS
if [ "${UDPCP_SKIP_DEBUG_SELFTEST:-0}" != 1 ]; then
	export DEBUG_BZIMAGE DEBUG_KDIR DEBUG_MODROOT
	while IFS= read -r line; do
		case $line in
		"ok selftest/"*) passed=$((passed + 1)); echo "$line" ;;
		"FAIL selftest/"*) failed=$((failed + 1)); echo "$line" ;;
		[0-9]*" passed, "*) ;; # its own summary: folded into ours
		*) echo "$line" ;;
		esac
	done < <("$here/selftest.sh" 2>&1)
fi
t_self=$((SECONDS - t0))

# --- 4. the suite ---------------------------------------------------------------
tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
	# tests/debug/suite.list says which, and why not all.
	mapfile -t tests < <("$here/suite.sh")
elif [ "${tests[*]}" = all ]; then
	tests=()	# run-tests.sh: every test
fi
if [ ${#tests[@]} -gt 0 ]; then
	have=0
	for n in "${tests[@]}"; do
		[[ $n =~ ^([0-9]+-)?kmemleak(\.sh)?$ ]] && have=1
	done
	[ $have = 1 ] || tests+=(kmemleak)
fi

# Everything runs several times slower on the debug kernel (KASAN, lockdep,
# kmemleak under TCG): stretch the time limits.  UDPCP_TIMEOUT_SCALE is for
# run-tests.sh's per-test timeouts; the whole-guest limit is computed here as
# check.sh would, times the scale.
scale=${UDPCP_TIMEOUT_SCALE:-4}
export UDPCP_TIMEOUT_SCALE=$scale
# The fuzz and lifecycle tests size themselves down on this kernel.
export UDPCP_DEBUG_KERNEL=1
if [ -z "${UDPCP_CHECK_TIMEOUT:-}" ]; then
	limit=120
	for f in "${UDPCP_TESTS_DIR:-$repo/tests/t}"/*.sh; do
		[ -f "$f" ] || continue
		t=$(sed -n 's/^# timeout: *\([0-9][0-9]*\).*/\1/p' "$f" | head -1)
		limit=$((limit + ${t:-120} + 10))
	done
	export UDPCP_CHECK_TIMEOUT=$((limit * scale))
fi
# The harness self-tests (tests/selftest, run by check.sh first) test the
# harness, not the kernel, and make check runs them: skipped here unless
# UDPCP_DEBUG_HARNESS_SELFTEST=1 (about 160 s more).
if [ "${UDPCP_DEBUG_HARNESS_SELFTEST:-0}" = 1 ]; then
	export UDPCP_SKIP_SELFTEST=${UDPCP_SKIP_SELFTEST:-0}
else
	export UDPCP_SKIP_SELFTEST=1
fi

t0=$SECONDS
log=$dbg/check.log
UDPCP_KERNEL=$DEBUG_BZIMAGE \
UDPCP_MODULES=$DEBUG_MODROOT \
UDPCP_APPEND="pci=noacpi${UDPCP_APPEND:+ $UDPCP_APPEND}" \
UDPCP_KO=$ko \
UDPCP_GUEST_OUT=${UDPCP_GUEST_OUT:-$dbg/guest} \
KDIR=$DEBUG_KDIR \
	"$repo/tests/check.sh" "${tests[@]}" 2>&1 | tee "$log" |
	while IFS= read -r line; do
		if [[ $line =~ ^[0-9]+\ passed,\ [0-9]+\ failed ]]; then
			echo "# suite: $line"
		else
			echo "$line"
		fi
	done
rc=${PIPESTATUS[0]}
t_suite=$((SECONDS - t0))

summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
if [ -n "$summary" ]; then
	read -r p _ f _ s _ <<<"${summary//,/ }"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
	# A failing exit without a failure counted is still a failure.
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && failcase debug-suite "tests/check.sh exit $rc"
else
	failcase debug-suite "tests/check.sh ended without a summary (exit $rc); log: $log"
fi
finish
