package build

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
)

func (b *builder) stmtList(list []ast.Stmt) {
	for _, s := range list {
		b.stmt(s)
	}
}

// stmt builds one source statement into the current block.
func (b *builder) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case nil, *ast.EmptyStmt, *ast.BadStmt:
	case *ast.BlockStmt:
		b.stmtList(s.List)
	case *ast.LabeledStmt:
		if l, ok := b.info.Defs[s.Label].(*types.Label); ok {
			b.labels[s.Stmt] = l
		}
		b.stmt(s.Stmt)
	case *ast.ExprStmt:
		p, c := b.plain(s)
		c.prepare(s.X)
		if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
			if name := b.soacName(call); name != "" && c.unsupReason(call, name, "") == "" {
				c.soac(call, name) // a SOAC whose result is discarded
				return
			}
		}
		c.expr(s.X, "")
		c.finish(p)
	case *ast.AssignStmt:
		b.assign(s)
	case *ast.DeclStmt:
		b.decl(s)
	case *ast.IncDecStmt:
		p, c := b.plain(s)
		c.prepare(s.X)
		c.expr(s.X, "")
		c.assignTo(s.X, nil, nil)
		c.finish(p)
	case *ast.SendStmt:
		p, c := b.plain(s)
		c.prepare(s.Chan, s.Value)
		c.expr(s.Chan, "")
		c.expr(s.Value, "")
		c.escape(s.Value)
		setImpure(&p.Eff, "sends on a channel", s.Arrow)
		c.finish(p)
	case *ast.ReturnStmt:
		p, c := b.plain(s)
		c.prepare(s.Results...)
		for _, r := range s.Results {
			c.expr(r, "")
		}
		if len(s.Results) == 0 && b.fn.Decl.Type.Results != nil {
			// A bare return reads the named results of the innermost
			// function; in a literal they are among the Vars in scope.
			for _, v := range b.namedResults() {
				addUse(&p.Eff, v)
			}
		}
		p.Eff.Exits = true
		c.finish(p)
	case *ast.BranchStmt:
		p := &ir.Plain{Node: s, Parent: b.cur}
		p.Eff.Exits = true
		b.emit(p)
	case *ast.GoStmt:
		b.goDefer(s, s.Call, "go statement", reasonGo)
	case *ast.DeferStmt:
		b.goDefer(s, s.Call, "defer", reasonDefer)
	case *ast.IfStmt:
		b.ifStmt(s)
	case *ast.SwitchStmt:
		b.switchStmt(s)
	case *ast.TypeSwitchStmt:
		b.typeSwitch(s)
	case *ast.SelectStmt:
		b.selectStmt(s)
	case *ast.ForStmt:
		b.forStmt(s)
	case *ast.RangeStmt:
		b.rangeStmt(s)
	}
}

// plain starts a Plain statement for s.
func (b *builder) plain(s ast.Stmt) (*ir.Plain, *ectx) {
	p := &ir.Plain{Node: s, Parent: b.cur}
	return p, b.newCtx(s, &p.Eff)
}

// namedResults returns the Vars reaching this point of the function's
// named results.
func (b *builder) namedResults() []*ir.Var {
	var vs []*ir.Var
	for _, f := range b.fn.Decl.Type.Results.List {
		for _, id := range f.Names {
			if obj := b.info.Defs[id]; obj != nil {
				if v := b.env[obj]; v != nil {
					vs = append(vs, v)
				}
			}
		}
	}
	return vs
}

// escape records that the value of e leaves the function's control (sent on
// a channel, passed to a goroutine): its memory may change at any time.
func (c *ectx) escape(e ast.Expr) {
	srcs, _ := c.b.sources(e)
	for _, v := range srcs {
		c.b.markGlobal(v)
	}
}

