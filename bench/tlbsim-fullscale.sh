#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tlbsim at the full numa-balancing default (384 CPUs, 120 GiB, 180 s of
# virtual time): wall time and peak memory of
# - one policy (`run --policy always`, which also runs its balancing-off
#   twin for the throughput loss; the run alone is printed too);
# - `compare numa-balancing` (four policies plus balancing off, one pair).
# Goals (issue 5): one policy at most 20 s, the comparison at most 2 min,
# on a 2-core machine.
# Usage: tlbsim-fullscale.sh [path/to/tlbsim]
set -eu
tlbsim=${1:-tools/tlbsim/tlbsim}
[ -x "$tlbsim" ] || { echo "tlbsim-fullscale: no tlbsim at $tlbsim" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "tlbsim-fullscale: needs GNU time (Debian: time)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

measure() {
	label=$1; shift
	/usr/bin/time -f "%e %M" -o "$tmp/t" "$tlbsim" "$@" --csv "$tmp/out.csv" >/dev/null
	read -r wall rss <"$tmp/t"
	awk -v l="$label" -v w="$wall" -v r="$rss" 'BEGIN { printf "%-44s %6.1f s wall, peak RSS %4.0f MiB\n", l, w, r / 1024 }'
}

measure "run numa-balancing --policy always (+ twin)" run numa-balancing --policy always
# The twin alone, so the single run's own time can be told apart.
measure "run numa-balancing --policy off" run numa-balancing --policy off
measure "compare numa-balancing (4 policies + off)" compare numa-balancing
