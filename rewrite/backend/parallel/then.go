package parallel

// This file renders a StreamMap whose chunk loop runs more members of
// its kernel (form lowered.ChunkedThen: scans carrying their accumulators
// from chunk to chunk, filters their kept counts, maps and folds). Below
// its grain it is the cpu backend's chunk loop itself
// (hostgo.FusedStreamThen), so that a small input runs and allocates
// what the cpu backend's code does. Above it, it runs in one parallel
// step where it can (parThenOne, streamcarried.go), as a hand-written
// goroutine loop does: parallel.StreamCarried, every runtime chunk
// computing the stream's output of its range (the maps' elements and the
// chunk function, hostgo.StreamParts, or the chunk function on a slice
// of the stream's input) and then, over that chunk while it is in cache
// (hostgo.Func.ChunkLoopParts: element i is r[i-lo]), the members as
// carried.go's loops run them: pass 1 the chunk's scan totals and kept
// counts (the members cut to what those depend on), the carries combined
// in chunk order, pass 2 the whole loop from the chunk's carry (an exact
// scan's chunk whose carry is already known skips pass 1); maps and
// folds alone carry nothing. The stream's output is an array only when
// the kernel returns it, and where the chunk function, inlined, makes
// the array it returns (madeResult), that array is the goroutine's
// buffer (parallel.Reuse, cleared as make's), since the members read it
// only until the chunk is done. The spec's StreamMap runs every chunk
// before its consumers see an element, so that its panics (the chunk
// function's, a wrong length naming the spec's chunk) come before the
// members'; here a chunk's members run before a later chunk's stream, so
// any panic, or a chunk of the wrong length, makes the generated code
// run the spec's calls instead (the kernel is pure), which raise the
// spec's panic.
//
// Where its carries come in levels (a filter of a scan's elements:
// carryLevels), it runs in two steps (parThenTwo), in the spec's order:
//
//  1. the stream's half (lk.StreamPart) computes the whole stream output
//     into a local array: parallel.StreamMapChunks over the runtime's
//     chunks, each computing the maps' elements of its range and
//     applying the chunk function (parChunks), or, when the stream reads
//     an input of the kernel, parallel.StreamMapOr; a chunk of the wrong
//     length runs the spec's calls, whose panic names the spec's chunk;
//  2. the members' half (lk.ThenPart) runs as a loop over that array
//     (parLoop), by parallel.Carried or CarriedLevels, Scan, Filter or
//     Reduce; the stream's panics come first with no rerun.
//
// In both forms the runtime's chunks, like the association of every
// float, depend on n and the grain only, and the stream's result does
// not depend on its chunks (docs/contract.md streams): the result is the same
// bits for any number of cores.
//
// It does not decide the kernel's shape (rewrite/lower does) nor which
// members need a carry (carried.go's carried does, for the two-step
// form).

import (
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
	rtparallel "github.com/soacgen/soacgen/runtime/parallel"
)

// twoStepGrainFactor scales the stream's grain for a ChunkedThen
// kernel's two-step form (parThenTwo): it writes the stream's whole
// output and reads it back in a second loop, traffic the sequential
// chunk loop (which reads each chunk while it is in cache) does not
// have, and the estimate counts the stream's half only. Measured on the
// 16-core host (2026-11-26, BenchmarkParPaired): with the stream's own
// grain the parallel form was 0.6x cpu at 1e5 elements (StreamScan,
// StreamFilter) and 1.2-2.7x at 1e6; 16 grains keeps 1e5 on the
// sequential path.
const twoStepGrainFactor = 16

// parThen renders lk (form lowered.ChunkedThen) as the cpu backend's chunk
// loop below its grain and, above it, in parallel: in one step
// (parThenOne) where it applies, else in two (parThenTwo); or returns
// the reason it cannot (a half the backend refuses).
func parThen(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string) (hostgo.Stmts, string) {
	seq, why := f.FusedStreamThen(lk, outs)
	if why != "" {
		return nil, why
	}
	n := f.Fresh("n")
	var inputLen *jen.Statement
	if lk.Chunk.Buffer == lowered.Input {
		inputLen = jen.Len(hostgo.Id(f.Name(lk.Stream().Op.(*ir.Stream).Input)))
	} else {
		inputLen = jen.Len(hostgo.Id(f.Name(lk.Src.Inputs[0])))
	}
	var par hostgo.Stmts
	var g int
	if oneStep(lk) == "" {
		par, g, why = parThenOne(f, lk, outs, n)
	} else {
		if lk.Chunk.Buffer == lowered.Input {
			// The stream's half takes its input whole (StreamMapOr).
			n = ""
		}
		par, g, why = parThenTwo(f, lk, outs, n)
	}
	if why != "" {
		return nil, why
	}
	return seqOrPar(inputLen, hostgo.Lit(g), seq, n, par), ""
}

