#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Which of thp_split's round regions share a VMA, read by read.

Reads a testbed log of tools/testbed/split_maps.sh (scripts/
testbed-ipi-where.sh): each "@@maps-begin N" .. "@@maps-end" block is one
read of the process's anonymous VMAs. A VMA made of the rounds' regions
is a private rw VMA whose size is a multiple of the region (nr_thp + 1
THPs, 10 MiB by default); a region the mprotect() pair has split around
a page at that moment is not counted. Prints one line per read (each
such VMA and how many regions it holds) and how many reads found two or
more regions in one VMA.

Usage: testbed-split-maps.py LOG [--region-mib N]
"""
import argparse
import re
import sys

BEGIN = re.compile(r"@@maps-begin (\d+)")


def reads(lines):
    """Yields (read number, [(start, end, perms)]) per maps block."""
    n, vmas = None, []
    for line in lines:
        m = BEGIN.match(line)
        if m:
            n, vmas = int(m.group(1)), []
            continue
        if line.startswith("@@maps-end"):
            if n is not None:
                yield n, vmas
            n = None
            continue
        if n is None:
            continue
        parts = line.split()
        if len(parts) < 2 or "-" not in parts[0]:
            continue
        try:
            start, end = (int(x, 16) for x in parts[0].split("-"))
        except ValueError:
            continue
        vmas.append((start, end, parts[1]))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--region-mib", type=int, default=10)
    args = ap.parse_args(argv)
    if args.region_mib < 1:
        print("testbed-split-maps: --region-mib must be at least 1", file=sys.stderr)
        return 2
    region = args.region_mib << 20
    try:
        with open(args.log, encoding="utf-8", errors="replace") as f:
            found = list(reads(f))
    except OSError as e:
        print("testbed-split-maps: %s: %s" % (args.log, e.strerror), file=sys.stderr)
        return 1
    if not found:
        print("testbed-split-maps: no @@maps blocks in %s (not a split_maps run)"
              % args.log, file=sys.stderr)
        return 1
    shared = 0
    for n, vmas in found:
        regions = [(s, e) for s, e, perms in vmas
                   if perms == "rw-p" and (e - s) % region == 0]
        sizes = [(e - s) // region for s, e in regions]
        shared += any(k > 1 for k in sizes)
        print("read %d: %s" % (n, " ".join("%x+%d" % (s, (e - s) // region)
                                            for s, e in regions) or "-"))
    print("%d of %d reads found two or more regions in one VMA" % (shared, len(found)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
