#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Mutation testing of lib/*.c and the inline bodies of fastpath.h.

Applies one small mutation at a time to a copy of the sources (negate a
condition, swap < and <=, swap && and ||, drop a call statement, replace a
constant), rebuilds the library with the shared test vectors
(tests/check_vectors) and the concurrency stress test under ASan and UBSan,
runs them, and
counts the mutants the tests kill. Survivors are listed with their diff.

Usage: scripts/mutate.py [--jobs N] [--only FILE] [--list]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

OPERATORS = [
    ("== -> !=", r"==", "!="),
    ("!= -> ==", r"!=", "=="),
    ("<= -> <", r"<=", "<"),
    ("< -> <=", r"(?<![<-])<(?![<=])", "<="),
    (">= -> >", r">=", ">"),
    ("> -> >=", r"(?<![->])>(?![>=])", ">="),
    ("&& -> ||", r"&&", "||"),
    ("|| -> &&", r"\|\|", "&&"),
    ("true -> false", r"\btrue\b", "false"),
    ("false -> true", r"\bfalse\b", "true"),
    ("0 -> 1", r"(?<![\w.])0(?![\w.x])", "1"),
    ("1 -> 0", r"(?<![\w.])1(?![\w.])", "0"),
    ("+ -> -", r"(?<![+])\+(?![+=])", "-"),
    ("++ -> --", r"\+\+", "--"),
]


def mutable(line):
    s = line.strip()
    return s and not s.startswith(("#", "/*", "*", "//")) and '"' not in s


def mutants(path):
    lines = open(path).read().split("\n")
    out = []
    debug = False
    for n, line in enumerate(lines):
        # TLBP_DEBUG cross-checks are compiled out of the tested build.
        if line.startswith("#ifdef TLBP_DEBUG"):
            debug = True
        elif debug and line.startswith("#endif"):
            debug = False
        if debug or not mutable(line):
            continue
        for name, pat, rep in OPERATORS:
            for m in re.finditer(pat, line):
                new = line[:m.start()] + rep + line[m.end():]
                out.append((path, n, name, line, new))
        # negate an if condition that fits on the line
        m = re.match(r"^(\s*(?:\} else )?if )\((.*)\)$", line)
        if m:
            out.append((path, n, "negate if", line, f"{m.group(1)}(!({m.group(2)}))"))
        # drop a statement that calls something (flush, mark, add, ...)
        if re.match(r"^\s*(\w+ = )?\w+(->\w+)*\(.*\);$", line) and "return" not in line:
            out.append((path, n, "drop call", line, re.match(r"^(\s*)", line).group(1) + ";"))
    return out


CC = ["gcc", "-std=gnu11", "-O1", "-w", "-fsanitize=address,undefined",
      "-fno-sanitize-recover=all"]


def vector_sources(src):
    """The C files of tests/check_vectors, relative to the tree."""
    tests = os.path.join(src, "tests")
    out = ["tests/check_vectors.c", "tests/fake_ops.c", "tests/suite_runner.c"]
    out += ["tests/vectors/" + f for f in sorted(os.listdir(os.path.join(tests, "vectors")))
            if f.endswith(".c")]
    out += ["lib/" + f for f in sorted(os.listdir(os.path.join(src, "lib"))) if f.endswith(".c")]
    return out


def cflags(src):
    # ASan and UBSan turn out-of-bounds mutants into kills, not luck.
    return CC + ["-I" + os.path.join(src, "include"), "-I" + os.path.join(src, "tests")]


def object_name(rel):
    return rel.replace("/", "__") + ".o"


def build_cache(cache):
    """Objects of the unmutated tree: a .c mutant recompiles only its file."""
    for rel in vector_sources(ROOT):
        r = subprocess.run(cflags(ROOT) + ["-c", "-o", os.path.join(cache, object_name(rel)),
                                           os.path.join(ROOT, rel)], capture_output=True)
        if r.returncode:
            sys.exit("mutate: the unmutated tree does not build: " + r.stderr.decode())


