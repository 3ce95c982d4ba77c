#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Reads the console logs of measurement-kernel runs
(`scripts/testbed-measure.sh numa-filter`,
kernel/patches/measure/0005-*.patch) and prints, for each run's measured
window, how should_numa_migrate_memory() decided the remote hint faults:
let through by the early window (because the task had no preferred node
yet, or because its own numa_scan_seq was 4 or less, and of those how
many came while the mm's sequence was past 4 already, and how many the
two-stage filter would have refused), refused by the two-stage filter,
let through as private, or left to the shared-fault rules. Then when the
mm's scan sequence grew (numa_regions' @@scan_seq_ms) and per cell the
medians.

Usage: testbed-numa-filter.py LOG...
"""
import sys

from testbed_log import measured_window, print_runs_and_cells

BRANCHES = ('early_no_preferred', 'early_seq', 'early_seq_lag', 'early_other_node',
            'deny_node', 'private', 'shared')


def window_counts(path):
    """The window's verdicts by branch and the scan sequence's times, or
    None if the log has no window."""
    window = measured_window(path, 'testbed-numa-filter', 'nr_numa_filter_', BRANCHES)
    if window is None:
        return None
    c, markers = window
    # "first=N at=t1,t2,...": the sequence at the start, then when it grew.
    seqs = dict(f.split('=', 1) for f in markers.get('scan_seq_ms', '').split() if '=' in f)
    c['seq_first'] = float(seqs.get('first', -1))
    at = [float(t) / 1000 for t in seqs.get('at', '').split(',') if t.strip()]
    # When the mm's sequence passed 4, in seconds from the workers' start.
    steps = 5 - c['seq_first']
    if c['seq_first'] < 0:
        c['seq5_s'] = -1
    elif steps <= 0:
        c['seq5_s'] = 0
    else:
        c['seq5_s'] = at[int(steps) - 1] if steps <= len(at) else -1
    return c


def row(name, c, median):
    early = c['early_no_preferred'] + c['early_seq']
    seq5 = f'{c["seq5_s"]:g} s' if c['seq5_s'] >= 0 else 'not in the run'
    return (f'{name}: early window {early:g} (no preferred node {c["early_no_preferred"]:g}, '
            f'own sequence 4 or less {c["early_seq"]:g}, of them with the mm past 4 '
            f'{c["early_seq_lag"]:g}; the filter would have refused {c["early_other_node"]:g}); '
            f'filter refused {c["deny_node"]:g}; private {c["private"]:g}; '
            f'shared {c["shared"]:g}; the mm\'s sequence past 4 at {seq5}'
            + (' (median)' if median else ''))


def main(argv):
    return print_runs_and_cells(argv, __doc__.strip().splitlines()[-1], window_counts, row)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
