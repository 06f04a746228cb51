# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The kernel's ynl tools (6.12) with our spec, Documentation/netlink/specs/udpcp.yaml.
# Source this file, then:
#   ynl_cli ARGS...    tools/net/ynl/cli.py --spec udpcp.yaml ARGS...,
#                      e.g. ynl_cli --do defaults-get, ynl_cli --dump peer-get,
#                      ynl_cli --subscribe events --sleep 5; needs the module
#   ynl_check_spec     validate the spec against the schema and parse it
#   ynl_check_uapi     the enums ynl-gen-c renders from the spec must equal
#                      uapi/linux/udpcp.h's, name for name and value for value
# The tools are unpacked from linux-source-6.12 into $UDPCP_CACHE/ynl, never
# into the repository.  The 6.12 CLI takes binary attributes (addresses) as
# hex: {"peer": {"remote-ipv4": "c0000202", "remote-port": 5000}}.

YNL_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
YNL_SPEC=$YNL_ROOT/Documentation/netlink/specs/udpcp.yaml
YNL_TARBALL=${YNL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
YNL_DIR=${UDPCP_CACHE:-/var/cache/udpcp}/ynl
YNL_SCHEMA=$YNL_DIR/Documentation/netlink/genetlink-legacy.yaml

# Unpack tools/net/ynl and Documentation/netlink once; concurrent callers
# each unpack aside and the first rename wins.
ynl_setup()
{
	local tmp

	[ -f "$YNL_DIR/tools/net/ynl/cli.py" ] && return 0
	if [ ! -f "$YNL_TARBALL" ]; then
		echo "ynl: $YNL_TARBALL missing (apt-get install linux-source-6.12)" >&2
		return 1
	fi
	mkdir -p "$(dirname "$YNL_DIR")" || return 1
	tmp=$(mktemp -d "$YNL_DIR.XXXXXX") || return 1
	if ! tar -xJf "$YNL_TARBALL" -C "$tmp" --strip-components=1 \
		--wildcards '*/tools/net/ynl/*' '*/Documentation/netlink/*'; then
		rm -rf "$tmp"
		return 1
	fi
	mv -T "$tmp" "$YNL_DIR" 2>/dev/null || rm -rf "$tmp"
	[ -f "$YNL_DIR/tools/net/ynl/cli.py" ]
}

# The spec is not under Documentation/netlink/specs/, where the CLI would
# look for the schema by itself, so it is named here.
ynl_cli()
{
	ynl_setup || return 1
	python3 "$YNL_DIR/tools/net/ynl/cli.py" --spec "$YNL_SPEC" \
		--schema "$YNL_SCHEMA" "$@"
}

# Schema validation (python3-jsonschema) and parsing; no kernel involved.
ynl_check_spec()
{
	ynl_setup || return 1
	python3 - "$YNL_DIR/tools/net/ynl" "$YNL_SPEC" "$YNL_SCHEMA" <<-'EOF'
	import sys
	sys.path.insert(0, sys.argv[1])
	import jsonschema  # noqa: F401 -- fail loudly rather than skip validation
	from lib.nlspec import SpecFamily
	family = SpecFamily(sys.argv[2], sys.argv[3])
	ops = sorted(family.msgs.values(), key=lambda m: m.value)
	print(f"ynl: {family.name}: {len(family.attr_sets)} attribute sets, "
	      f"{len(ops)} messages, spec valid")
	EOF
}

# Prints "NAME VALUE" for each of the names on stdin, from header $1.
_ynl_values()
{
	local header=$1 incdir=$2 out=$3 name

	{
		echo "#include <stdio.h>"
		echo "#include \"$header\""
		printf '%s\n' \
			'static void s(const char *n, const char *v) { printf("%s \"%s\"\n", n, v); }' \
			'static void i(const char *n, long long v) { printf("%s %lld\n", n, v); }'
		echo "#define P(x) _Generic((x) + 0, char *: s, default: i)(#x, x)"
		echo "int main(void) {"
		while read -r name; do echo "P($name);"; done
		echo "return 0; }"
	} >"$out.c"
	cc -I"$incdir" -o "$out" "$out.c" && "$out"
}

ynl_check_uapi()
{
	local tree ret=1 names

	ynl_setup || return 1
	# ynl-gen-c looks for MAINTAINERS above the spec (and spins without).
	tree=$(mktemp -d) || return 1
	mkdir -p "$tree/Documentation/netlink/specs" "$tree/gen/linux"
	touch "$tree/MAINTAINERS"
	cp "$YNL_SPEC" "$tree/Documentation/netlink/specs/udpcp.yaml"
	cp "$YNL_SCHEMA" "$tree/Documentation/netlink/"
	if timeout 120 python3 "$YNL_DIR/tools/net/ynl/ynl-gen-c.py" --mode uapi \
		--header --spec "$tree/Documentation/netlink/specs/udpcp.yaml" \
		-o "$tree/gen/linux/udpcp.h" >/dev/null; then
		# The names of either side, so that one missing on either fails.
		names=$({
			grep -oE '^(#define|	)[[:space:]]*UDPCP_[A-Z0-9_]+' \
				"$tree/gen/linux/udpcp.h" | grep -oE 'UDPCP_[A-Z0-9_]+'
			grep -oE '\bUDPCP_(A|CMD|PEER|GENL|MCGRP)_[A-Z0-9_]+' \
				"$YNL_ROOT/uapi/linux/udpcp.h"
		} | grep -v "_$" | sort -u)
		_ynl_values linux/udpcp.h "$tree/gen" "$tree/gen/values" \
			<<<"$names" >"$tree/spec.txt" &&
			_ynl_values linux/udpcp.h "$YNL_ROOT/uapi" "$tree/values" \
				<<<"$names" >"$tree/uapi.txt" &&
			diff -u --label spec --label uapi "$tree/spec.txt" "$tree/uapi.txt" &&
			echo "ynl: $(wc -l <"$tree/spec.txt") names of the spec match uapi/linux/udpcp.h" &&
			ret=0
	fi
	rm -rf "$tree"
	return $ret
}
