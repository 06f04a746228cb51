#!/bin/bash
# Events: udpcpctl monitor, -j monitor and -j -s monitor each see, in
# order and nothing else: a peer created and removed by netlink (templates
# make none), a peer created by sending, msg-failed with the ID of each
# message that failed (those the tool was told failed), peer-resync when a
# sync is acknowledged, msg-failed for message 3 after two went through,
# peer-removed when a socket closes and when an idle peer expires.  The
# ynl CLI subscribed to the same group decodes the same events.  -t
# stamps each event (UTC, ISO 8601, in order, within the run; -j as a
# "timestamp" key); event names and peer filters (ADDR, port, LOCAL,
# state) narrow what monitor prints.
# timeout: 120
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
topo_pair
A=$NS_A
hold_sock "$A" 0.0.0.0 5000

mon_start "$A" "$NL_TMP/mon-plain"
mon_start "$A" "$NL_TMP/mon-json" -j
mon_start "$A" "$NL_TMP/mon-full" -j -s
mon_start "$A" "$NL_TMP/mon-time" -t -j
mon_start "$A" "$NL_TMP/mon-tplain" -t
mon_start "$A" "$NL_TMP/mon-filter" -- msg-failed peer-resync "$B4" port 5998
mon_start "$A" "$NL_TMP/mon-state" -- peer-created state idle local-port 5000
t_start=$(date -u +%s.%N)
ynl_setup || fail "ynl tools missing"
ip netns exec "$A" "$PY" "$YNL_DIR/tools/net/ynl/cli.py" --spec "$YNL_SPEC" --no-schema \
	--subscribe events --sleep 40 --output-json >"$NL_TMP/ynl.out" 2>&1 &
ynl=$!
# ynl subscribes, then sleeps: once in clock_nanosleep (230) or nanosleep
# (35), it listens.
ynl_sleeps() { case $(cut -d' ' -f1 "/proc/$ynl/syscall" 2>/dev/null) in 230 | 35) ;; *) false ;; esac; }
wait_until 60 ynl_sleeps || fail "ynl did not subscribe: $(cat "$NL_TMP/ynl.out")"
sleep 0.5

echo "# netlink: a peer and a template"
check "peer add" 0 "" "" uctl "$A" peer add "$B4" port 7000 local-port 5000
check "peer del" 0 "" "" uctl "$A" peer del "$B4" port 7000 local-port 5000
check "template add" 0 "" "" uctl "$A" peer add "$B4" port 7000
check "template del" 0 "" "" uctl "$A" peer del "$B4" port 7000

echo "# three messages to nobody"
out=$(ip netns exec "$A" "$TOOL" send -b "$A4" 7001 -d "$B4" 5999 -n 3 --max-try 1 --tx-timeout 50) && rc=0 || rc=$?
check_eq "send: failed ids" "3 [1,2,3]" "$rc $(jq -c .failed_ids <<<"$out")"

echo "# two messages through, the receiver goes, the third fails"
ip netns exec "$NS_B" "$TOOL" recv -b "$B4" 5998 -n 2 -t 20000 >"$NL_TMP/recv.out" 2>&1 &
recv=$!
wait_port() { ip netns exec "$NS_B" ss -Hulan "sport = :5998" | grep -q .; }
wait_until 20 wait_port || fail "receiver on 5998"
check "2 ok, receiver gone, 1 failed" 0 "flush 1: 0, failed []
flush 2: 0, failed [3]" "" nl_pyfile "$A" 48-nl-monitor-flush.py "$recv"
# (not the tool's test pattern: it calls them bad, but received them)
wait "$recv" || true
check "received 2" 0 "2" "" jq .received "$NL_TMP/recv.out"

echo "# an idle peer expires"
check "peer-expiry 1000" 0 "" "" uctl "$A" defaults set peer-expiry 1000
ip netns exec "$NS_B" "$TOOL" send -b "$B4" 6000 -d "$A4" 5000 >/dev/null || fail "B to A"
wait_until 15 "grep -q 'peer-removed $B4 port 6000' '$NL_TMP/mon-plain'" || true

