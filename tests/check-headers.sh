#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Every public header compiles on its own, pedantically, as C11 and C++-free
# C99-compatible user code would include it.
set -eu
: "${top_srcdir:=.}" "${CC:=cc}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
for h in "$top_srcdir"/include/tlbpolicy/*.h; do
	name=$(basename "$h")
	printf '#include <tlbpolicy/%s>\n#include <tlbpolicy/%s>\n' "$name" "$name" >"$tmp/t.c"
	if ! $CC -std=c11 -pedantic-errors -Wall -Wextra -Werror -fsyntax-only \
		-I"$top_srcdir/include" "$tmp/t.c"; then
		echo "FAIL: $name does not compile on its own"; status=1
	fi
done
[ $status -eq 0 ] && echo "ok: every public header is self-contained"
exit $status
