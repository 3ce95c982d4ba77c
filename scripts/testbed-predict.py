#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""tlbsim's predictions for the kernel testbed's cells, beside the testbed.

  testbed-predict.py run --tlbsim PATH --out DIR [--pairs N] [--jobs N]
                         [--cells numa-private:always,...]
                         [--profile-from MICRO.txt] [--speed-from RECORDS.jsonl]
      runs `tlbsim compare testbed` once per workload variant (every policy
      the testbed measured on it, N seeds each) and writes DIR/<variant>.json;
      --profile-from takes every measured cost from that host's own
      `make testbed-microbench` output, derived as the profile derives
      them (testbed_profile.py); --speed-from then takes the memory-bound
      costs from the guest's own "@@speed" lines in those records (their
      medians), for records from a host of another speed
  testbed-predict.py profile MICRO.txt
      prints the costs --profile-from would set, each with its source
  testbed-predict.py table --records RECORDS.jsonl --predictions DIR
      prints, per cell and metric, the testbed's median [min-max] over its
      good runs, tlbsim's median [min-max] over its seeds, and whether they
      agree: tlbsim's median inside the testbed's range or within 30% of
      its median (the criterion of issue 14)

No tlbsim parameter is taken from the testbed's outcomes: the scenario's
defaults are the testbed machine's profile (costs measured by
`make testbed-microbench`) and the workload's own settings; --profile-from
and --speed-from replace those costs with the same measurements made on
the runs' own host, never with a workload's result.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys

from testbed_log import SPEED_COSTS
import testbed_profile

# Testbed scenario -> the tlbsim scenario and settings of that workload.
VARIANTS = {
    'numa-private': ('testbed', []),
    'numa-mthp64': ('testbed', ['folio_order=4']),
    'numa-shared': ('testbed', ['shared_mappers=2', 'slice_mib=16', 'stable_mib=32']),
    'numa-thp-split': ('testbed', ['folio_order=9', 'split_partial_thp=1']),
    'hint-private': ('testbed', []),
    # tools/testbed/thp_split.c: 8 threads, 4 THPs each per round, split
    # through split_huge_pages; the matrix ran it with warmup=5,window=35.
    'thp-split-flush': ('thp-split', ['profile=qemu-testbed', 'split_bench=debugfs',
                                      'thp_ops_per_thread=4', 'warmup_s=5', 'duration_s=35']),
}
# thp-split-flush.N: the same with N threads (scripts/testbed.sh), on the
# guest's 8 CPUs.
for _n in (2, 4):
    VARIANTS['thp-split-flush.%d' % _n] = (
        'thp-split', VARIANTS['thp-split-flush'][1] + ['threads=%d' % _n, 'cpus=8'])
# Testbed policy -> tlbsim policy (per scenario where they differ).
POLICY = {
    ('hint-private', 'eager'): 'eager-map',
    ('hint-private', 'deferred'): 'always',  # 6.12's defaults: the same kernel state
}
MIGRATE_POLICIES = ['always', 'skip-numa', 'skip-single', 'skip-single-mapcount']
FULL = [(s, p) for s in ('numa-private', 'numa-mthp64', 'numa-shared', 'numa-thp-split')
        for p in MIGRATE_POLICIES] + [('hint-private', 'eager'), ('hint-private', 'deferred'),
                                      ('thp-split-flush', 'per-pte'), ('thp-split-flush', 'batched')]
# Testbed metric -> tlbsim metric, or a function of tlbsim's metrics.
SPLIT_METRICS = [
    ('split_ms_per_thp', lambda m: m['op_latency_us_mean'] / 1000),
    ('tlb_irqs_per_split', lambda m: m['tlb_irqs_received'] / m['splits'] if m['splits'] else None),
]
METRICS = [
    ('tlb_irqs_per_migrated_page', 'tlb_irqs_per_migrated_page'),
    ('migrated_pages', 'migrated_pages'),
    ('tlb_irqs', 'tlb_irqs_received'),
    ('scanner_pending_flushes', 'batched_pending_drains'),
    ('protnone_batched_unmaps', 'protnone_batched_unmaps'),
    ('protnone_unbatched_unmaps', 'protnone_unbatched_unmaps'),
    ('numa_hint_faults', 'hint_faults'),
    ('numa_pte_updates', 'hint_ptes_updated'),
]
AGREE_FRACTION = 0.30
# The count's noise from tlbsim's side: each cell's seeds drawn again,
# with replacement, this many times (a fixed stream: the same table
# gives the same interval).
RESAMPLES = 1000


def tlbsim_policy(scenario, policy):
    return POLICY.get((scenario, policy), policy)


def parse_cells(text):
    if not text:
        return FULL
    cells = []
    for item in text.split(','):
        scenario, _, policy = item.partition(':')
        if scenario not in VARIANTS or not policy:
            sys.exit('testbed-predict: no tlbsim model for cell %r (modelled: %s)'
                     % (item, ', '.join(VARIANTS)))
        cells.append((scenario, policy))
    return cells


