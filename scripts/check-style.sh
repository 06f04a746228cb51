#!/bin/bash
# The style gates: checkpatch --strict, W=1 and sparse (C=1) report nothing
# on the module and the uapi header; the tests' Python (tests/**/*.py)
# compiles and pyflakes reports nothing on it.
set -euo pipefail
cd "$(dirname "$0")/.."

KVER=${KVER:-$(scripts/kver.sh)}
KDIR=${KDIR:-/lib/modules/$KVER/build}
CACHE=${UDPCP_CACHE:-/var/cache/udpcp}
status=0

# checkpatch.pl ships in Debian's linux-source package, not in the headers.
src_tar=$(ls /usr/src/linux-source-*.tar.xz | sort -V | tail -n1)
src_ver=$(basename "$src_tar" .tar.xz)
checkpatch=$CACHE/checkpatch/$src_ver/scripts/checkpatch.pl
if [ ! -x "$checkpatch" ]; then
	mkdir -p "$CACHE/checkpatch"
	tar -C "$CACHE/checkpatch" -xf "$src_tar" \
		"$src_ver/scripts/checkpatch.pl" "$src_ver/scripts/spelling.txt" \
		"$src_ver/scripts/const_structs.checkpatch"
fi

cp_run() {
	"$checkpatch" --strict --no-tree --quiet --show-types \
		--ignore FILE_PATH_CHANGES "$@" 2>/dev/null || true
}
files=$(ls module/*.c module/*.h tests/kmod/*.c uapi/linux/*.h |
	grep -v -e '\.mod\.c$' -e compat.h -e trace.h -e netlink-gen -e udpcp_nl.h)
# compat.h is the one place where kernel versions are compared, by design.
# The generated files have the generator's long policy lines, as in-tree.
# trace.h is laid out as include/trace/events/ are (TP_PROTO( under the
# event's name, TP_STRUCT__entry( ending a line), which --strict flags.
out=$(cp_run -f $files
      cp_run --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON -f module/compat.h
      cp_run --ignore PARENTHESIS_ALIGNMENT,OPEN_ENDED_LINE -f module/trace.h
      cp_run --ignore LONG_LINE -f module/netlink-gen.[ch] uapi/linux/udpcp_nl.h)
if [ -n "$out" ]; then
	echo "$out"
	echo "style: checkpatch --strict reports the above"
	status=1
fi

# The tests' Python: tests/lib/py, tests/peer, tests/t/*.py, ...  Compiled
# in memory (py_compile would leave __pycache__ behind), with the system's
# python3, the one the guest runs.
pyfiles=$(find tests -name '*.py' -not -path '*/__pycache__/*' | sort)
if [ -n "$pyfiles" ]; then
	# shellcheck disable=SC2086 # one file per word
	out=$(/usr/bin/python3 -c '
import sys
for f in sys.argv[1:]:
    try:
        with open(f, "rb") as fh:
            compile(fh.read(), f, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        print("%s: %s" % (f, e))
' $pyfiles 2>&1
	      /usr/bin/python3 -m pyflakes $pyfiles 2>&1 || true)
	if [ -n "$out" ]; then
		echo "$out"
		echo "style: the tests' Python does not compile or pyflakes reports the above"
		status=1
	fi
fi

# A separate build directory keeps the normal build's objects out of it.
bdir=build/style
rm -rf "$bdir"
mkdir -p "$bdir"
cp -r module uapi "$bdir/"
rm -f "$bdir"/module/*.o "$bdir"/module/*.ko "$bdir"/module/.*.cmd
log=$(make -s -C "$KDIR" M="$PWD/$bdir/module" W=1 C=1 modules 2>&1 || echo "BUILD FAILED")
warn=$(echo "$log" | grep -E "warning|error|FAILED" | grep -v "Skipping BTF" || true)
if [ -n "$warn" ]; then
	echo "$log"
	echo "style: W=1 / sparse report the above"
	status=1
fi

# The next kernel compiles it too: module/compat.h holds the differences.
# A configured source tree is enough to compile (modpost lacks symbols):
# the one the patch series is applied to (tests/host/patches.sh), shared so
# that it is unpacked and prepared once.
if next_tar=$(scripts/series-tree.sh --tarball 2>/dev/null); then
	next_ver=$(basename "$next_tar" .tar.xz)
	ktree=$(scripts/series-tree.sh) || { echo "style: could not prepare $next_ver"; exit 1; }
	# where this check kept a 6.12 tree of its own before (about 2 GB)
	rm -rf "$CACHE/next-kernel"
	# patches.sh changes the tree under this lock, and puts it back at its base
	exec 8>"$ktree.lock"
	flock 8
	ndir=build/style-next
	rm -rf "$ndir"
	mkdir -p "$ndir"
	cp -r module uapi "$ndir/"
	rm -f "$ndir"/module/*.o "$ndir"/module/*.ko "$ndir"/module/.*.cmd
	log=$(make -s -C "$ktree" M="$PWD/$ndir/module" W=1 KBUILD_MODPOST_WARN=1 modules 2>&1 || echo "BUILD FAILED")
	warn=$(echo "$log" | grep -E "warning:|error:|FAILED" || true)
	if [ -n "$warn" ]; then
		echo "$log" | grep -v "undefined!"
		echo "style: the module does not compile cleanly against $next_ver"
		status=1
	fi
	exec 8>&-
else
	echo "style: linux-source-6.12 missing (make deps): 6.12 compile check skipped"
fi

# The generated netlink files are what the spec renders today.
if ! scripts/ynl-gen.sh --check; then
	echo "style: the generated netlink files are stale"
	status=1
fi

# The uapi header is usable from user space on its own.
printf '#include <linux/udpcp.h>\nint main(void) { return 0; }\n' > "$bdir/uapi-test.c"
if ! gcc -Wall -Wextra -pedantic -Werror -Iuapi -c -o "$bdir/uapi-test.o" "$bdir/uapi-test.c"; then
	echo "style: uapi/linux/udpcp.h does not compile in user space"
	status=1
fi

[ $status -eq 0 ] && echo "style: checkpatch, W=1, sparse, 6.12 build, ynl-gen, uapi, Python: clean"
exit $status
