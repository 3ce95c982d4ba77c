#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# How tlbsim's cost grows: `run numa-balancing --policy always` (with its
# twin) over CPUs (8..4096, one thread each, at CPU_GIB, default 16 GiB so
# that setup does not hide the run) for CPU_DURATION_S of virtual time
# (default 30 s), and over memory (1..1024 GiB, at 384 CPUs) for
# GIB_DURATION_S (default 10 s: 9 s of NUMA balancing after the scan
# delay; at this length the memory's setup shows). Prints host CPU time,
# wall time, events and peak RSS per row, and each row's growth over the
# previous one next to the growth of what it varies: linear cost in CPUs
# grows like the CPUs. The CPU time is the figure to read on a loaded
# machine (it counts both runs of the pair). The pair runs on one core
# (taskset, where there is one): a twin alongside on a second core costs
# more CPU time than one after its run (the two share caches and memory
# bandwidth), and whether it runs alongside depends on the host's load
# at that moment, so rows would not compare. Each row is the run of
# least CPU time of REPEAT (default 2): on a shared host one run's CPU
# time varies by up to 1.5x from one minute to the next.
# Usage: tlbsim-growth.sh [path/to/tlbsim]
#        (env CPUS, GIBS: the values; CPU_GIB, CPU_DURATION_S, GIB_DURATION_S,
#        REPEAT)
set -eu
tlbsim=${1:-tools/tlbsim/tlbsim}
cpu_gib=${CPU_GIB:-16}
cpu_duration=${CPU_DURATION_S:-30}
gib_duration=${GIB_DURATION_S:-10}
cpus_list=${CPUS:-8 16 32 64 128 256 384 512 1024 2048 4096}
gibs_list=${GIBS:-1 4 16 64 120 256 1024}
repeat=${REPEAT:-2}
one_core=
command -v taskset >/dev/null && one_core="taskset -c 0"
[ -x "$tlbsim" ] || { echo "tlbsim-growth: no tlbsim at $tlbsim" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "tlbsim-growth: needs GNU time (Debian: time)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# row VALUE ARGS...: the least CPU time of $repeat runs; prints a table
# row with its growth over the previous row ($prev_x, $prev_cpu).
row() {
	x=$1; shift
	i=0
	while [ "$i" -lt "$repeat" ]; do
		/usr/bin/time -f "%e %U %S %M" -o "$tmp/try" $one_core "$tlbsim" run numa-balancing \
			--policy always "$@" >"$tmp/out" 2>/dev/null
		if [ "$i" = 0 ] || awk -v best="$(awk '{ print $2 + $3 }' "$tmp/t")" \
			'{ exit !($2 + $3 < best) }' "$tmp/try"; then
			cp "$tmp/try" "$tmp/t"
		fi
		i=$((i + 1))
	done
	ev=$(awk '$1 == "sim_events" { print $2 }' "$tmp/out")
	awk -v x="$x" -v px="$prev_x" -v pc="$prev_cpu" -v ev="$ev" '{
		cpu = $2 + $3
		printf "| %6s | %8.2f | %7.2f | %10.0f | %7.0f | %6.0f |", x, cpu, $1, ev, $4 / 1024,
			cpu * 1e9 / ev
		if (px != "") printf " %5.2fx | %5.2fx |\n", x / px, cpu / pc
		else printf "       |       |\n"
		print cpu > "'"$tmp"'/cpu" }' "$tmp/t"
	prev_x=$x; prev_cpu=$(cat "$tmp/cpu")
}

header() {
	echo
	echo "| $1 | CPU s | wall s | events | RSS MiB | ns/event | $1 x | CPU s x |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
}

echo "tlbsim growth: run numa-balancing --policy always (+ twin)"
echo
echo "in CPUs: working_set_gib=$cpu_gib, duration_s=$cpu_duration"
header cpus
prev_x=; prev_cpu=
for c in $cpus_list; do
	row "$c" --set cpus="$c" --set working_set_gib="$cpu_gib" --set duration_s="$cpu_duration"
done
echo
echo "in memory: cpus=384, duration_s=$gib_duration"
header GiB
prev_x=; prev_cpu=
for g in $gibs_list; do
	row "$g" --set working_set_gib="$g" --set duration_s="$gib_duration"
done
