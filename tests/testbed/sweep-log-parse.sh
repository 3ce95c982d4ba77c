#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-sweep-log.py on made-up numa_regions logs: a bin held
# the worker's slice when its fastest sweep is within 4 times the
# worker's fastest of the run; bins with no sweep ended are not counted;
# a log without the lines is named, a malformed line refused.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
parse="python3 ${top_srcdir:-.}/scripts/testbed-sweep-log.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

# Worker 0: walks for two bins, holds for two, one bin with no sweep
# ended (a stall, 0), then holds. Worker 1, in the first logs' form
# (count:us): holds at 4 x its fastest, not at 5 x.
{ echo "@@params mode=mthp64"
  echo "@@sweep_log worker=1 start_ms=5000 bin_ms=100 bins=3:50,3:200,3:250,3:50"
  echo "@@sweep_log worker=0 start_ms=4000 bin_ms=100 bins=1404,1300,60,61,0,59"
  echo "@@result passes=1"; } >"$tmp/run.log"
echo "@@result passes=1" >"$tmp/old.log"

out=$($parse --step 0.2 "$tmp/run.log" "$tmp/old.log") || bad "exited non-zero: $out"
expect '^run.log: worker 0 from 4000 ms, fastest sweep 59 us; held per 0.2 s: 0/2 2/2 1/1$' \
	"walking bins, held bins and a bin with no sweep ended, per step"
expect '^run.log: worker 1 from 5000 ms, fastest sweep 50 us; held per 0.2 s: 2/2 1/2$' \
	"4 times the fastest holds, 5 times does not"
expect '^run.log: held in the first 0.2 s 2 of 4 bins (50%), over the run 6 of 9 bins (67%)$' \
	"the log's shares, workers together"
expect '^old.log: no @@sweep_log lines' "a log without the lines named"

echo "@@sweep_log worker=0 start_ms=1 bin_ms=100 bins=2,x" >"$tmp/bad.log"
out=$($parse "$tmp/bad.log" 2>&1) && bad "a malformed line accepted: $out"
expect 'bad.log: a malformed @@sweep_log line' "a malformed line refused, naming the log"
echo "@@sweep_log worker=0 start_ms=1 bin_ms=0 bins=60" >"$tmp/zero.log"
out=$($parse "$tmp/zero.log" 2>&1) && bad "a zero bin length accepted: $out"
expect 'zero.log: a malformed @@sweep_log line (bin_ms=0)' "a zero bin length refused"
out=$($parse "$tmp/old.log" 2>&1) && bad "a run with no lines at all passed: $out"
out=$($parse --step -1 "$tmp/run.log" 2>&1) && bad "a negative step accepted: $out"
expect 'wants seconds above 0' "a bad step refused"
out=$($parse 2>&1) && bad "no logs accepted"
expect '^Usage: testbed-sweep-log.py' "no logs: the usage"
[ "$fails" -eq 0 ]
