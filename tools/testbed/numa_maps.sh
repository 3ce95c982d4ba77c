#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Guest side of scripts/testbed-vma-walk.sh: runs numa_regions with the
# given arguments and, once its threads are up, lists its VMAs
# (/proc/PID/maps) and threads between "@@maps-begin" and "@@maps-end", so
# that the scanner's log can be read by VMA and by task.
/bin/numa_regions "$@" &
pid=$!
sleep 3
echo "@@maps-begin pid=$pid"
cat /proc/$pid/maps
for t in /proc/$pid/task/*; do echo "@@task $(basename "$t") $(cat "$t/comm")"; done
echo "@@maps-end"
wait $pid
