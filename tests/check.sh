#!/bin/bash
# The test suite, host side (make check [TESTS="a b"]):
#
#   tests/check.sh [NAME...]
#
# 0. the user-space tools' host-side tests (tests/host/*.sh), when no NAME
#    is given (UDPCP_SKIP_HOST=1 skips them), their checks counted;
# 1. the harness self-tests (tests/selftest/run.sh; UDPCP_SKIP_SELFTEST=1
#    skips them), each counted as a test;
# 2. one guest boot running tests/run-tests.sh NAME... (all tests by default),
#    its per-test lines streamed here;
# 3. the guest's whole kernel log scanned again here: a crash, a timeout or a
#    kernel report that no test was blamed for counts as one more failure.
# Ends with `N passed, N failed[, N skipped]`; exits 1 on any failure.
#
# Environment: UDPCP_KERNEL, UDPCP_MODULES, UDPCP_APPEND (guest.sh's
# --kernel, --modules, --append: e.g. the debug kernel; then build the
# self-test modules for it with KDIR=<its tree>); UDPCP_KO (module to test, default
# module/udpcp.ko); UDPCP_GUEST_OUT (guest output dir, default build/guest);
# UDPCP_CHECK_TIMEOUT (whole-guest limit, default: sum of test timeouts + 120 s,
# and no later than UDPCP_DEADLINE, seconds since the epoch);
# UDPCP_TESTS_DIR (tests to run, default tests/t).  The test modules of
# tests/kmod are built here against KDIR (default the stock headers).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=lib/kreport.sh
. "$here/lib/kreport.sh"

passed=0 failed=0 skipped=0

# add_summary LINE: fold an "N passed, N failed[, N skipped]" line in.
add_summary() {
	local p f s
	read -r p _ f _ s _ <<<"${1//,/ }"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
}

