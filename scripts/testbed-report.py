#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Turn testbed serial logs into JSON records, tables and the CI gate.

  testbed-report.py record --log LOG --scenario S --policy P ...  > one JSON line
  testbed-report.py brief < one JSON line                         > a summary
  testbed-report.py table RECORDS.jsonl                           > medians table
  testbed-report.py gate RECORDS.jsonl                            exit 1 on failure

A run's status is "ok" or why it is not averaged in: boot-failed (no /init),
timeout (the guest stalled or never powered off), kernel-warning (a WARN,
BUG or oops in the console log), workload-failed, no-migration (a NUMA
workload that migrated fewer than MIN_MIGRATED pages in its window: a
ratio over a handful of pages is noise, not a measurement).

Every record also says what ran it: the host's CPU model, cores and load,
and the guest's "@@speed" line (tools/testbed/microbench.c), how fast that
host ran the guest's memory-bound work. The same kernel swept three times
slower on one host than on another, so counts that follow the sweeps
compare across hosts only with it.
"""
import argparse
import json
import os
import statistics
import sys

from testbed_log import SPEED_COSTS, kv, warnings

MIN_MIGRATED = 100

VMSTAT_KEYS = ('pgmigrate_success', 'pgmigrate_fail', 'numa_pages_migrated',
               'numa_hint_faults', 'numa_hint_faults_local', 'numa_pte_updates',
               'numa_huge_pte_updates', 'nr_tlb_remote_flush',
               'nr_tlb_remote_flush_received', 'nr_tlb_local_flush_all',
               'nr_tlb_local_flush_one', 'thp_split_page', 'thp_fault_alloc',
               'thp_migration_success', 'thp_migration_split',
               'thp_deferred_split_page', 'thp_split_pmd')


def parse_log(text):
    """Return (snaps, markers, dmesg): snaps[tag][file] = text."""
    snaps, markers, cur, buf, dmesg, in_dmesg = {}, {}, None, [], [], False
    for raw in text.replace('\r', '').split('\n'):
        # The firmware's terminal resets can share a line with a marker.
        line = raw[raw.index('@@'):] if '@@' in raw and not raw.startswith('@@') else raw
        if cur is not None:
            if line == '@@end':
                snaps.setdefault(cur[0], {})[cur[1]] = '\n'.join(buf)
                cur, buf = None, []
            else:
                buf.append(raw)
            continue
        if in_dmesg:
            if line == '@@dmesg-end':
                in_dmesg = False
            else:
                dmesg.append(raw)
            continue
        if line.startswith('@@snap '):
            _, tag, name = line.split(' ', 2)
            cur, buf = (tag, name), []
        elif line == '@@dmesg':
            in_dmesg = True
        elif line.startswith('@@'):
            key, _, rest = line[2:].partition(' ')
            markers[key] = rest
    return snaps, markers, dmesg


def vmstat(text):
    return {k: int(v) for k, v in (l.split() for l in text.splitlines() if len(l.split()) == 2)
            if v.lstrip('-').isdigit()}


def tlb_irqs(text):
    for line in text.splitlines():
        f = line.split()
        if f and f[0] == 'TLB:':
            return sum(int(x) for x in f[1:] if x.isdigit())
    return None


SPEED_KEYS = tuple(probe for probe, _ in SPEED_COSTS)


def host_cpu():
    """The host's CPU model, as /proc/cpuinfo names it (or 'unknown')."""
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return 'unknown'


def host_load():
    """The 1-minute load average: the run's own vCPUs, plus anything else
    the host was doing."""
    try:
        with open('/proc/loadavg') as f:
            return float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def host_info(markers):
    """The record's 'host' part; the guest's speed only where it measured."""
    host = {'cpu': host_cpu(), 'cores': os.cpu_count(), 'load_1min': host_load()}
    speed = {k: v for k, v in kv(markers.get('speed', '')).items()
             if k in SPEED_KEYS and isinstance(v, (int, float)) and v > 0}
    if speed:
        host['speed'] = speed
    return host


COUNTERS = '/sys/kernel/debug/tlbpolicy/counters'
COUNTERS_AFTER = COUNTERS + ' (after vmstat)'


