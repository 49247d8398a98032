package purity

import (
	"go/ast"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// This file judges the calls of a body: the effect of the callee (a
// builtin, a function or method with a summary or a table row, a function
// parameter, a variable holding known literals, or a function value that
// cannot be resolved), then the arguments at the call site against it:
// the memory the callee writes through them, the function values it
// calls, and whether the call may panic. The walker of the body (body.go)
// calls it for every call expression.

// calleeEffect is what calling a function does, before the call site's
// arguments are judged.
type calleeEffect struct {
	// name is how reasons name the callee: "f", "fmt.Println",
	// "strings.Builder.WriteString".
	name string
	pure bool
	// reason is the call's reason when the callee is impure: "calls
	// fmt.Println (I/O)", "calls f, which writes package-level variable x".
	reason string
	// own is the callee's own reason, without "calls NAME".
	own                           string
	mayPanic, writesGlobal, noRet bool
	writesArgs, callsArgs         []int
	// variadic is the index of the variadic parameter, or -1.
	variadic int
	// shallow reports whether the writes of writesArgs reach only the
	// arguments' own elements (true of table rows), not everything
	// reachable from them (summaries).
	shallow bool
	// row is the key of the table row that gave the effect, if any;
	// safeIf its condition for a call that cannot panic.
	row    string
	safeIf *ConstArg
	level  int
	// fresh lists the results the callee allocates itself
	// (FuncFact.FreshResults, a table row's Fresh).
	fresh []int
}

// argWritesOnly reports whether the callee's only effects are the writes
// of writesArgs.
func (ce *calleeEffect) argWritesOnly() bool {
	return !ce.pure && !ce.writesGlobal && len(ce.writesArgs) > 0
}

// call judges a call expression and returns its effect at this site.
func (w *walker) call(call *ast.CallExpr) (CallEffect, string) {
	info := w.s.info
	fun := ast.Unparen(call.Fun)
	out := CallEffect{Purity: ir.Purity{Pure: true}}
	if tv, ok := info.Types[fun]; ok && tv.IsType() {
		if len(call.Args) == 1 && conversionMayPanic(info.TypeOf(call.Args[0]), tv.Type) {
			w.v.MayPanic = true
			out.Purity.MayPanic = true
		}
		return out, ""
	}
	var ce *calleeEffect
	var recv ast.Expr
	offset := 0
	paramCall := false
	if name := builtinName(info, fun); name != "" {
		pkg, display := "", name
		if sel, ok := fun.(*ast.SelectorExpr); ok {
			pkg, display = "unsafe", exprString(sel)
		}
		if row, ok := LookupStd(pkg, name); ok {
			ce = rowEffect(row, display, nil)
			if name == "make" {
				ce.mayPanic = MakeMayPanic(info, call)
			}
		} else {
			ce = dynamicEffect("calls builtin "+display+", which is not in the table", nil)
		}
	} else {
		switch callee := typeutil.Callee(info, call).(type) {
		case *types.Func:
			sig := callee.Type().(*types.Signature)
			if sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
				ce = dynamicEffect("calls interface method "+w.s.ifaceMethodName(fun, callee), sig)
			} else {
				ce = w.s.funcEffect(callee, w.n)
			}
			if sel, ok := fun.(*ast.SelectorExpr); ok {
				if selection := info.Selections[sel]; selection != nil {
					switch selection.Kind() {
					case types.MethodVal:
						recv = sel.X
					case types.MethodExpr:
						offset = 1
					}
				}
			}
		case *types.Var:
			if i, ok := w.paramFunc(callee); ok {
				w.v.CallsParams = addInt(w.v.CallsParams, i)
				ce = dynamicEffect("calls its function parameter "+callee.Name()+", which cannot be resolved here", nil)
				ce.level = noReason // judged where the function is called
				// So are its panics: the summary's MayPanic leaves out
				// those of the functions passed for CallsParams, which
				// each call site adds (funcArg). This call itself may
				// panic all the same.
				ce.mayPanic = false
				paramCall = true
			} else if lits := w.s.funcVars[callee]; len(lits) > 0 {
				ce = w.s.litsEffect(callee.Name(), lits, w.n)
			} else {
				sig, _ := under(callee.Type()).(*types.Signature)
				ce = dynamicEffect("calls a function value "+exprString(fun)+" that cannot be resolved", sig)
			}
		default:
			if lit, ok := fun.(*ast.FuncLit); ok {
				ce = w.s.litsEffect("a func literal", []*ast.FuncLit{lit}, w.n)
			} else {
				sig, _ := under(info.TypeOf(fun)).(*types.Signature)
				ce = dynamicEffect("calls a function value "+exprString(fun)+" that cannot be resolved", sig)
			}
		}
	}
	w.apply(call, ce, &out, recv, offset)
	if paramCall {
		out.Purity.MayPanic = true
	}
	if w.s.fresh != nil {
		out.FreshResults = w.s.fresh.callResults(call)
	}
	return out, ce.row
}

