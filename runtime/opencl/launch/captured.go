package launch

// This file passes a captured slice that an earlier kernel of the call
// left on the device (an Array) to a later kernel's lambda as its
// read-only buffer, without a round trip through the host.

import "github.com/soacgen/soacgen/runtime/opencl/cl"

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
