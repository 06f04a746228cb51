#!/bin/bash
# The benchmark runs: every figure of bench/guest.sh, for a second each
# (--smoke), and bench/plot.py --check finds each present with non-zero
# rate, CPU per message, latency where there is one, receiver byte counts
# that match, no failed message, and the memory figures of both families.
# Says nothing about speed.  The figures run over IPv6 only: the bench's
# code differs between the families only in the address, and the IPv4
# figures took half of the test's 176 s; `make bench` runs both.
# timeout: 600
. "$(dirname "$0")/../lib/common.sh"

[ -x "$REPO/bench/udpcp-bench" ] || skip "bench/udpcp-bench not built (make progs)"
[ -e "$UDPCP_KO" ] || skip "module not built: $UDPCP_KO"
# The self-test talks over 127.0.0.1, and the guest's own lo is down: it
# gets a namespace of its own, whose lo is up.
_ns_add NS_SELF self
in_ns "$NS_SELF" "$REPO/bench/udpcp-bench" selftest >/dev/null ||
	fail "udpcp-bench selftest (user-space UDPCP)"

work=$(mktemp -d /tmp/bench-smoke.XXXXXX)
on_exit "rm -rf '$work'"
BENCH_SMOKE=1 BENCH_FAMILIES=6 "$REPO/bench/guest.sh" --out "$work/raw.jsonl" 2>"$work/log" ||
	{ tail -n 30 "$work/log" >&2; fail "bench/guest.sh --smoke failed: $(grep -m1 -E 'FAILED|FAIL:' "$work/log")"; }
/usr/bin/python3 "$REPO/bench/plot.py" "$work/raw.jsonl" --check >"$work/table" 2>"$work/check" ||
	{ cat "$work/check" >&2; fail "$(head -n 1 "$work/check")"; }
grep -q "every figure present" "$work/table" || fail "plot.py --check said nothing"
