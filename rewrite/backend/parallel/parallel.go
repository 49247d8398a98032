package parallel

// This file holds the parallel backend's entry (Spec.Kernel): it
// renders a lowered kernel as Go that calls runtime/parallel. When the
// estimated work is below the runtime's threshold (parallel.Sequential
// with the kernel's grain, tested once, before anything else of the
// kernel), the cpu backend's code of the kernel runs, the same statements
// (belowGrain in loop.go, seqOrPar in stream.go: make, not
// parallel.Alloc); else the cpu
// backend's fused loop body (hostgo.LoopParts, the same inlining) runs in
// the per-chunk func(lo, hi int) that the runtime runs over the chunks.
// By the kernel's form and shape:
//
//   - a loop of maps, folds, one scan whose elements only its output
//     reads, or one materialised output of kept elements with any folds:
//     parallel.For, Reduce, Scan or FilterFold (loop.go);
//   - a scan read by another member, beside a fold or kept elements, in
//     a filter's kept elements, several scans, or several outputs of
//     kept elements: parallel.Carried, two passes (CarriedLocal where
//     pass 2 can start from pass 1's local prefixes), or CarriedLevels when
//     some totals need another scan's carry first (carried.go);
//   - a lone stream: parallel.StreamRed, or parallel.StreamMapOr with the
//     reference call as its fallback (the spec's length panic): parStream,
//     here;
//   - maps fused into a stream's chunks (lowered.Chunked): stream.go;
//   - a StreamMap followed by members over its chunks
//     (lowered.ChunkedThen): then.go.
//
// A fold or scan whose start is not its operator's neutral element
// starts from it in chunk 0 only (chunkstart.go).
//
// It refuses, with the reason, kernels whose lambdas are impure (they
// fall back to cpu) and Sequence kernels. Nested kernels (depth > 0)
// run inside one element of their parent: they are rendered as the cpu's
// sequential loop, so that only the outermost level runs in parallel,
// their cheap commutative folds over several accumulators (nested.go).
//
// It does not decide a kernel's shape (rewrite/lower does), nor schedule
// or combine chunks (runtime/parallel does). The work estimate
// (cost.go) is a static count, not a measurement; the
// threshold it is compared with (parallel.MinChunkNanos) is measured.

import (
	"fmt"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/backend/cpu"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"go/token"
	"path/filepath"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
	"github.com/soacgen/soacgen/rewrite/vector"
	rtparallel "github.com/soacgen/soacgen/runtime/parallel"
)

// Backend is the parallel backend: it renders kernels over the chunks
// of runtime/parallel.
type Backend struct{}

var _ backend.Backend = Backend{}

// Name returns backend.Parallel.
func (Backend) Name() string { return backend.Parallel }

// Begin returns the parallel backend's generation of the spec f
// generates.
func (Backend) Begin(f *hostgo.Func, _ *lowered.Function, _ string) backend.Spec {
	return Spec{F: f, vectors: map[*lowered.Kernel]vector.Outcome{}}
}

// Spec is the parallel backend's generation of one spec: the generator
// of the spec (its grain is decided per kernel, its runtime's pool per
// process), and what the vector translator did with each loop kernel.
type Spec struct {
	backend.HostOnly
	// F generates the spec.
	F       *hostgo.Func
	vectors map[*lowered.Kernel]vector.Outcome
}

// Kernel renders lk over chunks, or says why it cannot. It never falls
// back at run time (next is unused).
func (s Spec) Kernel(lk *lowered.Kernel, outs map[*ir.Var]string, _ backend.Next) (hostgo.Stmts, string) {
	c, why := render(s.F, lk, outs)
	if why == "" && lk.Form == lowered.Loop && lk.Src.Depth == 0 && s.vectors != nil {
		s.vectors[lk] = chunkOutcome(s.F, lk)
	}
	return c, why
}

// Vector returns what the vector translator did with loop kernel lk,
// which the spec generated: the widths its vector forms have, with a
// note when only the sequential path below the grain runs them.
func (s Spec) Vector(lk *lowered.Kernel) (vector.Outcome, bool) {
	vo, ok := s.vectors[lk]
	return vo, ok
}

