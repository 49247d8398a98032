package hostgo

// This file applies a lambda where generated code needs its result:
// target = l(args...), the literal's body inlined (its parameters bound,
// its returns assigning the target, its float results rounded as the
// spec's call rounds them) when that cannot change what it computes
// (canInline), else a call of the function value evaluated where the
// SOAC is written. It does not decide where a lambda's value is
// evaluated (kernel.go's evalFunc) nor which lambdas may fuse x*y+z
// (fma.go).

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// Apply emits target = l(args...): the literal's body inlined, or a call.
// It returns why it cannot, or "".
func (f *Func) Apply(c *Stmts, l *ir.Lambda, args []jen.Code, target *jen.Statement, at token.Pos) string {
	if f.funText[l] == nil && f.canInline(l, at) {
		return f.inline(c, l, args, target)
	}
	fn := f.funText[l]
	if fn != nil {
		f.funRefs[fn] = true
	}
	if fn == nil {
		if l.Kind != ir.NamedFunc {
			return fmt.Sprintf("the function at %s can be neither inlined at %s nor called through a value evaluated where it is written", f.fset.Position(l.Expr.Pos()), f.fset.Position(at))
		}
		fn = f.sub(l.Expr, nil)
	}
	// A floating-point result is rounded at the call, as the spec's call
	// of the function value rounds it: without the conversion the
	// compiler may inline the function and fuse its last multiplication
	// with the consumer's addition into one FMA (the spec stores the
	// result or passes it through a call first).
	for i, a := range args {
		if a == nil && f.unusedParam(l, i) {
			// Unbound and unused (an unread map's element): any value.
			args[i] = jen.Op("*").New(f.Type(l.Sig.Params().At(i).Type()))
		}
	}
	call := jen.Add(fn).Call(args...)
	if rt := l.Sig.Results(); rt.Len() == 1 && isFloat(rt.At(0).Type()) {
		call = f.Type(rt.At(0).Type()).Call(call)
	}
	c.Add(Set(target, call))
	f.roundParts(c, target, f.roundedParts(l))
	return ""
}

// inline emits the literal's body with its parameters bound to args and
// its returns assigning target. It returns why it cannot, or "".
func (f *Func) inline(c *Stmts, l *ir.Lambda, args []jen.Code, target *jen.Statement) string {
	lit := l.Lit
	var names []string
	var objs []types.Object
	var vals, blank []jen.Code
	i := 0
	for _, fl := range lit.Type.Params.List {
		ids := fl.Names
		if len(ids) == 0 {
			if i < len(args) && args[i] != nil {
				blank = append(blank, args[i])
			}
			i++
			continue
		}
		for _, id := range ids {
			if i >= len(args) {
				return fmt.Sprintf("the function at %s has more parameters than the %d values it is applied to", f.fset.Position(l.Expr.Pos()), len(args))
			}
			if args[i] == nil {
				// Unbound: every use of the parameter is replaced
				// (a chunk fused into its range loop), or there is
				// none (the element of an unread map).
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
	rc := &retCtx{lit: lit, target: target, label: f.Fresh("done")}
	if rt := l.Sig.Results().At(0).Type(); isFloat(rt) {
		rc.round = f.Type(rt)
	}
	rc.parts = f.roundedParts(l)
	if n := len(lit.Body.List); n > 0 {
		rc.last = lit.Body.List[n-1]
	}
	var inner Stmts
	for _, b := range blank {
		inner.Add(AssignTo("_", b))
	}
	if len(names) > 0 {
		inner.Add(jen.List(Ids(names...)...).Op(":=").List(vals...))
		for j, n := range names {
			if !f.reads(lit.Body, objs[j]) {
				inner.Add(AssignTo("_", Id(n)))
			}
		}
	}
	if res := lit.Type.Results; res != nil {
		for _, fl := range res.List {
			for _, id := range fl.Names {
				inner.Add(VarDecl(f.localName(id), f.Type(f.info.TypeOf(fl.Type)), nil))
				rc.named = append(rc.named, f.localName(id))
			}
		}
	}
	body, err := f.body(lit.Body.List, l.Body.Stmts, rc)
	if err != nil {
		f.err = err
		return err.Error()
	}
	c.Add(Block(append(inner, body...)))
	if rc.jumped {
		c.Add(labelStmt(rc.label))
	}
	return ""
}

// unusedParam reports whether parameter i of literal l is unnamed, blank
// or never referred to in its body.
func (f *Func) unusedParam(l *ir.Lambda, i int) bool {
	if l.Lit == nil || i >= l.Sig.Params().Len() {
		return false
	}
	obj := l.Sig.Params().At(i)
	if obj.Name() == "" || obj.Name() == "_" {
		return true
	}
	used := false
	ast.Inspect(l.Lit.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && f.info.Uses[id] == obj {
			used = true
		}
		return !used
	})
	return !used
}

// reads reports whether the code n reads the variable obj (not only
// assigns it), outside the expressions exprRepl replaces: a variable it
// does not read must be marked used.
func (f *Func) reads(n ast.Node, obj types.Object) bool {
	found := false
	var lhs = map[*ast.Ident]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if f.exprRepl[n] != nil {
			return false // replaced: not generated
		}
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
// (defer, recover, labels, goto), every variable of the enclosing
// function it names is the same variable at pos, and inlining cannot
// change how its floating-point arithmetic is fused (mayFuse).
func (f *Func) canInline(l *ir.Lambda, pos token.Pos) bool {
	if l.Lit == nil || l.Body == nil || l.Sig == nil || l.Sig.Results().Len() != 1 || f.mayFuse(l) {
		return false
	}
	ok := true
	ast.Inspect(l.Lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt, *ast.LabeledStmt:
			ok = false
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				ok = false
			}
		case *ast.Ident:
			if b, isB := f.info.Uses[n].(*types.Builtin); isB && b.Name() == "recover" {
				ok = false
			}
		}
		return ok
	})
	return ok && f.namesMean(l.Lit, l.Lit.Body, pos)
}

