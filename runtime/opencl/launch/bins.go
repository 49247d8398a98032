package launch

// This file runs a stream reduction on the bins skeleton (skel.Bins)
// where the generator recognised its chunk function as counting into
// integer bins (StreamRed.Bins): the bins kernel first on GPUs
// (SetBinsOnCPU), the stream skeleton when the device cannot run it (a 64-bit row without
// cl_khr_int64_base_atomics, logged once) or its launch failed, the CPU
// code when a work-item's panic flag is set (which raises the spec's
// panic).

import (
	"sync"
	"sync/atomic"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// binsN counts the calls the bins skeleton ran (BinsRuns).
var binsN atomic.Int64

// BinsRuns returns how many calls of stream reductions the bins skeleton
// ran to the end (their row computed, or a panic flag set), so that
// tests tell it from the stream skeleton.
func BinsRuns() int64 { return binsN.Load() }

// binsOnCPU: SetBinsOnCPU.
var binsOnCPU atomic.Bool

// SetBinsOnCPU sets whether the bins skeleton runs on a CPU device too
// (tests, which have PoCL) and returns the setting before. By default it
// runs on GPUs only: a CPU device runs its atomic additions slower than
// the stream skeleton's chunks (HistogramCL at 1e7 values on PoCL, 2
// cores: 190 ms of kernel against 36 ms; BenchmarkHistogramBins).
func SetBinsOnCPU(on bool) bool { return binsOnCPU.Swap(on) }

// binsState is the bins kernel of a StreamRed, built on first use.
type binsState struct {
	once sync.Once
	k    *skel.BinsKernel
	off  atomic.Bool // a launch failed for a reason not of the call's sizes
}

// binsKernel returns the bins kernel for the device of the stream
// kernel (built), or nil: no Bins, or the device cannot run it (logged
// once).
func (s *StreamRed) binsKernel() *skel.BinsKernel {
	if s.Bins == nil || s.Kernel() == nil {
		return nil
	}
	s.bins.once.Do(func() {
		d := s.b.d
		b := *s.Bins
		if len(b.Inputs) == 0 {
			b.Inputs, b.Args, b.Preamble, b.Options = s.Spec.Inputs, s.Spec.Args, s.Spec.Preamble, s.Spec.Options
		}
		why := b.Unsupported(d.CL)
		if why == "" {
			k, err := b.Build(d)
			if err != nil {
				why = "build failed: " + err.Error()
			}
			s.bins.k = k
		}
		if why != "" {
			logOnce(s.At+why, "soacgen: %s: OpenCL kernel %s runs on the stream skeleton: %s", s.At, s.Bins.Name, why)
		}
	})
	if s.bins.off.Load() || !s.b.d.Info.IsGPU() && !binsOnCPU.Load() {
		return nil
	}
	return s.bins.k
}

// binsFailed records a failed launch of the bins kernel: one of the
// call's sizes costs this call, any other disables the kernel (logged
// once); the stream skeleton then runs.
func (s *StreamRed) binsFailed(err error) {
	if _, ok := perCall(err); ok {
		return
	}
	if s.bins.off.CompareAndSwap(false, true) {
		logOnce(logKey(whyFailed, err), "soacgen: %s: OpenCL kernel %s failed, the stream skeleton runs from now on: %v", s.At, s.Bins.Name, err)
	}
}

// runBins is Run on the bins kernel bk: done reports that the call is
// decided (ok: result holds the row; not ok: the panic flag is set),
// else the launch failed and the stream skeleton runs.
func (s *StreamRed) runBins(bk *skel.BinsKernel, args []any, inputs []skel.HostSlice, result skel.HostSlice) (ok, done bool) {
	var failed error
	ok = hostRun(s.b.d, args, func(err error) { failed = err }, func(vals []any) (bool, skel.Timing, error) {
		return bk.RunArgs(vals, inputs, result)
	})
	if failed != nil {
		s.binsFailed(failed)
		return false, false
	}
	binsN.Add(1)
	if ok {
		countRun(len(inputs), 1)
		return true, true
	}
	return fellBack(s.At, s.Spec.Name, whyFlag), true
}

// runBinsOn is RunOn on the bins kernel bk, as runBins.
func (s *StreamRed) runBinsOn(bk *skel.BinsKernel, se *Session, args []any, inputs []Input, n, room int, out Output) (ok, done bool) {
	var failed error
	ok = runStreamOn(s.b.d, se, args, inputs, room, out, func(err error) { failed = err },
		func(vals []any, ins []*cl.MemObject, ob *cl.MemObject) (bool, skel.Timing, error) {
			if ob != nil {
				return bk.RunDeviceTo(vals, n, ins, room, ob)
			}
			return bk.RunDeviceArgs(vals, n, ins, out.host)
		})
	if failed != nil {
		s.binsFailed(failed)
		return false, false
	}
	binsN.Add(1)
	if ok {
		return true, true
	}
	return fellBack(s.At, s.Spec.Name, whyFlag), true
}
