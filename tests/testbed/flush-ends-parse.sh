#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-flush-ends.py on made-up measurement-kernel logs: each
# run's window deltas of the received flushes' ends
# (kernel/patches/measure/0003-*.patch), the full flushes per received
# one, the cell's medians over its runs; a log without a window is named
# and skipped, one of a kernel without the counters is refused.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
parse="python3 ${top_srcdir:-.}/scripts/testbed-flush-ends.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

snap() { # tag received stale current flush_one flush_all
	echo "@@snap $1 /proc/vmstat"
	echo "nr_tlb_remote_flush $(($2 / 7))"
	echo "nr_tlb_remote_flush_received $2"
	echo "nr_tlb_local_flush_all 5"
	echo "nr_tlb_local_flush_one 0"
	for e in other_mm kernel_mm lazy; do echo "nr_tlb_received_$e 0"; done
	echo "nr_tlb_received_stale $3"
	echo "nr_tlb_received_current $4"
	echo "nr_tlb_received_flush_one $5"
	echo "nr_tlb_received_flush_all $6"
	echo "nr_tlb_switch_flush_all 2"
	echo "@@end"
}
{ snap begin 70 10 10 0 50; snap end 1070 310 410 0 350; } >"$tmp/numa-private-always-1.log"
{ snap begin 0 0 0 0 0; snap end 2000 200 800 0 1000; } >"$tmp/numa-private-always-2.log"
{ snap begin 0 0 0 0 0; snap end 3000 900 600 0 1500; } >"$tmp/numa-private-always-3.log"
echo '@@snap begin /proc/vmstat' >"$tmp/numa-private-always-4.log"

out=$($parse "$tmp"/numa-private-always-[1-4].log) || bad "exited non-zero: $out"
expect '^numa-private-always-1.log: sent 142 received 1000 (ended 1000): .* stale 300 current 400 flush_one 0 flush_all 300; full flushes per received 0.300; local full 0, on switch 0$' \
	"a run's window: the deltas of its counters"
expect '^numa-private-always-2.log: .* full flushes per received 0.500;' "each run its own share"
expect '^numa-private-always-4.log: no measured window' "a log without its window named, not counted"
expect '^numa-private-always median of 3: sent 285 received 2000: other_mm 0 .* stale 300 current 600 flush_one 0 flush_all 1000; full flushes per received 0.500;' \
	"the cell's medians over its 3 windows"

grep -v '_received_\|switch_flush' "$tmp/numa-private-always-1.log" >"$tmp/plain-1.log"
out=$($parse "$tmp/plain-1.log" 2>&1) && bad "a kernel without the counters accepted: $out"
expect 'no nr_tlb_received_\* counters (not the measurement kernel)' "a log of another kernel refused, saying why"
out=$($parse 2>&1) && bad "no logs accepted"
expect '^Usage: testbed-flush-ends.py LOG' "no logs: the usage"
[ "$fails" -eq 0 ]
