package hostgo

// This file renders a chunk loop whose StreamMap feeds more members of
// its kernel (lowered.ChunkedThen): the stream's half is the chunk loop of
// FusedStream (or, when no map feeds the stream, a loop over slices of
// its input, as the runtime's), and where FusedStream would append each
// chunk the chunk function returned, the length is checked with the
// runtime's message and the members after the stream run as one loop
// over the chunk's elements at their global indices (the loop of
// fused.go, reading the chunk instead of an input), their accumulators
// and outputs declared before the chunk loop and assigned after it. The
// stream's output is appended too when it is materialised. It does not
// decide the kernel's shape (rewrite/lower does).

import (
	"go/ast"
	"go/token"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// FusedStreamThen returns lowered kernel lk (form lowered.ChunkedThen) as
// one chunk loop, or the reason it cannot.
func (f *Func) FusedStreamThen(lk *lowered.Kernel, outs map[*ir.Var]string) (*jen.Statement, string) {
	s := lk.Stream()
	st := s.Op.(*ir.Stream)
	then := lk.ThenPart()
	if f.streamThen == nil {
		f.streamThen = map[*ir.Stream]func(Stmts, *jen.Statement, *Stmts, string, string, string, string) (*jen.Statement, string){}
	}
	f.streamThen[st] = func(pre Stmts, head *jen.Statement, loop *Stmts, n, lo, hi, res string) (*jen.Statement, string) {
		c := pre
		width := jen.Id(hi).Op("-").Id(lo)
		msg := f.Qual("fmt", "fmt", "Sprintf").Call(jen.Lit("soac.StreamMap: chunk xs[%d:%d] has %d elements but f returned %d"), Id(lo), Id(hi), width, jen.Len(Id(res)))
		loop.Add(jen.If(jen.Len(Id(res)).Op("!=").Add(width)).Add(Block(Stmts{jen.Panic(msg)})))
		out, materialised := outs[s.Out]
		materialised = materialised && out != "_"
		acc := f.Fresh("acc")
		if materialised {
			c.Add(Define(acc, MakeSlice(f.Type(s.Out.Type), Lit(0), Id(n))))
			loop.Add(AssignTo(acc, jen.Append(Id(acc), jen.Id(res).Op("..."))))
		}
		lp := f.loopParts(then, outs, nil, &chunkInput{v: s.Out, res: res, lo: lo, n: n})
		loops, why := lp.Loops(lo, hi)
		if why != "" {
			return nil, why
		}
		loop.Add(loops...)
		combine, why := lp.Combine()
		if why != "" {
			return nil, why
		}
		c.Add(*lp.Pre...)
		c.Add(jen.Add(head).Add(Block(*loop)))
		c.Add(combine...)
		c.Add(*lp.Post...)
		if materialised {
			c.Add(AssignTo(out, Id(acc)))
		}
		return Block(c), ""
	}
	defer delete(f.streamThen, st)
	if lk.Chunk.Buffer != lowered.Input {
		return f.FusedStream(lk.StreamPart(), outs)
	}
	// No map feeds the stream: its chunks are slices of its input.
	n, lo, hi := f.Fresh("n"), f.Fresh("lo"), f.Fresh("hi")
	chunkSize := f.soacQ("ChunkSize")
	pre := Stmts{Define(n, jen.Len(Id(f.Name(st.Input))))}
	chunk, res := f.Fresh("chunk"), f.Fresh("r")
	loop := &Stmts{
		Define(hi, jen.Min(jen.Id(lo).Op("+").Add(chunkSize), Id(n))),
		Define(chunk, jen.Id(f.Name(st.Input)).Index(Id(lo), Id(hi), Id(hi))),
		VarDecl(res, f.Type(st.Chunk.Sig.Results().At(0).Type()), nil),
	}
	if why := f.Apply(loop, st.Chunk, []jen.Code{Id(chunk)}, Id(res), lk.Src.At.Pos()); why != "" {
		return nil, why
	}
	return f.streamTail(lk.Src, st, outs, pre, chunkHead(lo, hi, n, chunkSize), loop, n, lo, hi, res, nil)
}

// BindName makes code rendered until restore is called name v by name
// (a local the caller declares), as a backend does that computes a
// fused array into a variable of its own before the members reading it
// run (the parallel backend's ChunkedThen kernels).
func (f *Func) BindName(v *ir.Var, name string) (restore func()) {
	old, had := f.rebind[v]
	f.rebind[v] = name
	return func() {
		if had {
			f.rebind[v] = old
		} else {
			delete(f.rebind, v)
		}
	}
}

// ChunkLoopParts is LoopParts for the members after the stream of a
// ChunkedThen kernel (lk its ThenPart, or a kernel cut from it) run on
// one chunk the stream returned, as the parallel backend does per
// runtime chunk: element i of v, the stream's output, is res[i-lo] (res
// and lo names defined where the loop runs), and n names the loop's
// length, which the caller declares.
func (f *Func) ChunkLoopParts(lk *lowered.Kernel, outs map[*ir.Var]string, alloc Allocator, v *ir.Var, res, lo, n string) *LoopParts {
	return f.loopParts(lk, outs, alloc, &chunkInput{v: v, res: res, lo: lo, n: n})
}

// ReplaceExpr makes code rendered until restore is called write code
// where the spec's source has node n (an expression of a lambda the
// caller inlines), as the parallel backend does to give a chunk
// function's result the runtime's buffer instead of make's array.
func (f *Func) ReplaceExpr(n ast.Node, code *jen.Statement) (restore func()) {
	old, had := f.exprRepl[n]
	f.exprRepl[n] = code
	return func() {
		if had {
			f.exprRepl[n] = old
		} else {
			delete(f.exprRepl, n)
		}
	}
}

// Inlines reports whether Apply, called now, writes l's body inline at
// position at (rather than a call of a function value), so that the
// expressions ReplaceExpr replaces in it are written.
func (f *Func) Inlines(l *ir.Lambda, at token.Pos) bool {
	return f.funText[l] == nil && f.canInline(l, at)
}
