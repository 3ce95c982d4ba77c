# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""tlbsim's qemu-testbed costs from one host's `make testbed-microbench`.

The profile in tools/tlbsim/profile_testbed.c says, cost by cost, which
microbench figure it comes from and why; this module is that derivation
as code: each cost is the median over the boots of the figure (or the
figures) it comes from. testbed-predict.py's `profile` and
`run --profile-from` use it; tests/testbed/profile-from.sh checks that
the profile's own numbers come out of its boots here, so the two cannot
drift apart. Imported by testbed-predict.py (a script's own directory is
on sys.path).
"""
import math
import re
import statistics

MICRO_RE = re.compile(r'(\w+)=(-?[0-9.]+(?:e[+-]?[0-9]+)?)')
# testbed-microbench.sh's summary: "key=value  # median of N boots, ...".
MEDIAN_RE = re.compile(r'^(\w+)=(-?[0-9.]+(?:e[+-]?[0-9]+)?)\s+# median of ')
HOST_CORES_RE = re.compile(r'^# host: .*?, (\d+) cores,')

# The guest the profile models: 8 vCPUs (tools/testbed, -smp 8). The
# unloaded 7-thread shootdown keeps all 8 runnable, with 7 targets.
GUEST_VCPUS = 8
SHOOTDOWN_TARGETS = 7


def read_micro(path):
    """(boots, host cores) of a `make testbed-microbench` output: one dict
    of figures per "@@micro" line (the boots' own lines), or, in a file
    with none, one of the medians that make testbed-microbench prints;
    without the figures a boot could not measure (-1); and the cores of
    its last "# host:" line (None if it has none). Raises ValueError if
    the file has neither."""
    boots, medians, cores = [], {}, None
    with open(path) as f:
        for line in f:
            if line.startswith('@@micro'):
                figs = {k: float(v) for k, v in MICRO_RE.findall(line)}
                boots.append({k: v for k, v in figs.items() if v != -1})
                continue
            m = MEDIAN_RE.match(line)
            if m and float(m.group(2)) != -1:
                medians[m.group(1)] = float(m.group(2))
            m = HOST_CORES_RE.match(line)
            if m:
                cores = int(m.group(1))
    if not boots and medians:
        boots = [medians]
    if not boots:
        raise ValueError('%s has no "@@micro" line and no medians '
                         '(make testbed-microbench\'s output)' % path)
    return boots, cores


def rotation_slices(running, targets, cores):
    """Host slices a shootdown waits on average, tools/tlbsim/host_sched.c's
    model: @running vCPU threads on @cores host cores, the sender and
    @targets of them among those running; each target is off a core with
    probability (R - H) / (R - 1) and the sender waits for the last of
    those, m / (m + 1) of a rotation of (R - H) / H slices."""
    r, h = running, cores
    if r <= h:
        return 0.0
    p = (r - h) / (r - 1)
    last = sum(math.comb(targets, m) * p ** m * (1 - p) ** (targets - m) * m / (m + 1)
               for m in range(targets + 1))
    return (r - h) / h * last


def _median(boots, key):
    vals = [b[key] for b in boots if key in b]
    return statistics.median(vals) if vals else None


def _ipi_socket(boots):
    # A difference of two round trips: noise around 0 unless every boot
    # finds the other node slower.
    vals = [b['ipi_socket_ns'] for b in boots if 'ipi_socket_ns' in b]
    if not vals:
        return None
    return statistics.median(vals) if min(vals) > 0 else 0.0


def _migrate_copy(boots):
    # move_pages() per page with the guest idle, stretched as the loaded
    # fault is over the idle one: a hint fault's migration runs loaded.
    idle, fault, loaded = (_median(boots, k) for k in
                           ('migrate_page_ns', 'fault_ns', 'fault_loaded_ns'))
    if None in (idle, fault, loaded) or fault <= 0:
        return None
    return idle * loaded / fault


def _host_slice(boots, cores):
    diffs = [b['shootdown_7_ns'] - b['shootdown_1_ns'] for b in boots
             if 'shootdown_7_ns' in b and 'shootdown_1_ns' in b]
    slices = rotation_slices(GUEST_VCPUS, SHOOTDOWN_TARGETS, cores)
    if not diffs or slices <= 0:
        return None
    return statistics.median(diffs) / slices


def _sweep_walk(boots):
    # microbench.c's sweep_walk_ns_per_page; before it existed, its
    # sweep_ns_per_page had one sweeper (on the CPU whose TLB the refill
    # passes had grown) hitting while seven walked. That boot's private
    # mix without flushes had the same sweeper among its four 32 MiB
    # ones, hitting at about the grown mix's cost: the other three walked
    # (4 x mix - grown) / 3 a page (checked against the sweepers one by
    # one in docs/data/testbed-sweep-mix.md).
    vals = []
    for b in boots:
        if 'sweep_walk_ns_per_page' in b:
            vals.append(b['sweep_walk_ns_per_page'])
        elif 'sweep_mixed_32_ns_per_page' in b and 'sweep_grown_32_ns_per_page' in b:
            vals.append((4 * b['sweep_mixed_32_ns_per_page'] - b['sweep_grown_32_ns_per_page']) / 3)
    return statistics.median(vals) if vals else None


def _plain(key):
    return lambda boots, cores: _median(boots, key)


# (tlbsim cost, what it is derived from, how): in the order of
# profile_testbed.c.
DERIVATIONS = (
    ('ipi_first_ns', 'ipi_first_ns', _plain('ipi_first_ns')),
    ('ipi_socket_ns', 'ipi_socket_ns, 0 unless every boot is above 0',
     lambda boots, cores: _ipi_socket(boots)),
    ('fault_ns', 'fault_loaded_ns', _plain('fault_loaded_ns')),
    ('migrate_copy_ns', 'migrate_page_ns x fault_loaded_ns / fault_ns',
     lambda boots, cores: _migrate_copy(boots)),
    ('pte_update_ns', 'protnone_pte_loaded_ns', _plain('protnone_pte_loaded_ns')),
    ('tlb_miss_ns', 'tlb_refill_loaded_ns', _plain('tlb_refill_loaded_ns')),
    ('sweep_ns_per_page', 'sweep_walk_ns_per_page, or in older boots '
     '(4 x sweep_mixed_32_ns_per_page - sweep_grown_32_ns_per_page) / 3',
     lambda boots, cores: _sweep_walk(boots)),
    ('sweep_hit_ns_per_page', 'sweep_grown_32_ns_per_page', _plain('sweep_grown_32_ns_per_page')),
    ('sweep_hit_192_ns_per_page', 'sweep_grown_192_ns_per_page',
     _plain('sweep_grown_192_ns_per_page')),
    ('wake_ns', 'wake_ns', _plain('wake_ns')),
    ('host_slice_ns', '(shootdown_7_ns - shootdown_1_ns) / host_sched.c\'s slices',
     _host_slice),
)


def derive(boots, cores):
    """[(cost, value or None, source)] for every cost of DERIVATIONS, from
    @boots measured on a host of @cores cores (None: the profile's 2);
    None where no boot has the figures, then host_cpus if @cores is
    known."""
    host = cores or 2
    out = [(cost, how(boots, host), src) for cost, src, how in DERIVATIONS]
    if cores:
        out.append(('host_cpus', float(cores), 'the "# host:" line'))
    return out