def load_records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def speeds_of(records):
    """The "@@speed" figures of every record that has some of SPEED_COSTS
    (the old probe's sweep_ns_per_page is not one): a testbed run
    and a profile from hosts of different speeds do not compare on
    anything the sweeps drive."""
    speeds = [r['host']['speed'] for r in records if 'speed' in r.get('host', {})]
    return [sp for sp in speeds if any(probe in sp for probe, _ in SPEED_COSTS)]


def speed_values(speeds):
    """(probe figure, tlbsim cost, its values) for each figure of
    SPEED_COSTS that some of @speeds have."""
    out = []
    for probe, cost in SPEED_COSTS:
        vals = [sp[probe] for sp in speeds if probe in sp]
        if vals:
            out.append((probe, cost, vals))
    return out


def speed_settings(path):
    """tlbsim --set words for the median of each "@@speed" figure of the
    records in @path; exits if none has one."""
    speeds = speeds_of(load_records(path))
    if not speeds:
        sys.exit('testbed-predict: no record in %s has the guest\'s speed '
                 '(@@speed): it predates the probe' % path)
    return ['%s=%g' % (cost, statistics.median(vals))
            for _, cost, vals in speed_values(speeds)]


def micro_boots(path):
    """The boots and host cores of a microbench output; exits on a file
    that cannot be read or has no "@@micro" line."""
    try:
        return testbed_profile.read_micro(path)
    except (OSError, ValueError) as e:
        sys.exit('testbed-predict: %s' % e)


def profile_settings(path):
    """tlbsim --set words for every cost @path's boots give."""
    boots, cores = micro_boots(path)
    return ['%s=%.6g' % (cost, v) for cost, v, _ in testbed_profile.derive(boots, cores)
            if v is not None]


def profile(args):
    boots, cores = micro_boots(args.micro)
    print('# %d boots of %s%s' % (len(boots), args.micro,
                                  ', a host of %d cores' % cores if cores else ''))
    for cost, v, src in testbed_profile.derive(boots, cores):
        print('%s=%s\t# %s' % (cost, 'none' if v is None else '%.6g' % v, src))


def readable(tlbsim, model):
    """The parameters `tlbsim list MODEL` says the scenario reads (tlbsim
    refuses a --set of one it does not)."""
    text = subprocess.run([tlbsim, 'list', model], check=True, capture_output=True,
                          text=True).stdout
    names, listing = set(), False
    for line in text.splitlines():
        if line.startswith('parameters'):
            listing = True
        elif listing and line.startswith('  '):
            names.add(line.split()[0])
    return names


