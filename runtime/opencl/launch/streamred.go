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

	b built[skel.StreamRedKernel]
}

// Kernel returns the kernel built for the process's device, or nil (with
// one log line, the first time) when it cannot run there.
func (s *StreamRed) Kernel() *skel.StreamRedKernel {
	return s.b.get(s.At, s.Spec.Name, s.FP64, s.Spec.Build)
}

// Use is Redomap.Use for a stream reduction, whose launch costs more
// (streamLaunchNs).
func (s *StreamRed) Use(n int) bool {
	return !s.Auto || autoUse(worthStream(s.Cost, n))
}

// Run runs the kernel with the values of its Args (see Arg and View)
// over inputs (all of one length n > 0), writing the reduced row into
// result (its room elements, room > 0). It reports whether result holds
// it; false means the caller runs its CPU code: the kernel is
// unavailable, the input or the row is empty, the row is too long for
// the device's scratch of rows (skel.StreamRedKernel.Fits), the lengths
// differ, a launch failed (logged once; later calls are not tried), or
// a work-item's panic flag is set.
func (s *StreamRed) Run(args []any, inputs []skel.HostSlice, result skel.HostSlice) bool {
	if !sameLength(inputs, nil) || result.Len() == 0 {
		return false
	}
	k := s.Kernel()
	if k == nil || !k.Fits(result.Len()) {
		return false
	}
	u := uploads{d: s.b.d}
	defer u.release()
	vals, err := u.expand(args)
	var t skel.Timing
	panicked := false
	if err == nil {
		panicked, t, err = k.RunArgs(vals, inputs, result)
	}
	if err != nil {
		s.b.fail(s.At, s.Spec.Name, err)
		return false
	}
	count(t)
	if !panicked {
		countRun(len(inputs), 1)
	}
	return !panicked
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
	if k == nil || !k.Fits(room) {
		return false
	}
	d := s.b.d
	se.on(d)
	var temp []*cl.MemObject
	defer func() { d.Recycle(temp...) }()
	ins, up, err := inputBuffers(d, se, inputs)
	temp = append(temp, up...)
	var ob *cl.MemObject
	if err == nil && out.keep != nil {
		ob, err = d.Buffer(room * out.elem)
	}
	panicked := false
	if err == nil {
		u := uploads{d: d}
		defer u.release()
		var vals []any
		if vals, err = u.expand(args); err == nil {
			var t skel.Timing
			if ob != nil {
				panicked, t, err = k.RunDeviceTo(vals, n, ins, room, ob)
			} else {
				panicked, t, err = k.RunDeviceArgs(vals, n, ins, out.host)
			}
			count(t)
		}
	}
	if err != nil || panicked {
		if ob != nil {
			temp = append(temp, ob)
		}
		if err != nil {
			s.b.fail(s.At, s.Spec.Name, err)
		}
		return false
	}
	if ob == nil {
		downloadN.Add(1)
		return true
	}
	out.keep(se, se.hold(ob), room)
	if !KeepOnDevice {
		out.eager()
	}
	return true
}
