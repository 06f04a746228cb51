#!/bin/bash
# The Debian packages of `make deb` (build/deb/), installed as a user
# would: dpkg -i of udpcp-dkms, udpcpctl and udpcp-dev makes DKMS build the
# module for the running kernel; dkms status shows it installed;
# `modprobe udpcp` loads that module (version from debian/changelog, under
# updates/dkms) with udp_tunnel and ip6_udp_tunnel, and so do udpcpctl and
# socket(..., IPPROTO_UDPCP) by autoload; messages cross between
# two namespaces in ack mode; the installed /usr/sbin/udpcpctl talks to the
# module; the installed unit passes `systemd-analyze verify` and its commands
# run; a configuration saved with `udpcpctl save` comes back after
# modprobe -r through the unit's commands, and again over itself (a
# restart); then modprobe -r, dpkg -P, and
# nothing of the packages is left: no module for modprobe, no DKMS tree, no files.
# Missing .debs are a failure: make check builds them first (make deb).
# DKMS compiles the module inside this TCG guest: minutes on a loaded host.
# timeout: 2400
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/udpcp.sh"

kver=$(uname -r)
[ -d "/lib/modules/$kver/build" ] || skip "no headers for the running kernel $kver: DKMS cannot build"
debdir=$REPO/build/deb
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$REPO/debian/changelog")
debs=()
for p in udpcp-dkms udpcpctl udpcp-dev; do
	f=("$debdir/${p}_${version}_"*.deb)
	[ -e "${f[0]}" ] || fail "not built: $debdir/${p}_${version}_*.deb (make deb)"
	debs+=("${f[0]}")
done
pkgs=(udpcpctl udpcp-dev udpcp-dkms)
for p in "${pkgs[@]}"; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q ' installed$'; then
		fail "$p is already installed here: the test would not prove anything"
	fi
done
[ -e "/usr/src/udpcp-$version" ] && fail "/usr/src/udpcp-$version exists before the install"

loaded() { grep -q "^$1 " /proc/modules; }
# dkms uses bash's <(...), which needs /dev/fd: the guest's devtmpfs has
# none (udev makes it on a real system).
if [ ! -e /dev/fd ]; then
	ln -s /proc/self/fd /dev/fd
	on_exit "rm -f /dev/fd" # after cleanup below, which needs it
fi

# Whatever happens, the guest is left as it was for the later tests: the
# module unloaded, the packages purged (their prerm removes the DKMS build
# and runs depmod), any DKMS state gone.
cleanup() {
	modprobe -r udpcp 2>/dev/null || rmmod udpcp 2>/dev/null
	dpkg -P "${pkgs[@]}" >/dev/null 2>&1
	if [ -d /var/lib/dkms/udpcp ]; then
		dkms remove -m udpcp -v "$version" --all >/dev/null 2>&1
		rm -rf /var/lib/dkms/udpcp
		depmod -a "$kver"
	fi
	if [ -e "$TMP/man-db-auto-update" ]; then
		mv "$TMP/man-db-auto-update" /var/lib/man-db/auto-update
	fi
}
on_exit cleanup

# Start from nothing loaded, so that modprobe is seen loading the
# dependencies too.
udpcp_unload
for m in ip6_udp_tunnel udp_tunnel; do
	if loaded $m; then
		rmmod $m || fail "cannot unload $m before the test: $(grep "^$m " /proc/modules)"
	fi
done
expect_fail modprobe -n -q udpcp

# The man-db trigger would rebuild the manual index (minutes under TCG):
# it is not what this test is about.
if [ -e /var/lib/man-db/auto-update ]; then
	mv /var/lib/man-db/auto-update "$TMP/man-db-auto-update"
fi

# The guest's root is the host's, with every kernel the host has: DKMS's
# postinst builds for the running kernel and for the newest in /boot, and
# a second build under TCG costs ten minutes.  The test is about the
# running kernel's: dpkg runs where /boot shows that kernel only.
mkdir -p "$TMP/boot"
cp /boot/config-"$kver" "$TMP/boot/" 2>/dev/null || true
# shellcheck disable=SC2016 # expanded by the inner sh
in_boot() { unshare -m sh -c 'mount --bind "$0" /boot && exec "$@"' "$TMP/boot" "$@"; }

# --- install ---------------------------------------------------------------------
t0=$SECONDS
echo "# dpkg -i ${debs[*]##*/}"
if ! DEBIAN_FRONTEND=noninteractive in_boot dpkg -i "${debs[@]}" >"$TMP/dpkg-i.log" 2>&1; then
	cat "$TMP/dpkg-i.log"
	tail -n 30 /var/lib/dkms/udpcp/"$version"/build/make.log 2>/dev/null
	fail "dpkg -i failed"
