#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-predict.py's table on made-up testbed records and tlbsim
# results, without qemu or tlbsim: failed runs stay out of the testbed's
# median, the agreement rule (inside the range or within 30% of the
# median) says yes and no where it should, the count's interval over
# resampled tlbsim seeds spans what the draws can give, the records' guest
# speed comes out against the costs tlbsim ran with, and a table with
# nothing to compare is an error.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
predict="python3 ${top_srcdir:-.}/scripts/testbed-predict.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

rec() { # scenario policy status irqs_per_page migrated
	printf '{"scenario": "%s", "policy": "%s", "status": "%s", "metrics": {"tlb_irqs_per_migrated_page": %s, "migrated_pages": %s}}\n' "$@"
}
{
	rec numa-private always ok 0.4 50000
	rec numa-private always ok 0.9 60000
	rec numa-private always timeout 99 1
	rec hint-private deferred ok 0.7 40000
} >"$tmp/records.jsonl"
mkdir -p "$tmp/pred"
cat >"$tmp/pred/numa-private.json" <<'JSON'
[{"policy": "always", "metrics": {"tlb_irqs_per_migrated_page": 0.5, "migrated_pages": 100000}},
 {"policy": "always", "metrics": {"tlb_irqs_per_migrated_page": 0.6, "migrated_pages": 120000}},
 {"policy": "always", "metrics": {"tlb_irqs_per_migrated_page": 0.55, "migrated_pages": 60000}}]
JSON
# hint-private:deferred is 6.12's defaults: tlbsim's "always" on that workload.
cat >"$tmp/pred/hint-private.json" <<'JSON'
[{"policy": "always", "metrics": {"tlb_irqs_per_migrated_page": 0.95, "migrated_pages": 41000}}]
JSON
out=$($predict table --records "$tmp/records.jsonl" --predictions "$tmp/pred") || bad "table exited non-zero"
echo "$out" | grep -q '| numa-private:always | tlb_irqs_per_migrated_page | 0.65 \[0.4-0.9\] | 0.55 \[0.5-0.6\] | yes |' \
	&& ok "inside the range agrees; the timed-out run is left out" || bad "range rule: $out"
echo "$out" | grep -q '| numa-private:always | migrated_pages | 55000 \[50000-60000\] | 1e+05 \[60000-1.2e+05\] | no |' \
	&& ok "twice the median disagrees" || bad "30% rule: $out"
echo "$out" | grep -q '| hint-private:deferred | tlb_irqs_per_migrated_page | 0.7 \[0.7-0.7\] | 0.95 \[0.95-0.95\] | no |' \
	&& ok "36% off disagrees; deferred maps to tlbsim's always" || bad "policy map: $out"
echo "$out" | grep -q '| hint-private:deferred | migrated_pages | 40000 \[40000-40000\] | 41000 \[41000-41000\] | yes |' \
	&& ok "2.5% off agrees" || bad "close figure: $out"
echo "$out" | grep -q '^2 of 4 figures agree' && ok "the count" || bad "count: $out"
# Two of three resampled runs at 60000 pages (7 draws in 27) agree.
echo "$out" | grep -q '^2-3 agree in 90% of 1000 resamplings' \
	&& ok "the count's interval over resampled seeds" || bad "resampled interval: $out"

expect '^host speed: the testbed records do not say' "records without the probe say so"

# The records' guest speed against the costs tlbsim ran with: the runs
# that measured it, failed or not, and the ratio to the first prediction's.
sp() { # sweep grown_32
	printf '{"scenario": "numa-private", "policy": "always", "status": "%s", "host": {"speed": {"sweep_walk_ns_per_page": %s, "sweep_grown_32_ns_per_page": %s}}, "metrics": {"tlb_irqs_per_migrated_page": 0.5, "migrated_pages": 50000}}\n' "$@"
}
{ sp ok 400 90; sp timeout 500 100; rec numa-private always ok 0.4 50000; } >"$tmp/timed.jsonl"
sed -i '1s/"metrics"/"params": {"sweep_ns_per_page": 160, "sweep_hit_ns_per_page": 25}, "metrics"/' "$tmp/pred/numa-private.json"
out=$($predict table --records "$tmp/timed.jsonl" --predictions "$tmp/pred")
expect '^host speed over 2 testbed runs: sweep_walk_ns_per_page 450 \[400-500\] against sweep_ns_per_page 160 (2.81x); sweep_grown_32_ns_per_page 95 \[90-100\] against sweep_hit_ns_per_page 25 (3.80x)$' \
	"the guest's speed against tlbsim's costs, as ratios"

# --speed-from: tlbsim runs with the median of the records' own probe as
# its memory-bound costs (a stand-in tlbsim keeps its arguments).
cat >"$tmp/fake-tlbsim" <<'SH'
#!/bin/sh
if [ "$1" = list ]; then
	printf 'policies:\n  always  x\n\nparameters (--set key=value):\n  name  kind  default\n'
	for p in sweep_ns_per_page sweep_hit_ns_per_page scale; do echo "  $p  cost  1"; done
	exit 0
fi
echo "$*" >>"$FAKE_ARGS"
while [ $# -gt 1 ]; do [ "$1" = --json ] && echo '[]' >"$2"; shift; done
SH
chmod +x "$tmp/fake-tlbsim"
FAKE_ARGS=$tmp/args $predict run --tlbsim "$tmp/fake-tlbsim" --out "$tmp/sp" --cells numa-private:always \
	--speed-from "$tmp/timed.jsonl" --set scale=2 2>/dev/null || bad "run --speed-from exited non-zero"
out=$(cat "$tmp/args" 2>/dev/null)
expect ' --set sweep_ns_per_page=450 --set sweep_hit_ns_per_page=95 --set scale=2$' \
	"--speed-from sets the records' median speed as tlbsim's costs, before any --set"
if $predict run --tlbsim "$tmp/fake-tlbsim" --out "$tmp/sp" --speed-from "$tmp/records.jsonl" 2>"$tmp/err"; then
	bad "--speed-from records without the probe must fail"
else
	out=$(cat "$tmp/err")
	expect "no record in .* has the guest's speed" "--speed-from records without the probe fails, saying why"
fi

rm "$tmp/pred/numa-private.json" "$tmp/pred/hint-private.json"
if $predict table --records "$tmp/records.jsonl" --predictions "$tmp/pred" >/dev/null 2>&1; then
	bad "nothing to compare must fail"
else
	ok "nothing to compare fails"
fi
if $predict run --tlbsim /bin/false --out "$tmp/x" --cells numa-private:always,bogus:always >/dev/null 2>&1; then
	bad "an unknown cell must fail"
else
	ok "an unknown cell fails"
fi
[ "$fails" -eq 0 ]
