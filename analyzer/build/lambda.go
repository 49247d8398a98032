package build

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// merge is a Go variable that a nested block assigned: after the statement
// owning the block it gets a fresh Var, joined with every Var it had.
type merge struct {
	obj   types.Object
	pre   *ir.Var   // the Var before the statement
	outs  []*ir.Var // the Vars at the ends of the nested blocks
	start int       // the first Var ID created inside the statement
	end   int       // one past the last
}

// changes returns the merges for the variables visible in pre whose Var
// differs at the end of any of envs, in the order the builder met them.
func (b *builder) changes(pre map[types.Object]*ir.Var, start int, envs ...map[types.Object]*ir.Var) []merge {
	set := make(map[types.Object]bool)
	for _, env := range envs {
		for obj, v := range env {
			if p, ok := pre[obj]; ok && p != v {
				set[obj] = true
			}
		}
	}
	var ms []merge
	for _, obj := range b.sortedObjs(set) {
		m := merge{obj: obj, pre: pre[obj], start: start, end: len(b.fn.Vars)}
		for _, env := range envs {
			m.outs = append(m.outs, env[obj])
		}
		ms = append(ms, m)
	}
	return ms
}

// mergeAfter gives each merged variable a fresh Var defined by s.
func (b *builder) mergeAfter(s ir.Stmt, ms []merge) {
	for _, m := range ms {
		v := b.define(m.obj, s, s.Pos())
		b.joinRef(v, m.pre)
		for _, o := range m.outs {
			b.joinRef(v, o)
		}
		b.joinInner(v, m.obj, m.start, m.end)
		s.Effects().Defs = append(s.Effects().Defs, v)
		for _, o := range m.outs {
			if o != nil && o.ID >= m.start && o.ID < m.end && o.Def != s {
				addFlow(s.Effects(), o)
			}
		}
	}
}

// addFlow records that v, defined inside the statement of eff, flows out
// of it (ir.Effects.Flows).
func addFlow(eff *ir.Effects, v *ir.Var) {
	if !slices.Contains(eff.Flows, v) {
		eff.Flows = append(eff.Flows, v)
	}
}

// joinInner joins v with every Var of obj whose ID is in [start, end): the
// values the variable had inside a compound statement, any of which may
// flow out of it (through break, continue or a later iteration).
func (b *builder) joinInner(v *ir.Var, obj types.Object, start, end int) {
	if !hasRefs(v.Type) {
		return
	}
	for _, w := range b.fn.Vars[start:end] {
		if w.Obj == obj {
			b.join(v, w)
		}
	}
}

// lambda builds the function argument e of SOAC s. It returns the
// variables the lambda's body assigns, to be merged after s.
func (c *ectx) lambda(s *ir.SOAC, e ast.Expr) (*ir.Lambda, []merge) {
	b := c.b
	l := &ir.Lambda{Expr: e}
	if t := b.info.TypeOf(e); t != nil {
		l.Sig, _ = t.Underlying().(*types.Signature)
	}
	unresolved := func(what string) ir.Purity {
		return ir.Purity{Reason: "calls " + what + ", a function value that cannot be resolved", Pos: e.Pos(), MayPanic: true}
	}
	u := ast.Unparen(e)
	if fn := b.namedFunc(u); fn != nil {
		if combinatorName(fn) != "" {
			b.unsupportedValue(u)
		}
		l.Kind, l.Func, l.Purity = ir.NamedFunc, fn, b.pur.Func(fn)
		return l, nil
	}
	switch x := u.(type) {
	case *ast.FuncLit:
		l.Kind, l.Lit, l.Purity = ir.FuncLit, x, b.pur.Lit(x)
		return l, b.lambdaBody(s, l, x)
	case *ast.SelectorExpr:
		if sel := b.info.Selections[x]; sel != nil && sel.Kind() == types.MethodVal {
			fn, _ := sel.Obj().(*types.Func)
			var oe ir.Effects
			c.sub(&oe, nil).expr(x.X, "")
			mergeEffects(&s.Eff, &oe)
			l.Kind, l.Func = ir.MethodValue, fn
			l.Recv = &ir.Operand{Expr: x.X, Uses: oe.Uses}
			l.Free = append(l.Free, oe.Uses...)
			l.Purity = b.pur.Func(fn)
			return l, nil
		}
	case *ast.Ident:
		if obj, ok := b.info.Uses[x].(*types.Var); ok {
			v := b.lookup(obj)
			l.Kind = ir.FuncValue
			l.Free = append(l.Free, v)
			if lit := b.sc.lit[obj]; lit != nil && !isPackageLevel(obj) {
				l.Lit, l.Purity = lit, b.pur.Lit(lit)
				return l, b.lambdaBody(s, l, lit)
			}
			l.Purity = unresolved(x.Name)
			return l, nil
		}
	}
	var oe ir.Effects
	c.sub(&oe, nil).expr(e, "")
	mergeEffects(&s.Eff, &oe)
	l.Kind, l.Free = ir.OtherFunc, oe.Uses
	l.Purity = unresolved(types.ExprString(e))
	return l, nil
}

