# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Sourced by the shell tests of scripts/ (tests/testbed/*.sh,
# tests/tlbsim/loo-table.sh): a scratch directory $tmp removed on exit, and
# ok/bad lines whose failures add up in $fails, which each test turns into
# its exit status at the end; expect PATTERN WHAT checks that $out has a
# line matching PATTERN.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fails=$((fails + 1)); }
expect() { # pattern what: $out holds a line matching the pattern
	echo "$out" | grep -q "$1" && ok "$2" || bad "$2: $out"
}
