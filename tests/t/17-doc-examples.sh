#!/bin/bash
# Every command that Documentation/*.rst shows runs as written: the
# udpcpctl and ynl (cli.py) examples are taken from the .rst files and run
# against the module, in order, one fresh namespace per file; each
# reports `ok FILE:LINE: COMMAND` or `FAIL FILE:LINE: COMMAND (exit N)`, and
# any failure fails the test.  A built-in broken example proves first that
# a failing command is caught.
#
# The extraction rule:
#  * A literal block is the indented text after a line that ends in "::"
#    (a paragraph, or "::" alone) or after a ".. code-block::", ".. code::"
#    or ".. sourcecode::" directive (and its options), up to the first
#    non-blank line indented no deeper than the line that opened it.
#  * In a literal block, a line whose text begins with "$ " is a command
#    (the "$ " is the prompt); a command line ending in "\" continues on
#    the next line.  Lines without the prompt are the output shown.
#  * A command runs if its first word is `udpcpctl` or ends in `cli.py`
#    (cli.py, tools/net/ynl/cli.py, ~/ynl/tools/net/ynl/cli.py); that word
#    is replaced by the tree's udpcpctl/udpcpctl or by the 6.12 ynl CLI
#    that tests/lib/ynl.sh unpacks.  Other "$ " commands (mkdir, tar,
#    export: the set-up a reader does once) are listed as shown, not run;
#    the test provides what they set up: the ynl tools at ~/ynl (HOME is a
#    scratch directory) and cli.py and udpcpctl on PATH.
#  * Commands run in the namespace with bash -c, from the top of the tree,
#    stdin from /dev/null, under a 120 s limit; a non-zero exit fails.  A
#    `udpcpctl ... monitor` runs until interrupted: it passes if it is
#    still running after 3 s (or exited 0 by then).
#  * The namespace of a file has a veth to a second namespace: 192.0.2.1/24
#    and 2001:db8::1/64 here, 192.0.2.2 and 2001:db8::2 there (the
#    addresses the documents use).  An rst comment line
#        .. doc-test: socket ADDR PORT
#    (not rendered) binds a UDPCP socket at ADDR PORT in the file's
#    namespace, held until the file's commands are done, for the
#    examples that need one.
#  * A "# udpcpctl" or "# cli.py" line in a literal block (a root prompt)
#    is reported as `note ... not run`: only "$ " lines are run.
# timeout: 600
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/nl.sh"
udpcp_load
ynl_setup || fail "the ynl tools (linux-source-6.12) are missing"

SCRATCH=$NL_TMP/doc
BIN=$SCRATCH/bin
mkdir -p "$BIN" "$SCRATCH/home"
ln -s "$U" "$BIN/udpcpctl"
printf '#!/bin/sh\nexec %s %s "$@"\n' "$PY" "$YNL_DIR/tools/net/ynl/cli.py" >"$BIN/cli.py"
chmod 755 "$BIN/cli.py"
ln -s "$YNL_DIR" "$SCRATCH/home/ynl"

# extract FILE: one record per line, tab-separated: LINE KIND TEXT, KIND
# being run, shown, socket or note; TEXT on one line (continuations joined).
extract() {
	py_run 17-doc-examples-extract.py "$1"
}

_ndoc=0
# doc_ns: a fresh namespace DOC_NS, joined by a veth to another, DOC_PEER.
doc_ns() {
	local a b
	_ndoc=$((_ndoc + 1))
	_ns_add DOC_NS "d$_ndoc"
	_ns_add DOC_PEER "p$_ndoc"
	a=$DOC_NS b=$DOC_PEER
	ip link add veth0 netns "$a" index 10 type veth peer name veth0 netns "$b" index 11
	_if_up "$a" veth0 192.0.2.1/24 2001:db8::1/64
	_if_up "$b" veth0 192.0.2.2/24 2001:db8::2/64
	_wait_oper "$a" veth0
	_wait_oper "$b" veth0
}

