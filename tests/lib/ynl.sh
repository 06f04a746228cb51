# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The kernel's ynl tools (6.12) with our spec, Documentation/netlink/specs/udpcp.yaml.
# Source this file, then:
#   ynl_cli ARGS...    tools/net/ynl/cli.py --spec udpcp.yaml ARGS...,
#                      e.g. ynl_cli --do defaults-get, ynl_cli --dump peer-get,
#                      ynl_cli --subscribe events --sleep 5; needs the module
#   ynl_check_spec     validate the spec against the schema and parse it
#   ynl_check_generated  what ynl-gen-c renders from the spec must equal the
#                      checked-in uapi/linux/udpcp_nl.h, module/netlink-gen.[ch]
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

# What ynl-gen-c renders from the spec equals the checked-in
# uapi/linux/udpcp_nl.h and module/netlink-gen.[ch].
ynl_check_generated()
{
	"$YNL_ROOT/scripts/ynl-gen.sh" --check
}
