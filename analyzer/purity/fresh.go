package purity

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"
)

// This file decides which local variables hold memory that the function
// allocated itself ("fresh" memory: from make, new, a composite literal,
// append to fresh memory, or a call of a function whose result is fresh),
// so that writing their elements is not a side effect. It is deliberately
// simple: a variable is fresh only if every value ever assigned to it,
// anywhere in the package, is a fresh expression of the same function, and
// its address is never taken (explicitly, or implicitly by calling a
// pointer-receiver method on it). It does not track where fresh memory
// flows: any escape (storing it in a global or a parameter, sending it,
// capturing it in a closure that is called) is itself an impure effect
// that body.go reports.
//
// A function's result is fresh when every return gives it a fresh
// expression of the function (a fresh local, make, a call of a function
// whose result is fresh: slices.Clone, soac.Replicate, a generic helper
// returning a slice it made); functions of the package are decided in the
// same greatest fixed point as the variables, those of other packages by
// the standard-library table's Fresh and the facts' FreshResults.

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
	// pkg is the analysed package.
	pkg *types.Package
	// results holds, for every function of the package with a body and
	// results, which of its results are fresh on every return.
	results map[*types.Func][]bool
	// external returns the fresh results of a function of another
	// package (the table's Fresh, the facts' FreshResults).
	external func(*types.Func) []int
}

// assignment is one value given to a variable; rhs is nil for a value that
// is not an expression of the function (a range element). A tuple element
// of a call (a, b := f()) has the call as rhs and tuple its index.
type assignment struct {
	v     *types.Var
	rhs   ast.Expr
	tuple int // -1: rhs is the value itself
}

// fnReturns is a function of the package whose results are candidates:
// its declaration, its result variables and its return statements.
type fnReturns struct {
	fn      *types.Func
	decl    *ast.FuncDecl
	named   []*types.Var // the result variables, nil when unnamed
	returns []*ast.ReturnStmt
}

// computeFreshness scans the files and computes fresh and nonNil by a
// greatest fixed point: every candidate starts fresh and loses it when one
// of its assignments is not fresh.
func computeFreshness(info *types.Info, pkg *types.Package, files []*ast.File, external func(*types.Func) []int) *freshness {
	f := &freshness{
		info:       info,
		encl:       map[*types.Var]ast.Node{},
		fresh:      map[*types.Var]bool{},
		nonNil:     map[*types.Var]bool{},
		reassigned: map[*types.Var]bool{},
		pkg:        pkg,
		results:    map[*types.Func][]bool{},
		external:   external,
	}
	var assigns []assignment
	funcs := map[*ast.FuncDecl]*fnReturns{}
	var order []*fnReturns // the candidate functions, in source order
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
					assigns = append(assigns, assignment{v, nil, -1})
					opaque[v] = false
				}
			}
		}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if fn, ok := info.Defs[n.Name].(*types.Func); ok && n.Body != nil {
				if res := fn.Type().(*types.Signature).Results(); res.Len() > 0 {
					fr := &fnReturns{fn: fn, decl: n}
					for i := 0; i < res.Len(); i++ {
						if r := res.At(i); r.Name() != "" {
							fr.named = append(fr.named, r)
						}
					}
					funcs[n] = fr
					f.results[fn] = make([]bool, res.Len())
					for i := range f.results[fn] {
						// Only results that can refer to memory are
						// candidates: a number is no memory to write.
						f.results[fn][i] = isReference(res.At(i).Type())
					}
					order = append(order, fr)
				}
			}
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
		case *ast.ReturnStmt:
			if len(stack) > 0 {
				if d, ok := stack[len(stack)-1].(*ast.FuncDecl); ok && funcs[d] != nil {
					funcs[d].returns = append(funcs[d].returns, n)
				}
			}
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
				tuple := -1
				if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) {
					rhs = n.Rhs[i]
				} else if len(n.Rhs) == 1 && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) {
					if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
						rhs, tuple = call, i
					}
				}
				if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
					rhs = nil // x op= y
				}
				assigns = append(assigns, assignment{v, rhs, tuple})
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				v := defVar(id)
				if v == nil || len(stack) == 0 {
					continue
				}
				f.fresh[v] = true
				var rhs ast.Expr
				tuple := -1
				switch {
				case len(n.Values) == 0:
					// The zero value: nil or a value, allocated here.
					assigns = append(assigns, assignment{v, ast.NewIdent("nil"), -1})
					continue
				case len(n.Values) == len(n.Names):
					rhs = n.Values[i]
				case len(n.Values) == 1:
					if call, ok := ast.Unparen(n.Values[0]).(*ast.CallExpr); ok {
						rhs, tuple = call, i
					}
				}
				assigns = append(assigns, assignment{v, rhs, tuple})
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
					assigns = append(assigns, assignment{v, nil, -1})
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
			if f.fresh[a.v] && !f.assigned(a) {
				delete(f.fresh, a.v)
				delete(f.nonNil, a.v)
				changed = true
			}
			if f.nonNil[a.v] && (a.rhs == nil || a.tuple >= 0 || !f.nonNilExpr(a.rhs, f.encl[a.v])) {
				delete(f.nonNil, a.v)
				changed = true
			}
		}
		for _, fr := range order {
			res := f.results[fr.fn]
			for i := range res {
				if res[i] && !f.returnsFresh(fr, i) {
					res[i] = false
					changed = true
				}
			}
		}
	}
	return f
}

