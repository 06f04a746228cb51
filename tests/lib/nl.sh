# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared by the netlink tests (tests/t/4x-*, 5x-*), sourced after common.sh:
#   . "$(dirname "$0")/../lib/nl.sh"
#
# In the style of the kernel's mptcp pm_netlink.sh: each check runs one
# command and compares its exit status, stdout and stderr with what is
# expected, exactly; a mismatch is printed in full and the test goes on, and
# nl_done at the end fails the test if any check did.
#
#   U                      udpcpctl;  TOOL  tests/progs/udpcp-tool
#   PY                     python3 (common.sh)
#   NL_TMP                 a scratch directory removed on exit
#   check NAME RC OUT ERR CMD...   exact status, stdout and stderr
#   check_rc NAME RC CMD...        exact status only (output shown on mismatch)
#   check_eq NAME EXPECTED ACTUAL  a value
#   nl_done                        fail if any check failed; prints the count
#   uctl NS ARGS...                udpcpctl -n NS ARGS...
#   hold_sock NS ADDR PORT [--v6only 0|1]
#                          a bound UDPCP socket (udpcp-tool recv, 600 s) in
#                          NS, listed by `sock show` before this returns;
#                          its pid in HELD_PID
#   mon_start NS FILE [OPTS]  udpcpctl OPTS monitor in NS into FILE, listening
#                          when this returns; its pid in MON_PID
#   nl_pyfile NS FILE [ARGS...]
#                          python FILE (a name: beside the test, as
#                          tests/t/NN-name*.py) in NS with tests/lib/py
#                          importable: nlraw (raw generic netlink requests,
#                          batches, dumps, extack), ksock, ...
#   nl_py NS [ARGS...] <<'PY' ... PY
#                          the same for a few lines of python on stdin
#   ynl_py NS [ARGS...] <<'PY' ... PY
#                          python in NS with the kernel's ynl library
#                          importable (`from lib import YnlFamily, NlError`);
#                          SPEC and SCHEMA are in the environment;
#                          YnlFamily(os.environ["SPEC"], "") skips the
#                          schema validation (seconds under TCG)
#   ynl_pyfile NS FILE [ARGS...]
#                          python FILE (beside the test) the same way, with
#                          tests/lib/py importable too
#   ynl_ns NS ARGS...      ynl_cli (tests/lib/ynl.sh) in NS
#   ynl_fast NS ARGS...    the same without the schema validation (seconds
#                          under TCG); the spec is still parsed
#   json_norm              stdin JSON to one sorted, compact line (jq -cS)
#   UNCHROOT CMD...        CMD where the kernel allows user namespaces
#                          (tests/lib/py/unchroot.py)

U=$REPO/udpcpctl/udpcpctl
TOOL=$REPO/tests/progs/udpcp-tool
[ -x "$U" ] || skip "not built: $U (make progs)"
[ -x "$TOOL" ] || skip "not built: $TOOL (make progs)"
UNCHROOT=$REPO/tests/lib/py/unchroot.py
export U TOOL UNCHROOT

. "$REPO/tests/lib/ynl.sh"

NL_TMP=$(mktemp -d)
on_exit "rm -rf $NL_TMP"
# Unprivileged users work in it too.
chmod 755 "$NL_TMP"
export NL_TMP
_nl_checks=0
_nl_failed=()

_nl_mismatch() {
	_nl_failed+=("$1")
	echo "  [FAIL] $1"
	shift
	printf '         %s\n' "$@"
}

check() {
	local name=$1 rc=$2 out=$3 err=$4 got_out got_err got_rc=0
	shift 4
	_nl_checks=$((_nl_checks + 1))
	got_out=$("$@" 2>"$NL_TMP/stderr") || got_rc=$?
	got_err=$(cat "$NL_TMP/stderr")
	if [[ $got_rc == "$rc" && $got_out == "$out" && $got_err == "$err" ]]; then
		echo "  [ ok ] $name"
		return 0
	fi
	if [[ $got_out == "$out" ]]; then
		got_out="(as expected)"
	elif [[ $out == *$'\n'* ]]; then
		# Long outputs: the difference says more.
		printf '%s\n' "$out" >"$NL_TMP/expected"
		printf '%s\n' "$got_out" >"$NL_TMP/got"
		got_out=$(diff -u --label expected --label got "$NL_TMP/expected" "$NL_TMP/got") || true
		out="(see the diff)"
	fi
	_nl_mismatch "$name" "command: $*" "status $got_rc, expected $rc" \
		"stdout:" "$got_out" "expected:" "$out" \
		"stderr: $got_err" "expected: $err"
	return 0
}

