#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Public structs are caller-allocated, so their layout is ABI, and so are
# enum values. This prints every public struct's size, alignment and member
# offsets and every public enumerator's value, as compiled for this
# machine, and compares them with tests/abi/layout-<arch>.txt, which names
# the libtool "current" the layout belongs to. A layout change without a new
# current (configure.ac's TLBP_LT_VERSION) fails; so does a new current with
# an unrefreshed record. Refresh with: tests/check-abi.sh --update
set -eu
: "${top_srcdir:=.}" "${CC:=cc}"
update=no
[ "${1:-}" = "--update" ] && update=yes
arch=$(uname -m)
record="$top_srcdir/tests/abi/layout-$arch.txt"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
current=$(sed -n 's/^AC_SUBST(\[TLBP_LT_VERSION\], \[\([0-9]*\):.*/\1/p' "$top_srcdir/configure.ac")
[ -n "$current" ] || { echo "FAIL: no TLBP_LT_VERSION in configure.ac"; exit 1; }

# Struct bodies and enum bodies of the public headers, comments removed.
cat "$top_srcdir"/include/tlbpolicy/*.h | sed 's#/\*.*\*/##g' | awk '
	skip { if (/\*\//) skip = 0; next }
	/\/\*/ { skip = 1; sub(/\/\*.*/, "") }
	{ print }' >"$tmp/all.h"
awk '
	function member(stmt,   n, w) {
		if (match(stmt, /\(\*[a-z_0-9]+\)/))
			return substr(stmt, RSTART + 2, RLENGTH - 3)
		sub(/\[.*/, "", stmt)
		n = split(stmt, w, /[ \t*]+/)
		return w[n] != "" ? w[n] : w[n - 1]
	}
	/^struct tlbp_[a-z0-9_]* {/ { name = $2; depth = 1; buf = ""; next }
	name && /{/ { depth++ }
	name && /}/ { if (--depth == 0) { name = ""; next } }
	name && depth == 1 {
		# Members may span lines (function pointers) or share one.
		buf = buf " " $0
		while ((end = index(buf, ";")) > 0) {
			printf "\tfield(%s, %s);\n", name, member(substr(buf, 1, end - 1))
			buf = substr(buf, end + 1)
		}
	}
	' "$tmp/all.h" >"$tmp/fields.inc"
sed -n 's/^struct \(tlbp_[a-z0-9_]*\) {.*/\tsize(\1);/p' "$tmp/all.h" >"$tmp/sizes.inc"
awk '/^enum tlbp_[a-z0-9_]* {/ { e = 1; next } e && /^}/ { e = 0 } e' "$tmp/all.h" |
	sed -n 's/^[[:space:]]*\(TLBP_[A-Z0-9_]*\).*/\tenumerator(\1);/p' >"$tmp/enums.inc"

cat >"$tmp/layout.c" <<'C'
#include <stddef.h>
#include <stdio.h>
#include <tlbpolicy/tlbpolicy.h>
#define size(s) printf("struct %s size %zu align %zu\n", #s, sizeof(struct s), _Alignof(struct s))
#define field(s, m) printf("struct %s .%s offset %zu size %zu\n", #s, #m, offsetof(struct s, m), sizeof(((struct s *)0)->m))
#define enumerator(e) printf("enum %s = %lld\n", #e, (long long)(e))
int main(void)
{
#include "sizes.inc"
#include "fields.inc"
#include "enums.inc"
	return 0;
}
C
$CC -std=c11 -I"$top_srcdir/include" -I"$tmp" -o "$tmp/layout" "$tmp/layout.c"
{ echo "# libtool current $current, $arch: tests/check-abi.sh --update regenerates"; "$tmp/layout"; } >"$tmp/now"

if [ $update = yes ]; then
	cp "$tmp/now" "$record"; echo "updated $record"; exit 0
fi
[ -f "$record" ] || { echo "SKIP: no recorded layout for $arch"; exit 77; }
recorded=$(sed -n 's/^# libtool current \([0-9]*\),.*/\1/p' "$record")
if ! diff -u "$record" "$tmp/now" | sed -n '4,$p' | grep -v '^[+-]# libtool' | grep -q '^[+-]'; then
	if [ "$recorded" != "$current" ]; then
		echo "FAIL: libtool current is $current but the layout record says $recorded; refresh it (tests/check-abi.sh --update)"
		exit 1
	fi
	echo "ok: $(grep -c '^struct [a-z0-9_]* size' "$record") structs, $(grep -c '^enum' "$record") enumerators as recorded for current $current"
	exit 0
fi
diff -u "$record" "$tmp/now" || true
if [ "$recorded" = "$current" ]; then
	echo "FAIL: the public layout changed but libtool current is still $current: an incompatible change needs current+1, age 0 (configure.ac), then tests/check-abi.sh --update"
else
	echo "FAIL: the layout changed and current moved to $current: refresh the record (tests/check-abi.sh --update)"
fi
exit 1
