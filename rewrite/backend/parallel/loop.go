package parallel

// This file renders a lowered loop (form lowered.Loop) that needs no carry
// (carried.go renders those): below the grain the cpu backend's loop
// (belowGrain), above it the loop's body (hostgo.LoopParts) as the
// chunk function of one runtime call, by the loop's shape (loopShape):
//
//   - maps alone: parallel.For (ForMeasured where the work estimate is
//     uncertain), each chunk writing its range of the outputs;
//   - folds: parallel.Reduce with a struct of the accumulators, combined
//     field by field in chunk order (partials), a cheap kernel's
//     commutative folds over 4 accumulators in the chunk (accum.go);
//   - one scan whose elements only its output reads: parallel.Scan, or
//     ScanExact when its type is exactly associative, the chunk's local
//     scan then op(carry, out[i]) on the chunk's outputs;
//   - one output of kept elements, with any folds: parallel.FilterFold,
//     the chunk compacting into its dst.
//
// Every chunk function declares its own accumulators and cuts its inputs
// and outputs to its range (loopChunks.declare).

import (
	"fmt"
	"go/token"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend/cpu"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
	"github.com/soacgen/soacgen/rewrite/vector"
	rtparallel "github.com/soacgen/soacgen/runtime/parallel"
)

// parLoop renders a lowered loop (form lowered.Loop) as the sequential loop
// below the grain and a runtime call over chunks above it.
func parLoop(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string) (hostgo.Stmts, string) {
	if carried(lk) {
		return parCarried(f, lk, outs) // carried.go
	}
	at := lk.Src.At.Pos()
	seq, lp, combine, why := loopParts(f, lk, outs)
	if why != "" {
		return nil, why
	}
	shape, why := loopShapeOf(f, lk, lp)
	if why != "" {
		return nil, why
	}
	cost := costsOf(f)
	g := rtparallel.Grain(cost.kernelNanos(lk))
	if len(shape.scans) > 0 || len(shape.kept) > 0 {
		// A scan's or filter's chunk makes a second pass when it runs
		// alone (runtime/parallel: MinChunkNanos): twice the grain.
		g *= 2
	}
	// Split at two grains, into chunks of a few µs (runtime/parallel:
	// ChunksPerGrain); ForMeasured decides both itself from its timing.
	c := &loopChunks{f: f, lk: lk, outs: outs, lp: lp, loopShape: shape, at: at, cost: cost}
	c.grain, c.cg, c.n = hostgo.Lit(g), hostgo.Lit(rtparallel.ChunkGrain(g)), hostgo.Id(lp.N)
	c.lo, c.hi = f.Fresh("lo"), f.Fresh("hi")
	// The code of the parallel branch calls copies of the members'
	// function literals made there, so that the sequential branch's
	// temporaries stay off the heap, and each chunk function its own,
	// which the compiler inlines into its loop as into the sequential
	// one, rather than calling a captured function value per element
	// (hostgo.Func.LocalFuncsUsed, ChunkFuncs).
	copies, restore := f.LocalFuncsUsed(lk, at)
	defer restore()
	inner, restoreInner := f.ChunkFuncs(lk, at)
	c.inner = inner
	// Each chunk runs the kernel's vector forms first, where it has
	// them (rewrite/vector), then its scalar loop from where they
	// stopped.
	vk, _ := vector.Build(f, lk)
	if len(shape.kept) > 0 {
		// A chunk writes its kept elements into its own part of the
		// output and no further (KeptStoresOnly); a compressed vector
		// store writes whole vectors.
		vk = nil
	}
	start := c.lo
	if vk != nil {
		start = f.Fresh("start")
	}
	c.chunk, why = lp.Loops(start, c.hi)
	if why != "" {
		restoreInner()
		return nil, why
	}
	if vk != nil {
		c.chunk = append(vk.CallChunk(lp, start, c.lo, c.hi), c.chunk...)
	}
	c.declare()
	restoreInner()
	var par hostgo.Stmts
	switch {
	case len(shape.scans) == 1:
		par, why = c.scanCall()
	case len(shape.kept) == 1:
		par, why = c.filterCall()
	case len(shape.folds) > 0:
		par, why = c.reduceCall()
	default:
		par = c.forCall()
	}
	if why != "" {
		return nil, why
	}
	par = append(copies(), par...)
	// The guard's unfused code runs outside the chunk functions: it
	// calls the functions evaluated at their SOACs, not the copies.
	restore()
	return belowGrain(lp, c.grain, seq, par, combine), ""
}