def unhinted_bounds(b, e):
    """Bounds on the pages NUMA balancing migrated in the window that the
    library's hint path did not count (numa_pages_migrated less
    hint_migrated), from snapshots whose library counters were read
    right before and right after /proc/vmstat: each snapshot's vmstat
    count fell between its two library counts. Besides those, a
    migration still in flight at a snapshot (counted by vmstat, not yet
    by the library) moves the figure by one, at most one per CPU.
    In an order-0 cell every migration is one hint: 0 must lie within.
    @b and @e are (vmstat, counters, counters after vmstat), parsed.
    Empty for logs without the second read (before 2026-12-06)."""
    def counts(snap):
        c = (snap[0].get('numa_pages_migrated'), snap[1].get('hint_migrated'),
             snap[2].get('hint_migrated'))
        return None if None in c else c
    cb, ce = counts(b), counts(e)
    if cb is None or ce is None:
        return {}
    return {'numa_migrated_unhinted_min': (ce[0] - ce[2]) - (cb[0] - cb[1]),
            'numa_migrated_unhinted_max': (ce[0] - ce[1]) - (cb[0] - cb[2])}


def record(a):
    text = open(a.log, errors='replace').read()
    snaps, markers, dmesg = parse_log(text)
    rec = {'scenario': a.scenario, 'policy': a.policy,
           'params': {'run': a.run, 'vcpus': a.vcpus, 'workload': a.workload,
                      'args': a.args, 'migrate_policy': a.migrate,
                      'hint_fault_policy': a.hint, 'split_policy': a.split,
                      'kernel': a.kernel, 'host_seconds': a.host_seconds,
                      'qemu_rc': a.qemu_rc, 'log': a.log},
           'metrics': {}, 'host': host_info(markers)}
    if 'params' in markers:
        rec['params'].update({'workload_' + k: v for k, v in kv(markers['params']).items()})
    # How long each snapshot's reads took (tools/testbed/tb_common.c): the
    # vmstat and library counts of a window are this far apart at most.
    span = {t: kv(markers['snap-span-' + t]).get('seconds')
            for t in ('begin', 'end') if 'snap-span-' + t in markers}
    if span:
        rec['params']['snap_span_s'] = span
    warn = warnings(text)
    status = 'ok'
    if 'boot' not in markers:
        status = 'boot-failed'
    elif 'begin' not in snaps or 'end' not in snaps or 'exit' not in markers:
        status = 'timeout' if a.qemu_rc == 124 else 'workload-failed'
    elif markers['exit'].strip() != '0' or 'error' in markers:
        status = 'workload-failed'
    if warn:
        status = 'kernel-warning'
        rec['params']['warnings'] = warn[:5]
    if 'begin' in snaps and 'end' in snaps:
        b, e = snaps['begin'], snaps['end']
        m = rec['metrics']
        vb, ve = vmstat(b.get('/proc/vmstat', '')), vmstat(e.get('/proc/vmstat', ''))
        for k in VMSTAT_KEYS:
            if k in ve:
                m[k] = ve[k] - vb.get(k, 0)
        cb, ce = vmstat(b.get(COUNTERS, '')), vmstat(e.get(COUNTERS, ''))
        for k in ce:
            m[k] = ce[k] - cb.get(k, 0)
        m.update(unhinted_bounds((vb, cb, vmstat(b.get(COUNTERS_AFTER, ''))),
                                 (ve, ce, vmstat(e.get(COUNTERS_AFTER, '')))))
        tb, te = tlb_irqs(b.get('/proc/interrupts', '')), tlb_irqs(e.get('/proc/interrupts', ''))
        if tb is not None and te is not None:
            m['tlb_irqs'] = te - tb
        m['migrated_pages'] = m.get('pgmigrate_success', 0)
        if m['migrated_pages']:
            m['tlb_irqs_per_migrated_page'] = round(m.get('tlb_irqs', 0) / m['migrated_pages'], 5)
        if 'result' in markers:
            m.update(kv(markers['result']))
        if m.get('splits'):
            m['tlb_irqs_per_split'] = round(m.get('tlb_irqs', 0) / m['splits'], 3)
        if status == 'ok' and a.workload == 'numa_regions' and \
                m['migrated_pages'] < MIN_MIGRATED:
            status = 'no-migration'
    rec['status'] = status
    print(json.dumps(rec, sort_keys=False))


def brief(_a):
    r = json.loads(sys.stdin.readline())
    m = r['metrics']
    keys = ('migrated_pages', 'tlb_irqs', 'tlb_irqs_per_migrated_page',
            'scanner_pending_flushes', 'protnone_batched_unmaps', 'splits',
            'split_ms_per_thp', 'tlb_irqs_per_split')
    speed = r.get('host', {}).get('speed', {})
    print('%s %ss: ' % (r['status'], r['params']['host_seconds']) +
          ' '.join('%s=%s' % (k, m[k]) for k in keys if k in m) +
          ''.join(' guest_%s=%s' % (k, speed[k]) for k in SPEED_KEYS[:1] if k in speed))


