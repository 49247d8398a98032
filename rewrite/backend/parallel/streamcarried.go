package parallel

// This file renders a ChunkedThen kernel in one parallel step
// (parThenOne; then.go chooses it): parallel.StreamCarried, each
// runtime chunk running the stream's half over its range (streamFunc:
// the maps' elements and the chunk function, or the chunk function on a
// slice of the stream's input, whose inlined make of the array it
// returns becomes the goroutine's buffer: madeResult) and then the
// members over the chunk it returned, as a carried loop's passes do:
// pass 1 the chunk's scan totals and kept counts (pass1), pass 2 the
// whole loop from the chunk's carry (pass2).

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
	rtparallel "github.com/soacgen/soacgen/runtime/parallel"
)

// thenGrainFactor scales the grain of a ChunkedThen kernel's one-step
// form (parThenOne), whose estimate counts the stream's half and the
// members' per element: as for a carried loop (parCarried), a chunk
// makes a second pass over the members when its carry is not known
// (pass 1, over the stream's output while it is in cache), so it
// splits at twice the grain of its work.
const thenGrainFactor = 2

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
func parThenOne(f *hostgo.Func, lk *lowered.Kernel, outs map[*ir.Var]string, n string) (hostgo.Stmts, int, string) {
	at := lk.Src.At.Pos()
	s := lk.Stream()
	c := &streamCarried{f: f, lk: lk, outs: outs, n: n, at: at, s: s, st: s.Op.(*ir.Stream), head: lk.StreamPart(), then: lk.ThenPart()}
	c.spaces = sortedSpaces(countedSpaces(c.then))
	g := thenGrainFactor * rtparallel.Grain(c.nanos())
	cg := hostgo.Lit(rtparallel.ChunkGrain(g))

	// The closures the runtime call captures are made here, in the
	// parallel branch (hostgo.Func.LocalFuncs).
	copies, restore := f.LocalFuncs(lk, at)
	defer restore()
	c.lo, c.hi, c.buf, c.res, c.carry = f.Fresh("lo"), f.Fresh("hi"), f.Fresh("buf"), f.Fresh("r"), f.Fresh("carry")

	// The stream's half of a chunk: its output of [lo, hi) in a
	// variable of the chunk function, checked for its length.
	par := append(hostgo.Stmts{}, copies...)
	streamFn, scratch, post, why := c.streamFunc(&par)
	if why != "" {
		return nil, 0, why
	}

	// The members' half, reading the chunk from the name r (a parameter
	// of pass 1 and pass 2).
	c.r = f.Fresh("r")
	lp := f.ChunkLoopParts(c.then, outs, f.UnclearedAlloc(), s.Out, c.r, c.lo, n)
	// A chunk stores a select's elements only where kept (chunkLoops).
	loop, why := chunkLoops(lp, c.lo, c.hi)
	if why != "" {
		return nil, 0, why
	}
	combine, why := lp.Combine()
	if why != "" {
		return nil, 0, why
	}
	folds, scans := splitAccs(lp.Accs)
	c.scans = scans
	counts := newSpaceCounts(c.then.Members, lp.Stores)
	carries := len(scans) > 0 || len(c.spaces) > 0

	// The carry: the scans' accumulators (s0, s1, ...) and the kept
	// counts (k0, k1, ...); struct{} when nothing is carried.
	fields, startVals, exact := c.fields()
	if carries {
		tname := f.Fresh("carried")
		c.typ = hostgo.Id(tname)
		par.Add(jen.Type().Id(tname).Struct(fields...))
	} else {
		c.typ = jen.Struct()
	}
	c.sliceT = f.Type(s.Out.Type)

	// Pass 1: the chunk's scan totals (from the identities) and counts.
	pass1, opFn := jen.Nil(), jen.Nil()
	if carries {
		if pass1, opFn, why = c.pass1(); why != "" {
			return nil, 0, why
		}
	}

	// Pass 2: the whole loop from the carry.
	pt, ret, comb, assign, why := partials(f, folds, at)
	if why != "" {
		return nil, 0, why
	}
	pass2 := c.pass2(lp, loop, folds, counts, carries, pt, ret)

	end, p, ok := "_", "_", f.Fresh("ok")
	if len(c.spaces) > 0 {
		end = f.Fresh("end")
	}
	if len(folds) > 0 {
		p = f.Fresh("p")
	}
	par.Add(*lp.Pre...)
	par.Add(jen.List(hostgo.Id(end), hostgo.Id(p), hostgo.Id(ok)).Op(":=").Qual(hostgo.ParallelPath, "StreamCarried").Call(
		hostgo.Id(n), cg, jen.Lit(scratch), jen.Add(c.typ).Values(startVals...), jen.Lit(exact), streamFn, pass1, opFn, pass2, comb))
	// The scans' accumulators of the branch are declared for the
	// chunks' loops (lp.Pre) and read by none after them.
	var done hostgo.Stmts
	for _, a := range scans {
		done.Add(hostgo.AssignTo("_", hostgo.Id(a.Name)))
	}
	done.Add(counts.setFrom(c.spaces, end, false)...)
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

// streamCarried is a ChunkedThen kernel being rendered in one step
// (parThenOne): its halves, its carry and the names its chunk functions
// share.
type streamCarried struct {
	f    *hostgo.Func
	lk   *lowered.Kernel
	outs map[*ir.Var]string
	at   token.Pos
	// s is the stream, st its operator; head and then are lk's stream's
	// and members' halves; n names the kernel's length.
	s          *ir.SOAC
	st         *ir.Stream
	head, then *lowered.Kernel
	n          string
	// carryShape is the members' carry, of one level.
	carryShape
	// lo and hi name a chunk's range, buf the goroutine's buffer, res the
	// stream's output of the chunk (the stream's function), r the same
	// read by the passes, carry the chunk's carry; typ is the carry's
	// type and sliceT the stream's output's.
	lo, hi, buf, res, r, carry string
	typ, sliceT                *jen.Statement
}

// nanos is the work estimate of the kernel per element: the members'
// and the stream's half's (the chunk function's alone when the stream
// reads an input of the kernel).
func (c *streamCarried) nanos() int {
	cost := costsOf(c.f)
	nanos := cost.kernelNanos(c.then)
	if c.lk.Chunk.Buffer == lowered.Input {
		nanos += cost.lambdaNanos(c.st.Chunk, true)
	} else {
		nanos += cost.streamNanos(c.head)
	}
	return nanos
}

// streamFunc returns the stream's half of a chunk,
// func(lo, hi int, buf []E) ([]T, bool): its output of [lo, hi), false
// when its length is not hi-lo, copied into the kernel's array of it
// when the kernel returns it; whether the chunk's output is the buffer
// (scratch); and the statements that assign the stream's half's
// outputs after the call (post). It adds to par what the parallel
// branch declares before the call.
func (c *streamCarried) streamFunc(par *hostgo.Stmts) (fn *jen.Statement, scratch bool, post hostgo.Stmts, why string) {
	f, s, lo, hi := c.f, c.s, c.lo, c.hi
	var chunk hostgo.Stmts
	var elem jen.Code
	if c.lk.Chunk.Buffer == lowered.Input {
		chunk, elem, scratch, why = c.inputChunk()
	} else {
		chunk, elem, scratch, post, why = c.mapsChunk(par)
	}
	if why != "" {
		return nil, false, nil, why
	}
	chunk.Add(jen.If(jen.Len(hostgo.Id(c.res)).Op("!=").Id(hi).Op("-").Id(lo)).Block(jen.Return(hostgo.Id(c.res), jen.False())))
	// The stream's output, when the kernel returns it, is copied chunk
	// by chunk into an array of n elements.
	if out, ok := c.outs[s.Out]; ok && out != "_" {
		ys := f.Fresh("ys")
		mk := f.UnclearedAlloc()(s.Out.Type.Underlying().(*types.Slice).Elem(), c.n)
		if mk == nil {
			mk = hostgo.MakeSlice(f.Type(s.Out.Type), hostgo.Id(c.n))
		}
		par.Add(hostgo.Define(ys, mk))
		chunk.Add(jen.Copy(jen.Id(ys).Index(hostgo.Id(lo), hostgo.Id(hi)), hostgo.Id(c.res)))
		post.Add(hostgo.AssignTo(out, hostgo.Id(ys)))
	}
	chunk.Add(jen.Return(hostgo.Id(c.res), jen.True()))
	bufName := jen.Id(c.buf)
	if !scratch {
		bufName = jen.Id("_")
	}
	return jen.Func().Params(hostgo.Id(lo), jen.Id(hi).Int(), bufName.Index().Add(elem)).Params(f.Type(s.Out.Type), jen.Bool()).Add(hostgo.Block(chunk)), scratch, post, ""
}

// inputChunk returns the stream's half of a chunk when the stream reads
// an input of the kernel: the chunk function applied to the input's
// slice [lo:hi:hi] into c.res; the element type of the buffer; and
// whether the array the chunk function makes and returns is the chunk's
// buffer (parallel.Reuse): the members read it only until the chunk is
// done.
func (c *streamCarried) inputChunk() (chunk hostgo.Stmts, elem jen.Code, scratch bool, why string) {
	f, s, st := c.f, c.s, c.st
	xs := f.Name(st.Input)
	elem = f.Type(st.Input.Type.Underlying().(*types.Slice).Elem())
	out := f.Fresh("r")
	chunk.Add(hostgo.VarDecl(out, f.Type(s.Out.Type), nil))
	var restores []func()
	if mk := madeResult(f, st.Chunk); mk != nil && f.Inlines(st.Chunk, c.at) {
		scratch = true
		elem = f.Type(s.Out.Type.Underlying().(*types.Slice).Elem())
		reuse := "Reuse"
		if len(mk.Args) == 3 {
			reuse = "ReuseCap"
		}
		restores = append(restores, f.ReplaceExpr(mk.Fun, jen.Qual(hostgo.ParallelPath, reuse)), f.ReplaceExpr(mk.Args[0], jen.Id(c.buf)))
	}
	why = f.Apply(&chunk, st.Chunk, []jen.Code{jen.Id(xs).Index(hostgo.Id(c.lo), hostgo.Id(c.hi), hostgo.Id(c.hi))}, hostgo.Id(out), c.at)
	for _, r := range restores {
		r()
	}
	if why != "" {
		return nil, nil, false, why
	}
	c.res = out
	return chunk, elem, scratch, ""
}

// mapsChunk returns the stream's half of a chunk when maps feed the
// stream (hostgo.StreamParts): the maps' elements of [lo, hi) and the
// chunk function applied to them into c.res; the element type of the
// buffer; whether the chunk's output is the buffer; and the assignments
// of the maps' materialised outputs after the call. The maps' outputs
// are written through locals of the parallel branch (as parChunks
// does), declared in par.
func (c *streamCarried) mapsChunk(par *hostgo.Stmts) (chunk hostgo.Stmts, elem jen.Code, scratch bool, post hostgo.Stmts, why string) {
	f := c.f
	pouts := map[*ir.Var]string{}
	for v, name := range c.outs {
		pouts[v] = name
	}
	for _, m := range c.head.Src.SOACs[:len(c.head.Src.SOACs)-1] {
		if name, ok := c.outs[m.Out]; ok && name != "_" {
			local := f.Fresh("out")
			pouts[m.Out] = local
			par.Add(hostgo.VarDecl(local, f.Type(m.Out.Type), nil))
			post.Add(hostgo.AssignTo(name, hostgo.Id(local)))
		}
	}
	delete(pouts, c.s.Out)
	sp := f.StreamParts(c.head, pouts, f.UnclearedAlloc(), c.n)
	chunk, res, why := sp.Chunk(c.lo, c.hi, c.buf)
	if why != "" {
		return nil, nil, false, nil, why
	}
	c.res = res
	par.Add(sp.Pre...)
	return chunk, sp.Elem, sp.Scratch, post, ""
}

// pass1 returns pass 1 of a chunk, func(r []T, lo, hi int) carry: the
// chunk's scan totals (from the identities) and kept counts, the
// members cut to what those depend on (cutKernel); and the combine of
// two totals.
func (c *streamCarried) pass1() (pass1, opFn *jen.Statement, why string) {
	f, then, lo, hi, typ := c.f, c.then, c.lo, c.hi, c.typ
	var targets []int
	for i, m := range then.Members {
		if m.Role == lowered.Scan {
			targets = append(targets, i)
		}
	}
	for _, sp := range c.spaces {
		targets = append(targets, then.Spaces[sp].Filter)
	}
	cut, renum := cutKernel(then, targets)
	tlp := f.ChunkLoopParts(cut, c.outs, nil, c.s.Out, c.r, lo, c.n)
	tlp.CountKept = map[int]bool{}
	for _, sp := range c.spaces {
		tlp.CountKept[renum[sp]] = true
	}
	tloop, why := tlp.Loops(lo, hi)
	if why != "" {
		return nil, nil, why
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
	for _, a := range c.scans {
		totals = append(totals, hostgo.Id(cutAccs[a.Member]))
	}
	for _, sp := range c.spaces {
		totals = append(totals, hostgo.Id(tlp.Counts[renum[sp]]))
	}
	p1.Add(jen.Return(jen.Add(typ).Values(totals...)))
	pass1 = jen.Func().Params(jen.Id(c.r).Add(c.sliceT), hostgo.Id(lo), jen.Id(hi).Int()).Add(typ).Add(hostgo.Block(p1))

	// op: the field-wise combine of two totals.
	x, y := f.Fresh("x"), f.Fresh("y")
	opFn, why = c.combineFunc(f, x, y, typ, c.at)
	if why != "" {
		return nil, nil, why
	}
	return pass1, opFn, ""
}

// pass2 returns pass 2 of a chunk, func(r []T, lo, hi int, carry) (carry,
// partials): the members' whole loop (loop, of lp) from the chunk's
// carry (carries: any), returning the carry after it and the folds'
// partials (type pt, value ret).
func (c *streamCarried) pass2(lp *hostgo.LoopParts, loop hostgo.Stmts, folds []hostgo.LoopAcc, counts *spaceCounts, carries bool, pt, ret *jen.Statement) *jen.Statement {
	p2 := c.fromCarry(c.f, c.then, folds, counts, c.carry, c.lo)
	// The chunk's indexed outputs are cut at hi and checked at lo once
	// (as parLoop's chunks): no bounds check per element.
	for _, st := range lp.Stores {
		if st.How == lowered.Indexed {
			cutToChunk(&p2, st.Local, c.lo, c.hi, true)
		}
	}
	p2.Add(loop...)
	p2.Add(c.end(counts, c.typ, ret))
	carryName := jen.Id(c.carry)
	if !carries {
		carryName = jen.Id("_")
	}
	return jen.Func().Params(jen.Id(c.r).Add(c.sliceT), hostgo.Id(c.lo), jen.Id(c.hi).Int(), carryName.Add(c.typ)).Params(c.typ, pt).Add(hostgo.Block(p2))
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
	if !ok || !hostgo.PointerFree(sl.Elem()) {
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
