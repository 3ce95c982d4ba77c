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
# Sources cite the public source itself, and a scenario's own defaults
# their own source (thp-split's 8 CPUs are not numa-balancing's 2 x 192).
for sc in numa-balancing numa-hint-fault thp-split hugetlb-demote; do
	expect_no_out "cost-model|emulator\.md|spec/|row [0-9]" list $sc
done
expect_out "^  cpus +scenario +8 +CPUs +the thread count unless set" list thp-split
expect_no_out "^  cpus .*192" list thp-split

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

# --no-blind: the twins keep their TLBs, and every figure stays the same.
n=$((n + 1))
"$tlbsim" $args --no-blind --json "$tmp/c.json" >"$tmp/c.out" 2>/dev/null
if ! cmp -s "$tmp/a.json" "$tmp/c.json" || ! cmp -s "$tmp/a.out" "$tmp/c.out"; then
	echo "FAIL: --no-blind changed a figure"; fails=$((fails + 1))
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
# numa_regions runs at most 64 threads (its main() has room for no more):
# the run fails and says why.
n=$((n + 1))
if "$tlbsim" run testbed --set cpus=96 --set moving_threads=34 --set stable_threads=32 \
	>/dev/null 2>"$tmp/err" ||
   ! grep -qF "66 threads: numa_regions runs at most 64 (MAX_THREADS)" "$tmp/err"; then
	echo "FAIL: a testbed of 66 threads is not refused with its reason"; cat "$tmp/err"
	fails=$((fails + 1))
fi
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
# Big enough to pass a second on a fast host (issue 15 made scale=0.2 a
# second's work).
"$tlbsim" compare numa-balancing --set scale=0.5 --policies always,off --no-timing \
	--jobs 1 >"$tmp/out" 2>"$tmp/err"
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


# Options a command does not take, empty or repeated list items, and the
# choices of an enumerated value: refused before any run.
expect_hint "--plot does not apply to compare (sweep, merge take it)" compare numa-balancing --plot x.svg
expect_hint "--pairs does not apply to run" run numa-balancing --pairs 2
expect_hint "--jobs does not apply to run" run numa-balancing --jobs 2
expect_hint "--emit-jobs does not apply to compare" compare numa-balancing --emit-jobs j
expect_hint "--no-timing does not apply to merge" merge "$tmp/a.json" --no-timing
expect_hint "--no-blind does not apply to sweep" sweep numa-balancing --vary scale=0.01 --no-blind
expect_hint "--metric does not apply to compare" compare numa-balancing --metric migrated_pages
expect_hint "--vary: empty item" sweep numa-balancing --vary cpus=4,,8
expect_hint "--vary: empty item" sweep numa-balancing --vary cpus=4,8,
expect_hint "--vary: '8' is given twice" sweep numa-balancing --vary cpus=8,4,8
expect_hint "--policies: 'always' is given twice" compare numa-balancing --policies always,off,always
expect_hint "--policies: empty item" sweep numa-balancing --vary cpus=4,8 --policies always,
expect_hint "--metric: 'migrated_pages' is given twice" sweep numa-balancing --vary cpus=4,8 --metric migrated_pages,migrated_pages
expect_hint "--plot: empty item" sweep numa-balancing --vary cpus=4,8 --plot a.svg,,b.svg
expect_hint "bad value 'sparc' for backend: one of x86-ipi, arm64-tlbi" run numa-balancing --set backend=sparc
expect_hint "one of: always, skip-numa," run numa-balancing --policy nope
expect_hint "--jobs does not apply to run" run numa-balancing --jobs 0
expect_hint "bad --jobs '0'" compare numa-balancing --jobs 0

# Every output file is checked before the first run (a full-scale sweep
# would take minutes): its directory, its extension.
expect_hint "--plot '/nonexistent/x.svg' cannot be written: directory /nonexistent does not exist" \
	sweep numa-balancing --vary cpus=64,128 --plot /nonexistent/x.svg
