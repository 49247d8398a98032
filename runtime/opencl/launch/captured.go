package launch

// This file passes a captured slice that an earlier kernel of the call
// left on the device (an Array) to a later kernel's lambda as its
// read-only buffer, without a round trip through the host.

import (
	"sync/atomic"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

// ViewDev is View for a captured []T that an earlier kernel of the call
// may have kept on the device (a) or that its Go variable holds (xs,
// when a is nil): the kernel reads a's buffer where it is. A released
// or downloaded a (KeepOnDevice false) gives View of its host copy.
func ViewDev[T any](a *Array[T], xs []T) any {
	if a == nil {
		return View(xs)
	}
	if a.h.b == nil {
		return View(a.host)
	}
	return view{n: int64(a.n), buf: a.h.b}
}

// devBuffer returns v's buffer when it is an Array's, or nil.
func (v view) devBuffer() *cl.MemObject { return v.buf }

// viewN and viewDevN count the captured []T slices uploaded for one run
// (View) and those read where an earlier kernel kept them (ViewDev).
var viewN, viewDevN atomic.Int64

// Views returns how many captured slices generated kernels have
// uploaded for one run (View, Rows) and how many they read from arrays
// kept on the device (ViewDev), so far in the process, for tests.
func Views() (uploaded, onDevice int64) { return viewN.Load(), viewDevN.Load() }
