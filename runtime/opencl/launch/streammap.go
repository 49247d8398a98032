package launch

// This file runs generated stream maps (package skel's StreamMap): a
// StreamMap whose chunk function makes a row of its chunk's length, one
// work-item per chunk writing it at the chunk's offset of the output.

import (
	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// StreamMap is one generated stream-map kernel.
type StreamMap struct {
	// At is the kernel's position in its spec, for log lines.
	At string
	// FP64 reports whether the program uses float64.
	FP64 bool
	Spec skel.StreamMap
	// Auto is set for backend=auto: Use then asks the cost model.
	Auto bool
	Cost Cost

	b built[skel.StreamMapKernel]
}

// Kernel returns the kernel built for the process's device, or nil (with
// one log line per cause in the process, the first time) when it cannot
// run there; FallbackList counts the calls.
func (s *StreamMap) Kernel() *skel.StreamMapKernel {
	return s.b.get(s.At, s.Spec.Name, s.FP64, s.Spec.Build)
}

// Use is Redomap.Use for a stream map: one launch over n elements.
func (s *StreamMap) Use(n int) bool {
	return !s.Auto || autoUse(Worth(s.Cost, n))
}

// Run runs the kernel with the values of its Args (see Arg and View)
// over inputs (all of one length n > 0), writing the n elements of the
// output into out. It reports whether out holds them; false means the
// caller runs its CPU code: the kernel is unavailable, the input is
// empty, the lengths differ, a launch failed (logged once per cause;
// later calls are not tried, unless it failed for this call's sizes:
// errclass.go), or a work-item's panic flag is set (a panic of the chunk
// function, or a result not of its chunk's length).
func (s *StreamMap) Run(args []any, inputs []skel.HostSlice, out skel.HostSlice) bool {
	if !sameLength(inputs, []skel.HostSlice{out}) {
		return false
	}
	k := s.Kernel()
	if k == nil {
		return false
	}
	why := whyFlag // or the failed launch's reason (fail)
	return hostRun(s.b.d, args, func(err error) { why = s.b.fail(s.At, s.Spec.Name, err) }, func(vals []any) (bool, skel.Timing, error) {
		return k.RunArgs(vals, inputs, out)
	}) || fellBack(s.At, s.Spec.Name, why)
}

// RunOn is Run within session se, on inputs that may be on the device
// already (Dev, Unwritten), with an output downloaded (Download) or
// kept on the device (Keep: a ChunkedThen kernel's stream output, which
// the kernel's later members read there). It reports whether the
// output holds the stream's, as Run does; after false nothing was kept.
func (s *StreamMap) RunOn(se *Session, args []any, inputs []Input, out Output) bool {
	n := inputLength(inputs)
	if n == 0 || out.keep == nil && out.host.Len() != n {
		return false
	}
	k := s.Kernel()
	if k == nil {
		return false
	}
	why := whyFlag // or the failed launch's reason (fail)
	return runStreamOn(s.b.d, se, args, inputs, n, out, func(err error) { why = s.b.fail(s.At, s.Spec.Name, err) },
		func(vals []any, ins []*cl.MemObject, ob *cl.MemObject) (bool, skel.Timing, error) {
			if ob != nil {
				return k.RunDevice(vals, n, ins, ob)
			}
			return k.RunDeviceArgs(vals, n, ins, out.host)
		}) || fellBack(s.At, s.Spec.Name, why)
}

// hostRun runs a kernel through run with the values of args (the views
// they hold uploaded for the run), counting its timing. It reports
// whether run succeeded without a work-item's panic flag; a failure is
// passed to fail (built.fail).
func hostRun(d *device.Device, args []any, fail func(error), run func(vals []any) (bool, skel.Timing, error)) bool {
	u := uploads{d: d}
	defer u.release()
	vals, err := u.expand(args)
	var t skel.Timing
	panicked := false
	if err == nil {
		panicked, t, err = run(vals)
	}
	if err != nil {
		fail(err)
		return false
	}
	count(t)
	return !panicked
}

// runStreamOn is the RunOn of the stream skeletons after their checks,
// on device d within session se: the inputs on the device or uploaded
// (inputBuffers), a buffer of size elements made for an output out
// keeps (Keep), and run with the values of args, the inputs' buffers
// and that buffer (nil for an output downloaded into out.host). A
// failure is passed to fail (built.fail). It reports whether out holds
// the output; after false nothing was kept.
func runStreamOn(d *device.Device, se *Session, args []any, inputs []Input, size int, out Output, fail func(error), run func(vals []any, ins []*cl.MemObject, ob *cl.MemObject) (bool, skel.Timing, error)) bool {
	se.on(d)
	var temp []*cl.MemObject
	defer func() { d.Recycle(temp...) }()
	ins, up, err := inputBuffers(d, se, inputs)
	temp = append(temp, up...)
	var ob *cl.MemObject
	if err == nil && out.keep != nil {
		ob, err = d.Buffer(size * out.elem)
	}
	panicked := false
	if err == nil {
		u := uploads{d: d}
		defer u.release()
		var vals []any
		if vals, err = u.expand(args); err == nil {
			var t skel.Timing
			panicked, t, err = run(vals, ins, ob)
			count(t)
		}
	}
	if err != nil || panicked {
		if ob != nil {
			temp = append(temp, ob)
		}
		if err != nil {
			fail(err)
		}
		return false
	}
	if ob == nil {
		downloadN.Add(1)
		return true
	}
	out.keep(se, se.hold(ob), size)
	if !KeepOnDevice {
		out.eager()
	}
	return true
}