check_rc() {
	local name=$1 rc=$2 got_out got_rc=0
	shift 2
	_nl_checks=$((_nl_checks + 1))
	got_out=$("$@" 2>&1) || got_rc=$?
	if [[ $got_rc == "$rc" ]]; then
		echo "  [ ok ] $name"
		return 0
	fi
	_nl_mismatch "$name" "command: $*" "status $got_rc, expected $rc" \
		"output: ${got_out:0:2000}"
	return 0
}

check_eq() {
	_nl_checks=$((_nl_checks + 1))
	if [[ $2 == "$3" ]]; then
		echo "  [ ok ] $1"
		return 0
	fi
	_nl_mismatch "$1" "expected:" "$2" "got:" "$3"
	return 0
}

nl_done() {
	if [ ${#_nl_failed[@]} -gt 0 ]; then
		fail "${#_nl_failed[@]} of $_nl_checks checks failed: ${_nl_failed[*]}"
	fi
	echo "$_nl_checks checks passed"
}

uctl() {
	local ns=$1
	shift
	"$U" -n "$ns" "$@"
}

json_norm() { jq -cS .; }

_sock_listed() { # NS PORT
	"$U" -n "$1" -j sock show local-port "$2" 2>/dev/null | grep -q '"local_port"'
}
hold_sock() {
	local ns=$1 addr=$2 port=$3
	shift 3
	ip netns exec "$ns" "$TOOL" recv -b "$addr" "$port" -t 600000 "$@" \
		>/dev/null 2>"$NL_TMP/hold-$port.err" &
	export HELD_PID=$!
	# The teardown kills it with the namespace: no "Killed" job notice.
	disown "$HELD_PID"
	wait_until 30 _sock_listed "$ns" "$port" ||
		fail "socket $addr $port in $ns: $(cat "$NL_TMP/hold-$port.err")"
}

# mon_start NS FILE [OPTIONS...]: udpcpctl OPTIONS monitor in NS, output in
# FILE; it has joined the events group when this returns (it blocks in
# recvmsg, 47, only after joining).  Its pid in MON_PID.
_mon_listens() { [ "$(cut -d' ' -f1 "/proc/$MON_PID/syscall" 2>/dev/null)" = 47 ]; }
_mon_listens_or_gone() { _mon_listens || ! kill -0 "$MON_PID" 2>/dev/null; }
# mon_start NS FILE [OPTION...] [-- FILTER...]: udpcpctl OPTION... monitor FILTER...
mon_start() {
	local ns=$1 file=$2 opts=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	ip netns exec "$ns" "$U" "${opts[@]}" monitor "$@" >"$file" 2>&1 &
	export MON_PID=$!
	disown "$MON_PID"
	wait_until 30 _mon_listens || fail "monitor in $ns did not start: $(cat "$file")"
}

nl_py() {
	local ns=$1
	shift
	ip netns exec "$ns" env PYTHONPATH="$TESTS_PYPATH" "$PY" - "$@"
}

nl_pyfile() {
	local ns=$1
	shift
	py_run -n "$ns" "$@"
}

ynl_py() {
	local ns=$1
	shift
	ynl_setup || fail "ynl tools missing"
	ip netns exec "$ns" env SPEC="$YNL_SPEC" SCHEMA="$YNL_SCHEMA" \
		PYTHONPATH="$YNL_DIR/tools/net/ynl" "$PY" - "$@"
}

ynl_pyfile() {
	local ns=$1 f=$2
	shift 2
	ynl_setup || fail "ynl tools missing"
	[[ $f == */* ]] || f=$(dirname "$0")/$f
	ip netns exec "$ns" env SPEC="$YNL_SPEC" SCHEMA="$YNL_SCHEMA" \
		PYTHONPATH="$YNL_DIR/tools/net/ynl:$TESTS_PYPATH" "$PY" "$f" "$@"
}

ynl_fast() {
	local ns=$1
	shift
	ynl_setup || fail "ynl tools missing"
	ip netns exec "$ns" "$PY" "$YNL_DIR/tools/net/ynl/cli.py" \
		--spec "$YNL_SPEC" --no-schema "$@"
}

# ynl_cli (tests/lib/ynl.sh) in NS, with the schema validation.
ynl_ns() {
	local ns=$1
	shift
	ynl_setup || fail "ynl tools missing"
	ip netns exec "$ns" "$PY" "$YNL_DIR/tools/net/ynl/cli.py" \
		--spec "$YNL_SPEC" --schema "$YNL_SCHEMA" "$@"
}
