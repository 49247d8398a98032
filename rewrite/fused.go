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
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// space is the root iteration space of a loop or the kept elements of a
// filter inside it.
type space struct {
	parent *space
	keep   string // the filter's predicate result
	parts  []any  // *code or *space, in order
	// sel: the members of the kept elements run for every element and
	// select their effect by keep (no branch); see selectable.
	sel bool
	// count is the number of kept elements so far, the next index of the
	// space's materialised outputs when sel ("" when it has none).
	count string
}

func (s *space) emit(c *code) { s.parts = append(s.parts, c) }

func (s *space) render(c *code) {
	for _, p := range s.parts {
		switch p := p.(type) {
		case *code:
			c.add(p)
		case *space:
			if p.sel {
				p.render(c)
				if p.count != "" {
					c.pf("if %s {\n%s++\n}\n", p.keep, p.count)
				}
				continue
			}
			c.pf("if %s {\n", p.keep)
			p.render(c)
			c.p("}\n")
		}
	}
}

// elem is the element of an array at the current iteration.
type elem struct {
	c  *code
	sp *space
}

// fused returns k as one loop, or false when the loop emitter does not
// cover its form.
func (f *fgen) fused(k *fusion.Kernel, outs map[*ir.Var]string) (*code, bool) {
	for _, m := range k.SOACs {
		if m.IsStream() {
			return f.fusedStream(k, outs)
		}
	}
	at := k.At.Pos()
	member := map[*ir.Var]*ir.SOAC{}
	for _, m := range k.SOACs {
		if m.Out != nil {
			member[m.Out] = m
		}
	}
	// The loop's length and the lengths the asserts compare.
	var lenOf func(v *ir.Var) *code
	lenOf = func(v *ir.Var) *code {
		m := member[v]
		if m == nil {
			return txtf("len(%s)", f.name(v))
		}
		switch op := m.Op.(type) {
		case *ir.Iota:
			return f.operand(m, op.N)
		case *ir.Replicate:
			return f.operand(m, op.N)
		case *ir.Screma:
			if op.Reduce == nil {
				return lenOf(op.Inputs[0])
			}
		}
		return nil
	}
	var n *code
	if len(k.Inputs) > 0 {
		n = lenOf(k.Inputs[0])
	}
	if n == nil {
		for _, m := range k.SOACs {
			if m.IsGenerator() {
				n = lenOf(m.Out)
				break
			}
		}
	}
	if n == nil {
		return nil, false
	}
	var conds []*code
	seenCond := map[string]bool{}
	// Every Map2 and Map3 compares its inputs' lengths before the loop
	// runs (the plan's asserts name them only for kernels of several
	// members); inputs whose length is known only inside the loop (kept
	// elements of a filter) lie in one space by the engine's rules.
	asserts := append([]*ir.SOAC(nil), k.Asserts...)
	for _, m := range k.SOACs {
		if len(m.Inputs()) > 1 && !slices.Contains(asserts, m) {
			asserts = append(asserts, m)
		}
	}
	for _, a := range asserts {
		ins := a.Inputs()
		l0 := lenOf(ins[0])
		if l0 == nil {
			if slices.Contains(k.Asserts, a) {
				return nil, false
			}
			continue
		}
		for _, v := range ins[1:] {
			l := lenOf(v)
			if l == nil {
				return nil, false
			}
			cd := new(code).add(l0).p(" == ").add(l)
			if key, rev := cd.String(), new(code).add(l).p(" == ").add(l0).String(); !seenCond[key] && !seenCond[rev] && l0.String() != l.String() {
				seenCond[key] = true
				conds = append(conds, cd)
			}
		}
	}

	pre, post := new(code), new(code)
	idx := f.fresh("i")
	nName := f.fresh("n")
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
		pre.pf("%s := %s[:%s]\n", l, f.name(v), nName)
	}
	// The loop body is emitted once, or unroll times (copies 0..unroll-1
	// of it at indices idx+copy, then copy 0 again for the remainder)
	// when a reduction can be split over several accumulators. Setup
	// (allocations, accumulators, results) is emitted by copy 0 only.
	unroll := f.unrollFactor(k)
	accs := map[*ir.SOAC][]string{} // the accumulators of a reduction, by copy
	var root *space
	var elems map[*ir.Var]elem
	elemOf := func(v *ir.Var) (elem, bool) {
		if e, ok := elems[v]; ok {
			return e, true
		}
		if member[v] != nil || inLocal[v] == "" {
			return elem{}, false
		}
		return elem{txtf("%s[%s]", inLocal[v], idx), root}, true
	}
	inputs := func(m *ir.SOAC) ([]*code, *space, bool) {
		var args []*code
		var sp *space
		for i, v := range m.Inputs() {
			e, ok := elemOf(v)
			if !ok || i > 0 && e.sp != sp {
				return nil, nil, false
			}
			sp = e.sp
			args = append(args, e.c)
		}
		return args, sp, true
	}
	// Materialised arrays are built in locals, allocated before the loop
	// the first time a member stores into them, and assigned to their
	// variables after the loop. store returns the statement that stores
	// value, the element of v at the current iteration in space sp, or nil
	// when v is not materialised.
	locals := map[*ir.Var]string{}
	store := func(v *ir.Var, sp *space, value *code) *code {
		name, ok := outs[v]
		if !ok || name == "_" {
			return nil
		}
		l, ok := locals[v]
		if !ok {
			l = f.fresh("out")
			locals[v] = l
			pre.pf("var %s ", l).line(f.typeCode(v.Type))
			switch {
			case sp.sel:
				// A selected output is written at the kept count for
				// every element and cut to the count after the loop.
				if sp.count == "" {
					sp.count = f.fresh("kept")
					pre.pf("%s := 0\n", sp.count)
				}
				pre.pf("%s = make(", l).add(f.typeCode(v.Type)).pf(", %s)\n", nName)
				post.pf("%s = %s[:%s:%s]\n", name, l, sp.count, sp.count)
			case sp.keep != "":
				// Kept elements append. Reserve the loop length, as a
				// hand-written filter does: growing by append costs
				// several allocations and copies (2x on quickhull).
				// Capacity is not part of the result's value; it stays
				// fresh and non-nil like the runtime's.
				pre.pf("%s = make(", l).add(f.typeCode(v.Type)).pf(", 0, %s)\n", nName)
				post.pf("%s = %s\n", name, l)
			default:
				pre.pf("%s = make(", l).add(f.typeCode(v.Type)).pf(", %s)\n", nName)
				post.pf("%s = %s\n", name, l)
			}
		}
		switch {
		case sp.sel:
			return txtf("%s[%s] = ", l, sp.count).line(value)
		case sp.keep != "":
			return txtf("%s = append(%s, ", l, l).add(value).p(")\n")
		}
		return txtf("%s[%s] = ", l, idx).line(value)
	}
	emit := func(copy int) bool {
		root = &space{}
		elems = map[*ir.Var]elem{}
		for mi, m := range k.SOACs {
			switch op := m.Op.(type) {
			case *ir.Iota:
				elems[m.Out] = elem{txt(idx), root}
				if st := store(m.Out, root, txt(idx)); st != nil {
					root.emit(st)
				}
			case *ir.Replicate:
				elems[m.Out] = elem{f.operand(m, op.Value), root}
				if st := store(m.Out, root, f.operand(m, op.Value)); st != nil {
					root.emit(st)
				}
			case *ir.Filter:
				args, sp, ok := inputs(m)
				if !ok {
					return false
				}
				keep := f.fresh("keep")
				c := txtf("var %s bool\n", keep)
				if !f.apply(c, op.Pred, args, keep, at) {
					return false
				}
				sp.emit(c)
				child := &space{parent: sp, keep: keep, sel: sp == root && f.selectable(k, mi, outs)}
				sp.parts = append(sp.parts, child)
				if st := store(m.Out, child, args[0]); st != nil {
					child.emit(st)
				}
				elems[m.Out] = elem{args[0], child}
			case *ir.Screma:
				args, sp, ok := inputs(m)
				if !ok {
					return false
				}
				switch {
				case op.Reduce != nil, op.Scan != nil:
					o := op.Reduce
					if o == nil {
						o = op.Scan
						if sp != root {
							return false
						}
					}
					// A split reduction has an accumulator per copy; the
					// others one, declared by the first copy emitted.
					split := op.Reduce != nil && unroll > 1 && f.splittable(m)
					first := len(accs[m]) == 0
					if first || split && len(accs[m]) <= copy {
						acc := f.fresh("acc")
						pre.pf("var %s ", acc).add(f.typeCode(m.TypeArgs[0])).p(" = ").line(f.operand(m, o.Neutral))
						accs[m] = append(accs[m], acc)
					}
					acc := accs[m][0]
					if split {
						acc = accs[m][copy]
					}
					c := new(code)
					if sp.sel {
						if !f.selectReduce(c, m, o, sp.keep, acc, args[0], at) {
							return false
						}
					} else if !f.apply(c, o.Op, []*code{txt(acc), args[0]}, acc, at) {
						return false
					}
					if op.Scan != nil {
						c.add(store(m.Out, root, txt(acc)))
						elems[m.Out] = elem{txt(acc), sp}
					} else if !first {
					} else if out, ok := outs[m.Out]; ok {
						post.pf("%s = %s\n", out, acc)
					} else if m.Out != nil && !consumed[m.Out] {
						post.pf("_ = %s\n", acc)
					}
					sp.emit(c)
				default:
					res := f.fresh("m")
					c := new(code).pf("var %s ", res).line(f.typeCode(op.Map.Sig.Results().At(0).Type()))
					if !f.apply(c, op.Map, args, res, at) {
						return false
					}
					if st := store(m.Out, sp, txt(res)); st != nil {
						c.add(st)
					} else if !consumed[m.Out] {
						c.pf("_ = %s\n", res)
					}
					sp.emit(c)
					elems[m.Out] = elem{txt(res), sp}
				}
			default:
				return false
			}
		}
		return true
	}
	loops := new(code)
	if unroll > 1 {
		base := f.fresh("i")
		loops.pf("%s := 0\n", base)
		// base < n-(unroll-1), not base+unroll <= n: the compiler proves
		// base+unroll-1 < n from it and drops the bounds checks.
		loops.pf("for ; %s < %s-%d; %s += %d {\n", base, nName, unroll-1, base, unroll)
		for cp := 0; cp < unroll; cp++ {
			idx = f.fresh("i")
			if cp == 0 {
				loops.pf("%s := %s\n", idx, base)
			} else {
				loops.pf("%s := %s + %d\n", idx, base, cp)
			}
			loops.pf("_ = %s\n", idx) // a copy may read no element
			if !emit(cp) {
				return nil, false
			}
			root.render(loops)
		}
		loops.p("}\n")
		idx = f.fresh("i")
		loops.pf("for %s := %s; %s < %s; %s++ {\n", idx, base, idx, nName, idx)
	} else {
		loops.pf("for %s := 0; %s < %s; %s++ {\n", idx, idx, nName, idx)
	}
	if !emit(0) {
		return nil, false
	}
	root.render(loops)
	loops.p("}\n")
	// Split accumulators fold pairwise: acc0 = (acc0 op acc1) op (acc2 op acc3).
	combine := new(code)
	for _, m := range k.SOACs {
		if a := accs[m]; len(a) > 1 {
			op := m.Op.(*ir.Screma).Reduce.Op
			for step := 1; step < len(a); step *= 2 {
				for j := 0; j+step < len(a); j += 2 * step {
					if !f.apply(combine, op, []*code{txt(a[j]), txt(a[j+step])}, a[j], at) {
						return nil, false
					}
				}
			}
		}
	}
	body := new(code).pf("%s := ", nName).line(n).add(pre).add(loops).add(combine).add(post)
	c := new(code)
	if len(conds) == 0 {
		return c.p("{\n").add(body).p("}\n"), true
	}
	c.p("if ")
	for i, cd := range conds {
		if i > 0 {
			c.p(" && ")
		}
		c.add(cd)
	}
	c.p(" {\n").add(body).p("} else ").add(f.unfused(k, outs))
	return c, true
}

