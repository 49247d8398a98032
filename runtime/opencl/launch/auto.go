package launch

// This file is backend=auto's run-time choice: a kernel runs on the
// OpenCL device only when the device is a GPU and a simple cost model
// says the call is large enough to pay for its transfers and launch. It
// does not build or run anything.

// Cost is what the generator knows of one element of a kernel: the bytes
// it moves between host and device (inputs read, outputs written) and an
// estimate of its arithmetic (operators, with a math function counted as
// mathOps).
type Cost struct {
	Bytes int
	Ops   int
}

// The model's constants, per nanosecond. They are estimates to be
// replaced by measurements on the devices in use (the OpenCL skeletons
// stream at about 3 TB/s on an H100, but every call here uploads its
// inputs and downloads its results over PCIe, which bounds the device
// side; the CPU side is one core, the cpu backend's):
//
//   - launchNs: a build-cached launch of two kernels plus the blocking
//     reads and writes, about 30 µs with a discrete GPU's driver;
//   - pcieBytes: 6 GB/s, what the H100 host moved from pageable Go
//     memory (5.3 to 8.6 GB/s, BENCHMARKS.md);
//   - gpuOps: about 2000 simple operations per ns on a large GPU;
//   - cpuBytes: about 10 GB/s streamed by one core;
//   - cpuOps: about 2 simple operations per ns on one core.
const (
	launchNs  = 30_000
	pcieBytes = 6
	gpuOps    = 2000
	cpuBytes  = 10
	cpuOps    = 2
)

// Worth reports whether n elements of cost c run faster on a GPU than on
// one CPU core (the cpu backend; the parallel backend's cores are not
// modelled yet) by the model: the device pays the launch and moves every
// byte over PCIe but computes much faster, so only arithmetic-heavy
// kernels (or none, when PCIe is slower than the core's memory) win.
func Worth(c Cost, n int) bool {
	fn := float64(n)
	cpu := fn * (float64(c.Bytes)/cpuBytes + float64(c.Ops)/cpuOps)
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
