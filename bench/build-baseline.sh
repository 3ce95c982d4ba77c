#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Builds tlbsim as of git revision REV (default HEAD~1) in DIR (default
# /var/tmp/tlbsim-baseline-REV), from a clean export of that revision, and
# prints the path of its tlbsim: what `make bench TLBSIM_BASELINE=...`
# measures side by side with the working tree's.
# Usage: build-baseline.sh [REV [DIR]]   (run from the source tree)
set -eu
rev=${1:-HEAD~1}
sha=$(git rev-parse --short "$rev")
dir=${2:-/var/tmp/tlbsim-baseline-$sha}
if [ ! -x "$dir/tools/tlbsim/tlbsim" ]; then
	rm -rf "$dir" && mkdir -p "$dir"
	git archive "$sha" | tar -x -C "$dir"
	(cd "$dir" && ./autogen.sh >/dev/null 2>&1 && ./configure -q >/dev/null &&
	 make -s -j2 tools/tlbsim/tlbsim >/dev/null) >&2
fi
echo "$dir/tools/tlbsim/tlbsim"
