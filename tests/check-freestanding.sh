#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# lib/ builds (1) freestanding with only the compiler's own headers and needs
# no runtime symbol, and (2) with -D__KERNEL__ -nostdinc against the tiny
# kernel shim in tests/kshim. Any warning fails.
set -eu
: "${top_srcdir:=.}" "${CC:=cc}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ccinc=$($CC -print-file-name=include)
flags="-std=gnu11 -O2 -Wall -Wextra -Werror -Wmissing-prototypes -Wshadow"
status=0
for src in "$top_srcdir"/lib/*.c; do
	obj="$tmp/$(basename "$src" .c)"
	if ! $CC $flags -ffreestanding -nostdinc -isystem "$ccinc" \
		-I"$top_srcdir/include" -c "$src" -o "$obj.user.o"; then
		echo "FAIL: $src (freestanding)"; status=1; continue
	fi
	if ! $CC $flags -ffreestanding -nostdinc -D__KERNEL__ \
		-I"$top_srcdir/tests/kshim" -I"$top_srcdir/include" \
		-c "$src" -o "$obj.kern.o"; then
		echo "FAIL: $src (-D__KERNEL__ shim)"; status=1
	fi
	# CONFIG_DEBUG_VM turns on the hot-path forms' cross-checks.
	if ! $CC $flags -ffreestanding -nostdinc -D__KERNEL__ -DCONFIG_DEBUG_VM \
		-I"$top_srcdir/tests/kshim" -I"$top_srcdir/include" \
		-c "$src" -o "$obj.kdebug.o"; then
		echo "FAIL: $src (-D__KERNEL__ -DCONFIG_DEBUG_VM shim)"; status=1
	fi
done
# Linked together, the objects must not need a single outside symbol.
if [ $status -eq 0 ]; then
	ld -r -o "$tmp/all.o" "$tmp"/*.user.o
	undef=$(nm -u "$tmp/all.o" | awk '{ print $2 }' | tr '\n' ' ')
	if [ -n "$undef" ]; then
		echo "FAIL: lib/ needs runtime symbols: $undef"; status=1
	fi
fi
[ $status -eq 0 ] && echo "ok: lib/ is freestanding and builds against the kernel shim"
exit $status