S="local 192.0.2.1"
# A peer added by netlink is announced already configured.
check "monitor" 0 "peer-created $B4 port 7000 local 0.0.0.0:5000 state idle flags configured,need-sync
peer-removed $B4 port 7000 local 0.0.0.0:5000 state idle flags configured,need-sync
peer-created $B4 port 5999 $S:7001 state idle flags need-sync
msg-failed $B4 port 5999 $S:7001 msg-id 1 state idle flags need-sync
msg-failed $B4 port 5999 $S:7001 msg-id 2 state idle flags need-sync
msg-failed $B4 port 5999 $S:7001 msg-id 3 state idle flags need-sync
peer-removed $B4 port 5999 $S:7001 state idle flags need-sync
peer-created $B4 port 5998 $S:7002 state idle flags need-sync
peer-resync $B4 port 5998 $S:7002 state idle
msg-failed $B4 port 5998 $S:7002 msg-id 3 state idle flags need-sync
peer-removed $B4 port 5998 $S:7002 state idle flags need-sync
peer-created $B4 port 6000 local 0.0.0.0:5000 state idle flags need-sync
peer-removed $B4 port 6000 local 0.0.0.0:5000 state idle flags need-sync" "" cat "$NL_TMP/mon-plain"
j() { # EVENT PORT LOCAL_ADDR LOCAL_PORT MSG_ID FLAGS
	printf '{"event":"%s","remote_address":"%s","remote_port":%s,"local_address":"%s","local_port":%s,%s"state":"idle","flags":[%s]}\n' \
		"$1" "$B4" "$2" "$3" "$4" "${5:+\"msg_id\":$5,}" "$6"
}
NS='"need-sync"' CNS='"configured","need-sync"'
check "-j monitor" 0 "$(j peer-created 7000 0.0.0.0 5000 "" "$CNS"
j peer-removed 7000 0.0.0.0 5000 "" "$CNS"
j peer-created 5999 "$A4" 7001 "" "$NS"
j msg-failed 5999 "$A4" 7001 1 "$NS"
j msg-failed 5999 "$A4" 7001 2 "$NS"
j msg-failed 5999 "$A4" 7001 3 "$NS"
j peer-removed 5999 "$A4" 7001 "" "$NS"
j peer-created 5998 "$A4" 7002 "" "$NS"
j peer-resync 5998 "$A4" 7002 "" ""
j msg-failed 5998 "$A4" 7002 3 "$NS"
j peer-removed 5998 "$A4" 7002 "" "$NS"
j peer-created 6000 0.0.0.0 5000 "" "$NS"
j peer-removed 6000 0.0.0.0 5000 "" "$NS")" "" cat "$NL_TMP/mon-json"
check "-j -s monitor: JSON, every peer key" 0 "13 lines, all with remote_address remote_port local_address local_port state flags mode checksum tx_timeout_ms rx_timeout_ms max_try outstanding_acks next_msg_id idle_ms rtt_us stats" "" \
	py_run 48-nl-monitor-json.py keys "$NL_TMP/mon-full"
check "-j -s monitor: counters at each failure" 0 '["msg-failed",5999,1,1,0]
["msg-failed",5999,2,2,0]
["msg-failed",5999,3,3,0]
["msg-failed",5998,3,1,2]' "" \
	bash -c "jq -c 'select(.event == \"msg-failed\") | [.event, .remote_port, .msg_id, .stats.tx_timeout, .stats.tx_msgs]' '$NL_TMP/mon-full'"

t_end=$(date -u +%s.%N)
check "-t -j monitor: 13 events, each a valid UTC timestamp within the run, in order" 0 "13 ok" "" \
	py_run 48-nl-monitor-json.py times "$NL_TMP/mon-time" "$t_start" "$t_end"
check "-t monitor: the same events, each after [TIMESTAMP]" 0 "$(sed 's/^/[T] /' "$NL_TMP/mon-plain")" "" \
	sed -E 's/^\[[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z\] /[T] /' "$NL_TMP/mon-tplain"
check "monitor msg-failed peer-resync $B4 port 5998: those only" 0 "peer-resync $B4 port 5998 $S:7002 state idle
msg-failed $B4 port 5998 $S:7002 msg-id 3 state idle flags need-sync" "" cat "$NL_TMP/mon-filter"
check "monitor peer-created state idle local-port 5000: those only" 0 "peer-created $B4 port 7000 local 0.0.0.0:5000 state idle flags configured,need-sync
peer-created $B4 port 6000 local 0.0.0.0:5000 state idle flags need-sync" "" cat "$NL_TMP/mon-state"

echo "# ynl"
wait "$ynl" || true
check "ynl: the same events" 0 '["peer-created-ntf",7000,null]
["peer-removed-ntf",7000,null]
["peer-created-ntf",5999,null]
["msg-failed-ntf",5999,1]
["msg-failed-ntf",5999,2]
["msg-failed-ntf",5999,3]
["peer-removed-ntf",5999,null]
["peer-created-ntf",5998,null]
["peer-resync-ntf",5998,null]
["msg-failed-ntf",5998,3]
["peer-removed-ntf",5998,null]
["peer-created-ntf",6000,null]
["peer-removed-ntf",6000,null]' "" \
	bash -c "jq -c '.[] | [.name, .msg.peer[\"remote-port\"], .msg.peer[\"msg-id\"]]' '$NL_TMP/ynl.out'"
nl_done
