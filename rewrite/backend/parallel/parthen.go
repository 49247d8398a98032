package parallel

// This file renders a StreamMap whose chunk loop runs more members of
// its kernel (form lower.ChunkedThen: scans carrying their accumulators
// from chunk to chunk, filters their kept counts, maps and folds). Below
// its grain it is the cpu backend's chunk loop itself
// (hostgo.FusedStreamThen), so that a small input runs and allocates
// what the cpu backend's code does. Above it, it runs in one parallel
// step where it can (parThenOne), as a hand-written goroutine loop does:
// parallel.StreamCarried, every runtime chunk computing the stream's
// output of its range (the maps' elements and the chunk function,
// hostgo.StreamParts, or the chunk function on a slice of the stream's
// input) and then, over that chunk while it is in cache
// (hostgo.Func.ChunkLoopParts: element i is r[i-lo]), the members as
// carried.go's loops run them: pass 1 the chunk's scan totals
// and kept counts (the members cut to what those depend on), the
// carries combined in chunk order, pass 2 the whole loop from the
// chunk's carry (an exact scan's chunk whose carry is already known
// skips pass 1); maps and folds alone carry nothing. The stream's output
// is an array only when the kernel returns it, and where the chunk
// function, inlined, makes the array it returns (madeResult), that array
// is the goroutine's buffer (parallel.Reuse, cleared as make's), since
// the members read it only until the chunk is done. The spec's StreamMap
// runs every chunk before its consumers see an element, so that its
// panics (the chunk function's, a wrong length naming the spec's chunk)
// come before the members'; here a chunk's members run before a later
// chunk's stream, so any panic, or a chunk of the wrong length, makes
// the generated code run the spec's calls instead (the kernel is pure),
// which raise the spec's panic.
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
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lower"
	rtparallel "github.com/soacgen/soacgen/runtime/parallel"
)

// thenGrainFactor scales the grain of a ChunkedThen kernel's one-step
// form (parThenOne), whose estimate counts the stream's half and the
// members' per element: as for a carried loop (parCarried), a chunk
// makes a second pass over the members when its carry is not known
// (pass 1, over the stream's output while it is in cache), so it
// splits at twice the grain of its work.
const thenGrainFactor = 2

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

