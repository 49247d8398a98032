#!/usr/bin/env bash
# test.sh runs every check CI runs: gofmt, go vet, go test (including the
# fuzz seeds and examples), the race detector on the runtime packages, and
# a from-scratch regeneration of the examples that must leave no drift.
#
# Usage: bash scripts/test.sh   (from any directory; needs only Go)
#
# The inner loop while editing is go test -short on the packages you
# touch (or go test -short ./..., about seven minutes of CPU time):
# -short leaves out the tests that build a module per case (the
# differential tests of rewrite/testdata, the random pipelines, the
# mutants). This
# script runs them all; go test ./... runs under go test's default
# timeout of 10 minutes per package, which every package fits with a
# wide margin: rewrite's differential test runs in the shard packages
# under rewrite/internal/diffrun, and the random programs with
# reassignment shapes on every backend in those under
# analyzer/internal/randpipe/shapes, each a test binary of its own.
#
# It first installs what the tests need when it is missing and it can:
# the OpenCL loader and the PoCL CPU driver, for the OpenCL runtime tests,
# and Graphviz, for the tests that render fusion graphs (they skip without
# it, unless CI is set).
# Those tests skip when no OpenCL platform is found, unless
# SOACGEN_REQUIRE_OPENCL=1 (set by .ci/run) turns the skips into failures.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

section() { printf '\n==== %s\n' "$*"; }

section "prerequisites"
go version
have_loader() { [ -e /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 ] || { command -v ldconfig >/dev/null && ldconfig -p 2>/dev/null | grep 'libOpenCL\.so\.1' >/dev/null; }; }
have_driver() { compgen -G '/etc/OpenCL/vendors/*.icd' >/dev/null; }
if have_loader && have_driver; then
	echo "OpenCL loader and driver found: $(cat /etc/OpenCL/vendors/*.icd | tr '\n' ' ')"
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "installing OpenCL (PoCL CPU driver) with apt-get"
	(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pocl-opencl-icd ocl-icd-libopencl1 clinfo) ||
		echo "WARNING: could not install OpenCL; OpenCL tests will skip (or fail under SOACGEN_REQUIRE_OPENCL=1)"
else
	echo "WARNING: no OpenCL loader (libOpenCL.so.1) and cannot install it (needs root and apt-get); OpenCL tests will skip (or fail under SOACGEN_REQUIRE_OPENCL=1)"
fi

if command -v dot >/dev/null; then
	echo "Graphviz found: $(dot -V 2>&1)"
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "installing Graphviz with apt-get"
	(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz) ||
		echo "WARNING: could not install Graphviz; the fusion-graph rendering tests will skip (or fail under CI)"
else
	echo "WARNING: no Graphviz (dot) and cannot install it (needs root and apt-get); the fusion-graph rendering tests will skip (or fail under CI)"
fi

section "gofmt -l ."
unformatted="$(gofmt -l .)"
if [ -n "$unformatted" ]; then
	echo "these files are not gofmt-ed (run gofmt -w on them):"
	echo "$unformatted"
	exit 1
fi
echo "all files formatted"

section "go vet ./..."
go vet ./...

section "go test ./... (unit, example, property and fuzz-seed tests)"
go test -skip '^TestGolangciLintPlugin$' ./...

section "golangci-lint plugin: build a custom golangci-lint with soacvet, lint a sample module"
# The first run downloads and compiles golangci-lint (minutes; cached under
# the user cache directory, keyed by versions); later runs take ~1 minute.
# Without the module proxy it skips, unless CI is set.
go test -count=1 -timeout 20m -run '^TestGolangciLintPlugin$' ./cmd/soacvet/golangci

section "benchmarks of the examples, once each (they run; timings come from scripts/bench-examples.sh)"
go test -short -run '^$' -bench . -benchtime 1x -timeout 5m ./examples/... > /dev/null
echo "every example benchmark ran"

section "go test -race ./runtime/... and the examples' parallel backend"
go test -race -timeout 5m ./runtime/...
go test -race -short -run 'Par$' -timeout 5m ./examples/...

section "runtime/parallel under GOMAXPROCS 1, 2 and 8"
go test -count=1 -cpu 1,2,8 -timeout 5m ./runtime/parallel

section "GOAMD64=v3 go test (FMA) of the runtime, the examples and the random pipelines"
# amd64 v3 fuses x*y+z into one FMA, as arm64 does by default, and whether
# it does depends on what is inlined. The runtime's combinators call their
# lambdas through soac.Opaque (never inlined there), and the generated code
# calls every lambda that may fuse through it too, inlining only lambdas
# with no product reaching an addition (rewrite/doc.go, "Floating-point
# contraction"). The examples and the random pipelines compare the
# generated functions with their specs bit for bit under FMA; rewrite's
# differential test (rewrite/internal/diffrun) runs its v3 pass within
# go test ./... above.
if [ "$(go env GOARCH)" = amd64 ] && grep -qw fma /proc/cpuinfo 2>/dev/null && grep -qw avx2 /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then
	GOAMD64=v3 go test -count=1 -timeout 5m ./runtime/soac ./examples/...
	GOAMD64=v3 go test -count=1 -timeout 5m -run 'Differential' ./analyzer/internal/randpipe/pipelines/
else
	echo "CPU without FMA/AVX2/BMI2 (or not amd64): the GOAMD64=v3 tests are skipped"
fi

section "GOEXPERIMENT=simd: the examples and the random pipelines on each vector unit"
# A build with the experiment compiles the generated vector forms
# (x_soacsimd.go); SOACGEN_SIMD forces each unit the host has in turn.
# Integer results and cpu floats must be the spec's bit for bit, parallel
# results the same for any GOMAXPROCS (the examples' own tests check
# both); rewrite's differential test runs its simd shard within
# go test ./... above.
widths=""
if [ "$(go env GOARCH)" = amd64 ] && grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
	widths="avx2"
	if grep -qw avx512f /proc/cpuinfo && grep -qw avx512dq /proc/cpuinfo && grep -qw avx512bw /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo && grep -qw avx512cd /proc/cpuinfo; then
		widths="avx512 avx2"
	fi
fi
if [ -n "$widths" ]; then
	GOEXPERIMENT=simd go vet ./runtime/lanes ./examples/...
	for w in $widths; do
		echo "SOACGEN_SIMD=$w"
		GOEXPERIMENT=simd SOACGEN_SIMD=$w go test -short -count=1 -timeout 5m ./examples/...
		GOEXPERIMENT=simd SOACGEN_SIMD=$w go test -count=1 -timeout 5m -run 'Differential' ./analyzer/internal/randpipe/pipelines/
	done
	# The same build with the vector forms turned off: the scalar loops
	# alone, as on a CPU without AVX2.
	echo "SOACGEN_SIMD=off"
	GOEXPERIMENT=simd SOACGEN_SIMD=off go test -short -count=1 -timeout 5m ./examples/...
else
	echo "no AVX2 (or not amd64): the vector forms are not run"
fi

section "generated code: delete every *_soac.go under examples/, go generate, no drift"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	find examples \( -name '*_soac.go' -o -name '*_soacsimd.go' -o -name '*_soacscalar.go' \) -delete
	go generate ./examples/...
	drift="$(git status --porcelain -- examples)"
	if [ -n "$drift" ]; then
		echo "regenerating the examples changed the tree (commit the output of go generate ./examples/...):"
		echo "$drift"
		git --no-pager diff --stat -- examples
		exit 1
	fi
	echo "regenerated files are identical to the committed ones"
else
	echo "not a git checkout: skipped"
fi

section "all checks passed"