fi
note "dpkg -i (DKMS builds the module) took $((SECONDS - t0)) s"
sed 's/^/#   /' "$TMP/dpkg-i.log"
mlog=/var/lib/dkms/udpcp/$version/$kver/$(uname -m)/log/make.log
if [ -f "$mlog" ] && started=$(date -d "$(sed -n 2p "$mlog")" +%s 2>/dev/null); then
	note "of which DKMS's make took $(($(stat -c %Y "$mlog") - started)) s"
fi

st=$(dkms status udpcp 2>&1)
echo "# dkms status: $st"
grep -q "^udpcp/$version, $kver, [^:]*: installed" <<<"$st" ||
	fail "dkms status does not show udpcp/$version installed for $kver: $st"
ko=$(modinfo -n udpcp 2>/dev/null) || fail "modinfo finds no udpcp module after the install"
case $ko in
/lib/modules/$kver/updates/dkms/udpcp.ko*) ;;
*) fail "modprobe would load $ko, not DKMS's build" ;;
esac
for f in /usr/src/udpcp-$version/dkms.conf /usr/sbin/udpcpctl /usr/include/linux/udpcp.h \
	/usr/include/linux/udpcp_nl.h /usr/src/udpcp-$version/uapi/linux/udpcp_nl.h \
	/usr/share/ynl/specs/udpcp.yaml /lib/systemd/system/udpcp.service /etc/udpcp/udpcp.conf \
	/usr/share/bash-completion/completions/udpcpctl /usr/share/man/man8/udpcpctl.8.gz; do
	[ -e "$f" ] || fail "not installed: $f"
done
echo "ok install: dkms built and installed $ko"

# --- loading: modprobe, and autoload by udpcpctl and socket() --------------------
# Each way loads DKMS's module with udp_tunnel and ip6_udp_tunnel;
# modprobe -r takes all three away again.
all_loaded() { # HOW
	local m
	for m in udpcp udp_tunnel ip6_udp_tunnel; do
		loaded $m || fail "$1 did not load $m"
	done
	assert_eq "$1: version of the loaded module" "$version" "$(cat /sys/module/udpcp/version 2>/dev/null)"
}
# Closed sockets go after an RCU grace period: retry.
unloaded() { modprobe -r udpcp 2>/dev/null; ! loaded udpcp; }
unload_all() {
	local m
	wait_until 20 unloaded || fail "modprobe -r udpcp: $(grep '^udpcp ' /proc/modules)"
	for m in udp_tunnel ip6_udp_tunnel; do
		loaded $m && fail "modprobe -r udpcp left $m loaded"
	done
	return 0
}
ctl=/usr/sbin/udpcpctl
"$ctl" defaults show >/dev/null || fail "udpcpctl defaults show (autoload)"
all_loaded "udpcpctl (the genl family's alias)"
unload_all
python3 -c 'import socket; socket.socket(socket.AF_INET6, socket.SOCK_DGRAM, 258).close()' ||
	fail "socket(AF_INET6, SOCK_DGRAM, IPPROTO_UDPCP) did not autoload the module"
all_loaded "socket(AF_INET6, IPPROTO_UDPCP)"
unload_all
modprobe udpcp || fail "modprobe udpcp"
all_loaded "modprobe udpcp"
echo "ok udpcpctl, socket() and modprobe load udpcp $version with udp_tunnel and ip6_udp_tunnel"

# --- udpcpctl, installed, against the module ----------------------------------------
"$ctl" -V | grep -q "^udpcpctl $version " || fail "udpcpctl -V: $("$ctl" -V 2>&1)"
topo_pair
"$ctl" -n "$NS_A" defaults set tx-timeout 321 || fail "udpcpctl defaults set"
out=$("$ctl" -n "$NS_A" -j defaults show) || fail "udpcpctl defaults show"
json_check "defaults after set" "$out" '.tx_timeout_ms == 321'
"$ctl" -n "$NS_A" peer add "$B4" port 5000 max-try 4 || fail "udpcpctl peer add"
out=$("$ctl" -n "$NS_A" -j peer show) || fail "udpcpctl peer show"
json_check "namespace-wide peer" "$out" \
	"map(select(.remote_address == \"$B4\" and .remote_port == 5000 and .max_try == 4)) | length == 1"

# --- messages between two namespaces, ack mode ----------------------------------------
n=5
bg_start recv in_ns "$NS_B" "$TOOL" recv -b "$B4" 5000 -n $n -t 60000
wait_port "$NS_B" 5000
out=$("$ctl" -n "$NS_B" -j sock show) || fail "udpcpctl sock show"
json_check "the receiver's socket" "$out" \
	"map(select(.local_port == 5000 and .family == \"inet\")) | length == 1"
