#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-numa-filter.py on made-up measurement-kernel logs: each
# run's window deltas of should_numa_migrate_memory()'s verdicts by branch
# (kernel/patches/measure/0005-*.patch) and when the mm's scan sequence
# passed 4 (numa_regions' @@scan_seq_ms), the cell's medians; a log
# without a window is named and skipped, one of a kernel without the
# counters is refused.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
parse="python3 ${top_srcdir:-.}/scripts/testbed-numa-filter.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

snap() { # tag no_preferred seq seq_lag other_node deny private shared
	echo "@@snap $1 /proc/vmstat"
	echo "nr_numa_filter_early_no_preferred $2"
	echo "nr_numa_filter_early_seq $3"
	echo "nr_numa_filter_early_seq_lag $4"
	echo "nr_numa_filter_early_other_node $5"
	echo "nr_numa_filter_deny_node $6"
	echo "nr_numa_filter_private $7"
	echo "nr_numa_filter_shared $8"
	echo "@@end"
}
{ snap begin 4 100 0 10 5 50 0; snap end 4 460 300 70 13 90 2
  echo "@@scan_seq_ms first=0 at=1245,3545,7797,10701,16117,20329"; } >"$tmp/numa-mthp64-skip-numa-1.log"
{ snap begin 0 0 0 0 0 0 0; snap end 0 200 100 20 1000 40 0
  echo "@@scan_seq_ms first=1 at=2000,4000,6000"; } >"$tmp/numa-mthp64-skip-numa-2.log"
{ snap begin 0 0 0 0 0 0 0; snap end 2 300 0 0 7 60 1
  echo "@@scan_seq_ms first=6"; } >"$tmp/numa-mthp64-skip-numa-3.log"
echo '@@snap begin /proc/vmstat' >"$tmp/numa-mthp64-skip-numa-4.log"

out=$($parse "$tmp"/numa-mthp64-skip-numa-[1-4].log) || bad "exited non-zero: $out"
expect "^numa-mthp64-skip-numa-1.log: early window 360 (no preferred node 0, own sequence 4 or less 360, of them with the mm past 4 300; the filter would have refused 60); filter refused 8; private 40; shared 2; the mm's sequence past 4 at 16.117 s$" \
	"a run's window: the deltas by branch, the sequence's fifth step"
expect "^numa-mthp64-skip-numa-2.log: .*filter refused 1000; .* past 4 at not in the run$" \
	"a sequence that did not reach 5 in the run said so"
expect "^numa-mthp64-skip-numa-3.log: early window 302 .* past 4 at 0 s$" \
	"a sequence past 4 from the start"
expect '^numa-mthp64-skip-numa-4.log: no measured window' "a log without its window named, not counted"
expect "^numa-mthp64-skip-numa median of 3: early window 300 (no preferred node 0, own sequence 4 or less 300, of them with the mm past 4 100; the filter would have refused 20); filter refused 8; private 40; shared 1; the mm's sequence past 4 at 8.0585 s (median)$" \
	"the cell's medians over its 3 windows, a run without the time left out"

grep -v 'nr_numa_filter' "$tmp/numa-mthp64-skip-numa-1.log" >"$tmp/plain-1.log"
out=$($parse "$tmp/plain-1.log" 2>&1) && bad "a kernel without the counters accepted: $out"
expect 'no nr_numa_filter_\* counters (not the measurement kernel)' "a log of another kernel refused, saying why"
out=$($parse 2>&1) && bad "no logs accepted"
expect '^Usage: testbed-numa-filter.py LOG' "no logs: the usage"
[ "$fails" -eq 0 ]
