#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# How the guest's received TLB flushes end: builds (or reuses) the testbed
# kernel with kernel/patches/measure/0003-*.patch on top of the series,
# runs the testbed's cells on it (scripts/testbed.sh) and prints, per run
# and per cell, how many received flushes found the CPU already caught up
# with the mm's TLB generation and how many flushed all or a range
# (scripts/testbed-flush-ends.py).
#
# Usage: testbed-flush-ends.sh [--cells LIST] [--runs N] [--out DIR] [SRCDIR]
#   --cells   testbed cells (default numa-private:always,numa-private:skip-single)
#   --runs    repeats per cell (default 3)
set -eu

cells=numa-private:always,numa-private:skip-single runs=3 out=""
while [ $# -gt 0 ]; do
	case $1 in
	--cells) cells=$2; shift ;;
	--runs) runs=$2; shift ;;
	--out) out=$2; shift ;;
	-*) echo "testbed-flush-ends: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
srcdir=$(cd "${1:-.}" && pwd)
cache=${TLBP_TESTBED_DIR:-/var/tmp/tlbp-testbed}
out=${out:-$cache/results/flush-ends-$(date +%Y%m%d-%H%M%S)}

TLBP_TESTBED_EXTRA_PATCHES="$(ls "$srcdir"/kernel/patches/measure/0003-*.patch)" \
	sh "$srcdir/scripts/testbed.sh" --runs "$runs" --cells "$cells" --out "$out" "$srcdir"
python3 "$srcdir/scripts/testbed-flush-ends.py" "$out"/*.log
