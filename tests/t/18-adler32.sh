#!/bin/bash
# The module's Adler-32 equals the kernel's zlib_adler32() bit for bit:
# tests/kmod/udpcp_adler32_test.ko compares them on load (every length up
# to NMAX + 16 at every start offset, all 0xff, zeros, random octets,
# initial values near the modulus, 64 KB messages) and refuses to load on
# any difference, for the scalar loop and for each vector variant the
# guest's CPU has (SSSE3, AVX2 on x86-64): a variant the CPU has but the
# test did not check fails here.  Its speed against zlib_adler32 goes to
# the output.
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
