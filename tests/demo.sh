#!/bin/bash
# make demo: boots the test guest and runs tests/demo-guest.sh in it (two
# namespaces, the module and udpcpctl if built, then tests/demo-data.sh if
# it exists).  Honours UDPCP_KERNEL / UDPCP_MODULES / UDPCP_APPEND / UDPCP_KO
# like check.sh.  Output of the guest: build/demo/.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$here/vm/guest.sh" --out "$here/../build/demo" --timeout "${UDPCP_DEMO_TIMEOUT:-600}" \
	-- "$here/demo-guest.sh"