// namedFunc returns the function e names statically (a package-level
// function, possibly qualified or instantiated, or a method expression), or
// nil.
func (b *builder) namedFunc(e ast.Expr) *types.Func {
	switch x := e.(type) {
	case *ast.IndexExpr:
		if _, ok := b.info.Instances[calleeIdent(x)]; ok {
			e = ast.Unparen(x.X)
		}
	case *ast.IndexListExpr:
		e = ast.Unparen(x.X)
	}
	switch x := e.(type) {
	case *ast.Ident:
		fn, _ := b.info.Uses[x].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		sel := b.info.Selections[x]
		if sel == nil {
			fn, _ := b.info.Uses[x.Sel].(*types.Func)
			return fn
		}
		if sel.Kind() == types.MethodExpr {
			fn, _ := sel.Obj().(*types.Func)
			return fn
		}
	}
	return nil
}

// lambdaBody builds the body of lit as the body of lambda l of SOAC s: a
// block whose parent is s, in which the lambda's captures are the Vars
// reaching s. It returns the captured variables the body assigns.
func (b *builder) lambdaBody(s *ir.SOAC, l *ir.Lambda, lit *ast.FuncLit) []merge {
	for _, obj := range b.capturedObjs(lit) {
		if v := b.lookup(obj); v != nil && !containsVar(l.Free, v) {
			l.Free = append(l.Free, v)
		}
	}
	pre, cur := b.env, b.cur
	start := len(b.fn.Vars)
	b.env = cloneEnv(pre)
	blk := &ir.Block{Parent: s}
	b.cur = blk
	l.Params = b.funcParams(lit.Type, nil)
	leave := b.enterLit(lit)
	b.stmtList(lit.Body.List)
	leave()
	l.Body = blk
	// A pure lambda writes nothing it did not allocate; whatever the body
	// is recorded to write is kept on the SOAC all the same.
	for _, st := range blk.Stmts {
		e := st.Effects()
		for _, w := range e.Writes {
			if w.ID < start {
				addWrite(&s.Eff, w)
			}
		}
		s.Eff.WritesGlobal = s.Eff.WritesGlobal || e.WritesGlobal
	}
	post := b.env
	b.env, b.cur = pre, cur
	return b.changes(pre, start, post)
}

// funcParams defines the parameters and named results of a function
// literal, defined by def (nil for a lambda, whose Params list them).
func (b *builder) funcParams(ft *ast.FuncType, def ir.Stmt) []*ir.Var {
	var vs []*ir.Var
	var fields []*ast.Field
	fields = append(fields, ft.Params.List...)
	if ft.Results != nil {
		fields = append(fields, ft.Results.List...)
	}
	for _, f := range fields {
		for _, id := range f.Names {
			if obj := b.info.Defs[id]; obj != nil {
				vs = append(vs, b.define(obj, def, id.Pos()))
			}
		}
	}
	return vs
}

func containsVar(vs []*ir.Var, v *ir.Var) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}
