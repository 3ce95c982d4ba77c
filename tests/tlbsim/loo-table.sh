#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# scripts/tlbsim-loo.py's table on made-up fits, without running tlbsim:
# a prediction inside the published range is an error of 0 and "yes", one
# outside is measured from the nearer end, and a missing or malformed
# input is a one-line error with a non-zero exit.
set -u
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
loo="python3 ${top_srcdir:-.}/scripts/tlbsim-loo.py"
. "${top_srcdir:-.}/tests/check-helpers.sh"

cat >"$tmp/targets.json" <<'JSON'
{"_source": "made up", "scan_pass_ms_mean": 90, "throughput_loss_pct": [13.0, 16.5]}
JSON
iv() { # metric median min max
	printf '{"intervals": {"always": {"%s": {"median": %s, "min": %s, "max": %s}}}}\n' "$@"
}
iv scan_pass_ms_mean 99 95 110 >"$tmp/scan_pass_ms_mean.compare.json"
iv throughput_loss_pct 14 9 17 >"$tmp/throughput_loss_pct.compare.json"
out=$($loo table "$tmp") || bad "table exited non-zero"
echo "$out" | grep -q '| scan_pass_ms_mean | 90 | 99 \[95, 110\] | +10% | no |' \
	&& ok "a single value: the error of the median" || bad "single value: $out"
echo "$out" | grep -q '| throughput_loss_pct | 13-16.5 | 14 \[9, 17\] | +0% | yes |' \
	&& ok "inside the range: no error" || bad "range: $out"
iv throughput_loss_pct 26.4 20 30 >"$tmp/throughput_loss_pct.compare.json"
$loo table "$tmp" | grep -q '| throughput_loss_pct | 13-16.5 | 26.4 \[20, 30\] | +60% | no |' \
	&& ok "outside the range: from the nearer end" || bad "nearer end"
rm "$tmp/scan_pass_ms_mean.compare.json"
if err=$($loo table "$tmp" 2>&1 >/dev/null); then
	bad "a missing fit must fail"
else
	[ "$(echo "$err" | wc -l)" -eq 1 ] && ok "a missing fit fails in one line" || bad "message: $err"
fi
printf '{"only": 1}' >"$tmp/one.json"
if $loo run --tlbsim /bin/false --targets "$tmp/one.json" --out "$tmp/x" >/dev/null 2>&1; then
	bad "one figure must fail"
else
	ok "one figure is not enough to leave one out"
fi
if $loo run --tlbsim /bin/false --targets "$tmp/targets.json" --out "$tmp/y" >/dev/null 2>&1; then
	bad "a failing fit must fail"
else
	ok "a failing fit fails"
fi
[ "$fails" -eq 0 ]