# The user-space tools' own tests run here on the host (they load no
# module); only when the whole suite runs, or UDPCP_SKIP_HOST=1 skips them.
if [ $# -eq 0 ] && [ "${UDPCP_SKIP_HOST:-0}" != 1 ]; then
	for t in "$here"/host/*.sh; do
		name=host-$(basename "$t" .sh)
		hlog=$repo/build/$name.log
		mkdir -p "$repo/build"
		bash "$t" >"$hlog" 2>&1
		hrc=$?
		hsum=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$hlog" | tail -1)
		if [ -n "$hsum" ] && [ "$hrc" = 0 ]; then
			echo "ok $name ($hsum)"
			add_summary "$hsum"
		else
			echo "FAIL $name (exit $hrc${hsum:+, $hsum}; log $hlog)"
			grep -E '^(FAIL|not ok)' "$hlog" | head -20 | sed 's/^/    /'
			if [ -n "$hsum" ]; then
				add_summary "$hsum"
				[ "$hrc" != 0 ] && [[ "$hsum" =~ \ 0\ failed ]] && failed=$((failed + 1))
			else
				failed=$((failed + 1))
			fi
		fi
	done
fi

if [ "${UDPCP_SKIP_SELFTEST:-0}" != 1 ]; then
	while IFS= read -r line; do
		echo "$line"
		case "$line" in
		"ok selftest-"*) passed=$((passed + 1)) ;;
		"FAIL selftest-"*) failed=$((failed + 1)) ;;
		esac
	done < <("$here/selftest/run.sh" 2>&1)
fi

out=${UDPCP_GUEST_OUT:-$repo/build/guest}
mkdir -p "$out"

# The test modules (tests/kmod) against the kernel the guest boots (KDIR:
# the debug tree for make check-debug), in a copy beside the module
# headers they test (and compat.h); tests find them through UDPCP_TESTMODS.
kdir=${KDIR:-/lib/modules/$("$repo/scripts/kver.sh")/build}
export UDPCP_TESTMODS=$out/kmod
rm -rf "$UDPCP_TESTMODS"
mkdir -p "$UDPCP_TESTMODS"
cp "$here"/kmod/* "$repo"/module/adler32.h "$repo"/module/compat.h "$UDPCP_TESTMODS"/
if ! make -s -C "$kdir" M="$UDPCP_TESTMODS" modules >"$UDPCP_TESTMODS/build.log" 2>&1; then
	echo "FAIL testmods (tests/kmod against $kdir; log $UDPCP_TESTMODS/build.log)"
	tail -n 20 "$UDPCP_TESTMODS/build.log" | sed 's/^/    /'
	failed=$((failed + 1))
fi

# A guest is one TCG thread: on a host with more runnable work than CPUs it
# gets only a share of one, and every time limit inside it is too short.
# Stretch them by how overloaded the host is when the guest starts (one
# other busy thread per CPU is the normal case and costs nothing), unless
# UDPCP_LOAD_SCALE says otherwise.
load_scale=${UDPCP_LOAD_SCALE:-$(awk -v n="$(nproc)" '{
	s = int(($1 - 1) / n + 0.999); if (s < 1) s = 1; if (s > 4) s = 4; print s }' /proc/loadavg)}
[[ $load_scale =~ ^[1-9][0-9]*$ ]] || load_scale=1
export UDPCP_TIMEOUT_SCALE=$(( ${UDPCP_TIMEOUT_SCALE:-1} * load_scale ))
[ "$load_scale" -gt 1 ] && echo "# host load $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs: time limits x$load_scale"

# The guest's own limit only catches a guest that stops making progress;
# each test has its own timeout inside.
limit=${UDPCP_CHECK_TIMEOUT:-}
if [ -z "$limit" ]; then
	limit=120
	for f in "${UDPCP_TESTS_DIR:-$here/t}"/*.sh; do
		[ -f "$f" ] || continue
		t=$(sed -n 's/^# timeout: *\([0-9][0-9]*\).*/\1/p' "$f" | head -1)
		limit=$((limit + ${t:-120} + 10))
	done
	limit=$((limit * UDPCP_TIMEOUT_SCALE))
fi
# UDPCP_DEADLINE (seconds since the epoch; CI sets it): the guest is
# stopped in time for this run to say what passed, what failed and which
# test was running, rather than CI being cut off with nothing said.
if [ -n "${UDPCP_DEADLINE:-}" ]; then
	left=$((UDPCP_DEADLINE - $(date +%s)))
	[ "$left" -lt 60 ] && left=60
	[ "$left" -lt "$limit" ] && limit=$left
fi

log=$out/check.log
: >"$log"
"$here/vm/guest.sh" --out "$out" --timeout "$limit" -- "$here/run-tests.sh" "$@" |
	while IFS= read -r line; do
		# The guest's summary is folded into ours below.
		if [[ "$line" =~ ^[0-9]+\ passed,\ [0-9]+\ failed ]]; then
			echo "# guest: $line"
		else
			echo "$line"
		fi
		printf '%s\n' "$line" >>"$log"
	done
rc=${PIPESTATUS[0]}

summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
if [ -n "$summary" ]; then
	add_summary "$summary"
else
	# No summary: the guest died mid-run; count the tests that did report.
	passed=$((passed + $(grep -c '^ok ' "$log")))
	failed=$((failed + $(grep -c '^FAIL ' "$log")))
	skipped=$((skipped + $(grep -c '^skip ' "$log")))
fi

# The test running when the guest stopped, from the markers run-tests.sh
# writes into the kernel log (the live copy survives a crash).
running() {
	local t
	t=$(grep -ao 'udpcp-test: begin [^ ]*' "$out/dmesg.log" 2>/dev/null | tail -1 | awk '{print $3}')
	echo "${t:-boot}"
}
guest_fail() {
	echo "FAIL guest ($*)"
	failed=$((failed + 1))
}

reports=$( { kreport_grep "$out/dmesg.log" 2>/dev/null; kreport_grep "$out/console.log" 2>/dev/null; } |
	sed 's/^\[[ 0-9.]*\] //' | sort -u)
blamed=$(sed -n 's/^# kernel: \[[ 0-9.]*\] //p; s/^# kernel: //p' "$log" | sort -u)
if [ "$rc" = 124 ]; then
	guest_fail "timed out after ${limit}s while running $(running)"
elif [ "$rc" = 125 ]; then
	why=$(grep -a -m1 -E 'Kernel panic|BUG:|Oops' "$out/console.log" 2>/dev/null | sed 's/^\[[ 0-9.]*\] //')
	guest_fail "crashed (exit 125) while running $(running)${why:+: $why}"
	[ -f "$out/console.log" ] && tail -n 30 "$out/console.log" | sed 's/^/    /'
elif [ -z "$summary" ]; then
	guest_fail "run-tests.sh ended without a summary (exit $rc)"
elif [ -n "$reports" ]; then
	unblamed=$(comm -23 <(echo "$reports") <(echo "$blamed"))
	if [ -n "$unblamed" ]; then
		guest_fail "kernel report outside any test: $(head -1 <<<"$unblamed")"
		sed 's/^/# kernel: /' <<<"$unblamed"
	fi
fi

total="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && total+=", $skipped skipped"
echo "$total"
[ "$failed" -eq 0 ]
