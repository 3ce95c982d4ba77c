#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Build the kernel's own mm selftests from Debian's linux-source-6.12 as
# static binaries for the testbed guest, against the 6.12 uapi headers
# (`make headers`) and libnuma.a. Cached under $TLBP_TESTBED_DIR by source
# version and this script; prints the directory holding the binaries.
#
# Usage: build-mm-selftests.sh SRCDIR
set -eu
srcdir=$(cd "${1:-.}" && pwd)
cache=${TLBP_TESTBED_DIR:-/var/tmp/tlbp-testbed}
tarball=${TLBP_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
say() { echo "mm-selftests: $*" >&2; }

# The tests the series is judged by (issue 16); each one's needs are in
# docs/kernel-port.md, "The kernel's own tests".
tests="migration split_huge_page_test transhuge-stress compaction_test
hugepage-vmemmap khugepaged cow ksm_functional_tests"

[ -r "$tarball" ] || { echo "mm-selftests: no $tarball (apt-get install linux-source-6.12)" >&2; exit 1; }
[ -r /usr/lib/x86_64-linux-gnu/libnuma.a ] || [ -r /usr/lib/libnuma.a ] || {
	echo "mm-selftests: no static libnuma (apt-get install libnuma-dev)" >&2; exit 1; }
key=$( (ls -l "$tarball" | awk '{print $5}'; basename "$tarball"
	cat "$srcdir/scripts/build-mm-selftests.sh") | sha256sum | cut -c1-12)
out=$cache/mm-selftests-$key
mkdir -p "$cache"
if [ -f "$out/.done" ]; then
	echo "$out"
	exit 0
fi
rm -rf "$out" && mkdir -p "$out"
say "unpacking $(basename "$tarball") (the parts the headers and tests need)"
top=$(basename "$tarball" .tar.xz)
tar -xJf "$tarball" -C "$out" --wildcards "$top/Makefile" "$top/Kbuild" "$top/Kconfig" \
	"$top/scripts/*" "$top/arch/x86/*" "$top/include/*" "$top/usr/*" "$top/tools/*" \
	"$top/mm/gup_test.h"
ksrc=$out/$top
say "installing the 6.12 uapi headers"
make -s -C "$ksrc" O="$out/hdr" headers >"$out/build.log" 2>&1 || {
	tail -n 20 "$out/build.log" >&2; exit 1; }
st=$ksrc/tools/testing/selftests/mm
# check_config.sh would probe for liburing; the tests then skip their
# io_uring cases, as they do on a machine without it.
echo '/* no liburing in the testbed guest */' >"$out/local_config.h"
mkdir -p "$out/bin"
for t in $tests; do
	# khugepaged.c in 6.12 uses KSFT_SKIP without including kselftest.h
	# (upstream includes it through vm_util.h later): give it the header.
	extra=""
	[ "$t" = khugepaged ] && extra="-include $ksrc/tools/testing/selftests/kselftest.h"
	say "building $t"
	(cd "$st" && gcc -static -O2 -Wall -U_FORTIFY_SOURCE $extra -I "$out" -I "$ksrc" \
		-isystem "$out/hdr/usr/include" -isystem "$ksrc/tools/include/uapi" \
		-o "$out/bin/$t" "$t.c" vm_util.c thp_settings.c -lrt -lpthread -lm -lnuma) \
		>>"$out/build.log" 2>&1 || {
		echo "mm-selftests: $t does not build:" >&2
		grep -E 'error' "$out/build.log" | head -n 10 >&2; exit 1; }
done
rm -rf "$ksrc" "$out/hdr"
touch "$out/.done"
echo "$out"
