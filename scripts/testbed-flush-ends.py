#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Reads the console logs of measurement-kernel runs
(`scripts/testbed-measure.sh flush-ends`, kernel/patches/measure/0003-*.patch) and
prints, for each run's measured window, how the TLB flushes that other
CPUs received ended: the request's generation already reached (stale),
the mm's generation already reached (current), a ranged flush, a full
flush, or nothing to do for want of the mm (another mm or init_mm
loaded, lazy). Then per cell the medians and what they mean for a CPU
of the mm: full flushes it made, received and on switch, against the
flushes it received.

Usage: testbed-flush-ends.py LOG...
"""
import sys

from testbed_log import print_runs_and_cells, window_snapshots

ENDS = ('other_mm', 'kernel_mm', 'lazy', 'stale', 'current', 'flush_one', 'flush_all')
KEYS = ('nr_tlb_remote_flush', 'nr_tlb_remote_flush_received', 'nr_tlb_local_flush_all',
        'nr_tlb_switch_flush_all') + tuple('nr_tlb_received_' + e for e in ENDS)


def window_counts(path):
    """The window's deltas of KEYS, or None if the log has no window."""
    snaps = window_snapshots(path)
    if snaps is None:
        return None
    vb, ve, _ = snaps
    if 'nr_tlb_received_flush_all' not in ve:
        raise SystemExit(f'testbed-flush-ends: {path}: no nr_tlb_received_* counters '
                         '(not the measurement kernel)')
    return {k: ve.get(k, 0) - vb.get(k, 0) for k in KEYS}


def row(name, c, median=False):
    received = c['nr_tlb_remote_flush_received']
    # A run's ends add up to what it received; medians need not.
    ends = '' if median else ' (ended %d)' % sum(c['nr_tlb_received_' + e] for e in ENDS)
    share = ' '.join(f"{e} {c['nr_tlb_received_' + e]}" for e in ENDS)
    full = c['nr_tlb_received_flush_all'] / received if received else 0.0
    return (f'{name}: sent {c["nr_tlb_remote_flush"]} received {received}'
            f'{ends}: {share}; full flushes per received {full:.3f}; '
            f'local full {c["nr_tlb_local_flush_all"]}, '
            f'on switch {c["nr_tlb_switch_flush_all"]}')


def main(argv):
    return print_runs_and_cells(argv, __doc__.strip().splitlines()[-1], window_counts, row)

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
