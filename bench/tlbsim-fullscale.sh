#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tlbsim at the full numa-balancing default (384 CPUs, 120 GiB, 180 s of
# virtual time), and on big iron (4096 CPUs, 1024 GiB): wall time, CPU
# time and peak memory of
# - one policy (`run --policy always`, which also runs its balancing-off
#   twin for the throughput loss; the twin alone is printed too);
# - `compare numa-balancing` (four policies plus balancing off, one pair);
# - big iron, `run --policy always` at 4096 CPUs and 1024 GiB.
# Goals (issue 15), on a 2-core machine: the run at most 5 s, the
# comparison at most 15 s, big iron under 2 minutes and 6 GiB.
# With a second tlbsim (a baseline build, bench/build-baseline.sh), each
# command runs on both, one after the other, and the ratio is printed.
# Wall time on a loaded machine says little: compare side by side.
# Usage: tlbsim-fullscale.sh [path/to/tlbsim [path/to/baseline/tlbsim]]
set -eu
tlbsim=${1:-tools/tlbsim/tlbsim}
base=${2:-}
[ -x "$tlbsim" ] || { echo "tlbsim-fullscale: no tlbsim at $tlbsim" >&2; exit 1; }
[ -z "$base" ] || [ -x "$base" ] || { echo "tlbsim-fullscale: no baseline tlbsim at $base" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "tlbsim-fullscale: needs GNU time (Debian: time)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Runs one command; leaves "wall cpu rss_kib" in $tmp/$2.
timed() {
	bin=$1; out=$2; shift 2
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$bin" "$@" --csv "$tmp/out.csv" >/dev/null
	awk '{ print $1, $2 + $3, $4 }' "$tmp/t" >"$tmp/$out"
}

measure() {
	label=$1; goal=$2; shift 2
	timed "$tlbsim" new "$@"
	read -r wall cpu rss <"$tmp/new"
	awk -v l="$label" -v w="$wall" -v c="$cpu" -v r="$rss" -v g="$goal" 'BEGIN {
		printf "%-44s %6.1f s wall (goal %s s), %6.1f s CPU, peak RSS %5.0f MiB\n",
			l, w, g, c, r / 1024 }'
	[ -n "$base" ] || return 0
	timed "$base" old "$@"
	read -r bwall bcpu brss <"$tmp/old"
	awk -v w="$wall" -v c="$cpu" -v bw="$bwall" -v bc="$bcpu" -v br="$brss" 'BEGIN {
		printf "%-44s %6.1f s wall, %6.1f s CPU, peak RSS %5.0f MiB: %.2fx wall, %.2fx CPU\n",
			"  baseline", bw, bc, br / 1024, bw / w, bc / c }'
}

measure "run numa-balancing --policy always (+ twin)" 5 run numa-balancing --policy always
# The twin alone, so the single run's own time can be told apart.
measure "run numa-balancing --policy off" - run numa-balancing --policy off
measure "compare numa-balancing (4 policies + off)" 15 compare numa-balancing
# Big iron on this build only: a baseline may take far longer.
base=
[ "${TLBSIM_BENCH_BIG:-1}" = 0 ] ||
	measure "big iron: 4096 CPUs, 1024 GiB, always" 120 run numa-balancing --policy always \
		--set cpus=4096 --set working_set_gib=1024
