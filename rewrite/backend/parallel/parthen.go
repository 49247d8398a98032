package parallel

// This file renders a StreamMap whose chunk loop runs more members of
// its kernel (form lower.ChunkedThen: scans carrying their accumulators
// from chunk to chunk, filters their kept counts, maps and folds). Below
// the stream's grain it is the cpu backend's chunk loop itself
// (hostgo.FusedStreamThen), so that a small input runs and allocates
// what the cpu backend's code does. Above it, the kernel runs in two
// parallel steps, in the spec's order:
//
//  1. the stream's half (lk.StreamPart) computes the whole stream output
//     into a local array: parallel.StreamMapChunks over the runtime's
//     chunks, each computing the maps' elements of its range and
//     applying the chunk function (parChunks), or, when the stream reads
//     an input of the kernel, parallel.StreamMapOr; a chunk of the wrong
//     length runs the spec's calls, whose panic names the spec's chunk;
//  2. the members' half (lk.ThenPart) runs as a loop over that array
//     (parLoop): a lone scan by parallel.Scan, a scan beside other
//     members, a scan of kept elements or kept elements beside folds by
//     parallel.Carried (pass 1 the chunks' totals, carries combined in
//     chunk order, pass 2 each chunk from its carry), folds by
//     parallel.Reduce, filters by parallel.Filter/FilterFold.
//
// The spec's StreamMap runs every chunk before its consumers see an
// element, so running the whole stream first keeps its panics (the
// chunk function's, a wrong length) before the members' (the lowest
// index of the loop, as parLoop raises it), with no rerun. The stream's
// result does not depend on its chunks (CONTRACT.md streams) and the
// runtime's chunks, like the association of every float in step 2,
// depend on n and the grain only: the result is the same bits for any
// number of cores. The stream's output costs one array of n elements
// here, which the sequential chunk loop does not allocate.
//
// It does not decide the kernel's shape (rewrite/lower does) nor which
// members need a carry (parLoop and parscan.go do).

import (
	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lower"
	rtparallel "github.com/soacgen/soacgen/runtime/parallel"
)

// thenGrainFactor scales the stream's grain for a ChunkedThen kernel:
// its parallel form writes the stream's whole output and reads it back
// in a second loop, traffic the sequential chunk loop (which reads each
// chunk while it is in cache) does not have, and the estimate counts
// the stream's half only. Measured on the 16-core host (BENCHMARKS.md,
// "Fourth session"): with the stream's own grain the parallel form was
// 0.6x cpu at 1e5 elements (StreamScan, StreamFilter) and 1.2-2.7x at
// 1e6; 16 grains keeps 1e5 on the sequential path.
const thenGrainFactor = 16

// parThen renders lk (form lower.ChunkedThen) as the cpu backend's chunk
// loop below the stream's grain and as the stream's output computed in
// parallel, then the members' loop over it in parallel, above it; or
// returns the reason it cannot (a half the backend refuses).
func parThen(f *hostgo.Func, lk *lower.Kernel, outs map[*ir.Var]string) (hostgo.Stmts, string) {
	seq, why := f.FusedStreamThen(lk, outs)
	if why != "" {
		return nil, why
	}
	s := lk.Stream()
	st := s.Op.(*ir.Stream)
	head, then := lk.StreamPart(), lk.ThenPart()
	input := lk.Chunk.Buffer == lower.Input
	nanos := 0
	if input {
		nanos = costsOf(f).lambdaNanos(st.Chunk, true)
	} else {
		nanos = costsOf(f).streamNanos(head)
	}
	grain := hostgo.Lit(thenGrainFactor * rtparallel.Grain(nanos))
	n, ys := f.Fresh("n"), f.Fresh("ys")
	// The stream's half assigns its output to ys, a local of the
	// parallel branch; the maps' materialised outputs go where the
	// kernel's outputs go.
	souts := map[*ir.Var]string{}
	for v, name := range outs {
		souts[v] = name
	}
	souts[s.Out] = ys
	par := hostgo.Stmts{hostgo.VarDecl(ys, f.Type(s.Out.Type), nil)}
	var inputLen *jen.Statement
	if input {
		xs := hostgo.Id(f.Name(st.Input))
		inputLen = jen.Len(xs)
		// The closures the runtime call captures are made here, in the
		// parallel branch (hostgo.Func.LocalFuncs).
		copies, restore := f.LocalFuncs(head, lk.Src.At.Pos())
		ref := jen.Func().Params().Add(f.Type(s.Out.Type)).Add(hostgo.Block(hostgo.Stmts{jen.Return(f.Call(s, true))}))
		call := jen.Qual(ParallelPath, "StreamMapOr").Call(xs, grain, f.FuncExpr(st.Chunk), ref)
		restore()
		par.Add(copies...)
		par.Add(hostgo.AssignTo(ys, call))
	} else {
		p, l, why := parChunks(f, head, souts, n, grain)
		if why != "" {
			return nil, why
		}
		inputLen = l
		par.Add(p...)
	}
	// The members' half reads the stream's output from ys.
	restore := f.BindName(s.Out, ys)
	tail, why := parLoop(f, then, outs)
	restore()
	if why != "" {
		return nil, why
	}
	par.Add(tail...)
	if out, ok := outs[s.Out]; ok && out != "_" {
		par.Add(hostgo.AssignTo(out, hostgo.Id(ys)))
	}
	return hostgo.Stmts{hostgo.Block(hostgo.Stmts{
		hostgo.Define(n, inputLen),
		jen.If(jen.Qual(ParallelPath, "Sequential").Call(hostgo.Id(n), grain)).Add(hostgo.Block(hostgo.Stmts{seq})).Else().Add(hostgo.Block(par)),
	})}, ""
}
