#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Instructions per operation of each bench_batch case, from callgrind: the
# difference between a run of N2 and one of N1 operations, divided by
# N2 - N1, so start-up and set-up cancel out. Stable on a noisy machine.
# Usage: callgrind.sh path/to/bench_tlbpolicy [CASE-REGEX]
set -eu
bench=${1:?usage: callgrind.sh path/to/bench_tlbpolicy [CASE-REGEX]}
only=${2:-.}
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind not installed" >&2; exit 1; }
dir=$(dirname "$bench"); base=$(basename "$bench")
# Run the real binary, not libtool's wrapper script.
if [ -x "$dir/.libs/$base" ]; then
	real="$dir/.libs/$base"
	LD_LIBRARY_PATH="$(cd "$dir/../lib/.libs" 2>/dev/null && pwd):${LD_LIBRARY_PATH:-}"
	export LD_LIBRARY_PATH
else
	real=$bench
fi
n1=1000; n2=11000
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
irs() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$real" \
		--ops "$3" --case "$1" --cpus "$2" >/dev/null 2>"$tmp/log"
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/log"
}
printf '%-20s %5s %12s\n' case cpus instr/op
"$real" --list | grep -E "^($only)" >"$tmp/cases" || true
while read -r c cpus_list; do
	for cpus in $(echo "$cpus_list" | tr ',' ' '); do
		a=$(irs "$c" "$cpus" $n1); b=$(irs "$c" "$cpus" $n2)
		awk -v a="$a" -v b="$b" -v n=$((n2 - n1)) -v c="$c" -v cpus="$cpus" \
			'BEGIN { printf "%-20s %5s %12.1f\n", c, cpus, (b - a) / n }'
	done
done <"$tmp/cases"
