#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Measure the testbed machine's costs from inside the guest
# (tools/testbed/microbench.c): boot the testbed kernel once per repeat and
# print each "@@micro" line, then the median of every figure over the boots
# as key=value lines (what tlbsim's testbed machine profile is made of),
# after a "# host:" line naming the host that ran them (its memory speed
# moves every memory-bound figure: docs/data/testbed-sweep-mix.md).
#
# Usage: testbed-microbench.sh [--boots N] [SRCDIR]
set -eu
boots=3
while [ $# -gt 0 ]; do
	case $1 in
	--boots) boots=$2; shift ;;
	-*) echo "testbed-microbench: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
srcdir=$(cd "${1:-.}" && pwd)
cache=${TLBP_TESTBED_DIR:-/var/tmp/tlbp-testbed}
bzimage=$(sh "$srcdir/scripts/testbed-kernel.sh" "$srcdir")
work=$cache/work-microbench
mkdir -p "$work"
sh "$srcdir/scripts/testbed-initramfs.sh" "$srcdir" "$work/initramfs.gz"
: >"$work/micro.txt"
for b in $(seq 1 "$boots"); do
	echo "testbed-microbench: boot $b/$boots" >&2
	sh "$srcdir/scripts/testbed-boot.sh" "$bzimage" "$work/initramfs.gz" 600 "$work/boot-$b.log" \
		TB_WORKLOAD=microbench TB_ARGS=reps=2000 TB_MIGRATE=always TB_HINT=deferred TB_SPLIT=batched || {
		echo "testbed-microbench: boot $b failed (log $work/boot-$b.log)" >&2; exit 1; }
	grep -o '@@micro .*' "$work/boot-$b.log" | tr -d '\r' | tee -a "$work/micro.txt" >&2 || {
		echo "testbed-microbench: no @@micro line in $work/boot-$b.log" >&2; exit 1; }
done
echo "# host: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/micro.txt" <<'PY'
import statistics, sys
runs = [dict(t.split('=') for t in l.split()[1:]) for l in open(sys.argv[1]) if l.strip()]
for k in runs[0]:
    v = [float(r[k]) for r in runs]
    print('%s=%g  # median of %d boots, range %g..%g' % (k, statistics.median(v), len(v), min(v), max(v)))
PY
