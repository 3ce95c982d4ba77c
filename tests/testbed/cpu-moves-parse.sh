#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-cpu-moves.py on made-up measurement-kernel logs: each
# run's window deltas of the user tasks' moves by cause
# (kernel/patches/measure/0004-*.patch) beside numa_regions' own counts
# of the window, the cell's medians over its runs; a log without a window
# is named and skipped, one of a kernel without the counters is refused.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
parse="python3 ${top_srcdir:-.}/scripts/testbed-cpu-moves.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

snap() { # tag wakeup newidle busy stopper
	echo "@@snap $1 /proc/vmstat"
	echo "nr_sched_move_wakeup $2"
	echo "nr_sched_move_balance_newidle $3"
	echo "nr_sched_move_balance_idle 1"
	echo "nr_sched_move_balance_busy $4"
	echo "nr_sched_move_stopper $5"
	echo "nr_sched_move_numa_task 0"
	echo "nr_sched_move_numa_swap 0"
	echo "@@end"
}
result() { # stable moves, stable sleeps, seconds overloaded, switches' lateness
	echo "@@result passes=900 switches=40 window_moving_passes=800 window_stable_passes=90" \
		"window_moving_cpu_moves=60 window_moving_sleeps=7 window_moving_preemptions=300" \
		"window_stable_cpu_moves=$1 window_stable_sleeps=$2 window_stable_preemptions=200" \
		"window_overloaded_s=$3"
	echo "@@switch_late_ms $4"
}
{ snap begin 5 5 5 5; snap end 15 45 25 40; result 30 4 12.5 '1.5,2.5;250.0,3.5'; } >"$tmp/numa-private-always-1.log"
{ snap begin 0 0 0 0; snap end 20 60 10 30; result 50 8 20.25 '1,2,3'; } >"$tmp/numa-private-always-2.log"
{ snap begin 0 0 0 0; snap end 30 20 0 34; result 10 6 3 ''; } >"$tmp/numa-private-always-3.log"
echo '@@snap begin /proc/vmstat' >"$tmp/numa-private-always-4.log"

out=$($parse "$tmp"/numa-private-always-[1-4].log) || bad "exited non-zero: $out"
expect '^numa-private-always-1.log: user moves by cause: wakeup 10 balance_newidle 40 balance_idle 0 balance_busy 20 stopper 35 numa_task 0 numa_swap 0 (total 105); moving: moves 60 sleeps 7 preemptions 300 sweeps 800; stable: moves 30 sleeps 4 preemptions 200 sweeps 90; node switches (whole run) 40; a node over its CPUs 12.5 s; switches late by median 3 ms, at most 250, 1 by 100 ms or more$' \
	"a run's window: the deltas of its counters beside the workload's own"
expect '^numa-private-always-2.log: user moves by cause: wakeup 20 balance_newidle 60 .* stable: moves 50 sleeps 8 ' \
	"each run its own counts"
expect '^numa-private-always-4.log: no measured window' "a log without its window named, not counted"
expect '^numa-private-always median of 3: user moves by cause: wakeup 20 balance_newidle 40 balance_idle 0 balance_busy 10 stopper 34 .* stable: moves 30 sleeps 6 .* a node over its CPUs 12.5 s; switches late by median 2.5 ms, at most 126.5, 0.5 by 100 ms or more$' \
	"the cell's medians over its 3 windows, a run without a count left out"

grep -v 'nr_sched_move' "$tmp/numa-private-always-1.log" >"$tmp/plain-1.log"
out=$($parse "$tmp/plain-1.log" 2>&1) && bad "a kernel without the counters accepted: $out"
expect 'no nr_sched_move_\* counters (not the measurement kernel)' "a log of another kernel refused, saying why"
out=$($parse 2>&1) && bad "no logs accepted"
expect '^Usage: testbed-cpu-moves.py LOG' "no logs: the usage"
[ "$fails" -eq 0 ]
