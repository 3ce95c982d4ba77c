# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""What every testbed report reads in a guest's console log: kernel
warnings and "key=value" marker lines. Imported by testbed-report.py and
testbed-selftests-report.py (a script's own directory is on sys.path)."""
import importlib.util
import os
import re
import statistics
import sys

# A WARN, BUG or oops anywhere in a console log fails the run that printed
# it, whatever its counters say.
WARN_RE = re.compile(r'(WARNING: CPU|------------\[ cut here \]|BUG: |kernel BUG at|'
                     r'Oops|general protection fault|Kernel panic|Call Trace:|'
                     r'page dumped because|UBSAN:|list_(add|del) corruption)')


# The figures of the guest's "@@speed" line (tools/testbed/microbench.c,
# run by /init after each workload), each with the tlbsim cost it
# measures: testbed-report.py records them, testbed-predict.py sets them.
# The probe's sweep_ns_per_page of 2026-12-05 and 06 read mostly one
# sweeper's TLB hits, not walks, and is not one of them.
SPEED_COSTS = (('sweep_walk_ns_per_page', 'sweep_ns_per_page'),
               ('sweep_grown_32_ns_per_page', 'sweep_hit_ns_per_page'),
               ('sweep_grown_192_ns_per_page', 'sweep_hit_192_ns_per_page'),
               ('tlb_refill_loaded_ns', 'tlb_miss_ns'))


def warnings(text):
    """The console lines that show a kernel warning, in order."""
    return [l.strip() for l in text.splitlines() if WARN_RE.search(l)]


def kv(text):
    """'a=1 b=2.5 c=x' -> {'a': 1, 'b': 2.5, 'c': 'x'}."""
    out = {}
    for tok in text.split():
        k, _, v = tok.partition('=')
        try:
            out[k] = float(v) if '.' in v else int(v)
        except ValueError:
            out[k] = v
    return out


def marker(line):
    """The '@@...' part of a console line, or None. The firmware's terminal
    resets can share a line with a marker."""
    line = line.rstrip('\r')
    i = line.find('@@')
    return line[i:] if i >= 0 else None


def cell_of(path):
    """A run's log name to its cell's: numa-private-always-1.log ->
    numa-private-always."""
    base = os.path.basename(path)
    base = base[:-4] if base.endswith('.log') else base
    head, _, tail = base.rpartition('-')
    return head if tail.isdigit() else base


def window_snapshots(path):
    """A counting run's log (scripts/testbed-measure.sh): its /proc/vmstat
    at the window's begin and end, as dicts, and its markers; None if the
    log has no window."""
    spec = importlib.util.spec_from_file_location(
        'testbed_report', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                       'testbed-report.py'))
    report = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(report)
    with open(path, errors='replace') as f:
        snaps, markers, _ = report.parse_log(f.read())
    if 'begin' not in snaps or 'end' not in snaps:
        return None
    return (report.vmstat(snaps['begin'].get('/proc/vmstat', '')),
            report.vmstat(snaps['end'].get('/proc/vmstat', '')), markers)


def measured_window(path, script, prefix, keys):
    """A measurement kernel's run (kernel/patches/measure/): the window's
    deltas of the vmstat counters @prefix + each of @keys, and the log's
    markers; None if the log has no window. Exits, naming @script, if the
    log's kernel lacks the counters."""
    snaps = window_snapshots(path)
    if snaps is None:
        return None
    vb, ve, markers = snaps
    if prefix + keys[0] not in ve:
        raise SystemExit(f'{script}: {path}: no {prefix}* counters '
                         '(not the measurement kernel)')
    return {k: ve.get(prefix + k, 0) - vb.get(prefix + k, 0) for k in keys}, markers


def print_runs_and_cells(argv, usage, window_counts, row):
    """A counting report's main(): one row(name, counts, median) per log
    whose window_counts(path) is not None, then each cell's medians (a
    count of -1, one a run lacks, left out). Returns the exit status."""
    if not argv:
        print(usage, file=sys.stderr)
        return 2
    cells = {}
    for path in argv:
        c = window_counts(path)
        if c is None:
            print(f'{os.path.basename(path)}: no measured window (run failed?)')
            continue
        print(row(os.path.basename(path), c, False))
        cells.setdefault(cell_of(path), []).append(c)
    for name, runs in cells.items():
        med = {k: statistics.median([r[k] for r in runs if r[k] >= 0] or [-1]) for k in runs[0]}
        print(row(f'{name} median of {len(runs)}', med, True))
    return 0
