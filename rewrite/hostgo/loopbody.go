package hostgo

// This file renders the body of a kernel's loop (loopBuilder.emit, one
// copy of it at a time, for LoopParts.Loops): each member's statements
// in its space, the root iteration space or the kept elements of a
// filter inside it. A map computes its element into a local, a fold or
// scan folds its accumulator (a split fold one per copy), a filter
// opens the space of its kept elements, Iota and Replicate are the index
// and a value; a materialised array is allocated before the loop the
// first time a member stores into it (store); an unread map is left out,
// its consumers' parameters bound to nothing.

import (
	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
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
	// local: c names a local or an operand's temporary, which Go
	// requires read (a map's or scan's element, a Replicate's value).
	local bool
}

// elemOf returns the element of array v at the current iteration: its
// member's, else the input's (from its reslice or its chunk).
func (b *loopBuilder) elemOf(v *ir.Var) elem {
	if e, ok := b.elems[v]; ok {
		return e
	}
	if b.ci != nil && v == b.ci.v {
		return elem{c: jen.Id(b.ci.res).Index(jen.Id(b.idx).Op("-").Id(b.ci.lo)), sp: b.spaces[lowered.Root]}
	}
	return elem{c: Index(b.inLocal[v], Id(b.idx)), sp: b.spaces[lowered.Root]}
}

// gathered is the element of an index-read array (gather.go): its
// producer's, a member of the kernel.
func (b *loopBuilder) gathered(v *ir.Var) jen.Code { return b.elemOf(v).c }

// inputs returns the elements of m's inputs at the current iteration.
func (b *loopBuilder) inputs(m *ir.SOAC) []jen.Code {
	var args []jen.Code
	for _, v := range m.Inputs() {
		if e := b.elemOf(v); e.c != nil {
			args = append(args, e.c)
		} else {
			args = append(args, nil) // an unread map's: unbound
		}
	}
	return args
}

// store returns the statement that stores value, the element of v at the
// current iteration in space sp, as lowered (how), or nil when v is not
// materialised. Materialised arrays are built in locals, allocated
// before the loop the first time a member stores into them (declareOut),
// and assigned to their variables after the loop.
func (b *loopBuilder) store(v *ir.Var, how lowered.Store, sp *space, value jen.Code) []jen.Code {
	if how == lowered.NoStore {
		return nil
	}
	l, ok := b.locals[v]
	if !ok {
		l = b.declareOut(v, how, sp)
	}
	switch how {
	case lowered.AtCount:
		if b.lp.KeptStoresOnly {
			return []jen.Code{jen.If(Id(sp.keep)).Add(Block(Stmts{Index(l, Id(sp.count)).Op("=").Add(value)}))}
		}
		return []jen.Code{Index(l, Id(sp.count)).Op("=").Add(value)}
	case lowered.Appended:
		return []jen.Code{AssignTo(l, jen.Append(Id(l), value))}
	}
	return []jen.Code{Index(l, Id(b.idx)).Op("=").Add(value)}
}

// declareOut returns the local of materialised array v, stored as how in
// space sp, declared and allocated in Pre and assigned to v's variable
// in Post.
func (b *loopBuilder) declareOut(v *ir.Var, how lowered.Store, sp *space) string {
	f, pre, post := b.f, b.pre, b.post
	name := b.outs[v]
	l := f.Fresh("out")
	b.locals[v] = l
	pre.Add(VarDecl(l, f.Type(v.Type), nil))
	switch how {
	case lowered.AtCount:
		// A selected output is written at the kept count for
		// every element and cut to the count after the loop.
		if sp.count == "" {
			sp.count = f.Fresh("kept")
			pre.Add(Define(sp.count, Lit(0)))
		}
		pre.Add(AssignTo(l, f.makeOut(b.alloc, v.Type, b.n)))
		post.Add(AssignTo(name, jen.Id(l).Index(jen.Empty(), Id(sp.count), Id(sp.count))))
	case lowered.Appended:
		// Kept elements append. Reserve the loop length, as a
		// hand-written filter does: growing by append costs
		// several allocations and copies (2x on quickhull).
		// Capacity is not part of the result's value; it stays
		// fresh and non-nil like the runtime's.
		pre.Add(AssignTo(l, MakeSlice(f.Type(v.Type), Lit(0), Id(b.n))))
		post.Add(AssignTo(name, Id(l)))
	default:
		pre.Add(AssignTo(l, f.makeOut(b.alloc, v.Type, b.n)))
		post.Add(AssignTo(name, Id(l)))
	}
	b.lp.Stores = append(b.lp.Stores, LoopStore{Local: l, Count: sp.count, How: how, V: v})
	return l
}

