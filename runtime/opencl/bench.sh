#!/bin/sh
# bench.sh builds static (CGO_ENABLED=0) test binaries of the OpenCL
# runtime into DIR (default .dev), then, unless BUILD_ONLY=1, runs the
# correctness tests with SOACGEN_REQUIRE_OPENCL=1 and the benchmarks on
# the default device (SOACGEN_OPENCL_DEVICE selects another), writing
# DIR/bench.txt (BENCH, a -test.bench pattern, picks benchmarks; the
# default runs all, sweeps included). Run it from anywhere in the
# repository:
#
#	runtime/opencl/bench.sh            # build and run here (PoCL)
#	BUILD_ONLY=1 runtime/opencl/bench.sh out   # build only, to copy out/ to a GPU machine
#	SKIP_BUILD=1 out/bench.sh out      # there, with the binaries built
set -eu
dir=${1:-.dev}
if [ -z "${SKIP_BUILD:-}" ] && command -v go >/dev/null 2>&1; then
	root=$(git rev-parse --show-toplevel)
	mkdir -p "$dir"
	(cd "$root" && CGO_ENABLED=0 go test -c -o "$(cd "$dir" 2>/dev/null && pwd || echo "$dir")/" ./runtime/opencl/...)
	cp "$root/runtime/opencl/bench.sh" "$dir/bench.sh" 2>/dev/null || true
fi
[ "${BUILD_ONLY:-}" = 1 ] && exit 0
export SOACGEN_REQUIRE_OPENCL=1
for t in cl device skel pinned; do
	"$dir/$t.test" -test.v -test.count 1 2>&1 | grep -E '^(--- |PASS|FAIL|ok)|device'
done
"$dir/skel.test" -test.run '^$' -test.bench "${BENCH:-.}" -test.benchtime "${BENCHTIME:-20x}" -test.count "${COUNT:-2}" -test.benchmem 2>&1 | tee "$dir/bench.txt"
