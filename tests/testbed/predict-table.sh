#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/testbed-predict.py's table on made-up testbed records and tlbsim
# results, without qemu or tlbsim: failed runs stay out of the testbed's
# median, the agreement rule (inside the range or within 30% of the
# median) says yes and no where it should, the count's interval over
# resampled tlbsim seeds spans what the draws can give, and a table with
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
