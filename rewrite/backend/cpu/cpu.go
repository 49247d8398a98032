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
	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
	"github.com/soacgen/soacgen/rewrite/vector"
)

// Backend is the cpu backend.
type Backend struct{}

var _ backend.Backend = Backend{}

// Name returns backend.CPU.
func (Backend) Name() string { return backend.CPU }

// Begin returns the cpu backend's generation of the spec f generates.
func (Backend) Begin(f *hostgo.Func, _ *lowered.Function, _ string) backend.Spec {
	return Spec{F: f, vectors: map[*lowered.Kernel]vector.Outcome{}}
}

// Spec is the cpu backend's generation of one spec: the generator of the
// spec, and what the vector translator did with each loop kernel.
type Spec struct {
	backend.HostOnly
	// F generates the spec.
	F       *hostgo.Func
	vectors map[*lowered.Kernel]vector.Outcome
}

// Kernel renders lk as sequential Go, or says why its members do not
// run as one loop. It never falls back at run time (next is unused).
func (s Spec) Kernel(lk *lowered.Kernel, outs map[*ir.Var]string, _ backend.Next) (hostgo.Stmts, string) {
	c, why, vo := render(s.F, lk, outs)
	if why == "" && lk.Form == lowered.Loop && s.vectors != nil {
		s.vectors[lk] = vo
	}
	return c, why
}

// Vector returns what the vector translator did with loop kernel lk,
// which the spec generated (backend.Vectorizer).
func (s Spec) Vector(lk *lowered.Kernel) (vector.Outcome, bool) {
	vo, ok := s.vectors[lk]
	return vo, ok
}

// Render renders lk as sequential Go with f, or says why its members do
// not run as one loop: the cpu backend's code, which the parallel
// backend runs below its grain.
func Render(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string) (hostgo.Stmts, string) {
	c, why, _ := render(f, lk, outs)
	return c, why
}

// render is Render, with what the vector translator did with a loop.
func render(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string) (hostgo.Stmts, string, vector.Outcome) {
	switch lk.Form {
	case lowered.Call:
		m := lk.Src.SOACs[0]
		var c hostgo.Stmts
		f.Assign(&c, m.Out, f.Call(m, true))
		return c, "", vector.Outcome{}
	case lowered.Loop:
		st, why, vo := loop(f, lk, outs)
		if why != "" {
			return nil, why, vo
		}
		return hostgo.Stmts{st}, "", vo
	case lowered.Chunked:
		st, why := f.FusedStream(lk, outs)
		if why != "" {
			return nil, why, vector.Outcome{}
		}
		return hostgo.Stmts{st}, "", vector.Outcome{}
	case lowered.ChunkedThen:
		st, why := f.FusedStreamThen(lk, outs)
		if why != "" {
			return nil, why, vector.Outcome{}
		}
		return hostgo.Stmts{st}, "", vector.Outcome{}
	}
	return nil, "its members do not run as one loop: " + lk.Reason, vector.Outcome{}
}

// Loop renders loop kernel lk as the cpu backend does (its vector forms
// first, where it has them), or says why it cannot: the code the parallel
// backend runs below its grain.
func Loop(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string) (*jen.Statement, string) {
	st, why, _ := loop(f, lk, outs)
	return st, why
}

// loop renders loop kernel lk: its vector forms first, when the
// translator accepts it (rewrite/vector), then the scalar loop from where
// they stopped; otherwise the scalar loop alone, as hostgo's Loop.
func loop(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string) (*jen.Statement, string, vector.Outcome) {
	vk, vo := vector.Build(f, lk)
	if vk == nil {
		st, why := f.Loop(lk, outs)
		return st, why, vo
	}
	// Every index of an output is written (by the vector forms or the
	// scalar loop) before it is returned: it is allocated uncleared,
	// which on a fresh slice costs less than the loop itself.
	lp := f.LoopParts(lk, outs, f.UnclearedAlloc())
	start := f.Fresh("start")
	loops, why := lp.Loops(start, lp.N)
	if why != "" {
		return nil, why, vo
	}
	combine, why := lp.Combine()
	if why != "" {
		return nil, why, vo
	}
	body := hostgo.Stmts{hostgo.Define(lp.N, lp.Length)}
	body.Add(*lp.Pre...).Add(vk.Call(lp, start)...).Add(loops...).Add(combine...).Add(*lp.Post...)
	return lp.Guard(body), "", vo
}
