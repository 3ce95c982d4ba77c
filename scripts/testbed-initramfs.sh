#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Build the testbed guest's initramfs: static busybox, tools/testbed/init.sh
# as /init, the workloads of tools/testbed/ built static, and any extra
# files given as GUEST-PATH=HOST-PATH (e.g. bin/mm/cow=/path/to/cow).
#
# Usage: testbed-initramfs.sh SRCDIR OUT.gz [GUEST-PATH=HOST-PATH ...]
set -eu
srcdir=$(cd "$1" && pwd)
out=$2
shift 2
for tool in cpio gzip gcc; do
	command -v $tool >/dev/null || { echo "testbed-initramfs: $tool not installed (scripts/install-deps.sh --ci)" >&2; exit 1; }
done
busybox=$(sh "$srcdir/scripts/static-busybox.sh") || exit 1

root=$(mktemp -d "${TMPDIR:-/var/tmp}/tlbp-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
for w in numa_regions thp_split integrity microbench; do
	gcc -O2 -static -pthread -std=gnu11 -Wall -Wextra -Werror \
		-o "$root/bin/$w" "$srcdir/tools/testbed/$w.c" "$srcdir/tools/testbed/tb_common.c"
done
cp "$busybox" "$root/bin/busybox"
cp "$srcdir/tools/testbed/init.sh" "$root/init"
chmod +x "$root/init"
for f in "$@"; do
	dest=${f%%=*} src=${f#*=}
	mkdir -p "$root/$(dirname "$dest")"
	cp "$src" "$root/$dest"
	chmod 755 "$root/$dest"
done
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
