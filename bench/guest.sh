#!/bin/bash
# The benchmark, INSIDE the test guest (bench/run.sh boots it; by hand:
# tests/vm/guest.sh -- bench/guest.sh [--smoke]).
#
#   bench/guest.sh [--smoke] [--out FILE] [--only REGEX] [--ab KO]
#                  [--profile LIST]
#
# Loads the module, builds NS_A <-veth-> NS_B (tests/lib/common.sh
# topo_pair), runs `udpcp-bench server` in NS_B and one `udpcp-bench client`
# per figure and round in NS_A, IPv4 and IPv6, and appends one JSON object
# per run to FILE (default: /run/udpcp-io/bench-raw.jsonl, i.e. the --out
# directory of guest.sh on the host).  Figures that are compared with each
# other run next to each other in every round (paired ratios, see below).
#
#   --smoke     ~1 s per figure, one run: does everything work, not how fast
#   --only RE   only the figures whose "TEST:SIZE:PEERS:FAM" matches RE
#   --ab KO     A/B: every figure runs with $UDPCP_KO (tagged "ko":"a") and
#               with the module KO ("ko":"b"), swapped by rmmod/insmod
#               around each figure (order alternating); plot.py prints B/A
#   --profile L after the figures, `perf record -e cpu-clock -a -g` around
#               each figure of L (space-separated TEST:SIZE[:PEERS]:FAM) and
#               its report, as perf-TEST-SIZE-PEERS-vFAM.txt next to FILE
#
# Environment: BENCH_SECS (per run, default 1), BENCH_REPS (rounds, 5),
# BENCH_WARM (warm-up before each run, 0.5), BENCH_MEM_PEERS (5000),
# BENCH_MEM_SOCKS (500); BENCH_ICOUNT (bench/run.sh's, recorded as "clock");
# BENCH_FAMILIES ("4 6"; the memory figure always measures both).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${UDPCP_TEST:=bench}"
# shellcheck source=../tests/lib/common.sh
. "$here/../tests/lib/common.sh"

smoke=0 out=/run/udpcp-io/bench-raw.jsonl only="" profile="" ko_b=""
while [ $# -gt 0 ]; do
	case "$1" in
	--smoke) smoke=1; shift ;;
	--out) out=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--profile) profile=$2; shift 2 ;;
	--ab) ko_b=$(realpath "$2"); shift 2 ;;
	*) echo "bench/guest.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ "${BENCH_SMOKE:-0}" = 1 ] && smoke=1
families=${BENCH_FAMILIES:-4 6}
case $families in
4 | 6 | "4 6") ;;
*) echo "bench/guest.sh: BENCH_FAMILIES is \"4\", \"6\" or \"4 6\", not \"$families\"" >&2; exit 2 ;;
esac

if [ $smoke = 1 ]; then
	# Long enough that the slowest figure (user-space UDPCP, 64 KB in ack
	# mode, on a loaded machine) completes a message: 0.3 s did not.
	secs=${BENCH_SECS:-1} reps=${BENCH_REPS:-1} warm=${BENCH_WARM:-0.1}
	mem_peers=${BENCH_MEM_PEERS:-300} mem_socks=${BENCH_MEM_SOCKS:-50} mem_reps=1
else
	secs=${BENCH_SECS:-1} reps=${BENCH_REPS:-5} warm=${BENCH_WARM:-0.5}
	mem_peers=${BENCH_MEM_PEERS:-5000} mem_socks=${BENCH_MEM_SOCKS:-500} mem_reps=3
fi

bin=$REPO/bench/udpcp-bench
[ -x "$bin" ] || skip "bench/udpcp-bench is not built (make progs)"

udpcp_load
topo_pair
# Idle peers for the memory figure go beyond the default of 1024 per socket.
"$REPO/udpcpctl/udpcpctl" -n "$NS_A" defaults set max-peers $((mem_peers + 1024)) ||
	fail "udpcpctl defaults set max-peers"

in_ns "$NS_B" "$bin" server -b 0.0.0.0 -p 19999 &
srv=$!
on_exit "kill $srv 2>/dev/null; wait $srv 2>/dev/null"

mkdir -p "$(dirname "$out")"
{
	printf '{"test":"meta","kernel":"%s","cpus":%s,"smoke":%s,"secs":%s,"reps":%s,"warm":%s,"families":[%s],' \
		"$(uname -r)" "$(nproc)" $smoke "$secs" "$reps" "$warm" "${families// /,}"
	# BENCH_ICOUNT: set by bench/run.sh (the QEMU -icount shift, 0 = none)
	printf '"clock":"%s",' "$([ "${BENCH_ICOUNT:-0}" != 0 ] && echo "icount shift=$BENCH_ICOUNT" || echo wallclock)"
	printf '"git":"%s","ko_md5":"%s","date":"%s"}\n' \
		"$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)" \
		"$(md5sum <"$UDPCP_KO" | cut -c1-12)" "$(date -u +%FT%TZ)"
} >>"$out"

