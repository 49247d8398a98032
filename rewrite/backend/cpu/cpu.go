// Package cpu is the cpu backend: every lowered kernel as sequential Go,
// one loop (lowered.Loop), a chunk loop over a stream's chunks
// (lowered.Chunked, also with members after the stream: lowered.ChunkedThen),
// or the runtime call of a lone stream (lowered.Call). The
// loops themselves are the host generator's (rewrite/hostgo's Loop and
// FusedStream), since every backend's code contains them: the parallel
// backend runs their pieces per chunk, and the opencl backend falls back
// to them. It refuses only kernels whose members do not run as one loop.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): the cpu backend:
// hostgo's loop, chunk loop or runtime call per lowered form (Render),
// a Spec per spec that keeps no state of its own.
package cpu

import (
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// Backend is the cpu backend.
type Backend struct{}

var _ backend.Backend = Backend{}

// Name returns backend.CPU.
func (Backend) Name() string { return backend.CPU }

// Begin returns the cpu backend's generation of the spec f generates.
func (Backend) Begin(f *hostgo.Func, _ *lowered.Function, _ string) backend.Spec { return Spec{F: f} }

// Spec is the cpu backend's generation of one spec: it keeps no state
// beyond the generator of the spec.
type Spec struct {
	backend.HostOnly
	// F generates the spec.
	F *hostgo.Func
}

// Kernel renders lk as sequential Go, or says why its members do not
// run as one loop. It never falls back at run time (next is unused).
func (s Spec) Kernel(lk *lowered.Kernel, outs map[*ir.Var]string, _ backend.Next) (hostgo.Stmts, string) {
	return Render(s.F, lk, outs)
}

// Render renders lk as sequential Go with f, or says why its members do
// not run as one loop: the cpu backend's code, which the parallel
// backend runs below its grain.
func Render(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string) (hostgo.Stmts, string) {
	switch lk.Form {
	case lowered.Call:
		m := lk.Src.SOACs[0]
		var c hostgo.Stmts
		f.Assign(&c, m.Out, f.Call(m, true))
		return c, ""
	case lowered.Loop:
		st, why := f.Loop(lk, outs)
		if why != "" {
			return nil, why
		}
		return hostgo.Stmts{st}, ""
	case lowered.Chunked:
		st, why := f.FusedStream(lk, outs)
		if why != "" {
			return nil, why
		}
		return hostgo.Stmts{st}, ""
	case lowered.ChunkedThen:
		st, why := f.FusedStreamThen(lk, outs)
		if why != "" {
			return nil, why
		}
		return hostgo.Stmts{st}, ""
	}
	return nil, "its members do not run as one loop: " + lk.Reason
}
