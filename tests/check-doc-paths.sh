#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Every repository path that README.md or docs/*.md names, in backticks or
# as a link target, exists: the docs cannot point at a file that moved.
# A path is the repository's when it starts with one of its top-level
# directories. Some names look like ours and are not: docs/api/ (make docs
# writes it), scripts/kernel-doc and tools/testing/ (the kernel tree's).
set -eu
: "${top_srcdir:=.}" "${top_builddir:=.}"
build=$(cd "$top_builddir" && pwd)
cd "$top_srcdir"
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
for doc in README.md docs/*.md; do
	{ grep -o '`[^`]*`' "$doc" | tr -d '`'
	  grep -o '](\([^)]*\))' "$doc" | sed 's/^](//; s/)$//'; } |
	sed 's/[#:].*//; s/[.,;]$//' |
	grep -E '^(\.\./)?(lib|include/tlbpolicy|tools|tests|scripts|docs|bench|examples|kernel|\.ci|LICENSES)(/|$)' |
	grep -v -e '[[:space:]*<>$]' -e '^docs/api/' -e '^scripts/kernel-doc$' -e '^tools/testing/' |
	sort -u | sed "s|^|$doc |"
done >"$tmp"
status=0
while read -r doc path; do
	dir=$(dirname "$doc")
	# Links resolve from the document's directory, backticked paths from
	# the top; programs the build makes (examples/*-demo) from its top.
	[ -e "$path" ] || [ -e "$dir/$path" ] || [ -e "$build/$path" ] && continue
	echo "FAIL: $doc names $path, which does not exist"; status=1
done <"$tmp"
[ $status -eq 0 ] && echo "ok: the $(wc -l <"$tmp") repository paths the docs name exist"
exit $status
