#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-selftests-report.py on made-up console logs: what passes
# the check and what fails it (a failed test, a data mismatch, too few
# migrations, a kernel warning, a boot that never finished), without qemu.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
report="python3 ${top_srcdir:-.}/scripts/testbed-selftests-report.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

# A console log: boot, two tests, the integrity storm, done. $1 adds lines
# before the end, $2 is migration's exit code, $3 the mismatch count.
log() {
	cat <<LOG
[    0.000000] Linux version 6.12
@@boot uptime=1.2 nodes=2 cpus=8
@@selftest-begin name=migration
TAP version 13
1..2
ok 1 migration.private_anon
not ok 2 migration.shared_anon
# Totals: pass:1 fail:$([ "$2" -eq 0 ] && echo 0 || echo 1) xfail:0 xpass:0 skip:0 error:0
@@selftest name=migration rc=$2 seconds=41
@@selftest-begin name=hugepage-vmemmap
Unable to determine huge page size
@@selftest name=hugepage-vmemmap rc=4 seconds=0
@@selftest-begin name=integrity
@@integrity-start pages=36864
$(if [ "$3" -gt 0 ]; then echo "@@integrity-mismatch kind=lost-write region=thp page=7 vaddr=0x7f0000007000 word=0 want=0x4 found=0x2 seq=2 pid=90 policy=migrate=always"; fi)
@@integrity-summary seconds=61.0 pages=36864 verified=900000 written=500000 mismatches=$3 pgmigrate_success=$4 numa_pages_migrated=4000 moved=120000 splits_requested=200 thp_split_page=180 child_ok=1
@@selftest name=integrity rc=$([ "$3" -gt 0 ] && echo 1 || echo 0) seconds=61
$1
@@selftests-done
LOG
}

record() { # name, log text, extra args
	printf '%s\n' "$2" >"$tmp/$1.log"
	n=$1
	shift 2
	$report record --log "$tmp/$n.log" --settings migrate:always --migrate always \
		--hint deferred --split batched --tests migration,hugepage-vmemmap \
		--min-migrations 100000 "$@" >"$tmp/$n.jsonl"
}

record good "$(log "" 0 0 150000)"
if $report check "$tmp/good.jsonl" >/dev/null 2>&1; then ok "a clean boot passes"; else bad "a clean boot fails the check"; fi
grep -q '"reason": "Unable to determine huge page size"' "$tmp/good.jsonl" &&
	ok "a skip keeps its reason" || bad "the skip's reason is lost"
$report table "$tmp/good.jsonl" >"$tmp/table.md"
grep -q "| migration | pass 1/1 |" "$tmp/table.md" &&
	ok "the table shows a pass with its TAP count" || bad "table: $($report table "$tmp/good.jsonl" | head -3)"

# Cases left out by request (testbed-selftests.sh --exclude, as --ci does)
# are in the record and under the table, and are no failure.
record excluded "$(log "" 0 0 150000)" --exclude migration.private_anon_htlb,migration.shared_anon_htlb
grep -q '"excluded_cases": \["migration.private_anon_htlb", "migration.shared_anon_htlb"\]' "$tmp/excluded.jsonl" &&
	ok "the record lists the cases left out" || bad "excluded cases not recorded: $(cat "$tmp/excluded.jsonl")"
$report table "$tmp/excluded.jsonl" | grep -q "^Left out by request (--exclude): migration.private_anon_htlb, migration.shared_anon_htlb.$" &&
	ok "the table says which cases were left out" || bad "table: $($report table "$tmp/excluded.jsonl" | tail -2)"
$report check "$tmp/excluded.jsonl" >/dev/null 2>&1 &&
	ok "a boot with cases left out passes" || bad "a boot with cases left out fails the check"
grep -q excluded_cases "$tmp/good.jsonl" && bad "a record without --exclude lists excluded cases" ||
	ok "a record without --exclude lists none"

expect_fail() { # name, log text, message the check must print
	record "$1" "$2"
	if $report check "$tmp/$1.jsonl" 2>"$tmp/$1.err" >/dev/null; then
		bad "$1 passes the check"
	elif grep -q "$3" "$tmp/$1.err"; then
		ok "$1 fails the check: $(head -n 1 "$tmp/$1.err")"
	else
		bad "$1: expected '$3', got: $(cat "$tmp/$1.err")"
	fi
}
expect_fail failed-test "$(log "" 1 0 150000)" "migration: fail (rc 1, failed: migration.shared_anon)"
expect_fail mismatch "$(log "" 0 3 150000)" "integrity: 3 mismatches, first: kind=lost-write region=thp page=7"
expect_fail few-migrations "$(log "" 0 0 900)" "integrity: 900 migrations, fewer than 100000"
expect_fail warning "$(log "[   12.5] WARNING: CPU: 3 PID: 77 at mm/rmap.c:1234 try_to_unmap_one" 0 0 150000)" \
	"boot: kernel-warning: \[   12.5\] WARNING: CPU: 3"
expect_fail unfinished "$(log "" 0 0 150000 | sed '/@@selftests-done/d')" "boot: incomplete"
expect_fail missing-test "$(log "" 0 0 150000 | sed '/name=hugepage-vmemmap/d')" "hugepage-vmemmap: did not run"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
