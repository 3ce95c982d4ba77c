#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Judge the patch series by the kernel's own tests: boot the testbed kernel
# once per policy setting, run the mm selftests (scripts/build-mm-selftests.sh)
# and the integrity storm (tools/testbed/integrity.c) in the guest, and
# write one JSON record per boot and a test x policy table
# (scripts/testbed-selftests-report.py). Fails on any failed test, any
# data mismatch, too few migrations, or a WARN/BUG/oops in a console log.
#
# Usage: testbed-selftests.sh [options] [SRCDIR]
#   --ci              the CI subset: migration (but its hugetlb cases) and the
#                     integrity storm under migrate:always and migrate:skip-single
#   --settings LIST   comma-separated settings, e.g. migrate:skip-numa,hint:eager
#                     (default: the four migrate, two hint-fault and two split
#                     policies; settings that leave the kernel in the same
#                     state share one boot)
#   --tests LIST      comma-separated selftests (default: all built)
#   --exclude LIST    comma-separated cases to leave out, as test.case (e.g.
#                     migration.private_anon_htlb); the record lists them
#   --min-migrations N  the integrity storm's target (default 100000)
#   --out DIR         where logs, records and the table go
set -eu

settings="" tests="" exclude="" min_migrations=100000 out="" ci=0
while [ $# -gt 0 ]; do
	case $1 in
	--ci) ci=1 ;;
	--settings) settings=$2; shift ;;
	--tests) tests=$2; shift ;;
	--exclude) exclude=$2; shift ;;
	--min-migrations) min_migrations=$2; shift ;;
	--out) out=$2; shift ;;
	-*) echo "testbed-selftests: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
srcdir=$(cd "${1:-.}" && pwd)
cache=${TLBP_TESTBED_DIR:-/var/tmp/tlbp-testbed}
start=$(date +%s)
say() { echo "testbed-selftests [$(( $(date +%s) - start ))s]: $*" >&2; }
for tool in qemu-system-x86_64 python3; do
	command -v $tool >/dev/null || { echo "testbed-selftests: $tool not installed (scripts/install-deps.sh --ci)" >&2; exit 1; }
done

if [ "$ci" -eq 1 ]; then
	settings=${settings:-migrate:always,migrate:skip-single}
	tests=${tests:-migration}
	# hugetlb folios migrate one at a time (6.12's migrate_hugetlbs(),
	# unmap_and_move_huge_page(): try_to_migrate() without
	# TTU_BATCH_FLUSH), never through the series' batching decision; their
	# 40 s a boot are left to make testbed-selftests.
	exclude=${exclude:-migration.private_anon_htlb,migration.shared_anon_htlb}
fi
for e in $(echo "$exclude" | tr ',' ' '); do
	case $e in
	?*.?*) ;;
	*) echo "testbed-selftests: --exclude takes test.case, e.g. migration.private_anon_htlb, not '$e'" >&2; exit 2 ;;
	esac
done
settings=${settings:-migrate:always,migrate:skip-numa,migrate:skip-single,migrate:skip-single-mapcount,hint:eager,hint:deferred,split:per-pte,split:batched}
for s in $(echo "$settings" | tr ',' ' '); do
	case $s in
	migrate:always|migrate:skip-numa|migrate:skip-single|migrate:skip-single-mapcount) ;;
	hint:eager|hint:deferred|split:per-pte|split:batched) ;;
	*) echo "testbed-selftests: unknown setting '$s' (migrate:<always|skip-numa|skip-single|skip-single-mapcount>, hint:<eager|deferred>, split:<per-pte|batched>)" >&2; exit 2 ;;
	esac
done

bzimage=$(sh "$srcdir/scripts/testbed-kernel.sh" "$srcdir")
key=$(basename "$(dirname "$bzimage")" | sed 's/^kernel-//')
st=$(sh "$srcdir/scripts/build-mm-selftests.sh" "$srcdir")
all_tests=$(ls "$st/bin")
tests=${tests:-$(echo $all_tests | tr ' ' ',')}
extra=""
for t in $(echo "$tests" | tr ',' ' '); do
	[ -x "$st/bin/$t" ] || { echo "testbed-selftests: no selftest '$t' (built: $(echo $all_tests))" >&2; exit 2; }
	extra="$extra bin/mm/$t=$st/bin/$t"
done
work=$cache/work-selftests
mkdir -p "$work"
# shellcheck disable=SC2086
sh "$srcdir/scripts/testbed-initramfs.sh" "$srcdir" "$work/initramfs.gz" \
	bin/selftests="$srcdir/tools/testbed/selftests.sh" $extra

out=${out:-$cache/selftests/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
records=$out/records.jsonl
: >"$records"
# One boot per distinct kernel state: the defaults (always, deferred,
# batched) are one state under three names.
boots=""
for s in $(echo "$settings" | tr ',' ' '); do
	migrate=always hint=deferred split=batched
	case $s in
	migrate:*) migrate=${s#migrate:} ;;
	hint:*) hint=${s#hint:} ;;
	split:*) split=${s#split:} ;;
	esac
	state="$migrate/$hint/$split"
	case " $boots " in
	*" $state="*) boots=$(echo "$boots" | sed "s|$state=\([^ ]*\)|$state=\1+$s|") ;;
	*) boots="$boots $state=$s" ;;
	esac
done
nr=$(echo $boots | wc -w)
n=0
for b in $boots; do
	n=$((n + 1))
	state=${b%%=*} names=${b#*=}
	migrate=${state%%/*} rest=${state#*/}
	hint=${rest%%/*} split=${rest#*/}
	log=$out/$(echo "$state" | tr / _).log
	say "boot $n/$nr: migrate=$migrate hint=$hint split=$split ($(echo "$names" | tr + ' '))"
	t0=$(date +%s)
	rc=0
	sh "$srcdir/scripts/testbed-boot.sh" "$bzimage" "$work/initramfs.gz" 5400 "$log" \
		TB_WORKLOAD=selftests TB_ARGS="tests=$(echo "$tests" | tr ',' '+'),exclude=$(echo "$exclude" | tr ',' '+'),min_migrations=$min_migrations" \
		TB_MIGRATE=$migrate TB_HINT=$hint TB_SPLIT=$split TB_PROBE=0 || rc=$?
	python3 "$srcdir/scripts/testbed-selftests-report.py" record --log "$log" \
		--settings "$names" --migrate "$migrate" --hint "$hint" --split "$split" \
		--tests "$tests" --exclude "$exclude" --min-migrations "$min_migrations" --qemu-rc "$rc" \
		--host-seconds $(( $(date +%s) - t0 )) --kernel "$key" >>"$records"
	say "  $(tail -n 1 "$records" | python3 "$srcdir/scripts/testbed-selftests-report.py" brief)"
done
python3 "$srcdir/scripts/testbed-selftests-report.py" table "$records" | tee "$out/table.txt"
say "records in $records, table in $out/table.txt ($(( $(date +%s) - start )) s in all)"
python3 "$srcdir/scripts/testbed-selftests-report.py" check "$records"