// loopShape is what a loop kernel's parallel form depends on: its folds'
// and scans' accumulators, its outputs of kept elements (stored at the
// count or appended), and the output of its one scan (nil when it has
// none or the scan's is not stored).
type loopShape struct {
	folds, scans []hostgo.LoopAcc
	kept         []hostgo.LoopStore
	scanOut      *hostgo.LoopStore
}

// loopShapeOf returns the shape of lk, whose loop parts lp were rendered
// once, or why it does not run in parallel without a carry (a scan of a
// filter's kept elements, several scans, a scan beside a fold or kept
// elements or whose elements another member reads, several outputs of
// kept elements: carried catches those first).
func loopShapeOf(f *hostgo.Func, lk *lowered.Kernel, lp *hostgo.LoopParts) (loopShape, string) {
	var sh loopShape
	for _, m := range lk.Members {
		if m.Role == lowered.Scan && m.Space != lowered.Root {
			return sh, fmt.Sprintf("the scan %s at %s of a filter's kept elements does not run in parallel yet", m.SOAC.Name, short(f, m.SOAC.Pos()))
		}
	}
	sh.folds, sh.scans = splitAccs(lp.Accs)
	for _, s := range lp.Stores {
		if s.How == lowered.AtCount || s.How == lowered.Appended {
			sh.kept = append(sh.kept, s)
		}
	}
	switch {
	case len(sh.scans) > 1:
		return sh, fmt.Sprintf("%d scans in one kernel do not run in parallel yet", len(sh.scans))
	case len(sh.scans) == 1 && (len(sh.folds) > 0 || len(sh.kept) > 0):
		return sh, fmt.Sprintf("the scan %s at %s beside a reduction or a filter's output does not run in parallel yet", sh.scans[0].Member.Name, short(f, sh.scans[0].Member.Pos()))
	case len(sh.scans) == 1:
		// A member reading the scan's elements, as its input or at the
		// index (elementReads), makes the kernel carried (parCarried).
		sm := sh.scans[0].Member
		for _, m := range lk.Members {
			if m.SOAC != sm && slices.Contains(elementReads(lk, m.SOAC), sm.Out) {
				return sh, fmt.Sprintf("the elements of the scan %s at %s are read by %s in the same kernel: its chunks' carries would have to be applied before; not parallelised yet", sm.Name, short(f, sm.Pos()), m.SOAC.Name)
			}
		}
		for i := range lp.Stores {
			if lp.Stores[i].V == sm.Out {
				sh.scanOut = &lp.Stores[i]
			}
		}
	case len(sh.kept) > 1:
		return sh, fmt.Sprintf("%d materialised outputs of kept elements in one kernel do not run in parallel yet", len(sh.kept))
	}
	return sh, ""
}

// loopChunks is the parallel branch of a loop kernel being built
// (parLoop): its chunk function's pieces and the runtime call's operands.
type loopChunks struct {
	f    *hostgo.Func
	lk   *lowered.Kernel
	outs map[*ir.Var]string
	lp   *hostgo.LoopParts
	loopShape
	at   token.Pos
	cost *costs
	// grain is the kernel's grain, cg its chunks' (runtime/parallel:
	// ChunkGrain), n its length.
	grain, cg, n *jen.Statement
	// lo and hi name a chunk function's range.
	lo, hi string
	// inner declares the chunk function's copies of the function
	// literals (hostgo.Func.ChunkFuncs); decls its accumulators and
	// reslices (declare); chunk is the loop over [lo, hi).
	inner        func() hostgo.Stmts
	decls, chunk hostgo.Stmts
	// exact is set when the one scan starts from its carry where the
	// runtime knows it (parallel.ScanExact), start naming the parameter.
	exact bool
	start string
}

// declare sets c.decls: the chunk function's accumulators and outputs,
// shadowed inside it: each chunk folds from the neutral element into its
// own locals, and reads the output slices as values, not through the
// enclosing function's variables.
func (c *loopChunks) declare() {
	f, lk, lo, hi := c.f, c.lk, c.lo, c.hi
	for _, a := range c.folds {
		c.decls.Add(chunkStart(f, a, memberOf(lk, a.Member), lo)...)
	}
	// An exactly associative scan's chunk starts from its carry when the
	// runtime knows it (parallel.ScanExact), else from the neutral element.
	c.exact = len(c.scans) == 1 && exactType(c.scans[0].Member.Out.Type)
	if c.exact {
		c.start = f.Fresh("start")
	}
	for _, a := range c.scans {
		if c.exact {
			// Chunk 0's start is the spec's (chunkStart).
			c.decls.Add(hostgo.VarDecl(a.Name, a.Type, hostgo.Id(c.start)))
			if m := memberOf(lk, a.Member); m.StartNotNeutral {
				c.decls.Add(jen.If(jen.Id(lo).Op("==").Lit(0)).Add(hostgo.Block(hostgo.Stmts{hostgo.AssignTo(a.Name, a.Neutral)})))
			}
		} else {
			c.decls.Add(chunkStart(f, a, memberOf(lk, a.Member), lo)...)
		}
	}
	// The chunk's inputs and indexed outputs are cut at hi, and lo is
	// checked against them once, so that the compiler proves every
	// index in [lo, hi) in bounds: no check per element (the sequential
	// loop gets the same from its [0, n) reslices).
	for _, in := range c.lp.Inputs {
		cutToChunk(&c.decls, in, lo, hi, true)
	}
	for _, s := range c.lp.Stores {
		if s.How == lowered.Indexed {
			cutToChunk(&c.decls, s.Local, lo, hi, true)
		}
	}
}

