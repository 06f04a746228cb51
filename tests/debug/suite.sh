#!/bin/bash
# The tests of tests/debug/suite.list, one per line:
#   suite.sh          all of them
#   suite.sh first    those before the "# -- second guest --" line
#   suite.sh second   those after it
# CI (scripts/ci.sh) runs the second part in a second debug guest once
# make check is done with its CPU.
set -euo pipefail
part=${1:-all}
case $part in
all | first | second) ;;
*) echo "usage: $0 [first|second]" >&2; exit 2 ;;
esac
# kmemleak's scan goes last (check-debug.sh adds it where it is missing).
awk -v part="$part" '
	/^# -- second guest --/ { second = 1; next }
	/^[[:space:]]*(#|$)/ { next }
	$1 ~ /kmemleak/ { scan = $1; next }
	part == "all" || (part == "second") == (second == 1) { print $1 }
	END { if (scan != "" && part != "second") print scan }
' "$(dirname "$0")/suite.list"
