#!/bin/bash
# What CI runs (make ci, .ci/run): `make check` (the suite on Debian's
# kernel) and `make check-debug` (the suite on the KASAN/lockdep/kmemleak
# kernel), then one total line `N passed, N failed`; exit status non-zero
# on any failure.
#
# The debug kernel is built first, alone, with every CPU (about 11 minutes
# when it is not cached; nothing when it is): built beside a guest it took
# twice as long and starved the guest's time limits.  Then the suites run
# on two lanes side by side: each guest is one TCG thread, so on a machine
# with two CPUs or more they share it without waiting on each other.  One
# lane starts with make check, the other with the first part of
# tests/debug/suite.list; each then takes the next of the two later jobs
# that the other has not taken, the longer first:
#  - tests/suite-6.12.list on Debian 12's 6.12 kernel (make all KVER=...,
#    then tests/check.sh: make check's style gate already built for 6.12),
#    in a copy of the tree (build/ci/tree-6.12), since building there
#    rebuilds module/ for 6.12 while the stock suite may still load it
#    from this one;
#  - the second part of suite.list in a second debug guest (work
#    directory build/debug-2).
# Which lane is done first depends on the machine: in rehearsals of 12-07
# the debug part was on a slow one (2710 s against 3070 s for make check),
# make check on a fast one (1620 s against 1130 s), where a fixed order
# kept one lane 270 s longer than the other.
# UDPCP_CI_SERIAL=1 runs everything one after the other, in this tree.
# Each one's output goes to build/ci/<target>.log and is shown, whole, at
# the end.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
mkdir -p build/ci
rm -f build/ci/*.rc build/ci/*.head
rm -rf build/ci/*.claim

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

# check_612 [TREE]: make check on the 6.12 kernel, the tests of
# suite-6.12.list, in TREE (default here); its exit status.
check_612() {
	local tree=${1:-.} k t rc
	mapfile -t t < <(awk '!/^[[:space:]]*(#|$)/ { print $1 }' tests/suite-6.12.list)
	if k=$(scripts/kver.sh 6.12); then
		# make all, not make check: make check's style gate (which
		# builds for 6.12 too) and packages already ran in this tree.
		# The guest's output stays in the copy, beside its module.
		{
			make -C "$tree" -s all KVER="$k" &&
				(cd "$tree" && UDPCP_SKIP_SELFTEST=1 UDPCP_GUEST_OUT=$PWD/build/guest-6.12 \
					KVER="$k" tests/check.sh "${t[@]}")
		} >build/ci/check-6.12.log 2>&1
		rc=$?
	else
		echo "FAIL check-6.12 (no 6.12 kernel: make deps installs it)" >build/ci/check-6.12.log
		echo "0 passed, 1 failed" >>build/ci/check-6.12.log
		rc=1
	fi
	echo "=== make check KVER=${k:-6.12} (exit $rc, after $((SECONDS - t0)) s)" >build/ci/check-6.12.head
	return $rc
}

# A copy of the sources without build products, for check_612.
tree_612() {
	local dst=build/ci/tree-6.12
	rm -rf "$dst" && mkdir -p "$dst" &&
		tar -C . --exclude=./build -cf - . | tar -C "$dst" -xf - &&
		echo "$dst"
}

# run_job NAME: one of the later jobs; its exit status.
run_job() {
	local rc
	case $1 in
	check-6.12)
		if tree=$(tree_612); then
			check_612 "$tree"
		else
			echo "FAIL check-6.12 (could not copy the tree)" >build/ci/check-6.12.log
			echo "0 passed, 1 failed" >>build/ci/check-6.12.log
			false
		fi
		;;
	check-debug-2)
		UDPCP_DEBUG_WORK=$PWD/build/debug-2 UDPCP_SKIP_DEBUG_SELFTEST=1 \
			make check-debug TESTS="${second[*]}" >build/ci/check-debug-2.log 2>&1
		rc=$?
		echo "=== make check-debug, second guest (exit $rc, after $((SECONDS - t0)) s)" \
			>build/ci/check-debug-2.head
		return $rc
		;;
	esac
}

# take_jobs: a lane that is done runs the later jobs that the other lane
# has not taken (mkdir is the claim: one of two succeeds).
take_jobs() {
	local j
	for j in "${later[@]}"; do
		mkdir "build/ci/$j.claim" 2>/dev/null || continue
		run_job "$j"
		echo $? >"build/ci/$j.rc"
	done
}

# watch_log NAME LOG: each test's line of LOG, as it comes, with the time
# since the suites started, so that a run cut off still shows how far it
# got.  The logs are shown whole at the end.
watchers=()
watch_log() {
	: >"$2"
	(
		tail -n +1 -F --pid=$$ "$2" 2>/dev/null | while IFS= read -r l; do
			case $l in
			"ok "* | "FAIL "* | "skip "*)
				printf 'ci: %s +%ss %s\n' "$1" "$((SECONDS - t0))" "$l"
				;;
			esac
		done
	) &
	watchers+=($!)
}

t0=$SECONDS
rc_debug2=
if [ "${UDPCP_CI_SERIAL:-0}" = 1 ] || [ "$(nproc)" -lt 2 ]; then
	make check 2>&1 | tee build/ci/check.log
	rc_check=${PIPESTATUS[0]}
	make check-debug 2>&1 | tee build/ci/check-debug.log
	rc_debug=${PIPESTATUS[0]}
	check_612
	rc_612=$?
	cat build/ci/check-6.12.head build/ci/check-6.12.log
else
	mapfile -t first < <(tests/debug/suite.sh first)
	mapfile -t second < <(tests/debug/suite.sh second)
	watch_log check build/ci/check.log
	watch_log check-debug build/ci/check-debug.log
	watch_log check-debug-2 build/ci/check-debug-2.log
	watch_log check-6.12 build/ci/check-6.12.log
	# The longer first: 6.12's list took three times the second part.
	later=(check-6.12)
	[ ${#second[@]} -gt 0 ] && later+=(check-debug-2)
	(
		make check >build/ci/check.log 2>&1
		rc=$?
		echo $rc >build/ci/check.rc
		echo "=== make check (exit $rc, after $((SECONDS - t0)) s)"
		cat build/ci/check.log
		take_jobs
	) &
	pid_check=$!
	(
		make check-debug TESTS="${first[*]}" >build/ci/check-debug.log 2>&1
		echo $? >build/ci/check-debug.rc
		echo "=== make check-debug (exit $(cat build/ci/check-debug.rc), after $((SECONDS - t0)) s)" \
			>build/ci/check-debug.head
		take_jobs
	) &
	pid_debug=$!
	wait "$pid_check" "$pid_debug"
	kill "${watchers[@]}" 2>/dev/null
	rc_check=$(cat build/ci/check.rc 2>/dev/null || echo 1)
	rc_debug=$(cat build/ci/check-debug.rc 2>/dev/null || echo 1)
	rc_612=$(cat build/ci/check-6.12.rc 2>/dev/null || echo 1)
	if [ ${#second[@]} -gt 0 ]; then
		rc_debug2=$(cat build/ci/check-debug-2.rc 2>/dev/null || echo 1)
		cat build/ci/check-debug-2.head build/ci/check-debug-2.log 2>/dev/null
	fi
	cat build/ci/check-debug.head build/ci/check-debug.log
	cat build/ci/check-6.12.head build/ci/check-6.12.log 2>/dev/null
fi
fold check "$rc_check"
fold check-debug "$rc_debug"
[ -n "$rc_debug2" ] && fold check-debug-2 "$rc_debug2"
fold check-6.12 "$rc_612"
echo "ci: $((SECONDS - t0)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
