#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Leave-one-out cross-validation of tlbsim's calibration.

For each figure of a targets file, fit the scenario to the other figures
(tlbsim fit), then predict the left-out figure over the fit's ensemble
(tlbsim compare --fit): a figure the model predicts without having been
fitted to it is evidence of mechanism, one it misses is not.

  tlbsim-loo.py run --tlbsim PATH --targets FILE --out DIR [--jobs N]
                    [--free SPEC] [--set K=V ...] [fit options]
  tlbsim-loo.py table DIR

`run` writes DIR/<metric>.targets.json, .fit.json and .compare.json per
left-out figure (a finished one is not run again) and prints the table;
`table` prints it from DIR. Exit status 1 on a failed run or bad input.
"""
import argparse
import json
import math
import os
import subprocess
import sys

SCENARIO = "numa-balancing"
POLICY = "always"
# The calibration of docs/tlbsim.md ("Calibrating: tlbsim fit").
DEFAULT_FREE = ("holdoff_mean_us=500:3000,mmap_write_hold_ms=10:200,"
                "convoy_spin_us=10000:200000")
DEFAULT_SET = ["working_set_gib=7.5", "duration_s=11.25"]


def die(msg):
    print("tlbsim-loo: " + msg, file=sys.stderr)
    sys.exit(1)


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        die("%s: %s" % (path, e))


def figures(targets):
    return [k for k in targets if not k.startswith("_")]


def bounds(value):
    """A target as (lo, hi): a number, [lo, hi] or {value, tolerance}."""
    if isinstance(value, (int, float)):
        return float(value), float(value)
    if isinstance(value, list) and len(value) == 2:
        return float(value[0]), float(value[1])
    if isinstance(value, dict) and "value" in value:
        v, t = float(value["value"]), float(value.get("tolerance", 0))
        return v * (1 - t), v * (1 + t)
    die("malformed target: %r" % (value,))


def log_error(v, lo, hi):
    """ln(v / nearer end of [lo, hi]); 0 inside the range."""
    if v is None or not v > 0:
        return None
    if v < lo:
        return math.log(v / lo)
    if v > hi:
        return math.log(v / hi)
    return 0.0


def run(cmd, log):
    with open(log, "w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    if r.returncode:
        die("failed (%d): %s; see %s" % (r.returncode, " ".join(cmd), log))


def do_run(a):
    targets = load_json(a.targets)
    names = figures(targets)
    if len(names) < 2:
        die("%s: leave-one-out needs at least two figures" % a.targets)
    os.makedirs(a.out, exist_ok=True)
    sets = a.set or DEFAULT_SET
    for name in names:
        base = os.path.join(a.out, name)
        if os.path.exists(base + ".compare.json"):
            continue
        rest = {k: v for k, v in targets.items() if k != name}
        with open(base + ".targets.json", "w") as f:
            json.dump(rest, f, indent=1)
        fit = [a.tlbsim, "fit", SCENARIO, "--policy", POLICY, "--free", a.free,
               "--targets", base + ".targets.json", "--jobs", str(a.jobs),
               "--max-evals", str(a.max_evals), "--profile-points",
               str(a.profile_points), "--samples", str(a.samples),
               "--seeds", str(a.seeds), "--out", base + ".fit.json"]
        for s in sets:
            fit += ["--set", s]
        print("tlbsim-loo: fitting without %s" % name, file=sys.stderr)
        run(fit, base + ".fit.log")
        cmp = [a.tlbsim, "compare", SCENARIO, "--fit", base + ".fit.json",
               "--policies", POLICY, "--pairs", str(a.seeds), "--jobs",
               str(a.jobs), "--no-timing", "--json", base + ".compare.json"]
        run(cmp, base + ".compare.log")
    with open(os.path.join(a.out, "targets.json"), "w") as f:
        json.dump(targets, f, indent=1)
    do_table(a.out)


def fmt(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return "%.4g" % v


def do_table(out):
    targets = load_json(os.path.join(out, "targets.json"))
    print("| left-out figure | published | predicted: median [min, max] over the ensemble "
          "| error of the median | inside the published range |")
    print("|---|---|---|---|---|")
    for name in figures(targets):
        lo, hi = bounds(targets[name])
        cmp = load_json(os.path.join(out, name + ".compare.json"))
        iv = cmp.get("intervals", {}).get(POLICY, {}).get(name)
        if iv is None:
            die("%s.compare.json has no %s for %s" % (name, name, POLICY))
        err = log_error(iv["median"], lo, hi)
        pub = fmt(lo) if lo == hi else "%s-%s" % (fmt(lo), fmt(hi))
        pct = "-" if err is None else "%+.0f%%" % (100 * (math.exp(err) - 1))
        inside = "yes" if err == 0 else "no"
        print("| %s | %s | %s [%s, %s] | %s | %s |" % (
            name, pub, fmt(iv["median"]), fmt(iv["min"]), fmt(iv["max"]), pct, inside))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--tlbsim", required=True)
    r.add_argument("--targets", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--free", default=DEFAULT_FREE)
    r.add_argument("--set", action="append")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--seeds", type=int, default=2)
    r.add_argument("--max-evals", type=int, default=30)
    r.add_argument("--profile-points", type=int, default=5)
    r.add_argument("--samples", type=int, default=6)
    t = sub.add_parser("table")
    t.add_argument("dir")
    a = p.parse_args()
    if a.cmd == "run":
        do_run(a)
    else:
        do_table(a.dir)


if __name__ == "__main__":
    main()