expect_hint "--json '/nonexistent/x.json' cannot be written" sweep numa-balancing --vary cpus=64,128 --json /nonexistent/x.json
expect_hint "--csv '/nonexistent/x.csv' cannot be written" compare numa-balancing --csv /nonexistent/x.csv
expect_hint "--plot 'x.pdf': the file name must end in .png or .svg" sweep numa-balancing --vary cpus=64,128 --plot x.pdf
expect_hint "--json 'x.txt': the file name must end in .json" compare numa-balancing --json x.txt
expect_hint "--csv 'x.json': the file name must end in .csv" sweep numa-balancing --vary cpus=64,128 --csv x.json
mkdir "$tmp/d.svg"
expect_hint "--plot '$tmp/d.svg' is a directory" sweep numa-balancing --vary cpus=64,128 --plot "$tmp/d.svg"
mkdir "$tmp/ro" && chmod a-w "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
	expect_hint "directory $tmp/ro is not writable" sweep numa-balancing --vary cpus=64,128 --plot "$tmp/ro/x.svg"
fi

# Plots: a name with a space and a quote works; gnuplot never writes to the
# terminal, and its own error is the message when it fails; its scratch
# file goes to $TMPDIR.
tiny="thp-split --set thp_ops_per_thread=2 --vary threads=1,2"
if command -v gnuplot >/dev/null 2>&1; then
	n=$((n + 1))
	# shellcheck disable=SC2086
	if ! "$tlbsim" sweep $tiny --plot "$tmp/it's a plot.svg" >/dev/null 2>"$tmp/err" ||
	   ! grep -q '<svg' "$tmp/it's a plot.svg"; then
		echo "FAIL: a plot name with a quote and a space"; cat "$tmp/err"; fails=$((fails + 1))
	fi
fi
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "noise on stdout"\necho "plot frob" >&2\necho "     line 3: undefined variable: frob" >&2\nexit 1\n' >"$tmp/bin/gnuplot"
chmod +x "$tmp/bin/gnuplot"
n=$((n + 1))
# shellcheck disable=SC2086
PATH="$tmp/bin:$PATH" "$tlbsim" sweep $tiny --plot "$tmp/g.svg" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 2 ] || grep -q noise "$tmp/out" ||
   [ "$(cat "$tmp/err")" != "tlbsim: gnuplot failed on $tmp/g.svg: undefined variable: frob" ]; then
	echo "FAIL: a failing gnuplot -> exit $rc"; cat "$tmp/err"; fails=$((fails + 1))
fi
n=$((n + 1))
# shellcheck disable=SC2086
if TMPDIR=/nonexistent "$tlbsim" sweep $tiny --plot "$tmp/t.svg" >/dev/null 2>"$tmp/err" ||
   ! grep -q "cannot create a temporary file in /nonexistent" "$tmp/err"; then
	echo "FAIL: the plot's temporary file ignores TMPDIR"; cat "$tmp/err"; fails=$((fails + 1))
fi
# Lines that coincide say so in the key; several seeds draw min-max bars.
n=$((n + 1))
printf '#!/bin/sh\ncat >"%s"\n' "$tmp/script.gp" >"$tmp/bin/gnuplot"
"$tlbsim" sweep numa-balancing --set scale=0.002 --vary duration_s=10,20 \
	--policies always,skip-numa --pairs 2 --plot "$tmp/c.svg" >/dev/null 2>&1
if ! PATH="$tmp/bin:$PATH" "$tlbsim" sweep numa-balancing --set scale=0.002 \
	--vary duration_s=10,20 --policies always,skip-numa --pairs 2 --plot "$tmp/c.svg" \
	>/dev/null 2>"$tmp/err" ||
   ! grep -q "title 'skip-numa (same as always)'" "$tmp/script.gp" ||
   ! grep -q "using 1:2:3:4 with yerrorlines" "$tmp/script.gp"; then
	echo "FAIL: coinciding lines or seed spread not drawn"; cat "$tmp/err"; fails=$((fails + 1))
fi

