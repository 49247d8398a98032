package parallel

// This file holds the parallel backend: it renders a lowered kernel as Go
// that calls runtime/parallel. When the estimated work is below the
// runtime's threshold (parallel.Sequential with the kernel's grain,
// tested once, before anything else of the kernel), the cpu backend's
// code of the kernel runs, the same statements (belowGrain, seqOrPar:
// make, not parallel.Alloc); else the cpu backend's fused loop
// body (hostgo.LoopParts, the same inlining) runs in the per-chunk
// func(lo, hi int) that the runtime runs over the chunks:
//
//   - maps (no fold, scan or kept-element output): parallel.For, each
//     chunk writing its range of the preallocated outputs;
//   - folds (reductions, redomaps, folds in filter spaces): parallel.Reduce
//     with a struct of the accumulators, combined field by field in chunk
//     order (split accumulators stay split per chunk and fold pairwise
//     after, as the cpu loop does);
//   - one scan whose elements only its output reads: parallel.Scan, the
//     chunk's local scan then op(carry, out[i]) on the chunk's outputs;
//   - one materialised output of kept elements, with any folds:
//     parallel.FilterFold, the chunk compacting into its dst;
//   - a scan read by another member, beside a fold or kept elements, in
//     a filter's kept elements, several scans, or several outputs of
//     kept elements: parallel.Carried, two passes (CarriedLocal where
//     pass 2 can start from pass 1's local prefixes), or CarriedLevels when
//     some totals need another scan's carry first (parscan.go);
//   - a lone stream: parallel.StreamRed, or parallel.StreamMapOr with the
//     reference call as its fallback (the spec's length panic);
//   - maps fused into a stream's chunks (lower.Chunked): parstream.go;
//   - a StreamMap followed by members over its chunks
//     (lower.ChunkedThen): parthen.go.
//
// A fold or scan whose start is not its operator's neutral element
// starts from it in chunk 0 only (parscan.go: chunkStart).
//
// It refuses, with the reason, kernels whose lambdas are impure (they
// fall back to cpu) and Sequence kernels. Nested kernels (depth > 0)
// run inside one element of their parent: they are rendered as the cpu's
// sequential loop, so that only the outermost level runs in parallel,
// their cheap commutative folds over several accumulators (parnested.go).
//
// It does not decide a kernel's shape (rewrite/lower does), nor schedule
// or combine chunks (runtime/parallel does). The work estimate
// (parcost.go) is a static count, not a measurement; the
// threshold it is compared with (parallel.MinChunkNanos) is measured.

import (
	"fmt"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/backend/cpu"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"go/token"
	"path/filepath"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lower"
	rtparallel "github.com/soacgen/soacgen/runtime/parallel"
)

// ParallelPath is the import path of the runtime the parallel backend's
// code calls.
const ParallelPath = "github.com/soacgen/soacgen/runtime/parallel"

// Backend is the parallel backend: it renders kernels over the chunks
// of runtime/parallel.
type Backend struct{}

var _ backend.Backend = Backend{}

// Name returns backend.Parallel.
func (Backend) Name() string { return backend.Parallel }

// Render renders lk over chunks, or says why it cannot. It never falls
// back at run time (next is unused).
func (Backend) Render(f *hostgo.Func, lk *lower.Kernel, outs map[*ir.Var]string, next backend.Next) (hostgo.Stmts, string) {
	if lk.Src.Depth > 0 {
		// The parent's element is the parallel unit: run sequentially,
		// cheap folds over several accumulators (parnested.go).
		if c, ok := nestedAccum(f, lk, outs); ok {
			return c, ""
		}
		return cpu.Backend{}.Render(f, lk, outs, next)
	}
	if why := impure(f, lk); why != "" {
		return nil, why
	}
	switch lk.Form {
	case lower.Call:
		return parStream(f, lk)
	case lower.Chunked:
		return parChunked(f, lk, outs)
	case lower.Loop:
		return parLoop(f, lk, outs)
	case lower.ChunkedThen:
		return parThen(f, lk, outs) // parthen.go
	}
	return nil, "its members do not run as one loop: " + lk.Reason
}

