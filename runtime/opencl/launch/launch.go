// Package launch is what the code soacgen generates for backend=opencl
// calls: each generated kernel is a package-level value holding its
// skeleton (package skel) with the OpenCL C translated from the spec's
// lambdas. The kernel is built on first use, once per process (the
// device's program cache keys it by source and options); when it cannot
// run here (no OpenCL platform, a device without fp64 for a float64
// kernel, a failed build or launch) it logs why, once per process and
// cause (without a platform, one line for every kernel), and every later
// call returns false at once, so the generated function runs the next
// backend's code instead. A launch that fails for its call's sizes (a
// buffer larger than the device allocates, an allocation that failed:
// errclass.go's table of OpenCL statuses) costs that call only; later
// calls try the device again. FallbackList lists, for users, every
// kernel that ran on the CPU, why and how often. A run whose panic flag
// is set (a work-item reached a place where Go panics) also returns
// false: the CPU code then raises the spec's panic with the spec's
// message. Within one call of a
// generated function, arrays that only its later kernels read stay on the
// device between them (resident.go: Session, Array, Redomap.RunOn).
//
// It does not translate Go (rewrite/clc does, at generation time), nor
// decide which kernels are worth a device (Worth gives the cost model
// that backend=auto asks at run time, load.go the device's load it
// takes into account).
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): runtime/opencl/launch
// is what generated opencl code calls (Redomap.RunN: a kernel without
// inputs over the length of the Iota that generates its space,
// skel.RedomapKernel.RunArgsN): a kernel built once per process (a log
// line and the CPU code when there is no device, no fp64, a failed build
// or launch), the panic flag that makes the CPU code raise the spec's
// panic, backend=auto's cost model (auto.go: the device against one core,
// or against GOMAXPROCS cores when the fallback is the parallel backend's
// code: Cost.Parallel; GridCost for grids, with the inner length read at
// run time; SetChoice for tests and benchmarks; the choice allocates
// nothing); resident.go: a call's Session of device buffers and the Array
// handle of an array left on the device (the buffer, and its host copy
// once Host downloaded it), Redomap.RunOn on inputs already there (Dev,
// Share) and outputs kept there (Keep), Transfers counting the arrays
// moved; fallback.go: Fallbacks, the launches that returned false once
// their kernel was built (panic flag, failed launch, a row too long), with
// LastFallback's reason, for tests; unwritten.go: a Session's uploads of
// slices no statement of the call writes (Unwritten, ViewUnwritten: keyed
// by base address and byte length, once per call); streamred.go:
// StreamRed.RunOn (its row downloaded or kept); matrix.go: the Matrix
// handle of a grid's [][]T result left on the device (KeepRows,
// Grid.RunOn, RowsDev).
package launch