failed=0
rep=0
ko_a=$UDPCP_KO loaded=a
# swap_module: A -> B or B -> A (the server holds no UDPCP socket between
# figures, so the module can go).
swap_module() {
	local end=$((SECONDS + 300))
	# Closing a UDPCP socket waits for an RCU grace period (its UDP
	# tunnel socket): after a figure with 1000 sockets that takes a while.
	while grep -q '^udpcp ' /proc/modules; do
		rmmod udpcp 2>/dev/null && break
		[ $SECONDS -lt $end ] || fail "rmmod udpcp (A/B swap): $(grep '^udpcp ' /proc/modules)"
		sleep 0.5
	done
	if [ $loaded = a ]; then
		UDPCP_KO=$ko_b udpcp_load
		loaded=b
	else
		UDPCP_KO=$ko_a udpcp_load
		loaded=a
	fi
}
# fig TEST SIZE PEERS FAM [extra args]: one run of one figure (plus its
# warm-up), appended to $out as one JSON object tagged with the round (and
# with --ab, once per module).
fig() {
	local test=$1 size=$2 peers=$3 fam=$4 dst line n
	shift 4
	if [ -n "$only" ] && ! [[ "$test:$size:$peers:$fam" =~ $only ]]; then
		return 0
	fi
	[ "$fam" = 4 ] && dst=$B4 || dst=$B6
	for n in 1 2; do
		[ $n = 2 ] && { [ -n "$ko_b" ] || break; swap_module; }
		if line=$(in_ns "$NS_A" timeout 300 "$bin" client -c "$B4:19999" -t "$test" \
			-a "$dst" -s "$size" -n "$peers" -T "$secs" -r 1 -w "$warm" "$@"); then
			line="{\"round\":$rep,${line#\{}"
			[ -n "$ko_b" ] && line="{\"ko\":\"$loaded\",${line#\{}"
			echo "$line" >>"$out"
			printf '%s' "." >&2
		else
			echo "FAILED: $test size $size peers $peers IPv$fam (round $rep)" >&2
			failed=$((failed + 1))
		fi
	done
}

start=$SECONDS
# Memory first, on a fresh guest: both families in one process (see
# cmd_mem in udpcp-bench.c on why its sockets stay open until the end).
if [ -z "$ko_b" ] && { [ -z "$only" ] || [[ "mem:0:$mem_peers:4" =~ $only ]]; }; then
	echo "# mem" >&2
	if lines=$(in_ns "$NS_A" "$bin" mem -a "$B4" -a "$B6" -n "$mem_peers" -S "$mem_socks" -r $mem_reps); then
		echo "$lines" >>"$out"
		echo "$lines" | cut -c1-300 >&2
	else
		echo "FAILED: mem" >&2
		failed=$((failed + 1))
	fi
fi

# Other guests share this machine's CPUs, so throughput drifts by 2x within
# minutes.  Every figure is therefore run once per round, rounds repeat, and
# a figure sits right next to the baseline it is compared with: plot.py
# divides the two runs of the same round (paired ratios), then takes the
# median over the rounds.
for ((rep = 1; rep <= reps; rep++)); do
	echo "# round $rep of $reps ($((SECONDS - start)) s)" >&2
	for fam in $families; do
		for size in 64 1400 16384 65487; do
			fig udp-oneway $size 1 $fam
			fig udpcp-noack $size 1 $fam
			[ $size = 16384 ] && continue
			# what Adler-32 costs (diagnostic)
			[ $size != 64 ] && fig udpcp-noack $size 1 $fam --checksum off
			fig udpcp-single $size 1 $fam
			[ $size = 65487 ] && fig udpcp-single $size 1 $fam --checksum off
			fig udp-rr $size 1 $fam
			fig udpcp-ack $size 1 $fam
			fig uudpcp-ack $size 1 $fam
			fig tcp-rr $size 1 $fam
			fig uudpcp-single $size 1 $fam
			fig udpcp-ack-lat $size 1 $fam
			fig udpcp-single-lat $size 1 $fam
			fig uudpcp-ack-lat $size 1 $fam
		done
		for peers in 1 100 1000; do
			if [ $peers = 1 ]; then
				# again, next to the runs it is compared with
				fig udpcp-ack 64 1 $fam --tag peers
			else
				fig udp-rr 64 $peers $fam
				fig udpcp-ack 64 $peers $fam
			fi
		done
		# the wire formats agree: kernel sender, user-space receiver and back
		fig udpcp-ack 1400 1 $fam --peer-impl user
		fig uudpcp-ack 1400 1 $fam --peer-impl kernel
	done
	echo >&2
done
echo "# figures took $((SECONDS - start)) s" >&2

# Profiles: the whole guest (softirq included), kernel and user stacks.
# The data and the guest's kallsyms stay next to $out for perf report on the
# host:  perf report -i perf-X.data --kallsyms kallsyms
[ -n "$profile" ] && cp /proc/kallsyms "$(dirname "$out")/kallsyms"
for p in $profile; do
	IFS=: read -r test size peers fam <<<"$p"
	if [ -z "$fam" ]; then
		fam=$peers
		peers=1
	fi
	[ "$fam" = 4 ] && dst=$B4 || dst=$B6
	name=perf-$test-$size-$peers-v$fam
	dir=$(dirname "$out")
	echo "# profile $name" >&2
	# recorded on tmpfs: writing to the 9p share would show in the profile
	perf record -q -e cpu-clock -F 999 -a -g -o "/tmp/$name.data" -- \
		ip netns exec "$NS_A" "$bin" client -c "$B4:19999" -t "$test" -a "$dst" \
		-s "$size" -n "$peers" -T 5 -r 1 -w 1 >"$dir/$name.json" 2>/dev/null ||
		echo "profile $name failed" >&2
	# self time per symbol, and time including callees
	perf report -i "/tmp/$name.data" --stdio --no-children --sort sym \
		--percent-limit 0.5 -g none 2>/dev/null >"$dir/$name.txt" || true
	perf report -i "/tmp/$name.data" --stdio --children --sort sym \
		--percent-limit 1 -g none 2>/dev/null >"$dir/$name.children.txt" || true
	mv "/tmp/$name.data" "$dir/"
done

[ $failed = 0 ] || fail "$failed figure(s) failed"
