package hostgo

// This file emits a kernel of several members as one sequential loop over
// its iteration space: maps compute their element into a local, reductions
// and scans keep their accumulator in a local and fold left to right,
// filters guard the members that read their kept elements, Iota and
// Replicate are the index and a value, and materialised arrays (the
// kernel's outputs) are allocated once before the loop. When the kernel
// zips arrays whose lengths are only asserted equal (Map2/Map3 members),
// the loop runs only if they are; otherwise the members run unfused, in
// evaluation order, so every panic is the spec's.

import (
	"github.com/dave/jennifer/jen"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// space is the root iteration space of a loop or the kept elements of a
// filter inside it.
type space struct {
	parent *space
	keep   string // the filter's predicate result
	parts  []any  // stmts or *space, in order
	// sel: the members of the kept elements run for every element and
	// select their effect by keep (no branch); see selectable.
	sel bool
	// count is the number of kept elements so far, the next index of the
	// space's materialised outputs when sel ("" when it has none).
	count string
}

func (s *space) emit(c ...jen.Code) { s.parts = append(s.parts, Stmts(c)) }

func (s *space) render(c *Stmts) {
	for _, p := range s.parts {
		switch p := p.(type) {
		case Stmts:
			c.Add(p...)
		case *space:
			if p.sel {
				p.render(c)
				if p.count != "" {
					c.Add(jen.If(Id(p.keep)).Add(Block(Stmts{jen.Id(p.count).Op("++")})))
				}
				continue
			}
			var kept Stmts
			p.render(&kept)
			if p.count != "" {
				// Only a counted branch (LoopParts.CountKept) has a count.
				kept.Add(jen.Id(p.count).Op("++"))
			}
			c.Add(jen.If(Id(p.keep)).Add(Block(kept)))
		}
	}
}

// elem is the element of an array at the current iteration.
type elem struct {
	c  *jen.Statement
	sp *space
}

// Loop returns lowered kernel lk (form lower.Loop) as one loop, or the
// reason the cpu backend cannot render it.
func (f *Func) Loop(lk *lower.Kernel, outs map[*ir.Var]string) (*jen.Statement, string) {
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
	// Inputs are the names of the inputs' reslices, declared in Pre.
	Inputs []string
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
	Role    lower.Role
}

// LoopStore is a materialised output v: local holds it, count is its
// kept count (AtCount).
type LoopStore struct {
	Local, Count string
	How          lower.Store
	V            *ir.Var
}

// lengthKey identifies a length expression: two lengths with one key are
// the same value, so their assert is dropped.
func (f *Func) lengthKey(l lower.Length) string {
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
func (f *Func) LoopParts(lk *lower.Kernel, outs map[*ir.Var]string, alloc Allocator) *LoopParts {
	return f.loopParts(lk, outs, alloc, nil)
}

// LengthCode returns the Go expression of length l where its kernel
// runs: len of the array, or the generator's length operand.
func (f *Func) LengthCode(l lower.Length) *jen.Statement {
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
func (f *Func) loopParts(lk *lower.Kernel, outs map[*ir.Var]string, alloc Allocator, ci *chunkInput) *LoopParts {
	lp := &LoopParts{}
	k := lk.Src
	at := k.At.Pos()
	lenCode := f.LengthCode
	n := lenCode(lk.Length)
	var conds []jen.Code
	seenCond := map[[2]string]bool{}
	for _, a := range lk.Asserts {
		k0 := f.lengthKey(a.Lengths[0])
		for _, ln := range a.Lengths[1:] {
			key := f.lengthKey(ln)
			if !seenCond[[2]string{k0, key}] && !seenCond[[2]string{key, k0}] && k0 != key {
				seenCond[[2]string{k0, key}] = true
				conds = append(conds, lenCode(a.Lengths[0]).Op("==").Add(lenCode(ln)))
			}
		}
	}

	pre, post := &Stmts{}, &Stmts{}
	idx := f.Fresh("i")
	nName := f.Fresh("n")
	if ci != nil {
		nName = ci.n
	}
	lp.N, lp.Length, lp.Pre, lp.Post = nName, n, pre, post
	consumed := map[*ir.Var]bool{}
	for _, m := range k.SOACs {
		for _, v := range m.Inputs() {
			consumed[v] = true
		}
	}
	for _, g := range k.Gathers {
		consumed[g.Var] = true
	}
	// Every input is resliced to the loop's length, so that indexing it
	// needs no bounds check (its length is n: proven or asserted).
	inLocal := map[*ir.Var]string{}
	for _, v := range k.Inputs {
		if ci != nil && v == ci.v {
			continue
		}
		l := f.Fresh("in")
		inLocal[v] = l
		lp.Inputs = append(lp.Inputs, l)
		pre.Add(Define(l, jen.Id(f.Name(v)).Index(jen.Empty(), Id(nName))))
	}
	// The loop body is emitted once, or lk.Unroll times (copies
	// 0..Unroll-1 of it at indices idx+copy, then copy 0 again for the
	// remainder) when folds are split over several accumulators. Setup
	// (allocations, accumulators, results) is emitted by copy 0 only.
	unroll := lk.Unroll
	accs := map[*ir.SOAC][]string{} // the accumulators of a fold, by copy
	var spaces []*space             // lk.Spaces rendered, for one copy
	var elems map[*ir.Var]elem
	elemOf := func(v *ir.Var) elem {
		if e, ok := elems[v]; ok {
			return e
		}
		if ci != nil && v == ci.v {
			return elem{jen.Id(ci.res).Index(jen.Id(idx).Op("-").Id(ci.lo)), spaces[lower.Root]}
		}
		return elem{Index(inLocal[v], Id(idx)), spaces[lower.Root]}
	}
	// gathered is the element of an index-read array (gather.go): its
	// producer's, a member of the kernel.
	gathered := func(v *ir.Var) jen.Code { return elemOf(v).c }
	inputs := func(m *ir.SOAC) []jen.Code {
		var args []jen.Code
		for _, v := range m.Inputs() {
			args = append(args, elemOf(v).c)
		}
		return args
	}
	// Materialised arrays are built in locals, allocated before the loop
	// the first time a member stores into them, and assigned to their
	// variables after the loop. store returns the statement that stores
	// value, the element of v at the current iteration in space sp, as
	// lowered (how), or nil when v is not materialised.
	locals := map[*ir.Var]string{}
	store := func(v *ir.Var, how lower.Store, sp *space, value jen.Code) []jen.Code {
		if how == lower.NoStore {
			return nil
		}
		name := outs[v]
		l, ok := locals[v]
		if !ok {
			l = f.Fresh("out")
			locals[v] = l
			pre.Add(VarDecl(l, f.Type(v.Type), nil))
			switch how {
			case lower.AtCount:
				// A selected output is written at the kept count for
				// every element and cut to the count after the loop.
				if sp.count == "" {
					sp.count = f.Fresh("kept")
					pre.Add(Define(sp.count, Lit(0)))
				}
				pre.Add(AssignTo(l, f.makeOut(alloc, v.Type, nName)))
				post.Add(AssignTo(name, jen.Id(l).Index(jen.Empty(), Id(sp.count), Id(sp.count))))
			case lower.Appended:
				// Kept elements append. Reserve the loop length, as a
				// hand-written filter does: growing by append costs
				// several allocations and copies (2x on quickhull).
				// Capacity is not part of the result's value; it stays
				// fresh and non-nil like the runtime's.
				pre.Add(AssignTo(l, MakeSlice(f.Type(v.Type), Lit(0), Id(nName))))
				post.Add(AssignTo(name, Id(l)))
			default:
				pre.Add(AssignTo(l, f.makeOut(alloc, v.Type, nName)))
				post.Add(AssignTo(name, Id(l)))
			}
			lp.Stores = append(lp.Stores, LoopStore{Local: l, Count: sp.count, How: how, V: v})
		}
		switch how {
		case lower.AtCount:
			if lp.KeptStoresOnly {
				return []jen.Code{jen.If(Id(sp.keep)).Add(Block(Stmts{Index(l, Id(sp.count)).Op("=").Add(value)}))}
			}
			return []jen.Code{Index(l, Id(sp.count)).Op("=").Add(value)}
		case lower.Appended:
			return []jen.Code{AssignTo(l, jen.Append(Id(l), value))}
		}
		return []jen.Code{Index(l, Id(idx)).Op("=").Add(value)}
	}
	// counts carries each select space's kept count from copy to copy.
	counts := map[int]string{}
	emit := func(copy int) string {
		spaces = []*space{{}}
		elems = map[*ir.Var]elem{}
		kept := map[int]*space{}
		for _, m := range lk.Members {
			if lp.Skip[m.SOAC] && m.Role != lower.Filter {
				continue
			}
			sp := spaces[m.Space]
			switch op := m.SOAC.Op.(type) {
			case *ir.Iota:
				elems[m.SOAC.Out] = elem{Id(idx), sp}
				if st := store(m.SOAC.Out, m.Store, sp, Id(idx)); st != nil {
					sp.emit(st...)
				}
			case *ir.Replicate:
				elems[m.SOAC.Out] = elem{f.operand(m.SOAC, op.Value), sp}
				if st := store(m.SOAC.Out, m.Store, sp, f.operand(m.SOAC, op.Value)); st != nil {
					sp.emit(st...)
				}
			case *ir.Filter:
				args := inputs(m.SOAC)
				keep := f.Fresh("keep")
				c := Stmts{VarDecl(keep, jen.Bool(), nil)}
				if why := f.withGathers(k.Gathers, m.SOAC, gathered, func() string { return f.Apply(&c, op.Pred, args, Id(keep), at) }); why != "" {
					return why
				}
				sp.emit(c...)
				child := &space{parent: sp, keep: keep, sel: lk.Spaces[m.Kept].Select, count: counts[m.Kept]}
				if lp.CountKept[m.Kept] {
					if child.count == "" {
						child.count = f.Fresh("kept")
						pre.Add(Define(child.count, Lit(0)))
					}
					if lp.Counts == nil {
						lp.Counts = map[int]string{}
					}
					lp.Counts[m.Kept] = child.count
				}
				spaces = append(spaces, child)
				sp.parts = append(sp.parts, child)
				if st := store(m.SOAC.Out, m.Store, child, args[0]); st != nil {
					child.emit(st...)
				}
				counts[m.Kept] = child.count
				kept[m.Kept] = child
				elems[m.SOAC.Out] = elem{jen.Add(args[0]), child}
			case *ir.Screma:
				args := inputs(m.SOAC)
				switch m.Role {
				case lower.Fold, lower.Scan:
					o := op.Reduce
					if o == nil {
						o = op.Scan
					}
					if sl, ok := lp.ScanFrom[m.SOAC]; ok && m.Role == lower.Scan && len(accs[m.SOAC]) > 0 {
						res := f.Fresh("s")
						c := Stmts{VarDecl(res, f.Type(m.SOAC.TypeArgs[0]), nil)}
						if why := f.Apply(&c, o.Op, []jen.Code{sl.Carry, Index(sl.Buf, Id(idx))}, Id(res), at); why != "" {
							return why
						}
						c.Add(store(m.SOAC.Out, m.Store, sp, Id(res))...)
						elems[m.SOAC.Out] = elem{Id(res), sp}
						sp.emit(c...)
						continue
					}
					// A split fold has an accumulator per copy; the
					// others one, declared by the first copy emitted.
					first := len(accs[m.SOAC]) == 0
					if first || m.Split && len(accs[m.SOAC]) <= copy {
						acc := f.Fresh("acc")
						typ, ne := f.Type(m.SOAC.TypeArgs[0]), f.operand(m.SOAC, o.Neutral)
						if st, ok := lp.SplitStart[m.SOAC]; ok && !first {
							pre.Add(VarDecl(acc, typ, st))
						} else {
							pre.Add(VarDecl(acc, typ, ne))
						}
						accs[m.SOAC] = append(accs[m.SOAC], acc)
						lp.Accs = append(lp.Accs, LoopAcc{Name: acc, Type: typ, Neutral: ne, Op: o.Op, Member: m.SOAC, Role: m.Role})
					}
					acc := accs[m.SOAC][0]
					if m.Split {
						acc = accs[m.SOAC][copy]
					}
					var c Stmts
					if sp.sel {
						if why := f.selectReduce(&c, m, o, sp.keep, acc, args[0], at); why != "" {
							return why
						}
					} else if why := f.Apply(&c, o.Op, []jen.Code{Id(acc), args[0]}, Id(acc), at); why != "" {
						return why
					}
					if m.Role == lower.Scan {
						if b, ok := lp.ScanTo[m.SOAC]; ok {
							c.Add(Index(b, Id(idx)).Op("=").Id(acc))
						}
						c.Add(store(m.SOAC.Out, m.Store, sp, Id(acc))...)
						elems[m.SOAC.Out] = elem{Id(acc), sp}
					} else if !first {
					} else if out, ok := outs[m.SOAC.Out]; ok {
						post.Add(AssignTo(out, Id(acc)))
					} else if m.SOAC.Out != nil && !consumed[m.SOAC.Out] {
						post.Add(AssignTo("_", Id(acc)))
					}
					sp.emit(c...)
				default:
					res := f.Fresh("m")
					c := Stmts{VarDecl(res, f.Type(op.Map.Sig.Results().At(0).Type()), nil)}
					if why := f.withGathers(k.Gathers, m.SOAC, gathered, func() string { return f.Apply(&c, op.Map, args, Id(res), at) }); why != "" {
						return why
					}
					if st := store(m.SOAC.Out, m.Store, sp, Id(res)); st != nil {
						c.Add(st...)
					} else if !consumed[m.SOAC.Out] {
						c.Add(AssignTo("_", Id(res)))
					}
					sp.emit(c...)
					elems[m.SOAC.Out] = elem{Id(res), sp}
				}
			}
		}
		// A count taken by a later member of a space (a map of the kept
		// elements stored at the count) carries to the next rendering.
		for sp, child := range kept {
			if child.count != "" {
				counts[sp] = child.count
			}
		}
		return ""
	}
	calls := 0 // the first call keeps the index named at the start
	lp.Loops = func(lo, hi string) (Stmts, string) {
		var loops Stmts
		if unroll > 1 {
			base := f.Fresh("i")
			loops.Add(Define(base, Id(lo)))
			// base < n-(unroll-1), not base+unroll <= n: the compiler proves
			// base+unroll-1 < n from it and drops the bounds checks.
			var body Stmts
			for cp := 0; cp < unroll; cp++ {
				idx = f.Fresh("i")
				if cp == 0 {
					body.Add(Define(idx, Id(base)))
				} else {
					body.Add(Define(idx, jen.Id(base).Op("+").Add(Lit(cp))))
				}
				body.Add(AssignTo("_", Id(idx))) // a copy may read no element
				if why := emit(cp); why != "" {
					return nil, why
				}
				spaces[lower.Root].render(&body)
			}
			loops.Add(jen.For(jen.Empty(), jen.Id(base).Op("<").Id(hi).Op("-").Add(Lit(unroll-1)), jen.Id(base).Op("+=").Add(Lit(unroll))).Add(Block(body)))
			idx = f.Fresh("i")
			lo = base
		} else if calls > 0 {
			idx = f.Fresh("i")
		}
		calls++
		if why := emit(0); why != "" {
			return nil, why
		}
		var body Stmts
		spaces[lower.Root].render(&body)
		loops.Add(CountLoop(idx, Id(lo), Id(hi), body))
		return loops, ""
	}
	// Split accumulators fold pairwise: acc0 = (acc0 op acc1) op (acc2 op acc3).
	lp.Combine = func() (Stmts, string) {
		var combine Stmts
		for _, m := range k.SOACs {
			if a := accs[m]; len(a) > 1 {
				op := m.Op.(*ir.Screma).Reduce.Op
				for step := 1; step < len(a); step *= 2 {
					for j := 0; j+step < len(a); j += 2 * step {
						if why := f.Apply(&combine, op, []jen.Code{Id(a[j]), Id(a[j+step])}, Id(a[j]), at); why != "" {
							return nil, why
						}
					}
				}
			}
		}
		return combine, ""
	}
	lp.Guard = func(body Stmts) *jen.Statement {
		if len(conds) == 0 {
			return Block(body)
		}
		cond := jen.Null()
		for i, cd := range conds {
			if i > 0 {
				cond.Op("&&")
			}
			cond.Add(cd)
		}
		return jen.If(cond).Add(Block(body)).Else().Add(f.Unfused(k, outs))
	}
	return lp
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
