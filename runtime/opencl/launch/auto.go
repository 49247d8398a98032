package launch

// This file is backend=auto's run-time choice: a kernel runs on the
// OpenCL device only when the device is a GPU and a simple cost model
// says the call is large enough to pay for its transfers and launch. It
// does not build or run anything.

import "runtime"

// Cost is what the generator knows of one element of a kernel: the bytes
// it moves between host and device (inputs read, outputs written) and an
// estimate of its arithmetic (operators, with a math function counted as
// mathOps); and whether the code that runs when the device does not is
// the parallel backend's (on every core) rather than the cpu backend's.
type Cost struct {
	Bytes    int
	Ops      int
	Parallel bool
}

// The model's constants, per nanosecond. They are estimates from the
// measurements in BENCHMARKS.md and shared/ANCHORS.md (the OpenCL
// skeletons stream at about 3 TB/s on an H100, but every call here
// uploads its inputs and downloads its results over PCIe, which bounds
// the device side):
//
//   - launchNs: a build-cached launch of two kernels plus the blocking
//     reads and writes, about 30 µs with a discrete GPU's driver;
//   - pcieBytes: 20 GB/s end to end, upload and download together with
//     skel's pinned staging: the H100 host ran a 64 MiB map-reduce call
//     in 2.7 ms (25 GB/s; BENCHMARKS.md, "Examples on the opencl
//     backend"), a little less for margin;
//   - gpuOps: about 2000 simple operations per ns on a large GPU;
//   - cpuBytes: about 10 GB/s streamed by one core (7.6 measured on the
//     H100's host);
//   - cpuOps: about 2 simple operations per ns on one core;
//   - bwCores: memory bandwidth grows with cores up to about 11 of them
//     (84 GB/s with 16 goroutines on that host, 7.6 with one);
//   - opsPerCore: arithmetic grows by about half a core's per core (a
//     compute-bound loop ran 8.3 times faster on 16 cores);
//   - forkNs: what the parallel backend pays to start and join its
//     workers, a few µs.
const (
	launchNs   = 30_000
	pcieBytes  = 20
	gpuOps     = 2000
	cpuBytes   = 10
	cpuOps     = 2
	bwCores    = 11
	opsPerCore = 0.52
	forkNs     = 5_000
)

// Worth reports whether n elements of cost c run faster on a GPU than on
// the host: on one core (the cpu backend) or, when c.Parallel, on
// GOMAXPROCS cores (the parallel backend). The device pays the launch and
// moves every byte over PCIe but computes much faster, so only
// arithmetic-heavy kernels win, and against many cores few do.
func Worth(c Cost, n int) bool {
	cores := 1
	if c.Parallel {
		cores = runtime.GOMAXPROCS(0)
	}
	return worthOn(c, n, cores)
}

// worthOn is Worth against cores host cores.
func worthOn(c Cost, n, cores int) bool {
	fn := float64(n)
	bytes, ops, fork := float64(cpuBytes), float64(cpuOps), 0.0
	if cores > 1 {
		bytes *= float64(min(cores, bwCores))
		ops *= max(1, opsPerCore*float64(cores))
		fork = forkNs
	}
	cpu := fork + fn*(float64(c.Bytes)/bytes+float64(c.Ops)/ops)
	gpu := launchNs + fn*(float64(c.Bytes)/pcieBytes+float64(c.Ops)/gpuOps)
	return gpu < cpu
}

// Use reports whether a call over n elements runs the kernel: always for
// backend=opencl (Auto false); for backend=auto when the process's device
// is a GPU and Worth says so. It opens the device once per process and
// builds nothing.
func (r *Redomap) Use(n int) bool {
	if !r.Auto {
		return true
	}
	return Worth(r.Cost, n) && GPU()
}
