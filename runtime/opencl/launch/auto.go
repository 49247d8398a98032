package launch

// This file is backend=auto's run-time choice: a kernel runs on the
// OpenCL device only when the device is a GPU and a simple cost model
// says the call is large enough to pay for its transfers and launch. It
// does not build or run anything.

import (
	"runtime"
	"sync/atomic"
)

// Cost is what the generator knows of one element of a kernel: the bytes
// it moves between host and device (inputs read, outputs written) and an
// estimate of its arithmetic (operators, with a math function counted as
// mathOps); and whether the code that runs when the device does not is
// the parallel backend's (on every core) rather than the cpu backend's.
// Launches is the number of skeletons one call runs, one after the other
// in one session (a scan, then the members after it reading the scan on
// the device: rewrite/backend/opencl's split.go); each costs
// launchNs, its transfers being counted once in Bytes. 0 means 1.
type Cost struct {
	Bytes    int
	Ops      int
	Parallel bool
	Launches int
}

// launchCost is the launch overhead of a call of cost c: launchNs per
// skeleton. A second skeleton in the same session moves no more data,
// but its kernels and the blocking read of its results wait for the
// first's: counting it whole keeps the model on the host's side where a
// single launch would have been close.
func (c Cost) launchCost() float64 {
	return launchNs * float64(max(c.Launches, 1))
}

// The model's constants, per nanosecond. They are estimates from the
// measurements of BENCHMARKS.md on the H100 and its 16-core host (the OpenCL
// skeletons stream at about 3 TB/s on an H100, but every call here
// uploads its inputs and downloads its results over PCIe, which bounds
// the device side). "The H100 table" is a run of every example's opencl, cpu and
// parallel variants on the H100 and its 16 cores (2026-11-26, n = 2^23), whose per-element times the host
// constants reproduce within about 1.5x for every example there (with
// the generator's operation counts: rewrite/backend/opencl's
// cost.go):
//
//   - launchNs: a build-cached launch of two kernels plus the blocking
//     reads and writes, about 30 µs with a discrete GPU's driver. The
//     H100 measured 93-112 µs end to end for 1e3 elements
//     (H100, 2026-11-23, BenchmarkAuto), but its parallel backend was
//     slower at small sizes than this model says too (Black-Scholes at
//     1e4: 225 µs, the model 89), and 30 µs puts the crossover where
//     that run found it, between 1e3 and 1e4 prices;
//   - pcieBytes: 20 GB/s end to end, upload and download together with
//     skel's pinned staging: the H100 host ran a 64 MiB map-reduce call
//     in 2.7 ms (25 GB/s; H100, 2026-11-23, the examples'
//     opencl variants), a little less for margin;
//   - gpuOps: about 2000 simple operations per ns on a large GPU (the
//     H100 table's k-means kernel: 2500);
//   - cpuBytes: about 10 GB/s streamed by one core (7.6 measured on the
//     H100's host);
//   - cpuOps: about 4 simple operations per ns on one core, a math
//     function counting as 60 of them (cost.go's callOps): the H100
//     table's cpu backend ran a matrix product's multiply-add step in
//     0.67 ns (the model: 0.5), a histogram's element of 11 operations in
//     2.4 ns (3.6), a k-means point against 16 centres (130 operations)
//     in 51 ns (34), a Black-Scholes price (four math functions) in 113
//     ns (70);
//   - bwCores: memory bandwidth grows with cores up to about 11 of them
//     (84 GB/s with 16 goroutines on that host, 7.6 with one);
//   - opsPerCore: arithmetic grows by about half a core's per core (a
//     compute-bound loop ran 8.3 times faster on 16 cores; the H100
//     table's parallel backend at 16 cores: a Black-Scholes price in 8.1
//     ns (the model: 8.3), a histogram element in 0.29 (0.40), a k-means
//     point in 3.6 (4.1), a matrix product step in 0.064 (0.060));
//   - forkNs: what the parallel backend pays to start and join its
//     workers, a few µs;
//   - streamLaunchNs: launchNs for a stream reduction (skel.StreamRed:
//     its chunk kernel, the rows' combine and the row's download): on
//     the H100, 1e3 elements took 171 µs end to end for the k-means
//     step against 90-111 µs for the map-reduce kernels of the sum of
//     squares and Black-Scholes (H100, 2026-11-26, auto
//     on every example), about twice; with launchNs the model sent the
//     k-means step to the device at 1e4 points, where it took 207 µs
//     against 149 µs on 16 cores.
const (
	launchNs   = 30_000
	pcieBytes  = 20
	gpuOps     = 2000
	cpuBytes   = 10
	cpuOps     = 4
	bwCores    = 11
	opsPerCore = 0.52
	forkNs     = 5_000

	streamLaunchNs = 2 * launchNs
)

