#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Runs in the testbed guest (from /init, TB_WORKLOAD=selftests): the kernel's
# own mm selftests, then the integrity storm, under the policies /init has
# already set. Arguments (TB_ARGS): tests=a+b+c (default: every binary in
# /bin/mm), exclude=test.case+... (cases a test leaves out, by its
# harness's -T), integrity=yes|no, hvo=0|1 (HugeTLB Vmemmap Optimization,
# below) and integrity's own key=value options.
# Everything the host parses is on "@@" lines:
#   @@selftest name=N rc=R seconds=S     one per test (R=124: timed out)
#   @@selftests-done
tests="" exclude="" integrity=yes hvo=0 iargs=""
for a in "$@"; do
	case $a in
	tests=*) tests=$(echo "${a#tests=}" | tr + ' ') ;;
	exclude=*) exclude=$(echo "${a#exclude=}" | tr + ' ') ;;
	integrity=*) integrity=${a#integrity=} ;;
	hvo=*) hvo=${a#hvo=} ;;
	*) iargs="$iargs $a" ;;
	esac
done
[ -n "$tests" ] || tests=$(ls /bin/mm)

thp=/sys/kernel/mm/transparent_hugepage
# Settings the tests expect to start from (they save and restore their own).
echo madvise >$thp/enabled 2>/dev/null
echo madvise >$thp/defrag 2>/dev/null
mkdir -p /tmp && mount -t tmpfs tmp /tmp
# Swap on zram: khugepaged's swap-in cases and cow's MADV_PAGEOUT cases
# page out and back in; without swap they fail or skip.
if echo 256M >/sys/block/zram0/disksize 2>/dev/null && mkswap /dev/zram0 >/dev/null &&
	swapon /dev/zram0; then
	echo "@@swap zram0=256M"
else
	echo "@@swap none"
fi
# HugeTLB Vmemmap Optimization, off by default as in Debian's kernels: on
# 6.12.117 built from this config, with or without the series, turning it
# on and freeing hugetlb pages prints "BUG: Bad page state" (see
# docs/kernel-port.md, "The kernel's own tests"). hvo=1 turns it on.
echo "$hvo" >/proc/sys/vm/hugetlb_optimize_vmemmap 2>/dev/null

# Per-test limits, in seconds of guest time under TCG, and arguments.
limit() {
	case $1 in
	# About 4x what each took on a quiet host (migration 120 s,
	# split_huge_page_test 100-130 s): TCG slows down with the host.
	migration) echo 600 ;;
	split_huge_page_test|cow|khugepaged|ksm_functional_tests) echo 900 ;;
	*) echo 300 ;;
	esac
}
args() {
	case $1 in
	transhuge-stress) echo "-d 20" ;;
	# split_huge_page_test needs a directory on a filesystem with large
	# folios in its page cache for the file cases; tmpfs is one.
	split_huge_page_test) echo "/tmp" ;;
	esac
	# The kselftest harness's "-T name": leave that case out.
	for e in $exclude; do
		[ "${e%%.*}" = "$1" ] && echo "-T ${e#*.}"
	done
}
# hugetlb pages for the tests that need them (migration's hugetlb cases,
# cow, hugepage-vmemmap); compaction_test sets its own count.
hugepages() {
	case $1 in
	compaction_test) echo 0 ;;
	*) echo 32 ;;
	esac
}

for t in $tests; do
	[ -x /bin/mm/$t ] || { echo "@@selftest name=$t rc=127 seconds=0"; continue; }
	echo "$(hugepages $t)" >/proc/sys/vm/nr_hugepages 2>/dev/null
	echo "@@selftest-begin name=$t"
	t0=$(cut -d. -f1 /proc/uptime)
	(cd /tmp && timeout "$(limit $t)" /bin/mm/$t $(args $t)) </dev/null 2>&1
	rc=$?
	echo "@@selftest name=$t rc=$rc seconds=$(( $(cut -d. -f1 /proc/uptime) - t0 ))"
done
echo 0 >/proc/sys/vm/nr_hugepages 2>/dev/null

if [ "$integrity" = yes ]; then
	# The mTHP region needs 64 KiB folios on request (MADV_HUGEPAGE).
	echo madvise >$thp/hugepages-64kB/enabled 2>/dev/null
	echo "@@selftest-begin name=integrity"
	t0=$(cut -d. -f1 /proc/uptime)
	/bin/integrity policy="migrate=$TB_MIGRATE,hint=$TB_HINT,split=$TB_SPLIT" $iargs
	rc=$?
	echo "@@selftest name=integrity rc=$rc seconds=$(( $(cut -d. -f1 /proc/uptime) - t0 ))"
	echo never >$thp/hugepages-64kB/enabled 2>/dev/null
fi
echo "@@selftests-done"
