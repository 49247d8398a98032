package parallel

// This file renders maps fused into the chunks of a stream (form
// lowered.Chunked: a StreamRed or StreamMap whose input the maps compute
// chunk by chunk, as the cpu backend's chunk loop does) over the chunks
// of runtime/parallel: below the grain, the cpu backend's chunk loop
// itself (hostgo.FusedStream, so that a small input allocates what the
// cpu backend's code does); above it, parallel.StreamRedChunks or
// parallel.StreamMapChunks, whose chunk function computes the maps'
// elements of its range (into its buffer, or inside the stream's chunk
// function's range loop) and applies the stream's chunk function
// (hostgo.StreamParts). A StreamRed starts from f(empty), as the spec
// does, and combines the chunks' results in chunk order; a StreamMap
// whose chunk function returns a chunk of the wrong length runs the
// spec's calls, whose panic names the spec's chunk. The spec's streams
// promise a result independent of the chunks, and the runtime's chunks
// depend on n and the grain only, so the result is the same for any
// number of cores. It does not decide the kernel's shape or buffer
// (rewrite/lower does) nor schedule the chunks (runtime/parallel does).

import (
	"go/ast"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
	rtparallel "github.com/soacgen/soacgen/runtime/parallel"
)

// parChunked renders lk (form lowered.Chunked) as the cpu backend's chunk
// loop below the grain and a runtime call over chunks above it.
func parChunked(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string) (hostgo.Stmts, string) {
	seq, why := f.FusedStream(lk, outs)
	if why != "" {
		return nil, why
	}
	// Chunks of a whole grain, as a lone stream's (parStream), not of
	// ChunkGrain's eighth: a chunk also runs the chunk function's
	// per-chunk work (its result's allocation, the operator's combine),
	// which the estimate per element does not count.
	grain := hostgo.Lit(rtparallel.Grain(costsOf(f).streamNanos(lk)))
	n := f.Fresh("n")
	par, inputLen, why := parChunks(f, lk, outs, n, grain)
	if why != "" {
		return nil, why
	}
	return seqOrPar(inputLen, grain, seq, n, par), ""
}

// seqOrPar returns a stream kernel's code: below grain the cpu backend's
// code seq, else par with n, the name it reads the length by (none: ""),
// defined as length (the length of an input: read twice, free of
// effects).
func seqOrPar(length, grain *jen.Statement, seq jen.Code, n string, par hostgo.Stmts) hostgo.Stmts {
	test := jen.Qual(hostgo.ParallelPath, "Sequential").Call(length, grain)
	if n != "" {
		par = append(hostgo.Stmts{hostgo.Define(n, length)}, par...)
	}
	return hostgo.Stmts{jen.If(test).Add(hostgo.Block(hostgo.Stmts{seq})).Else().Add(hostgo.Block(par))}
}