// impure returns why a lambda of lk is not pure (naming it and the
// construct), or "".
func impure(f *hostgo.Func, lk *lower.Kernel) string {
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

// parStream renders a lone stream (form lower.Call) as a runtime call.
func parStream(f *hostgo.Func, lk *lower.Kernel) (hostgo.Stmts, string) {
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
		call = jen.Qual(ParallelPath, "StreamRed").Call(xs, grain, f.FuncExpr(st.Op), f.FuncExpr(st.Chunk))
	} else {
		ref := jen.Func().Params().Add(f.Type(m.Out.Type)).Add(hostgo.Block(hostgo.Stmts{jen.Return(f.Call(m, true))}))
		call = jen.Qual(ParallelPath, "StreamMapOr").Call(xs, grain, f.FuncExpr(st.Chunk), ref)
	}
	r := f.Fresh("r")
	par := append(copies, hostgo.AssignTo(r, call))
	c := hostgo.Stmts{
		hostgo.VarDecl(r, f.Type(m.Out.Type), nil),
		jen.If(jen.Qual(ParallelPath, "Sequential").Call(jen.Len(xs), grain)).Add(hostgo.Block(hostgo.Stmts{hostgo.AssignTo(r, seq)})).Else().Add(hostgo.Block(par)),
	}
	f.Assign(&c, m.Out, hostgo.Id(r))
	return c, ""
}

