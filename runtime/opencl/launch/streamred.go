package launch

// This file runs generated stream reductions (package skel's StreamRed):
// a StreamRed whose chunk function builds a row whose length the host
// knows before the launch.

import (
	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// StreamRed is one generated stream-reduce kernel.
type StreamRed struct {
	// At is the kernel's position in its spec, for log lines.
	At string
	// FP64 reports whether the program uses float64.
	FP64 bool
	Spec skel.StreamRed
	// Auto is set for backend=auto: Use then asks the cost model.
	Auto bool
	Cost Cost
	// Bins, when set, is the bins skeleton of the same reduction (the
	// chunk function counts into integer bins, the operator adds rows:
	// bins.go), which runs the call where the device can. Without
	// Inputs, its Inputs, Args, Preamble and Options are Spec's.
	Bins *skel.Bins

	b    built[skel.StreamRedKernel]
	bins binsState
}

// Kernel returns the kernel built for the process's device, or nil (with
// one log line per cause in the process, the first time) when it cannot
// run there; FallbackList counts the calls.
func (s *StreamRed) Kernel() *skel.StreamRedKernel {
	return s.b.get(s.At, s.Spec.Name, s.FP64, s.Spec.Build)
}

// Use is Redomap.Use for a stream reduction, whose launch costs more
// (streamLaunchNs), except on the bins skeleton (Bins), whose launch
// costs a map-reduce's: the model assumes the device runs it (a GPU
// without 64-bit atomics is rare) rather than build it to know.
func (s *StreamRed) Use(n int) bool {
	if s.Bins != nil {
		return !s.Auto || autoUse(Worth(s.Cost, n))
	}
	return !s.Auto || autoUse(worthStream(s.Cost, n))
}

// Run runs the kernel with the values of its Args (see Arg and View)
// over inputs (all of one length n > 0), writing the reduced row into
// result (its room elements, room > 0). It reports whether result holds
// it; false means the caller runs its CPU code: the kernel is
// unavailable, the input or the row is empty, the row is too long for
// the device's scratch of rows (skel.StreamRedKernel.Fits), the lengths
// differ, a launch failed (logged once per cause; later calls are not
// tried, unless it failed for this call's sizes: errclass.go), or a
// work-item's panic flag is set.
func (s *StreamRed) Run(args []any, inputs []skel.HostSlice, result skel.HostSlice) bool {
	if !sameLength(inputs, nil) || result.Len() == 0 {
		return false
	}
	k := s.Kernel()
	if k == nil {
		return false
	}
	if bk := s.binsKernel(); bk != nil {
		if ok, done := s.runBins(bk, args, inputs, result); done {
			return ok
		}
	}
	if !k.Fits(result.Len()) {
		return fellBack(s.At, s.Spec.Name, whyRoom)
	}
	why := whyFlag // or the failed launch's reason (fail)
	ok := hostRun(s.b.d, args, func(err error) { why = s.b.fail(s.At, s.Spec.Name, err) }, func(vals []any) (bool, skel.Timing, error) {
		return k.RunArgs(vals, inputs, result)
	})
	if ok {
		countRun(len(inputs), 1)
	}
	return ok || fellBack(s.At, s.Spec.Name, why)
}

// RunOn is Run within session se, on inputs that may be on the device
// already (Dev, Share, Unwritten), with the reduced row of room
// elements downloaded (Download, room elements) or kept on the device
// (Keep: an Array of room elements). It reports whether out holds the
// row, as Run does; after false nothing was kept. Every input uploaded
// and a downloaded row count in Transfers, as Run's do.
func (s *StreamRed) RunOn(se *Session, args []any, inputs []Input, room int, out Output) bool {
	n := inputLength(inputs)
	if n == 0 || room <= 0 || out.keep == nil && out.host.Len() != room {
		return false
	}
	k := s.Kernel()
	if k == nil {
		return false
	}
	if bk := s.binsKernel(); bk != nil {
		if ok, done := s.runBinsOn(bk, se, args, inputs, n, room, out); done {
			return ok
		}
	}
	if !k.Fits(room) {
		return fellBack(s.At, s.Spec.Name, whyRoom)
	}
	why := whyFlag // or the failed launch's reason (fail)
	return runStreamOn(s.b.d, se, args, inputs, room, out, func(err error) { why = s.b.fail(s.At, s.Spec.Name, err) },
		func(vals []any, ins []*cl.MemObject, ob *cl.MemObject) (bool, skel.Timing, error) {
			if ob != nil {
				return k.RunDeviceTo(vals, n, ins, room, ob)
			}
			return k.RunDeviceArgs(vals, n, ins, out.host)
		}) || fellBack(s.At, s.Spec.Name, why)
}
