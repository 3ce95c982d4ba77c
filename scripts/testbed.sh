#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The kernel testbed: Debian's linux-source-6.12 with tlbpolicy vendored and
# kernel/patches/6.12/*.patch applied, booted under qemu (TCG, 2 NUMA nodes,
# 8 vCPUs) once per run of a policy x workload matrix. Writes one JSON record
# per run and a table of medians (scripts/testbed-report.py).
#
# Usage: testbed.sh [options] [SRCDIR]
#   --gate          the CI gate: numa-private, always vs skip-single, 3 runs,
#                   then the gate's checks (exit 1 if one fails)
#   --runs N        repeats per cell (default 3)
#   --window S      measured seconds per run (default 35)
#   --cells LIST    comma-separated cells, e.g. numa-private:always
#                   (default: the full matrix, see `cells_full` below)
#   --build-only    build (or reuse) the kernel and the initramfs, no runs
#   --out DIR       where records, logs and the table go
#                   (default $TLBP_TESTBED_DIR/results/<date>)
# Environment: TLBP_TESTBED_DIR (default /var/tmp/tlbp-testbed): the cache of
# unpacked sources, kernels (by version and series+library hash) and runs.
set -eu

gate=0 runs=3 window=35 cells="" build_only=0 out=""
while [ $# -gt 0 ]; do
	case $1 in
	--gate) gate=1 ;;
	--runs) runs=$2; shift ;;
	--window) window=$2; shift ;;
	--cells) cells=$2; shift ;;
	--build-only) build_only=1 ;;
	--out) out=$2; shift ;;
	-*) echo "testbed: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
srcdir=$(cd "${1:-.}" && pwd)
cache=${TLBP_TESTBED_DIR:-/var/tmp/tlbp-testbed}
start=$(date +%s)
say() { echo "testbed [$(( $(date +%s) - start ))s]: $*" >&2; }

for tool in qemu-system-x86_64 python3; do
	command -v $tool >/dev/null || { echo "testbed: $tool not installed (scripts/install-deps.sh --ci)" >&2; exit 1; }
done

# --- the kernel, cached by source version and everything that goes into it
bzimage=$(sh "$srcdir/scripts/testbed-kernel.sh" "$srcdir")
key=$(basename "$(dirname "$bzimage")" | sed 's/^kernel-//')

# --- the initramfs: busybox, the workloads, /init
work=$cache/work
mkdir -p "$work"
sh "$srcdir/scripts/testbed-initramfs.sh" "$srcdir" "$work/initramfs.gz"
[ "$build_only" -eq 0 ] || { say "kernel $bzimage, initramfs $work/initramfs.gz"; exit 0; }

# --- the matrix
# A cell is <scenario>:<policy>. Scenarios: numa-{private,mthp64,shared,
# thp-split} take migrate policies; hint-private takes hint-fault policies;
# thp-split-flush takes split policies; thp-split-flush.N runs it with N
# threads (8 otherwise).
migrate_policies="always skip-numa skip-single skip-single-mapcount"
cells_full=""
for s in numa-private numa-mthp64 numa-shared numa-thp-split; do
	for p in $migrate_policies; do cells_full="$cells_full $s:$p"; done
done
cells_full="$cells_full hint-private:eager hint-private:deferred"
cells_full="$cells_full thp-split-flush:per-pte thp-split-flush:batched"
if [ "$gate" -eq 1 ]; then
	cells="numa-private:always,numa-private:skip-single"
fi
[ -n "$cells" ] || cells=$(echo $cells_full | tr ' ' ',')
out=${out:-$cache/results/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
records=$out/records.jsonl
: >"$records"
vcpus=8
warmup=5

nr_cells=$(echo "$cells" | tr ',' '\n' | grep -c .)
total=$((nr_cells * runs))
n=0
for r in $(seq 1 "$runs"); do
	for cell in $(echo "$cells" | tr ',' ' '); do
		scenario=${cell%%:*} policy=${cell#*:}
		migrate=always hint=deferred split=batched
		case $scenario in
		numa-shared) migrate=$policy; workload=numa_regions
			# Two processes fault and map the region: keep it smaller.
			wargs="mode=shared,slice_mb=16,stable_mb=32,warmup=$warmup,window=$window" ;;
		numa-*) migrate=$policy; workload=numa_regions
			wargs="mode=${scenario#numa-},warmup=$warmup,window=$window" ;;
		hint-private) hint=$policy; workload=numa_regions
			wargs="mode=private,warmup=$warmup,window=$window" ;;
		thp-split-flush) split=$policy; workload=thp_split
			wargs="warmup=$warmup,window=$window" ;;
		thp-split-flush.[0-9]*) split=$policy; workload=thp_split
			wargs="threads=${scenario#thp-split-flush.},warmup=$warmup,window=$window" ;;
		*) echo "testbed: unknown scenario $scenario" >&2; exit 2 ;;
		esac
		n=$((n + 1))
		log=$out/$scenario-$policy-$r.log
		say "run $n/$total: $scenario $policy (repeat $r)"
		t0=$(date +%s)
		rc=0
		# Slack before a run counts as stalled: on a host busy with other
		# jobs, MAP_SHARED runs took 170 s for 40 s of workload, and 5
		# of 12 overran the 150 s this used to allow (2026-12-01).
		sh "$srcdir/scripts/testbed-boot.sh" "$bzimage" "$work/initramfs.gz" \
			$((window + warmup + 300)) "$log" TB_WORKLOAD=$workload TB_ARGS=$wargs \
			TB_MIGRATE=$migrate TB_HINT=$hint TB_SPLIT=$split || rc=$?
		elapsed=$(( $(date +%s) - t0 ))
		python3 "$srcdir/scripts/testbed-report.py" record --log "$log" \
			--scenario "$scenario" --policy "$policy" --run "$r" \
			--qemu-rc "$rc" --host-seconds "$elapsed" --vcpus $vcpus \
			--migrate "$migrate" --hint "$hint" --split "$split" \
			--workload "$workload" --args "$wargs" --kernel "$key" >>"$records"
		say "  $(tail -n 1 "$records" | python3 "$srcdir/scripts/testbed-report.py" brief)"
	done
done

python3 "$srcdir/scripts/testbed-report.py" table "$records" | tee "$out/table.txt"
say "records in $records, table in $out/table.txt"
if [ "$gate" -eq 1 ]; then
	python3 "$srcdir/scripts/testbed-report.py" gate "$records"
fi