// apply emits target = l(args...): the literal's body inlined, or a call.
func (f *fgen) apply(c *code, l *ir.Lambda, args []*code, target string, at token.Pos) bool {
	if f.funText[l] == nil && f.canInline(l, at) {
		return f.inline(c, l, args, target)
	}
	fn := f.funText[l]
	if fn == nil {
		if l.Kind != ir.NamedFunc {
			return false
		}
		fn = f.sub(l.Expr, nil)
	}
	// A floating-point result is rounded at the call, as the spec's call
	// of the function value rounds it: without the conversion the
	// compiler may inline the function and fuse its last multiplication
	// with the consumer's addition into one FMA (the spec stores the
	// result or passes it through a call first).
	var round *code
	if rt := l.Sig.Results(); rt.Len() == 1 && isFloat(rt.At(0).Type()) && target != "_" {
		round = f.typeCode(rt.At(0).Type())
	}
	c.pf("%s = ", target)
	if round != nil {
		c.add(round).p("(")
	}
	c.add(fn).p("(")
	for i, a := range args {
		if i > 0 {
			c.p(", ")
		}
		c.add(a)
	}
	if round != nil {
		c.p(")")
	}
	c.p(")\n")
	return true
}

// inline emits the literal's body with its parameters bound to args and
// its returns assigning target.
func (f *fgen) inline(c *code, l *ir.Lambda, args []*code, target string) bool {
	lit := l.Lit
	var names []string
	var objs []types.Object
	var vals, blank []*code
	i := 0
	for _, fl := range lit.Type.Params.List {
		ids := fl.Names
		if len(ids) == 0 {
			if i < len(args) {
				blank = append(blank, args[i])
			}
			i++
			continue
		}
		for _, id := range ids {
			if i >= len(args) {
				return false
			}
			if args[i] == nil {
				// Unbound: every use of the parameter is replaced
				// (a chunk fused into its range loop).
			} else if id.Name != "_" {
				names = append(names, f.localName(id))
				objs = append(objs, f.info.Defs[id])
				vals = append(vals, args[i])
			} else {
				blank = append(blank, args[i])
			}
			i++
		}
	}
	rc := &retCtx{lit: lit, target: target, label: f.fresh("done")}
	if rt := l.Sig.Results().At(0).Type(); isFloat(rt) {
		rc.round = f.typeCode(rt)
	}
	if n := len(lit.Body.List); n > 0 {
		rc.last = lit.Body.List[n-1]
	}
	inner := new(code)
	for _, b := range blank {
		inner.p("_ = ").line(b)
	}
	if len(names) > 0 {
		for j, n := range names {
			if j > 0 {
				inner.p(", ")
			}
			inner.p(n)
		}
		inner.p(" := ")
		for j, v := range vals {
			if j > 0 {
				inner.p(", ")
			}
			inner.add(v)
		}
		inner.p("\n")
		for j, n := range names {
			if !f.reads(lit.Body, objs[j]) {
				inner.pf("_ = %s\n", n)
			}
		}
	}
	if res := lit.Type.Results; res != nil {
		for _, fl := range res.List {
			for _, id := range fl.Names {
				inner.pf("var %s ", f.localName(id)).line(f.typeCode(f.info.TypeOf(fl.Type)))
				rc.named = append(rc.named, f.localName(id))
			}
		}
	}
	body, err := f.body(lit.Body.List, l.Body.Stmts, rc)
	if err != nil {
		f.err = err
		return false
	}
	c.p("{\n").add(inner).add(body).p("}\n")
	if rc.jumped {
		c.pf("%s:\n", rc.label)
	}
	return true
}

