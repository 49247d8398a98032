package build

// This file sees through a call of a local closure whose literal only
// returns a combinator call, where the call is an array argument of a
// SOAC: inc := func(r []T) []T { return soac.Map(r, f) } then
// soac.Reduce(inc(row), ne, op) builds the Map at the call, reading row,
// as if it were written there (ir.SOAC.Site), so that it is a nested SOAC
// of the lambda holding the call, fused as any. Only what cannot change
// the program's meaning is seen through: a variable bound once to the
// literal and never reassigned or escaped (scan.lit), arguments that are
// variables of the parameters' types (no evaluation to order, no
// conversion), a combinator call whose arrays are the parameters and
// whose other arguments do not read them, and names that mean at the
// call what they mean in the literal.

import (
	"go/ast"
	"go/types"
)

// seeThrough returns, for a call of a closure it sees through, the
// literal's combinator call, its arguments with each parameter replaced
// by the call's argument, and the combinator's name; nil otherwise.
func (c *ectx) seeThrough(call *ast.CallExpr) (*ast.CallExpr, []ast.Expr, string) {
	b := c.b
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || call.Ellipsis.IsValid() {
		return nil, nil, ""
	}
	obj, ok := b.info.Uses[id].(*types.Var)
	if !ok || isPackageLevel(obj) || b.sc.lit[obj] == nil {
		return nil, nil, ""
	}
	lit := b.sc.lit[obj]
	inner := returnedCall(lit)
	if inner == nil || inner.Ellipsis.IsValid() {
		return nil, nil, ""
	}
	name := b.soacName(inner)
	sig, _ := b.info.TypeOf(lit).(*types.Signature)
	if name == "" || sig == nil || sig.Variadic() || len(call.Args) != sig.Params().Len() || len(inner.Args) != arity[name] ||
		!types.Identical(b.info.TypeOf(inner), b.info.TypeOf(call)) || b.noSOAC != "" || c.sh.unsup[call] != "" {
		return nil, nil, ""
	}
	params := map[types.Object]int{}
	for j := range sig.Params().Len() {
		params[sig.Params().At(j)] = j
		a, ok := ast.Unparen(call.Args[j]).(*ast.Ident)
		if !ok || b.lookup(b.info.Uses[a]) == nil || !types.Identical(b.info.TypeOf(a), sig.Params().At(j).Type()) {
			return nil, nil, ""
		}
	}
	args := make([]ast.Expr, len(inner.Args))
	for k, a := range inner.Args {
		if p, ok := ast.Unparen(a).(*ast.Ident); ok && argKinds[name][k] == 'a' {
			if j, ok := params[b.info.Uses[p]]; ok {
				args[k] = call.Args[j]
				continue
			}
		}
		if !c.meansAt(a, params, call, obj.Pkg()) {
			return nil, nil, ""
		}
		args[k] = a
	}
	if !c.meansAt(inner.Fun, params, call, obj.Pkg()) {
		return nil, nil, ""
	}
	return inner, args, name
}

// returnedCall returns the call lit's body only returns, or nil.
func returnedCall(lit *ast.FuncLit) *ast.CallExpr {
	if len(lit.Body.List) != 1 {
		return nil
	}
	ret, ok := lit.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	call, _ := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	return call
}

// meansAt reports whether every name in n (part of the literal's
// combinator call) means at call what it means in n: none is one of the
// literal's parameters, and each other name declared outside n (fields
// and methods aside, resolved through their operand; another package's
// names aside, resolved through their qualifier) resolves at call, in
// pkg's scopes, to the same object.
func (c *ectx) meansAt(n ast.Node, params map[types.Object]int, call *ast.CallExpr, pkg *types.Package) bool {
	info := c.b.info
	ok := true
	ast.Inspect(n, func(m ast.Node) bool {
		id, isID := m.(*ast.Ident)
		if !ok || !isID {
			return ok
		}
		obj := info.Uses[id]
		if obj == nil || n.Pos() <= obj.Pos() && obj.Pos() < n.End() {
			return true // not a use, or declared inside n (a lambda's own)
		}
		if _, isParam := params[obj]; isParam {
			ok = false
			return false
		}
		if v, isVar := obj.(*types.Var); isVar && v.IsField() {
			return true
		}
		if f, isFunc := obj.(*types.Func); isFunc && f.Type().(*types.Signature).Recv() != nil {
			return true
		}
		if obj.Pkg() != nil && obj.Pkg() != pkg {
			return true
		}
		sc := pkg.Scope().Innermost(call.Pos())
		if sc == nil {
			ok = false
			return false
		}
		_, at := sc.LookupParent(id.Name, call.Pos())
		ok = at == obj
		return ok
	})
	return ok
}
