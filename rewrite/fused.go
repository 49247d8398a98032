package rewrite

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

func (s *space) emit(c ...jen.Code) { s.parts = append(s.parts, stmts(c)) }

func (s *space) render(c *stmts) {
	for _, p := range s.parts {
		switch p := p.(type) {
		case stmts:
			c.add(p...)
		case *space:
			if p.sel {
				p.render(c)
				if p.count != "" {
					c.add(jen.If(id(p.keep)).Add(block(stmts{jen.Id(p.count).Op("++")})))
				}
				continue
			}
			var kept stmts
			p.render(&kept)
			c.add(jen.If(id(p.keep)).Add(block(kept)))
		}
	}
}

// elem is the element of an array at the current iteration.
type elem struct {
	c  *jen.Statement
	sp *space
}

// loop returns lowered kernel lk (form lower.Loop) as one loop, or the
// reason the cpu backend cannot render it.
func (f *fgen) loop(lk *lower.Kernel, outs map[*ir.Var]string) (*jen.Statement, string) {
	lp := f.loopParts(lk, outs)
	loops, why := lp.loops("0", lp.n)
	if why != "" {
		return nil, why
	}
	combine, why := lp.combine()
	if why != "" {
		return nil, why
	}
	body := stmts{define(lp.n, lp.length)}
	body.add(*lp.pre...).add(loops...).add(combine...).add(*lp.post...)
	return lp.guard(body), ""
}

// loopParts holds the pieces of a lowered kernel's loop, so that a
// backend can place them: the cpu backend runs the loop once over
// [0, n); the parallel backend also runs it over each chunk.
type loopParts struct {
	// n is the name of the loop's length, length its value.
	n      string
	length *jen.Statement
	// pre declares the inputs' reslices, the materialised outputs and
	// the accumulators (after the first call of loops); post assigns the
	// results after the loop.
	pre, post *stmts
	// loops returns the loop over [lo, hi) (names or literals): every
	// call renders the body again, with the same accumulators and
	// outputs.
	loops func(lo, hi string) (stmts, string)
	// combine folds split accumulators pairwise (after loops).
	combine func() (stmts, string)
	// guard wraps the loop's code in the length asserts (the members
	// run unfused when they fail).
	guard func(body stmts) *jen.Statement
	// accs are the accumulators of folds and scans in declaration order
	// (after the first call of loops).
	accs []loopAcc
	// stores are the materialised outputs, in allocation order (after
	// the first call of loops).
	stores []loopStore
}

// loopAcc is one accumulator of a fold or scan: name, declared as
// var name typ = neutral, folded with op.
type loopAcc struct {
	name    string
	typ     *jen.Statement
	neutral *jen.Statement
	op      *ir.Lambda
	member  *ir.SOAC
	role    lower.Role
}

// loopStore is a materialised output v: local holds it, count is its
// kept count (AtCount).
type loopStore struct {
	local, count string
	how          lower.Store
	v            *ir.Var
}

