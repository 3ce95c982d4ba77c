#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tlbsim speed and memory:
# - simulated events per second on one core, for a cache-resident and a
#   large (24 GiB, 77-thread) configuration, NUMA balancing off so the
#   figure is the run alone (no baseline twin);
# - resident bytes per simulated 4 KiB page: the growth of peak RSS from an
#   8 GiB to a 32 GiB working set on the same machine, divided by the pages
#   added, so the per-CPU TLB models and fixed costs cancel out.
# Usage: tlbsim-bench.sh [path/to/tlbsim]
set -eu
tlbsim=${1:-tools/tlbsim/tlbsim}
[ -x "$tlbsim" ] || { echo "tlbsim-bench: no tlbsim at $tlbsim" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "tlbsim-bench: needs GNU time (Debian: time)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

metric() { awk -v m="$1" '$1 == m { print $2 }' "$2"; }

rate() {
	"$tlbsim" run numa-balancing --policy off "$@" >"$tmp/out"
	ev=$(metric sim_events "$tmp/out"); wall=$(metric wall_seconds "$tmp/out")
	awk -v e="$ev" -v w="$wall" 'BEGIN { printf "%.0f events in %.2f s: %.2f M events/s\n", e, w, e / w / 1e6 }'
}

echo "== events per second (one core)"
printf "small (4 CPUs, 1.2 GiB, cache-resident):   "
rate --set scale=0.01 --set access_rate_hz=2000000
printf "large (77 CPUs, 24 GiB):                   "
rate --set scale=0.2 --set access_rate_hz=20000

echo "== resident bytes per simulated 4 KiB page"
for gib in 8 32; do
	/usr/bin/time -f "%M" -o "$tmp/rss$gib" "$tlbsim" run numa-balancing --policy off \
		--set working_set_gib=$gib --set duration_s=0.01 >/dev/null
done
awk -v a="$(cat "$tmp/rss8")" -v b="$(cat "$tmp/rss32")" 'BEGIN {
	pages = (32 - 8) * 262144
	printf "peak RSS %.0f MiB at 8 GiB, %.0f MiB at 32 GiB: %.2f bytes/page\n",
		a / 1024, b / 1024, (b - a) * 1024 / pages }'
/usr/bin/time -f "%M" -o "$tmp/rssfull" "$tlbsim" run numa-balancing --policy off \
	--set duration_s=0.01 >/dev/null
awk -v a="$(cat "$tmp/rssfull")" 'BEGIN {
	printf "full default (384 CPUs, 120 GiB): peak RSS %.0f MiB\n", a / 1024 }'
