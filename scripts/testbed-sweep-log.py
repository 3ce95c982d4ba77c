#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Reads numa_regions' @@sweep_log lines from testbed console logs and
prints, for each moving worker, when its vCPU's TLB held its slice.

A worker logs its sweeps in bins of CLOCK_MONOTONIC (the kernel's ktime,
so a measurement kernel's log lines up with them): the fastest sweep that
ended in each bin, in us, 0 where none did (the first logs of 2026-12-07
wrote "count:fastest" a bin; both are read). On the testbed's qemu TCG guest
a sweep whose translations the vCPU's software TLB holds writes a page in
a few ns, one that walks the page table on every page in 20 to 40 times
that; a bin "held" its slice when its fastest sweep is within 4
times the worker's fastest of the run (no absolute threshold: the host's
speed varies). A worker whose TLB holds its slice sees a PROT_NONE mark
only once the scanner's flush (or another full flush) reaches its CPU;
one that walks meets the mark as soon as it is written.

For each worker: its fastest sweep, and per STEP seconds (default 2) the
held bins out of the bins in which a sweep ended ("-" when none did: the
worker was in one long sweep, stalled in faults). Then per log the share
of held bins in the first STEP seconds and over the run.

Usage: testbed-sweep-log.py [--step S] LOG...
"""
import os
import sys

from testbed_log import marker

HELD_WITHIN = 4.0


def sweep_logs(path):
    """[(worker, start_ms, bin_ms, [(count, fastest_us)])] of @path."""
    logs = []
    with open(path, errors='replace') as f:
        for raw in f:
            line = marker(raw.rstrip('\n'))
            if not line or not line.startswith('@@sweep_log '):
                continue
            kv = dict(w.split('=', 1) for w in line.split()[1:] if '=' in w)
            try:
                bins = [bin_of(b) for b in kv.get('bins', '').split(',') if b]
                bin_ms = int(kv['bin_ms'])
                if bin_ms <= 0:
                    raise ValueError('bin_ms=%d' % bin_ms)
                logs.append((int(kv['worker']), float(kv['start_ms']), bin_ms, bins))
            except (KeyError, ValueError) as e:
                raise SystemExit('testbed-sweep-log: %s: a malformed @@sweep_log line (%s)'
                                 % (path, e))
    return sorted(logs)


def bin_of(text):
    """(sweeps ended, fastest us) of one bin: "count:us", or "us" alone,
    where 0 means none ended."""
    if ':' in text:
        count, fastest = text.split(':')
        return float(count), float(fastest)
    fastest = float(text)
    return (1.0 if fastest > 0 else 0.0), fastest


def held_bins(bins):
    """Per bin: None if no sweep ended in it, else whether it held."""
    fastest = min((f for c, f in bins if c > 0), default=None)
    if fastest is None:
        return [None] * len(bins)
    return [None if c <= 0 else f <= HELD_WITHIN * fastest for c, f in bins]


def report(path, step_s):
    logs = sweep_logs(path)
    name = os.path.basename(path)
    if not logs:
        print('%s: no @@sweep_log lines (a numa_regions older than the log)' % name)
        return False
    first = [0, 0]
    whole = [0, 0]
    for worker, start_ms, bin_ms, bins in logs:
        held = held_bins(bins)
        per = max(1, int(round(step_s * 1000 / bin_ms)))
        cols = []
        for s in range(0, len(held), per):
            chunk = [h for h in held[s:s + per] if h is not None]
            cols.append('%d/%d' % (sum(chunk), len(chunk)) if chunk else '-')
            if s == 0:
                first[0] += sum(chunk)
                first[1] += len(chunk)
        known = [h for h in held if h is not None]
        whole[0] += sum(known)
        whole[1] += len(known)
        fastest = min((f for c, f in bins if c > 0), default=0)
        print('%s: worker %d from %.0f ms, fastest sweep %.0f us; held per %g s: %s'
              % (name, worker, start_ms, fastest, step_s, ' '.join(cols)))
    print('%s: held in the first %g s %s, over the run %s'
          % (name, step_s, share(first), share(whole)))
    return True


def share(pair):
    held, bins = pair
    return '%d of %d bins (%.0f%%)' % (held, bins, 100.0 * held / bins) if bins else 'no bins'


def main(argv):
    step = 2.0
    if len(argv) > 2 and argv[1] == '--step':
        try:
            step = float(argv[2])
        except ValueError:
            step = 0
        if step <= 0:
            raise SystemExit('testbed-sweep-log: --step wants seconds above 0, not %r' % argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) < 2:
        raise SystemExit(__doc__.strip().splitlines()[-1])
    ok = False
    for path in argv[1:]:
        ok |= report(path, step)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
