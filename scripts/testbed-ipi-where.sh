#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Where the guest's TLB flush IPIs find their targets: builds (or reuses)
# the testbed kernel with kernel/patches/measure/0002-*.patch on top of the
# series, boots it once per cell with thp_split under
# tools/testbed/split_maps.sh, and prints, per cell, the code the
# receiving CPUs were running when each flush reached them
# (scripts/testbed-ipi-where.py, kernel addresses named from System.map)
# and which of the rounds' regions shared a VMA in twelve reads of the
# process's maps (scripts/testbed-split-maps.py). docs/results.md reads
# these logs for the split cells.
#
# Usage: testbed-ipi-where.sh [--cells LIST] [--window S] [--out DIR] [SRCDIR]
#   --cells   thp-split-flush[.N]:<split policy>,... (default
#             thp-split-flush.2:per-pte,thp-split-flush:per-pte)
#   --window  measured seconds per run (default 20)
set -eu

cells=thp-split-flush.2:per-pte,thp-split-flush:per-pte window=20 out=""
while [ $# -gt 0 ]; do
	case $1 in
	--cells) cells=$2; shift ;;
	--window) window=$2; shift ;;
	--out) out=$2; shift ;;
	-*) echo "testbed-ipi-where: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
srcdir=$(cd "${1:-.}" && pwd)
cache=${TLBP_TESTBED_DIR:-/var/tmp/tlbp-testbed}

bzimage=$(TLBP_TESTBED_EXTRA_PATCHES="$(ls "$srcdir"/kernel/patches/measure/0002-*.patch)" \
	sh "$srcdir/scripts/testbed-kernel.sh" "$srcdir")
sysmap=$(dirname "$bzimage")/obj/System.map
work=$cache/work-ipi-where
mkdir -p "$work"
sh "$srcdir/scripts/testbed-initramfs.sh" "$srcdir" "$work/initramfs.gz" \
	bin/split_maps="$srcdir/tools/testbed/split_maps.sh"
out=${out:-$cache/results/ipi-where-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"

for cell in $(echo "$cells" | tr ',' ' '); do
	scenario=${cell%%:*} policy=${cell#*:}
	case $scenario in
	thp-split-flush) wargs="warmup=5,window=$window" ;;
	thp-split-flush.[0-9]*)
		wargs="threads=${scenario#thp-split-flush.},warmup=5,window=$window" ;;
	*) echo "testbed-ipi-where: $scenario is not a thp-split-flush cell" >&2; exit 2 ;;
	esac
	log=$out/$scenario-$policy.log
	echo "testbed-ipi-where: $cell, log $log" >&2
	sh "$srcdir/scripts/testbed-boot.sh" "$bzimage" "$work/initramfs.gz" \
		$((window + 305)) "$log" TB_WORKLOAD=split_maps \
		TB_ARGS="$wargs" TB_MIGRATE=always TB_HINT=deferred \
		TB_SPLIT="$policy" log_buf_len=16M
	echo "== $cell"
	python3 "$srcdir/scripts/testbed-ipi-where.py" "$log" "$sysmap"
	python3 "$srcdir/scripts/testbed-split-maps.py" "$log"
done
