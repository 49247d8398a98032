package parallel

// This file gives the chunk function of a reduction (parallel.Reduce)
// several accumulators per fold, so that a core is not bound by the
// latency of one chain of the operator (a float add: about 4 cycles, more
// than a cheap element's work) but by what memory delivers.
//
// A fold whose operator is commutative bit for bit (lowered.Member.
// Commutative: integer + * ^ | & min max, float + *) is split over
// accumFactor accumulators that take the chunk's elements interleaved:
// accumulator k folds elements lo+k, lo+k+K, ..., the remainder folds into
// accumulator 0, and the chunk combines them pairwise, (a0 op a1) op (a2 op
// a3), before it returns its partial. It is the cpu backend's split of
// integer folds (hostgo.LoopParts of a kernel unrolled accumFactor times,
// lower's unrollFactor), applied to the chunk only: the sequential loop
// below the grain stays exactly the cpu backend's. The association
// depends on the chunk's bounds only, which depend on n and the grain
// only (runtime/parallel: Chunks, Bounds): the results are the same bits
// for any GOMAXPROCS. The contract allows the rounding difference from
// the spec for backend=parallel (docs/contract.md: floats may be
// re-associated).
//
// Folds of a filter's kept elements split too (the copies fold their
// own element's select or branch into their own accumulator), where no
// member stores kept elements: a kept count or an append would carry
// from copy to copy (lowered.VerifyKernel). Scans and streams keep the
// plain loop.
//
// The unrolled loop evaluates the elements in index order (copy k of the
// body runs element base+k after copies 0..k-1), with the members in the
// order of the plain loop; only which accumulator an element is folded
// into changes. So a chunk that panics raises the panic of its lowest
// index, as the plain loop does, and needs no rerun; the runtime keeps
// the lowest chunk's panic (runtime/parallel: job.fail), and a kernel
// whose members both may panic keeps its rerun guard (lowered.Kernel.Rerun,
// hostgo.Func.EmitGuarded) around all of this.
//
// Folds whose operator is not known to be commutative (a named function,
// a struct combine, any operator lower does not recognise) keep one
// accumulator: interleaving needs commutativity, and contiguous
// sub-ranges (accumulator k over the k-th part of the chunk) would
// evaluate elements out of order, needing a rerun of the chunk on a
// panic, for operators whose cost usually hides the latency anyway.
// Kernels whose element is estimated above accumMaxNanos (cost.go)
// keep one accumulator too: out-of-order execution already overlaps the
// fold's chain with the next elements' work, and the copies would only
// grow the code. Kernels that lower already unrolled (integer folds,
// lowered.Kernel.Unroll > 1) keep their split.

import (
	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
	"github.com/soacgen/soacgen/rewrite/vector"
)

// accumFactor is the number of accumulators a split fold gets in a chunk
// (measured 2, 4 and 8 on sum of squares and dot product: 2-core VM,
// 2026-11-26).
const accumFactor = 4

// accumMaxNanos is the largest estimated cost of one element
// (costs.kernelNanos) of a kernel whose chunks get several accumulators:
// about three float-add latencies; above it, the element's own work hides
// the fold's chain.
const accumMaxNanos = 4

// accumKernel returns the copy of lk that a chunk renders with several
// accumulators: unrolled accumFactor times, its commutative folds split;
// or nil when the chunks keep the plain loop (see the file comment).
func accumKernel(f *hostgo.Func, lk *lowered.Kernel) *lowered.Kernel {
	if lk.Form != lowered.Loop || lk.Unroll != 1 || lk.Chunk != nil {
		return nil
	}
	c := costsOf(f)
	if c.kernelNanos(lk) > accumMaxNanos || c.uncertain {
		return nil
	}
	ak := *lk
	ak.Members = append([]lowered.Member(nil), lk.Members...)
	split := false
	for i, m := range ak.Members {
		if m.Store == lowered.AtCount || m.Store == lowered.Appended {
			return nil // kept elements stored: a count carried between copies
		}
		switch m.Role {
		case lowered.Scan, lowered.Stream:
			return nil
		case lowered.Fold:
			if m.Commutative {
				ak.Members[i].Split = true
				split = true
			}
		}
	}
	if !split {
		return nil
	}
	ak.Unroll = accumFactor
	if lowered.VerifyKernel(&ak) != nil {
		return nil
	}
	return &ak
}