// parThen renders lk (form lower.ChunkedThen) as the cpu backend's chunk
// loop below its grain and, above it, in parallel: in one step
// (parThenOne) where it applies, else in two (parThenTwo); or returns
// the reason it cannot (a half the backend refuses).
func parThen(f *hostgo.Func, lk *lower.Kernel, outs map[*ir.Var]string) (hostgo.Stmts, string) {
	seq, why := f.FusedStreamThen(lk, outs)
	if why != "" {
		return nil, why
	}
	n := f.Fresh("n")
	var inputLen *jen.Statement
	if lk.Chunk.Buffer == lower.Input {
		inputLen = jen.Len(hostgo.Id(f.Name(lk.Stream().Op.(*ir.Stream).Input)))
	} else {
		inputLen = jen.Len(hostgo.Id(f.Name(lk.Src.Inputs[0])))
	}
	var par hostgo.Stmts
	var g int
	if oneStep(lk) == "" {
		par, g, why = parThenOne(f, lk, outs, n)
	} else {
		if lk.Chunk.Buffer == lower.Input {
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

// oneStep returns why lk (form lower.ChunkedThen) does not run in one
// parallel step, or "": its carries come in levels (a total that needs
// another scan's carry first, as a filter of a scan's elements:
// parallel.StreamCarried runs one pass 1), or its members read an array
// the stream's half computes other than element by element (an index
// read, a function capturing it), which exists only chunk by chunk
// there. The fusion engine keeps such reads out of a kernel today; the
// check keeps the one-step form correct if it ever lets one in.
func oneStep(lk *lower.Kernel) string {
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

// parThenOne returns the parallel branch of lk in one step,
// parallel.StreamCarried: every runtime chunk runs the stream's half
// over its range (the maps' elements and the chunk function, or the
// chunk function on a slice of the stream's input) and then the members
// over the chunk it returned (hostgo.Func.ChunkLoopParts, element i
// being r[i-lo]): pass 1, the chunk's scan totals and kept counts (lk's
// members cut to what they depend on, deps.go's cutKernel), and, from
// the chunk's carry, pass 2, the whole loop. A chunk of the wrong length
// or any panic runs the spec's calls, which raise the spec's panic. It
// returns the branch, n naming the kernel's length, and the grain.
func parThenOne(f *hostgo.Func, lk *lower.Kernel, outs map[*ir.Var]string, n string) (hostgo.Stmts, int, string) {
	at := lk.Src.At.Pos()
	s := lk.Stream()
	st := s.Op.(*ir.Stream)
	head, then := lk.StreamPart(), lk.ThenPart()
	counted := countedSpaces(then)
	spaces := make([]int, 0, len(counted))
	for sp := range counted {
		spaces = append(spaces, sp)
	}
	sort.Ints(spaces)

	cost := costsOf(f)
	nanos := cost.kernelNanos(then)
	if lk.Chunk.Buffer == lower.Input {
		nanos += cost.lambdaNanos(st.Chunk, true)
	} else {
		nanos += cost.streamNanos(head)
	}
	g := thenGrainFactor * rtparallel.Grain(nanos)
	cg := hostgo.Lit(rtparallel.ChunkGrain(g))

	// The closures the runtime call captures are made here, in the
	// parallel branch (hostgo.Func.LocalFuncs).
	copies, restore := f.LocalFuncs(lk, at)
	defer restore()
	lo, hi, buf, res, carry := f.Fresh("lo"), f.Fresh("hi"), f.Fresh("buf"), f.Fresh("r"), f.Fresh("carry")

	// The stream's half of a chunk: its output of [lo, hi) in a
	// variable of the chunk function, checked for its length.
	par := append(hostgo.Stmts{}, copies...)
	var chunk hostgo.Stmts
	var elem jen.Code
	scratch := false
	var post hostgo.Stmts
	if lk.Chunk.Buffer == lower.Input {
		xs := f.Name(st.Input)
		elem = f.Type(st.Input.Type.Underlying().(*types.Slice).Elem())
		out := f.Fresh("r")
		chunk.Add(hostgo.VarDecl(out, f.Type(s.Out.Type), nil))
		// The array the chunk function makes and returns is the
		// chunk's buffer (parallel.Reuse): the members read it only
		// until the chunk is done.
		var restores []func()
		if mk := madeResult(f, st.Chunk); mk != nil && f.Inlines(st.Chunk, at) {
			scratch = true
			elem = f.Type(s.Out.Type.Underlying().(*types.Slice).Elem())
			reuse := "Reuse"
			if len(mk.Args) == 3 {
				reuse = "ReuseCap"
			}
			restores = append(restores, f.ReplaceExpr(mk.Fun, jen.Qual(ParallelPath, reuse)), f.ReplaceExpr(mk.Args[0], jen.Id(buf)))
		}
		why := f.Apply(&chunk, st.Chunk, []jen.Code{jen.Id(xs).Index(hostgo.Id(lo), hostgo.Id(hi), hostgo.Id(hi))}, hostgo.Id(out), at)
		for _, r := range restores {
			r()
		}
		if why != "" {
			return nil, 0, why
		}
		res = out
	} else {
		// The maps' materialised outputs are written through locals of
		// the parallel branch (as parChunks does).
		pouts := map[*ir.Var]string{}
		for v, name := range outs {
			pouts[v] = name
		}
		for _, m := range head.Src.SOACs[:len(head.Src.SOACs)-1] {
			if name, ok := outs[m.Out]; ok && name != "_" {
				local := f.Fresh("out")
				pouts[m.Out] = local
				par.Add(hostgo.VarDecl(local, f.Type(m.Out.Type), nil))
				post.Add(hostgo.AssignTo(name, hostgo.Id(local)))
			}
		}
		delete(pouts, s.Out)
		sp := f.StreamParts(head, pouts, unclearedAlloc(f), n)
		c, r, why := sp.Chunk(lo, hi, buf)
		if why != "" {
			return nil, 0, why
		}
		chunk, res, elem, scratch = c, r, sp.Elem, sp.Scratch
		par.Add(sp.Pre...)
	}
	chunk.Add(jen.If(jen.Len(hostgo.Id(res)).Op("!=").Id(hi).Op("-").Id(lo)).Block(jen.Return(hostgo.Id(res), jen.False())))
	// The stream's output, when the kernel returns it, is copied chunk
	// by chunk into an array of n elements.
	if out, ok := outs[s.Out]; ok && out != "_" {
		ys := f.Fresh("ys")
		mk := unclearedAlloc(f)(s.Out.Type.Underlying().(*types.Slice).Elem(), n)
		if mk == nil {
			mk = hostgo.MakeSlice(f.Type(s.Out.Type), hostgo.Id(n))
		}
		par.Add(hostgo.Define(ys, mk))
		chunk.Add(jen.Copy(jen.Id(ys).Index(hostgo.Id(lo), hostgo.Id(hi)), hostgo.Id(res)))
		post.Add(hostgo.AssignTo(out, hostgo.Id(ys)))
	}
	chunk.Add(jen.Return(hostgo.Id(res), jen.True()))
	bufName := jen.Id(buf)
	if !scratch {
		bufName = jen.Id("_")
	}
	streamFn := jen.Func().Params(hostgo.Id(lo), jen.Id(hi).Int(), bufName.Index().Add(elem)).Params(f.Type(s.Out.Type), jen.Bool()).Add(hostgo.Block(chunk))

	// The members' half, reading the chunk from the name r (a parameter
	// of pass 1 and pass 2).
	r := f.Fresh("r")
	lp := f.ChunkLoopParts(then, outs, unclearedAlloc(f), s.Out, r, lo, n)
	// A chunk stores a select's elements only where kept (parCarried).
	lp.KeptStoresOnly = true
	loop, why := lp.Loops(lo, hi)
	lp.KeptStoresOnly = false
	if why != "" {
		return nil, 0, why
	}
	combine, why := lp.Combine()
	if why != "" {
		return nil, 0, why
	}
	folds, scans := splitAccs(lp.Accs)
	counts := newSpaceCounts(then.Members, lp.Stores)
	carries := len(scans) > 0 || len(spaces) > 0

	// The carry: the scans' accumulators (s0, s1, ...) and the kept
	// counts (k0, k1, ...); struct{} when nothing is carried.
	var fields, startVals []jen.Code
	exact := true
	for i, a := range scans {
		fields = append(fields, jen.Id(sField(i)).Add(a.Type))
		startVals = append(startVals, a.Neutral)
		exact = exact && exactType(a.Member.Out.Type)
	}
	for i := range spaces {
		fields = append(fields, jen.Id(kField(i)).Int())
		startVals = append(startVals, hostgo.Lit(0))
	}
	var typ *jen.Statement
	if carries {
		tname := f.Fresh("carried")
		typ = hostgo.Id(tname)
		par.Add(jen.Type().Id(tname).Struct(fields...))
	} else {
		typ = jen.Struct()
	}
	sliceT := f.Type(s.Out.Type)

	// Pass 1: the chunk's scan totals (from the identities) and counts.
	pass1, opFn := jen.Nil(), jen.Nil()
	if carries {
		var targets []int
		for i, m := range then.Members {
			if m.Role == lower.Scan {
				targets = append(targets, i)
			}
		}
		for _, sp := range spaces {
			targets = append(targets, then.Spaces[sp].Filter)
		}
		cut, renum := cutKernel(then, targets)
		tlp := f.ChunkLoopParts(cut, outs, nil, s.Out, r, lo, n)
		tlp.CountKept = map[int]bool{}
		for _, sp := range spaces {
			tlp.CountKept[renum[sp]] = true
		}
		tloop, why := tlp.Loops(lo, hi)
		if why != "" {
			return nil, 0, why
		}
		p1 := append(hostgo.Stmts{}, *tlp.Pre...)
		cutAccs := map[*ir.SOAC]string{}
		for _, a := range tlp.Accs {
			cutAccs[a.Member] = a.Name
			if m := memberOf(cut, a.Member); m.StartNotNeutral {
				p1.Add(hostgo.AssignTo(a.Name, identity(f, m)))
			}
		}
		p1.Add(tloop...)
		var totals []jen.Code
		for _, a := range scans {
			totals = append(totals, hostgo.Id(cutAccs[a.Member]))
		}
		for _, sp := range spaces {
			totals = append(totals, hostgo.Id(tlp.Counts[renum[sp]]))
		}
		p1.Add(jen.Return(jen.Add(typ).Values(totals...)))
		pass1 = jen.Func().Params(jen.Id(r).Add(sliceT), hostgo.Id(lo), jen.Id(hi).Int()).Add(typ).Add(hostgo.Block(p1))

		// op: the field-wise combine of two totals.
		x, y := f.Fresh("x"), f.Fresh("y")
		var c hostgo.Stmts
		for i, a := range scans {
			fx := jen.Id(x).Dot(sField(i))
			if why := f.Apply(&c, a.Op, []jen.Code{fx, jen.Id(y).Dot(sField(i))}, fx, at); why != "" {
				return nil, 0, why
			}
		}
		for i := range spaces {
			c.Add(jen.Id(x).Dot(kField(i)).Op("+=").Id(y).Dot(kField(i)))
		}
		c.Add(jen.Return(hostgo.Id(x)))
		opFn = jen.Func().Params(hostgo.Id(x), jen.Id(y).Add(typ)).Add(typ).Add(hostgo.Block(c))
	}

	// Pass 2: the whole loop from the carry.
	pt, ret, comb, assign, why := partials(f, folds, at)
	if why != "" {
		return nil, 0, why
	}
	var p2 hostgo.Stmts
	for i, a := range scans {
		p2.Add(hostgo.VarDecl(a.Name, a.Type, jen.Id(carry).Dot(sField(i))))
	}
	for _, a := range folds {
		p2.Add(chunkStart(f, a, memberOf(then, a.Member), lo)...)
	}
	p2.Add(counts.setFrom(spaces, carry, true)...)
	// The chunk's indexed outputs are cut at hi and checked at lo once
	// (as parLoop's chunks): no bounds check per element.
	for _, st := range lp.Stores {
		if st.How == lower.Indexed {
			p2.Add(hostgo.Define(st.Local, jen.Id(st.Local).Index(jen.Empty(), hostgo.Id(hi))))
			p2.Add(hostgo.AssignTo("_", jen.Id(st.Local).Index(hostgo.Id(lo), jen.Empty())))
		}
	}
	p2.Add(loop...)
	var ends []jen.Code
	for _, a := range scans {
		ends = append(ends, hostgo.Id(a.Name))
	}
	for _, sp := range spaces {
		ends = append(ends, counts.count(sp))
	}
	p2.Add(jen.Return(jen.Add(typ).Values(ends...), ret))
	carryName := jen.Id(carry)
	if !carries {
		carryName = jen.Id("_")
	}
	pass2 := jen.Func().Params(jen.Id(r).Add(sliceT), hostgo.Id(lo), jen.Id(hi).Int(), carryName.Add(typ)).Params(typ, pt).Add(hostgo.Block(p2))

	end, p, ok := "_", "_", f.Fresh("ok")
	if len(spaces) > 0 {
		end = f.Fresh("end")
	}
	if len(folds) > 0 {
		p = f.Fresh("p")
	}
	par.Add(*lp.Pre...)
	par.Add(jen.List(hostgo.Id(end), hostgo.Id(p), hostgo.Id(ok)).Op(":=").Qual(ParallelPath, "StreamCarried").Call(
		hostgo.Id(n), cg, jen.Lit(scratch), jen.Add(typ).Values(startVals...), jen.Lit(exact), streamFn, pass1, opFn, pass2, comb))
	// The scans' accumulators of the branch are declared for the
	// chunks' loops (lp.Pre) and read by none after them.
	var done hostgo.Stmts
	for _, a := range scans {
		done.Add(hostgo.AssignTo("_", hostgo.Id(a.Name)))
	}
	done.Add(counts.setFrom(spaces, end, false)...)
	if len(folds) > 0 {
		done.Add(assign(p)...)
	}
	done.Add(combine...)
	done.Add(*lp.Post...)
	done.Add(post...)
	// Any panic, or a chunk of the wrong length: the spec's calls, which
	// run the stream over every chunk first and raise the spec's panic.
	// They call the functions evaluated at their SOACs, not the copies.
	restore()
	par.Add(jen.If(hostgo.Id(ok)).Add(hostgo.Block(done)).Else().Add(hostgo.Block(hostgo.Stmts{f.Unfused(lk.Src, outs)})))
	return par, g, ""
}

// parThenTwo returns the parallel branch of lk in two steps: the
// stream's output computed into a local array (parallel.StreamMapChunks
// through parstream.go's pieces, or StreamMapOr when the stream reads an
// input of the kernel), then the members' loop over that array as any
// loop kernel (parLoop). It returns the branch, n naming the kernel's
// length, and the grain.
func parThenTwo(f *hostgo.Func, lk *lower.Kernel, outs map[*ir.Var]string, n string) (hostgo.Stmts, int, string) {
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
		call := jen.Qual(ParallelPath, "StreamMapOr").Call(xs, grain, f.FuncExpr(st.Chunk), ref)
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

// madeResult returns the make call whose array chunk function l returns,
// when that array can be a chunk's buffer (parallel.Reuse): l is a
// literal whose body starts a variable at its top level with
// make([]T, n) or make([]T, n, c), T the element type of its result and
// free of pointers (no element can refer to the buffer), and every
// return of the body returns that variable, so that the array is made
// once per call and reaches nothing but the result; else nil. The
// replacement takes effect only where the literal is inlined
// (hostgo.Func.Inlines).
func madeResult(f *hostgo.Func, l *ir.Lambda) *ast.CallExpr {
	info := f.Info()
	if l == nil || l.Kind != ir.FuncLit || l.Lit == nil || info == nil {
		return nil
	}
	res := l.Sig.Results()
	if res.Len() != 1 {
		return nil
	}
	sl, ok := res.At(0).Type().Underlying().(*types.Slice)
	if !ok || !PointerFree(sl.Elem()) {
		return nil
	}
	var mk *ast.CallExpr
	var obj types.Object
	for _, st := range l.Lit.Body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		call, ok2 := as.Rhs[0].(*ast.CallExpr)
		if !ok || !ok2 || len(call.Args) < 2 || call.Ellipsis.IsValid() {
			continue
		}
		fn, ok := call.Fun.(*ast.Ident)
		if !ok {
			continue
		}
		if b, ok := info.Uses[fn].(*types.Builtin); !ok || b.Name() != "make" {
			continue
		}
		if t := info.TypeOf(call); t == nil || !types.Identical(t, res.At(0).Type()) {
			continue
		}
		mk, obj = call, info.Defs[id]
		break
	}
	if mk == nil || obj == nil {
		return nil
	}
	returns, other := 0, false
	ast.Inspect(l.Lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // its returns are its own
		case *ast.ReturnStmt:
			returns++
			if len(n.Results) != 1 {
				other = true
			} else if id, ok := n.Results[0].(*ast.Ident); !ok || info.Uses[id] != obj {
				other = true
			}
		}
		return true
	})
	if returns == 0 || other {
		return nil
	}
	return mk
}