# --jobs: forked workers give byte-identical records to one process.
n=$((n + 1))
cargs="compare numa-balancing --set scale=0.01 --pairs 2 --no-timing"
# shellcheck disable=SC2086
"$tlbsim" $cargs --jobs 1 --json "$tmp/j1.json" >"$tmp/j1.out" 2>/dev/null &&
"$tlbsim" $cargs --jobs 2 --json "$tmp/j2.json" >"$tmp/j2.out" 2>/dev/null
if ! cmp -s "$tmp/j1.json" "$tmp/j2.json" || ! cmp -s "$tmp/j1.out" "$tmp/j2.out"; then
	echo "FAIL: compare --jobs 2 differs from --jobs 1"; fails=$((fails + 1))
fi
n=$((n + 1))
sargs="sweep numa-balancing --set scale=0.01 --vary misplaced_fraction=0.02,0.05 --pairs 2 --no-timing --metric migrated_pages,tlb_irqs_received"
# shellcheck disable=SC2086
"$tlbsim" $sargs --jobs 1 --json "$tmp/s1.json" --csv "$tmp/s1.csv" >"$tmp/s1.out" 2>/dev/null &&
"$tlbsim" $sargs --jobs 2 --json "$tmp/s2.json" >"$tmp/s2.out" 2>/dev/null
if ! cmp -s "$tmp/s1.json" "$tmp/s2.json" || ! cmp -s "$tmp/s1.out" "$tmp/s2.out"; then
	echo "FAIL: sweep --jobs 2 differs from --jobs 1"; fails=$((fails + 1))
fi

# Scale out: --emit-jobs writes one 'tlbsim run' per point, GNU parallel
# runs them, merge rebuilds the sweep's table and records exactly.
mkdir "$tmp/jobs dir"
n=$((n + 1))
# shellcheck disable=SC2086
if ! "$tlbsim" $sargs --emit-jobs "$tmp/jobs dir/pts.txt" 2>"$tmp/err" ||
   [ "$(wc -l <"$tmp/jobs dir/pts.txt")" -ne 20 ] ||
   ! grep -q "^ '.*tlbsim' run 'numa-balancing' --policy 'off' --seed 2 --set 'scale=0.01' --set 'misplaced_fraction=0.050000000000000003' --no-timing --json '.*/jobs dir/pts-20.json' >/dev/null$" "$tmp/jobs dir/pts.txt"; then
	echo "FAIL: --emit-jobs"; cat "$tmp/err"; tail -n 1 "$tmp/jobs dir/pts.txt"; fails=$((fails + 1))
fi
if command -v parallel >/dev/null 2>&1; then
	n=$((n + 1))
	# The commands name the binary libtool's wrapper ran, which needs the
	# uninstalled library; an installed tlbsim needs nothing.
	if ! LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		parallel --will-cite -j2 <"$tmp/jobs dir/pts.txt" 2>"$tmp/err" ||
	   ! "$tlbsim" merge "$tmp/jobs dir"/pts-*.json --metric migrated_pages,tlb_irqs_received \
		--json "$tmp/m.json" --csv "$tmp/m.csv" >"$tmp/m.out" 2>>"$tmp/err" ||
	   ! cmp -s "$tmp/s1.json" "$tmp/m.json" || ! cmp -s "$tmp/s1.csv" "$tmp/m.csv" ||
	   ! cmp -s "$tmp/s1.out" "$tmp/m.out"; then
		echo "FAIL: emit-jobs | parallel | merge differs from the sweep"; cat "$tmp/err"
		diff "$tmp/s1.out" "$tmp/m.out"; fails=$((fails + 1))
	fi
	expect_hint "a run is missing or given twice" merge "$tmp/jobs dir"/pts-1?.json
else
	echo "SKIP: GNU parallel is not installed (apt-get install parallel): emit-jobs | parallel | merge not checked"
fi
expect_hint "merge: $tmp/jobs dir/pts.txt:" merge "$tmp/jobs dir/pts.txt"
expect_hint "merge needs result files" merge
expect_hint "merge: no parameter varies between the files" merge "$tmp/a.json"