// goDefer builds a go or defer statement: the function value and arguments
// are evaluated now, the call later.
func (b *builder) goDefer(s ast.Stmt, call *ast.CallExpr, what, reason string) {
	p, c := b.plain(s)
	roots := append([]ast.Expr{call.Fun}, call.Args...)
	c.prepare(roots...)
	if name := b.soacName(call); name != "" {
		b.fn.Unsupported = append(b.fn.Unsupported, ir.Unsupported{Call: call, Expr: call, Reason: reason})
	} else if bi := b.builtin(call); bi == "" {
		c.fun(call.Fun, "")
		if _, ok := ast.Unparen(call.Fun).(*ast.FuncLit); !ok {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				c.escape(sel.X)
			}
		}
	}
	for _, a := range call.Args {
		c.expr(a, "")
		c.escape(a)
		c.writeThrough(a)
	}
	setImpure(&p.Eff, what, s.Pos())
	p.Eff.WritesGlobal = true
	c.finish(p)
}

// bindable reports whether the SOAC call rhs, assigned to lhs, can define
// lhs's Var directly: lhs is a local variable of the call's exact type.
func (b *builder) bindable(lhs ast.Expr, rhs ast.Expr) (*ast.CallExpr, types.Object) {
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok || b.noSOAC != "" || b.soacName(call) == "" {
		return nil, nil
	}
	id, ok := lhs.(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil, nil
	}
	obj, ok := b.info.ObjectOf(id).(*types.Var)
	if !ok || isPackageLevel(obj) || !types.Identical(obj.Type(), b.info.TypeOf(call)) {
		return nil, nil
	}
	return call, obj
}

// assign builds an assignment.
func (b *builder) assign(s *ast.AssignStmt) {
	p, c := b.plain(s)
	simple := s.Tok == token.DEFINE || s.Tok == token.ASSIGN
	nbound := 0
	if simple && len(s.Lhs) == len(s.Rhs) {
		for i := range s.Lhs {
			if call, obj := b.bindable(s.Lhs[i], s.Rhs[i]); call != nil {
				c.sh.setBind(call, obj)
				nbound++
			}
		}
	}
	var roots []ast.Expr
	for _, l := range s.Lhs {
		if _, ok := ast.Unparen(l).(*ast.Ident); !ok || !simple {
			roots = append(roots, l)
		}
	}
	roots = append(roots, s.Rhs...)
	c.prepare(roots...)
	for _, l := range s.Lhs {
		if _, ok := ast.Unparen(l).(*ast.Ident); !ok || !simple {
			c.expr(l, "") // operands of the target (and its old value for op=)
		}
	}
	for _, r := range s.Rhs {
		c.expr(r, "")
	}
	for i, l := range s.Lhs {
		if !simple {
			c.assignTo(l, nil, nil) // x op= y: a new value of x's kind
			continue
		}
		if len(s.Lhs) == len(s.Rhs) {
			c.assignTo(l, s.Rhs[i], nil)
		} else {
			c.assignTo(l, s.Rhs[0], nil)
		}
	}
	for obj, v := range c.sh.bound {
		c.sh.defs = append(c.sh.defs, def{obj, v})
	}
	c.sortDefs()
	if nbound == len(s.Lhs) && len(p.Eff.Uses) == 0 && len(p.Eff.Writes) == 0 && p.Eff.Impure == "" && !p.Eff.WritesGlobal {
		// Every target is a SOAC result: the SOAC statements are the
		// assignment.
		for _, d := range c.sh.defs {
			b.setEnv(d.obj, d.v)
		}
		return
	}
	c.finish(p)
}

// sortDefs orders the pending definitions by Var ID, so that environments
// are updated deterministically.
func (c *ectx) sortDefs() {
	ds := c.sh.defs
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && ds[j].v.ID < ds[j-1].v.ID; j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
		}
	}
}

