#!/bin/bash
# Harness self-tests (host side; tests/check.sh runs them first): proves that
# the harness reports what it must, by running tests/check.sh on deliberately
# bad tests (tests/selftest/t) in three small guests:
#   1. pass, warn (module WARNs on load), hang (outlives `# timeout: 3`),
#      leftover + clean (state must not leak into the next test), skip;
#   2. crash (module BUG()s on load: oops=panic, guest exit 125);
#   3. stall (the whole guest outlives UDPCP_CHECK_TIMEOUT: exit 124).
# Prints `ok selftest-NAME` or `FAIL selftest-NAME (why)` per case.  The
# modules are built here against $KDIR (default: the stock kernel's headers)
# into build/selftest/mod, and only ever loaded inside a guest.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$repo/build/selftest
kver=$("$repo/scripts/kver.sh") || exit 1
kdir=${KDIR:-/lib/modules/$kver/build}

mkdir -p "$work"
rm -rf "$work/mod"
cp -r "$here/mod" "$work/mod"
if ! make -s -C "$kdir" M="$work/mod" modules >"$work/build.log" 2>&1; then
	echo "FAIL selftest-build (module build against $kdir failed)"
	sed 's/^/    /' "$work/build.log" | tail -n 20
	exit 1
fi

export UDPCP_SELFTEST_MODS=$work/mod UDPCP_TESTS_DIR=$here/t UDPCP_SKIP_SELFTEST=1
# The cases expect their own small limits (`timeout after 3s`): no
# stretching by the host's load here.
export UDPCP_LOAD_SCALE=1
unset UDPCP_CHECK_TIMEOUT

# run ID [ENV=VALUE...] -- NAME...: check.sh in its own output dir
run() {
	local id=$1
	shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" UDPCP_GUEST_OUT="$work/$id" "$repo/tests/check.sh" "$@" >"$work/$id.log" 2>&1
	echo $? >"$work/$id.rc"
}

# expect ID CASE REGEX...: every REGEX matches a line of run ID's output
expect() {
	local id=$1 case=$2 re
	shift 2
	for re in "$@"; do
		if ! grep -qE -- "$re" "$work/$id.log"; then
			echo "FAIL selftest-$case (no line matching /$re/ in $work/$id.log)"
			sed 's/^/    /' "$work/$id.log" | tail -n 40
			return
		fi
	done
	echo "ok selftest-$case"
}
# expect_end ID CASE SUMMARY: check.sh failed and ended with SUMMARY
expect_end() {
	local last
	last=$(tail -n 1 "$work/$1.log")
	if [ "$(cat "$work/$1.rc")" = 0 ] || [ "$last" != "$3" ]; then
		echo "FAIL selftest-$2 (want exit != 0 and '$3', got exit $(cat "$work/$1.rc") and '$last')"
		sed 's/^/    /' "$work/$1.log" | tail -n 40
	else
		echo "ok selftest-$2"
	fi
}

# The stall guest mostly waits: run it beside the others.  Its limit must
# cover the boot: a custom (debug) kernel boots several times slower.
limit=45	# a loaded host boots the stock kernel in up to ~30 s
[ -n "${UDPCP_KERNEL:-}" ] && limit=90
run stall UDPCP_CHECK_TIMEOUT=$limit -- stall &
stall=$!
run main -- pass warn hang leftover clean skip
run crash -- pass crash
wait $stall

expect main pass '^ok pass \('
expect main warn '^FAIL warn \(kernel report: WARNING: .*selftest_warn' '^# kernel: .*WARNING: .*selftest_warn' '^# kernel: .*Call Trace'
expect main hang '^FAIL hang \(timeout after 3s\)'
expect main cleanup '^ok leftover \(' '^ok clean \('
expect main skip '^skip skip \(deliberately skipped\)'
expect_end main summary '3 passed, 2 failed, 1 skipped'
expect crash crash '^ok pass \(' '^FAIL guest \(crashed \(exit 125\) while running crash'
expect_end crash crash-summary '1 passed, 1 failed'
expect stall stall "^FAIL guest \\(timed out after ${limit}s while running stall\\)"
expect_end stall stall-summary '0 passed, 1 failed'