// parChunks returns the parallel branch of parChunked: lk's chunks run
// by the runtime in chunks of grain, n naming the kernel's length, which
// the caller defines as the expression returned (the length of the
// kernel's first input).
func parChunks(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string, n string, grain *jen.Statement) (hostgo.Stmts, *jen.Statement, string) {
	// The maps' materialised outputs are written through locals of the
	// parallel branch, assigned once: the chunk function captures their
	// values, not the outputs' variables (which would move to the heap
	// on the sequential path too).
	var decls, post hostgo.Stmts
	pouts := map[*ir.Var]string{}
	for v, name := range outs {
		pouts[v] = name
	}
	for _, m := range lk.Src.SOACs[:len(lk.Src.SOACs)-1] {
		if name, ok := outs[m.Out]; ok && name != "_" {
			local := f.Fresh("out")
			pouts[m.Out] = local
			decls.Add(hostgo.VarDecl(local, f.Type(m.Out.Type), nil))
			post.Add(hostgo.AssignTo(name, hostgo.Id(local)))
		}
	}
	sp := f.StreamParts(lk, pouts, f.UnclearedAlloc(), n)
	// The code of the parallel branch calls copies of the members'
	// function literals made there, so that the sequential branch's
	// temporaries stay off the heap, and the chunk function its own,
	// which the compiler inlines into its loop
	// (hostgo.Func.LocalFuncsUsed, ChunkFuncs).
	copies, restore := f.LocalFuncsUsed(lk, lk.Src.At.Pos())
	defer restore()
	lo, hi, buf := f.Fresh("lo"), f.Fresh("hi"), f.Fresh("buf")
	inner, restoreInner := f.ChunkFuncs(lk, lk.Src.At.Pos())
	chunk, res, why := sp.Chunk(lo, hi, buf)
	restoreInner()
	if why != "" {
		return nil, nil, why
	}
	bufName := jen.Id(buf)
	if !sp.Scratch {
		bufName = jen.Id("_")
	}
	body := append(append(inner(), chunk...), jen.Return(hostgo.Id(res)))
	chunkFn := jen.Func().Params(hostgo.Id(lo), jen.Id(hi).Int(), bufName.Index().Add(sp.Elem)).Add(sp.Result).Add(hostgo.Block(body))
	var par hostgo.Stmts
	par.Add(decls...)
	par.Add(sp.Pre...)
	scratch := jen.Lit(sp.Scratch)
	switch sp.Kind {
	case ir.StreamRed:
		empty, acc, why := sp.Empty()
		if why != "" {
			return nil, nil, why
		}
		op, why := sp.Op()
		if why != "" {
			return nil, nil, why
		}
		par.Add(empty...)
		par.Add(hostgo.AssignTo(sp.Out, jen.Qual(hostgo.ParallelPath, "StreamRedChunks").Call(hostgo.Id(n), grain, scratch, hostgo.Id(acc), op, chunkFn)))
		par.Add(post...)
	default:
		// A chunk of the wrong length: the spec's calls, which panic
		// as the spec does (or raise the maps' panic first).
		r, ok := f.Fresh("r"), f.Fresh("ok")
		call := jen.Qual(hostgo.ParallelPath, "StreamMapChunks").Call(hostgo.Id(n), grain, scratch, chunkFn)
		par.Add(jen.List(hostgo.Id(r), hostgo.Id(ok)).Op(":=").Add(call))
		par.Add(jen.If(hostgo.Id(ok)).Add(hostgo.Block(append(hostgo.Stmts{hostgo.AssignTo(sp.Out, hostgo.Id(r))}, post...))).Else().Add(hostgo.Block(hostgo.Stmts{f.Unfused(lk.Src, outs)})))
	}
	return append(copies(), par...), sp.InputLen(), ""
}

// streamNanos estimates the nanoseconds of one element of lk's chunk
// loop (form lowered.Chunked): each map's store and lambda, and the chunk
// function's work per element of its chunk (chunkUnits). The operator
// runs once per chunk and is not counted.
func (c *costs) streamNanos(lk *lowered.Kernel) int {
	u := 0
	for _, m := range lk.Members {
		u += unitsOp
		switch op := m.SOAC.Op.(type) {
		case *ir.Screma:
			u += c.lambdaUnits(op.Map, false)
		case *ir.Stream:
			u += c.chunkUnits(op.Chunk)
		}
	}
	return max(1, u/unitsPerNanos)
}

// chunkUnits counts the work of chunk function l per element of its
// chunk: the bodies of its outermost loops, which run over the chunk,
// and not the statements around them, which run once per chunk (a
// result's allocation, say). A function whose body has no loop, or whose
// body is not known, counts whole (lambdaUnits).
func (c *costs) chunkUnits(l *ir.Lambda) int {
	var body *ast.BlockStmt
	switch {
	case l == nil:
	case l.Lit != nil:
		body = l.Lit.Body
	case l.Func != nil && c.decls[l.Func] != nil:
		body = c.decls[l.Func].Body
	}
	if body == nil {
		return c.lambdaUnits(l, true)
	}
	u, loops := 0, 0
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // its loops run when it is called
		case *ast.ForStmt:
			loops++
			u += c.bodyUnits(n, true, 0, nil)
			return false
		case *ast.RangeStmt:
			loops++
			u += c.bodyUnits(n, true, 0, nil)
			return false
		}
		return true
	})
	if loops == 0 {
		return c.lambdaUnits(l, true)
	}
	return u
}
