#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Reads the console log of a measurement-kernel run (scripts/testbed-vma-walk.sh,
kernel/patches/measure/) and prints the NUMA scanner's calls one a line:
when (ms of the guest's clock since the first call), the calling task, the
sequence it found, what it scanned (VMA indices of /proc/PID/maps; "F" marks
the VMA it forced), how many VMAs it skipped for want of its pid bit, how
long it took and how many batched-pending flushes it drained. Then a
summary: calls, sequences completed, calls that marked the region, forced
calls, drains, hint-fault migrations (and how many came while a scan had
tlb_flush_pending up), and the guest's jiffies per millisecond of ktime.

The region is numa_regions' memory: the largest run of unnamed rw-p VMAs
of one size, consecutive in the maps list, by their total size (one VMA,
or in thp-split mode one 1 MiB VMA per THP); a run of VMAs prints as one line, and runs of
consecutive indices a call scanned print as FIRST-LAST.

Usage: testbed-vma-walk.py LOG
"""
import re
import sys

LINE = re.compile(r'tbvma (\w+) (.*)')
MAP = re.compile(r'([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)')


def parse(path):
    maps, calls, jiffy_pairs = [], [], []
    migrations = [0, 0]  # all, while a scan's tlb_flush_pending was up
    in_maps = False
    by_pid = {}
    tasks = set()
    # The main stack's markings (kt) and its hint faults that set a bit
    # (pid, page address), in log order: [('mark', kt) | ('bit', pid, addr)]
    stack_events = []
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('@@maps-begin'):
                in_maps = True
                continue
            if line.startswith('@@maps-end'):
                in_maps = False
                continue
            if in_maps:
                if line.startswith('@@task '):
                    tasks.add(line.split()[1])
                    continue
                m = MAP.match(line)
                if m:
                    maps.append((int(m.group(1), 16), int(m.group(2), 16),
                                 m.group(3), m.group(4)))
                continue
            m = LINE.search(line)
            if not m:
                continue
            tag = m.group(1)
            kv = dict(w.split('=', 1) for w in m.group(2).split() if '=' in w)
            if tag in ('SCAN', 'FORCED', 'FAULTBIT') and kv.get('pid') in tasks:
                stack = [a for a, _, _, name in maps if name == '[stack]']
                if stack and int(kv['vma'].split('-')[0], 16) == stack[0]:
                    stack_events.append(('bit', kv['pid'], int(kv['addr'], 16))
                                        if tag == 'FAULTBIT' else ('mark', kv['kt']))
            if tag == 'ENTER':
                call = {'kt': int(kv['kt']), 'pid': kv['pid'], 'seq': int(kv['seq']),
                        'scan': [], 'skips': 0, 'region': False, 'drains': 0,
                        'end': None}
                calls.append(call)
                by_pid[kv['pid']] = call
                jiffy_pairs.append((int(kv['kt']), int(kv['ms'])))
            elif tag == 'EXIT' and kv.get('pid') in by_pid:
                by_pid.pop(kv['pid'])['end'] = int(kv['kt'])
            elif tag == 'DRAIN' and kv.get('pid') in by_pid:
                by_pid[kv['pid']]['drains'] += 1
            elif tag == 'MIGRATE':
                migrations[0] += 1
                migrations[1] += kv.get('pending') == '1'
            elif tag in ('SCAN', 'FORCED', 'PID_INACTIVE') and kv.get('pid') in by_pid:
                call = by_pid[kv['pid']]
                start = int(kv['vma'].split('-')[0], 16)
                if tag == 'PID_INACTIVE':
                    call['skips'] += 1
                else:
                    call['scan'].append((tag == 'FORCED', start))
    return maps, calls, jiffy_pairs, migrations, stack_events, tasks


def anonymous(perm, name):
    """Anonymous memory: private, or shared (mode=shared's region and the
    control page, which the maps name after /dev/zero)."""
    return (perm == 'rw-p' and not name) or (perm == 'rw-s' and name == '/dev/zero (deleted)')


def find_region(maps):
    """Indices of the region: the largest run of anonymous VMAs of one
    size, consecutive in the maps list, by total size (the thread stacks
    are kept apart by their guard pages)."""
    best, best_size, run, run_size = [], 0, [], 0
    for i, (a, b, perm, name) in enumerate(maps):
        if not anonymous(perm, name):
            run, run_size = [], 0
            continue
        if not run or maps[run[-1]][1] - maps[run[-1]][0] != b - a:
            run, run_size = [], 0
        run.append(i)
        run_size += b - a
        if run_size > best_size:
            best, best_size = list(run), run_size
    return set(best)


def compress(marks):
    """A call's marks as text: a forced VMA as F<index>, runs of
    consecutive indices marked unforced as FIRST-LAST."""
    out, first, last = [], None, None

    def close():
        if first is not None:
            out.append(str(first) if first == last else '%d-%d' % (first, last))

    for forced, i in marks:
        if not forced and isinstance(i, int) and last is not None and i == last + 1:
            last = i
            continue
        close()
        first = last = None
        if forced:
            out.append('F%s' % i)
        elif isinstance(i, int):
            first = last = i
        else:
            out.append(str(i))  # a VMA the maps did not list
    close()
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: testbed-vma-walk.py LOG')
    maps, calls, jp, migrations, stack_events, tasks = parse(sys.argv[1])
    if not maps or not calls:
        sys.exit('testbed-vma-walk: no @@maps or no scanner lines in %s '
                 '(was the kernel built with kernel/patches/measure/?)' % sys.argv[1])
    index = {start: i for i, (start, _, _, _) in enumerate(maps)}
    region = find_region(maps)
    for i, (a, b, perm, name) in enumerate(maps):
        if i in region and len(region) > 1:
            if i == min(region):
                print('vma %d-%d %s %d x %d KiB  <- the region' %
                      (i, max(region), perm, len(region), (b - a) >> 10))
            continue
        print('vma %2d %s %8d KiB %s%s' % (i, perm, (b - a) >> 10, name,
                                          '  <- the region' if i in region else ''))
    # mode=shared: a second process (its tasks are not in the listing)
    # scans its own copy of the VMAs, at the same addresses.
    child = [c for c in calls if tasks and c['pid'] not in tasks]
    t0 = calls[0]['kt']
    for c in calls:
        marks = [(forced, index.get(start, '?')) for forced, start in c['scan']]
        c['region'] = sum(i in region for _, i in marks)
        took = '%5d ms' % (c['end'] - c['kt']) if c['end'] is not None else '    ? ms'
        print('%7d ms  pid %s%s  seq %d  skipped %2d  took %s  drains %4d  scanned %s' %
              (c['kt'] - t0, c['pid'], ' (child)' if c in child else '', c['seq'],
               c['skips'], took, c['drains'], ','.join(compress(marks)) or '-'))
    rate = ((jp[-1][1] - jp[0][1]) / (jp[-1][0] - jp[0][0])
            if len(jp) > 1 and jp[-1][0] > jp[0][0] else float('nan'))
    for label, mine in (('', [c for c in calls if c not in child]), ('child: ', child)):
        if mine:
            summary(label, mine, len(region))
    print('migrations %d (%d while a scan was pending), jiffies per ms of ktime %.3f' %
          (migrations[0], migrations[1], rate))
    print_main_stack(maps, stack_events)


def summary(label, calls, region_vmas):
    """One process's calls in one line."""
    print('%scalls %d, sequences begun after the first call %d, calls that marked the '
          'region %d (%d markings of its %d VMAs), calls that forced a VMA %d, '
          'VMAs skipped a call %.2f, drains %d' %
          (label, len(calls), calls[-1]['seq'] - calls[0]['seq'],
           sum(c['region'] > 0 for c in calls), sum(c['region'] for c in calls),
           region_vmas, sum(any(f for f, _ in c['scan']) for c in calls),
           sum(c['skips'] for c in calls) / len(calls), sum(c['drains'] for c in calls)))


def print_main_stack(maps, events):
    """The main thread's stack: pages its workers faulted on, bits a marking."""
    top = [b for _, b, _, name in maps if name == '[stack]']
    if not top:
        return
    pages, per_mark = {}, []
    for e in events:
        if e[0] == 'mark':
            per_mark.append(0)
        elif per_mark:
            per_mark[-1] += 1
            page = (top[0] - e[2]) >> 12
            pages.setdefault(page, set()).add(e[1])
    print('main stack: %d markings, new bits a marking %s; pages faulted on '
          '(pages below the top: the tasks): %s' %
          (len(per_mark), ','.join(map(str, per_mark)) or '-',
           '; '.join('%d: %s' % (p, ' '.join(sorted(pages[p])))
                     for p in sorted(pages)) or '-'))


if __name__ == '__main__':
    main()