# run --timeline: an SVG of the run over virtual time, one rectangle per
# scan pass; the storm of TLB interrupts under always is higher than
# under skip-single on the same seed.
expect_hint "--timeline 'x.png': the file name must end in .svg" run numa-balancing --timeline x.png
expect_hint "--timeline does not apply to compare" compare numa-balancing --timeline x.svg
n=$((n + 1))
"$tlbsim" run hugetlb-demote --set demote_pages=1 --timeline "$tmp/h.svg" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -ne 2 ] || [ "$(cat "$tmp/err")" != "tlbsim: --timeline: the run took no virtual time, there is nothing to draw" ]; then
	echo "FAIL: a timeline of no virtual time -> exit $rc"; cat "$tmp/err"; fails=$((fails + 1))
fi
n=$((n + 1))
targs="run numa-balancing --set scale=0.05 --seed 0 --no-timing"
# shellcheck disable=SC2086
if ! "$tlbsim" $targs --policy always --timeline "$tmp/always.svg" >"$tmp/out" 2>/dev/null ||
   ! "$tlbsim" $targs --policy skip-single --timeline "$tmp/single.svg" >/dev/null 2>&1 ||
   [ "$(grep -c '<title>scan pass of' "$tmp/always.svg")" -ne \
     "$(awk '$1 == "scan_passes" { print $2 }' "$tmp/out")" ] ||
   ! grep -q 'TLB interrupts received per second' "$tmp/always.svg"; then
	echo "FAIL: run --timeline"; fails=$((fails + 1))
fi
n=$((n + 1))
# Each panel scales to its peak: the IRQ panel's top label (its third).
axis_top() { grep "text-anchor='end' font-size='11'>" "$1" | sed -n '3s/.*>\([^<]*\)<.*/\1/p'; }
top_always=$(axis_top "$tmp/always.svg")
top_single=$(axis_top "$tmp/single.svg")
if ! awk -v a="$top_always" -v b="$top_single" 'BEGIN { exit !(a + 0 > b + 0) }'; then
	echo "FAIL: the IRQ axis under always ($top_always) is not above skip-single's ($top_single)"
	fails=$((fails + 1))
fi
# A run longer than a second reports its virtual time on stderr.
n=$((n + 1))
"$tlbsim" run numa-balancing --set scale=0.6 --policy always >"$tmp/out" 2>"$tmp/err"
if grep -q "virtual time" "$tmp/out" ||
   ! grep -qE '^tlbsim: virtual time [0-9.]+ of 108.0 s, [0-9]+ s elapsed, about [0-9]+ s left$' "$tmp/err"; then
	echo "FAIL: run progress"; cat "$tmp/err"; fails=$((fails + 1))
fi

# fit: calibration by NLopt. A synthetic recovery on a tiny machine: the
# targets are a run at misplaced_fraction=0.1 on another seed than the
# fit's, and the fit must find 0.1 again within 10% from a range 20 times
# wider. Migrations grow with the misplaced share, so the objective has one
# valley; a fit that misses it (a broken objective, search or parameter
# plumbing) fails here.
tinyfit="--set cpus=8 --set working_set_gib=1 --set duration_s=10"
n=$((n + 1))
# shellcheck disable=SC2086
"$tlbsim" run numa-balancing $tinyfit --set misplaced_fraction=0.1 --seed 7 >"$tmp/truth" 2>/dev/null
awk '$1 == "migrated_pages" || $1 == "hint_faults" { printf "%s\"%s\": %s", n++ ? ", " : "{", $1, $2 }
     END { print "}" }' "$tmp/truth" >"$tmp/tg.json"
fitargs="numa-balancing $tinyfit --free misplaced_fraction=0.02:0.4 --targets $tmp/tg.json --seeds 2 --max-evals 16 --profile-points 5 --samples 4"
# shellcheck disable=SC2086
if ! "$tlbsim" fit $fitargs --out "$tmp/fit.json" >"$tmp/fit.out" 2>"$tmp/err" ||
   ! awk '/^best: / { split($NF, kv, "="); v = kv[2] + 0; ok = v > 0.09 && v < 0.11 }
	  END { exit !ok }' "$tmp/fit.out"; then
	echo "FAIL: fit does not recover misplaced_fraction=0.1 within 10%"; cat "$tmp/fit.out" "$tmp/err"
	fails=$((fails + 1))