// emit renders copy cp of the loop's body into b.spaces, or returns the
// reason a member cannot be rendered.
func (b *loopBuilder) emit(cp int) string {
	f := b.f
	b.spaces = []*space{{}}
	b.elems = map[*ir.Var]elem{}
	kept := map[int]*space{}
	for _, m := range b.lk.Members {
		if b.lp.Skip[m.SOAC] && m.Role != lowered.Filter {
			continue
		}
		sp := b.spaces[m.Space]
		if m.Unread {
			b.emitUnread(m, sp)
			continue
		}
		why := ""
		switch op := m.SOAC.Op.(type) {
		case *ir.Iota:
			b.elems[m.SOAC.Out] = elem{c: Id(b.idx), sp: sp}
			if st := b.store(m.SOAC.Out, m.Store, sp, Id(b.idx)); st != nil {
				sp.emit(st...)
			}
		case *ir.Replicate:
			b.elems[m.SOAC.Out] = elem{c: f.operand(m.SOAC, op.Value), sp: sp, local: true}
			if st := b.store(m.SOAC.Out, m.Store, sp, f.operand(m.SOAC, op.Value)); st != nil {
				sp.emit(st...)
			}
		case *ir.Filter:
			why = b.emitFilter(m, op, sp, kept)
		case *ir.Screma:
			args := b.inputs(m.SOAC)
			switch m.Role {
			case lowered.Fold, lowered.Scan:
				why = b.emitFold(m, op, sp, args, cp)
			default:
				why = b.emitMap(m, op, sp, args)
			}
		}
		if why != "" {
			return why
		}
	}
	// A count taken by a later member of a space (a map of the kept
	// elements stored at the count) carries to the next rendering.
	for sp, child := range kept {
		if child.count != "" {
			b.counts[sp] = child.count
		}
	}
	return ""
}

// emitFilter renders filter member m in space sp: its predicate, and the
// space of its kept elements (kept[m.Kept]), which the members reading
// them render into.
func (b *loopBuilder) emitFilter(m lowered.Member, op *ir.Filter, sp *space, kept map[int]*space) string {
	f, lp := b.f, b.lp
	args := b.inputs(m.SOAC)
	keep := f.Fresh("keep")
	c := Stmts{VarDecl(keep, jen.Bool(), nil)}
	if why := f.withGathers(b.lk.Src.Gathers, m.SOAC, b.gathered, func() string { return f.Apply(&c, op.Pred, args, Id(keep), b.at) }); why != "" {
		return why
	}
	sp.emit(c...)
	child := &space{parent: sp, keep: keep, sel: b.lk.Spaces[m.Kept].Select, count: b.counts[m.Kept]}
	if lp.CountKept[m.Kept] {
		if child.count == "" {
			child.count = f.Fresh("kept")
			b.pre.Add(Define(child.count, Lit(0)))
		}
		if lp.Counts == nil {
			lp.Counts = map[int]string{}
		}
		lp.Counts[m.Kept] = child.count
	}
	b.spaces = append(b.spaces, child)
	sp.parts = append(sp.parts, child)
	if st := b.store(m.SOAC.Out, m.Store, child, args[0]); st != nil {
		child.emit(st...)
	}
	b.counts[m.Kept] = child.count
	kept[m.Kept] = child
	b.elems[m.SOAC.Out] = elem{c: jen.Add(args[0]), sp: child}
	return ""
}

