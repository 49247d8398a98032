// Package opencl is the root of soacgen's OpenCL runtime. It holds no code;
// the work is split by job:
//
//   - cl: the binding to libOpenCL.so.1 through purego (no cgo);
//   - device: device choice (SOACGEN_OPENCL_DEVICE), context, queue,
//     program cache and buffer pool;
//   - skel: the parallel kernel skeletons (map, map-reduce, horizontal
//     fusion, single-pass map-scan and filter) with host-side Go APIs
//     and pinned staging of transfers;
//   - pinned: Go slices in page-locked host memory, which skel transfers
//     at the link's speed without staging.
//
// Environment variables: SOACGEN_OPENCL_LIBRARY (path of the loader
// library), SOACGEN_OPENCL_DEVICE (device selection, see package device),
// SOACGEN_REQUIRE_OPENCL=1 (tests fail instead of skipping without
// OpenCL) and SOACGEN_BENCH_N (benchmark array length). bench.sh builds
// static test binaries and runs the tests and benchmarks.
//
// Nothing under cmd/ may import these packages: the soacgen tool itself
// must not link purego.
package opencl
