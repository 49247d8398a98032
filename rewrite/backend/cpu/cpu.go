// Package cpu is the cpu backend: every lowered kernel as sequential Go,
// one loop (lower.Loop), a chunk loop over a stream's chunks
// (lower.Chunked, also with members after the stream: lower.ChunkedThen),
// or the runtime call of a lone stream (lower.Call). The
// loops themselves are the host generator's (rewrite/hostgo's Loop and
// FusedStream), since every backend's code contains them: the parallel
// backend runs their pieces per chunk, and the opencl backend falls back
// to them. It refuses only kernels whose members do not run as one loop.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): the cpu backend:
// hostgo's loop, chunk loop or runtime call per lowered form.
package cpu

import (
	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// Backend is the cpu backend.
type Backend struct{}

var _ backend.Backend = Backend{}

// Name returns backend.CPU.
func (Backend) Name() string { return backend.CPU }

// Render renders lk as sequential Go, or says why its members do not run
// as one loop. It never falls back at run time (next is unused).
func (Backend) Render(f *hostgo.Func, lk *lower.Kernel, outs map[*ir.Var]string, _ backend.Next) (hostgo.Stmts, string) {
	switch lk.Form {
	case lower.Call:
		m := lk.Src.SOACs[0]
		var c hostgo.Stmts
		f.Assign(&c, m.Out, f.Call(m, true))
		return c, ""
	case lower.Loop:
		st, why := f.Loop(lk, outs)
		if why != "" {
			return nil, why
		}
		return hostgo.Stmts{st}, ""
	case lower.Chunked:
		st, why := f.FusedStream(lk, outs)
		if why != "" {
			return nil, why
		}
		return hostgo.Stmts{st}, ""
	case lower.ChunkedThen:
		st, why := f.FusedStreamThen(lk, outs)
		if why != "" {
			return nil, why
		}
		return hostgo.Stmts{st}, ""
	}
	return nil, "its members do not run as one loop: " + lk.Reason
}
