package purity

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// This file decides which local variables hold memory that the function
// allocated itself ("fresh" memory: from make, new, a composite literal, or
// append to fresh memory), so that writing their elements is not a side
// effect. It is deliberately simple: a variable is fresh only if every value
// ever assigned to it, anywhere in the package, is a fresh expression of the
// same function, and its address is never taken (explicitly, or implicitly by
// calling a pointer-receiver method on it). It does not track where fresh
// memory flows: any escape (storing it in a global or a parameter, sending
// it, capturing it in a closure that is called) is itself an impure effect
// that body.go reports.

// freshness holds, for the local variables of a package, whether they are
// fresh and where they are declared.
type freshness struct {
	info *types.Info
	// encl maps every local variable to the innermost function (FuncDecl or
	// FuncLit) that declares it; parameters and results included.
	encl map[*types.Var]ast.Node
	// fresh holds the variables found fresh.
	fresh map[*types.Var]bool
	// nonNil holds the fresh variables that are never nil (every value is
	// from make or a composite literal), so map writes to them cannot panic.
	nonNil map[*types.Var]bool
	// reassigned holds the variables assigned after their declaration, or
	// whose address is taken.
	reassigned map[*types.Var]bool
}

// assignment is one value given to a variable; rhs is nil for a value that
// is not an expression of the function (a tuple element, a range element).
type assignment struct {
	v   *types.Var
	rhs ast.Expr
}

// computeFreshness scans the files and computes fresh and nonNil by a
// greatest fixed point: every candidate starts fresh and loses it when one
// of its assignments is not fresh.
func computeFreshness(info *types.Info, files []*ast.File) *freshness {
	f := &freshness{
		info:       info,
		encl:       map[*types.Var]ast.Node{},
		fresh:      map[*types.Var]bool{},
		nonNil:     map[*types.Var]bool{},
		reassigned: map[*types.Var]bool{},
	}
	var assigns []assignment
	var stack []ast.Node
	opaque := map[*types.Var]bool{}
	defVar := func(id *ast.Ident) *types.Var {
		v, _ := info.Defs[id].(*types.Var)
		if v != nil && len(stack) > 0 {
			f.encl[v] = stack[len(stack)-1]
		}
		return v
	}
	useVar := func(e ast.Expr) *types.Var {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			v, _ := info.Uses[id].(*types.Var)
			return v
		}
		return nil
	}
	declareFields := func(fl *ast.FieldList, candidate bool) {
		if fl == nil {
			return
		}
		for _, field := range fl.List {
			for _, id := range field.Names {
				if v := defVar(id); v != nil && candidate {
					f.fresh[v] = true // a result starts as its zero value
					assigns = append(assigns, assignment{v, nil})
					opaque[v] = false
				}
			}
		}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			stack = append(stack, n)
			declareFields(n.Recv, false)
			declareFields(n.Type.Params, false)
			declareFields(n.Type.Results, true)
			if n.Body != nil {
				ast.Inspect(n.Body, visit)
			}
			stack = stack[:len(stack)-1]
			return false
		case *ast.FuncLit:
			stack = append(stack, n)
			declareFields(n.Type.Params, false)
			declareFields(n.Type.Results, true)
			ast.Inspect(n.Body, visit)
			stack = stack[:len(stack)-1]
			return false
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := ast.Unparen(lhs).(*ast.Ident)
				if !ok {
					continue
				}
				var v *types.Var
				if n.Tok == token.DEFINE {
					if v = defVar(id); v != nil {
						f.fresh[v] = true
					}
				}
				if v == nil {
					if v = useVar(id); v == nil {
						continue
					}
					if len(n.Lhs) == len(n.Rhs) && n.Tok == token.ASSIGN && isOpaqueOf(info, n.Rhs[i], v) {
						continue // the same function (runtime/soac's combinators)
					}
					f.reassigned[v] = true
				}
				var rhs ast.Expr
				if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) {
					rhs = n.Rhs[i]
				}
				if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
					rhs = nil // x op= y
				}
				assigns = append(assigns, assignment{v, rhs})
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				v := defVar(id)
				if v == nil || len(stack) == 0 {
					continue
				}
				f.fresh[v] = true
				var rhs ast.Expr
				switch {
				case len(n.Values) == 0:
					// The zero value: nil or a value, allocated here.
					assigns = append(assigns, assignment{v, ast.NewIdent("nil")})
					continue
				case len(n.Values) == len(n.Names):
					rhs = n.Values[i]
				}
				assigns = append(assigns, assignment{v, rhs})
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				id, ok := ast.Unparen(e).(*ast.Ident)
				if !ok || e == nil {
					continue
				}
				v := defVar(id)
				if v == nil {
					v = useVar(id)
					if v != nil {
						f.reassigned[v] = true
					}
				}
				if v != nil {
					assigns = append(assigns, assignment{v, nil})
				}
			}
		case *ast.CaseClause:
			// The implicit variable of a type switch clause is local but
			// never a candidate: its value comes from the switch's operand.
			if v, ok := info.Implicits[n].(*types.Var); ok && len(stack) > 0 {
				f.encl[v] = stack[len(stack)-1]
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := f.valueRoot(n.X); v != nil {
					opaque[v] = true
					f.reassigned[v] = true
				}
			}
		case *ast.SelectorExpr:
			// x.M() with a pointer-receiver method takes &x implicitly.
			if sel := info.Selections[n]; sel != nil && sel.Kind() == types.MethodVal {
				if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
					if _, ptrRecv := sig.Recv().Type().Underlying().(*types.Pointer); ptrRecv && !isPointer(info.TypeOf(n.X)) {
						if v := f.valueRoot(n.X); v != nil {
							opaque[v] = true
							f.reassigned[v] = true
						}
					}
				}
			}
		}
		return true
	}
	for _, file := range files {
		ast.Inspect(file, visit)
	}
	for v := range opaque {
		if opaque[v] {
			delete(f.fresh, v)
		}
	}
	for v := range f.fresh {
		f.nonNil[v] = true
	}
	for changed := true; changed; {
		changed = false
		for _, a := range assigns {
			if f.fresh[a.v] && (a.rhs == nil || !f.expr(a.rhs, f.encl[a.v])) {
				delete(f.fresh, a.v)
				delete(f.nonNil, a.v)
				changed = true
			}
			if f.nonNil[a.v] && (a.rhs == nil || !f.nonNilExpr(a.rhs, f.encl[a.v])) {
				delete(f.nonNil, a.v)
				changed = true
			}
		}
	}
	return f
}

