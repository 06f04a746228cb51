# Kernel reports that fail a test (sourced by run-tests.sh in the guest and by
# check.sh on the host).  Taint alone (out-of-tree module) is not a failure.
# shellcheck shell=bash
KREPORT_RE='BUG:|Oops|WARNING:|KASAN|UBSAN|possible circular locking|possible recursive locking|suspicious RCU usage|refcount_t:|ODEBUG|list_add corruption|list_del corruption|kmemleak: .* new suspected|Kernel panic'

# kreport_grep [FILE]: the report lines of a kernel log (dmesg format).
kreport_grep() {
	grep -aE "$KREPORT_RE" "$@" || true
}