def build_and_test(src, work, mutated, cache):
    """Returns 'killed', 'survived' or 'no-build'."""
    exe = os.path.join(work, "check_vectors")
    check = subprocess.run(["pkg-config", "--cflags", "--libs", "check"],
                           capture_output=True, text=True).stdout.split()
    objs = []
    for rel in vector_sources(src):
        # A header mutant may change any file; a .c mutant only its own.
        if mutated.endswith(".h") or rel == mutated:
            obj = os.path.join(work, object_name(rel))
            r = subprocess.run(cflags(src) + ["-c", "-o", obj, os.path.join(src, rel)],
                               capture_output=True)
            if r.returncode:
                return "no-build"
        else:
            obj = os.path.join(cache, object_name(rel))
        objs.append(obj)
    r = subprocess.run(CC + ["-o", exe] + objs + check, capture_output=True)
    if r.returncode:
        return "no-build"
    env = dict(os.environ, CK_FORK="no", CK_VERBOSITY="silent",
               ASAN_OPTIONS="detect_leaks=0")
    try:
        r = subprocess.run([exe], env=env, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "killed"
    if r.returncode:
        return "killed"
    # The stress test links mm.c alone: no other .c mutant can change it.
    if not (mutated.endswith(".h") or mutated == "lib/mm.c"):
        return "survived"
    stress = os.path.join(work, "mm_stress")
    r = subprocess.run(cflags(src) + ["-o", stress, os.path.join(src, "tests", "stress", "mm_stress.c"),
                                      os.path.join(src, "lib", "mm.c"), "-lpthread"],
                       capture_output=True)
    if r.returncode:
        return "no-build"
    try:
        r = subprocess.run([stress, "--seconds", "1"], capture_output=True, timeout=30)
    except subprocess.TimeoutExpired:
        return "killed"
    return "killed" if r.returncode else "survived"


def run_one(mut, cache):
    path, n, name, old, new = mut
    work = tempfile.mkdtemp(prefix="tlbp-mut-", dir="/var/tmp")
    try:
        src = os.path.join(work, "src")
        for d in ("lib", "include", "tests"):
            shutil.copytree(os.path.join(ROOT, d), os.path.join(src, d),
                            ignore=shutil.ignore_patterns("corpus", "*.o", ".libs", ".deps"))
        rel = os.path.relpath(path, ROOT)
        target = os.path.join(src, rel)
        lines = open(target).read().split("\n")
        lines[n] = new
        open(target, "w").write("\n".join(lines))
        return mut, build_and_test(src, work, rel, cache)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    files = sorted(os.path.join(ROOT, "lib", f) for f in os.listdir(os.path.join(ROOT, "lib"))
                   if f.endswith(".c"))
    # The hot-path bodies the checked functions run live in a header.
    files.append(os.path.join(ROOT, "include", "tlbpolicy", "fastpath.h"))
    if args.only:
        files = [f for f in files if f.endswith(args.only)]
    muts = [m for f in files for m in mutants(f)]
    if args.list:
        for path, n, name, old, new in muts:
            print(f"{os.path.relpath(path, ROOT)}:{n + 1}: {name}: {new.strip()}")
        return 0
    start = time.time()
    killed = survived = nobuild = 0
    survivors = []
    cache = tempfile.mkdtemp(prefix="tlbp-mut-cache-", dir="/var/tmp")
    build_cache(cache)
    with ThreadPoolExecutor(args.jobs) as pool:
        for i, (mut, result) in enumerate(pool.map(lambda m: run_one(m, cache), muts), 1):
            if result == "killed":
                killed += 1
            elif result == "survived":
                survived += 1
                survivors.append(mut)
            else:
                nobuild += 1
            print(f"\rmutate: {i}/{len(muts)} killed {killed} survived {survived} "
                  f"not compiling {nobuild}", end="", file=sys.stderr)
    print(file=sys.stderr)
    shutil.rmtree(cache, ignore_errors=True)
    total = killed + survived
    print(f"mutate: {len(muts)} mutants, {nobuild} do not compile; of {total} that do, "
          f"{killed} killed, {survived} survived: score {100.0 * killed / max(total, 1):.1f}% "
          f"in {time.time() - start:.0f} s")
    for path, n, name, old, new in survivors:
        print(f"  survivor {os.path.relpath(path, ROOT)}:{n + 1}: {name}\n"
              f"    - {old.strip()}\n    + {new.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
