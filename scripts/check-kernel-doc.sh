#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The headers and sources are vendored into kernel trees unchanged, so their
# comments must be kernel-doc that `make htmldocs` takes: vendor into a
# kernel-tree skeleton and run the kernel's own scripts/kernel-doc over the
# copy (include/tlbpolicy/*.h and mm/tlbpolicy/*.c). Any output fails.
# KERNEL_DOC=path/to/kernel-doc picks the script; otherwise it is extracted,
# that one file only, from Debian's linux-source-6.12 tarball.
# Usage: check-kernel-doc.sh [SRCDIR]
set -eu
srcdir=$(cd "${1:-.}" && pwd)
tarball=${KERNEL_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
tree=$(mktemp -d "${TMPDIR:-/var/tmp}/tlbp-kdoc.XXXXXX")
trap 'rm -rf "$tree"' EXIT

kdoc=${KERNEL_DOC:-}
if [ -z "$kdoc" ]; then
	[ -f "$tarball" ] || {
		echo "check-kernel-doc: no $tarball (install linux-source-6.12, or set KERNEL_DOC)" >&2
		exit 1; }
	tar -xJf "$tarball" -C "$tree" linux-source-6.12/scripts/kernel-doc
	kdoc=$tree/linux-source-6.12/scripts/kernel-doc
fi
[ -f "$kdoc" ] || { echo "check-kernel-doc: no kernel-doc at $kdoc" >&2; exit 1; }

mkdir -p "$tree/k/mm"
printf 'menu "Memory Management options"\nendmenu\n' >"$tree/k/mm/Kconfig"
printf 'obj-y := filemap.o\n' >"$tree/k/mm/Makefile"
sh "$srcdir/scripts/vendor-into-kernel.sh" "$tree/k" "$srcdir" >/dev/null

# -Wall: also a missing Return: section, a missing short description and
# text between the sections.
(cd "$tree/k" && perl "$kdoc" -none -Wall include/tlbpolicy/*.h mm/tlbpolicy/*.c) \
	>"$tree/out" 2>&1 || true
if [ -s "$tree/out" ]; then
	cat "$tree/out"
	echo "check-kernel-doc: FAILED: $(wc -l <"$tree/out") line(s) from kernel-doc" >&2
	exit 1
fi
n=$(ls "$tree"/k/include/tlbpolicy/*.h "$tree"/k/mm/tlbpolicy/*.c | wc -l)
echo "check-kernel-doc: ok ($n vendored files, kernel-doc -none -Wall reports nothing)"
