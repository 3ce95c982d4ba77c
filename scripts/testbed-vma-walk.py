#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Reads the console log of a measurement-kernel run (scripts/testbed-vma-walk.sh,
kernel/patches/measure/) and prints the NUMA scanner's calls one a line:
when (ms of the guest's clock since the first call), the calling task, the
sequence it found, what it scanned (VMA indices of /proc/PID/maps; "F" marks
the VMA it forced), how many VMAs it skipped for want of its pid bit, how
long it took and how many batched-pending flushes it drained; under a
call that drained, its drains and the hint-fault migrations of every task
(and how many of those while a scan was pending) in each fifth of its
time, where a storm shows whether it thins out. Then a
summary: calls, sequences completed, calls that marked the region, forced
calls, drains, hint-fault migrations (and how many came while a scan had
tlb_flush_pending up), and the guest's jiffies per millisecond of ktime.
In mode=shared the second process's calls are marked "(child)" (its VMAs
have the parent's addresses) and each process gets its summary line.
Last, for each process, the main thread's stack: which of its pages the
workers took hint faults on after its markings (numa_regions' main()
frame holds what every worker reads; where the frame falls in its pages
changes from run to run) and how many new pids_active bits each marking
gained. The kernel logs a fault only when it sets a bit not already set,
so both are lower bounds. The main thread's own faults are counted apart.

The region is numa_regions' memory: the largest run of anonymous VMAs
(rw-p, or rw-s of /dev/zero in mode=shared) of one size, consecutive in
the maps list, by their total size (one VMA, or in thp-split mode one
1 MiB VMA per THP); a run of VMAs prints as one line, and runs of
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
    migration_kts = []   # (kt, pending) of each
    in_maps = False
    by_pid = {}
    tasks = set()
    main_pid = None
    # Markings and bit-setting hint faults of any VMA, in log order, as
    # (tag, pid, VMA start, page address): which VMA is the main stack and
    # whose tasks are whose is known only once the listing is read.
    marks = []
    periods = {}  # pid -> [(ms, numa_scan_period)] from task_tick_numa()'s checks
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('@@maps-begin'):
                m = re.search(r'pid=(\d+)', line)
                main_pid = m.group(1) if m else None
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
            if tag in ('SCAN', 'FORCED', 'FAULTBIT') and 'vma' in kv:
                marks.append((tag, kv.get('pid'), int(kv['vma'].split('-')[0], 16),
                              int(kv['addr'], 16) if 'addr' in kv else None))
            if tag == 'TICK' and 'period' in kv:
                periods.setdefault(kv['pid'], []).append((int(kv['ms']), int(kv['period'])))
            if tag == 'ENTER':
                call = {'kt': int(kv['kt']), 'pid': kv['pid'], 'seq': int(kv['seq']),
                        'scan': [], 'skips': 0, 'region': False, 'drains': 0,
                        'drain_kts': [], 'end': None}
                calls.append(call)
                by_pid[kv['pid']] = call
                jiffy_pairs.append((int(kv['kt']), int(kv['ms'])))
            elif tag == 'EXIT' and kv.get('pid') in by_pid:
                by_pid.pop(kv['pid'])['end'] = int(kv['kt'])
            elif tag == 'DRAIN' and kv.get('pid') in by_pid:
                by_pid[kv['pid']]['drains'] += 1
                by_pid[kv['pid']]['drain_kts'].append(int(kv['kt']))
            elif tag == 'MIGRATE':
                migrations[0] += 1
                migrations[1] += kv.get('pending') == '1'
                migration_kts.append((int(kv['kt']), kv.get('pending') == '1'))
            elif tag in ('SCAN', 'FORCED', 'PID_INACTIVE') and kv.get('pid') in by_pid:
                call = by_pid[kv['pid']]
                start = int(kv['vma'].split('-')[0], 16)
                if tag == 'PID_INACTIVE':
                    call['skips'] += 1
                else:
                    call['scan'].append((tag == 'FORCED', start))
    for c in calls:
        c['migration_kts'] = [(kt, pend) for kt, pend in migration_kts
                              if c['end'] is not None and c['kt'] <= kt <= c['end']]
    return maps, calls, jiffy_pairs, migrations, marks, tasks, main_pid, periods


def ms_since(ms, ms0):
    """Jiffies in ms from @ms0 to @ms: the log's u32, which starts 300 s
    before it wraps (INITIAL_JIFFIES)."""
    d = (ms - ms0) & 0xffffffff
    return d - (1 << 32) if d >= 1 << 31 else d


def print_periods(periods, jp, rate):
    """Each task's scan period as its ticks saw it change: "period@s",
    s of ktime from the first call (its jiffies at the mean rate; with
    no rate, one call, jiffies' own ms)."""
    per_ms = rate if rate > 0 else 1.0
    for pid in sorted(periods, key=int):
        track, last = [], None
        for ms, period in periods[pid]:
            if period != last:
                track.append('%d@%.1f' % (period, ms_since(ms, jp[0][1]) / per_ms / 1000))
            last = period
        print('scan period pid %s: %s' % (pid, ' '.join(track)))


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
    maps, calls, jp, migrations, vma_events, tasks, main_pid, periods = parse(sys.argv[1])
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
    child_pids = {c['pid'] for c in calls if tasks and c['pid'] not in tasks}
    child = [c for c in calls if c['pid'] in child_pids]
    parent = [c for c in calls if c['pid'] not in child_pids]
    t0 = calls[0]['kt']
    for c in calls:
        marks = [(forced, index.get(start, '?')) for forced, start in c['scan']]
        c['region'] = sum(i in region for _, i in marks)
        took = '%5d ms' % (c['end'] - c['kt']) if c['end'] is not None else '    ? ms'
        print('%7d ms  pid %s%s  seq %d  skipped %2d  took %s  drains %4d  scanned %s' %
              (c['kt'] - t0, c['pid'], ' (child)' if c['pid'] in child_pids else '', c['seq'],
               c['skips'], took, c['drains'], ','.join(compress(marks)) or '-'))
        if c['drains'] and c['end'] is not None:
            print_pace(c)
    rate = (ms_since(jp[-1][1], jp[0][1]) / (jp[-1][0] - jp[0][0])
            if len(jp) > 1 and jp[-1][0] > jp[0][0] else float('nan'))
    for label, mine in (('', parent), ('child: ', child)):
        if mine:
            summary(label, mine, len(region))
    print('migrations %d (%d while a scan was pending), jiffies per ms of ktime %.3f' %
          (migrations[0], migrations[1], rate))
    print_periods(periods, jp, rate)
    if not tasks:
        print('main stack: the log lists no tasks (@@task), so no fault is anyone\'s')
        return
    # A child's faults: pids neither the listed tasks nor the main thread.
    theirs = {pid for _, pid, _, _ in vma_events if pid not in tasks} | child_pids
    print_main_stack('main stack', maps, vma_events, tasks - {main_pid}, main_pid)
    if child_pids:
        print_main_stack('child\'s main stack', maps, vma_events, theirs, None)


def fifths(kts, start, end):
    """How many of @kts fall in each fifth of [start, end]."""
    counts = [0] * 5
    for kt in kts:
        counts[min(4, (kt - start) * 5 // max(1, end - start))] += 1
    return ','.join(map(str, counts))


def print_pace(c):
    """A draining call's drains and the migrations during it, by fifths
    of its time."""
    mig = c['migration_kts']
    print('          by fifths: drains %s; migrations %s (%d), %s while pending (%d)' %
          (fifths(c['drain_kts'], c['kt'], c['end']),
           fifths([kt for kt, _ in mig], c['kt'], c['end']), len(mig),
           fifths([kt for kt, pend in mig if pend], c['kt'], c['end']),
           sum(pend for _, pend in mig)))


def summary(label, calls, region_vmas):
    """One process's calls in one line."""
    print('%scalls %d, sequences begun after the first call %d, calls that marked the '
          'region %d (%d markings of its %d VMAs), calls that forced a VMA %d, '
          'VMAs skipped a call %.2f, drains %d' %
          (label, len(calls), calls[-1]['seq'] - calls[0]['seq'],
           sum(c['region'] > 0 for c in calls), sum(c['region'] for c in calls),
           region_vmas, sum(any(f for f, _ in c['scan']) for c in calls),
           sum(c['skips'] for c in calls) / len(calls), sum(c['drains'] for c in calls)))


def print_main_stack(label, maps, marks, workers, main_pid):
    """A process's main stack: the pages its @workers took hint faults on
    after its markings, the new bits a marking gained, and the main
    thread's own faults apart."""
    stack = [(a, b) for a, b, _, name in maps if name == '[stack]']
    if not stack:
        print('%s: the maps list no [stack]' % label)
        return
    start, top = stack[0]
    pages, per_mark, own = {}, [], 0
    for tag, pid, vma, addr in marks:
        if vma != start:
            continue
        if tag != 'FAULTBIT':
            if pid in workers:
                per_mark.append(0)
        elif pid == main_pid:
            own += 1
        elif pid in workers and per_mark:
            per_mark[-1] += 1
            pages.setdefault((top - addr - 1) >> 12, set()).add(pid)
    print('%s: %d markings, new bits a marking %s; pages faulted on '
          '(pages below the top: the tasks): %s; the main thread\'s own faults %d' %
          (label, len(per_mark), ','.join(map(str, per_mark)) or '-',
           '; '.join('%d: %s' % (p, ' '.join(sorted(pages[p])))
                     for p in sorted(pages)) or '-', own))


if __name__ == '__main__':
    main()
