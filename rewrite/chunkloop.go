package rewrite

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

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// chunkLoop is a range loop over a chunk parameter, generated as a loop
// over the input indices lo..hi.
type chunkLoop struct {
	idx, lo, hi string
	// elem emits the maps' code computing the element at idx and returns
	// the element's code; it is called only where the loop reads it.
	elem func(c *code) (*code, bool)
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// rangeHeader emits the header and the start of the body of a range
// statement fused by chunkLoop cl: the index loop, the key and the value.
func (f *fgen) rangeHeader(c *code, s *ast.RangeStmt, cl *chunkLoop) bool {
	c.pf("for %s := %s; %s < %s; %s++ {\n", cl.idx, cl.lo, cl.idx, cl.hi, cl.idx)
	if k, isID := s.Key.(*ast.Ident); isID && k.Name != "_" {
		c.pf("%s := %s - %s\n", f.localName(k), cl.idx, cl.lo)
		if !f.reads(s.Body, f.info.Defs[k]) {
			c.pf("_ = %s\n", f.localName(k))
		}
	}
	// The maps are pure and cannot panic (chunkLoopStream): an element
	// the loop does not read is not computed.
	if v, isID := s.Value.(*ast.Ident); isID && v.Name != "_" {
		el, ok := cl.elem(c)
		if !ok {
			return false
		}
		c.pf("%s := ", f.localName(v)).line(el)
		if !f.reads(s.Body, f.info.Defs[v]) {
			c.pf("_ = %s\n", f.localName(v))
		}
	}
	return true
}

// chunkLoopStream returns the kernel of maps feeding stream st with the
// maps fused into the chunk function's range loop (see the file comment),
// or false when the names the maps use mean other variables inside the
// chunk function. The lowering found the range loop (lk.Chunk.Range) and
// checked the maps are pure, cannot panic and are not materialised. maps
// emits the members' code for the element at index idx.
func (f *fgen) chunkLoopStream(lk *lower.Kernel, st *ir.Stream, member map[*ir.Var]*ir.SOAC, outs map[*ir.Var]string, pre *code, n, idx string, maps func(*code, token.Pos) (map[*ir.Var]*code, string)) (*code, bool) {
	k := lk.Src
	at := k.At.Pos()
	rng, lens := lk.Chunk.Range, lk.Chunk.Lens
	if rng == nil || f.funText[st.Chunk] != nil || !f.canInline(st.Chunk, at) {
		return nil, false
	}
	inner := rng.Body.Pos()
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		l := m.Op.(*ir.Screma).Map
		if f.funText[l] == nil && l.Lit != nil && !f.canInline(l, inner) {
			return nil, false // it names a variable the chunk function shadows
		}
		if l.Kind == ir.NamedFunc {
			if id := identOf(l.Expr); id == nil || f.lookupAt(id.Name, inner) != f.info.Uses[id] {
				return nil, false
			}
		}
		// The inputs must mean the same variables inside the chunk
		// function as where the kernel runs.
		for _, v := range m.Inputs() {
			if member[v] == nil && f.lookupAt(f.name(v), inner) != f.lookupAt(f.name(v), at) {
				return nil, false
			}
		}
	}
	lo, hi := f.fresh("lo"), f.fresh("hi")
	chunkSize := f.soacQ(new(code), "ChunkSize")
	rt := st.Chunk.Sig.Results().At(0).Type()
	res := f.fresh("r")
	loop := new(code)
	loop.pf("for %s := 0; %s < %s; %s += ", lo, lo, n, lo).add(chunkSize).p(" {\n")
	loop.pf("%s := min(%s+", hi, lo).add(chunkSize).pf(", %s)\n", n)
	loop.pf("var %s ", res).line(f.typeCode(rt))
	cl := &chunkLoop{idx: idx, lo: lo, hi: hi, elem: func(c *code) (*code, bool) {
		elems, why := maps(c, inner)
		if why != "" {
			return nil, false
		}
		return elems[st.Input], true
	}}
	f.chunkLoops[rng] = cl
	for _, call := range lens {
		f.exprRepl[call] = txtf("(%s - %s)", hi, lo)
	}
	why := f.apply(loop, st.Chunk, []*code{nil}, res, at)
	delete(f.chunkLoops, rng)
	for _, call := range lens {
		delete(f.exprRepl, call)
	}
	if why != "" || f.err != nil {
		return nil, false
	}
	c, why := f.streamTail(k, st, outs, pre, loop, n, lo, hi, res, new(code).p("make(").add(f.typeCode(st.Input.Type)).p(", 0)"))
	return c, why == ""
}
