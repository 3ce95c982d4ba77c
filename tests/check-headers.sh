#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Every public header compiles on its own, pedantically, as C11 user code
# would include it, and as C++11 (its declarations with C linkage) where a
# C++ compiler is installed.
set -eu
: "${top_srcdir:=.}" "${CC:=cc}" "${CXX:=c++}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
for h in "$top_srcdir"/include/tlbpolicy/*.h; do
	name=$(basename "$h")
	printf '#include <tlbpolicy/%s>\n#include <tlbpolicy/%s>\n' "$name" "$name" >"$tmp/t.c"
	if ! $CC -std=c11 -pedantic-errors -Wall -Wextra -Werror -fsyntax-only \
		-I"$top_srcdir/include" "$tmp/t.c"; then
		echo "FAIL: $name does not compile on its own"; status=1
	fi
	if ! $CC -std=c11 -pedantic-errors -Wall -Wextra -Werror -fsyntax-only \
		-DTLBP_DEBUG -I"$top_srcdir/include" "$tmp/t.c"; then
		echo "FAIL: $name does not compile with TLBP_DEBUG"; status=1
	fi
	command -v "$CXX" >/dev/null 2>&1 || continue
	cp "$tmp/t.c" "$tmp/t.cc"
	if ! $CXX -std=c++11 -pedantic-errors -Wall -Wextra -Werror -fsyntax-only \
		-I"$top_srcdir/include" "$tmp/t.cc"; then
		echo "FAIL: $name does not compile as C++"; status=1
	fi
done
[ $status -eq 0 ] && echo "ok: every public header is self-contained"
exit $status