// lengthKey identifies a length expression: two lengths with one key are
// the same value, so their assert is dropped.
func (f *fgen) lengthKey(l lower.Length) string {
	if l.Var != nil {
		return "len(" + f.name(l.Var) + ")"
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

// loopParts returns the pieces of lk's loop (see loopParts).
func (f *fgen) loopParts(lk *lower.Kernel, outs map[*ir.Var]string) *loopParts {
	lp := &loopParts{}
	k := lk.Src
	at := k.At.Pos()
	lenCode := func(l lower.Length) *jen.Statement {
		if l.Var != nil {
			return jen.Len(id(f.name(l.Var)))
		}
		switch op := l.Gen.Op.(type) {
		case *ir.Iota:
			return f.operand(l.Gen, op.N)
		case *ir.Replicate:
			return f.operand(l.Gen, op.N)
		}
		return nil
	}
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

	pre, post := &stmts{}, &stmts{}
	idx := f.fresh("i")
	nName := f.fresh("n")
	lp.n, lp.length, lp.pre, lp.post = nName, n, pre, post
	consumed := map[*ir.Var]bool{}
	for _, m := range k.SOACs {
		for _, v := range m.Inputs() {
			consumed[v] = true
		}
	}
	// Every input is resliced to the loop's length, so that indexing it
	// needs no bounds check (its length is n: proven or asserted).
	inLocal := map[*ir.Var]string{}
	for _, v := range k.Inputs {
		l := f.fresh("in")
		inLocal[v] = l
		pre.add(define(l, jen.Id(f.name(v)).Index(jen.Empty(), id(nName))))
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
		return elem{index(inLocal[v], id(idx)), spaces[lower.Root]}
	}
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
			l = f.fresh("out")
			locals[v] = l
			pre.add(varDecl(l, f.typeCode(v.Type), nil))
			switch how {
			case lower.AtCount:
				// A selected output is written at the kept count for
				// every element and cut to the count after the loop.
				if sp.count == "" {
					sp.count = f.fresh("kept")
					pre.add(define(sp.count, lit(0)))
				}
				pre.add(assignTo(l, f.makeOut(lk, v.Type, nName)))
				post.add(assignTo(name, jen.Id(l).Index(jen.Empty(), id(sp.count), id(sp.count))))
			case lower.Appended:
				// Kept elements append. Reserve the loop length, as a
				// hand-written filter does: growing by append costs
				// several allocations and copies (2x on quickhull).
				// Capacity is not part of the result's value; it stays
				// fresh and non-nil like the runtime's.
				pre.add(assignTo(l, makeSlice(f.typeCode(v.Type), lit(0), id(nName))))
				post.add(assignTo(name, id(l)))
			default:
				pre.add(assignTo(l, f.makeOut(lk, v.Type, nName)))
				post.add(assignTo(name, id(l)))
			}
			lp.stores = append(lp.stores, loopStore{local: l, count: sp.count, how: how, v: v})
		}
		switch how {
		case lower.AtCount:
			return []jen.Code{index(l, id(sp.count)).Op("=").Add(value)}
		case lower.Appended:
			return []jen.Code{assignTo(l, jen.Append(id(l), value))}
		}
		return []jen.Code{index(l, id(idx)).Op("=").Add(value)}
	}
	// counts carries each select space's kept count from copy to copy.
	counts := map[int]string{}
	emit := func(copy int) string {
		spaces = []*space{{}}
		elems = map[*ir.Var]elem{}
		kept := map[int]*space{}
		for _, m := range lk.Members {
			sp := spaces[m.Space]
			switch op := m.SOAC.Op.(type) {
			case *ir.Iota:
				elems[m.SOAC.Out] = elem{id(idx), sp}
				if st := store(m.SOAC.Out, m.Store, sp, id(idx)); st != nil {
					sp.emit(st...)
				}
			case *ir.Replicate:
				elems[m.SOAC.Out] = elem{f.operand(m.SOAC, op.Value), sp}
				if st := store(m.SOAC.Out, m.Store, sp, f.operand(m.SOAC, op.Value)); st != nil {
					sp.emit(st...)
				}
			case *ir.Filter:
				args := inputs(m.SOAC)
				keep := f.fresh("keep")
				c := stmts{varDecl(keep, jen.Bool(), nil)}
				if why := f.apply(&c, op.Pred, args, id(keep), at); why != "" {
					return why
				}
				sp.emit(c...)
				child := &space{parent: sp, keep: keep, sel: lk.Spaces[m.Kept].Select, count: counts[m.Kept]}
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
					// A split fold has an accumulator per copy; the
					// others one, declared by the first copy emitted.
					first := len(accs[m.SOAC]) == 0
					if first || m.Split && len(accs[m.SOAC]) <= copy {
						acc := f.fresh("acc")
						typ, ne := f.typeCode(m.SOAC.TypeArgs[0]), f.operand(m.SOAC, o.Neutral)
						pre.add(varDecl(acc, typ, ne))
						accs[m.SOAC] = append(accs[m.SOAC], acc)
						lp.accs = append(lp.accs, loopAcc{name: acc, typ: typ, neutral: ne, op: o.Op, member: m.SOAC, role: m.Role})
					}
					acc := accs[m.SOAC][0]
					if m.Split {
						acc = accs[m.SOAC][copy]
					}
					var c stmts
					if sp.sel {
						if why := f.selectReduce(&c, m, o, sp.keep, acc, args[0], at); why != "" {
							return why
						}
					} else if why := f.apply(&c, o.Op, []jen.Code{id(acc), args[0]}, id(acc), at); why != "" {
						return why
					}
					if m.Role == lower.Scan {
						c.add(store(m.SOAC.Out, m.Store, sp, id(acc))...)
						elems[m.SOAC.Out] = elem{id(acc), sp}
					} else if !first {
					} else if out, ok := outs[m.SOAC.Out]; ok {
						post.add(assignTo(out, id(acc)))
					} else if m.SOAC.Out != nil && !consumed[m.SOAC.Out] {
						post.add(assignTo("_", id(acc)))
					}
					sp.emit(c...)
				default:
					res := f.fresh("m")
					c := stmts{varDecl(res, f.typeCode(op.Map.Sig.Results().At(0).Type()), nil)}
					if why := f.apply(&c, op.Map, args, id(res), at); why != "" {
						return why
					}
					if st := store(m.SOAC.Out, m.Store, sp, id(res)); st != nil {
						c.add(st...)
					} else if !consumed[m.SOAC.Out] {
						c.add(assignTo("_", id(res)))
					}
					sp.emit(c...)
					elems[m.SOAC.Out] = elem{id(res), sp}
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
	lp.loops = func(lo, hi string) (stmts, string) {
		var loops stmts
		if unroll > 1 {
			base := f.fresh("i")
			loops.add(define(base, id(lo)))
			// base < n-(unroll-1), not base+unroll <= n: the compiler proves
			// base+unroll-1 < n from it and drops the bounds checks.
			var body stmts
			for cp := 0; cp < unroll; cp++ {
				idx = f.fresh("i")
				if cp == 0 {
					body.add(define(idx, id(base)))
				} else {
					body.add(define(idx, jen.Id(base).Op("+").Add(lit(cp))))
				}
				body.add(assignTo("_", id(idx))) // a copy may read no element
				if why := emit(cp); why != "" {
					return nil, why
				}
				spaces[lower.Root].render(&body)
			}
			loops.add(jen.For(jen.Empty(), jen.Id(base).Op("<").Id(hi).Op("-").Add(lit(unroll-1)), jen.Id(base).Op("+=").Add(lit(unroll))).Add(block(body)))
			idx = f.fresh("i")
			lo = base
		} else if calls > 0 {
			idx = f.fresh("i")
		}
		calls++
		if why := emit(0); why != "" {
			return nil, why
		}
		var body stmts
		spaces[lower.Root].render(&body)
		loops.add(countLoop(idx, id(lo), id(hi), body))
		return loops, ""
	}
	// Split accumulators fold pairwise: acc0 = (acc0 op acc1) op (acc2 op acc3).
	lp.combine = func() (stmts, string) {
		var combine stmts
		for _, m := range k.SOACs {
			if a := accs[m]; len(a) > 1 {
				op := m.Op.(*ir.Screma).Reduce.Op
				for step := 1; step < len(a); step *= 2 {
					for j := 0; j+step < len(a); j += 2 * step {
						if why := f.apply(&combine, op, []jen.Code{id(a[j]), id(a[j+step])}, id(a[j]), at); why != "" {
							return nil, why
						}
					}
				}
			}
		}
		return combine, ""
	}
	lp.guard = func(body stmts) *jen.Statement {
		if len(conds) == 0 {
			return block(body)
		}
		cond := jen.Null()
		for i, cd := range conds {
			if i > 0 {
				cond.Op("&&")
			}
			cond.Add(cd)
		}
		return jen.If(cond).Add(block(body)).Else().Add(f.unfused(k, outs))
	}
	return lp
}