# run_cmd NS CMD: as a reader would type it, with the mapped tools.
run_cmd() {
	local ns=$1 cmd=$2 word rest pid rc=0
	read -r word rest <<<"$cmd"
	cmd="$(basename "$word") $rest"
	if [[ $word == udpcpctl && " $rest " == *" monitor "* ]]; then
		(cd "$REPO" && exec ip netns exec "$ns" env PATH="$BIN:$PATH" \
			HOME="$SCRATCH/home" bash -c "set -o pipefail; $cmd" </dev/null) &
		pid=$!
		for _ in $(seq 30); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$pid" 2>/dev/null; then
			kill -INT "$pid" 2>/dev/null
			pkill -INT -P "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			return 0
		fi
		wait "$pid" || rc=$?
		return $rc
	fi
	(cd "$REPO" && ip netns exec "$ns" env PATH="$BIN:$PATH" HOME="$SCRATCH/home" \
		timeout 120 bash -c "set -o pipefail; $cmd" </dev/null)
}

ran=0 failed=0
FAILED=()
# run_file FILE [LABEL]: its commands in a fresh namespace, in order.
run_file() {
	local file=$1 label=${2:-${1#"$REPO"/}} ns n kind text rc out records
	local -a held=()
	records=$(extract "$file") || fail "cannot read $file"
	[ -n "$records" ] || { echo "# $label: no examples"; return 0; }
	doc_ns
	ns=$DOC_NS
	while IFS=$'\t' read -r n kind text; do
		case $kind in
		socket)
			# shellcheck disable=SC2086
			set -- $text
			if [ "$1" != socket ] || [ $# -ne 3 ]; then
				fail "$label:$n: doc-test: expected 'socket ADDR PORT', got '$text'"
			fi
			hold_sock "$ns" "$2" "$3"
			held+=("$HELD_PID")
			echo "# $label:$n: socket $2 $3"
			;;
		shown)
			echo "# $label:$n: shown, not run: $text"
			;;
		note)
			echo "note $label:$n: not run (a '# ' prompt, not '\$ '): $text"
			;;
		run)
			ran=$((ran + 1))
			rc=0
			out=$(run_cmd "$ns" "$text" 2>&1) || rc=$?
			if [ $rc -eq 0 ]; then
				echo "ok $label:$n: $text"
			else
				failed=$((failed + 1))
				FAILED+=("$label:$n")
				echo "FAIL $label:$n: $text (exit $rc)"
			fi
			[ -n "$out" ] && printf '%s\n' "$out" | head -n 40 | sed 's/^/    /'
			;;
		esac
	done <<<"$records"
	[ ${#held[@]} -eq 0 ] || kill "${held[@]}" 2>/dev/null || true
}

echo "# the runner catches a failing example"
cat >"$SCRATCH/control.rst" <<'EOF'
A good one and a broken one::

    $ udpcpctl defaults show
    $ udpcpctl no-such-object show
EOF
run_file "$SCRATCH/control.rst" control.rst >"$SCRATCH/control.out"
control=$(cat "$SCRATCH/control.out")
printf '%s\n' "$control" | sed 's/^/  | /'
ran=0 failed=0 FAILED=()
grep -q '^ok control.rst:3: udpcpctl defaults show$' <<<"$control" ||
	fail "the runner did not pass a good example"
grep -q '^FAIL control.rst:4: udpcpctl no-such-object show (exit 1)$' <<<"$control" ||
	fail "the runner did not catch a broken example"
echo "ok the runner catches a failing example"

for f in "$REPO"/Documentation/*.rst; do
	echo "# ${f#"$REPO"/}"
	run_file "$f"
done
echo "# $ran commands run, $failed failed"
[ "$ran" -gt 0 ] || fail "no example found to run"
[ "$failed" -eq 0 ] || fail "$failed documented commands failed: ${FAILED[*]}"
echo "doc examples ok"
