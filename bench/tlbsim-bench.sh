#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tlbsim speed and memory:
# - the event-queue floor: tlbsim's own heap alone (bench/heap_floor) at
#   the queue length of the full-scale run, with and without one random
#   draw per event; no run can beat it, and each rate below is printed as
#   a fraction of it;
# - simulated events per second on one core, for a cache-resident and a
#   large (24 GiB, 77-thread) configuration, NUMA balancing off so the
#   figure is the run alone (no baseline twin; --no-blind, so its TLBs
#   are modelled as a policy run's are), and the full-scale policy
#   run (the pair's time, and the policy run's own: the pair's less the
#   twin's, or the pair's when the twin ran alongside);
# - resident bytes per simulated 4 KiB page: the growth of peak RSS from an
#   8 GiB to a 32 GiB working set on the same machine, divided by the pages
#   added, so the per-CPU TLB models and fixed costs cancel out.
# Usage: tlbsim-bench.sh [path/to/tlbsim [path/to/heap_floor]]
set -eu
tlbsim=${1:-tools/tlbsim/tlbsim}
floor_bin=${2:-bench/heap_floor}
[ -x "$tlbsim" ] || { echo "tlbsim-bench: no tlbsim at $tlbsim" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "tlbsim-bench: needs GNU time (Debian: time)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

metric() { awk -v m="$1" '$1 == m { print $2 }' "$2"; }

floor=0
if [ -x "$floor_bin" ]; then
	# One pending access per thread of the full-scale default (384), and
	# its arrays: 120 GiB of pages at 8 bytes each (240 MiB), 384 TLBs of
	# 512 entries at 16 bytes (3 MiB).
	"$floor_bin" 384 40000000 240 3 >"$tmp/floor"
	floor=$(metric heap_floor_events_per_s "$tmp/floor")
	floor_rng=$(metric heap_floor_rng_events_per_s "$tmp/floor")
	floor_mem=$(metric heap_floor_mem_events_per_s "$tmp/floor")
	echo "== event-queue floor (tlbsim's heap alone, 384 events queued)"
	awk -v a="$floor" -v b="$floor_rng" -v c="$floor_mem" 'BEGIN {
		printf "pop + push:                                 %.2f M events/s\n", a / 1e6
		printf "pop + push + one exponential draw:          %.2f M events/s\n", b / 1e6
		printf "... + a page word and a TLB set at full scale: %.2f M events/s (%.0f%% of the floor)\n",
			c / 1e6, 100 * c / a }'
fi

rate() {
	/usr/bin/time -f "%M" -o "$tmp/rss" "$tlbsim" run numa-balancing "$@" >"$tmp/out"
	ev=$(metric sim_events "$tmp/out"); wall=$(metric wall_seconds "$tmp/out")
	rss=$(cat "$tmp/rss")
	awk -v e="$ev" -v w="$wall" -v f="$floor" 'BEGIN {
		printf "%.0f events in %.2f s: %.2f M events/s", e, w, e / w / 1e6
		if (f > 0) printf " (%.0f%% of the floor)", 100 * e / w / f
		printf "\n" }'
}

echo "== events per second (one core)"
printf "small (4 CPUs, 1.2 GiB, cache-resident):   "
rate --policy off --no-blind --set scale=0.01 --set access_rate_hz=2000000
printf "large (77 CPUs, 24 GiB):                   "
rate --policy off --no-blind --set scale=0.2 --set access_rate_hz=20000
# The policy run's own rate. When the twin ran after it (a busy host: the
# pair's peak RSS is one model's), the pair's time less the twin's. When
# it ran alongside (two models' RSS), the pair took as long as the longer
# of the two, the policy run: its time is at most the pair's, and the rate
# printed is a lower bound.
printf "full-scale policy run with its twin (always): "
rate --policy always
pair_ev=$ev; pair_wall=$wall; pair_rss=$rss
printf "full-scale twin alone (off, blind TLBs):      "
rate --policy off
awk -v e="$pair_ev" -v p="$pair_wall" -v o="$wall" -v f="$floor" -v fm="${floor_mem:-0}" \
    -v pr="$pair_rss" -v or="$rss" 'BEGIN {
	if (pr > 1.5 * or) {
		t = p; how = "alongside: at most the pair time"
	} else {
		t = p - o; how = "pair - twin"
	}
	if (t <= 0) exit
	printf "full-scale policy run alone (%s): %.0f events in %.2f s: %.2f M events/s", how, e, t, e / t / 1e6
	if (f > 0) printf " (%.0f%% of the floor; goal 60%%)", 100 * e / t / f
	if (fm > 0) printf "; %.0f%% of the page-and-set floor", 100 * e / t / fm
	printf "\n" }'

echo "== resident bytes per simulated 4 KiB page"
for gib in 8 32; do
	/usr/bin/time -f "%M" -o "$tmp/rss$gib" "$tlbsim" run numa-balancing --policy off \
		--set working_set_gib=$gib --set duration_s=0.01 >/dev/null
done
awk -v a="$(cat "$tmp/rss8")" -v b="$(cat "$tmp/rss32")" 'BEGIN {
	pages = (32 - 8) * 262144
	printf "peak RSS %.0f MiB at 8 GiB, %.0f MiB at 32 GiB: %.2f bytes/page (goal: at most 16)\n",
		a / 1024, b / 1024, (b - a) * 1024 / pages }'
/usr/bin/time -f "%M" -o "$tmp/rssfull" "$tlbsim" run numa-balancing --policy off \
	--set duration_s=0.01 >/dev/null
awk -v a="$(cat "$tmp/rssfull")" 'BEGIN {
	printf "full default (384 CPUs, 120 GiB): peak RSS %.0f MiB\n", a / 1024 }'
