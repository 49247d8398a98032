// Package opencl is the root of soacgen's OpenCL runtime. It holds no code;
// the work is split by job:
//
//   - cl: the binding to libOpenCL.so.1 through purego (no cgo);
//   - device: device choice (SOACGEN_OPENCL_DEVICE), context, queues,
//     program cache and buffer pool;
//   - skel: the parallel kernel skeletons (map, map-reduce, horizontal
//     fusion, single-pass map-scan and filter) with host-side Go APIs
//     and pinned staging of transfers;
//   - pinned: Go slices in page-locked host memory, which skel transfers
//     at the link's speed without staging.
//
// # Concurrent callers
//
// Generated functions may be called from many goroutines at once, with
// the results and panics of one caller. Every run of a skeleton (its
// uploads, kernels and downloads) takes a command queue of its own from
// the device's pool (device.TakeQueue) and a set of kernel objects of
// its own, and gives both back once the queue has finished
// (device.FinishQueue): a call over one element is not queued behind a
// large call's commands, whatever came first, where the device runs
// several queues at once (a CPU device such as PoCL; the H200's driver
// ran them one after another, so there backend=auto's choice is what
// keeps small calls off a busy device). Its buffers go back to the
// pool only after that finish, so a buffer never reaches a run on
// another queue while a command of the last run still uses it. Arrays
// that stay on the device within a call (package launch's Session) are
// complete when the run that wrote them returns, so the call's later
// runs read them whichever queue they take. The device's compute units
// stay shared: a CPU device such as PoCL runs every queue's kernels on
// the same threads. backend=auto reads how many runs hold queues
// (device.Busy) and, with k of them, counts a call's device time k+1
// times, so that a call an idle GPU would take runs the host's code
// while the device is busy (launch.BusyChoices counts those calls).
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
