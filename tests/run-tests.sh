#!/bin/bash
# Runs tests/t/*.sh INSIDE the test guest (tests/check.sh boots it; by hand:
# tests/vm/guest.sh tests/run-tests.sh [NAME...]).
#
#   tests/run-tests.sh [NAME...]
#
# NAME is a file of tests/t/ with or without .sh and the numeric prefix
# (`socket` runs tests/t/10-socket.sh); no NAME runs them all in sorted order.
# Each test runs in its own process group under a timeout (120 s, or the
# file's `# timeout: N` line; times UDPCP_TIMEOUT_SCALE, default 1).  Per test it prints one of
#   ok NAME (1.2s)     FAIL NAME (reason)     skip NAME (reason)
# (a test exiting 77 is skipped), the last 60 lines of a failing test's
# output, and at the end `N passed, N failed[, N skipped]`.  After each test
# leftover namespaces (and their processes) are removed, udpcp is unloaded,
# and the kernel log the test produced is scanned for reports (WARNING:,
# BUG:, KASAN, lockdep, ...): one fails the test, shown as `# kernel: ...`.
# UDPCP_TESTS_DIR replaces tests/t (the harness self-tests use it).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/kreport.sh
. "$here/lib/kreport.sh"
tdir=${UDPCP_TESTS_DIR:-$here/t}

# Tests load modules and rewire networking: never on the host.
if [ ! -e /run/udpcp-io/env ] || [ "$(cat /proc/sys/kernel/hostname)" != udpcp-guest ]; then
	echo "run-tests: runs only inside the test guest: tests/vm/guest.sh $0 $*" >&2
	exit 2
fi

default_timeout=120
# The debug kernel (KASAN, lockdep, kmemleak under TCG) runs everything
# several times slower: tests/debug/check-debug.sh stretches the limits.
timeout_scale=${UDPCP_TIMEOUT_SCALE:-1}
[[ $timeout_scale =~ ^[1-9][0-9]*$ ]] || timeout_scale=1
work=/tmp/udpcp-tests
mkdir -p "$work"
passed=0 failed=0 skipped=0

# resolve NAME -> test file, or nothing
resolve() {
	local n=${1%.sh} f
	for f in "$tdir/$n.sh" "$tdir"/[0-9]*-"$n".sh; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
}

# Tests named in tests/t/pending.list are new and not yet proven green on
# a quiet machine: the whole-suite run leaves them out (UDPCP_RUN_PENDING=1
# includes them); naming one runs it.
pending() {
	[ "${UDPCP_RUN_PENDING:-0}" != 1 ] && [ -f "$tdir/pending.list" ] &&
		grep -qx "$(basename "$1" .sh)" "$tdir/pending.list"
}

files=()
if [ $# -eq 0 ]; then
	for f in "$tdir"/*.sh; do
		[ -f "$f" ] || continue
		pending "$f" && continue
		files+=("$f")
	done
else
	for n in "$@"; do
		f=$(resolve "$n")
		if [ -n "$f" ]; then
			files+=("$f")
		else
			echo "FAIL $n (no such test in $tdir)"
			failed=$((failed + 1))
		fi
	done
fi

# Remove what a test left behind so the next one starts clean.
cleanup_state() {
	local ns pids
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
		pids=$(ip netns pids "$ns" 2>/dev/null)
		# shellcheck disable=SC2086
		[ -n "$pids" ] && kill -KILL $pids 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	if [ -e /run/udpcp-autoload-installed ]; then
		rm -f "/lib/modules/$(uname -r)/extra/udpcp.ko" /run/udpcp-autoload-installed
		depmod -a 2>/dev/null
	fi
	# Sockets are freed after an RCU grace period: give rmmod a moment.
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		grep -q '^udpcp ' /proc/modules || break
		rmmod udpcp 2>/dev/null && break
		sleep 0.3
	done
	if grep -q '^udpcp ' /proc/modules; then
		echo "# note: udpcp still loaded after the test: $(grep '^udpcp ' /proc/modules)"
	fi
}

# Kernel log lines after the marker MARK; all of them if the ring buffer
# has already overwritten it (better a stale report than a missed one).
dmesg_since() {
	dmesg 2>/dev/null >"$work/dmesg"
	local n
	n=$(grep -nF -- "$1" "$work/dmesg" | tail -1 | cut -d: -f1)
	tail -n +"$((${n:-0} + 1))" "$work/dmesg"
}

for f in "${files[@]}"; do
	name=$(basename "$f" .sh)
	log=$work/$name.log
	result=$work/$name.result
	rm -f "$result"
	to=$(sed -n 's/^# timeout: *\([0-9][0-9]*\).*/\1/p' "$f" | head -1)
	to=$(( ${to:-$default_timeout} * timeout_scale ))
	mark="udpcp-test: begin $name $RANDOM$RANDOM"
	echo "<6>$mark" >/dev/kmsg

	t0=$EPOCHREALTIME
	# timeout makes its own process group: kill the whole group afterwards.
	UDPCP_TEST=$name UDPCP_RESULT=$result timeout -k 5 "$to" bash "$f" >"$log" 2>&1 </dev/null &
	pid=$!
	wait "$pid"
	rc=$?
	kill -KILL -- "-$pid" 2>/dev/null
	t1=$EPOCHREALTIME
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')

	cleanup_state >>"$log" 2>&1
	dmesg_since "$mark" >"$work/new"
	reports=$(kreport_grep "$work/new")
	reason=
	[ -s "$result" ] && reason=$(head -1 "$result")
	if [ -n "$reports" ]; then
		status=FAIL
		reason="kernel report: $(head -1 <<<"$reports" | sed 's/^\[[ 0-9.]*\] //')"
	elif [ $rc -eq 0 ]; then
		status=ok
	elif [ $rc -eq 77 ]; then
		status=skip
		[ -n "$reason" ] || reason=$(grep -v '^$' "$log" | tail -1)
	elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		status=FAIL
		reason="timeout after ${to}s"
	else
		status=FAIL
		[ -n "$reason" ] || reason="exit $rc"
	fi

	case $status in
	ok)
		echo "ok $name (${secs}s)"
		passed=$((passed + 1))
		;;
	skip)
		echo "skip $name (${reason:-exit 77})"
		skipped=$((skipped + 1))
		;;
	FAIL)
		echo "FAIL $name ($reason)"
		tail -n 60 "$log" | sed 's/^/    /'
		# The kernel log from the first report on (its backtrace), then any
		# later report lines.
		if [ -n "$reports" ]; then
			{ awk -v m="$(head -1 <<<"$reports")" 'index($0, m) { p = 1 } p' "$work/new" | head -n 60
				echo "$reports"; } | awk '!seen[$0]++' | sed 's/^/# kernel: /'
		fi
		failed=$((failed + 1))
		;;
	esac
done

summary="$passed passed, $failed failed"
[ $skipped -gt 0 ] && summary+=", $skipped skipped"
echo "$summary"
[ $failed -eq 0 ]
