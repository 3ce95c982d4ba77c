#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Boot Debian's kernel under QEMU (software emulation, no KVM) with a
# busybox initramfs, load tlbpolicy.ko and tlbpolicy_selftest.ko, read the
# self-test's KTAP from the serial console, and fail unless every vector
# says ok. Needs linux-image-amd64 and linux-headers-amd64 of the same
# version, qemu-system-x86, busybox-static and cpio.
# Usage: kernel-check.sh [SRCDIR]
set -eu
srcdir=$(cd "${1:-.}" && pwd)
start=$(date +%s)
KDIR=${KDIR:-$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)}
[ -n "$KDIR" ] || { echo "kernel-check: no linux-headers-*-amd64" >&2; exit 1; }
kver=$(basename "$KDIR" | sed 's/^linux-headers-//')
kernel=/boot/vmlinuz-$kver
[ -r "$kernel" ] || {
	echo "kernel-check: no $kernel: install linux-image-amd64 of the headers' version ($kver)" >&2
	exit 1
}
for tool in qemu-system-x86_64 cpio; do
	command -v $tool >/dev/null || { echo "kernel-check: $tool not installed" >&2; exit 1; }
done
busybox=$(sh "$srcdir/scripts/static-busybox.sh") || exit 1

work=$(mktemp -d "${TMPDIR:-/var/tmp}/tlbp-boot.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
KMOD_OUT="$work/root/lib" KDIR="$KDIR" sh "$srcdir/scripts/build-kmod.sh" "$srcdir" >"$work/kmod.log" 2>&1 || {
	cat "$work/kmod.log"; exit 1; }

root=$work/root
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev"
cp "$busybox" "$root/bin/busybox"
cat >"$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
echo TLBP-BEGIN
if insmod /lib/tlbpolicy.ko && insmod /lib/tlbpolicy_selftest.ko; then
	dmesg | sed -n '/KTAP version 1/,$p' | sed 's/^\[[^]]*\] //'
else
	echo "TLBP-INSMOD-FAILED"
	dmesg | tail -n 20
fi
echo TLBP-END
poweroff -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initramfs.gz"

echo "kernel-check: booting $kernel under qemu (TCG)"
boot0=$(date +%s)
timeout 600 qemu-system-x86_64 -accel tcg -m 512 -smp 1 -nographic -no-reboot \
	-kernel "$kernel" -initrd "$work/initramfs.gz" \
	-append "console=ttyS0 quiet panic=-1 oops=panic" </dev/null >"$work/serial.log" 2>&1 || true
boot1=$(date +%s)
# The firmware's terminal resets can share a line with the first marker.
tr -d '\r' <"$work/serial.log" | sed 's/.*TLBP-BEGIN/TLBP-BEGIN/' |
	sed -n '/^TLBP-BEGIN/,/^TLBP-END/p' >"$work/ktap.log"
cat "$work/ktap.log"

plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$work/ktap.log")
oks=$(grep -c '^ok [0-9]' "$work/ktap.log" || true)
notoks=$(grep -c '^not ok [0-9]' "$work/ktap.log" || true)
if ! grep -q '^KTAP version 1$' "$work/ktap.log" || [ -z "$plan" ]; then
	echo "kernel-check: FAILED: no KTAP from the kernel; serial log tail:" >&2
	tail -n 30 "$work/serial.log" >&2
	exit 1
fi
echo "kernel-check: $oks/$plan ok, $notoks not ok; boot and test $((boot1 - boot0)) s, total $(( $(date +%s) - start )) s"
[ "$oks" -eq "$plan" ] && [ "$notoks" -eq 0 ]
