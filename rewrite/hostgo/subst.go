package hostgo

// This file copies the spec's source with substitutions: every SOAC call
// replaced by the variable its kernel computes, every subexpression the IR
// hoisted by its temporary, every closure's body generated in turn, and
// the spec's locals renamed (rename.go). It does not decide where kernels
// run (the plan does) nor emit them (kernel.go).

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// newSubst returns the substitution of a statement whose IR is items.
func (f *Func) newSubst(items []ir.Stmt) *subst {
	sb := &subst{calls: map[*ast.CallExpr]*jen.Statement{}, hoisted: map[ast.Expr]*jen.Statement{}, closures: map[*ast.FuncLit]*ir.Closure{}}
	for _, it := range items {
		switch it := it.(type) {
		case *ir.Plain:
			if it.Hoisted != nil {
				sb.hoisted[it.Hoisted] = Id(f.Name(it.Eff.Defs[0]))
			}
		case *ir.SOAC:
			if z := f.zeroed[it.Source()]; z != nil {
				sb.calls[it.Source()] = z
			} else if it.Out != nil {
				sb.calls[it.Source()] = Id(f.Name(it.Out))
			}
		case *ir.Closure:
			sb.closures[it.Lit] = it
		}
	}
	return sb
}

// hoist emits the temporary that Plain p binds its hoisted subexpression
// to. sb replaces the subexpression by the temporary everywhere but in
// its own definition.
func (f *Func) hoist(c *Stmts, p *ir.Plain, sb *subst) {
	own := sb.hoisted[p.Hoisted]
	delete(sb.hoisted, p.Hoisted)
	c.Add(Define(f.Name(p.Eff.Defs[0]), f.sub(p.Hoisted, sb)))
	if own != nil {
		sb.hoisted[p.Hoisted] = own
	}
}

// ret generates a return statement of an inlined literal.
func (f *Func) ret(c *Stmts, r *ast.ReturnStmt, sb *subst, rc *retCtx) {
	switch {
	case len(r.Results) == 1 && rc.target != nil && rc.round != nil:
		c.Add(Set(rc.target, jen.Add(rc.round).Call(f.sub(r.Results[0], sb))))
	case len(r.Results) == 1 && rc.target != nil:
		c.Add(Set(rc.target, f.sub(r.Results[0], sb)))
	case len(r.Results) == 1:
		c.Add(AssignTo("_", f.sub(r.Results[0], sb)))
	case len(rc.named) == 1 && rc.target != nil && rc.round != nil:
		c.Add(Set(rc.target, jen.Add(rc.round).Call(Id(rc.named[0]))))
	case len(rc.named) == 1 && rc.target != nil:
		c.Add(Set(rc.target, Id(rc.named[0])))
	}
	f.roundParts(c, rc.target, rc.parts)
	if ast.Stmt(r) != rc.last {
		rc.jumped = true
		c.Add(jen.Goto().Id(rc.label))
	}
}

// sub returns the source of n with the substitutions of sb applied and the
// references to other packages qualified: the spans of the spec's source
// between the replaced nodes, and the replacements.
func (f *Func) sub(n ast.Node, sb *subst) *jen.Statement {
	return f.subRange(n, n.Pos(), n.End(), sb)
}

// subRange is sub of the source of root in [pos, end).
func (f *Func) subRange(root ast.Node, pos, end token.Pos, sb *subst) *jen.Statement {
	c := jen.Null()
	span := func(pos, end token.Pos) {
		if t := f.text(pos, end); t != "" {
			c.Op(t) // the spec's source as written
		}
	}
	cur := pos
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil || n.End() <= pos || n.Pos() >= end || n.Pos() < cur {
			return false
		}
		if n.Pos() < pos || n.End() > end {
			return true
		}
		if r := f.replacement(n, sb); r != nil {
			span(cur, n.Pos())
			c.Add(r)
			cur = n.End()
			return false
		}
		return true
	})
	span(cur, end)
	return c
}

// replacement returns what replaces node n of the spec's source, or nil
// when n is copied (its parts may be replaced).
func (f *Func) replacement(n ast.Node, sb *subst) *jen.Statement {
	if r := f.exprRepl[n]; r != nil {
		return r
	}
	if sb != nil {
		switch n := n.(type) {
		case *ast.CallExpr:
			if r := sb.calls[n]; r != nil {
				return r
			}
		case *ast.FuncLit:
			if cl := sb.closures[n]; cl != nil {
				body, err := f.body(n.Body.List, cl.Body.Stmts, nil)
				if err != nil {
					f.err = err
					return nil
				}
				return f.sub(n.Type, nil).Add(Block(body))
			}
		}
		if e, ok := n.(ast.Expr); ok {
			if r := sb.hoisted[e]; r != nil {
				return r
			}
		}
	}
	switch n := n.(type) {
	case *ast.SelectorExpr:
		if id, ok := n.X.(*ast.Ident); ok {
			if pn, ok := f.info.Uses[id].(*types.PkgName); ok {
				return f.Qual(pn.Imported().Path(), pn.Imported().Name(), n.Sel.Name)
			}
		}
	case *ast.Ident:
		if r := f.renamed(n); r != "" {
			return Id(r)
		}
		obj := f.info.Uses[n]
		if obj != nil && obj.Pkg() != nil && obj.Pkg() != f.pkg && obj.Parent() == obj.Pkg().Scope() {
			return f.Qual(obj.Pkg().Path(), obj.Pkg().Name(), n.Name)
		}
	}
	return nil
}
