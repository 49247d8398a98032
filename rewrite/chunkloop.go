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
	"go/types"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// chunkLoop is a range loop over a chunk parameter, generated as a loop
// over the input indices lo..hi.
type chunkLoop struct {
	idx, lo, hi string
	// elem emits the maps' code computing the element at idx and returns
	// the element's code; it is called only where the loop reads it.
	elem func(c *code) (*code, bool)
}

// chunkRange returns the range statement over the chunk function's chunk
// parameter that is its only use (besides len(chunk), returned too), or
// nil when the chunk function does not have that form.
func (f *fgen) chunkRange(l *ir.Lambda) (*ast.RangeStmt, []*ast.CallExpr) {
	if l.Lit == nil || !l.Purity.Pure {
		return nil, nil
	}
	var param types.Object
	for _, fl := range l.Lit.Type.Params.List {
		for _, id := range fl.Names {
			param = f.info.Defs[id]
		}
	}
	if param == nil || param.Name() == "_" {
		return nil, nil
	}
	var rng *ast.RangeStmt
	var lens []*ast.CallExpr
	ok := true
	var stack []ast.Node
	ast.Inspect(l.Lit.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		parent := ast.Node(nil)
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !isID || f.info.Uses[id] != param {
			return true
		}
		switch p := parent.(type) {
		case *ast.RangeStmt:
			if p.X != id || rng != nil || !f.rangeOnce(p, stack) {
				ok = false
			}
			rng = p
		case *ast.CallExpr:
			if b, isB := f.info.Uses[identOf(p.Fun)].(*types.Builtin); isB && b.Name() == "len" && len(p.Args) == 1 {
				lens = append(lens, p)
				return true
			}
			ok = false
		default:
			ok = false
		}
		return true
	})
	if !ok || rng == nil {
		return nil, nil
	}
	if (rng.Key != nil || rng.Value != nil) && rng.Tok != token.DEFINE {
		return nil, nil
	}
	return rng, lens
}

// rangeOnce reports whether the range statement (the last-but-one node of
// stack, from the chunk function's body down) runs at most once per call.
func (f *fgen) rangeOnce(r *ast.RangeStmt, stack []ast.Node) bool {
	for _, n := range stack {
		if n == ast.Node(r) {
			return true
		}
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		}
	}
	return true
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
// or false when the kernel does not have that form. maps emits the
// members' code for the element at index idx.
func (f *fgen) chunkLoopStream(k *fusion.Kernel, st *ir.Stream, member map[*ir.Var]*ir.SOAC, outs map[*ir.Var]string, pre *code, n, idx string, maps func(*code, token.Pos) (map[*ir.Var]*code, bool)) (*code, bool) {
	at := k.At.Pos()
	rng, lens := f.chunkRange(st.Chunk)
	if rng == nil || f.funText[st.Chunk] != nil || !f.canInline(st.Chunk, at) {
		return nil, false
	}
	if out, ok := outs[st.Input]; ok && out != "_" {
		return nil, false
	}
	inner := rng.Body.Pos()
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		l := m.Op.(*ir.Screma).Map
		if !l.Purity.Pure || l.Purity.MayPanic {
			return nil, false
		}
		if out, ok := outs[m.Out]; ok && out != "_" {
			return nil, false
		}
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
		elems, ok := maps(c, inner)
		if !ok {
			return nil, false
		}
		return elems[st.Input], true
	}}
	f.chunkLoops[rng] = cl
	for _, call := range lens {
		f.exprRepl[call] = txtf("(%s - %s)", hi, lo)
	}
	ok := f.apply(loop, st.Chunk, []*code{nil}, res, at)
	delete(f.chunkLoops, rng)
	for _, call := range lens {
		delete(f.exprRepl, call)
	}
	if !ok || f.err != nil {
		return nil, false
	}
	return f.streamTail(k, st, outs, pre, loop, n, lo, hi, res, new(code).p("make(").add(f.typeCode(st.Input.Type)).p(", 0)"))
}
