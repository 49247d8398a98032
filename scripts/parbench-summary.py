#!/usr/bin/env python3
"""parbench-summary.py summarises `go test -bench` output of runtime/parallel.

Usage: python3 scripts/parbench-summary.py BENCH_OUTPUT...

For every benchmark, size and GOMAXPROCS (the -cpu suffix) it prints the
median ns/op of each variant (cpu, par, par4, par3, hand, *-reuse, ...),
the speedups cpu/variant (and cpu-reuse/variant-reuse), par/hand (< 1:
the runtime is faster than the hand-written goroutine loop) and, at the
large size, each variant's median GB/s. It does not run anything.
"""
import collections
import re
import statistics
import sys

LINE = re.compile(r'Benchmark(\S+?)(?:-(\d+))?\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.]+) MB/s)?')

ns = collections.defaultdict(list)
mbs = collections.defaultdict(list)
for path in sys.argv[1:]:
    for line in open(path):
        m = LINE.match(line)
        if not m:
            continue
        parts = m.group(1).split('/')
        cpu = int(m.group(2) or 1)
        if len(parts) == 3:
            key, variant = (parts[0], parts[1], cpu), parts[2]
        else:
            key, variant = (parts[0], '', cpu), (parts[1] if len(parts) > 1 else '')
        ns[(key, variant)].append(float(m.group(3)))
        if m.group(4):
            mbs[(key, variant)].append(float(m.group(4)))

for key in sorted({k for k, _ in ns}):
    med = {v: statistics.median(ns[(k, v)]) for (k, v) in ns if k == key}
    row = f"{key[0]:16s} {key[1]:9s} cpu={key[2]:<2d} " + " ".join(f"{v}={t:.4g}" for v, t in med.items())
    for v in med:
        base = 'cpu-reuse' if v.endswith('-reuse') else 'cpu'
        if v != base and base in med:
            row += f" | {base}/{v}={med[base] / med[v]:.2f}"
    for a, b in (('par', 'hand'), ('par4', 'hand'), ('par-reuse', 'hand-reuse')):
        if a in med and b in med:
            row += f" | {a}/{b}={med[a] / med[b]:.2f}"
    large = key[1] not in ('n=1', 'n=1e3', 'n=2grain')
    for v in med:
        if large and (key, v) in mbs:
            row += f" | {v} {statistics.median(mbs[(key, v)]) / 1000:.1f} GB/s"
    print(row)
