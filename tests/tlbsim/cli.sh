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

# expect_out PATTERN ARGS...: exit 0 and stdout matching the grep -E PATTERN.
expect_out() {
	pat=$1; shift
	n=$((n + 1))
	if ! "$tlbsim" "$@" >"$tmp/out" 2>"$tmp/err" || ! grep -qE -- "$pat" "$tmp/out"; then
		echo "FAIL: tlbsim $* does not print /$pat/"; cat "$tmp/err"
		fails=$((fails + 1))
	fi
}
# expect_no_out PATTERN ARGS...: exit 0 and no stdout line matching PATTERN.
expect_no_out() {
	pat=$1; shift
	n=$((n + 1))
	if ! "$tlbsim" "$@" >"$tmp/out" 2>"$tmp/err" || grep -qE -- "$pat" "$tmp/out"; then
		echo "FAIL: tlbsim $* prints /$pat/"; fails=$((fails + 1))
	fi
}
# expect_warning TEXT ARGS...: exit 0 and a one-line warning containing TEXT.
expect_warning() {
	text=$1; shift
	n=$((n + 1))
	if ! "$tlbsim" "$@" >"$tmp/out" 2>"$tmp/err" ||
	   [ "$(grep -cF -- "$text" "$tmp/err")" -ne 1 ] ||
	   ! grep -F -- "$text" "$tmp/err" | grep -q '^tlbsim: warning: '; then
		echo "FAIL: tlbsim $* does not warn \"$text\""; cat "$tmp/err"
		fails=$((fails + 1))
	fi
}

# list: the scenarios; list SCENARIO: its own parameters and defaults;
# list metrics: the dictionary with units.
expect_out "^  thp-split " list
expect_out "ipi_first_ns" list numa-balancing
expect_out "^  cpus +scenario +8 " list thp-split
expect_no_out "working_set_gib|folio_order" list thp-split
expect_out "^  cpus +scenario +64 " list hugetlb-demote
expect_out "^  cpus +scenario +384 " list numa-balancing
expect_out "^  tlb_irqs_per_migrated_page +IRQs/page " list metrics
expect_no_out "migrated_pages" list hugetlb-demote

# Determinism: the same seed gives byte-identical JSON, CSV and stdout.
n=$((n + 1))
args="run numa-balancing --set scale=0.005 --seed 3 --no-timing"
"$tlbsim" $args --json "$tmp/a.json" --csv "$tmp/a.csv" >"$tmp/a.out" 2>/dev/null &&
"$tlbsim" $args --json "$tmp/b.json" --csv "$tmp/b.csv" >"$tmp/b.out" 2>/dev/null
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

# Scenarios own their parameters and metrics.
expect_hint "thp-split does not read working_set_gib; it reads: cpus," run thp-split --set working_set_gib=1
expect_hint "hugetlb-demote does not read threads" run hugetlb-demote --set threads=4
expect_hint "thp-split does not read folio_order" compare thp-split --set folio_order=4
expect_hint "thp-split does not read working_set_gib" sweep thp-split --vary working_set_gib=1,2
expect_hint "thp-split does not report migrated_pages" sweep thp-split --vary threads=1,2 --metric migrated_pages
expect_hint "unknown scenario 'nope'" list nope
expect_error list thp-split extra
# Values that scale or clamp to one machine are refused before any run.
expect_hint "--vary cpus: 8 and 16 run the same model (cpus=2" sweep numa-balancing --set scale=0.05 --vary cpus=8,16,32
expect_hint "--vary threads: 16 and 32 run the same model (threads=8" sweep numa-balancing --set cpus=8 --vary threads=4,16,32

# The effective machine: a header line, and JSON and CSV record it.
expect_out "^machine: 19 CPUs, 2 nodes, x86-ipi; 19 threads, 1 process; 6 GiB, 4 KiB folios; 9 s; scale 0.05$" \
	run numa-balancing --set scale=0.05 --no-timing --json "$tmp/eff.json"
n=$((n + 1))
if ! grep -q '"cpus": 19' "$tmp/eff.json" || ! grep -q '"duration_s": 9' "$tmp/eff.json" ||
   grep -q '"demote_pages"' "$tmp/eff.json"; then
	echo "FAIL: JSON does not record the effective machine"; fails=$((fails + 1))
