#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The mm flush-state stress test under ThreadSanitizer: the generation pair
# must run race-free and lose no flush; the naive flag must be caught
# losing one (exit 1), also without a data race (it uses atomics; its bug
# is a logic race).
# Usage: tsan-stress.sh [SRCDIR] [SECONDS]
set -u
src=$(cd "${1:-.}" && pwd)
secs=${2:-10}
bin=$(mktemp "${TMPDIR:-/var/tmp}/tlbp-tsan.XXXXXX")
trap 'rm -f "$bin"' EXIT
clang -std=gnu11 -O1 -g -fsanitize=thread -Wall -Wextra -Werror -I"$src/include" \
	"$src/tests/stress/mm_stress.c" "$src/lib/mm.c" -o "$bin" -lpthread || exit 1
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
"$bin" --seconds "$secs"; rc=$?
echo "tsan-stress: generation pair exit $rc (want 0)"
"$bin" --naive --seconds "$secs"; nrc=$?
echo "tsan-stress: naive flag exit $nrc (want 1: lost flush caught, no TSan report)"
[ $rc -eq 0 ] && [ $nrc -eq 1 ]
