#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# cppcheck, clang-tidy (.clang-tidy) and clang's scan-build over lib/ and
# tools/tlbsim. Prints the finding count of each; fails on any finding.
# Usage: static-analysis.sh [SRCDIR]
set -u
src=$(cd "${1:-.}" && pwd)
work=$(mktemp -d "${TMPDIR:-/var/tmp}/tlbp-static.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0

cppcheck -j"$(nproc)" --enable=warning,performance,portability --inline-suppr --quiet \
	-I"$src/include" -I"$src/tools/tlbsim" -D__GNUC__ \
	"$src/lib" "$src/tools/tlbsim" 2>"$work/cppcheck.log"
n=$(grep -c ': \(error\|warning\|performance\|portability\|style\):' "$work/cppcheck.log")
cat "$work/cppcheck.log"
echo "static-analysis: cppcheck findings: $n"
[ "$n" -eq 0 ] || status=1

jansson=$(pkg-config --cflags jansson nlopt 2>/dev/null)
# What configure would define for tlbsim's --version.
version=$(sed -n 's/^AC_INIT(\[tlbpolicy\], \[\([^]]*\)\].*/\1/p' "$src/configure.ac")
# One file a process, as many at once as there are cores; each writes its
# own log so the findings do not interleave.
export src work version jansson
ls "$src"/lib/*.c "$src"/tools/tlbsim/*.c | xargs -P"$(nproc)" -n1 sh -c '
	clang-tidy --quiet "$0" -- -std=gnu11 -I"$src/include" \
		-I"$src/tools/tlbsim" -DPACKAGE_VERSION="\"$version\"" $jansson \
		>"$work/tidy.$(echo "$0" | tr / _).log" 2>&1'
cat "$work"/tidy.*.log >"$work/tidy.log" 2>/dev/null
n=$(grep -c -E '(warning|error): ' "$work/tidy.log")
grep -E '(warning|error): ' "$work/tidy.log"
echo "static-analysis: clang-tidy findings: $n"
[ "$n" -eq 0 ] || status=1

mkdir -p "$work/build"
(cd "$work/build" && "$src/configure" -q >/dev/null 2>&1 &&
	scan-build-14 --status-bugs -o "$work/report" make -j"$(nproc)" >"$work/scan.log" 2>&1)
rc=$?
grep -E 'scan-build: [0-9]+ bugs? found|No bugs found' "$work/scan.log" || tail -n 20 "$work/scan.log"
echo "static-analysis: scan-build exit $rc"
[ $rc -eq 0 ] || status=1
exit $status