// MakeMayPanic reports whether the call of the builtin make may panic with
// its size arguments: a constant or a len or cap is never negative,
// anything else may be.
func MakeMayPanic(info *types.Info, call *ast.CallExpr) bool {
	for _, e := range call.Args[1:] {
		if info.Types[e].Value != nil {
			continue
		}
		if c, ok := ast.Unparen(e).(*ast.CallExpr); ok {
			if b := builtinName(info, c.Fun); b == "len" || b == "cap" {
				continue
			}
		}
		return true
	}
	return false
}

// paramFunc reports whether v is a function-typed parameter of the body
// that is never reassigned, and its index.
func (w *walker) paramFunc(v *types.Var) (int, bool) {
	if w.n == nil || w.s.fresh.reassigned[v] {
		return 0, false
	}
	i, ok := w.n.params[v]
	return i, ok && i >= 0
}

// apply judges the call's arguments against the callee's effect, updating
// the body's verdict and the call's effect out.
func (w *walker) apply(call *ast.CallExpr, ce *calleeEffect, out *CallEffect, recv ast.Expr, offset int) {
	out.NoReturn = ce.noRet
	out.WritesGlobal = ce.writesGlobal
	out.WritesArgs = append([]int(nil), ce.writesArgs...)
	out.Purity.MayPanic = ce.mayPanic && !ce.safeIf.Holds(w.s.info, call)
	if out.Purity.MayPanic {
		w.v.MayPanic = true
	}
	siteImpure := func(reason string) {
		if out.Purity.Pure {
			out.Purity = ir.Purity{Reason: reason, Pos: call.Pos(), MayPanic: out.Purity.MayPanic}
		}
	}
	if !ce.pure && !ce.argWritesOnly() {
		if ce.level != noReason {
			w.impure(ce.level, call.Pos(), ce.reason, true)
		}
		siteImpure(ce.reason)
		return
	}
	if ce.argWritesOnly() {
		out.ArgWritesOnly = true
	}
	for _, i := range ce.writesArgs {
		for _, arg := range w.argsAt(call, ce, i, offset, recv) {
			what := "calls " + ce.name + ", which writes argument " + strconv.Itoa(i) + " (" + exprString(arg) + ")"
			if i < 0 {
				what = "calls " + ce.name + ", which writes its receiver " + exprString(arg)
			}
			if ce.name == "append" {
				what = "appends to " + exprString(arg)
			}
			siteImpure(what)
			// A table row writes only the argument's own elements; a
			// summary's write may reach anything reachable from it, so
			// fresh memory absorbs it only when it holds no references.
			t := w.s.info.TypeOf(arg)
			if i < 0 && recv != nil && !isPointer(t) {
				if ce.shallow || !isReference(t) {
					w.writeValue(recv, what, call.Pos())
				} else {
					w.writeThrough(recv, false, what, call.Pos())
				}
			} else {
				w.writeThrough(arg, ce.shallow || pointeeRefFree(t), what, call.Pos())
			}
		}
	}
	for _, i := range ce.callsArgs {
		args := w.argsAt(call, ce, i, offset, nil)
		if i == ce.variadic {
			reason := "calls " + ce.name + " with function values for its variadic parameter"
			w.impure(levelDirect, call.Pos(), reason, true)
			siteImpure(reason)
			out.WritesGlobal = true
			continue
		}
		for _, arg := range args {
			w.funcArg(ce, arg, out, siteImpure)
		}
	}
}

