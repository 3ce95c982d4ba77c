#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Build the library (tlbpolicy.ko) and its self-test (tlbpolicy_selftest.ko)
# as out-of-tree kernel modules against installed kernel headers (Debian:
# linux-headers-amd64). Fails on any compiler warning (W=1, -Werror).
# Usage: build-kmod.sh [SRCDIR]   KDIR=... picks the headers tree;
#        KMOD_OUT=DIR copies both .ko files there.
set -eu
srcdir=${1:-.}
if [ -z "${KDIR:-}" ]; then
	KDIR=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
fi
[ -n "$KDIR" ] && [ -f "$KDIR/Makefile" ] || {
	echo "build-kmod: no kernel headers found; install linux-headers-amd64 or set KDIR" >&2
	exit 1
}
# Build in a scratch copy so Kbuild's outputs never land in the source tree.
work=$(mktemp -d "${TMPDIR:-/var/tmp}/tlbp-kmod.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib" "$work/tests/vectors" "$work/kernel"
cp "$srcdir"/lib/*.c "$srcdir"/lib/*.h "$work/lib/"
cp -r "$srcdir/include" "$work/include"
cp "$srcdir"/tests/fake_ops.c "$srcdir"/tests/fake_ops.h "$work/tests/"
cp "$srcdir"/tests/vectors/*.c "$srcdir"/tests/vectors/*.h "$work/tests/vectors/"
cp "$srcdir"/kernel/*.c "$work/kernel/"
cp "$srcdir/kernel/Kbuild" "$work/Kbuild"
echo "build-kmod: $KDIR"
make -C "$KDIR" M="$work" W=1 modules >"$work/build.log" 2>&1 || {
	cat "$work/build.log"; echo "build-kmod: FAILED" >&2; exit 1; }
cat "$work/build.log"
if grep -qi 'warning:' "$work/build.log"; then
	echo "build-kmod: warnings found" >&2; exit 1
fi
for ko in tlbpolicy.ko tlbpolicy_selftest.ko; do
	# The .modinfo section, without needing kmod's modinfo.
	objcopy -O binary --only-section=.modinfo "$work/$ko" "$work/modinfo"
	echo "build-kmod: $ko: $(tr '\0' '\n' <"$work/modinfo" | grep -E '^(vermagic|depends)=' | tr '\n' ' ')"
done
if [ -n "${KMOD_OUT:-}" ]; then
	mkdir -p "$KMOD_OUT"
	cp "$work/tlbpolicy.ko" "$work/tlbpolicy_selftest.ko" "$KMOD_OUT/"
fi
echo "build-kmod: ok"
