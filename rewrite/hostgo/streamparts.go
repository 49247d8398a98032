package hostgo

// This file exposes the pieces of a Chunked kernel's chunk loop (maps
// feeding one stream, FusedStream) for a backend that runs the chunks
// itself, as the parallel backend does over runtime/parallel's chunks:
// the code of one chunk [lo, hi) of the input indices (the maps' elements,
// in a buffer or inside the chunk function's range loop, then the chunk
// function), f(empty), and the stream's operator as a function value. It
// does not decide the chunks, where the buffer comes from, or how the
// chunks' results combine (the backend and its runtime do), and it
// renders nothing the lowering did not decide (lowered.Chunk).

import (
	"fmt"
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// streamMaps emits into body the code of the maps of kernel k (all but
// its last member, the stream) for the element at index idx, their
// lambdas inlined for position pos, and returns the elements it
// computes. A map's output that outs names is allocated in pre (n
// elements, by alloc or, where it returns nil, make) and written at idx.
func (f *Func) streamMaps(k *lowered.PlanKernel, member map[*ir.Var]*ir.SOAC, outs map[*ir.Var]string, alloc Allocator, pre *Stmts, n, idx string, body *Stmts, pos token.Pos) (map[*ir.Var]*jen.Statement, string) {
	elems := map[*ir.Var]*jen.Statement{}
	// An input read under the name of a variable the kernel assigns an
	// output to (xs = soac.Map(xs, f) fused into a stream) is an earlier
	// value of it: it is read from a copy of its slice taken before the
	// outputs are allocated below.
	assigned := map[string]bool{}
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		if out, ok := outs[m.Out]; ok && out != "_" {
			assigned[out] = true
		}
	}
	name := map[*ir.Var]string{}
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		for _, v := range m.Inputs() {
			if member[v] != nil || name[v] != "" {
				continue
			}
			name[v] = f.Name(v)
			if assigned[name[v]] {
				t := f.Fresh("in")
				pre.Add(Define(t, Id(name[v])))
				name[v] = t
			}
		}
	}
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		op := m.Op.(*ir.Screma)
		var args []jen.Code
		for _, v := range op.Inputs {
			if e := elems[v]; e != nil {
				args = append(args, e)
			} else if member[v] == nil {
				args = append(args, Index(name[v], Id(idx)))
			} else {
				return nil, fmt.Sprintf("%s at %s reads %s before the kernel computes it", m.Name, f.fset.Position(m.Pos()), v.Name)
			}
		}
		res := f.Fresh("m")
		body.Add(VarDecl(res, f.Type(op.Map.Sig.Results().At(0).Type()), nil))
		if why := f.Apply(body, op.Map, args, Id(res), pos); why != "" {
			return nil, why
		}
		if out, ok := outs[m.Out]; ok && out != "_" {
			var mk *jen.Statement
			if alloc != nil {
				mk = alloc(m.Out.Type.Underlying().(*types.Slice).Elem(), n)
			}
			if mk == nil {
				mk = MakeSlice(f.Type(m.Out.Type), Id(n))
			}
			pre.Add(AssignTo(out, mk))
			body.Add(Index(out, Id(idx)).Op("=").Id(res))
		}
		elems[m.Out] = Id(res)
	}
	return elems, ""
}

// StreamParts are the pieces of a Chunked kernel (lowered.Chunked) for a
// backend that runs its chunks itself. Build them with Func.StreamParts;
// Chunk must be called before Pre and Scratch are read.
type StreamParts struct {
	f      *Func
	lk     *lowered.Kernel
	st     *ir.Stream
	member map[*ir.Var]*ir.SOAC
	outs   map[*ir.Var]string
	alloc  Allocator
	n      string
	// Pre allocates the maps' materialised outputs (n elements each),
	// to run before any chunk; it is complete once Chunk has run.
	Pre Stmts
	// Kind is the stream's kind (StreamRed or StreamMap).
	Kind ir.StreamKind
	// Elem is the type of the stream's input elements, Result the type
	// of the chunk function's result.
	Elem, Result jen.Code
	// Scratch reports that the code of Chunk reads its chunk's buffer
	// from the name given as buf (at least hi-lo elements), which may be
	// reused for the next chunk (lowered.Reused). It is set by Chunk.
	Scratch bool
	// Out is the name the kernel's result is assigned to ("_" when
	// nothing reads it).
	Out string
}

// StreamParts returns the pieces of lk (form lowered.Chunked) for a loop
// whose length is held by the variable n (the length of the kernel's
// first input, len(in)). alloc, when not nil, allocates the maps'
// materialised outputs (each written at every index).
func (f *Func) StreamParts(lk *lowered.Kernel, outs map[*ir.Var]string, alloc Allocator, n string) *StreamParts {
	k := lk.Src
	last := k.SOACs[len(k.SOACs)-1]
	st := last.Op.(*ir.Stream)
	member := map[*ir.Var]*ir.SOAC{}
	for _, m := range k.SOACs[:len(k.SOACs)-1] {
		member[m.Out] = m
	}
	out, ok := outs[last.Out]
	if !ok {
		out = "_"
	}
	return &StreamParts{
		f: f, lk: lk, st: st, member: member, outs: outs, alloc: alloc, n: n,
		Kind:   st.Kind,
		Elem:   f.Type(st.Input.Type.Underlying().(*types.Slice).Elem()),
		Result: f.Type(st.Chunk.Sig.Results().At(0).Type()),
		Out:    out,
	}
}

