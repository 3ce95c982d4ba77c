#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tlbsim's command line: bad input gets one line on stderr and exit 2, never
# a crash; good input works, and the same seed gives byte-identical files.
set -u
: "${top_builddir:=.}"
tlbsim="$top_builddir/tools/tlbsim/tlbsim"
[ -x "$tlbsim" ] || { echo "SKIP: no tlbsim"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0; n=0

# expect_error ARGS...: exit 2, exactly one line on stderr, nothing on stdout.
expect_error() {
	n=$((n + 1))
	"$tlbsim" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || [ -s "$tmp/out" ]; then
		echo "FAIL: tlbsim $* -> exit $rc, $lines stderr lines"; cat "$tmp/err"
		fails=$((fails + 1))
	fi
}

expect_error
expect_error frobnicate
expect_error list extra
expect_error run
expect_error run no-such-scenario
expect_error run numa-balancing --policy no-such-policy
expect_error run numa-balancing --set
expect_error run numa-balancing --set nokey
expect_error run numa-balancing --set =3
expect_error run numa-balancing --set no_such_param=1
expect_error run numa-balancing --set cpus=abc
expect_error run numa-balancing --set cpus=
expect_error run numa-balancing --set cpus=-4
expect_error run numa-balancing --set cpus=1e300
expect_error run numa-balancing --set cpus=99999999999999999999
expect_error run numa-balancing --set cpus=3.5
expect_error run numa-balancing --set working_set_gib=-1
expect_error run numa-balancing --set working_set_gib=nan
expect_error run numa-balancing --set scale=0
expect_error run numa-balancing --set backend=sparc
expect_error run numa-balancing --seed -1
expect_error run numa-balancing --seed 12x
expect_error run numa-balancing --bogus
expect_error run numa-balancing --policies always
expect_error compare numa-balancing --pairs 0
expect_error compare numa-balancing --policies always,nope
expect_error compare numa-balancing --policy always
expect_error sweep numa-balancing
expect_error sweep numa-balancing --vary cpus
expect_error sweep numa-balancing --vary nope=1,2
expect_error sweep numa-balancing --vary cpus=4,x
expect_error sweep numa-balancing --vary cpus=4 --metric nope

n=$((n + 1))
if ! "$tlbsim" list >"$tmp/list" || ! grep -q "ipi_first_ns" "$tmp/list"; then
	echo "FAIL: tlbsim list"; fails=$((fails + 1))
fi

# Determinism: the same seed gives byte-identical JSON, CSV and stdout.
n=$((n + 1))
args="run numa-balancing --set scale=0.005 --seed 3 --no-timing"
"$tlbsim" $args --json "$tmp/a.json" --csv "$tmp/a.csv" >"$tmp/a.out" &&
"$tlbsim" $args --json "$tmp/b.json" --csv "$tmp/b.csv" >"$tmp/b.out"
if ! cmp -s "$tmp/a.json" "$tmp/b.json" || ! cmp -s "$tmp/a.csv" "$tmp/b.csv" ||
   ! cmp -s "$tmp/a.out" "$tmp/b.out"; then
	echo "FAIL: same seed, different output"; fails=$((fails + 1))
fi
n=$((n + 1))
if ! grep -q '"stale_translation_violations": 0' "$tmp/a.json" ||
   ! head -n 1 "$tmp/a.csv" | grep -q '^scenario,policy,seed,pair,cpus'; then
	echo "FAIL: JSON or CSV content"; fails=$((fails + 1))
fi

# A file that cannot be written is a one-line error, after the run.
n=$((n + 1))
"$tlbsim" run hugetlb-demote --set demote_pages=1 --json /nonexistent/dir/x.json \
	>/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
	echo "FAIL: unwritable --json -> exit $rc"; fails=$((fails + 1))
fi

# expect_hint TEXT ARGS...: an error as above whose line contains TEXT.
expect_hint() {
	hint=$1; shift
	expect_error "$@"
	n=$((n + 1))
	if ! grep -qF -- "$hint" "$tmp/err"; then
		echo "FAIL: tlbsim $* does not say \"$hint\""; cat "$tmp/err"
		fails=$((fails + 1))
	fi
}

expect_hint "did you mean --set cpus=8?" run numa-balancing cpus=8
expect_hint "unexpected argument 'stray'" run numa-balancing stray
expect_hint "did you mean 'compare'?" comapre numa-balancing
expect_hint "did you mean 'numa-balancing'?" run numa-balancng
expect_hint "did you mean 'skip-single'?" run numa-balancing --policy skip-singel
expect_hint "did you mean 'skip-single'?" compare numa-balancing --policies always,skip-singel
expect_hint "did you mean 'cpus'?" run numa-balancing --set cpu=8
expect_hint "did you mean '--policy'?" run numa-balancing --polcy always

# --version and per-command --help: stdout, exit 0.
for args in "--version" "run --version" "run --help" "compare numa-balancing --help" \
	    "sweep --help" "list --help" "--help"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	if ! "$tlbsim" $args >"$tmp/out" 2>"$tmp/err" || ! [ -s "$tmp/out" ] || [ -s "$tmp/err" ]; then
		echo "FAIL: tlbsim $args"; fails=$((fails + 1))
	fi
done
n=$((n + 1))
if ! "$tlbsim" --version | grep -q "^tlbsim (tlbpolicy) ${PACKAGE_VERSION:-}"; then
	echo "FAIL: --version"; fails=$((fails + 1))
fi
n=$((n + 1))
if [ "$("$tlbsim" run --help | head -n 1 | cut -c1-17)" != "usage: tlbsim run" ]; then
	echo "FAIL: run --help is not run's usage"; fails=$((fails + 1))
fi

# A violation names the first one found, not only a count.
n=$((n + 1))
"$tlbsim" run numa-balancing --policy unsafe-ignore-pending --set scale=0.05 \
	--no-timing >/dev/null 2>"$tmp/err"
if ! grep -q 'stale-translation violations; the first: frame copied while a CPU still caches it (mm [0-9]*, page 0x' "$tmp/err"; then
	echo "FAIL: a violation run does not describe its first violation"; fails=$((fails + 1))
fi

echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
