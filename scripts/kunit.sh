#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Vendor tlbpolicy into Debian's newest kernel source (linux-source-6.12) and run
# its KUnit suite under UML with tools/testing/kunit/kunit.py.
# Usage: kunit.sh [SRCDIR]   (KERNEL_SRC=... a tarball or an unpacked tree)
set -eu
srcdir=$(cd "${1:-.}" && pwd)
src=${KERNEL_SRC:-$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)}
[ -n "$src" ] && [ -e "$src" ] || {
	echo "kunit: no kernel source: install linux-source-6.12 or set KERNEL_SRC" >&2; exit 1; }
start=$(date +%s)
work=${KUNIT_WORK:-/var/tmp/tlbp-kunit}
if [ -d "$src" ]; then
	tree=$src
else
	tree=$work/$(basename "$src" .tar.xz)
	if [ ! -f "$tree/Makefile" ]; then
		mkdir -p "$work"
		echo "kunit: unpacking $src"
		tar -xf "$src" -C "$work"
	fi
fi
sh "$srcdir/scripts/vendor-into-kernel.sh" "$tree" "$srcdir"
cd "$tree"
python3 tools/testing/kunit/kunit.py run --kunitconfig=mm/tlbpolicy/.kunitconfig \
	--jobs="$(nproc)" --build_dir=.kunit-tlbpolicy
echo "kunit: done in $(( $(date +%s) - start )) s"
