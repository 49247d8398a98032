package parallel

// This file gives the reductions nested in the lambda of a parallel
// kernel several accumulators (matmul's inner product,
// Reduce(+, 0, Map2(*, row, col)), ran as one float add chain per
// element of the product, bound by the add's latency on every core).
//
// A nested kernel (depth > 0) runs inside one element of its parent, as
// the cpu backend's loop. Where accum.go would split a chunk of the
// same kernel (accumKernel: a cheap loop, estimated at accumMaxNanos or
// less an element, whose folds include a commutative one, no scan, no
// stream and no stored kept elements, not already split by lower), the
// loop runs as that chunk does: unrolled accumFactor times, each
// commutative fold over accumFactor interleaved accumulators (element i
// into accumulator i mod accumFactor, the remainder into accumulator 0),
// combined pairwise after the loop, (a0 op a1) op (a2 op a3). Below
// nestedMinLen elements it runs the plain loop (the cpu backend's, the
// spec's order): the combine would cost more than the chain it breaks.
//
// The association depends on the inner length only, never on
// GOMAXPROCS, on the chunking of the parent or on timing, so the results
// are the same bits for any number of cores (docs/contract.md); the rounding
// may differ from the spec's (parallel reductions may be re-associated).
// A fold whose start is not provably its operator's neutral element
// (lowered.Member.StartNotNeutral) keeps the start in accumulator 0, the
// others starting from the operator's identity (chunkstart.go: identity).
// The elements still run in index order (copy k of the body runs element
// base+k after copies 0..k-1), so a panic in the inner lambdas is the
// spec's of the lowest index, with no rerun; a kernel whose members both
// may panic keeps its rerun guard (hostgo.Func.EmitGuarded, around all
// of this).
//
// Impure kernels keep the cpu backend's loop: the parallel backend
// refuses them at depth 0, and gives a nested one no other treatment.
// The split applies wherever the parallel backend renders the nested
// kernel: inside a parent it runs in parallel, in the parent's
// sequential path below its grain (the same code), and in the
// host code of a backend=auto kernel (the device's fallback).

import (
	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// nestedMinLen is the inner length from which a nested reduction runs
// over several accumulators: two rounds of the unrolled loop. Measured
// on inner products (BenchmarkNestedAccum's loops; 2-core VM,
// 2026-11-26): below 4 elements the split loop only adds the combine
// (1.3-2.8x the plain loop's time), at 5-7 it is even, from 8 on it
// takes 0.71-0.87 of the plain loop's time.
const nestedMinLen = 2 * accumFactor

// nestedAccum returns the code of nested kernel lk (depth > 0) with
// several accumulators per commutative fold above nestedMinLen
// elements, or ok false when it keeps the cpu backend's loop (see the
// file comment).
func nestedAccum(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string) (c hostgo.Stmts, ok bool) {
	if impure(f, lk) != "" {
		return nil, false
	}
	ak := accumKernel(f, lk)
	if ak == nil {
		return nil, false
	}
	// The plain loop (the cpu backend's, hostgo.Func.Loop) and the
	// split one, each with its own reslices, outputs and accumulators,
	// declared in its branch.
	lp := f.LoopParts(lk, outs, nil)
	plain, why := lp.Loops("0", lp.N)
	if why != "" {
		return nil, false
	}
	plainCombine, why := lp.Combine()
	if why != "" {
		return nil, false
	}
	ap := f.LoopParts(ak, outs, nil)
	// The accumulators after the first of a fold whose start is not its
	// operator's neutral element start from the operator's identity, so
	// that the start is folded once.
	for _, m := range ak.Members {
		if m.Split && m.StartNotNeutral {
			if ap.SplitStart == nil {
				ap.SplitStart = map[*ir.SOAC]jen.Code{}
			}
			ap.SplitStart[m.SOAC] = identity(f, m)
		}
	}
	split, why := ap.Loops("0", ap.N)
	if why != "" {
		return nil, false
	}
	combine, why := ap.Combine()
	if why != "" {
		return nil, false
	}
	var small hostgo.Stmts
	small.Add(*lp.Pre...).Add(plain...).Add(plainCombine...).Add(*lp.Post...)
	large := hostgo.Stmts{hostgo.Define(ap.N, hostgo.Id(lp.N))}
	large.Add(*ap.Pre...)
	large.Add(split...).Add(combine...).Add(*ap.Post...)
	body := hostgo.Stmts{
		hostgo.Define(lp.N, lp.Length),
		jen.If(jen.Id(lp.N).Op("<").Lit(nestedMinLen)).Add(hostgo.Block(small)).Else().Add(hostgo.Block(large)),
	}
	return hostgo.Stmts{lp.Guard(body)}, true
}
