#!/bin/bash
# Per-peer settings made through netlink change what goes on the wire.
# A message to a dead port fails after max-try sends, tx-timeout apart:
# a template with max-try 1 makes it fail after one send (0 retries),
# sooner than the default five (4 retries, >= 5 x tx-timeout); a template
# beats the application's socket option, a socket's own peer (added with
# local) beats the template; peer change takes effect on the next
# message (max-try, tx-timeout), and mode noack still owes the sync that
# follows a failure: unanswered, it fails the no-ack message in its place
# after max-try sends.  The failed message IDs come back on the error queue.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
A=$NS_A
TX=500
check "defaults tx-timeout $TX" 0 "" "" uctl "$A" defaults set tx-timeout $TX
check "template max-try 1" 0 "" "" uctl "$A" peer add "$B4" port 5999 max-try 1
check "template max-try 1 (5996)" 0 "" "" uctl "$A" peer add "$B4" port 5996 max-try 1

# send PORT [ARGS]: one message to a dead port of B; prints the tool's JSON
# summary reduced to what it says about the failure.
send() {
	local port=$1 out rc=0
	shift
	out=$(ip netns exec "$A" "$TOOL" send -d "$B4" "$port" "$@") || rc=$?
	echo "rc $rc $(jq -c '{failed_ids, tx_timeout: .info.tx_timeout, tx_retries: .info.tx_retries}' <<<"$out")"
}

echo "# template max-try 1 against the default 5"
check "max-try 1: fails after one send" 0 'rc 3 {"failed_ids":[1],"tx_timeout":1,"tx_retries":0}' "" send 5999
check "max-try 5 (default): after five" 0 'rc 3 {"failed_ids":[1],"tx_timeout":1,"tx_retries":4}' "" send 5998
# Timed in the sending process (starting one costs more than a timeout).
check "max-try 1 fails sooner" 0 "max-try 1: failed [1], >= 1 x $TX ms: True, < 5 x $TX ms: True
max-try 5: failed [1], >= 5 x $TX ms: True" "" nl_py "$A" $TX <<'PY'
import os, socket, struct, sys, time
tx = int(sys.argv[1])
def fail_time(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 258)
    t0 = time.monotonic()
    s.sendto(b"x" * 100, ("192.0.2.2", port))
    s.setsockopt(258, 7, 30000)          # UDPCP_FLUSH
    ms = (time.monotonic() - t0) * 1000
    _, anc, _, _ = s.recvmsg(0, 512, socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
    ids = [struct.unpack("IBBBBII", d[:16])[5] for _, _, d in anc]
    with open(os.environ["NL_TMP"] + "/times", "a") as f:
        f.write(f"# (to port {port}: failed after {ms:.0f} ms)\n")
    return ms, ids
ms, ids = fail_time(5999)
print(f"max-try 1: failed {ids}, >= 1 x {tx} ms: {ms >= tx}, < 5 x {tx} ms: {ms < 5 * tx}")
ms, ids = fail_time(5998)
print(f"max-try 5: failed {ids}, >= 5 x {tx} ms: {ms >= 5 * tx}")
PY
cat "$NL_TMP/times"
# A template is the administrator's word on that peer: it beats the
# application's socket option.
check "template over the socket option max-try 3" 0 'rc 3 {"failed_ids":[1],"tx_timeout":1,"tx_retries":0}' "" \
	send 5996 --max-try 3
check "socket option max-try 3 without a template" 0 'rc 3 {"failed_ids":[1],"tx_timeout":1,"tx_retries":2}' "" \
	send 5995 --max-try 3

echo "# a socket's peer, changed between messages"
check "socket peer: max-try 2 tx-timeout 50, then 3 and 300, then noack" 0 "\
msg 1: failed [1], >= 100 ms: True
    tx: msgs 0 bytes 0 timeout 1 retries 1 pmtu-restarts 0 icmp-errors N
msg 1: < 2000 ms: True
msg 2: failed [2], >= 900 ms: True
    tx: msgs 0 bytes 0 timeout 2 retries 3 pmtu-restarts 0 icmp-errors N
msg 3: failed [3], >= 900 ms: True
    tx: msgs 0 bytes 0 timeout 3 retries 5 pmtu-restarts 0 icmp-errors N" "" nl_py "$A" <<'PY'
import os, re, socket, struct, subprocess, time
U, B4 = os.environ["U"], "192.0.2.2"
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 258)
s.bind(("192.0.2.1", 7000))
def ctl(*args):
    r = subprocess.run([U, *args], capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"udpcpctl {' '.join(args)}: {r.stderr}")
    return r.stdout
def send(n, limit, more):
    t0 = time.monotonic()
    s.sendto(b"x" * 100, (B4, 5997))
    s.setsockopt(258, 7, 30000)          # UDPCP_FLUSH
    ms = (time.monotonic() - t0) * 1000
    failed = []
    while True:
        try:
            _, anc, _, _ = s.recvmsg(0, 512, socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
        except BlockingIOError:
            break
        for lvl, typ, data in anc:
            errno_, origin, _, _, _, info, _ = struct.unpack("IBBBBII", data[:16])
            failed.append(info)
    ok = ms >= limit if more else ms < limit
    print(f"msg {n}: failed {failed}, {'>=' if more else '<'} {limit} ms: {ok}")
    tx = [l for l in ctl("-s", "peer", "show", B4, "port", "5997", "local-port", "7000").splitlines()
          if "tx:" in l]
    # B answers the closed port: some ICMP errors (how many, its rate
    # limit decides) are counted; N stands for any number but 0.
    print(re.sub(r"icmp-errors [1-9][0-9]*", "icmp-errors N", tx[0]))
    return ms
# A template for that endpoint too: the socket's own peer beats it.
ctl("peer", "add", B4, "port", "5997", "max-try", "1", "tx-timeout", "2000")
ctl("peer", "add", B4, "port", "5997", "local-port", "7000", "max-try", "2", "tx-timeout", "50")
print(f"msg 1: < 2000 ms: {send(1, 100, True) < 2000}")
ctl("peer", "change", B4, "port", "5997", "local-port", "7000", "max-try", "3", "tx-timeout", "300")
send(2, 900, True)
ctl("peer", "change", B4, "port", "5997", "local-port", "7000", "mode", "noack")
send(3, 900, True)
PY
nl_done
