#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Guest side of scripts/testbed-ipi-where.sh: runs thp_split with the
# given arguments and, from 4 s on (past the first rounds), reads its
# anonymous VMAs (/proc/PID/maps, file mappings left out) twelve times
# 0.3 s apart, each between "@@maps-begin N" and "@@maps-end", so that
# scripts/testbed-split-maps.py can tell which rounds' regions share a
# VMA.
/bin/thp_split "$@" &
pid=$!
sleep 4
i=0
while [ $i -lt 12 ]; do
	echo "@@maps-begin $i"
	grep -v " /" /proc/$pid/maps
	echo "@@maps-end"
	i=$((i + 1))
	sleep 0.3
done
wait $pid