import (
	"fmt"
	"log"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// ErrFlag is the name of the reduction every generated kernel folds its
// work-items' panic flags into (max of the site IDs, 0 when none panicked).
const ErrFlag = "k__err"

// ErrFlagReduction returns the reduction of the panic flags.
func ErrFlagReduction() skel.Reduction {
	return skel.Reduction{Name: ErrFlag, Type: skel.Int32, Op: "r = max(a, b);", Neutral: "0", Commutative: true}
}

// openDevice returns the process's device; tests replace it to simulate
// a machine without OpenCL.
var openDevice = device.Default

// Logf prints the once-per-kernel line that says why a kernel runs on the
// CPU; tests replace it.
var Logf = log.Printf

// usable reports why a device cannot run a kernel, or nil.
func usable(info device.Info, fp64 bool) error {
	if fp64 && !info.FP64 {
		return fmt.Errorf("device %s / %s has no cl_khr_fp64 and the kernel uses float64", info.Platform, info.Name)
	}
	return nil
}

// built is a kernel of type K built once per process, or the reason it
// is not (logged once per cause).
type built[K any] struct {
	once sync.Once
	k    *K
	d    *device.Device // the device k is built for
	// off is the FallbackList entry of the cause that disabled the
	// kernel for the process (no device, no fp64, a failed build or a
	// launch failure that does not depend on the call), nil while it is
	// usable.
	off atomic.Pointer[fallbackEntry]
}

// get returns the kernel, building it on first use with build; at and
// name say which kernel the log line is about. A call that gets nil is
// counted under the cause that disabled the kernel (FallbackList).
func (b *built[K]) get(at, name string, fp64 bool, build func(*device.Device) (*K, error)) *K {
	b.once.Do(func() {
		d, err := openDevice()
		if err != nil {
			err = fmt.Errorf("no OpenCL device: %w", err)
		} else if err = usable(d.Info, fp64); err == nil {
			b.d = d
			loaded.Store(d)
			if b.k, err = build(d); err != nil {
				b.k, err = nil, fmt.Errorf("build failed: %w", err)
			}
		}
		if err != nil {
			b.off.Store(entry(at, name, err.Error(), true))
			// No device and no fp64 are the same cause for every
			// kernel; a build failure's log is its kernel's own.
			logOnce(err.Error(), "soacgen: %s: OpenCL kernel %s runs on the CPU: %v", at, name, err)
		}
	})
	if e := b.off.Load(); e != nil {
		e.calls.Add(1)
		return nil
	}
	return b.k
}

// fail records a failed launch of the kernel name at at and returns its
// reason, for fellBack: an error of this call's sizes (perCall: a buffer
// larger than the device allocates, an allocation that failed) costs
// this call only, and later calls try the device again; any other
// disables the kernel for the process. Each cause is logged once per
// process.
func (b *built[K]) fail(at, name string, err error) string {
	if size, ok := perCall(err); ok {
		logOnce(logKey(whyCall, err), "soacgen: %s: OpenCL kernel %s: this call runs on the CPU (%s), later calls try the device again: %v", at, name, size, err)
		return whyCall + " (" + size + "): " + err.Error()
	}
	why := whyFailed + ": " + err.Error()
	if b.off.CompareAndSwap(nil, entry(at, name, why, true)) {
		logOnce(logKey(whyFailed, err), "soacgen: %s: OpenCL kernel %s failed, it runs on the CPU from now on: %v", at, name, err)
	}
	return why
}

// Redomap is one generated map-reduce kernel (package skel's Redomap,
// whose reductions end with ErrFlagReduction).
type Redomap struct {
	// At is the kernel's position in its spec ("file.go:12:9"), for log
	// lines.
	At string
	// FP64 reports whether the program uses float64.
	FP64 bool
	Spec skel.Redomap
	// Auto is set for backend=auto: Use then asks the cost model with
	// Cost, one element's.
	Auto bool
	Cost Cost

	b built[skel.RedomapKernel]
}

// Kernel returns the kernel built for the process's device, or nil (with
// one log line per cause in the process, the first time) when it cannot
// run there; FallbackList counts the calls.
func (r *Redomap) Kernel() *skel.RedomapKernel {
	return r.b.get(r.At, r.Spec.Name, r.FP64, r.Spec.Build)
}

// Run runs the kernel with the values of its Args (see Arg, View and
// Rows: a captured slice is uploaded for the run) over inputs
// (all of one length n > 0), writing outputs (n elements each) and results (one element each, without the
// panic flag). It reports whether they hold the kernel's results; false
// means the caller runs its CPU code: the kernel is unavailable, the
// lengths differ or are 0 (the CPU code handles both as the spec does),
// a launch failed (logged once per cause; later calls are not tried,
// unless it failed for this call's sizes: errclass.go), or a work-item's
// panic flag is set.
func (r *Redomap) Run(args []any, inputs, outputs, results []skel.HostSlice) bool {
	if !sameLength(inputs, outputs) {
		return false
	}
	return r.runWith(args, results, len(inputs), len(outputs), func(k *skel.RedomapKernel, vals []any, res []skel.HostSlice) (skel.Timing, error) {
		return k.RunArgs(vals, inputs, outputs, res)
	})
}

// runWith is Run and RunN after their length checks: the kernel, with
// the values of args and the panic flag appended to results, through
// run; ins and outs are the arrays the call moves, for Transfers.
func (r *Redomap) runWith(args []any, results []skel.HostSlice, ins, outs int, run func(k *skel.RedomapKernel, vals []any, res []skel.HostSlice) (skel.Timing, error)) bool {
	k := r.Kernel()
	if k == nil {
		return false
	}
	var flag [1]int32
	res := append(append([]skel.HostSlice(nil), results...), skel.Slice(flag[:]))
	u := uploads{d: r.b.d}
	defer u.release()
	vals, err := u.expand(args)
	var t skel.Timing
	if err == nil {
		t, err = run(k, vals, res)
	}
	if err == nil && flag[0] == 0 {
		err = u.download()
	}
	if err != nil {
		return fellBack(r.At, r.Spec.Name, r.b.fail(r.At, r.Spec.Name, err))
	}
	count(t)
	countRun(ins, outs)
	return flag[0] == 0 || fellBack(r.At, r.Spec.Name, whyFlag)
}

// Arg returns the bytes of v, a captured value passed to a kernel by
// value: OpenCL C lays out the number types, bool (uchar), and structs and
// arrays of them as Go does on 64-bit targets (package rewrite/clc).
func Arg[T any](v T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&v)), unsafe.Sizeof(v))
}

