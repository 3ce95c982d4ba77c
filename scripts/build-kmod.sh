#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Build lib/ as an out-of-tree kernel module against installed kernel
# headers (Debian: linux-headers-amd64). Fails on any compiler warning.
# Usage: build-kmod.sh [SRCDIR]   (KDIR=... selects the headers tree)
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
mkdir -p "$work/lib"
cp "$srcdir"/lib/*.c "$srcdir"/lib/Kbuild "$work/lib/"
cp -r "$srcdir/include" "$work/include"
echo "build-kmod: $KDIR"
make -C "$KDIR" M="$work/lib" W=1 modules >"$work/build.log" 2>&1 || {
	cat "$work/build.log"; echo "build-kmod: FAILED" >&2; exit 1; }
cat "$work/build.log"
if grep -qi 'warning:' "$work/build.log"; then
	echo "build-kmod: warnings found" >&2; exit 1
fi
# The .modinfo section, without needing kmod's modinfo.
objcopy -O binary --only-section=.modinfo "$work/lib/tlbpolicy.ko" "$work/modinfo"
tr '\0' '\n' <"$work/modinfo" | grep -E '^(license|description|vermagic)='
undef=$(nm -u "$work/lib/tlbpolicy.ko" | awk '{print $2}' | grep -v -E '^(__fentry__|__x86_return_thunk|__x86_indirect_thunk_|__stack_chk_fail|__ref_stack_chk_guard|__this_module|__x86_indirect_|__SCT__)' || true)
echo "build-kmod: ok; kernel symbols used: ${undef:-none}"
if [ -n "${KMOD_OUT:-}" ]; then cp "$work/lib/tlbpolicy.ko" "$KMOD_OUT"; fi