// emitFold renders fold or scan member m in space sp (copy cp of the
// body), args the elements of its inputs: its accumulator folded with
// the element, a scan's stored; a split fold has an accumulator per
// copy, the others one, declared by the first copy emitted.
func (b *loopBuilder) emitFold(m lowered.Member, op *ir.Screma, sp *space, args []jen.Code, cp int) string {
	f := b.f
	o := op.Reduce
	if o == nil {
		o = op.Scan
	}
	if sl, ok := b.lp.ScanFrom[m.SOAC]; ok && m.Role == lowered.Scan && len(b.accs[m.SOAC]) > 0 {
		return b.emitScanFrom(m, o, sp, sl)
	}
	first := len(b.accs[m.SOAC]) == 0
	if first || m.Split && len(b.accs[m.SOAC]) <= cp {
		acc := f.Fresh("acc")
		typ, ne := f.Type(m.SOAC.TypeArgs[0]), f.operand(m.SOAC, o.Neutral)
		if st, ok := b.lp.SplitStart[m.SOAC]; ok && !first {
			b.pre.Add(VarDecl(acc, typ, st))
		} else {
			b.pre.Add(VarDecl(acc, typ, ne))
		}
		b.accs[m.SOAC] = append(b.accs[m.SOAC], acc)
		b.lp.Accs = append(b.lp.Accs, LoopAcc{Name: acc, Type: typ, Neutral: ne, Op: o.Op, Member: m.SOAC, Role: m.Role})
	}
	acc := b.accs[m.SOAC][0]
	if m.Split {
		acc = b.accs[m.SOAC][cp]
	}
	var c Stmts
	if sp.sel {
		if why := f.selectReduce(&c, m, o, sp.keep, acc, args[0], b.at); why != "" {
			return why
		}
	} else if why := f.Apply(&c, o.Op, []jen.Code{Id(acc), args[0]}, Id(acc), b.at); why != "" {
		return why
	}
	if m.Role == lowered.Scan {
		if buf, ok := b.lp.ScanTo[m.SOAC]; ok {
			c.Add(Index(buf, Id(b.idx)).Op("=").Id(acc))
		}
		c.Add(b.store(m.SOAC.Out, m.Store, sp, Id(acc))...)
		b.elems[m.SOAC.Out] = elem{c: Id(acc), sp: sp}
	} else if !first {
	} else if out, ok := b.outs[m.SOAC.Out]; ok {
		b.post.Add(AssignTo(out, Id(acc)))
	} else if m.SOAC.Out != nil && !b.consumed[m.SOAC.Out] {
		b.post.Add(AssignTo("_", Id(acc)))
	}
	sp.emit(c...)
	return ""
}

// emitScanFrom renders scan member m, operator o, in space sp as
// LoopParts.ScanFrom asks: its element o(sl.Carry, sl.Buf[i]).
func (b *loopBuilder) emitScanFrom(m lowered.Member, o *ir.Operator, sp *space, sl ScanLocal) string {
	f := b.f
	res := f.Fresh("s")
	c := Stmts{VarDecl(res, f.Type(m.SOAC.TypeArgs[0]), nil)}
	if why := f.Apply(&c, o.Op, []jen.Code{sl.Carry, Index(sl.Buf, Id(b.idx))}, Id(res), b.at); why != "" {
		return why
	}
	c.Add(b.store(m.SOAC.Out, m.Store, sp, Id(res))...)
	b.elems[m.SOAC.Out] = elem{c: Id(res), sp: sp, local: true}
	sp.emit(c...)
	return ""
}

// emitMap renders map member m in space sp, args the elements of its
// inputs: its element into a local, stored or read by later members.
func (b *loopBuilder) emitMap(m lowered.Member, op *ir.Screma, sp *space, args []jen.Code) string {
	f := b.f
	res := f.Fresh("m")
	c := Stmts{VarDecl(res, f.Type(op.Map.Sig.Results().At(0).Type()), nil)}
	if why := f.withGathers(b.lk.Src.Gathers, m.SOAC, b.gathered, func() string { return f.Apply(&c, op.Map, args, Id(res), b.at) }); why != "" {
		return why
	}
	if st := b.store(m.SOAC.Out, m.Store, sp, Id(res)); st != nil {
		c.Add(st...)
	} else if !b.consumed[m.SOAC.Out] {
		c.Add(AssignTo("_", Id(res)))
	}
	sp.emit(c...)
	b.elems[m.SOAC.Out] = elem{c: Id(res), sp: sp, local: true}
	return ""
}

// emitUnread leaves out unread map m (lowered.Member.Unread) in space sp:
// its element is bound to nothing (its consumers ignore the parameter),
// and the locals it would have read, and its function value where the
// SOAC is written, are marked used.
func (b *loopBuilder) emitUnread(m lowered.Member, sp *space) {
	for _, v := range m.SOAC.Inputs() {
		if e, ok := b.elems[v]; ok && e.local {
			sp.emit(AssignTo("_", e.c))
		}
	}
	if op, ok := m.SOAC.Op.(*ir.Screma); ok && op.Map != nil && b.f.funText[op.Map] != nil {
		t := b.f.funText[op.Map]
		b.f.funRefs[t] = true // a copy a chunk function declares is used
		sp.emit(AssignTo("_", t))
	}
	b.elems[m.SOAC.Out] = elem{sp: sp}
}