// valueRoot returns the variable whose own storage e designates (x, x.f of
// a struct value, x[i] of an array value), or nil if e goes through a
// pointer, slice or map.
func (f *freshness) valueRoot(e ast.Expr) *types.Var {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ := f.info.Uses[e].(*types.Var)
		if v == nil {
			v, _ = f.info.Defs[e].(*types.Var)
		}
		return v
	case *ast.SelectorExpr:
		if sel := f.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal && !sel.Indirect() {
			return f.valueRoot(e.X)
		}
	case *ast.IndexExpr:
		if _, ok := under(f.info.TypeOf(e.X)).(*types.Array); ok {
			return f.valueRoot(e.X)
		}
	}
	return nil
}

// local reports whether v is a variable declared in the function fn (not in
// an enclosing one).
func (f *freshness) local(v *types.Var, fn ast.Node) bool {
	return fn != nil && f.encl[v] == fn
}

// expr reports whether e, evaluated in the function fn, denotes memory
// allocated by fn itself that nothing else can reach: a composite literal,
// &T{...}, make, new, nil, append to fresh memory, a conversion of fresh
// memory or of a string to []byte or []rune, a slice of fresh memory or of a
// local array, or a fresh local variable of fn.
func (f *freshness) expr(e ast.Expr, fn ast.Node) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			_, ok := ast.Unparen(e.X).(*ast.CompositeLit)
			return ok
		}
	case *ast.Ident:
		if e.Name == "nil" && f.info.Uses[e] == nil || isUniverseNil(f.info.Uses[e]) {
			return true
		}
		v, _ := f.info.Uses[e].(*types.Var)
		return v != nil && f.fresh[v] && f.local(v, fn)
	case *ast.SliceExpr:
		if _, ok := under(f.info.TypeOf(e.X)).(*types.Array); ok {
			v := f.valueRoot(e.X)
			return v != nil && f.local(v, fn) && !f.reassigned[v]
		}
		return f.expr(e.X, fn)
	case *ast.CallExpr:
		if tv, ok := f.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			if isString(f.info.TypeOf(e.Args[0])) {
				_, toSlice := under(tv.Type).(*types.Slice)
				return toSlice
			}
			return f.expr(e.Args[0], fn)
		}
		switch builtinName(f.info, e.Fun) {
		case "make", "new":
			return true
		case "append":
			return len(e.Args) > 0 && f.expr(e.Args[0], fn)
		}
	}
	return false
}

// nonNilExpr reports whether e is fresh and never nil.
func (f *freshness) nonNilExpr(e ast.Expr, fn ast.Node) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.Ident:
		v, _ := f.info.Uses[e].(*types.Var)
		return v != nil && f.nonNil[v] && f.local(v, fn)
	case *ast.CallExpr:
		switch builtinName(f.info, e.Fun) {
		case "make", "new":
			return true
		}
	}
	return false
}

// builtinName returns the name of the builtin that fun denotes, or "".
func builtinName(info *types.Info, fun ast.Expr) string {
	switch fun := ast.Unparen(fun).(type) {
	case *ast.Ident:
		if b, ok := info.Uses[fun].(*types.Builtin); ok {
			return b.Name()
		}
	case *ast.SelectorExpr:
		if b, ok := info.Uses[fun.Sel].(*types.Builtin); ok {
			return b.Name()
		}
	}
	return ""
}

// isUniverseNil reports whether obj is the predeclared nil.
func isUniverseNil(obj types.Object) bool {
	_, ok := obj.(*types.Nil)
	return ok
}

// under returns the underlying type of t, nil-safe.
func under(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// isPointer reports whether t's underlying type is a pointer.
func isPointer(t types.Type) bool {
	_, ok := under(t).(*types.Pointer)
	return ok
}

// isString reports whether t's underlying type is a string type.
func isString(t types.Type) bool {
	b, ok := under(t).(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// opaquePath is the package of Opaque, the identity on functions that
// hides them from the compiler's inliner (runtime/soac).
const opaquePath = "github.com/soacgen/soacgen/runtime/soac"

// isOpaqueOf reports whether e is soac.Opaque(v): v keeps its value, so
// f = soac.Opaque(f) does not reassign f (a combinator still calls its
// function parameter).
func isOpaqueOf(info *types.Info, e ast.Expr, v *types.Var) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Name() != "Opaque" || fn.Pkg() == nil || fn.Pkg().Path() != opaquePath {
		return false
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	return ok && info.Uses[id] == v
}
