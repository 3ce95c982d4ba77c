#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Runs testbed cells on a measurement kernel: builds (or reuses) the
# testbed kernel with one patch of kernel/patches/measure/ on top of the
# series, runs the cells on it (scripts/testbed.sh) and prints that
# measurement's report, per run and per cell:
#   flush-ends  0003: how the flushes each CPU received ended, caught up
#               with the mm's TLB generation or flushing all or a range
#               (scripts/testbed-flush-ends.py)
#   cpu-moves   0004: what moved the workers between CPUs, and how often
#               they slept and were preempted (scripts/testbed-cpu-moves.py)
#   numa-filter 0005: how should_numa_migrate_memory() decided the remote
#               hint faults, by branch (scripts/testbed-numa-filter.py)
#
# Usage: testbed-measure.sh flush-ends|cpu-moves|numa-filter [--cells LIST]
#                           [--runs N] [--out DIR] [SRCDIR]
#   --cells   testbed cells (default numa-private:always,numa-private:skip-single)
#   --runs    repeats per cell (default 3)
set -eu

usage="usage: testbed-measure.sh flush-ends|cpu-moves|numa-filter [--cells LIST] [--runs N] [--out DIR] [SRCDIR]"
case ${1:-} in
flush-ends) patch=0003 ;;
cpu-moves) patch=0004 ;;
numa-filter) patch=0005 ;;
*) echo "testbed-measure: $usage" >&2; exit 2 ;;
esac
what=$1
shift
cells=numa-private:always,numa-private:skip-single runs=3 out=""
while [ $# -gt 0 ]; do
	case $1 in
	--cells) cells=$2; shift ;;
	--runs) runs=$2; shift ;;
	--out) out=$2; shift ;;
	-*) echo "testbed-measure: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
srcdir=$(cd "${1:-.}" && pwd)
cache=${TLBP_TESTBED_DIR:-/var/tmp/tlbp-testbed}
out=${out:-$cache/results/$what-$(date +%Y%m%d-%H%M%S)}

TLBP_TESTBED_EXTRA_PATCHES="$(ls "$srcdir"/kernel/patches/measure/$patch-*.patch)" \
	sh "$srcdir/scripts/testbed.sh" --runs "$runs" --cells "$cells" --out "$out" "$srcdir"
python3 "$srcdir/scripts/testbed-$what.py" "$out"/*.log
