#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-vma-walk.py on made-up measurement-kernel logs: the
# region is the largest run of unnamed rw-p VMAs of one size, consecutive
# in the maps list (one VMA, or thp-split's 1 MiB VMAs; here three of
# 4 MiB), not the larger thread stack; a call's scanned VMAs print as runs,
# a VMA the maps do not list as "?", and the summary counts the calls and
# markings that reached the region. In mode=shared the child's calls are
# marked and summed apart, and each process's main stack reports the pages
# its workers faulted on after its markings, the main thread's apart.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
parse="python3 ${top_srcdir:-.}/scripts/testbed-vma-walk.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

line() { # tag kt pid vma-start [ms, default kt]
	printf '[ 1.0] tbvma %s kt=%s ms=%s pid=%s seq=0 vma=%s-0\n' "$1" "$2" "${5:-$2}" "$3" "$4"
}
maps() { # the region's VMAs, as "start-end" hex pairs
	echo '@@maps-begin'
	echo '1000-2000 rw-p 00000000 00:00 0          /bin/numa_regions'
	echo '2000-3000 ---p 00000000 00:00 0 '
	echo '3000-803000 rw-p 00000000 00:00 0 '
	for r in "$@"; do echo "$r rw-p 00000000 00:00 0 "; done
	echo '90000000-90001000 rw-s 00000000 00:01 7          /dev/zero (deleted)'
	echo '@@maps-end'
}
{
	maps 10000000-10400000 10800000-10c00000 11000000-11400000
	line ENTER 100 7 0
	line SCAN 101 7 3000
	line SCAN 102 7 10000000
	line SCAN 103 7 10800000
	line SCAN 104 7 11000000
	line FORCED 105 7 90000000
	line EXIT 140 7 0
	line ENTER 200 8 0
	line PID_INACTIVE 201 8 10000000
	line SCAN 202 8 a0000000
	line FORCED 203 8 10800000
	line EXIT 210 8 0
} >"$tmp/split.log"
out=$($parse "$tmp/split.log") || bad "the parser exited non-zero"
expect '^vma 3-5 rw-p 3 x 4096 KiB  <- the region$' \
	"4 MiB VMAs in a row are the region, the 8 MiB stack is not"
expect '^      0 ms  pid 7  seq 0  skipped  0  took    40 ms  drains    0  scanned 2-5,F6$' \
	"a call's scanned VMAs print as a run, the forced one apart"
expect 'skipped  1  took    10 ms  drains    0  scanned ?,F4$' \
	"a skip counts, an unlisted VMA is ?, a forced region VMA prints alone"
expect 'calls that marked the region 2 (4 markings of its 3 VMAs)' \
	"calls and markings that reached the region"
{
	maps 10000000-50000000
	line ENTER 100 7 0
	line SCAN 101 7 3000
	line EXIT 110 7 0
} >"$tmp/private.log"
out=$($parse "$tmp/private.log") || bad "the parser exited non-zero"
expect '^vma  3 rw-p  1048576 KiB   <- the region$' "one large VMA is the region"
expect 'calls that marked the region 0 (0 markings of its 1 VMAs)' \
	"a call that marked only the stack did not mark the region"
# A draining call: its drains and the migrations during it, by fifths of
# its 100 ms; a migration outside every call is not counted there.
mig() { # kt pending
	printf '[ 1.0] tbvma MIGRATE kt=%s pid=9 addr=1000 to=1 pending=%s\n' "$1" "$2"
}
{
	maps 10000000-50000000
	line ENTER 100 7 0
	line SCAN 101 7 10000000
	line DRAIN 105 7 0
	mig 106 1
	line DRAIN 125 7 0
	mig 130 1
	mig 150 0
	line DRAIN 199 7 0
	line EXIT 200 7 0
	mig 300 0
} >"$tmp/storm.log"
out=$($parse "$tmp/storm.log") || bad "the parser exited non-zero"
expect '^          by fifths: drains 1,1,0,0,1; migrations 1,1,1,0,0 (3), 1,1,0,0,0 while pending (2)$' \
	"a draining call's drains and migrations by fifths of its time"
expect "^migrations 4 (2 while a scan was pending)" "every migration in the summary"
fault() { # kt pid vma-start addr
	printf '[ 1.0] tbvma FAULTBIT ms=%s pid=%s vma=%s-0 addr=%s\n' "$1" "$2" "$3" "$4"
}
{
	echo '@@maps-begin pid=7'
	echo '1000-2000 rw-p 00000000 00:00 0          /bin/numa_regions'
	echo '90000000-90001000 rw-s 00000000 00:01 7          /dev/zero (deleted)'
	echo '90001000-91001000 rw-s 00000000 00:01 8          /dev/zero (deleted)'
	echo 'a0000000-a0010000 rw-p 00000000 00:00 0          [stack]'
	echo '@@task 7 numa_regions'
	echo '@@task 8 numa_regions'
	echo '@@task 9 numa_regions'
	echo '@@maps-end'
	line ENTER 100 8 0
	line SCAN 101 8 90001000
	line SCAN 102 8 a0000000
	line EXIT 103 8 0
	fault 104 9 a0000000 a000f000   # top page
	fault 105 8 a0000000 a000e000   # the next one down
	fault 106 7 a0000000 a000d000   # the main thread's own
	line ENTER 200 20 0             # the child
	line SCAN 201 20 a0000000
	line EXIT 202 20 0
	fault 203 21 a0000000 a000f000
	line ENTER 300 9 0
	line SCAN 301 9 a0000000
	line EXIT 302 9 0
} >"$tmp/shared.log"
out=$($parse "$tmp/shared.log") || bad "the parser exited non-zero"
expect '^vma  2 rw-s    16384 KiB /dev/zero (deleted)  <- the region$' \
	"mode=shared's region is the large MAP_SHARED VMA"
expect 'pid 20 (child)  seq 0' "the child's call is marked"
expect '^calls 2, .*calls that marked the region 1 ' "the parent's calls, summed apart"
expect '^child: calls 1, ' "the child's calls, summed apart"
expect "^main stack: 2 markings, new bits a marking 2,0; pages faulted on (pages below the top: the tasks): 0: 9; 1: 8; the main thread's own faults 1$" \
	"the parent's stack: a page each for two workers, the main thread's fault apart"
expect "^child's main stack: 1 markings, new bits a marking 1; pages faulted on (pages below the top: the tasks): 0: 21; " \
	"the child's stack"
# Each task's scan period as its ticks saw it change, in s of ktime from
# the first call: jiffies (a u32 of ms that wraps) at the run's mean rate.
tick() { # ms pid period
	printf '[ 1.0] tbvma TICK ms=%s pid=%s runtime=1 stamp=1 period=%s due=0\n' "$1" "$2" "$3"
}
{
	maps 10000000-50000000
	line ENTER 1000 7 0 4294967196
	line EXIT 1010 7 0 4294967196
	tick 4294967196 7 1000
	tick 404 7 1000
	tick 904 7 500
	tick 904 8 1000
	line ENTER 3000 8 0 904
	line EXIT 3010 8 0 904
} >"$tmp/ticks.log"
out=$($parse "$tmp/ticks.log") || bad "the parser exited non-zero"
expect '^scan period pid 7: 1000@0.0 500@2.0$' \
	"a period printed when it changes, at its ktime across the jiffies' wrap"
expect '^scan period pid 8: 1000@2.0$' "each task on its own line"
[ "$fails" -eq 0 ]