// cutToChunk adds to c the statements that cut array name at hi and
// check it against lo once, so that the compiler proves every index in
// [lo, hi) in bounds; define declares the cut array (a chunk function's
// own), else it is assigned.
func cutToChunk(c *hostgo.Stmts, name, lo, hi string, define bool) {
	cutAt := jen.Id(name).Index(jen.Empty(), hostgo.Id(hi))
	if define {
		c.Add(hostgo.Define(name, cutAt))
	} else {
		c.Add(hostgo.AssignTo(name, cutAt))
	}
	c.Add(hostgo.AssignTo("_", jen.Id(name).Index(hostgo.Id(lo), jen.Empty())))
}

// chunkFunc returns the chunk function: func(lo, hi int, more) results
// { inner; decls; chunk; tail }.
func (c *loopChunks) chunkFunc(more []jen.Code, results jen.Code, tail ...jen.Code) *jen.Statement {
	params := append([]jen.Code{hostgo.Id(c.lo), jen.Id(c.hi).Int()}, more...)
	body := append(append(append(c.inner(), c.decls...), c.chunk...), tail...)
	return jen.Func().Params(params...).Add(results).Add(hostgo.Block(body))
}

// scanCall returns the parallel branch of a kernel of one scan:
// parallel.ScanExact or Scan, the chunks' local scans fixed up from
// their carries where the scan's output is stored.
func (c *loopChunks) scanCall() (hostgo.Stmts, string) {
	f, lo, hi := c.f, c.lo, c.hi
	a := c.scans[0]
	opFn, why := opFunc(f, a, c.at)
	if why != "" {
		return nil, why
	}
	var fix *jen.Statement
	if c.scanOut != nil {
		out := c.scanOut.Local
		carry, i := f.Fresh("carry"), f.Fresh("i")
		var apply hostgo.Stmts
		if why := f.Apply(&apply, a.Op, []jen.Code{hostgo.Id(carry), hostgo.Index(out, hostgo.Id(i))}, hostgo.Index(out, hostgo.Id(i)), c.at); why != "" {
			return nil, why
		}
		fix = jen.Func().Params(hostgo.Id(lo), jen.Id(hi).Int(), jen.Id(carry).Add(a.Type)).Add(hostgo.Block(hostgo.Stmts{
			hostgo.Define(out, jen.Id(out).Index(jen.Empty(), hostgo.Id(hi))),
			hostgo.AssignTo("_", jen.Id(out).Index(hostgo.Id(lo), jen.Empty())),
			hostgo.CountLoop(i, hostgo.Id(lo), hostgo.Id(hi), apply),
		}))
	} else {
		fix = jen.Func().Params(jen.Int(), jen.Int(), a.Type).Block()
	}
	if c.exact {
		chunkFn := c.chunkFunc([]jen.Code{jen.Id(c.start).Add(a.Type)}, a.Type, jen.Return(hostgo.Id(a.Name)))
		ne := jen.Code(a.Neutral)
		if m := memberOf(c.lk, a.Member); m.StartNotNeutral {
			ne = identity(f, m)
		}
		return hostgo.Stmts{hostgo.AssignTo("_", jen.Qual(hostgo.ParallelPath, "ScanExact").Call(c.n, c.cg, ne, chunkFn, fix, opFn))}, ""
	}
	return hostgo.Stmts{hostgo.AssignTo("_", jen.Qual(hostgo.ParallelPath, "Scan").Call(c.n, c.cg, c.chunkFunc(nil, a.Type, jen.Return(hostgo.Id(a.Name))), fix, opFn))}, ""
}

