#!/usr/bin/env bash
# bench-parallel.sh measures the parallel backend's generated code against
# the cpu backend's and against a hand-written goroutine loop, and the
# memory-bound kernels against a multi-core read of the same bytes. It
# reproduces the parallel tables of BENCHMARKS.md.
#
# Usage: scripts/bench-parallel.sh OUTDIR
#
# It builds static test binaries (CGO_ENABLED=0) of the examples into
# OUTDIR/bin, so that they can be copied to a machine without Go, and runs
# them there, one raw file per table (named as in examples/bench):
#
#   parallel-paired-blackscholes.txt   CallPrices, PortfolioValue (ParPaired)
#   parallel-paired-histogram.txt      Histogram (ParPaired)
#   parallel-paired-filters.txt        FilterMax, SumSqPos (ParPaired)
#   parallel-paired-scans.txt          PrefixSums, HalfSqrts, ChunkedSums (ParPaired)
#   parallel-grain.txt                 ClusterSizes, Histogram below and at their grain (GrainPaired)
#   parallel-membound.txt              SumSq, Dot against readbw (b.Loop, MB/s)
#   parallel-small-16.txt, -2.txt      every kernel at n = 1 and 1e3, with the placement controls (SmallPaired)
#
# ParPaired, GrainPaired and SmallPaired (examples/internal/extest) call
# cpu, parallel and the hand goroutine loop in turns and report the medians
# of the turns' ratios (cpu/par, par/hand), which makes the ratios robust
# against load that changes during the run.
#
# Environment:
#   CPUS        -test.cpu list (default 16,2; on a 2-core machine use 2)
#   COUNT       -test.count (default 2)
#   SMALL_COUNT -test.count of SmallPaired (default 5)
#   BUILD_ONLY  build the binaries and stop
#   RUN_ONLY    run binaries already in OUTDIR/bin
set -euo pipefail

cd "$(dirname "$0")/.."
out=${1:?usage: scripts/bench-parallel.sh OUTDIR}
cpus=${CPUS:-16,2}
count=${COUNT:-2}
mkdir -p "$out/bin"

build() { CGO_ENABLED=0 go test -c -o "$out/bin/$1.test" "./examples/$2"; }
if [ -z "${RUN_ONLY:-}" ]; then
	build blackscholes blackscholes
	build histogram histogram
	build quickhull quickhull
	build sumsqpos sumsqpos
	build prefixsum prefixsum
	build kmeans kmeans
	build sumsq sumsq
	build dotprod dotprod
	build smallbench internal/smallbench
fi
[ -n "${BUILD_ONLY:-}" ] && exit 0

# run BINARY OUTFILE ARGS...: appends the benchmark output to OUTDIR/OUTFILE.
run() {
	local bin=$1 file=$2
	shift 2
	"$out/bin/$bin.test" -test.run '^$' -test.count "$count" -test.cpu "${CPUS_ONE:-$cpus}" "$@" | tee -a "$out/$file"
}
rm -f "$out"/parallel-*.txt
run blackscholes parallel-paired-blackscholes.txt -test.bench ParPaired -test.benchtime 8x
run histogram parallel-paired-histogram.txt -test.bench ParPaired -test.benchtime 10x
run quickhull parallel-paired-filters.txt -test.bench ParPaired -test.benchtime 8x
run sumsqpos parallel-paired-filters.txt -test.bench ParPaired -test.benchtime 8x
run prefixsum parallel-paired-scans.txt -test.bench ParPaired -test.benchtime 8x
run kmeans parallel-grain.txt -test.bench GrainPaired -test.benchtime 10x
run histogram parallel-grain.txt -test.bench GrainPaired -test.benchtime 10x
run sumsq parallel-membound.txt -test.bench SumSqPar -test.count 3
run dotprod parallel-membound.txt -test.bench DotPar -test.count 3
for c in ${cpus//,/ }; do
	CPUS_ONE=$c run smallbench "parallel-small-$c.txt" -test.bench SmallPaired -test.benchtime 400x -test.count "${SMALL_COUNT:-5}"
done
