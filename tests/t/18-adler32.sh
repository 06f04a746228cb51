#!/bin/bash
# The module's Adler-32 equals the kernel's zlib_adler32() bit for bit:
# tests/kmod/udpcp_adler32_test.ko compares them on load (every length up
# to NMAX + 16 at every start offset, all 0xff, zeros, random octets,
# initial values near the modulus, 64 KB messages) and refuses to load on
# any difference, for the scalar loop and for each vector variant the
# guest's CPU has (SSSE3, AVX2 on x86-64): a variant the CPU has but the
# test did not check fails here.  Its speed against zlib_adler32 goes to
# the output.  Then udpcp itself must use the variant it measured fastest
# at load, as its kernel log line reports.
# timeout: 240
. "$(dirname "$0")/../lib/common.sh"
ko=${UDPCP_TESTMODS:-}/udpcp_adler32_test.ko
[ -f "$ko" ] || fail "not built: $ko (tests/check.sh builds tests/kmod)"
dmesg -C
err=$(insmod "$ko" 2>&1) || fail "udpcp_adler32_test refused to load: $err; $(dmesg | grep -i adler32 | head -5)"
line=$(dmesg | grep 'udpcp_adler32_test:' | tail -1)
echo "${line#*] }"
rmmod udpcp_adler32_test
assert_eq "differences" 0 "$(sed -n 's/.*: \([0-9]*\) differences.*/\1/p' <<<"$line")"
# The guest runs -cpu max: what it has must have been checked.
checked=$(sed -n 's/.*checked:\([a-z0-9_ ]*\);.*/\1/p' <<<"$line")
for f in ssse3 avx2; do
	if grep -qw "$f" /proc/cpuinfo; then
		[[ " $checked " == *" $f "* ]] || fail "the CPU has $f but it was not checked (checked:$checked)"
		echo "$f checked against zlib_adler32"
	fi
done

# The module uses the variant it measured fastest at load (under TCG the
# word loop; on real CPUs a vector one).
dmesg -C
udpcp_load
pick=$(dmesg | grep -o 'udpcp: Adler-32 by .*' | tail -1)
[ -n "$pick" ] || fail "udpcp logged no Adler-32 choice at load"
echo "$pick"
read -r chosen fastest < <(sed -n 's/.* by \([a-z0-9]*\) (.*: scalar \([0-9]*\), ssse3 \([0-9]*\), avx2 \([0-9]*\);.*/\1 scalar=\2 ssse3=\3 avx2=\4/p' <<<"$pick" |
	awk '{ best = ""; for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[2] > 0 && (best == "" || kv[2] < min)) { min = kv[2]; best = kv[1] } } print $1, best }')
assert_eq "the variant chosen is the fastest measured" "$fastest" "$chosen"
udpcp_unload
