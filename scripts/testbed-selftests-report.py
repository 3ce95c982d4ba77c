#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Turn the console logs of `make testbed-selftests` into records, a
test x policy table and a verdict.

  testbed-selftests-report.py record --log LOG --settings A+B ...  > one JSON line
  testbed-selftests-report.py brief < one JSON line                 > a summary
  testbed-selftests-report.py table RECORDS.jsonl                   > markdown table
  testbed-selftests-report.py check RECORDS.jsonl                   exit 1 on failure

A test's status comes from its exit code, as kselftest defines it: 0 pass,
4 (KSFT_SKIP) skip, anything else fail; a test the guest's timeout killed is
"timeout". Its TAP totals and, for a skip, the reason it printed are kept.
"""
import argparse
import json
import re
import sys

from testbed_log import kv, marker, warnings

KSFT_SKIP = 4
# Tests whose exit code is their number of failed cases, not a kselftest
# code: khugepaged exits 4 after four failures, which is not a skip.
EXIT_IS_FAILURE_COUNT = ('khugepaged',)
TIMEOUT_RCS = (124, 143)  # timeout(1), or its SIGTERM as busybox reports it
TOTALS_RE = re.compile(r'# Totals: pass:(\d+) fail:(\d+) xfail:(\d+) xpass:(\d+) skip:(\d+) error:(\d+)')
# khugepaged's own format: "What it checks... <red>Fail<reset>".
RED_FAIL_RE = re.compile(r'^(.*?)\.*\s*\x1b\[31mFail')
TAP_RE = re.compile(r'^(not )?ok \d+ (.*?)(?:\s+#\s*(SKIP|XFAIL)\b(.*))?$')


def parse_test(lines):
    """TAP totals, failed and skipped cases, and a skip reason."""
    tap = {'pass': 0, 'fail': 0, 'skip': 0}
    failed, skipped, totals = [], [], None
    for l in lines:
        m = TOTALS_RE.search(l)
        if m:
            totals = dict(zip(('pass', 'fail', 'xfail', 'xpass', 'skip', 'error'),
                              map(int, m.groups())))
            continue
        m = RED_FAIL_RE.match(l.strip())
        if m:
            failed.append(m.group(1))
            tap['fail'] += 1
            continue
        if '\x1b[32mOK' in l:
            tap['pass'] += 1
            continue
        m = TAP_RE.match(l.strip())
        if not m:
            continue
        if m.group(3) == 'SKIP':
            tap['skip'] += 1
            skipped.append((m.group(2) + ' ' + (m.group(4) or '')).strip())
        elif m.group(1):
            tap['fail'] += 1
            failed.append(m.group(2))
        else:
            tap['pass'] += 1
    if totals:
        tap = {k: totals[k] for k in ('pass', 'fail', 'skip')}
        tap['error'] = totals['error']
    reason = None
    text = [l.strip() for l in lines if l.strip()]
    for l in reversed(text):
        if re.search(r'skip|not available|not supported|unable|no such', l, re.I):
            reason = l[:160]
            break
    return tap, failed[:10], skipped[:10], reason


def record(a):
    text = open(a.log, errors='replace').read()
    lines = text.replace('\r', '').split('\n')
    tests, integrity, mismatches = {}, {}, []
    booted = done = False
    cur, buf = None, []
    for raw in lines:
        m = marker(raw)
        if cur is not None and (m is None or not m.startswith('@@selftest name=')):
            buf.append(raw)
        if m is None:
            continue
        if m.startswith('@@boot '):
            booted = True
        elif m == '@@selftests-done':
            done = True
        elif m.startswith('@@selftest-begin '):
            cur, buf = kv(m[len('@@selftest-begin '):])['name'], []
        elif m.startswith('@@selftest '):
            r = kv(m[len('@@selftest '):])
            name, rc = r['name'], int(r['rc'])
            tap, failed, skipped, reason = parse_test(buf)
            status = ('pass' if rc == 0 else
                      'skip' if rc == KSFT_SKIP and name not in EXIT_IS_FAILURE_COUNT else
                      'timeout' if rc in TIMEOUT_RCS else 'missing' if rc == 127 else 'fail')
            t = {'status': status, 'rc': rc, 'seconds': r.get('seconds'), 'tap': tap}
            if failed:
                t['failed'] = failed
            if skipped:
                t['skipped_cases'] = skipped
            if status == 'skip':
                t['reason'] = reason or 'the test gave no reason'
            tests[name] = t
            cur, buf = None, []
        elif m.startswith('@@integrity-summary '):
            integrity = kv(m[len('@@integrity-summary '):])
        elif m.startswith('@@integrity-mismatch '):
            mismatches.append(m[len('@@integrity-mismatch '):])
    warn = warnings(text)
    status = 'ok'
    if not booted:
        status = 'boot-failed'
    elif not done:
        status = 'timeout' if a.qemu_rc == 124 else 'incomplete'
    if warn:
        status = 'kernel-warning'
    rec = {'settings': a.settings.split('+'), 'migrate_policy': a.migrate,
           'hint_fault_policy': a.hint, 'split_policy': a.split, 'kernel': a.kernel,
           'qemu_rc': a.qemu_rc, 'host_seconds': a.host_seconds, 'log': a.log,
           'min_migrations': a.min_migrations, 'status': status, 'tests': tests,
           'integrity': integrity}
    excluded = [c for c in a.exclude.split(',') if c]
    if excluded:
        rec['excluded_cases'] = excluded
    if mismatches:
        rec['mismatches'] = mismatches[:20]
    if warn:
        rec['warnings'] = warn[:5]
    missing = [t for t in a.tests.split(',') if t and t not in tests]
    if 'integrity' not in tests:
        missing.append('integrity')
    if missing:
        rec['missing'] = missing
    print(json.dumps(rec))


def problems(r):
    """Why a boot's record fails the check; empty when it passes."""
    out = []
    if r['status'] != 'ok':
        out.append('boot: %s%s' % (r['status'], (': ' + r['warnings'][0]) if r.get('warnings') else ''))
    for name, t in sorted(r['tests'].items()):
        if t['status'] not in ('pass', 'skip'):
            out.append('%s: %s (rc %s%s)' % (name, t['status'], t['rc'],
                                           ', failed: ' + ', '.join(t['failed']) if t.get('failed') else ''))
    for name in r.get('missing', []):
        out.append('%s: did not run' % name)
    i = r['integrity']
    if i:
        if i.get('mismatches', 0):
            out.append('integrity: %d mismatches, first: %s' % (i['mismatches'], r.get('mismatches', ['?'])[0]))
        if i.get('pgmigrate_success', 0) < r['min_migrations']:
            out.append('integrity: %s migrations, fewer than %d' % (i.get('pgmigrate_success'), r['min_migrations']))
        if not i.get('child_ok', 0):
            out.append('integrity: the second process failed')
    return out