// parLoop renders a lowered loop (form lower.Loop) as the sequential loop
// below the grain and a runtime call over chunks above it.
func parLoop(f *hostgo.Func, lk *lower.Kernel, outs map[*ir.Var]string) (hostgo.Stmts, string) {
	if carried(lk) {
		return parCarried(f, lk, outs) // parscan.go
	}
	at := lk.Src.At.Pos()
	// Below the grain, the cpu backend's loop (belowGrain).
	seq, why := f.Loop(lk, outs)
	if why != "" {
		return nil, why
	}
	// Its outputs are allocated uncleared (parallel_alloc.go).
	lp := f.LoopParts(lk, outs, unclearedAlloc(f))
	// The first rendering declares the accumulators; its loop over
	// [0, n) is not placed.
	if _, why := lp.Loops("0", lp.N); why != "" {
		return nil, why
	}
	combine, why := lp.Combine()
	if why != "" {
		return nil, why
	}
	for _, m := range lk.Members {
		if m.Role == lower.Scan && m.Space != lower.Root {
			return nil, fmt.Sprintf("the scan %s at %s of a filter's kept elements does not run in parallel yet", m.SOAC.Name, short(f, m.SOAC.Pos()))
		}
	}
	var folds, scans []hostgo.LoopAcc
	for _, a := range lp.Accs {
		if a.Role == lower.Scan {
			scans = append(scans, a)
		} else {
			folds = append(folds, a)
		}
	}
	var kept []hostgo.LoopStore
	for _, s := range lp.Stores {
		if s.How == lower.AtCount || s.How == lower.Appended {
			kept = append(kept, s)
		}
	}
	var scanOut *hostgo.LoopStore
	switch {
	case len(scans) > 1:
		return nil, fmt.Sprintf("%d scans in one kernel do not run in parallel yet", len(scans))
	case len(scans) == 1 && (len(folds) > 0 || len(kept) > 0):
		return nil, fmt.Sprintf("the scan %s at %s beside a reduction or a filter's output does not run in parallel yet", scans[0].Member.Name, short(f, scans[0].Member.Pos()))
	case len(scans) == 1:
		// A member reading the scan's elements, as its input or at the
		// index (elementReads), makes the kernel carried (parCarried).
		sm := scans[0].Member
		for _, m := range lk.Members {
			if m.SOAC != sm && slices.Contains(elementReads(lk, m.SOAC), sm.Out) {
				return nil, fmt.Sprintf("the elements of the scan %s at %s are read by %s in the same kernel: its chunks' carries would have to be applied before; not parallelised yet", sm.Name, short(f, sm.Pos()), m.SOAC.Name)
			}
		}
		for i := range lp.Stores {
			if lp.Stores[i].V == sm.Out {
				scanOut = &lp.Stores[i]
			}
		}
	case len(kept) > 1:
		return nil, fmt.Sprintf("%d materialised outputs of kept elements in one kernel do not run in parallel yet", len(kept))
	}
	cost := costsOf(f)
	g := rtparallel.Grain(cost.kernelNanos(lk))
	if len(scans) > 0 || len(kept) > 0 {
		// A scan's or filter's chunk makes a second pass when it runs
		// alone (runtime/parallel: MinChunkNanos): twice the grain.
		g *= 2
	}
	// Split at two grains, into chunks of a few µs (runtime/parallel:
	// ChunksPerGrain); ForMeasured decides both itself from its timing.
	grain, cg := hostgo.Lit(g), hostgo.Lit(rtparallel.ChunkGrain(g))
	lo, hi := f.Fresh("lo"), f.Fresh("hi")
	// The code of the parallel branch calls copies of the members'
	// function literals made there, so that the sequential branch's
	// temporaries stay off the heap, and each chunk function its own,
	// which the compiler inlines into its loop as into the sequential
	// one, rather than calling a captured function value per element
	// (hostgo.Func.LocalFuncsUsed, ChunkFuncs).
	copies, restore := f.LocalFuncsUsed(lk, at)
	defer restore()
	inner, restoreInner := f.ChunkFuncs(lk, at)
	chunk, why := lp.Loops(lo, hi)
	if why != "" {
		restoreInner()
		return nil, why
	}
	// The accumulators and outputs are shadowed inside the chunk
	// function: each chunk folds from the neutral element into its own
	// locals, and reads the output slices as values, not through the
	// enclosing function's variables.
	var decls hostgo.Stmts
	for _, a := range folds {
		decls.Add(chunkStart(f, a, memberOf(lk, a.Member), lo)...)
	}
	// An exactly associative scan's chunk starts from its carry when the
	// runtime knows it (parallel.ScanExact), else from the neutral element.
	exact, start := len(scans) == 1 && exactType(scans[0].Member.Out.Type), ""
	if exact {
		start = f.Fresh("start")
	}
	for _, a := range scans {
		if exact {
			// Chunk 0's start is the spec's (chunkStart).
			decls.Add(hostgo.VarDecl(a.Name, a.Type, hostgo.Id(start)))
			if m := memberOf(lk, a.Member); m.StartNotNeutral {
				decls.Add(jen.If(jen.Id(lo).Op("==").Lit(0)).Add(hostgo.Block(hostgo.Stmts{hostgo.AssignTo(a.Name, a.Neutral)})))
			}
		} else {
			decls.Add(chunkStart(f, a, memberOf(lk, a.Member), lo)...)
		}
	}
	// The chunk's inputs and indexed outputs are cut at hi, and lo is
	// checked against them once, so that the compiler proves every
	// index in [lo, hi) in bounds: no check per element (the sequential
	// loop gets the same from its [0, n) reslices).
	bounds := func(name string) {
		decls.Add(hostgo.Define(name, jen.Id(name).Index(jen.Empty(), hostgo.Id(hi))))
		decls.Add(hostgo.AssignTo("_", jen.Id(name).Index(hostgo.Id(lo), jen.Empty())))
	}
	for _, in := range lp.Inputs {
		bounds(in)
	}
	for _, s := range lp.Stores {
		if s.How == lower.Indexed {
			bounds(s.Local)
		}
	}
	restoreInner()
	// fn returns the chunk function: func(lo, hi int, more) results
	// { decls; chunk; tail }.
	fn := func(more []jen.Code, results jen.Code, tail ...jen.Code) *jen.Statement {
		params := append([]jen.Code{hostgo.Id(lo), jen.Id(hi).Int()}, more...)
		body := append(append(append(inner(), decls...), chunk...), tail...)
		return jen.Func().Params(params...).Add(results).Add(hostgo.Block(body))
	}
	n := hostgo.Id(lp.N)
	var par hostgo.Stmts
	switch {
	case len(scans) == 1:
		a := scans[0]
		opFn, why := opFunc(f, a, at)
		if why != "" {
			return nil, why
		}
		var fix *jen.Statement
		if scanOut != nil {
			carry, i := f.Fresh("carry"), f.Fresh("i")
			var apply hostgo.Stmts
			if why := f.Apply(&apply, a.Op, []jen.Code{hostgo.Id(carry), hostgo.Index(scanOut.Local, hostgo.Id(i))}, hostgo.Index(scanOut.Local, hostgo.Id(i)), at); why != "" {
				return nil, why
			}
			fix = jen.Func().Params(hostgo.Id(lo), jen.Id(hi).Int(), jen.Id(carry).Add(a.Type)).Add(hostgo.Block(hostgo.Stmts{
				hostgo.Define(scanOut.Local, jen.Id(scanOut.Local).Index(jen.Empty(), hostgo.Id(hi))),
				hostgo.AssignTo("_", jen.Id(scanOut.Local).Index(hostgo.Id(lo), jen.Empty())),
				hostgo.CountLoop(i, hostgo.Id(lo), hostgo.Id(hi), apply),
			}))
		} else {
			fix = jen.Func().Params(jen.Int(), jen.Int(), a.Type).Block()
		}
		if exact {
			chunkFn := fn([]jen.Code{jen.Id(start).Add(a.Type)}, a.Type, jen.Return(hostgo.Id(a.Name)))
			ne := jen.Code(a.Neutral)
			if m := memberOf(lk, a.Member); m.StartNotNeutral {
				ne = identity(f, m)
			}
			par.Add(hostgo.AssignTo("_", jen.Qual(ParallelPath, "ScanExact").Call(n, cg, ne, chunkFn, fix, opFn)))
			break
		}
		par.Add(hostgo.AssignTo("_", jen.Qual(ParallelPath, "Scan").Call(n, cg, fn(nil, a.Type, jen.Return(hostgo.Id(a.Name))), fix, opFn)))
	case len(kept) == 1:
		s := kept[0]
		// The name kept is taken too: the text generator took it for
		// the count, and the generated names stay as they were.
		dst, _, tot := f.Fresh("dst"), f.Fresh("kept"), f.Fresh("total")
		pt, ret, comb, assign, why := partials(f, folds, at)
		if why != "" {
			return nil, why
		}
		var cnt, out *jen.Statement
		if s.How == lower.AtCount {
			decls.Add(hostgo.Define(s.Local, hostgo.Id(dst)), hostgo.Define(s.Count, hostgo.Lit(0)))
			cnt, out = hostgo.Id(s.Count), hostgo.Id(s.Local)
		} else {
			decls.Add(hostgo.Define(s.Local, jen.Id(dst).Index(jen.Empty(), hostgo.Lit(0))))
			cnt, out = jen.Len(hostgo.Id(s.Local)), jen.Id(s.Local).Index(jen.Empty(), n)
		}
		r := "_"
		if len(folds) > 0 {
			r = f.Fresh("r")
		}
		chunkFn := fn([]jen.Code{jen.Id(dst).Add(f.Type(s.V.Type))}, jen.Params(jen.Int(), pt), jen.Return(cnt, ret))
		par.Add(jen.List(hostgo.Id(tot), hostgo.Id(r)).Op(":=").Qual(ParallelPath, "FilterFold").Call(n, cg, out, chunkFn, comb))
		if s.How == lower.AtCount {
			par.Add(hostgo.AssignTo(s.Count, hostgo.Id(tot)))
		} else {
			par.Add(hostgo.AssignTo(s.Local, jen.Id(s.Local).Index(jen.Empty(), hostgo.Id(tot))))
		}
		par.Add(assign(r)...)
	case len(folds) > 0:
		pt, ret, comb, assign, why := partials(f, folds, at)
		if why != "" {
			return nil, why
		}
		r := f.Fresh("r")
		chunkFn := fn(nil, pt, jen.Return(ret))
		accInner, restoreAcc := f.ChunkFuncs(lk, at)
		ac := accumChunk(f, lk, outs, lp, folds, lo, hi, pt, accInner)
		restoreAcc()
		if ac != nil {
			chunkFn = ac // several accumulators per fold (paraccum.go)
		}
		par.Add(hostgo.Define(r, jen.Qual(ParallelPath, "Reduce").Call(n, cg, chunkFn, comb)))
		par.Add(assign(r)...)
	default:
		// A map whose count is unreliable times its first element.
		forFn, fg := "For", cg
		if cost.uncertain {
			forFn, fg = "ForMeasured", grain
		}
		par.Add(jen.Qual(ParallelPath, forFn).Call(n, fg, fn(nil, jen.Null())))
	}
	par = append(copies(), par...)
	// The guard's unfused code runs outside the chunk functions: it
	// calls the functions evaluated at their SOACs, not the copies.
	restore()
	return belowGrain(lp, grain, seq, par, combine), ""
}