// oneStep returns why lk (form lowered.ChunkedThen) does not run in one
// parallel step, or "": its carries come in levels (a total that needs
// another scan's carry first, as a filter of a scan's elements:
// parallel.StreamCarried runs one pass 1), or its members read an array
// the stream's half computes other than element by element (an index
// read, a function capturing it), which exists only chunk by chunk
// there. The fusion engine keeps such reads out of a kernel today; the
// check keeps the one-step form correct if it ever lets one in.
func oneStep(lk *lowered.Kernel) string {
	then := lk.ThenPart()
	if _, _, levels := carryLevels(then, countedSpaces(then)); levels > 1 {
		return "its carries come in levels"
	}
	if len(then.Src.Gathers) > 0 {
		return "its members read an array at an index"
	}
	for _, m := range then.Members {
		for _, l := range m.SOAC.Lambdas() {
			for _, h := range lk.StreamPart().Src.SOACs {
				if slices.Contains(l.Free, h.Out) {
					return "a function of " + m.SOAC.Name + " reads " + h.Out.Name + " whole"
				}
			}
		}
	}
	return ""
}

// parThenTwo returns the parallel branch of lk in two steps: the
// stream's output computed into a local array (parallel.StreamMapChunks
// through stream.go's pieces, or StreamMapOr when the stream reads an
// input of the kernel), then the members' loop over that array as any
// loop kernel (parLoop). It returns the branch, n naming the kernel's
// length, and the grain.
func parThenTwo(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string, n string) (hostgo.Stmts, int, string) {
	s := lk.Stream()
	st := s.Op.(*ir.Stream)
	head, then := lk.StreamPart(), lk.ThenPart()
	input := lk.Chunk.Buffer == lowered.Input
	nanos := 0
	if input {
		nanos = costsOf(f).lambdaNanos(st.Chunk, true)
	} else {
		nanos = costsOf(f).streamNanos(head)
	}
	g := twoStepGrainFactor * rtparallel.Grain(nanos)
	grain := hostgo.Lit(g)
	ys := f.Fresh("ys")
	// The stream's half assigns its output to ys, a local of the
	// parallel branch; the maps' materialised outputs go where the
	// kernel's outputs go.
	souts := map[*ir.Var]string{}
	for v, name := range outs {
		souts[v] = name
	}
	souts[s.Out] = ys
	par := hostgo.Stmts{hostgo.VarDecl(ys, f.Type(s.Out.Type), nil)}
	if input {
		xs := hostgo.Id(f.Name(st.Input))
		// The closures the runtime call captures are made here, in the
		// parallel branch (hostgo.Func.LocalFuncs).
		copies, restore := f.LocalFuncs(head, lk.Src.At.Pos())
		ref := jen.Func().Params().Add(f.Type(s.Out.Type)).Add(hostgo.Block(hostgo.Stmts{jen.Return(f.Call(s, true))}))
		call := jen.Qual(hostgo.ParallelPath, "StreamMapOr").Call(xs, grain, f.FuncExpr(st.Chunk), ref)
		restore()
		par.Add(copies...)
		par.Add(hostgo.AssignTo(ys, call))
	} else {
		p, _, why := parChunks(f, head, souts, n, grain)
		if why != "" {
			return nil, 0, why
		}
		par.Add(p...)
	}
	// The members' half reads the stream's output from ys.
	restore := f.BindName(s.Out, ys)
	tail, why := parLoop(f, then, outs)
	restore()
	if why != "" {
		return nil, 0, why
	}
	par.Add(tail...)
	if out, ok := outs[s.Out]; ok && out != "_" {
		par.Add(hostgo.AssignTo(out, hostgo.Id(ys)))
	}
	return par, g, ""
}