// Worth reports whether n elements of cost c run faster on a GPU than on
// the host: on one core (the cpu backend) or, when c.Parallel, on
// GOMAXPROCS cores (the parallel backend). The device pays the launch and
// moves every byte over PCIe but computes much faster, so only
// arithmetic-heavy kernels win, and against many cores few do. While
// runs of any goroutine hold queues of the device (device.Busy: k of
// them), the call would share it with them: its device time counts k+1
// times (load.go), and BusyChoices counts the calls this sends to the
// host.
func Worth(c Cost, n int) bool {
	return worthWork(float64(n)*float64(c.Bytes), float64(n)*float64(c.Ops), c.launchCost(), c.Parallel)
}

// worthStream is Worth for a stream reduction, whose launch costs
// streamLaunchNs.
func worthStream(c Cost, n int) bool {
	return worthWork(float64(n)*float64(c.Bytes), float64(n)*float64(c.Ops), streamLaunchNs, c.Parallel)
}

// worthWork is the model on a call's totals: bytes moved between host
// and device and operations, against one core or, when parallel, against
// GOMAXPROCS cores (procs: cached), on the device as loaded now (load.go:
// with k runs in flight the call's device time counts k+1 times).
// GOMAXPROCS is needed only when the answer depends on it: a call too
// small for the launch is decided without.
func worthWork(bytes, ops, launch float64, parallel bool) bool {
	idle := launch + bytes/pcieBytes + ops/gpuOps
	busy := deviceLoad()
	gpu := idle * float64(1+busy)
	// Slower than one core by more than a fork is slower than any number
	// of cores (their model is never slower than one core's and a fork):
	// GOMAXPROCS is read only when the first test passes.
	win := gpu < bytes/cpuBytes+ops/cpuOps+forkNs && gpu < hostNs(bytes, ops, coresFor(parallel))
	if !win && busy > 0 {
		countBusy(idle, bytes, ops, parallel)
	}
	return win
}

// coresFor is the host cores a call runs on: GOMAXPROCS (procs) for the
// parallel backend's code, else one.
func coresFor(parallel bool) int {
	if parallel {
		return procs()
	}
	return 1
}

// procsEvery is how many choices reuse one reading of GOMAXPROCS.
const procsEvery = 64

// procsN and procsCalls cache runtime.GOMAXPROCS(0), which takes the
// scheduler's lock (BenchmarkChoice: most of a choice's time when it was
// read every call): it is read again every procsEvery calls, so that a
// change (runtime.GOMAXPROCS, the runtime's own updates from a CPU
// limit) reaches the model within that many choices. A stale value
// only makes one choice slower, never a result different.
var procsN, procsCalls atomic.Int32

// procs returns GOMAXPROCS as cached.
func procs() int {
	n := procsN.Load()
	if n == 0 || procsCalls.Add(1)%procsEvery == 0 {
		n = int32(runtime.GOMAXPROCS(0))
		procsN.Store(n)
	}
	return int(n)
}

// worthOn is Worth against cores host cores.
func worthOn(c Cost, n, cores int) bool {
	return workOn(float64(n)*float64(c.Bytes), float64(n)*float64(c.Ops), c.launchCost(), cores)
}

// workOn is the model on a call's totals, a launch costing launch ns,
// against cores host cores, on an idle device.
func workOn(bytes, ops, launch float64, cores int) bool {
	return launch+bytes/pcieBytes+ops/gpuOps < hostNs(bytes, ops, cores)
}

