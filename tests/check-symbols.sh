#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The library exports exactly the symbols of lib/libtlbpolicy.sym, every one
# of them is declared TLBP_API in a public header, and the map's version node
# matches the package's major.minor.
set -eu
: "${top_srcdir:=.}" "${top_builddir:=.}" "${NM:=nm}"
so="$top_builddir/lib/.libs/libtlbpolicy.so"
map="$top_srcdir/lib/libtlbpolicy.sym"
[ -f "$so" ] || { echo "SKIP: no shared library at $so"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

$NM -D --defined-only "$so" | awk '$2 == "T" { print $3 }' >"$tmp/versioned"
sed 's/@.*//' "$tmp/versioned" | sort >"$tmp/exported"
sed -n 's/^[[:space:]]*\(tlbp_[a-z0-9_]*\);$/\1/p' "$map" | sort >"$tmp/map"
cat "$top_srcdir"/include/tlbpolicy/*.h | grep -v '^#' | tr '\n' ' ' | \
	grep -o 'TLBP_API [^(;]*tlbp_[a-z0-9_]*(' | sed 's/($//; s/.*[ *]//' | \
	sort >"$tmp/declared"

status=0
if ! diff -u "$tmp/map" "$tmp/exported"; then
	echo "FAIL: exported symbols differ from $map"; status=1
fi
if ! diff -u "$tmp/map" "$tmp/declared"; then
	echo "FAIL: TLBP_API declarations differ from $map"; status=1
fi
node=$(sed -n 's/^\(LIBTLBPOLICY_[0-9.]*\)[[:space:]]*{.*/\1/p' "$map" | tail -n 1)
want="LIBTLBPOLICY_$(echo "${PACKAGE_VERSION:?}" | cut -d. -f1,2)"
if [ "$node" != "$want" ]; then
	echo "FAIL: newest version node $node, package version wants $want"; status=1
fi
if grep -v "@@$node\$" "$tmp/versioned"; then
	echo "FAIL: the symbols above are not bound to version node $node"; status=1
fi
[ $status -eq 0 ] && echo "ok: $(wc -l <"$tmp/map") symbols under $node"
exit $status
