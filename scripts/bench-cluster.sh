#!/usr/bin/env bash
# bench-cluster.sh measures what the clustering methods (-cluster=greedy,
# ilp, wsp) cost: the slowest of 37 random functions of at most 20 SOACs
# (BenchmarkClusterWorst, with the process's CPU time per function), the
# solve time per function by size (BenchmarkClusterSolve), and the whole
# analysis of 500 random specs per method
# (BenchmarkAnalyze500SpecsCluster). It reproduces the clustering table
# of BENCHMARKS.md.
#
# Usage: scripts/bench-cluster.sh [OUTDIR]   (default: a temporary directory)
#
# Environment: COUNT, -test.count (default 5; the table takes medians).
set -euo pipefail

cd "$(dirname "$0")/.."
out=${1:-$(mktemp -d -t bench-cluster.XXXXXX)}
count=${COUNT:-5}
mkdir -p "$out"
go test -c -o "$out/randpipe.test" ./analyzer/internal/randpipe/
go test -c -o "$out/report.test" ./analyzer/report/
(cd analyzer/internal/randpipe && "$out/randpipe.test" -test.run '^$' -test.bench BenchmarkClusterWorst -test.benchtime 5x -test.count "$count" -test.benchmem) | tee "$out/cluster-worst.txt"
(cd analyzer/internal/randpipe && "$out/randpipe.test" -test.run '^$' -test.bench BenchmarkClusterSolve -test.benchtime 12x -test.count "$count" -test.benchmem) | tee "$out/cluster-solve.txt"
(cd analyzer/report && "$out/report.test" -test.run '^$' -test.bench BenchmarkAnalyze500SpecsCluster -test.benchtime 1x -test.count "$count" -test.benchmem) | tee "$out/cluster-500specs.txt"
echo "raw output in $out"
