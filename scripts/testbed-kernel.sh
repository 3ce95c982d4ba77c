#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Build (or reuse) the testbed kernel: Debian's linux-source-6.12 with
# tlbpolicy vendored, kernel/patches/6.12/*.patch applied and
# kernel/testbed/config-6.12 on top of tinyconfig. Cached under
# $TLBP_TESTBED_DIR (default /var/tmp/tlbp-testbed) by source version and a
# hash of everything that goes into the kernel; prints the bzImage's path.
#
# Usage: testbed-kernel.sh SRCDIR
# Environment: TLBP_TESTBED_EXTRA_PATCHES, patches applied after the series
# (a measurement kernel, e.g. kernel/patches/measure/*.patch); part of the key.
set -eu
srcdir=$(cd "${1:-.}" && pwd)
cache=${TLBP_TESTBED_DIR:-/var/tmp/tlbp-testbed}
extra=${TLBP_TESTBED_EXTRA_PATCHES:-}
tarball=${TLBP_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
start=$(date +%s)
say() { echo "testbed-kernel [$(( $(date +%s) - start ))s]: $*" >&2; }

for tool in flex bison bc gcc make patch; do
	command -v $tool >/dev/null || { echo "testbed-kernel: $tool not installed (scripts/install-deps.sh --ci)" >&2; exit 1; }
done
[ -r "$tarball" ] || { echo "testbed-kernel: no $tarball (apt-get install linux-source-6.12)" >&2; exit 1; }
mkdir -p "$cache"

key=$( (ls -l "$tarball" | awk '{print $5}'; basename "$tarball"
	cat "$srcdir"/kernel/patches/6.12/*.patch $extra "$srcdir"/kernel/testbed/config-6.12 \
		"$srcdir"/scripts/vendor-into-kernel.sh "$srcdir"/kernel/tlbpolicy_module.c \
		"$srcdir"/lib/*.c "$srcdir"/lib/*.h "$srcdir"/include/tlbpolicy/*.h) |
	sha256sum | cut -c1-12)
kdir=$cache/kernel-$key
bzimage=$kdir/bzImage
exec 9>"$cache/lock"
flock 9
if [ -s "$bzimage" ]; then
	say "reusing kernel $kdir"
	echo "$bzimage"
	exit 0
fi
say "building kernel $key (about 6 min on 2 cores; log $kdir/build.log)"
rm -rf "$kdir" && mkdir -p "$kdir"
# Keep only the newest few kernels.
ls -dt "$cache"/kernel-* 2>/dev/null | tail -n +4 | xargs -r rm -rf
tar -xJf "$tarball" -C "$kdir"
ksrc=$(ls -d "$kdir"/linux-source-*)
sh "$srcdir/scripts/vendor-into-kernel.sh" "$ksrc" "$srcdir" >"$kdir/build.log"
for p in "$srcdir"/kernel/patches/6.12/*.patch $extra; do
	patch -d "$ksrc" -p1 --forward --quiet <"$p" >>"$kdir/build.log" 2>&1 || {
		echo "testbed-kernel: $(basename "$p") does not apply:" >&2
		tail -n 20 "$kdir/build.log" >&2; exit 1; }
done
obj=$kdir/obj
mkdir -p "$obj"
{
	make -C "$ksrc" O="$obj" tinyconfig &&
	"$ksrc/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$srcdir/kernel/testbed/config-6.12" &&
	make -C "$ksrc" O="$obj" olddefconfig
} >>"$kdir/build.log" 2>&1 || { tail -n 30 "$kdir/build.log" >&2; exit 1; }
for opt in $(grep '^CONFIG_.*=' "$srcdir/kernel/testbed/config-6.12"); do
	grep -qx "$opt" "$obj/.config" || {
		echo "testbed-kernel: $opt did not survive olddefconfig" >&2; exit 1; }
done
b0=$(date +%s)
make -C "$ksrc" O="$obj" -j"$(nproc)" bzImage >>"$kdir/build.log" 2>&1 || {
	grep -E 'error|Error' "$kdir/build.log" | head -n 20 >&2; exit 1; }
cp "$obj/arch/x86/boot/bzImage" "$bzimage.tmp" && mv "$bzimage.tmp" "$bzimage"
say "kernel built in $(( $(date +%s) - b0 )) s"
# The object tree is kept for incremental rebuilds by hand; the source is
# not needed again.
rm -rf "$ksrc"
echo "$bzimage"
