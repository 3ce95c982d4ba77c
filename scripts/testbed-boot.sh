#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Boot the testbed guest once: qemu TCG, 2 NUMA nodes of 1 GiB, 8 vCPUs,
# serial console to LOG. The run is described by key=value words appended
# to the kernel command line (/init reads them from its environment).
# Exit status: qemu's, or timeout's 124 when the guest did not power off.
#
# Usage: testbed-boot.sh BZIMAGE INITRAMFS SECONDS LOG [KEY=VALUE ...]
set -eu
bzimage=$1 initramfs=$2 seconds=$3 log=$4
shift 4
vcpus=8
exec timeout "$seconds" qemu-system-x86_64 \
	-accel tcg,thread=multi -m 2G -smp $vcpus,sockets=2 \
	-object memory-backend-ram,id=m0,size=1G \
	-object memory-backend-ram,id=m1,size=1G \
	-numa node,nodeid=0,cpus=0-$((vcpus / 2 - 1)),memdev=m0 \
	-numa node,nodeid=1,cpus=$((vcpus / 2))-$((vcpus - 1)),memdev=m1 \
	-nographic -no-reboot -kernel "$bzimage" -initrd "$initramfs" \
	-append "console=ttyS0 loglevel=5 panic=-1 kunit.enable=0 $*" \
	</dev/null >"$log" 2>&1