fi
# The summary has a residual per target and a profile; the ensemble holds
# the best point (the first member is the best set itself).
n=$((n + 1))
best=$(awk '/"best": \{/ { b = 1 } b && /"misplaced_fraction"/ { print $2; exit }' "$tmp/fit.json")
first=$(awk '/"ensemble": \[/ { e = 1 } e && /"misplaced_fraction"/ { print $2; exit }' "$tmp/fit.json")
if [ -z "$best" ] || [ "$best" != "$first" ] ||
   ! grep -qE '^migrated_pages +[0-9]+ +[0-9.e+]+ +[-+][0-9.]+$' "$tmp/fit.out" ||
   ! grep -q '^profile of misplaced_fraction' "$tmp/fit.out" ||
   ! grep -qE '^ensemble: [1-9][0-9]* of [0-9]+ sets' "$tmp/fit.out"; then
	echo "FAIL: fit summary, or the ensemble without the best set ($best, $first)"
	cat "$tmp/fit.out"; fails=$((fails + 1))
fi
# The same fit twice gives the same file (common random numbers, no clock).
n=$((n + 1))
# shellcheck disable=SC2086
if ! "$tlbsim" fit $fitargs --jobs 1 --out "$tmp/fit1.json" >/dev/null 2>&1 ||
   ! cmp -s "$tmp/fit.json" "$tmp/fit1.json"; then
	echo "FAIL: fit --jobs 1 differs from --jobs 2"; fails=$((fails + 1))
fi
# compare --fit: every row median [min, max] over the ensemble, in order.
n=$((n + 1))
if ! "$tlbsim" compare numa-balancing --fit "$tmp/fit.json" --policies always,skip-single \
	--json "$tmp/cmpfit.json" >"$tmp/cmpfit" 2>"$tmp/err" ||
   ! grep -qE '^migrated_pages +pages +always +[0-9]+ +\[[0-9]+, [0-9]+\]$' "$tmp/cmpfit" ||
   ! awk '/\[.*, .*\]$/ { rows++; med = $(NF - 2); lo = $(NF - 1); hi = $NF
	  gsub(/[][,]/, "", lo); gsub(/[][,]/, "", hi)
	  if (!(lo + 0 <= med + 0 && med + 0 <= hi + 0)) bad++ }
	  END { exit !(rows > 10 && !bad) }' "$tmp/cmpfit" ||
   ! grep -q '"intervals"' "$tmp/cmpfit.json"; then
	echo "FAIL: compare --fit intervals"; cat "$tmp/cmpfit" "$tmp/err"; fails=$((fails + 1))
fi

# fit's bad paths, all before any run.
printf '{"migrated_pages": ' >"$tmp/bad.json"
: >"$tmp/empty.json"
printf '{}' >"$tmp/none.json"
printf '[1, 2]' >"$tmp/list.json"
printf '{"nope": 1}' >"$tmp/unknown.json"
printf '{"migrated_pages": "many"}' >"$tmp/type.json"
printf '{"migrated_pages": [3, 1]}' >"$tmp/order.json"
printf '{"migrated_pages": -5}' >"$tmp/neg.json"
printf '{"migrated_pages": {"value": 5}}' >"$tmp/tol.json"
printf '{"op_latency_us_mean": 5}' >"$tmp/other.json"
free="--free misplaced_fraction=0.02:0.4"
expect_hint "fit needs --free" fit numa-balancing --targets "$tmp/tg.json"
expect_hint "fit needs --free" fit numa-balancing $free
expect_hint "--targets /nonexistent.json: unable to open" fit numa-balancing $free --targets /nonexistent.json
expect_hint "$tmp/bad.json" fit numa-balancing $free --targets "$tmp/bad.json"
expect_hint "$tmp/empty.json" fit numa-balancing $free --targets "$tmp/empty.json"
expect_hint "no targets" fit numa-balancing $free --targets "$tmp/none.json"
expect_hint "not a targets file" fit numa-balancing $free --targets "$tmp/list.json"
expect_hint "unknown metric 'nope'" fit numa-balancing $free --targets "$tmp/unknown.json"
expect_hint "migrated_pages: expected a number" fit numa-balancing $free --targets "$tmp/type.json"
expect_hint "lo is above its hi" fit numa-balancing $free --targets "$tmp/order.json"
expect_hint "targets must be positive" fit numa-balancing $free --targets "$tmp/neg.json"
expect_hint "tolerance" fit numa-balancing $free --targets "$tmp/tol.json"
expect_hint "numa-balancing does not report op_latency_us_mean" fit numa-balancing $free --targets "$tmp/other.json"
expect_hint "--free: unknown parameter 'nope'" fit numa-balancing --free nope=0:1 --targets "$tmp/tg.json"
expect_hint "did you mean 'misplaced_fraction'?" fit numa-balancing --free misplaced_fracton=0:1 --targets "$tmp/tg.json"
expect_hint "--free: misplaced_fraction is given twice" fit numa-balancing \
	--free misplaced_fraction=0:0.5,misplaced_fraction=0.1:0.2 --targets "$tmp/tg.json"