// argsAt returns the argument expressions that the callee's parameter i
// (-1: the receiver) receives.
func (w *walker) argsAt(call *ast.CallExpr, ce *calleeEffect, i, offset int, recv ast.Expr) []ast.Expr {
	if i < 0 {
		if offset == 1 && len(call.Args) > 0 {
			return call.Args[:1]
		}
		if recv != nil {
			return []ast.Expr{recv}
		}
		return nil
	}
	j := i + offset
	if j >= len(call.Args) {
		return nil
	}
	if i == ce.variadic {
		return call.Args[j:]
	}
	return call.Args[j : j+1]
}

// funcArg judges a function-typed argument that the callee calls.
func (w *walker) funcArg(ce *calleeEffect, arg ast.Expr, out *CallEffect, siteImpure func(string)) {
	info := w.s.info
	desc := exprString(arg)
	var v *verdict
	level := levelDirect
	switch a := ast.Unparen(arg).(type) {
	case *ast.FuncLit:
		desc = "a func literal"
		if n := w.s.byLit[a]; n != nil {
			v = &n.sum
			if w.n != nil && n.scc == w.n.scc {
				level = levelSCC
			}
		}
	case *ast.Ident, *ast.SelectorExpr:
		var obj types.Object
		if id, ok := a.(*ast.Ident); ok {
			obj = info.Uses[id]
		} else {
			obj = info.Uses[a.(*ast.SelectorExpr).Sel]
		}
		switch obj := obj.(type) {
		case *types.Func:
			fe := w.s.funcEffect(obj, w.n)
			v = &verdict{FuncFact: FuncFact{Pure: fe.pure, Reason: fe.own, MayPanic: fe.mayPanic,
				WritesArgs: fe.writesArgs, WritesGlobal: fe.writesGlobal, CallsParams: fe.callsArgs}}
			level = fe.level
		case *types.Var:
			if i, ok := w.paramFunc(obj); ok {
				w.v.CallsParams = addInt(w.v.CallsParams, i)
				siteImpure("calls " + ce.name + " with function parameter " + obj.Name() + ", which cannot be resolved here")
				out.Purity.MayPanic = true
				out.ArgWritesOnly = false // the parameter may do anything
				return
			}
			if lits := w.s.funcVars[obj]; len(lits) > 0 {
				le := w.s.litsEffect(obj.Name(), lits, w.n)
				v = &verdict{FuncFact: FuncFact{Pure: le.pure, Reason: le.own, MayPanic: le.mayPanic,
					WritesArgs: le.writesArgs, WritesGlobal: le.writesGlobal, CallsParams: le.callsArgs}}
				level = le.level
			}
		case *types.Nil:
			w.v.MayPanic = true
			out.Purity.MayPanic = true
			return
		}
	}
	if v == nil {
		reason := "calls " + ce.name + " with function value " + desc + " that cannot be resolved"
		w.impure(levelDirect, arg.Pos(), reason, true)
		siteImpure(reason)
		out.WritesGlobal = true
		w.v.MayPanic = true
		out.Purity.MayPanic = true
		return
	}
	if v.MayPanic {
		w.v.MayPanic = true
		out.Purity.MayPanic = true
	}
	if !v.Pure || len(v.CallsParams) > 0 {
		why := v.Reason
		if v.Pure {
			why = "calls its function parameter, which cannot be resolved"
		}
		reason := "calls " + ce.name + " with " + desc + ", which " + why
		w.impure(level, arg.Pos(), reason, true)
		siteImpure(reason)
		out.WritesGlobal = true
	}
}

// pointeeRefFree reports whether everything reachable from a value of type
// t is t's own elements: a slice, pointer, array or map of values without
// references, or a value without references.
func pointeeRefFree(t types.Type) bool {
	switch u := under(t).(type) {
	case *types.Slice:
		return !isReference(u.Elem())
	case *types.Pointer:
		return !isReference(u.Elem())
	case *types.Map:
		return !isReference(u.Key()) && !isReference(u.Elem())
	}
	return !isReference(t)
}

// conversionMayPanic reports whether converting from to to may panic: a
// slice to an array or array pointer shorter than the slice.
func conversionMayPanic(from, to types.Type) bool {
	if _, ok := under(from).(*types.Slice); !ok {
		return false
	}
	switch t := under(to).(type) {
	case *types.Array:
		return true
	case *types.Pointer:
		_, ok := under(t.Elem()).(*types.Array)
		return ok
	}
	return false
}