// assigned reports whether the value a gives its variable is fresh.
func (f *freshness) assigned(a assignment) bool {
	switch {
	case a.rhs == nil:
		return false
	case a.tuple >= 0:
		return f.callFresh(a.rhs.(*ast.CallExpr), a.tuple)
	}
	return f.expr(a.rhs, f.encl[a.v])
}

// returnsFresh reports whether every return of the function gives its
// result i a fresh value: a fresh expression of the function, or its
// named result variable when it is fresh (a bare return).
func (f *freshness) returnsFresh(fr *fnReturns, i int) bool {
	for _, r := range fr.returns {
		switch {
		case len(r.Results) == 0:
			if i >= len(fr.named) || !f.fresh[fr.named[i]] {
				return false
			}
		case len(r.Results) == 1 && len(f.results[fr.fn]) > 1:
			call, ok := ast.Unparen(r.Results[0]).(*ast.CallExpr)
			if !ok || !f.callFresh(call, i) {
				return false
			}
		case i < len(r.Results):
			if !f.expr(r.Results[i], fr.decl) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// callFresh reports whether result i of the call is fresh: the callee is a
// function (not a function value or an interface method) whose result i
// is fresh on every return.
func (f *freshness) callFresh(call *ast.CallExpr, i int) bool {
	fn, ok := typeutil.Callee(f.info, call).(*types.Func)
	if !ok {
		return false
	}
	fn = fn.Origin()
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return false
	}
	if res, ok := f.results[fn]; ok {
		return i < len(res) && res[i]
	}
	if fn.Pkg() == nil || fn.Pkg() == f.pkg || f.external == nil {
		return false
	}
	return slices.Contains(f.external(fn), i)
}

// resultsOf returns the fresh results of fn, a function of the package.
func (f *freshness) resultsOf(fn *types.Func) []int {
	if f == nil {
		return nil
	}
	var out []int
	for i, ok := range f.results[fn.Origin()] {
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// callResults returns the fresh results of the callee of call.
func (f *freshness) callResults(call *ast.CallExpr) []int {
	fn, ok := typeutil.Callee(f.info, call).(*types.Func)
	if !ok {
		return nil
	}
	var out []int
	for i := 0; i < fn.Type().(*types.Signature).Results().Len(); i++ {
		if f.callFresh(call, i) {
			out = append(out, i)
		}
	}
	return out
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
		case "":
			if sig, ok := under(f.info.TypeOf(e.Fun)).(*types.Signature); ok && sig.Results().Len() == 1 {
				return f.callFresh(e, 0)
			}
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
