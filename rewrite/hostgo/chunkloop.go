package hostgo

// This file fuses maps into the loop of a stream's chunk function. A chunk
// function is often a sequential loop over its chunk,
//
//	func(chunk []int) []int {
//		bins := make([]int, nbins)
//		for _, i := range chunk {
//			bins[i]++
//		}
//		return bins
//	}
//
// and the maps feeding the stream compute that chunk. When the chunk
// parameter's only use is that range loop (and len(chunk)), the loop can
// run over the stream's input indices and compute each element where the
// loop reads it: no chunk buffer is written and read back, as in a loop
// written by hand. That reorders the maps' evaluation against the chunk
// function's other statements, so the maps must be pure and unable to
// panic, and the chunk function pure; the range loop must run at most
// once per call (not inside another loop or a closure).

import (
	"go/ast"
	"go/token"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// chunkLoop is a range loop over a chunk parameter, generated as a loop
// over the input indices lo..hi.
type chunkLoop struct {
	idx, lo, hi string
	// elem emits the maps' code computing the element at idx and returns
	// the element's code; it is called only where the loop reads it.
	elem func(c *Stmts) (*jen.Statement, bool)
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// rangeLoop returns a range statement fused by chunkLoop cl, whose body
// generated is inner: the index loop, the key and the value, then inner.
func (f *Func) rangeLoop(s *ast.RangeStmt, cl *chunkLoop, inner Stmts) (*jen.Statement, bool) {
	var c Stmts
	if k, isID := s.Key.(*ast.Ident); isID && k.Name != "_" {
		c.Add(Define(f.localName(k), jen.Id(cl.idx).Op("-").Id(cl.lo)))
		if !f.reads(s.Body, f.info.Defs[k]) {
			c.Add(AssignTo("_", Id(f.localName(k))))
		}
	}
	// The maps are pure and cannot panic (chunkLoopStream): an element
	// the loop does not read is not computed.
	if v, isID := s.Value.(*ast.Ident); isID && v.Name != "_" {
		el, ok := cl.elem(&c)
		if !ok {
			return nil, false
		}
		c.Add(Define(f.localName(v), el))
		if !f.reads(s.Body, f.info.Defs[v]) {
			c.Add(AssignTo("_", Id(f.localName(v))))
		}
	}
	c.Add(inner...)
	return CountLoop(cl.idx, Id(cl.lo), Id(cl.hi), c), true
}

// chunkLoopStream returns the kernel of maps feeding stream st with the
// maps fused into the chunk function's range loop (see the file comment),
// or false when the names the maps use mean other variables inside the
// chunk function. The lowering found the range loop (lk.Chunk.Range) and
// checked the maps are pure, cannot panic and are not materialised. maps
// emits the members' code for the element at index idx.
func (f *Func) chunkLoopStream(lk *lowered.Kernel, st *ir.Stream, member map[*ir.Var]*ir.SOAC, outs map[*ir.Var]string, pre *Stmts, n, idx string, maps func(*Stmts, token.Pos) (map[*ir.Var]*jen.Statement, string)) (*jen.Statement, bool) {
	k := lk.Src
	at := k.At.Pos()
	rng, lens := lk.Chunk.Range, lk.Chunk.Lens
	if !f.rangeFusable(lk, st, member) {
		return nil, false
	}
	inner := rng.Body.Pos()
	lo, hi := f.Fresh("lo"), f.Fresh("hi")
	chunkSize := f.soacQ("ChunkSize")
	rt := st.Chunk.Sig.Results().At(0).Type()
	res := f.Fresh("r")
	head := chunkHead(lo, hi, n, chunkSize)
	loop := &Stmts{
		Define(hi, jen.Min(jen.Id(lo).Op("+").Add(chunkSize), Id(n))),
		VarDecl(res, f.Type(rt), nil),
	}
	cl := &chunkLoop{idx: idx, lo: lo, hi: hi, elem: func(c *Stmts) (*jen.Statement, bool) {
		elems, why := maps(c, inner)
		if why != "" {
			return nil, false
		}
		return elems[st.Input], true
	}}
	f.chunkLoops[rng] = cl
	for _, call := range lens {
		f.exprRepl[call] = jen.Parens(jen.Id(hi).Op("-").Id(lo))
	}
	why := f.Apply(loop, st.Chunk, []jen.Code{nil}, Id(res), at)
	delete(f.chunkLoops, rng)
	for _, call := range lens {
		delete(f.exprRepl, call)
	}
	if why != "" || f.err != nil {
		return nil, false
	}
	c, why := f.streamTail(k, st, outs, *pre, head, loop, n, lo, hi, res, MakeSlice(f.Type(st.Input.Type), Lit(0)))
	return c, why == ""
}

// rangeFusable reports whether the maps of lk may run inside the range
// loop of st's chunk function that the lowering found (lk.Chunk.Range):
// the chunk function is inlined where the kernel runs, and the names the
// maps use mean the same variables inside the loop as there.
func (f *Func) rangeFusable(lk *lowered.Kernel, st *ir.Stream, member map[*ir.Var]*ir.SOAC) bool {
	k := lk.Src
	at := k.At.Pos()
	rng := lk.Chunk.Range
	if rng == nil || f.funText[st.Chunk] != nil || !f.canInline(st.Chunk, at) {
		return false
	}
	inner := rng.Body.Pos()
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		l := m.Op.(*ir.Screma).Map
		if f.funText[l] == nil && l.Lit != nil && !f.canInline(l, inner) {
			return false // it names a variable the chunk function shadows
		}
		if l.Kind == ir.NamedFunc {
			if id := identOf(l.Expr); id == nil || f.LookupAt(id.Name, inner) != f.info.Uses[id] {
				return false
			}
		}
		// The inputs must mean the same variables inside the chunk
		// function as where the kernel runs.
		for _, v := range m.Inputs() {
			if member[v] == nil && f.LookupAt(f.Name(v), inner) != f.LookupAt(f.Name(v), at) {
				return false
			}
		}
	}
	return true
}