def run(args):
    os.makedirs(args.out, exist_ok=True)
    measured = profile_settings(args.profile_from) if args.profile_from else []
    measured += speed_settings(args.speed_from) if args.speed_from else []
    by_variant = {}
    for scenario, policy in parse_cells(args.cells):
        by_variant.setdefault(scenario, []).append(tlbsim_policy(scenario, policy))
    for scenario, policies in by_variant.items():
        out = os.path.join(args.out, scenario + '.json')
        model, settings = VARIANTS[scenario]
        # A host's costs where the scenario has them (the split benchmark
        # reads wake_ns, the NUMA workload the sweeps).
        names = readable(args.tlbsim, model) if measured else set()
        costs = [kv for kv in measured if kv.partition('=')[0] in names]
        unread = [kv.partition('=')[0] for kv in measured if kv not in costs]
        if unread:
            print('testbed-predict: %s does not read %s: left out' % (model, ', '.join(unread)),
                  file=sys.stderr)
        cmd = [args.tlbsim, 'compare', model, '--policies', ','.join(dict.fromkeys(policies)),
               '--pairs', str(args.pairs), '--jobs', str(args.jobs), '--no-timing', '--json', out]
        for kv in settings + costs + (args.set or []):
            cmd += ['--set', kv]
        print('testbed-predict: ' + ' '.join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def spread(vals):
    return statistics.median(vals), min(vals), max(vals)


def fmt(x):
    if x == 0:
        return '0'
    if abs(x) >= 1e5:
        return '%.3g' % x
    if abs(x) >= 100:
        return '%.0f' % x
    return '%.3g' % x


def agrees(pred, meas):
    med, lo, hi = meas
    if lo <= pred <= hi:
        return True
    if med == 0:
        return pred == 0
    return abs(pred - med) <= AGREE_FRACTION * abs(med)


def speed_note(speeds, params):
    """One line: the records' guest speed against the costs tlbsim ran
    with (the first prediction's), as a ratio."""
    if not speeds:
        return ('host speed: the testbed records do not say (taken before '
                'the @@speed probe)')
    parts = []
    for probe, cost, vals in speed_values(speeds):
        med = statistics.median(vals)
        used = params.get(cost)
        ratio = ' (%.2fx)' % (med / used) if used else ''
        parts.append('%s %s [%s-%s] against %s %s%s' % (
            probe, fmt(med), fmt(min(vals)), fmt(max(vals)), cost,
            fmt(used) if used is not None else '-', ratio))
    return 'host speed over %d testbed runs: %s' % (len(speeds), '; '.join(parts))


def table(args):
    records = load_records(args.records)
    measured, speeds = {}, speeds_of(records)
    for r in records:
        if r.get('status') == 'ok':
            measured.setdefault((r['scenario'], r['policy']), []).append(r['metrics'])
    predicted, params = {}, None
    for scenario in VARIANTS:
        path = os.path.join(args.predictions, scenario + '.json')
        if not os.path.exists(path):
            continue
        for rec in json.load(open(path)):
            predicted.setdefault((scenario, rec['policy']), []).append(rec['metrics'])
            if params is None:
                params = rec.get('params', {})
    print('| cell | metric | testbed median [range] | tlbsim median [range] | agree |')
    print('|---|---|---|---|---|')
    agree = total = 0
    figures = []  # (measured spread, values by seed) for the resampling
    # The matrix's cells in order, then any other cell with a model.
    extra = sorted(c for c in measured if c[0] in VARIANTS and c not in FULL)
    for scenario, policy in FULL + extra:
        meas = measured.get((scenario, policy))
        pred = predicted.get((scenario, tlbsim_policy(scenario, policy)))
        if not meas or not pred:
            continue
        for tb_key, sim_key in (SPLIT_METRICS if VARIANTS[scenario][0] == 'thp-split' else METRICS):
            mv = [m[tb_key] for m in meas if m.get(tb_key) is not None]
            by_seed = [sim_key(p) if callable(sim_key) else p.get(sim_key) for p in pred]
            pv = [v for v in by_seed if v is not None]
            if not mv or not pv:
                continue
            ms, ps = spread(mv), spread(pv)
            figures.append((scenario, policy, ms, by_seed))
            ok = agrees(ps[0], ms)
            agree += ok
            total += 1
            print('| %s:%s | %s | %s [%s-%s] | %s [%s-%s] | %s |' % (
                scenario, policy, tb_key, fmt(ms[0]), fmt(ms[1]), fmt(ms[2]),
                fmt(ps[0]), fmt(ps[1]), fmt(ps[2]), 'yes' if ok else 'no'))
    print('\n%d of %d figures agree (tlbsim median inside the testbed range or '
          'within %d%% of its median)' % (agree, total, AGREE_FRACTION * 100))
    if not total:
        sys.exit('testbed-predict: no cell has both testbed records and predictions')
    lo, hi = resampled_counts(figures)
    print('%d-%d agree in 90%% of %d resamplings of tlbsim\'s seeds (each '
          'cell\'s runs drawn again with replacement; 5th-95th percentile)'
          % (lo, hi, RESAMPLES))
    print(speed_note(speeds, params or {}))


def resampled_counts(figures):
    """The 5th and 95th percentiles of the agreeing count when each cell's
    tlbsim runs are drawn again with replacement, one draw a cell for all
    its metrics (they come from the same runs)."""
    rng = random.Random(14)
    counts = []
    for _ in range(RESAMPLES):
        draws, count = {}, 0
        for scenario, policy, ms, by_seed in figures:
            idx = draws.setdefault((scenario, policy),
                                   [rng.randrange(len(by_seed)) for _ in by_seed])
            vals = [by_seed[i] for i in idx if by_seed[i] is not None]
            count += bool(vals) and agrees(statistics.median(vals), ms)
        counts.append(count)
    counts.sort()
    return counts[len(counts) * 5 // 100], counts[len(counts) * 95 // 100 - 1]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('run')
    r.add_argument('--tlbsim', required=True)
    r.add_argument('--out', required=True)
    r.add_argument('--pairs', type=int, default=5)
    r.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    r.add_argument('--cells')
    r.add_argument('--set', action='append', help='extra tlbsim --set (a sensitivity check)')
    r.add_argument('--speed-from', metavar='RECORDS',
                   help="the memory-bound costs from these testbed records' @@speed lines")
    r.add_argument('--profile-from', metavar='MICRO',
                   help="every measured cost from this host's make testbed-microbench output")
    pr = sub.add_parser('profile')
    pr.add_argument('micro', metavar='MICRO')
    t = sub.add_parser('table')
    t.add_argument('--records', required=True)
    t.add_argument('--predictions', required=True)
    args = ap.parse_args()
    if args.cmd == 'run':
        if args.pairs < 1 or args.jobs < 1:
            sys.exit('testbed-predict: --pairs and --jobs must be at least 1')
        run(args)
    elif args.cmd == 'profile':
        profile(args)
    else:
        table(args)


if __name__ == '__main__':
    main()
