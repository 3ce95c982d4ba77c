#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-report.py record and table on made-up console logs: a
# run's "@@speed" line lands in its record's host part next to the host's
# CPU, a probe that failed (-1) or never ran leaves no speed, and the
# table's speed line takes the median over the runs that measured it; the
# snapshots' read spans land in the record's params.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
report="python3 ${top_srcdir:-.}/scripts/testbed-report.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

log() { # file speed-line-or-empty
	{
		echo '@@boot uptime=1.0 nodes=2 cpus=8'
		[ -z "$2" ] || echo "$2"
		printf '@@snap begin /proc/vmstat\npgmigrate_success 0\n@@end\n'
		printf '@@snap end /proc/vmstat\npgmigrate_success 500\n@@end\n'
		echo '@@exit 0'
	} >"$1"
}
rec() { # log run
	$report record --log "$1" --scenario numa-private --policy always --run "$2" \
		--migrate always --hint deferred --split batched --workload numa_regions \
		--args x --kernel k --qemu-rc 0 --host-seconds 40 --vcpus 8
}
log "$tmp/1.log" '@@speed sweep_ns_per_page=99.0 sweep_walk_ns_per_page=160.5 sweep_grown_32_ns_per_page=26.0 sweep_grown_192_ns_per_page=60.0'
log "$tmp/2.log" '@@speed sweep_walk_ns_per_page=480.5 sweep_grown_32_ns_per_page=-1.0 sweep_grown_192_ns_per_page=-1.0'
log "$tmp/3.log" ''
for i in 1 2 3; do rec "$tmp/$i.log" $i; done >"$tmp/records.jsonl" || bad "record exited non-zero"

out=$(sed -n 1p "$tmp/records.jsonl" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["status"], r["host"]["speed"], r["host"]["cores"] > 0, r["host"]["cpu"] != "")')
expect "^ok {'sweep_walk_ns_per_page': 160.5, 'sweep_grown_32_ns_per_page': 26.0, 'sweep_grown_192_ns_per_page': 60.0} True True\$" \
	"the speed line and the host's CPU land in the record, without the old probe's sweep_ns_per_page"
out=$(sed -n 2p "$tmp/records.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["host"]["speed"])')
expect "^{'sweep_walk_ns_per_page': 480.5}\$" "a failed sweep (-1) is left out, not recorded as a speed"
out=$(sed -n 3p "$tmp/records.jsonl" | python3 -c 'import json,sys; h=json.load(sys.stdin)["host"]; print("speed" in h, "cpu" in h)')
expect '^False True$' "a run without the probe has a host but no speed"
out=$(sed -n 1p "$tmp/records.jsonl" | $report brief)
expect 'migrated_pages=500 .*guest_sweep_walk_ns_per_page=160.5$' "brief names the guest's speed"

out=$($report table "$tmp/records.jsonl") || bad "table exited non-zero"
expect '^guest speed over 2 of 3 runs: sweep_walk_ns_per_page 320.5 \[160.5-480.5\], sweep_grown_32_ns_per_page 26 \[26-26\], sweep_grown_192_ns_per_page 60 \[60-60\]; host: .*, [0-9]* cores$' \
	"the table's speed line: the median over the runs that measured it"
head -n 1 "$tmp/records.jsonl" | sed 's/, "host": {[^}]*{[^}]*}}//' >"$tmp/old.jsonl"
out=$($report table "$tmp/old.jsonl")
expect '^guest speed: not recorded (1 run)$' "records from before the probe say so"

# The snapshots' read spans (tools/testbed/tb_common.c) land in params;
# a log from before them has none.
log "$tmp/4.log" '@@snap-span-begin seconds=0.002140'
echo '@@snap-span-end seconds=0.000913' >>"$tmp/4.log"
out=$(rec "$tmp/4.log" 4 | python3 -c 'import json,sys; print(json.load(sys.stdin)["params"]["snap_span_s"])')
expect "^{'begin': 0.00214, 'end': 0.000913}\$" "the snapshots' read spans land in the record's params"
out=$(sed -n 3p "$tmp/records.jsonl" | python3 -c 'import json,sys; print("snap_span_s" in json.load(sys.stdin)["params"])')
expect '^False$' "a log without spans records none"
[ "$fails" -eq 0 ]
