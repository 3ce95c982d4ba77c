#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Reads the console logs of measurement-kernel runs
(`scripts/testbed-measure.sh cpu-moves`, kernel/patches/measure/0004-*.patch)
and prints, for each run's measured window, what moved the workload's
threads between CPUs: a wakeup placing a sleeper elsewhere (a moving
thread's node switch is one: it sleeps in sched_setaffinity() while the
stopper sets where it wakes), a load balance pulling a runnable task (by
the puller: newly idle, idle, busy), the stopper moving a queued task, or
NUMA balancing moving or swapping tasks. Then numa_regions' own counts:
each group's moves, sleeps and preemptions, sweeps and node switches, and
how long some node held more workers than CPUs, and how late past their
due time the moving workers' switches came. Then per cell the medians.

Usage: testbed-cpu-moves.py LOG...
"""
import statistics
import sys

from testbed_log import kv, measured_window, print_runs_and_cells

CAUSES = ('wakeup', 'balance_newidle', 'balance_idle', 'balance_busy', 'stopper',
          'numa_task', 'numa_swap')
GROUPS = ('moving', 'stable')
OWN = tuple(f'window_{g}_{k}' for g in GROUPS for k in ('cpu_moves', 'sleeps', 'preemptions')) \
    + ('window_moving_passes', 'window_stable_passes', 'switches', 'window_overloaded_s')


def window_counts(path):
    """The window's moves by cause and the workload's own counts, or None
    if the log has no window."""
    window = measured_window(path, 'testbed-cpu-moves', 'nr_sched_move_', CAUSES)
    if window is None:
        return None
    c, markers = window
    own = kv(markers.get('result', ''))
    c.update({k: own.get(k, -1) for k in OWN})
    late = sorted(float(v) for v in markers.get('switch_late_ms', '').replace(';', ',').split(',')
                  if v.strip())
    c['late_median_ms'] = statistics.median(late) if late else -1
    c['late_max_ms'] = late[-1] if late else -1
    c['late_over_100ms'] = sum(v >= 100 for v in late) if late else -1
    return c


def row(name, c, _median=False):
    causes = ' '.join(f'{k} {c[k]:g}' for k in CAUSES)
    own = '; '.join(f'{g}: moves {c[f"window_{g}_cpu_moves"]:g} sleeps '
                    f'{c[f"window_{g}_sleeps"]:g} preemptions '
                    f'{c[f"window_{g}_preemptions"]:g} sweeps '
                    f'{c[f"window_{g}_passes"]:g}' for g in GROUPS)
    return (f'{name}: user moves by cause: {causes} (total {sum(c[k] for k in CAUSES):g}); '
            f'{own}; node switches (whole run) {c["switches"]:g}; a node over its CPUs '
            f'{c["window_overloaded_s"]:g} s; switches late by median {c["late_median_ms"]:g} ms, '
            f'at most {c["late_max_ms"]:g}, {c["late_over_100ms"]:g} by 100 ms or more')


def main(argv):
    return print_runs_and_cells(argv, __doc__.strip().splitlines()[-1], window_counts, row)

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
