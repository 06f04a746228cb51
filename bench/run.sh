#!/bin/bash
# The benchmark, host side (make bench):
#
#   bench/run.sh [--smoke] [--only REGEX] [--profile LIST] [--timeout SECS]
#
# Boots the test guest once (tests/vm/guest.sh, output in build/guest-bench),
# runs bench/guest.sh there (every figure, IPv4 and IPv6), then turns the
# raw figures into
#   bench/results.json   every figure: runs, median, min, max, ratio to UDP
#   bench/results.txt    the table (also printed)
#   bench/results.png    the picture
# and checks the targets of issue 14.  --smoke (or BENCH_SMOKE=1) runs each
# figure for about a second, writes to build/bench-smoke/ instead
# and fails if any figure is missing or zero.  --only and --profile are
# passed to bench/guest.sh (see there); profiles land in build/guest-bench/.
# Environment: BENCH_SECS, BENCH_REPS, BENCH_WARM (see bench/guest.sh);
# BENCH_OUT (guest output directory, default build/guest-bench);
# BENCH_ICOUNT (default 2): the guest runs with QEMU -icount shift=N, its
# clock counting executed instructions, so the host's load does not move
# the figures (one guest CPU then); BENCH_ICOUNT=0: wall-clock time, 2 CPUs.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo"

smoke=${BENCH_SMOKE:-0} gargs=() timeout=
while [ $# -gt 0 ]; do
	case "$1" in
	--smoke) smoke=1; shift ;;
	--only | --profile) gargs+=("$1" "$2"); shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	*) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
[ "$smoke" = 1 ] && gargs+=(--smoke)
[ -n "$timeout" ] || { [ "$smoke" = 1 ] && timeout=1200 || timeout=7200; }
# exported: bench/guest.sh records the mode in the meta line
export BENCH_ICOUNT=${BENCH_ICOUNT:-2}
[[ "$BENCH_ICOUNT" =~ ^[0-9]+$ ]] || { echo "bench: BENCH_ICOUNT wants a shift (0: off)" >&2; exit 2; }
icount=()
[ "$BENCH_ICOUNT" = 0 ] || icount=(--icount "$BENCH_ICOUNT")

# matplotlib is Debian's (python3-matplotlib): the system interpreter.
py=/usr/bin/python3
[ -x "$py" ] || py=python3

if [ ! -x bench/udpcp-bench ] || [ ! -e module/udpcp.ko ]; then
	echo "bench: build first (make all)" >&2
	exit 2
fi
bench/udpcp-bench selftest >/dev/null || { echo "bench: uudpcp self-test failed" >&2; exit 1; }

gout=${BENCH_OUT:-$repo/build/guest-bench}
[ "$smoke" = 1 ] && gout=${BENCH_OUT:-$repo/build/guest-bench-smoke}
mkdir -p "$gout"
rm -f "$gout/bench-raw.jsonl" "$gout"/perf-*
rc=0
# guest.sh passes only UDPCP_* into the guest: the BENCH_* go by env(1).
benv=()
for v in $(compgen -e | grep '^BENCH_' || true); do
	benv+=("$v=${!v}")
done
tests/vm/guest.sh --out "$gout" --timeout "$timeout" "${icount[@]}" -- \
	env "${benv[@]}" bench/guest.sh --out /run/udpcp-io/bench-raw.jsonl "${gargs[@]}" || rc=$?
[ -s "$gout/bench-raw.jsonl" ] || { echo "bench: no figures (guest exit $rc)" >&2; exit 1; }
cp "$gout/bench-raw.jsonl" "$([ "$smoke" = 1 ] && echo build/bench-smoke-raw.jsonl || echo bench/results-raw.jsonl)"

if [ "$smoke" = 1 ]; then
	mkdir -p build/bench-smoke
	"$py" bench/plot.py "$gout/bench-raw.jsonl" --json build/bench-smoke/results.json \
		--table build/bench-smoke/results.txt --png build/bench-smoke/results.png --check ||
		rc=1
else
	"$py" bench/plot.py "$gout/bench-raw.jsonl" --json bench/results.json \
		--table bench/results.txt --png bench/results.png || rc=1
fi
exit $rc
