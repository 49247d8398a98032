#!/usr/bin/env bash
# bench-opencl.sh measures the OpenCL runtime and the opencl backend on
# the default OpenCL device (SOACGEN_OPENCL_DEVICE selects another). It
# reproduces the OpenCL tables of BENCHMARKS.md, one mode per table.
#
# Usage: scripts/bench-opencl.sh OUTDIR MODE
#
# It builds static test binaries (CGO_ENABLED=0) of runtime/opencl/skel and
# examples/internal/clbench into OUTDIR/bin (so that they can be copied to
# a GPU machine without Go), runs the tests first with
# SOACGEN_REQUIRE_OPENCL=1 (a failing test stops the script), then the
# benchmarks of MODE into OUTDIR/opencl-MODE.txt:
#
#   skel      the skeletons on device-resident data, n = 2^28 float32
#   transfer  transfers against the link (BenchmarkLink, BenchmarkTransfer, BenchmarkOverlap)
#   kernels   the examples' fused kernels, n = 2^27, kernel time
#   overlap   transfer-bound examples end to end against the link, n = 2^26
#   e2e       whole calls of the examples, opencl against parallel, n = 2^22
#   auto      backend=auto against opencl and parallel at every example and size
#
# Environment:
#   BUILD_ONLY  build the binaries and stop
#   RUN_ONLY    run binaries already in OUTDIR/bin
set -euo pipefail

cd "$(dirname "$0")/.."
out=${1:?usage: scripts/bench-opencl.sh OUTDIR MODE}
mode=${2:?usage: scripts/bench-opencl.sh OUTDIR MODE}
bin=$out/bin
mkdir -p "$bin"
if [ -z "${RUN_ONLY:-}" ]; then
	CGO_ENABLED=0 go test -c -o "$bin/skel.test" ./runtime/opencl/skel
	CGO_ENABLED=0 go test -c -o "$bin/clbench.test" ./examples/internal/clbench
fi
[ -n "${BUILD_ONLY:-}" ] && exit 0

SOACGEN_REQUIRE_OPENCL=1 "$bin/skel.test" -test.count 1 >/dev/null
SOACGEN_REQUIRE_OPENCL=1 "$bin/clbench.test" -test.count 1 >/dev/null

log=$out/opencl-$mode.txt
skel() { "$bin/skel.test" -test.run '^$' -test.benchmem "$@" | tee "$log"; }
clbench() { "$bin/clbench.test" -test.run '^$' "$@" | tee "$log"; }
case $mode in
skel) skel -test.bench 'Copy|Reduce$|Map|Horizontal|Scan$|Filter$|TiledSweep' -test.benchtime 20x -test.count 1 ;;
transfer) skel -test.bench 'Link|Transfer|Overlap' -test.benchtime 20x -test.count 1 ;;
kernels) SOACGEN_BENCH_N=134217728 clbench -test.bench '^Benchmark(SumSq|Dot|SumSqPos|Bounds|Normalize2|MSS)$' -test.benchtime 5x ;;
overlap) SOACGEN_BENCH_N=67108864 clbench -test.bench '^BenchmarkOverlap$' -test.count 3 ;;
e2e) clbench -test.bench '^Benchmark(PrefixSums|HalfSqrts|ChunkedSums|FilterMax|Normalize2|CallPrices|MatMul32)$' -test.count 4 ;;
auto) clbench -test.bench '^BenchmarkAutoAll$' -test.count 2 ;;
*)
	echo "bench-opencl.sh: unknown mode $mode" >&2
	exit 2
	;;
esac
