#!/bin/bash
# Guest half of tests/debug/selftest.sh: commits each fault of the broken
# module in turn, between markers in the kernel log, so the host can tell
# which case produced which report.  Usage (inside the debug guest):
#   selftest-guest.sh KO
# Order matters: the lockdep case comes first (a KASAN report turns lockdep
# off), the leak last (its module stays loaded, so kmemleak's backtraces
# carry its symbols); kmemleak is asked twice, after the 5 s minimum age.
set -u
ko=$1
mark() { echo "udpcp-selftest: $*" >/dev/kmsg; }
kml=/sys/kernel/debug/kmemleak

[ -e "$ko" ] || { echo "selftest-guest: no $ko" >&2; exit 2; }
echo "selftest-guest: kernel $(uname -r)"
for c in clean abba shift uaf leak; do
	case $c in clean) arg= ;; *) arg=$c=1 ;; esac
	mark "begin $c"
	insmod "$ko" $arg || echo "selftest-guest: insmod $arg failed" >&2
	# The leak case keeps its module loaded until after the scan.
	[ $c = leak ] || rmmod udpcp_broken || echo "selftest-guest: rmmod after $c failed" >&2
	mark "end $c"
done
mark "begin kmemleak"
if [ -e $kml ]; then
	sleep 6 # kmemleak ignores objects younger than 5 s
	echo scan >$kml
	echo scan >$kml
	echo "selftest-guest: kmemleak report follows"
	echo "---- kmemleak ----"
	cat $kml
	echo "---- end kmemleak ----"
else
	echo "selftest-guest: no $kml" >&2
fi
mark "end kmemleak"
rmmod udpcp_broken || echo "selftest-guest: final rmmod failed" >&2
mark "done"
exit 0