fi
expect_out "^machine: 3 CPUs, 1 node, arm64-tlbi; 3 threads splitting 2 THPs each$" \
	run thp-split --set threads=3 --set thp_ops_per_thread=2
expect_out "^machine: 32 CPUs, 2 nodes, x86-ipi; 2 1 GiB pages to demote, HVO on; scale 0.5$" \
	run hugetlb-demote --set scale=0.5 --set demote_pages=4 --csv "$tmp/eff.csv"
n=$((n + 1))
if [ "$(cut -d, -f5,8 "$tmp/eff.csv" | tail -n 1)" != "32,2" ] ||
   [ "$(head -n 1 "$tmp/eff.csv" | cut -d, -f5,8)" != "cpus,demote_pages" ]; then
	echo "FAIL: CSV does not record the effective machine"; cat "$tmp/eff.csv"; fails=$((fails + 1))
fi

# Warnings: a model too small to do anything, a failure that cannot fire,
# a reduced scale compared with the published figures.
expect_warning "nothing happened (migrated_pages is 0)" run numa-balancing --set scale=0.005
expect_warning "ends before the first scan" run numa-balancing --set scale=0.005
expect_warning "fail_at_item=5 never fires: items are 0..1" run hugetlb-demote --set demote_pages=2 --set fail_at_item=5
expect_warning "fail_at_item=0 never fires: with hvo=0" run hugetlb-demote --set demote_pages=2 --set fail_at_item=0 --set hvo=0
expect_warning "scale=0.01 is a reduced model" compare numa-balancing --set scale=0.01 --policies always,off
n=$((n + 1))
if "$tlbsim" run hugetlb-demote --set demote_pages=2 --set fail_at_item=1 2>&1 >/dev/null | grep -q warning; then
	echo "FAIL: a failure injection that fires is warned about"; fails=$((fails + 1))
fi

# compare fits 100 columns off a terminal: policies as rows when needed,
# the scenario's metrics only, a unit column, points for fractions and
# percentages, no change for the baseline, "-" for an undefined ratio.
n=$((n + 1))
"$tlbsim" compare numa-balancing --set scale=0.01 --no-timing >"$tmp/cmp" 2>/dev/null
if [ "$(awk '{ if (length($0) > w) w = length($0) } END { print w }' "$tmp/cmp")" -gt 100 ] ||
   ! grep -qE '^metric +unit +policy +value +change$' "$tmp/cmp" ||
   ! grep -qE '^ +skip-numa +[-0-9.e+]+ +[-+][0-9.]+ pt$' "$tmp/cmp" ||
   ! grep -qE '^tlb_irqs_per_migrated_page +IRQs/page +always ' "$tmp/cmp" ||
   ! grep -qE '^ +off +-$' "$tmp/cmp" || grep -qE 'off .*%' "$tmp/cmp" ||
   grep -q 'op_latency_us_mean' "$tmp/cmp"; then
	echo "FAIL: compare numa-balancing layout"; cat "$tmp/cmp"; fails=$((fails + 1))
fi
expect_out "^metric +unit +per-pte +batched$" compare thp-split --set thp_ops_per_thread=2
expect_out "^ranged_flushes +flushes +[0-9.e+]+ +[0-9]+ -[0-9.]+%$" compare thp-split --set thp_ops_per_thread=2
expect_no_out "migrated_pages|hint_faults" compare thp-split --set thp_ops_per_thread=2

# Progress: on stderr once a command has run for a second, one line per
# finished run when stderr is not a terminal; never on stdout.
n=$((n + 1))
"$tlbsim" compare numa-balancing --set scale=0.2 --policies always,off --no-timing \
	>"$tmp/out" 2>"$tmp/err"
if grep -q "runs done" "$tmp/out" ||
   ! grep -qE '^tlbsim: 2/2 runs done \(off, seed 1\), [0-9]+ s elapsed, about 0 s left$' "$tmp/err"; then
	echo "FAIL: compare progress"; cat "$tmp/err"; fails=$((fails + 1))
fi

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
