#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The upstream series (make patches) on the linux-source-6.12 tree that
# scripts/series-tree.sh keeps under $UDPCP_CACHE: the series is generated,
# then each patch, in order,
#   - applies with git am onto the tree's base (the tree is back at its
#     base afterwards, whatever happened),
#   - passes scripts/checkpatch.pl --strict of that tree, but for the
#     exceptions below,
#   - builds: make M=net/udpcp W=1 once net/udpcp exists (no warning,
#     no error); the uapi headers compile in user space on their own; the
#     Kconfig hook offers CONFIG_UDPCP; the selftest compiles against the
#     tree's headers and kselftest harness.
# Prints ok/FAIL lines and "N passed, N failed"; exits 1 on any failure.
#
# checkpatch exceptions, each for the files named only:
#   LONG_LINE in the ynl-gen-c output (net/udpcp/netlink-gen.[ch],
#     include/uapi/linux/udpcp_nl.h): generated, as the kernel's other
#     *-gen/*_nl files are, and regenerated rather than edited;
#   PARENTHESIS_ALIGNMENT, OPEN_ENDED_LINE in net/udpcp/trace.h: the
#     layout of include/trace/events/ (TP_PROTO( under the event's name,
#     TP_STRUCT__entry( ending a line), which --strict flags there too.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

passed=0 failed=0
ok() { echo "ok $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

exceptions=(
	'LONG_LINE[A-Z_]*:(net/udpcp/netlink-gen\.[ch]|include/uapi/linux/udpcp_nl\.h)'
	'(PARENTHESIS_ALIGNMENT|OPEN_ENDED_LINE):net/udpcp/trace\.h'
)

mkdir -p "$repo/build"
out=$repo/build/patches-test
if ! PATCHES_OUT=$out scripts/patches.sh >"$repo/build/patches-gen.log" 2>&1; then
	fail "make patches (log build/patches-gen.log)"
	sed 's/^/    /' "$repo/build/patches-gen.log" | tail -20
	finish
fi
mapfile -t series < <(ls "$out"/0*.patch | grep -v /0000-)
if [ "${#series[@]}" -lt 5 ] || [ ! -s "$out/0000-cover-letter.patch" ] ||
   grep -q '\*\*\*' "$out/0000-cover-letter.patch"; then
	fail "series: a cover letter and 5 patches (have ${#series[@]})"
	finish
fi
ok "make patches (${#series[@]} patches and a cover letter)"

tree=$(scripts/series-tree.sh) || { fail "series tree"; finish; }

# One run at a time changes the tree; it goes back to its base after.
exec 9>"$tree.lock"
flock 9
reset_tree() {
	git -C "$tree" am --abort >/dev/null 2>&1
	git -C "$tree" checkout -q -f -B udpcp-series base
	rm -rf "$tree/net/udpcp"
}
trap reset_tree EXIT
reset_tree

tmp=$(mktemp -d)
trap 'reset_tree; rm -rf "$tmp"' EXIT

# checkpatch's messages (--show-types) as "TYPE:file: text" lines, less
# the exceptions.
checkpatch() {
	(cd "$tree" && scripts/checkpatch.pl --strict --show-types --quiet "$1" 2>&1) |
		awk '/^(ERROR|WARNING|CHECK):/ { msg = $0; next }
		     msg && /^#[0-9]+: FILE: / { f = $3; sub(/:[0-9]+:$/, "", f)
			 sub(/^(ERROR|WARNING|CHECK):/, "", msg); m = msg; sub(/:.*/, "", m)
			 t = substr(msg, length(m) + 2); sub(/^ +/, "", t); print m ":" f ": " t; msg = ""; next }
		     msg && !/^#/ { sub(/^(ERROR|WARNING|CHECK):/, "", msg); print msg ":-: "; msg = "" }
		     END { if (msg) print msg }' |
		grep -v -E "^($(IFS='|'; echo "${exceptions[*]}")):" || true
}

built=0
for p in "${series[@]}"; do
	name=$(basename "$p" .patch)
	if ! git -C "$tree" am -q "$p" >"$tmp/am.log" 2>&1; then
		fail "$name: git am"
		sed 's/^/    /' "$tmp/am.log" | head -10
		finish
	fi
	ok "$name: applies"

	cp_out=$(checkpatch "$p")
	if [ -n "$cp_out" ]; then
		fail "$name: checkpatch --strict"
		sed 's/^/    /' <<<"$cp_out" | head -30
	else
		ok "$name: checkpatch --strict"
	fi

	files=$(git -C "$tree" diff --name-only HEAD~1 HEAD)
	if grep -q '^include/uapi/linux/udpcp' <<<"$files"; then
		mkdir -p "$tmp/uapi/linux"
		cp "$tree"/include/uapi/linux/udpcp*.h "$tmp/uapi/linux/"
		if printf '#include <linux/udpcp.h>\nint main(void) { return 0; }\n' |
		   gcc -Wall -Wextra -pedantic -Werror -I"$tmp/uapi" -x c -fsyntax-only - \
			>"$tmp/uapi.log" 2>&1; then
			ok "$name: uapi headers compile in user space"
		else
			fail "$name: uapi headers compile in user space"
			sed 's/^/    /' "$tmp/uapi.log" | head -10
		fi
	fi
	if grep -q '^net/Kconfig' <<<"$files"; then
		# Captured first: under pipefail, grep -q quitting early would
		# fail the pipeline by make's SIGPIPE.
		newconfig=$(cd "$tree" && make -s listnewconfig 2>&1)
		if grep -q '^CONFIG_UDPCP=' <<<"$newconfig"; then
			ok "$name: Kconfig offers CONFIG_UDPCP"
		else
			fail "$name: Kconfig offers CONFIG_UDPCP"
		fi
	fi
	if [ -d "$tree/net/udpcp" ]; then
		# CONFIG_UDPCP=m on the command line: the prepared .config
		# predates the Kconfig hook.
		log=$(make -s -C "$tree" M=net/udpcp CONFIG_UDPCP=m W=1 \
			KBUILD_MODPOST_WARN=1 -j"$(nproc)" modules 2>&1 || echo "BUILD FAILED")
		warn=$(grep -E 'warning:|error:|FAILED' <<<"$log" | grep -v 'undefined!' || true)
		if [ -n "$warn" ] || [ ! -f "$tree/net/udpcp/udpcp.ko" ]; then
			fail "$name: make M=net/udpcp W=1"
			sed 's/^/    /' <<<"$log" | grep -v 'undefined!' | head -20
		else
			ok "$name: make M=net/udpcp W=1$([ $built = 1 ] && echo ' (unchanged)')"
		fi
		built=1
	fi
	if grep -q '^tools/testing/selftests/net/udpcp' <<<"$files"; then
		sel=$tree/tools/testing/selftests/net
		# the flags of its Makefile, warnings as errors
		if gcc -Wall -Werror -O2 -isystem "$tmp/uapi" -I"$sel/.." -o "$tmp/udpcp" \
			"$sel/udpcp.c" >"$tmp/sel.log" 2>&1 && bash -n "$sel/udpcp.sh" &&
		   grep -q 'udpcp\.sh' "$sel/Makefile" && grep -q 'TEST_GEN_FILES.*udpcp' "$sel/Makefile"; then
			ok "$name: selftest compiles and is wired into the Makefile"
		else
			fail "$name: selftest compiles and is wired into the Makefile"
			sed 's/^/    /' "$tmp/sel.log" | head -10
		fi
	fi
done
finish
