#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The NUMA scanner's walk over numa_regions' VMAs, as the guest's kernel
# makes it: builds (or reuses) the testbed kernel with the measurement patch
# kernel/patches/measure/0001-*.patch on top of the series, boots it once per
# cell with numa_regions under tools/testbed/numa_maps.sh, and prints every
# task_numa_work() call (scripts/testbed-vma-walk.py). docs/kernel-port.md,
# "The scanner's walk over the VMAs", reads these logs.
#
# Usage: testbed-vma-walk.sh [--cells LIST] [--window S] [--out DIR] [SRCDIR]
#   --cells   numa-<mode>:<migrate policy>,... (default
#             numa-private:skip-single,numa-private:always)
#   --window  measured seconds per run (default 35)
set -eu

cells=numa-private:skip-single,numa-private:always window=35 out=""
while [ $# -gt 0 ]; do
	case $1 in
	--cells) cells=$2; shift ;;
	--window) window=$2; shift ;;
	--out) out=$2; shift ;;
	-*) echo "testbed-vma-walk: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
srcdir=$(cd "${1:-.}" && pwd)
cache=${TLBP_TESTBED_DIR:-/var/tmp/tlbp-testbed}

bzimage=$(TLBP_TESTBED_EXTRA_PATCHES="$(ls "$srcdir"/kernel/patches/measure/0001-*.patch)" \
	sh "$srcdir/scripts/testbed-kernel.sh" "$srcdir")
work=$cache/work-vma-walk
mkdir -p "$work"
sh "$srcdir/scripts/testbed-initramfs.sh" "$srcdir" "$work/initramfs.gz" \
	bin/numa_maps="$srcdir/tools/testbed/numa_maps.sh"
out=${out:-$cache/results/vma-walk-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"

for cell in $(echo "$cells" | tr ',' ' '); do
	scenario=${cell%%:*} policy=${cell#*:}
	case $scenario in
	numa-shared) wargs="mode=shared,slice_mb=16,stable_mb=32" ;;
	numa-*) wargs="mode=${scenario#numa-}" ;;
	*) echo "testbed-vma-walk: $scenario is not a numa_regions cell" >&2; exit 2 ;;
	esac
	log=$out/$scenario-$policy.log
	echo "testbed-vma-walk: $cell, log $log" >&2
	# The log lines are KERN_NOTICE: kept in a log buffer big enough for
	# the run, dumped by /init at the end, never on the serial console.
	sh "$srcdir/scripts/testbed-boot.sh" "$bzimage" "$work/initramfs.gz" \
		$((window + 305)) "$log" TB_WORKLOAD=numa_maps \
		TB_ARGS="$wargs,warmup=5,window=$window" TB_MIGRATE="$policy" \
		TB_HINT=deferred TB_SPLIT=batched log_buf_len=16M
	echo "== $cell"
	python3 "$srcdir/scripts/testbed-vma-walk.py" "$log"
done
