#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-report.py scanner on made-up records: the scanner's
# counters (patch 0006) come out per task_numa_work() scan as median
# [range] of the good runs, a failed run or one from a kernel without the
# counters stays out, and a missing counter prints "-".
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
report="python3 ${top_srcdir:-.}/scripts/testbed-report.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

rec() { # policy status scans runtime_ns wall_ns drains
	printf '{"scenario": "numa-private", "policy": "%s", "status": "%s", "params": {"workload_window": "10", "workload_moving": "1", "workload_stable": "1"}, "metrics": {"window_worker_runtime_ms": 10000, "window_tick_rate": 0.5, "numa_scan_passes": %s, "numa_scan_runtime_ns": %s, "numa_scan_wall_ns": %s, "scanner_pending_flushes": %s, "numa_prot_calls": 4, "numa_prot_flush_ns": 40000000}}\n' "$@"
}
{
	rec always ok 10 10000000000 10000000000 500
	rec always ok 20 10000000000 5000000000 1000
	rec always timeout 1 99000000000 99000000000 1
	rec skip-single ok 4 400000000 400000000 0
	echo '{"scenario": "numa-private", "policy": "skip-single", "status": "ok", "params": {}, "metrics": {"migrated_pages": 5}}'
} >"$tmp/records.jsonl"
out=$($report scanner "$tmp/records.jsonl") || bad "scanner exited non-zero"
echo "$out" | grep -q '^| | always (2 runs) | skip-single (1 run) |$' \
	&& ok "the timed-out run and the record without counters stay out" || bad "header: $out"
echo "$out" | grep -q '^| runtime a scan, ms (`numa_scan_runtime_ns`) | 750 \[500-1000\] | 100 \[100-100\] |$' \
	&& ok "runtime per scan, median of the runs' own ratios" || bad "runtime: $out"
echo "$out" | grep -q '^| scanner batched-pending drains a scan | 50 \[50-50\] | 0 \[0-0\] |$' \
	&& ok "drains per scan" || bad "drains: $out"
echo "$out" | grep -q '^| final flush of a `change_prot_numa()`, ms | 10 \[10-10\] | 10 \[10-10\] |$' \
	&& ok "flush per change_prot_numa() call" || bad "flush: $out"
echo "$out" | grep -q '^| share of the window spent scanning | 0.75 \[0.5-1\] | 0.04 \[0.04-0.04\] |$' \
	&& ok "share of the window" || bad "share: $out"
echo "$out" | grep -q "^| workers' runtime over their wall time (\`window_worker_runtime_ms\`) | 0.5 \[0.5-0.5\] | 0.5 \[0.5-0.5\] |\$" \
	&& ok "runtime over wall time, the threads from the workload's params" || bad "runtime share: $out"
echo "$out" | grep -q '^| guest jiffies per second over HZ (`window_tick_rate`) | 0.5 \[0.5-0.5\] | 0.5 \[0.5-0.5\] |$' \
	&& ok "the guest's tick rate, as numa_regions reports it" || bad "tick rate: $out"
echo "$out" | grep -q '^| scan sequences (`window_scan_seqs`) | - | - |$' \
	&& ok "a counter no record has prints -" || bad "missing: $out"
[ "$fails" -eq 0 ]