// hostNs is the model's time of a call's totals on cores host cores.
func hostNs(bytes, ops float64, cores int) float64 {
	bw, ow, fork := float64(cpuBytes), float64(cpuOps), 0.0
	if cores > 1 {
		bw *= float64(min(cores, bwCores))
		ow *= max(1, opsPerCore*float64(cores))
		fork = forkNs
	}
	return fork + bytes/bw + ops/ow
}

// Use reports whether a call over n elements runs the kernel: always for
// backend=opencl (Auto false); for backend=auto when the process's device
// is a GPU and Worth says so. It opens the device once per process, and
// only once a call is large enough for the model; it builds nothing and
// allocates nothing.
func (r *Redomap) Use(n int) bool {
	return !r.Auto || autoUse(Worth(r.Cost, n))
}

// Choice is how backend=auto chooses, for tests and benchmarks
// (SetChoice).
type Choice int32

const (
	// ByModel, the default: the device when it is a GPU and the cost
	// model says the call is large enough, on the device as loaded now
	// (Worth).
	ByModel Choice = iota
	// AlwaysDevice: the device whenever there is one, of any type (a
	// CPU device such as PoCL too), so that tests run auto's kernels.
	AlwaysDevice
	// NeverDevice: the host's code always, as without OpenCL.
	NeverDevice
	// ModelAnyDevice: ByModel on a device of any type (a CPU device
	// such as PoCL too), so that tests and benchmarks see the model's
	// choices, the device's load included (load.go), where there is no
	// GPU.
	ModelAnyDevice
)

// choice is the process's Choice.
var choice atomic.Int32

// SetChoice sets how backend=auto chooses and returns the previous
// setting; tests and benchmarks restore it when they are done.
func SetChoice(c Choice) Choice { return Choice(choice.Swap(int32(c))) }

// autoUse is backend=auto's verdict for a call the model judged worth
// (or not) under the process's Choice.
func autoUse(worth bool) bool {
	switch Choice(choice.Load()) {
	case AlwaysDevice:
		_, err := openDevice()
		return err == nil
	case NeverDevice:
		return false
	case ModelAnyDevice:
		if !worth {
			return false
		}
		_, err := openDevice()
		return err == nil
	}
	return worth && GPU()
}

// GridCost is what the generator knows of a grid kernel (skel.Grid,
// rows × cols elements, each folding or looping over an inner length k
// known at run time: the length of a row of the rows input): the bytes
// of one element of the result (downloaded), of one element of a row of
// the rows input and of the inner Map's slice (uploaded: the rows input
// is rows × k elements with rows+1 offsets; the slice is cols elements,
// or cols × k when ColRows, with cols+1 offsets), and the operations of
// one element: Ops, plus OpsK per step of the inner length.
type GridCost struct {
	Out, Row, Col int
	ColRows       bool
	Ops, OpsK     int
	Parallel      bool
}

// offsetBytes is what launch.Rows uploads per row beside its elements:
// one int64 offset.
const offsetBytes = 8

// WorthGrid is Worth for a grid of rows × cols elements of inner length
// k.
func WorthGrid(c GridCost, rows, cols, k int) bool {
	bytes, ops := c.work(rows, cols, k)
	return worthWork(bytes, ops, launchNs, c.Parallel)
}

// work returns the bytes moved and operations of a grid call.
func (c GridCost) work(rows, cols, k int) (bytes, ops float64) {
	r, q, kk := float64(rows), float64(cols), float64(max(k, 0))
	col := float64(c.Col)
	if c.ColRows {
		col = kk*col + offsetBytes
	}
	bytes = r*q*float64(c.Out) + r*(kk*float64(c.Row)+offsetBytes) + q*col
	ops = r * q * (float64(c.Ops) + kk*float64(c.OpsK))
	return bytes, ops
}

// Use reports whether a grid call runs the kernel: always for
// backend=opencl; for backend=auto when the process's device is a GPU
// and WorthGrid says so.
func (g *Grid) Use(rows, cols, k int) bool {
	return !g.Auto || autoUse(WorthGrid(g.Cost, rows, cols, k))
}

// Inner returns the length of the first row of a (0 when a is empty):
// the inner length a grid's cost model takes, read in O(1).
func Inner[T any](a [][]T) int {
	if len(a) == 0 {
		return 0
	}
	return len(a[0])
}
