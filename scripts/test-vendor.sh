#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Test scripts/vendor-into-kernel.sh: vendor twice into a kernel-tree
# skeleton (mm/Kconfig, mm/Makefile), check the copy and that each hook is
# added exactly once, then build the vendored mm/tlbpolicy, KUnit test
# included, against the installed kernel headers with W=1 and -Werror.
# Usage: test-vendor.sh [SRCDIR]
set -eu
srcdir=$(cd "${1:-.}" && pwd)
KDIR=${KDIR:-$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)}
[ -n "$KDIR" ] || { echo "test-vendor: no linux-headers-*-amd64" >&2; exit 1; }
tree=$(mktemp -d "${TMPDIR:-/var/tmp}/tlbp-vendor.XXXXXX")
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/mm" "$tree/include"
printf 'menu "Memory Management options"\nendmenu\n' >"$tree/mm/Kconfig"
printf 'obj-y := filemap.o\n' >"$tree/mm/Makefile"

fail() { echo "test-vendor: FAILED: $*" >&2; exit 1; }
sh "$srcdir/scripts/vendor-into-kernel.sh" "$tree" "$srcdir"
sh "$srcdir/scripts/vendor-into-kernel.sh" "$tree" "$srcdir" >/dev/null
[ "$(grep -c 'source "mm/tlbpolicy/Kconfig"' "$tree/mm/Kconfig")" -eq 1 ] || fail "Kconfig hook not added exactly once"
[ "$(grep -c '^obj-y += tlbpolicy/$' "$tree/mm/Makefile")" -eq 1 ] || fail "Makefile hook not added exactly once"
for f in include/tlbpolicy/tlbpolicy.h mm/tlbpolicy/batch.c mm/tlbpolicy/Kconfig \
	 mm/tlbpolicy/Makefile mm/tlbpolicy/.kunitconfig mm/tlbpolicy/tests/tlbpolicy_kunit.c \
	 mm/tlbpolicy/tests/vectors/tv.h; do
	[ -f "$tree/$f" ] || fail "missing $f"
done
for c in "$srcdir"/lib/*.c; do
	grep -q "$(basename "$c" .c).o" "$tree/mm/tlbpolicy/Makefile" || fail "$(basename "$c") not in the Makefile"
done

# Debian's kernel has no KUnit, so its symbols stay undefined at modpost:
# compile and check for compiler warnings, let modpost only warn.
make -C "$KDIR" M="$tree/mm/tlbpolicy" W=1 KCFLAGS="-I$tree/include -Werror" \
	CONFIG_TLBPOLICY=m CONFIG_TLBPOLICY_KUNIT_TEST=m KBUILD_MODPOST_WARN=1 \
	modules >"$tree/build.log" 2>&1 || { cat "$tree/build.log"; fail "vendored build"; }
if grep 'warning:' "$tree/build.log"; then
	fail "compiler warnings in the vendored build"
fi
[ -f "$tree/mm/tlbpolicy/tlbpolicy.ko" ] && [ -f "$tree/mm/tlbpolicy/tlbpolicy_kunit.ko" ] ||
	fail "modules not built"
echo "test-vendor: ok (vendored twice, hooks once, built tlbpolicy.ko and tlbpolicy_kunit.ko)"
