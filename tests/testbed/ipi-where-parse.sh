#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-ipi-where.py on a made-up measurement-kernel log: the
# "tbipi key=K n=N" tables are summed over every dump, each kernel address
# is named by the nearest text symbol at or below it (data symbols and
# addresses past a symbol's start count), the special keys by what they
# stand for, and the shares add up to the total; a log with no table is
# an error, not an empty report.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
parse="python3 ${top_srcdir:-.}/scripts/testbed-ipi-where.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

cat >"$tmp/System.map" <<'MAP'
ffffffff81000000 T _stext
ffffffff81100000 t mutex_spin_on_owner
ffffffff81100400 D some_data
ffffffff81100800 T clear_page_rep
ffffffff81100900 t osq_lock
MAP
cat >"$tmp/log" <<'LOG'
[ 1.0] tbipi DUMP kt=100 total=8192 lost=0
[ 1.0] tbipi key=ffffffff81100010 n=6000
[ 1.0] tbipi key=ffffffff81100420 n=1000
[ 1.0] tbipi key=2 n=1192
[ 2.0] tbipi DUMP kt=200 total=16384 lost=0
[ 2.0] tbipi key=ffffffff81100088 n=7000
[ 2.0] tbipi key=ffffffff81100810 n=1000
[ 2.0] tbipi key=3 n=192
LOG
out=$($parse "$tmp/log" "$tmp/System.map" 2>&1)
expect '^16384 flushes received' "the total is every table's sum"
expect '^ *14000  *85\.4%  mutex_spin_on_owner$' \
	"addresses in one function summed over both dumps, one past a data symbol included"
expect '^ *1000  *6\.1%  clear_page_rep$' "the next function apart"
expect '^ *1192 .*(user mode)$' "key 2 is user mode"
expect '^ *192 .*(lazy: mm still loaded)$' "key 3 is a lazy CPU"
out=$($parse "$tmp/log" "$tmp/System.map" --top 1 2>&1)
[ "$(echo "$out" | wc -l)" -eq 2 ] && ok "--top 1 prints one row" || bad "--top 1: $out"

printf '[ 1.0] tbvma ENTER kt=1\n' >"$tmp/empty"
$parse "$tmp/empty" "$tmp/System.map" >"$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "no tbipi lines" "$tmp/out" && ok "a log without tables fails with a message" ||
	bad "no tables: rc=$rc $(cat "$tmp/out")"
$parse "$tmp/log" "$tmp/missing.map" >"$tmp/out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && ok "a missing System.map: one line, non-zero" ||
	bad "missing map: rc=$rc $(cat "$tmp/out")"
exit $((fails > 0))