def load(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


COLUMNS = ('tlb_irqs_per_migrated_page', 'migrated_pages', 'tlb_irqs',
           'scanner_pending_flushes', 'protnone_batched_unmaps',
           'protnone_unbatched_unmaps', 'hint_mapped_before_migrate',
           'split_ms_per_thp', 'tlb_irqs_per_split', 'splits')


def fmt(v):
    if isinstance(v, float) and v != int(v):
        return '%.4g' % v
    return '%d' % v


def median_range(vals):
    """A table cell: median [min-max], or - when there is nothing."""
    if not vals:
        return '-'
    return '%s [%s-%s]' % (fmt(statistics.median(vals)), fmt(min(vals)), fmt(max(vals)))


def cells(recs):
    out = {}
    for r in recs:
        # Records written before MIN_MIGRATED existed only caught zero.
        if r['status'] == 'ok' and r['params'].get('workload') == 'numa_regions' and \
                r['metrics'].get('migrated_pages', 0) < MIN_MIGRATED:
            r['status'] = 'no-migration'
        out.setdefault((r['scenario'], r['policy']), []).append(r)
    return out


def table(a):
    recs = load(a.records)
    print('| scenario | policy | ok/runs | ' + ' | '.join(COLUMNS) + ' |')
    print('|' + '---|' * (3 + len(COLUMNS)))
    for (s, p), rs in cells(recs).items():
        ok = [r for r in rs if r['status'] == 'ok']
        row = ['%s' % s, p, '%d/%d' % (len(ok), len(rs))]
        for c in COLUMNS:
            vals = [r['metrics'][c] for r in ok if c in r['metrics']]
            row.append(median_range(vals))
        print('| ' + ' | '.join(row) + ' |')
    print(speed_line(recs))
    bad = [r for r in recs if r['status'] != 'ok']
    for r in bad:
        print('not averaged: %s %s run %s: %s' % (r['scenario'], r['policy'],
                                                  r['params']['run'], r['status']))


def speed_line(recs):
    """What ran the records: hosts, and the guest's speed over the runs
    that measured it (good or not: the host's speed is not the run's)."""
    hosts = sorted({'%s, %s cores' % (r['host']['cpu'], r['host']['cores'])
                    for r in recs if 'host' in r})
    timed = [r['host']['speed'] for r in recs if 'speed' in r.get('host', {})]
    if not timed:
        return 'guest speed: not recorded (%d run%s)' % (len(recs), 's' if len(recs) != 1 else '')
    parts = ['%s %s' % (k, median_range([t[k] for t in timed if k in t]))
             for k in SPEED_KEYS if any(k in t for t in timed)]
    return 'guest speed over %d of %d runs: %s; host: %s' % (
        len(timed), len(recs), ', '.join(parts), '; '.join(hosts))


# The scanner's work per task_numa_work() scan (patch 0006): label, and the
# value of one record, or None where the record lacks a counter.
def _per_scan(m, key, scale=1.0):
    n = m.get('numa_scan_passes')
    return m[key] / n / scale if n and key in m else None


SCANNER_ROWS = (
    ('`task_numa_work()` scans (`numa_scan_passes`)', lambda m: m.get('numa_scan_passes')),
    ('scan sequences (`window_scan_seqs`)', lambda m: m.get('window_scan_seqs')),
    ('sequences the scans completed (`numa_scan_seq_wraps`)',
     lambda m: m.get('numa_scan_seq_wraps')),
    ('scans that forced a skipped VMA (`numa_scan_forced`)', lambda m: m.get('numa_scan_forced')),
    ('VMAs skipped a scan, not faulted on by the task (`numa_scan_pid_skips`)',
     lambda m: _per_scan(m, 'numa_scan_pid_skips')),
    ('runtime a scan, ms (`numa_scan_runtime_ns`)',
     lambda m: _per_scan(m, 'numa_scan_runtime_ns', 1e6)),
    ('wall time a scan, ms', lambda m: _per_scan(m, 'numa_scan_wall_ns', 1e6)),
    ('final flush of a `change_prot_numa()`, ms',
     lambda m: m['numa_prot_flush_ns'] / m['numa_prot_calls'] / 1e6
     if m.get('numa_prot_calls') else None),
    ('scanner batched-pending drains a scan', lambda m: _per_scan(m, 'scanner_pending_flushes')),
    ('workers\' runtime over their wall time (`window_worker_runtime_ms`)',
     lambda m: m['window_worker_runtime_ms'] / (m['_threads'] * m['_window_s'] * 1e3)
     if m.get('_threads') and m.get('_window_s') and 'window_worker_runtime_ms' in m
     else None),
    ('guest jiffies per second over HZ (`window_tick_rate`)', lambda m: m.get('window_tick_rate')),
    ('share of the window spent scanning',
     lambda m: m['numa_scan_wall_ns'] / (m['_window_s'] * 1e9)
     if m.get('_window_s') and 'numa_scan_wall_ns' in m else None),
)


def scanner(a):
    by_policy = {}
    for r in load(a.records):
        if r['status'] == 'ok' and 'numa_scan_passes' in r['metrics']:
            m = dict(r['metrics'])
            m['_window_s'] = float(r['params'].get('workload_window', 0))
            m['_threads'] = int(r['params'].get('workload_moving', 0)) + \
                int(r['params'].get('workload_stable', 0))
            by_policy.setdefault(r['policy'], []).append(m)
    pols = sorted(by_policy)
    print('| | ' + ' | '.join('%s (%d run%s)' % (p, len(by_policy[p]),
                                                 '' if len(by_policy[p]) == 1 else 's')
                              for p in pols) + ' |')
    print('|---|' + '---|' * len(pols))
    for label, get in SCANNER_ROWS:
        row = [label]
        for p in pols:
            vals = [v for v in (get(m) for m in by_policy[p]) if v is not None]
            row.append(median_range(vals))
        print('| ' + ' | '.join(row) + ' |')


def gate(a):
    recs = cells(load(a.records))
    always = [r for r in recs.get(('numa-private', 'always'), []) if r['status'] == 'ok']
    skip = [r for r in recs.get(('numa-private', 'skip-single'), []) if r['status'] == 'ok']
    failures = []

    def check(ok, what):
        print('gate: %s: %s' % ('PASS' if ok else 'FAIL', what))
        if not ok:
            failures.append(what)

    check(len(always) >= 2 and len(skip) >= 2,
          'at least 2 good runs per policy (always %d, skip-single %d)' % (len(always), len(skip)))
    if always and skip:
        ma = statistics.median(r['metrics'].get('tlb_irqs_per_migrated_page', 0) for r in always)
        ms = statistics.median(r['metrics'].get('tlb_irqs_per_migrated_page', 0) for r in skip)
        check(ms <= ma / 10, 'skip-single median TLB irqs/migrated page %.5f <= always %.5f / 10'
              % (ms, ma))
        for r in skip:
            m = r['metrics']
            check(m.get('scanner_pending_flushes', -1) == 0 and
                  m.get('protnone_batched_unmaps', -1) == 0 and
                  m.get('migrated_pages', 0) >= 10000,
                  'skip-single run %s: scanner flushes %s, batched PROT_NONE unmaps %s, '
                  'migrated %s (want 0, 0, >= 10000)' % (
                      r['params']['run'], m.get('scanner_pending_flushes'),
                      m.get('protnone_batched_unmaps'), m.get('migrated_pages')))
        ignited = statistics.median(r['metrics'].get('scanner_pending_flushes', 0) for r in always)
        check(ignited > 0, 'always control ignited: median scanner flushes %s > 0' % ignited)
    for r in always + skip:
        # Every NUMA migration of an order-0 page goes through the
        # library's hint path: the series misses no call site.
        m = r['metrics']
        lo, hi = m.get('numa_migrated_unhinted_min'), m.get('numa_migrated_unhinted_max')
        slack = r['params'].get('vcpus', 0)
        check(lo is not None and lo - slack <= 0 <= hi + slack,
              '%s run %s: pages migrated past the library\'s hint path in [%s, %s] '
              '(+-%d in flight) holds 0' % (r['policy'], r['params']['run'], lo, hi, slack))
    sys.exit(1 if failures else 0)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('record')
    for opt in ('log', 'scenario', 'policy', 'migrate', 'hint', 'split', 'workload',
                'args', 'kernel'):
        r.add_argument('--' + opt, required=True)
    for opt in ('run', 'qemu-rc', 'host-seconds', 'vcpus'):
        r.add_argument('--' + opt, type=int, required=True)
    sub.add_parser('brief')
    t = sub.add_parser('table')
    t.add_argument('records')
    g = sub.add_parser('gate')
    g.add_argument('records')
    sc = sub.add_parser('scanner')
    sc.add_argument('records')
    a = ap.parse_args()
    {'record': record, 'brief': brief, 'table': table, 'gate': gate,
     'scanner': scanner}[a.cmd](a)


if __name__ == '__main__':
    main()
