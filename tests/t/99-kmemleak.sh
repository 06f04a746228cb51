#!/bin/bash
# Last test of the suite: on a kernel with kmemleak (the debug kernel of
# make check-debug) any suspected leak fails the run.  Skipped (77) on a
# kernel without it (the stock kernel of make check).
# timeout: 300
. "$(dirname "$0")/../lib/common.sh"

kml=/sys/kernel/debug/kmemleak
[ -e $kml ] || skip "no $kml (kernel without CONFIG_DEBUG_KMEMLEAK)"

# Objects freed on unload must count: unload the module first.
udpcp_unload || fail "cannot unload udpcp before the leak scan"
# Sockets and peers are freed after RCU grace periods; kmemleak also ignores
# objects younger than 5 s.
sleep 6
# The first scan records checksums, the second reports what stayed
# unreferenced (about 10 s each under TCG).
echo scan >$kml || fail "echo scan >$kml failed (kmemleak disabled?)"
echo scan >$kml || fail "second scan failed"
report=$(cat $kml)
if [ -n "$report" ]; then
	n=$(grep -c '^unreferenced object' <<<"$report" || true)
	echo "$report"
	fail "kmemleak: $n suspected leak(s)"
fi
echo "kmemleak: no suspected leaks"