def brief(_a):
    r = json.loads(sys.stdin.readline())
    counts = {}
    for t in r['tests'].values():
        counts[t['status']] = counts.get(t['status'], 0) + 1
    i = r['integrity']
    print('%s %ss: %s; integrity %s mismatches over %s migrations%s' % (
        r['status'], r['host_seconds'],
        ', '.join('%d %s' % (v, k) for k, v in sorted(counts.items())),
        i.get('mismatches', '?'), i.get('pgmigrate_success', '?'),
        ('; ' + '; '.join(problems(r))) if problems(r) else ''))


def load(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def cell(t):
    if t is None:
        return 'not run'
    tap = t['tap']
    n = tap['pass'] + tap['fail'] + tap['skip']
    if t['status'] == 'pass':
        return 'pass' + (' %d/%d' % (tap['pass'], n) if n else '') + \
            (' (%d skip)' % tap['skip'] if tap['skip'] else '')
    if t['status'] == 'skip':
        return 'skip'
    return '**%s**' % t['status'].upper()


def table(a):
    recs = load(a.records)
    cols = [(s, r) for r in recs for s in r['settings']]
    names = sorted({n for r in recs for n in r['tests'] if n != 'integrity'})
    print('| test | ' + ' | '.join(s for s, _ in cols) + ' |')
    print('|---' * (len(cols) + 1) + '|')
    for n in names:
        print('| %s | ' % n + ' | '.join(cell(r['tests'].get(n)) for _, r in cols) + ' |')
    rows = (('integrity', lambda r: cell(r['tests'].get('integrity'))),
            ('mismatches', lambda r: str(r['integrity'].get('mismatches', '-'))),
            ('pages verified', lambda r: str(r['integrity'].get('verified', '-'))),
            ('migrations (pgmigrate_success)', lambda r: str(r['integrity'].get('pgmigrate_success', '-'))),
            ('of them by NUMA balancing', lambda r: str(r['integrity'].get('numa_pages_migrated', '-'))),
            ('THP splits (thp_split_page)', lambda r: str(r['integrity'].get('thp_split_page', '-'))),
            ('kernel warnings', lambda r: str(len(r.get('warnings', [])))),
            ('minutes (host clock)', lambda r: '%.1f' % (r['host_seconds'] / 60)))
    for label, f in rows:
        print('| %s | ' % label + ' | '.join(f(r) for _, r in cols) + ' |')
    shared = [r['settings'] for r in recs if len(r['settings']) > 1]
    for s in shared:
        print('\n%s: one boot (the same kernel state).' % ', '.join(s))
    skips = {(n, t['reason']) for r in recs for n, t in r['tests'].items() if t['status'] == 'skip'}
    for n, why in sorted(skips):
        print('\n%s skipped: %s' % (n, why))
    excluded = sorted({c for r in recs for c in r.get('excluded_cases', [])})
    if excluded:
        print('\nLeft out by request (--exclude): %s.' % ', '.join(excluded))


def check(a):
    bad = [(r['settings'], p) for r in load(a.records) for p in problems(r)]
    for s, p in bad:
        print('testbed-selftests: %s: %s' % ('+'.join(s), p), file=sys.stderr)
    if bad:
        sys.exit(1)
    print('testbed-selftests: every test passed or skipped with a reason, no data mismatch')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('record')
    r.add_argument('--log', required=True)
    r.add_argument('--settings', required=True)
    r.add_argument('--migrate', required=True)
    r.add_argument('--hint', required=True)
    r.add_argument('--split', required=True)
    r.add_argument('--tests', default='')
    r.add_argument('--exclude', default='')
    r.add_argument('--min-migrations', type=int, default=100000)
    r.add_argument('--qemu-rc', type=int, default=0)
    r.add_argument('--host-seconds', type=int, default=0)
    r.add_argument('--kernel', default='')
    r.set_defaults(fn=record)
    sub.add_parser('brief').set_defaults(fn=brief)
    for name, fn in (('table', table), ('check', check)):
        p = sub.add_parser(name)
        p.add_argument('records')
        p.set_defaults(fn=fn)
    a = ap.parse_args()
    a.fn(a)


if __name__ == '__main__':
    main()