// InputLen returns the kernel's length: len of its first input.
func (sp *StreamParts) InputLen() *jen.Statement {
	return jen.Len(Id(sp.f.Name(sp.lk.Src.Inputs[0])))
}

// Chunk returns the code of the chunk of input indices [lo, hi) (names
// of ints defined where the code runs): the maps compute its elements,
// inside the chunk function's range loop when the lowering found one and
// the names agree (chunkloop.go), else into its chunk (a slice of the
// materialised stream input, of buf when Scratch, or a fresh slice), and
// the chunk function's result on them is assigned to a variable the code
// declares, whose name it returns. It returns the reason it cannot, or "".
func (sp *StreamParts) Chunk(lo, hi, buf string) (Stmts, string, string) {
	f, k, st := sp.f, sp.lk.Src, sp.st
	at := k.At.Pos()
	idx := f.Fresh("i")
	res := f.Fresh("r")
	c := Stmts{VarDecl(res, sp.Result, nil)}
	maps := func(body *Stmts, pos token.Pos) (map[*ir.Var]*jen.Statement, string) {
		return f.streamMaps(k, sp.member, sp.outs, sp.alloc, &sp.Pre, sp.n, idx, body, pos)
	}
	if f.rangeFusable(sp.lk, st, sp.member) {
		rng, lens := sp.lk.Chunk.Range, sp.lk.Chunk.Lens
		inner := rng.Body.Pos()
		var why string
		cl := &chunkLoop{idx: idx, lo: lo, hi: hi, elem: func(body *Stmts) (*jen.Statement, bool) {
			var elems map[*ir.Var]*jen.Statement
			if elems, why = maps(body, inner); why != "" {
				return nil, false
			}
			return elems[st.Input], true
		}}
		f.chunkLoops[rng] = cl
		for _, call := range lens {
			f.exprRepl[call] = jen.Parens(jen.Id(hi).Op("-").Id(lo))
		}
		applied := f.Apply(&c, st.Chunk, []jen.Code{nil}, Id(res), at)
		delete(f.chunkLoops, rng)
		for _, call := range lens {
			delete(f.exprRepl, call)
		}
		switch {
		case why != "":
			return nil, "", why
		case applied != "":
			return nil, "", applied
		case f.err != nil:
			return nil, "", f.err.Error()
		}
		return c, res, ""
	}
	var body Stmts
	elems, why := maps(&body, at)
	if why != "" {
		return nil, "", why
	}
	chunk := f.Fresh("chunk")
	width := jen.Id(hi).Op("-").Id(lo)
	switch sp.lk.Chunk.Buffer {
	case lowered.Output:
		// The maps write the stream's input at every index: the chunk is
		// its range.
		out := sp.outs[st.Input]
		c.Add(CountLoop(idx, Id(lo), Id(hi), body))
		c.Add(Define(chunk, jen.Id(out).Index(Id(lo), Id(hi), Id(hi))))
	case lowered.Reused:
		sp.Scratch = true
		c.Add(Define(chunk, jen.Id(buf).Index(jen.Empty(), width, width)))
		body.Add(jen.Id(chunk).Index(jen.Id(idx).Op("-").Id(lo)).Op("=").Add(elems[st.Input]))
		c.Add(CountLoop(idx, Id(lo), Id(hi), body))
	default:
		c.Add(Define(chunk, MakeSlice(f.Type(st.Input.Type), width)))
		body.Add(jen.Id(chunk).Index(jen.Id(idx).Op("-").Id(lo)).Op("=").Add(elems[st.Input]))
		c.Add(CountLoop(idx, Id(lo), Id(hi), body))
	}
	if why := f.Apply(&c, st.Chunk, []jen.Code{Id(chunk)}, Id(res), at); why != "" {
		return nil, "", why
	}
	return c, res, ""
}

// Empty returns the code of the chunk function's result on an empty
// chunk (StreamRed's f(empty), which the spec computes before any chunk)
// assigned to a variable the code declares, whose name it returns.
func (sp *StreamParts) Empty() (Stmts, string, string) {
	f := sp.f
	e, acc := f.Fresh("empty"), f.Fresh("acc")
	c := Stmts{
		Define(e, MakeSlice(f.Type(sp.st.Input.Type), Lit(0))),
		VarDecl(acc, sp.Result, nil),
	}
	if why := f.Apply(&c, sp.st.Chunk, []jen.Code{Id(e)}, Id(acc), sp.lk.Src.At.Pos()); why != "" {
		return nil, "", why
	}
	return c, acc, ""
}

// Op returns StreamRed's operator as a function value of type
// func(A, A) A, its body inlined.
func (sp *StreamParts) Op() (*jen.Statement, string) {
	f := sp.f
	x, y, r := f.Fresh("x"), f.Fresh("y"), f.Fresh("r")
	body := Stmts{VarDecl(r, sp.Result, nil)}
	if why := f.Apply(&body, sp.st.Op, []jen.Code{Id(x), Id(y)}, Id(r), sp.lk.Src.At.Pos()); why != "" {
		return nil, why
	}
	body.Add(jen.Return(Id(r)))
	return jen.Func().Params(Id(x), jen.Id(y).Add(sp.Result)).Add(sp.Result).Add(Block(body)), ""
}
