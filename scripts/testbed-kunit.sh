#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The vendored copy's KUnit cases inside the testbed kernel (the 6.12
# series, kernel/testbed/config-6.12 builds them in): boot it under qemu
# with no root file system, so that it stops right after the built-in
# KUnit suites have run, and read their KTAP off the serial console. Fails
# unless the tlbpolicy suite ran and every case passed. Builds the kernel
# first if no cached one matches (scripts/testbed-kernel.sh).
# Usage: testbed-kunit.sh [SRCDIR]
set -eu
srcdir=$(cd "${1:-.}" && pwd)
start=$(date +%s)
command -v qemu-system-x86_64 >/dev/null || {
	echo "testbed-kunit: qemu-system-x86 not installed (scripts/install-deps.sh --ci)" >&2; exit 1; }
bzimage=$(sh "$srcdir/scripts/testbed-kernel.sh" "$srcdir")
log=$(mktemp "${TMPDIR:-/var/tmp}/tlbp-kunit-boot.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -f "$log" "$log.raw"' EXIT
trap 'exit 130' INT TERM HUP
[ -z "${KEEP:-}" ] || echo "testbed-kunit: console log in $log" >&2
# No initramfs and no disk: after the initcalls (KUnit's among them) the
# kernel panics for want of a root, and panic=-1 with -no-reboot ends qemu
# (exit 0); 124 is the timeout's. The other testbed boots pass
# kunit.enable=0 (scripts/testbed-boot.sh).
rc=0
timeout 600 qemu-system-x86_64 -accel tcg,thread=multi -m 512M -smp 2 \
	-nographic -no-reboot -kernel "$bzimage" \
	-append "console=ttyS0 panic=-1 kunit.filter_glob=tlbpolicy*" \
	</dev/null >"$log.raw" 2>&1 || rc=$?
tr -d '\r' <"$log.raw" >"$log"
[ "$rc" -ne 124 ] || { echo "testbed-kunit: the guest did not stop within 600 s" >&2; exit 1; }
# The suite's result line and the run's case counts, as KUnit prints them
# (the filter leaves only this suite to count):
#   # Totals: pass:N fail:0 skip:0 total:N
#   ok 1 tlbpolicy
awk -v took=$(( $(date +%s) - start )) '
	/# Totals: pass:[0-9]+ fail:[0-9]+ skip:[0-9]+ total:[0-9]+/ { stats = $0 }
	/^ *ok [0-9]+ tlbpolicy$/ { ok = 1 }
	/^ *not ok [0-9]+ / { bad = 1; print "testbed-kunit: " $0 }
	END {
		if (!ok && !bad) { print "testbed-kunit: the tlbpolicy suite did not run"; exit 1 }
		sub(/.*# Totals: /, "", stats)
		print "testbed-kunit: tlbpolicy " stats " (" took " s)"
		if (bad || !ok || stats !~ /^pass:[1-9][0-9]* fail:0 /) exit 1
	}' "$log" || { [ -n "${KEEP:-}" ] || tail -n 30 "$log" >&2; exit 1; }