expect_hint "LO 0.5 is not below HI 0.1" fit numa-balancing --free misplaced_fraction=0.5:0.1 --targets "$tmp/tg.json"
expect_hint "LO 0.5 is not below HI 0.5" fit numa-balancing --free misplaced_fraction=0.5:0.5 --targets "$tmp/tg.json"
expect_hint "outside its valid range 0..1" fit numa-balancing --free misplaced_fraction=0.5:2 --targets "$tmp/tg.json"
expect_hint "expected NAME=LO:HI" fit numa-balancing --free misplaced_fraction --targets "$tmp/tg.json"
expect_hint "bad range 'x:1'" fit numa-balancing --free misplaced_fraction=x:1 --targets "$tmp/tg.json"
expect_hint "cpus takes integers" fit numa-balancing --free cpus=2:8 --targets "$tmp/tg.json"
expect_hint "thp-split does not read misplaced_fraction" fit thp-split $free --targets "$tmp/other.json"
expect_hint "misplaced_fraction is also fixed with --set" fit numa-balancing $free --set misplaced_fraction=0.1 --targets "$tmp/tg.json"
expect_hint "at most 3 parameters" fit numa-balancing --targets "$tmp/tg.json" \
	--free misplaced_fraction=0:1,holdoff_mean_us=1:2,convoy_spin_us=1:2,fault_prompt_ms=1:2
expect_hint "--out 'x.txt': the file name must end in .json" fit numa-balancing $free --targets "$tmp/tg.json" --out x.txt
expect_hint "bad --seeds '0'" fit numa-balancing $free --targets "$tmp/tg.json" --seeds 0
expect_hint "bad --tolerance '-1'" fit numa-balancing $free --targets "$tmp/tg.json" --tolerance -1
expect_hint "bad --profile-points '1'" fit numa-balancing $free --targets "$tmp/tg.json" --profile-points 1
expect_hint "--fit does not apply to fit" fit numa-balancing $free --targets "$tmp/tg.json" --fit x.json
expect_hint "--free does not apply to compare" compare numa-balancing $free
# compare --fit: another scenario's fit, a file that is not a fit, a free
# parameter set by hand, CSV (the intervals are in --json).
expect_hint "is a fit of numa-balancing, not of numa-hint-fault" compare numa-hint-fault --fit "$tmp/fit.json"
expect_hint "--fit /nonexistent.json: unable to open" compare numa-balancing --fit /nonexistent.json
expect_hint "not a tlbsim fit" compare numa-balancing --fit "$tmp/tg.json"
expect_hint "--set misplaced_fraction: a free parameter of the fit" compare numa-balancing --fit "$tmp/fit.json" --set misplaced_fraction=0.2
expect_hint "--csv does not apply to compare --fit" compare numa-balancing --fit "$tmp/fit.json" --csv "$tmp/x.csv"
# The shipped targets parse (the fit itself is too long for make check).
expect_hint "--free: unknown parameter" fit numa-balancing --free nope=0:1 \
	--targets "${top_srcdir:-.}/tools/tlbsim/targets/seed000-unpatched.json"

echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