out=$(in_ns "$NS_A" "$TOOL" send -d "$B4" 5000 -n $n --sizes 1,100,1500,5000,65487 \
	--mode ack --flush 60000) || fail "send exit $?: $out"
json_check "sender" "$out" ".sent == $n and .failed == 0 and .flush == \"ok\""
bg_wait recv || fail "receiver: $(cat "$TMP/recv.out" "$TMP/recv.err")"
json_check "receiver" "$(bg_json recv)" ".received == $n and .bad == 0 and .dups == 0 and .out_of_order == 0"
echo "ok $n messages in ack mode, $A4 -> $B4, through DKMS's module"

# --- the systemd unit ------------------------------------------------------------------
unit=/lib/systemd/system/udpcp.service
# verify's exit status misses some problems (unknown keys are only
# printed): anything it says about the unit fails too.  It also runs
# `man` for Documentation=man:udpcpctl(8), which the package installs.
vout=$(systemd-analyze verify "$unit" 2>&1) && vrc=0 || vrc=$?
if [ "$vrc" != 0 ] || grep -q 'udpcp' <<<"$vout"; then
	fail "systemd-analyze verify $unit (exit $vrc): $vout"
fi
mapfile -t execs < <(sed -n 's/^ExecStart=//p' "$unit")
[ ${#execs[@]} -ge 2 ] || fail "$unit: ExecStart lines: ${execs[*]}"
for e in "${execs[@]}"; do
	[ -x "${e%% *}" ] || fail "$unit: ${e%% *} is not executable"
done
echo "ok systemd-analyze verify $unit"
# Its commands, as systemd would run them at boot (in the initial
# namespace, on the example configuration: every line commented out).
for e in "${execs[@]}"; do
	# shellcheck disable=SC2086 # the unit's words
	$e || fail "$unit: '$e' failed"
done
echo "ok the unit's commands on the example configuration"

# --- a configuration kept across a module reload, as the unit keeps it across a boot
"$ctl" -n "$NS_A" peer del "$B4" port 5000 || fail "udpcpctl peer del"
"$ctl" defaults set tx-timeout 250 max-try 7 || fail "udpcpctl defaults set"
"$ctl" peer add 192.0.2.77 port 6000 rx-timeout 900 || fail "udpcpctl peer add (v4)"
"$ctl" peer add 2001:db8::77 port 6001 mode noack || fail "udpcpctl peer add (v6)"
"$ctl" save >/etc/udpcp/udpcp.conf || fail "udpcpctl save"
saved=$(cat /etc/udpcp/udpcp.conf)
grep -q '^peer replace 2001:db8::77 port 6001' <<<"$saved" || fail "save: $saved"
unload_all
for e in "${execs[@]}"; do
	# shellcheck disable=SC2086 # the unit's words
	$e || fail "$unit: '$e' failed on the saved configuration"
done
assert_eq "save after reload and the unit's commands" "$saved" "$("$ctl" save)"
echo "ok save, modprobe -r, the unit's commands: the same configuration"
# systemctl restart udpcp: the same commands again, over what they set.
for e in "${execs[@]}"; do
	# shellcheck disable=SC2086 # the unit's words
	$e || fail "$unit: '$e' failed when run again (a restart)"
done
assert_eq "save after the unit's commands ran again" "$saved" "$("$ctl" save)"
echo "ok the unit's commands again (a restart): the same configuration"

# --- modprobe -r, dpkg -P: nothing left ------------------------------------------------
unload_all
t0=$SECONDS
dpkg -P "${pkgs[@]}" >"$TMP/dpkg-r.log" 2>&1 || fail "dpkg -P: $(cat "$TMP/dpkg-r.log")"
note "dpkg -P took $((SECONDS - t0)) s"
st=$(dkms status udpcp 2>&1)
[ -z "$st" ] || fail "dkms status after dpkg -P: $st"
[ ! -e "/lib/modules/$kver/updates/dkms/udpcp.ko" ] || fail "DKMS's udpcp.ko left after dpkg -P"
expect_fail modprobe -n -q udpcp
for f in /usr/src/udpcp-$version /usr/sbin/udpcpctl /usr/include/linux/udpcp.h \
	/usr/include/linux/udpcp_nl.h /usr/share/ynl/specs/udpcp.yaml "$unit" /etc/udpcp/udpcp.conf; do
	[ ! -e "$f" ] || fail "left after dpkg -P: $f"
done
echo "ok modprobe -r and dpkg -P leave nothing"
