#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-split-maps.py on made-up split_maps.sh reads: a VMA of
# the rounds' regions is a private rw one whose size is a multiple of
# the region (two merged: +2), a stack (8 MiB) or a region split around a
# page by mprotect() is not one, and the summary counts the reads with
# two or more regions in one VMA; a log without reads is an error.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
parse="python3 ${top_srcdir:-.}/scripts/testbed-split-maps.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

cat >"$tmp/log" <<'LOG'
@@policy migrate=always
@@maps-begin 0
7f0000000000-7f0000a00000 rw-p 00000000 00:00 0 
7f0001000000-7f0001a00000 rw-p 00000000 00:00 0 
7f0002000000-7f0002800000 rw-p 00000000 00:00 0 
@@maps-end
@@maps-begin 1
7f0000000000-7f0001400000 rw-p 00000000 00:00 0 
7f0002000000-7f0002500000 rw-p 00000000 00:00 0 
7f0002500000-7f0002501000 r--p 00000000 00:00 0 
7f0002501000-7f0002a00000 rw-p 00000000 00:00 0 
@@maps-end
@@maps-begin 2
@@maps-end
@@result splits=4
LOG
out=$($parse "$tmp/log" 2>&1)
expect '^read 0: 7f0000000000+1 7f0001000000+1$' "two regions apart, the 8 MiB stack left out"
expect '^read 1: 7f0000000000+2$' "two regions in one VMA; a region split around a page left out"
expect '^read 2: -$' "a read with no region"
expect '^1 of 3 reads found two or more regions in one VMA$' "the summary"
out=$($parse "$tmp/log" --region-mib 8 2>&1)
expect '^read 0: 7f0002000000+1$' "--region-mib 8 counts the 8 MiB VMA instead"

printf '@@result splits=4\n' >"$tmp/empty"
$parse "$tmp/empty" >"$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "no @@maps blocks" "$tmp/out" && ok "a log without reads fails with a message" ||
	bad "no reads: rc=$rc $(cat "$tmp/out")"
$parse "$tmp/log" --region-mib 0 >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && ok "--region-mib 0: one line, exit 2" ||
	bad "region 0: rc=$rc $(cat "$tmp/out")"
exit $((fails > 0))
