package hostgo

// This file emits a kernel of several members as one sequential loop over
// its iteration space (Loop), and the pieces of that loop for a backend
// that places them itself (LoopParts; loopBuilder: the inputs resliced,
// the loop over a range, unrolled where folds are split, the split
// accumulators combined, the guard). Its body is rendered by
// loopbody.go: maps compute their element into a local, reductions and
// scans keep their accumulator in a local and fold left to right,
// filters guard the members that read their kept elements, Iota and
// Replicate are the index and a value, and materialised arrays (the
// kernel's outputs) are allocated once before the loop. When the kernel
// zips arrays whose lengths are only asserted equal (Map2/Map3 members),
// the loop runs only if they are; otherwise the members run unfused, in
// evaluation order, so every panic is the spec's.

import (
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// Loop returns lowered kernel lk (form lowered.Loop) as one loop, or the
// reason the cpu backend cannot render it.
func (f *Func) Loop(lk *lowered.Kernel, outs map[*ir.Var]string) (*jen.Statement, string) {
	lp := f.LoopParts(lk, outs, nil)
	loops, why := lp.Loops("0", lp.N)
	if why != "" {
		return nil, why
	}
	combine, why := lp.Combine()
	if why != "" {
		return nil, why
	}
	body := Stmts{Define(lp.N, lp.Length)}
	body.Add(*lp.Pre...).Add(loops...).Add(combine...).Add(*lp.Post...)
	return lp.Guard(body), ""
}

// LoopParts holds the pieces of a lowered kernel's loop, so that a
// backend can place them: the cpu backend runs the loop once over
// [0, n); the parallel backend also runs it over each chunk.
type LoopParts struct {
	// N is the name of the loop's length, length its value.
	N      string
	Length *jen.Statement
	// Pre declares the inputs' reslices, the materialised outputs and
	// the accumulators (after the first call of loops); Post assigns the
	// results after the loop.
	Pre, Post *Stmts
	// Loops returns the loop over [lo, hi) (names or literals): every
	// call renders the body again, with the same accumulators and
	// outputs.
	Loops func(lo, hi string) (Stmts, string)
	// Combine folds split accumulators pairwise (after loops).
	Combine func() (Stmts, string)
	// Guard wraps the loop's code in the length asserts (the members
	// run unfused when they fail).
	Guard func(body Stmts) *jen.Statement
	// Inputs are the names of the inputs' reslices, declared in Pre;
	// InputOf names each input's.
	Inputs  []string
	InputOf map[*ir.Var]string
	// Accs are the accumulators of folds and scans in declaration order
	// (after the first call of loops).
	Accs []LoopAcc
	// Stores are the materialised outputs, in allocation order (after
	// the first call of loops).
	Stores []LoopStore
	// CountKept, when set before the first call of Loops, names the
	// spaces of kept elements whose elements the loop counts even where
	// it stores none at the count (the parallel backend's first pass of
	// a chunk); Counts then holds each one's count, declared in Pre
	// from 0 (after the first call of loops).
	CountKept map[int]bool
	Counts    map[int]string
	// KeptStoresOnly, while set, makes the loops rendered store a
	// select's kept elements only when they are kept, not at the count
	// for every element (a chunk of the parallel backend must not write
	// past its own kept elements).
	KeptStoresOnly bool
	// ScanTo, while set, makes the loops rendered also store each
	// accumulator of a scan it holds into the array it names, at the
	// index (the parallel backend's pass 1 keeping a chunk's local
	// prefixes, runtime/parallel's CarriedLocal).
	ScanTo map[*ir.SOAC]string
	// ScanFrom, while set, makes the loops rendered take the element of
	// a scan it holds as Op(Carry, Buf[i]) instead of folding its input
	// (pass 2 of CarriedLocal, after ScanTo's pass 1 stored the local
	// prefixes in Buf), and leave out the members of Skip (those only
	// the scans' folds read; never a filter). Both need the loops
	// rendered once before.
	ScanFrom map[*ir.SOAC]ScanLocal
	Skip     map[*ir.SOAC]bool
	// SplitStart, when set before the first call of Loops, is the value
	// the accumulators of a split fold it holds start from, all but the
	// first (which starts from the fold's start): its operator's
	// identity where the start is not its neutral element.
	SplitStart map[*ir.SOAC]jen.Code
}

// ScanLocal is where a scan's element comes from in a loop rendered with
// LoopParts.ScanFrom: its operator applied to Carry and Buf's element.
type ScanLocal struct {
	Buf   string
	Carry jen.Code
}

// LoopAcc is one accumulator of a fold or scan: name, declared as
// var name typ = neutral, folded with op.
type LoopAcc struct {
	Name    string
	Type    *jen.Statement
	Neutral *jen.Statement
	Op      *ir.Lambda
	Member  *ir.SOAC
	Role    lowered.Role
}

// LoopStore is a materialised output v: local holds it, count is its
// kept count (AtCount).
type LoopStore struct {
	Local, Count string
	How          lowered.Store
	V            *ir.Var
}

// lengthKey identifies a length expression: two lengths with one key are
// the same value, so their assert is dropped.
func (f *Func) lengthKey(l lowered.Length) string {
	if l.Var != nil {
		return "len(" + f.Name(l.Var) + ")"
	}
	var o *ir.Operand
	switch op := l.Gen.Op.(type) {
	case *ir.Iota:
		o = op.N
	case *ir.Replicate:
		o = op.N
	}
	switch {
	case o == nil:
		return ""
	case f.opText[o] != "":
		return f.opText[o]
	case o.Const != nil && o.Const.Value != nil:
		return "const " + o.Const.Value.ExactString()
	}
	return "expr " + f.text(o.Expr.Pos(), o.Expr.End())
}

// An Allocator returns the expression that allocates a materialised
// output of n (a name) elements of type elem, or nil for make's.
type Allocator func(elem types.Type, n string) *jen.Statement

// LoopParts returns the pieces of lk's loop (see LoopParts); alloc, when
// not nil, allocates the outputs written at every index or cut to their
// kept count (never those that append).
func (f *Func) LoopParts(lk *lowered.Kernel, outs map[*ir.Var]string, alloc Allocator) *LoopParts {
	return f.loopParts(lk, outs, alloc, nil)
}

// LengthCode returns the Go expression of length l where its kernel
// runs: len of the array, or the generator's length operand.
func (f *Func) LengthCode(l lowered.Length) *jen.Statement {
	if l.Var != nil {
		return jen.Len(Id(f.Name(l.Var)))
	}
	switch op := l.Gen.Op.(type) {
	case *ir.Iota:
		return f.operand(l.Gen, op.N)
	case *ir.Replicate:
		return f.operand(l.Gen, op.N)
	}
	return nil
}

// OperandCode returns the Go expression of operand o of SOAC s where the
// kernel runs (the temporary it was evaluated into where s is written,
// or the operand's expression).
func (f *Func) OperandCode(s *ir.SOAC, o *ir.Operand) *jen.Statement {
	return f.operand(s, o)
}

// chunkInput is an input of a loop read from the chunk the loop runs
// over: element i of v is res[i-lo] (chunkthen.go); n names the loop's
// length, declared by the caller.
type chunkInput struct {
	v          *ir.Var
	res, lo, n string
}

// loopParts is LoopParts, with input ci.v, when ci is not nil, read from
// its chunk instead of resliced.
func (f *Func) loopParts(lk *lowered.Kernel, outs map[*ir.Var]string, alloc Allocator, ci *chunkInput) *LoopParts {
	lp := &LoopParts{}
	n := f.LengthCode(lk.Length)
	conds := f.lengthAsserts(lk)
	b := &loopBuilder{f: f, lk: lk, outs: outs, alloc: alloc, ci: ci, lp: lp, at: lk.Src.At.Pos(), conds: conds}
	b.pre, b.post = &Stmts{}, &Stmts{}
	b.idx = f.Fresh("i")
	b.n = f.Fresh("n")
	if ci != nil {
		b.n = ci.n
	}
	lp.N, lp.Length, lp.Pre, lp.Post = b.n, n, b.pre, b.post
	b.consumed = map[*ir.Var]bool{}
	unread := map[*ir.SOAC]bool{}
	for _, m := range lk.Members {
		unread[m.SOAC] = m.Unread
	}
	b.onlyUnread = map[*ir.Var]bool{}
	for _, m := range lk.Src.SOACs {
		for _, v := range m.Inputs() {
			// An unread map is not rendered: it reads nothing.
			b.onlyUnread[v] = unread[m] && (b.onlyUnread[v] || !b.consumed[v])
			b.consumed[v] = true
		}
	}
	for _, g := range lk.Src.Gathers {
		b.consumed[g.Var] = true
	}
	b.resliceInputs()
	b.accs, b.locals, b.counts = map[*ir.SOAC][]string{}, map[*ir.Var]string{}, map[int]string{}
	lp.Loops, lp.Combine, lp.Guard = b.loops, b.combine, b.guard
	return lp
}

// loopBuilder is one kernel's loop as loopParts returns it: what the
// renderings of its body (LoopParts.Loops, loopbody.go) share.
type loopBuilder struct {
	f     *Func
	lk    *lowered.Kernel
	outs  map[*ir.Var]string
	alloc Allocator
	ci    *chunkInput
	lp    *LoopParts
	at    token.Pos
	// conds are the length asserts the loop runs under (Guard).
	conds []jen.Code
	// pre and post are lp.Pre and lp.Post.
	pre, post *Stmts
	// idx is the loop's index in the copy of the body being rendered; n
	// names the loop's length.
	idx, n string
	// consumed holds the arrays the kernel's members read; inLocal names
	// each input's reslice.
	consumed map[*ir.Var]bool
	inLocal  map[*ir.Var]string
	// onlyUnread holds the arrays only unread maps read (not resliced).
	onlyUnread map[*ir.Var]bool
	// accs are the accumulators of a fold, by copy.
	accs map[*ir.SOAC][]string
	// spaces are lk.Spaces rendered, for one copy; elems is each array's
	// element at the current iteration there.
	spaces []*space
	elems  map[*ir.Var]elem
	// locals name the materialised arrays' locals (store).
	locals map[*ir.Var]string
	// counts carries each select space's kept count from copy to copy.
	counts map[int]string
	// calls counts the renderings: the first keeps the index named at
	// the start.
	calls int
}

// lengthAsserts returns the conditions lk's loop runs under: each length
// of an assert equal to the assert's first, once per pair of lengths
// that are not the same value (lengthKey).
func (f *Func) lengthAsserts(lk *lowered.Kernel) []jen.Code {
	var conds []jen.Code
	seenCond := map[[2]string]bool{}
	for _, a := range lk.Asserts {
		k0 := f.lengthKey(a.Lengths[0])
		for _, ln := range a.Lengths[1:] {
			key := f.lengthKey(ln)
			if !seenCond[[2]string{k0, key}] && !seenCond[[2]string{key, k0}] && k0 != key {
				seenCond[[2]string{k0, key}] = true
				conds = append(conds, f.LengthCode(a.Lengths[0]).Op("==").Add(f.LengthCode(ln)))
			}
		}
	}
	return conds
}

// resliceInputs declares, in Pre, every input's reslice to the loop's
// length, so that indexing it needs no bounds check (its length is n:
// proven or asserted); the input read from its chunk has none, nor one
// only unread maps read.
func (b *loopBuilder) resliceInputs() {
	f := b.f
	b.inLocal = map[*ir.Var]string{}
	b.lp.InputOf = b.inLocal
	for _, v := range b.lk.Src.Inputs {
		if b.ci != nil && v == b.ci.v || b.onlyUnread[v] {
			continue
		}
		l := f.Fresh("in")
		b.inLocal[v] = l
		b.lp.Inputs = append(b.lp.Inputs, l)
		b.pre.Add(Define(l, jen.Id(f.Name(v)).Index(jen.Empty(), Id(b.n))))
	}
}

// loops is LoopParts.Loops: the loop over [lo, hi). The loop body is
// emitted once, or lk.Unroll times (copies 0..Unroll-1 of it at indices
// idx+copy, then copy 0 again for the remainder) when folds are split
// over several accumulators. Setup (allocations, accumulators, results)
// is emitted by copy 0 only.
func (b *loopBuilder) loops(lo, hi string) (Stmts, string) {
	f, unroll := b.f, b.lk.Unroll
	var loops Stmts
	if unroll > 1 {
		base := f.Fresh("i")
		loops.Add(Define(base, Id(lo)))
		// base < n-(unroll-1), not base+unroll <= n: the compiler proves
		// base+unroll-1 < n from it and drops the bounds checks.
		var body Stmts
		for cp := 0; cp < unroll; cp++ {
			b.idx = f.Fresh("i")
			if cp == 0 {
				body.Add(Define(b.idx, Id(base)))
			} else {
				body.Add(Define(b.idx, jen.Id(base).Op("+").Add(Lit(cp))))
			}
			body.Add(AssignTo("_", Id(b.idx))) // a copy may read no element
			if why := b.emit(cp); why != "" {
				return nil, why
			}
			b.spaces[lowered.Root].render(&body)
		}
		loops.Add(jen.For(jen.Empty(), jen.Id(base).Op("<").Id(hi).Op("-").Add(Lit(unroll-1)), jen.Id(base).Op("+=").Add(Lit(unroll))).Add(Block(body)))
		b.idx = f.Fresh("i")
		lo = base
	} else if b.calls > 0 {
		b.idx = f.Fresh("i")
	}
	b.calls++
	if why := b.emit(0); why != "" {
		return nil, why
	}
	var body Stmts
	b.spaces[lowered.Root].render(&body)
	loops.Add(CountLoop(b.idx, Id(lo), Id(hi), body))
	return loops, ""
}

// combine is LoopParts.Combine: split accumulators fold pairwise,
// acc0 = (acc0 op acc1) op (acc2 op acc3).
func (b *loopBuilder) combine() (Stmts, string) {
	var combine Stmts
	for _, m := range b.lk.Src.SOACs {
		if a := b.accs[m]; len(a) > 1 {
			op := m.Op.(*ir.Screma).Reduce.Op
			for step := 1; step < len(a); step *= 2 {
				for j := 0; j+step < len(a); j += 2 * step {
					if why := b.f.Apply(&combine, op, []jen.Code{Id(a[j]), Id(a[j+step])}, Id(a[j]), b.at); why != "" {
						return nil, why
					}
				}
			}
		}
	}
	return combine, ""
}

// guard is LoopParts.Guard: body under the length asserts, the members
// run unfused when they fail.
func (b *loopBuilder) guard(body Stmts) *jen.Statement {
	if len(b.conds) == 0 {
		return Block(body)
	}
	cond := jen.Null()
	for i, cd := range b.conds {
		if i > 0 {
			cond.Op("&&")
		}
		cond.Add(cd)
	}
	return jen.If(cond).Add(Block(body)).Else().Add(b.f.Unfused(b.lk.Src, b.outs))
}

// makeOut returns the expression that allocates output t ([]E) of n
// elements: alloc's, else make's.
func (f *Func) makeOut(alloc Allocator, t types.Type, n string) *jen.Statement {
	if s, ok := t.Underlying().(*types.Slice); ok && alloc != nil {
		if e := alloc(s.Elem(), n); e != nil {
			return e
		}
	}
	return MakeSlice(f.Type(t), Id(n))
}