// Struct returns the skeleton type of a struct of the given scalar
// fields, named f0, f1, ... in name's typedef (the element code reads the
// value through the translated Go type of the same layout). It panics on
// a bad name or a non-scalar field, which generated code never passes.
func Struct(name string, fields ...skel.Type) skel.Type {
	fs := make([]skel.Field, len(fields))
	for i, t := range fields {
		fs[i] = skel.Field{Name: fmt.Sprintf("f%d", i), Type: t}
	}
	t, err := skel.Struct(name, fs...)
	if err != nil {
		panic("launch.Struct: " + err.Error())
	}
	return t
}

// The device times of every run of the process, for benchmarks.
var kernelNs, transferNs atomic.Int64

// The uploads' and downloads' parts of transferNs that runs report
// (skel.Timing's Up and Down), for TransferTimes.
var upNs, downNs atomic.Int64

func count(t skel.Timing) {
	kernelNs.Add(int64(t.Kernel))
	transferNs.Add(int64(t.Transfer))
	upNs.Add(int64(t.Up))
	downNs.Add(int64(t.Down))
}

// TransferTimes returns DeviceTime's transfer time of the kernels'
// inputs, outputs and results split into uploads and downloads (captured
// slices, which DeviceTime counts too, are in neither).
func TransferTimes() (up, down time.Duration) {
	return time.Duration(upNs.Load()), time.Duration(downNs.Load())
}

// DeviceTime returns the device time of every kernel run so far in the
// process: the kernels' execution and the host<->device copies (from
// profiling events). Benchmarks report their differences per call.
func DeviceTime() (kernel, transfer time.Duration) {
	return time.Duration(kernelNs.Load()), time.Duration(transferNs.Load())
}

// sameLength reports whether every slice has the length of inputs[0] and
// that length is not 0.
func sameLength(inputs, outputs []skel.HostSlice) bool {
	if len(inputs) == 0 || inputs[0].Len() == 0 {
		return false
	}
	n := inputs[0].Len()
	for _, hs := range [][]skel.HostSlice{inputs, outputs} {
		for _, h := range hs {
			if h.Len() != n {
				return false
			}
		}
	}
	return true
}

// GPU reports whether the process's OpenCL device is a GPU (false without
// OpenCL). It opens the device on first use only.
func GPU() bool {
	d, err := openDevice()
	return err == nil && d.Info.IsGPU()
}

// Scan is one generated map-scan kernel (package skel's Scan). Its
// element code cannot panic: the scan skeleton has no panic flag.
type Scan struct {
	At   string
	FP64 bool
	Spec skel.Scan
	Auto bool
	Cost Cost

	b built[skel.ScanKernel]
}

// Kernel returns the kernel built for the process's device, or nil (with
// one log line per cause in the process, the first time) when it cannot
// run there; FallbackList counts the calls.
func (s *Scan) Kernel() *skel.ScanKernel {
	return s.b.get(s.At, s.Spec.Name, s.FP64, s.Spec.Build)
}

// Use is Redomap.Use for a scan.
func (s *Scan) Use(n int) bool {
	return !s.Auto || autoUse(Worth(s.Cost, n))
}

// Run scans inputs (all of one length n > 0) into out (n elements), with
// the values of its Args (as for Redomap.Run). It reports whether out
// holds the scan; false means the caller runs its CPU code, as for
// Redomap.Run.
func (s *Scan) Run(args []any, inputs []skel.HostSlice, out skel.HostSlice) bool {
	if !sameLength(inputs, []skel.HostSlice{out}) {
		return false
	}
	k := s.Kernel()
	if k == nil {
		return false
	}
	why := whyFlag // or the failed launch's reason (fail)
	ok := hostRun(s.b.d, args, func(err error) { why = s.b.fail(s.At, s.Spec.Name, err) }, func(vals []any) (bool, skel.Timing, error) {
		t, err := k.RunArgs(vals, inputs, out)
		return false, t, err
	})
	if ok {
		countRun(len(inputs), 1)
	}
	return ok || fellBack(s.At, s.Spec.Name, why)
}
