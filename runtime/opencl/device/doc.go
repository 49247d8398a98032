// Package device chooses the OpenCL device soacgen's generated code runs
// on, and owns the per-process state that goes with it: one context, an
// in-order profiling queue of its own, a pool of such queues for runs, a
// program cache and a buffer pool.
//
// # Choosing the device
//
// Default returns the process's device. Without configuration it is the
// first GPU of any platform, else the first CPU device, else the first
// device of any type. The environment variable SOACGEN_OPENCL_DEVICE
// overrides that:
//
//	SOACGEN_OPENCL_DEVICE=1:0      platform 1, device 0 (indices as listed by clinfo -l)
//	SOACGEN_OPENCL_DEVICE=nvidia   first device whose "platform / device" name contains "nvidia" (case-insensitive)
//
// When OpenCL is missing, Default returns an error that wraps one of
// cl.ErrNoLibrary, cl.ErrNoPlatform or cl.ErrNoDevice, so that callers can
// fall back to the CPU implementation.
//
// # Caches
//
// Program builds a kernel source once per device and process, keyed by the
// source text and the build options. Buffers hands out device buffers and
// takes them back, so that repeated calls with arrays of one size allocate
// nothing on the device.
//
// # Queues
//
// Each run of a skeleton takes a queue with TakeQueue, enqueues on it
// alone, and gives it back with FinishQueue, which waits for the queue
// (clFinish) before it returns the run's buffers to the pool: a pooled
// buffer may go at once to a run on another queue, whose commands are
// not ordered after the last user's. Concurrent runs thus never wait
// behind each other's commands; Busy says how many runs hold a queue.
// At most MaxQueues runs hold one at once (4 on a GPU, whose time per
// run is mostly the driver's latency per command, which more queues do
// not shorten; 64 on a CPU device; SOACGEN_CL_QUEUES sets another
// bound); more wait for a queue to be given back.
package device
