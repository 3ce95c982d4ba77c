#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Build the libFuzzer harnesses (clang, ASan + UBSan) and run each for
# SECONDS from the committed seed corpus, all at once, printing executions
# per second and total executions. A broken invariant or a sanitizer
# report fails.
# Usage: fuzz.sh [SRCDIR] [SECONDS]
set -eu
src=$(cd "${1:-.}" && pwd)
secs=${2:-60}
work=$(mktemp -d "${TMPDIR:-/var/tmp}/tlbp-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
lib=$(ls "$src"/lib/*.c)
harnesses="batch policies"
for h in $harnesses; do
	clang -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -Wall -Wextra -Werror -I"$src/include" \
		"$src/tests/fuzz/fuzz_$h.c" $lib -o "$work/fuzz_$h"
	# Run on a copy: new inputs found in CI stay out of the source tree.
	mkdir -p "$work/corpus_$h"
	cp "$src/tests/fuzz/corpus/$h/"* "$work/corpus_$h/" 2>/dev/null || true
done
# The harnesses run side by side, each on one core, for SECONDS each.
for h in $harnesses; do
	(if "$work/fuzz_$h" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$work/${h}_" "$work/corpus_$h" >"$work/$h.log" 2>&1
	 then echo 0; else echo 1; fi >"$work/$h.rc") &
done
wait
status=0
for h in $harnesses; do
	if [ "$(cat "$work/$h.rc")" -eq 0 ]; then
		result=ok
	else
		result=FAILED
		status=1
		grep -E 'invariant|ERROR|SUMMARY' "$work/$h.log" | head -n 20
		ls "$work/${h}_"crash-* 2>/dev/null | head -n 3
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$h.log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$h.log")
	echo "fuzz: fuzz_$h: $result, ${execs:-0} executions, ${rate:-0} exec/s in $secs s"
done
exit $status
