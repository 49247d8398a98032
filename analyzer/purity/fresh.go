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
// that body.go and callsite.go report.
//
// A function's result is fresh when every return gives it a fresh
// expression of the function (a fresh local, make, a call of a function
// whose result is fresh: slices.Clone, soac.Replicate, a generic helper
// returning a slice it made); functions of the package are decided in the
// same greatest fixed point as the variables, those of other packages by
// the standard-library table's Fresh and the facts' FreshResults. The
// pass over the files that collects the candidates is in freshscan.go.

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
	sc := &freshScan{f: f, funcs: map[*ast.FuncDecl]*fnReturns{}, opaque: map[*types.Var]bool{}}
	for _, file := range files {
		ast.Inspect(file, sc.visit)
	}
	for v := range sc.opaque {
		if sc.opaque[v] {
			delete(f.fresh, v)
		}
	}
	for v := range f.fresh {
		f.nonNil[v] = true
	}
	f.settle(sc.assigns, sc.order)
	return f
}

// settle is the fixed point: a variable loses fresh when one of its
// assignments is not fresh, and nonNil when one may be nil; a function's
// result loses fresh when one of its returns does not give it a fresh
// value; until nothing changes.
func (f *freshness) settle(assigns []assignment, order []*fnReturns) {
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