// filterCall returns the parallel branch of a kernel of one output of
// kept elements and any folds: parallel.FilterFold, each chunk
// compacting its kept elements into its dst and returning their count
// and its folds' partials.
func (c *loopChunks) filterCall() (hostgo.Stmts, string) {
	f := c.f
	s := c.kept[0]
	// The name kept is taken too: the text generator took it for
	// the count, and the generated names stay as they were.
	dst, _, tot := f.Fresh("dst"), f.Fresh("kept"), f.Fresh("total")
	pt, ret, comb, assign, why := partials(f, c.folds, c.at)
	if why != "" {
		return nil, why
	}
	var cnt, out *jen.Statement
	if s.How == lowered.AtCount {
		c.decls.Add(hostgo.Define(s.Local, hostgo.Id(dst)), hostgo.Define(s.Count, hostgo.Lit(0)))
		cnt, out = hostgo.Id(s.Count), hostgo.Id(s.Local)
	} else {
		c.decls.Add(hostgo.Define(s.Local, jen.Id(dst).Index(jen.Empty(), hostgo.Lit(0))))
		cnt, out = jen.Len(hostgo.Id(s.Local)), jen.Id(s.Local).Index(jen.Empty(), c.n)
	}
	r := "_"
	if len(c.folds) > 0 {
		r = f.Fresh("r")
	}
	chunkFn := c.chunkFunc([]jen.Code{jen.Id(dst).Add(f.Type(s.V.Type))}, jen.Params(jen.Int(), pt), jen.Return(cnt, ret))
	par := hostgo.Stmts{jen.List(hostgo.Id(tot), hostgo.Id(r)).Op(":=").Qual(hostgo.ParallelPath, "FilterFold").Call(c.n, c.cg, out, chunkFn, comb)}
	if s.How == lowered.AtCount {
		par.Add(hostgo.AssignTo(s.Count, hostgo.Id(tot)))
	} else {
		par.Add(hostgo.AssignTo(s.Local, jen.Id(s.Local).Index(jen.Empty(), hostgo.Id(tot))))
	}
	par.Add(assign(r)...)
	return par, ""
}

// reduceCall returns the parallel branch of a kernel of folds (and
// maps): parallel.Reduce over the chunks' partials, a cheap kernel's
// commutative folds over several accumulators per chunk (accum.go).
func (c *loopChunks) reduceCall() (hostgo.Stmts, string) {
	f := c.f
	pt, ret, comb, assign, why := partials(f, c.folds, c.at)
	if why != "" {
		return nil, why
	}
	r := f.Fresh("r")
	chunkFn := c.chunkFunc(nil, pt, jen.Return(ret))
	accInner, restoreAcc := f.ChunkFuncs(c.lk, c.at)
	ac := accumChunk(f, c.lk, c.outs, c.lp, c.folds, c.lo, c.hi, pt, accInner)
	restoreAcc()
	if ac != nil {
		chunkFn = ac // several accumulators per fold (accum.go)
	}
	par := hostgo.Stmts{hostgo.Define(r, jen.Qual(hostgo.ParallelPath, "Reduce").Call(c.n, c.cg, chunkFn, comb))}
	par.Add(assign(r)...)
	return par, ""
}

// forCall returns the parallel branch of a kernel of maps: parallel.For,
// or ForMeasured, which times its first element, where the work
// estimate is uncertain.
func (c *loopChunks) forCall() hostgo.Stmts {
	forFn, fg := "For", c.cg
	if c.cost.uncertain {
		forFn, fg = "ForMeasured", c.grain
	}
	return hostgo.Stmts{jen.Qual(hostgo.ParallelPath, forFn).Call(c.n, fg, c.chunkFunc(nil, jen.Null()))}
}

// loopParts renders the parts both chunked forms start from: the cpu
// backend's loop seq, which runs below the grain (belowGrain), the loop's
// parts lp with its outputs allocated uncleared (alloc.go) and
// its accumulators declared by a first rendering whose loop over [0, n)
// is not placed, and the combine of the accumulators.
func loopParts(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string) (seq *jen.Statement, lp *hostgo.LoopParts, combine hostgo.Stmts, why string) {
	seq, why = cpu.Loop(f, lk, outs)
	if why != "" {
		return nil, nil, nil, why
	}
	lp = f.LoopParts(lk, outs, f.UnclearedAlloc())
	if _, why := lp.Loops("0", lp.N); why != "" {
		return nil, nil, nil, why
	}
	combine, why = lp.Combine()
	if why != "" {
		return nil, nil, nil, why
	}
	return seq, lp, combine, ""
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
		if a.Role == lowered.Scan {
			body.Add(hostgo.AssignTo("_", hostgo.Id(a.Name)))
		}
	}
	body.Add(par...).Add(combine...).Add(*lp.Post...)
	test := jen.Qual(hostgo.ParallelPath, "Sequential").Call(lp.Length, grain)
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