// namesMean reports whether every name in node (part of literal lit)
// that is declared in the spec's function, outside lit, means at pos what
// it means in node.
func (f *Func) namesMean(lit *ast.FuncLit, node ast.Node, pos token.Pos) bool {
	ok := true
	ast.Inspect(node, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			obj := f.info.Uses[n]
			if obj == nil {
				return true
			}
			if obj.Pkg() != f.pkg || obj.Parent() == nil || obj.Parent() == f.pkg.Scope() || obj.Parent() == types.Universe {
				return true
			}
			if lit.Pos() <= obj.Pos() && obj.Pos() < lit.End() {
				return true
			}
			if f.LookupAt(n.Name, pos) != obj {
				ok = false
			}
		}
		return true
	})
	return ok
}

// isFloat reports whether t is a floating-point or complex type, whose
// arithmetic a compiler may fuse across statements, or a type parameter
// whose type set has one (func[T ~float32 | ~float64]: an instance's
// arithmetic is the float type's, and T(x) rounds it).
func isFloat(t types.Type) bool {
	if tp, ok := t.(*types.TypeParam); ok {
		return constraintHasFloat(tp.Constraint(), map[types.Type]bool{})
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsFloat|types.IsComplex) != 0
}

// constraintHasFloat reports whether the type set of constraint c (an
// interface, a union or a term's type) has a floating-point or complex
// type. seen holds the interfaces being walked.
func constraintHasFloat(c types.Type, seen map[types.Type]bool) bool {
	switch u := c.(type) {
	case *types.Union:
		for i := 0; i < u.Len(); i++ {
			if constraintHasFloat(u.Term(i).Type(), seen) {
				return true
			}
		}
		return false
	case *types.TypeParam:
		return constraintHasFloat(u.Constraint(), seen)
	}
	switch u := c.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsFloat|types.IsComplex) != 0
	case *types.Interface:
		if seen[u] {
			return false
		}
		seen[u] = true
		for i := 0; i < u.NumEmbeddeds(); i++ {
			if constraintHasFloat(u.EmbeddedType(i), seen) {
				return true
			}
		}
	}
	return false
}
