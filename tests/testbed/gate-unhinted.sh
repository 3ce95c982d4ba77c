#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-report.py record and gate on made-up console logs whose
# snapshots read the library's counters before and after /proc/vmstat
# (tools/testbed/tb_common.c): the record bounds the pages migrated past
# the library's hint path, and the gate fails a run whose bounds, widened
# by one in-flight migration a vCPU, leave 0 out.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
report="python3 ${top_srcdir:-.}/scripts/testbed-report.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"
c=/sys/kernel/debug/tlbpolicy/counters

snap() { # tag vmstat-migrated hint-before hint-after tlb-irqs scanner-flushes
	printf '@@snap %s %s\nhint_migrated %s\nscanner_pending_flushes %s\nprotnone_batched_unmaps 0\n@@end\n' \
		"$1" $c "$3" "$6"
	printf '@@snap %s /proc/vmstat\npgmigrate_success %s\nnuma_pages_migrated %s\n@@end\n' "$1" "$2" "$2"
	[ -z "$4" ] || printf '@@snap %s %s (after vmstat)\nhint_migrated %s\n@@end\n' "$1" $c "$4"
	printf '@@snap %s /proc/interrupts\nTLB: %s 0\n@@end\n' "$1" "$5"
}
log() { # file end-vmstat-migrated end-hint-after tlb-irqs scanner-flushes
	{
		echo '@@boot uptime=1.0 nodes=2 cpus=8'
		snap begin 1000 995 1003 0 0
		snap end "$2" 20990 "$3" "$4" "$5"
		echo '@@exit 0'
	} >"$1"
}
rec() { # log policy run
	$report record --log "$1" --scenario numa-private --policy "$2" --run "$3" \
		--migrate "$2" --hint deferred --split batched --workload numa_regions \
		--args x --kernel k --qemu-rc 0 --host-seconds 40 --vcpus 8
}
bounds() {
	python3 -c 'import json,sys; m=json.load(sys.stdin)["metrics"]; print(m.get("numa_migrated_unhinted_min"), m.get("numa_migrated_unhinted_max"))'
}

# Begin: vmstat 1000 between the library's 995 and 1003. End: vmstat
# 21000 between 20990 and 21004: lo = (21000-21004) - (1000-995) = -9,
# hi = (21000-20990) - (1000-1003) = 13.
log "$tmp/ok.log" 21000 21004 100 0
out=$(rec "$tmp/ok.log" skip-single 1 | bounds)
expect '^-9 13$' "the bounds come from both library reads of each snapshot"
# 600 pages the library never saw: [591, 613].
log "$tmp/missed.log" 21600 21004 100 0
out=$(rec "$tmp/missed.log" skip-single 2 | bounds)
expect '^591 613$' "pages migrated past the hint path move both bounds"
log "$tmp/old.log" 21000 '' 100 0
out=$(rec "$tmp/old.log" skip-single 3 | bounds)
expect '^None None$' "a log without the second read has no bounds"

# The gate: two always runs that ignite, two skip-single runs.
log "$tmp/a1.log" 21000 21004 10000 5
log "$tmp/a2.log" 21000 21004 10000 5
{ rec "$tmp/a1.log" always 1; rec "$tmp/a2.log" always 2
  rec "$tmp/ok.log" skip-single 1; rec "$tmp/ok.log" skip-single 2; } >"$tmp/good.jsonl"
out=$($report gate "$tmp/good.jsonl" 2>&1) && ok "the gate passes when every run's bounds hold 0" ||
	bad "the gate failed a good matrix: $out"
expect "^gate: PASS: skip-single run 2: pages migrated past the library's hint path in \[-9, 13\]" \
	"the gate names each run's bounds"
{ rec "$tmp/a1.log" always 1; rec "$tmp/a2.log" always 2
  rec "$tmp/ok.log" skip-single 1; rec "$tmp/missed.log" skip-single 2; } >"$tmp/missed.jsonl"
out=$($report gate "$tmp/missed.jsonl" 2>&1) && bad "the gate passed 600 missed migrations" ||
	ok "the gate fails a run with migrations the library did not count"
expect "^gate: FAIL: skip-single run 2: .*\[591, 613\]" "the failure names the run and its bounds"
# Widened by 8 in flight: a run 8 past each end still holds 0; 9 does not.
log "$tmp/edge.log" 21017 21004 100 0
out=$(rec "$tmp/edge.log" skip-single 4 | bounds)
expect '^8 30$' "a run whose lower bound is 8"
{ rec "$tmp/a1.log" always 1; rec "$tmp/a2.log" always 2
  rec "$tmp/ok.log" skip-single 1; rec "$tmp/edge.log" skip-single 4; } >"$tmp/edge.jsonl"
$report gate "$tmp/edge.jsonl" >/dev/null 2>&1 && ok "8 past the bound is within the 8 vCPUs' in-flight migrations" ||
	bad "the gate failed a run within the in-flight slack"
log "$tmp/past.log" 21018 21004 100 0
{ rec "$tmp/a1.log" always 1; rec "$tmp/a2.log" always 2
  rec "$tmp/ok.log" skip-single 1; rec "$tmp/past.log" skip-single 5; } >"$tmp/past.jsonl"
$report gate "$tmp/past.jsonl" >/dev/null 2>&1 && bad "the gate passed a run 9 past its bound" ||
	ok "9 past the bound fails"
{ rec "$tmp/a1.log" always 1; rec "$tmp/a2.log" always 2
  rec "$tmp/ok.log" skip-single 1; rec "$tmp/old.log" skip-single 3; } >"$tmp/old.jsonl"
$report gate "$tmp/old.jsonl" >/dev/null 2>&1 && bad "the gate passed a run without bounds" ||
	ok "a run without the bracketing read fails the gate"
[ "$fails" -eq 0 ]