// belowGrain returns a loop kernel's code: below grain the cpu backend's
// loop seq (hostgo.Func.Loop, its guard included), so that a small input
// runs the instructions the cpu backend's code runs (make, not
// parallel.Alloc), else lp's guard around the parallel
// branch: lp's length, its Pre (the uncleared outputs), par, combine and
// its Post. The length is evaluated in the test and again in the branch
// taken: len of a variable, a constant, or an operand's temporary
// (hostgo evaluates operands where they are written), all free of
// effects.
func belowGrain(lp *hostgo.LoopParts, grain *jen.Statement, seq jen.Code, par, combine hostgo.Stmts) hostgo.Stmts {
	body := hostgo.Stmts{hostgo.Define(lp.N, lp.Length)}
	body.Add(*lp.Pre...)
	// A scan's accumulator is the sequential loop's: the chunks fold
	// into their own.
	for _, a := range lp.Accs {
		if a.Role == lower.Scan {
			body.Add(hostgo.AssignTo("_", hostgo.Id(a.Name)))
		}
	}
	body.Add(par...).Add(combine...).Add(*lp.Post...)
	test := jen.Qual(ParallelPath, "Sequential").Call(lp.Length, grain)
	return hostgo.Stmts{jen.If(test).Add(hostgo.Block(hostgo.Stmts{seq})).Else().Add(hostgo.Block(hostgo.Stmts{lp.Guard(body)}))}
}