// chunkOutcome is the vector translator's outcome for lk as the
// parallel backend ran it.
func chunkOutcome(f *hostgo.Func, lk *lowered.Kernel) vector.Outcome {
	vk, vo := vector.Build(f, lk)
	if vk != nil && !vector.InChunks(f, lk) {
		vo.Notes = append(vo.Notes, "its chunks run the scalar loop (they store kept elements, or carry a scan's or a stream's state); the sequential path below the grain runs the vector forms")
	}
	return vo
}

// render renders lk over chunks with f, or says why it cannot.
func render(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string) (hostgo.Stmts, string) {
	if lk.Src.Depth > 0 {
		// The parent's element is the parallel unit: run sequentially,
		// cheap folds over several accumulators (nested.go).
		if c, ok := nestedAccum(f, lk, outs); ok {
			return c, ""
		}
		return cpu.Render(f, lk, outs)
	}
	if why := impure(f, lk); why != "" {
		return nil, why
	}
	switch lk.Form {
	case lowered.Call:
		return parStream(f, lk)
	case lowered.Chunked:
		return parChunked(f, lk, outs)
	case lowered.Loop:
		return parLoop(f, lk, outs)
	case lowered.ChunkedThen:
		return parThen(f, lk, outs) // then.go
	}
	return nil, "its members do not run as one loop: " + lk.Reason
}

// impure returns why a lambda of lk is not pure (naming it and the
// construct), or "".
func impure(f *hostgo.Func, lk *lowered.Kernel) string {
	for _, m := range lk.Members {
		for _, l := range m.SOAC.Lambdas() {
			if !l.Purity.Pure {
				why := l.Purity.Reason
				if why == "" {
					why = "its effects are unknown"
				}
				at := l.Purity.Pos
				if !at.IsValid() {
					at = l.Expr.Pos()
				}
				return fmt.Sprintf("the function of %s at %s is not pure (%s at %s): it never runs in parallel", m.SOAC.Name, short(f, m.SOAC.Pos()), why, short(f, at))
			}
		}
	}
	return ""
}

// parStream renders a lone stream (form lowered.Call) as a runtime call.
func parStream(f *hostgo.Func, lk *lowered.Kernel) (hostgo.Stmts, string) {
	m := lk.Members[0].SOAC
	st := m.Op.(*ir.Stream)
	grain := hostgo.Lit(rtparallel.Grain(costsOf(f).lambdaNanos(st.Chunk, true)))
	xs := hostgo.Id(f.Name(st.Input))
	// Below the grain, the cpu backend's call: the closures the runtime
	// call captures are made in the parallel branch only, so a small
	// input allocates no more than the cpu backend's code.
	seq := f.Call(m, true)
	copies, restore := f.LocalFuncs(lk, lk.Src.At.Pos())
	defer restore()
	var call *jen.Statement
	if st.Kind == ir.StreamRed {
		call = jen.Qual(hostgo.ParallelPath, "StreamRed").Call(xs, grain, f.FuncExpr(st.Op), f.FuncExpr(st.Chunk))
	} else {
		ref := jen.Func().Params().Add(f.Type(m.Out.Type)).Add(hostgo.Block(hostgo.Stmts{jen.Return(f.Call(m, true))}))
		call = jen.Qual(hostgo.ParallelPath, "StreamMapOr").Call(xs, grain, f.FuncExpr(st.Chunk), ref)
	}
	r := f.Fresh("r")
	par := append(copies, hostgo.AssignTo(r, call))
	c := hostgo.Stmts{
		hostgo.VarDecl(r, f.Type(m.Out.Type), nil),
		jen.If(jen.Qual(hostgo.ParallelPath, "Sequential").Call(jen.Len(xs), grain)).Add(hostgo.Block(hostgo.Stmts{hostgo.AssignTo(r, seq)})).Else().Add(hostgo.Block(par)),
	}
	f.Assign(&c, m.Out, hostgo.Id(r))
	return c, ""
}

// short is position p as file:line:col with the file's base name, for
// reasons (the warning that carries them names the full path first).
func short(f *hostgo.Func, p token.Pos) string {
	pos := f.Fset().Position(p)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(pos.Filename), pos.Line, pos.Column)
}