// accumChunk returns the chunk function func(lo, hi int) typ of a
// reduction kernel lk with several accumulators per commutative fold, or
// nil when its chunks keep the plain loop. lp is the kernel's loop (its
// inputs, outputs and, as folds, its accumulators, one per fold, in the
// order of the partial struct typ); the function returns its partial as
// ret does: typ{acc, ...}. Its body starts with pre's statements, called
// once the loop is rendered (the chunk function's copies of the function
// literals: hostgo.Func.ChunkFuncs).
func accumChunk(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string, lp *hostgo.LoopParts, folds []hostgo.LoopAcc, lo, hi string, typ *jen.Statement, pre func() hostgo.Stmts) *jen.Statement {
	ak := accumKernel(f, lk)
	if ak == nil {
		return nil
	}
	// The chunk's loop: its own names for the inputs' and outputs'
	// reslices and the accumulators (the allocator is unused: Pre, which
	// allocates, is not emitted).
	ap := f.LoopParts(ak, outs, nil)
	// The loop runs over [0, size) of the inputs and outputs resliced to
	// [lo, hi), where no member reads the index itself (an Iota, an index
	// read): the compiler proves the unrolled copies' indices in bounds
	// only for a loop that starts at 0. Otherwise over [lo, hi).
	rebase := len(lk.Src.Gathers) == 0 && len(ap.Inputs) > 0
	for _, m := range lk.Members {
		if _, ok := m.SOAC.Op.(*ir.Iota); ok {
			rebase = false
		}
	}
	from, to, size := lo, hi, ""
	if rebase {
		size = f.Fresh("size")
		from, to = "0", size
	}
	// The chunk runs the kernel's vector forms first, where it has them
	// (rewrite/vector; the folds' lanes are exact integer operators),
	// then its unrolled loop from where they stopped.
	vk, _ := vector.Build(f, lk)
	start := from
	if vk != nil {
		start = f.Fresh("start")
	}
	loops, why := ap.Loops(start, to)
	if why != "" {
		return nil
	}
	combine, why := ap.Combine()
	if why != "" {
		return nil
	}
	var body hostgo.Stmts
	// The accumulators: the first of each fold as the plain chunk's
	// (chunkStart: the start in chunk 0 only when it is not neutral), the
	// others from the operator's neutral element.
	first := map[*ir.SOAC]string{}
	for _, a := range ap.Accs {
		m := memberOf(lk, a.Member)
		if _, seen := first[a.Member]; !seen {
			first[a.Member] = a.Name
			body.Add(chunkStart(f, a, m, lo)...)
			continue
		}
		if m.StartNotNeutral {
			body.Add(hostgo.VarDecl(a.Name, a.Type, identity(f, m)))
		} else {
			body.Add(hostgo.VarDecl(a.Name, a.Type, a.Neutral))
		}
	}
	// The inputs and indexed outputs, from the kernel's reslices declared
	// before the branch: resliced to [lo, hi), or, as the plain chunk's
	// (parLoop: bounds), cut at hi and checked against lo once.
	bounds := func(name, of string) {
		if rebase {
			body.Add(hostgo.Define(name, jen.Id(of).Index(hostgo.Id(lo), hostgo.Id(hi))))
			return
		}
		body.Add(hostgo.Define(name, jen.Id(of).Index(jen.Empty(), hostgo.Id(hi))))
		body.Add(hostgo.AssignTo("_", jen.Id(name).Index(hostgo.Id(lo), jen.Empty())))
	}
	if len(ap.Inputs) != len(lp.Inputs) {
		return nil
	}
	for i, in := range ap.Inputs {
		bounds(in, lp.Inputs[i])
	}
	if rebase {
		body.Add(hostgo.Define(size, jen.Len(hostgo.Id(ap.Inputs[0]))))
	}
	for _, s := range ap.Stores {
		if s.How != lowered.Indexed {
			return nil
		}
		of := ""
		for _, t := range lp.Stores {
			if t.V == s.V {
				of = t.Local
			}
		}
		if of == "" {
			return nil
		}
		bounds(s.Local, of)
	}
	if vk != nil {
		body.Add(vk.CallChunk(ap, start, from, to)...)
	}
	body.Add(loops...).Add(combine...)
	var values []jen.Code
	for _, a := range folds {
		name, ok := first[a.Member]
		if !ok {
			return nil
		}
		values = append(values, hostgo.Id(name))
	}
	body.Add(jen.Return(jen.Add(typ).Values(values...)))
	return jen.Func().Params(hostgo.Id(lo), jen.Id(hi).Int()).Add(typ).Add(hostgo.Block(append(pre(), body...)))
}