// assignTo records the definitions and writes of storing the value of rhs
// (nil: a value computed from the target's old one) into target.
func (c *ectx) assignTo(target, rhs ast.Expr, _ any) {
	b := c.b
	l := ast.Unparen(target)
	var srcs []*ir.Var
	unknown := false
	if rhs != nil {
		srcs, unknown = b.sources(rhs)
	}
	if id, ok := l.(*ast.Ident); ok {
		if id.Name == "_" {
			return
		}
		obj := b.info.ObjectOf(id)
		if obj == nil {
			return
		}
		if _, isBound := c.sh.bound[obj]; isBound {
			if call, ok := ast.Unparen(orNil(rhs)).(*ast.CallExpr); ok && c.sh.bind[call] == obj {
				return
			}
		}
		v := b.newVar(obj, obj.Name(), obj.Type(), nil, id.Pos())
		if rhs == nil {
			b.joinRef(v, b.env[obj])
		}
		b.joinAll(v, srcs, unknown)
		if isPackageLevel(obj) {
			c.eff.WritesGlobal = true
		}
		c.sh.defs = append(c.sh.defs, def{obj, v})
		return
	}
	if id := valueRoot(b.info, l); id != nil {
		// x.f = v, a[i] = v on a struct or array value: a new value of x.
		obj := b.info.ObjectOf(id)
		old := b.lookup(obj)
		addUse(c.eff, old)
		v := b.newVar(obj, obj.Name(), obj.Type(), nil, l.Pos())
		b.joinRef(v, old)
		b.joinAll(v, srcs, unknown)
		if isPackageLevel(obj) {
			c.eff.WritesGlobal = true
		}
		c.sh.defs = append(c.sh.defs, def{obj, v})
		return
	}
	// A store through a pointer, slice or map.
	base := indirectBase(b.info, l)
	bsrcs, bunknown := b.sources(base)
	if base == nil || bunknown {
		c.eff.WritesGlobal = true
	}
	for _, w := range bsrcs {
		addWrite(c.eff, w)
		if rhs != nil {
			b.joinAll(w, srcs, unknown)
		}
	}
}

func orNil(e ast.Expr) ast.Expr {
	if e == nil {
		return &ast.BadExpr{}
	}
	return e
}

// indirectBase returns the expression through whose pointer (or slice or
// map) an assignment to l stores, or nil when there is none to name.
func indirectBase(info *types.Info, l ast.Expr) ast.Expr {
	for {
		switch x := ast.Unparen(l).(type) {
		case *ast.SelectorExpr:
			sel := info.Selections[x]
			if sel == nil {
				return nil
			}
			if sel.Indirect() || isPointer(info.TypeOf(x.X)) {
				return x.X
			}
			l = x.X
		case *ast.IndexExpr:
			if isArray(info.TypeOf(x.X)) {
				l = x.X
				continue
			}
			return x.X
		case *ast.StarExpr:
			return x.X
		default:
			return nil
		}
	}
}

// decl builds a declaration statement: each var spec is a Plain (or, when
// its values are SOAC calls, SOAC statements); constants and types have no
// runtime effect and build nothing.
func (b *builder) decl(s *ast.DeclStmt) {
	gd, ok := s.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR {
		return
	}
	for _, spec := range gd.Specs {
		vs := spec.(*ast.ValueSpec)
		p, c := b.plain(s)
		nbound := 0
		if len(vs.Names) == len(vs.Values) {
			for i := range vs.Names {
				if call, obj := b.bindable(vs.Names[i], vs.Values[i]); call != nil {
					c.sh.setBind(call, obj)
					nbound++
				}
			}
		}
		c.prepare(vs.Values...)
		for _, v := range vs.Values {
			c.expr(v, "")
		}
		for i, id := range vs.Names {
			var rhs ast.Expr
			switch {
			case len(vs.Values) == len(vs.Names):
				rhs = vs.Values[i]
			case len(vs.Values) == 1:
				rhs = vs.Values[0]
			}
			if rhs == nil {
				// The zero value: fresh.
				if obj := b.info.Defs[id]; obj != nil && id.Name != "_" {
					v := b.newVar(obj, obj.Name(), obj.Type(), nil, id.Pos())
					c.sh.defs = append(c.sh.defs, def{obj, v})
				}
				continue
			}
			c.assignTo(id, rhs, nil)
		}
		for obj, v := range c.sh.bound {
			c.sh.defs = append(c.sh.defs, def{obj, v})
		}
		c.sortDefs()
		if nbound == len(vs.Names) && len(p.Eff.Uses) == 0 && len(p.Eff.Writes) == 0 && p.Eff.Impure == "" && !p.Eff.WritesGlobal {
			for _, d := range c.sh.defs {
				b.setEnv(d.obj, d.v)
			}
			continue
		}
		c.finish(p)
	}
}