// reads reports whether the code n reads the variable obj (not only
// assigns it): a variable it does not read must be marked used.
func (f *fgen) reads(n ast.Node, obj types.Object) bool {
	found := false
	var lhs = map[*ast.Ident]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					lhs[id] = true
				}
			}
		}
		if id, ok := n.(*ast.Ident); ok && !lhs[id] && f.info.Uses[id] == obj && obj != nil {
			found = true
		}
		return !found
	})
	return found
}

// canInline reports whether lambda l's literal can be inlined at pos: it
// has a body the IR describes, nothing in it depends on being a function
// (defer, recover, labels, goto), and every variable of the enclosing
// function it names is the same variable at pos.
func (f *fgen) canInline(l *ir.Lambda, pos token.Pos) bool {
	if l.Lit == nil || l.Body == nil || l.Sig == nil || l.Sig.Results().Len() != 1 {
		return false
	}
	lit := l.Lit
	ok := true
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.DeferStmt, *ast.LabeledStmt:
			ok = false
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				ok = false
			}
		case *ast.Ident:
			obj := f.info.Uses[n]
			if obj == nil {
				return true
			}
			if b, isB := obj.(*types.Builtin); isB && b.Name() == "recover" {
				ok = false
				return false
			}
			if obj.Pkg() != f.pkg || obj.Parent() == nil || obj.Parent() == f.pkg.Scope() || obj.Parent() == types.Universe {
				return true
			}
			if lit.Pos() <= obj.Pos() && obj.Pos() < lit.End() {
				return true
			}
			if f.lookupAt(n.Name, pos) != obj {
				ok = false
			}
		}
		return true
	})
	return ok
}

// isFloat reports whether t is a floating-point or complex type, whose
// arithmetic a compiler may fuse across statements.
func isFloat(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsFloat|types.IsComplex) != 0
}
