#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Where a guest's TLB flush IPIs found their targets.

Reads a testbed log from the kernel with
kernel/patches/measure/0002-*.patch (scripts/testbed-ipi-where.sh): its
"tbipi key=K n=N" lines, one table of counts per 8,192 received flushes,
are summed over the whole log (warm-up included) and each kernel address
is named by the nearest symbol at or below it in System.map.

Usage: testbed-ipi-where.py LOG SYSTEM_MAP [--top N]
"""
import argparse
import bisect
import re
import sys

SPECIAL = {1: "(not a call-function IPI)", 2: "(user mode)",
           3: "(lazy: mm still loaded)", 4: "(another mm loaded)"}
LINE = re.compile(r"tbipi key=([0-9a-f]+) n=(\d+)")


def read_symbols(path):
    """Text symbols of System.map, sorted by address."""
    addrs, names = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tTwW":
                addrs.append(int(parts[0], 16))
                names.append(parts[2])
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def name_of(key, addrs, names):
    if key in SPECIAL:
        return SPECIAL[key]
    i = bisect.bisect_right(addrs, key) - 1
    return names[i] if i >= 0 else "0x%x" % key


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("system_map")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args(argv)
    counts = {}
    try:
        f = open(args.log, encoding="utf-8", errors="replace")
    except OSError as e:
        print("testbed-ipi-where: %s: %s" % (args.log, e.strerror), file=sys.stderr)
        return 1
    with f:
        for line in f:
            m = LINE.search(line)
            if m:
                key = int(m.group(1), 16)
                counts[key] = counts.get(key, 0) + int(m.group(2))
    if not counts:
        print("testbed-ipi-where: no tbipi lines in %s (not the measurement "
              "kernel, or fewer than 8,192 flushes received)" % args.log,
              file=sys.stderr)
        return 1
    try:
        addrs, names = read_symbols(args.system_map)
    except OSError as e:
        print("testbed-ipi-where: %s: %s" % (args.system_map, e.strerror),
              file=sys.stderr)
        return 1
    by_name = {}
    for key, n in counts.items():
        name = name_of(key, addrs, names)
        by_name[name] = by_name.get(name, 0) + n
    total = sum(by_name.values())
    print("%d flushes received (logged tables only)" % total)
    for name, n in sorted(by_name.items(), key=lambda kv: -kv[1])[:args.top]:
        print("%10d  %5.1f%%  %s" % (n, 100.0 * n / total, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