// partials returns, for the folds' accumulators, the struct type of a
// chunk's partial results, the struct literal a chunk returns, the
// function that combines two partials field by field with each fold's
// operator, and the assignments of a combined partial r to the
// accumulators.
func partials(f *hostgo.Func, folds []hostgo.LoopAcc, at token.Pos) (typ, ret, comb *jen.Statement, assign func(r string) hostgo.Stmts, why string) {
	// One field a line (jen.Struct): gofmt is not idempotent on a
	// one-line struct type of several fields before a function body.
	var fields, values []jen.Code
	for i, a := range folds {
		fields = append(fields, jen.Id(fmt.Sprintf("f%d", i)).Add(a.Type))
		values = append(values, hostgo.Id(a.Name))
	}
	typ = jen.Struct(fields...)
	ret = jen.Add(typ).Values(values...)
	x, y := f.Fresh("x"), f.Fresh("y")
	var body hostgo.Stmts
	for i, a := range folds {
		field := jen.Id(x).Dot(fmt.Sprintf("f%d", i))
		if why := f.Apply(&body, a.Op, []jen.Code{field, jen.Id(y).Dot(fmt.Sprintf("f%d", i))}, field, at); why != "" {
			return nil, nil, nil, nil, why
		}
	}
	body.Add(jen.Return(hostgo.Id(x)))
	comb = jen.Func().Params(hostgo.Id(x), jen.Id(y).Add(typ)).Add(typ).Add(hostgo.Block(body))
	assign = func(r string) hostgo.Stmts {
		var c hostgo.Stmts
		for i, a := range folds {
			c.Add(hostgo.AssignTo(a.Name, jen.Id(r).Dot(fmt.Sprintf("f%d", i))))
		}
		return c
	}
	return typ, ret, comb, assign, ""
}

// opFunc returns a's operator as a function value of type func(T, T) T,
// its body inlined.
func opFunc(f *hostgo.Func, a hostgo.LoopAcc, at token.Pos) (*jen.Statement, string) {
	x, y, r := f.Fresh("x"), f.Fresh("y"), f.Fresh("r")
	body := hostgo.Stmts{hostgo.VarDecl(r, a.Type, nil)}
	if why := f.Apply(&body, a.Op, []jen.Code{hostgo.Id(x), hostgo.Id(y)}, hostgo.Id(r), at); why != "" {
		return nil, why
	}
	body.Add(jen.Return(hostgo.Id(r)))
	return jen.Func().Params(hostgo.Id(x), jen.Id(y).Add(a.Type)).Add(a.Type).Add(hostgo.Block(body)), ""
}

// short is position p as file:line:col with the file's base name, for
// reasons (the warning that carries them names the full path first).
func short(f *hostgo.Func, p token.Pos) string {
	pos := f.Fset().Position(p)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(pos.Filename), pos.Line, pos.Column)
}
