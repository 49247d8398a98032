package purity

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// This file judges one function body: its writes, channel operations, panics
// and calls, given the current summaries of the functions it calls. It does
// not order the evaluation of bodies (analyzer.go does) nor know the
// standard library (table.go does).

// Reason levels: a reason found at a lower level wins. The reasons of calls
// into the same strongly connected component may still change while the
// fixed point runs, so a function prefers to name its own constructs.
const (
	levelDirect = 0 // a construct of the body, or a call of a settled function
	levelSCC    = 1 // a call of a function of the same component
	noReason    = 2
)

// walker accumulates the verdict on one body.
type walker struct {
	s *state
	// n is the body; nil for package-level initialisers.
	n *fnode
	// record asks for the effect of every call to be stored.
	record bool
	v      verdict
	level  int
}

// impure marks the body impure; the reason is kept if it is the first at
// the lowest level. global says the effect is not only a write to memory
// reachable from a parameter.
func (w *walker) impure(level int, pos token.Pos, reason string, global bool) {
	w.v.Pure = false
	if global {
		w.v.WritesGlobal = true
	}
	if level < w.level {
		w.level, w.v.Reason, w.v.Pos = level, reason, pos
	}
}

// fnNode returns the FuncDecl or FuncLit being judged, or nil.
func (w *walker) fnNode() ast.Node {
	if w.n == nil {
		return nil
	}
	return w.n.node()
}

// visit is the ast.Inspect callback over the body. It does not enter
// function literals: their bodies run only when they are called.
func (w *walker) visit(n ast.Node) bool {
	info := w.s.info
	switch n := n.(type) {
	case *ast.FuncLit:
		return false
	case *ast.AssignStmt:
		for _, lhs := range n.Lhs {
			if id, ok := lhs.(*ast.Ident); ok && n.Tok == token.DEFINE && info.Defs[id] != nil {
				continue
			}
			w.write(lhs)
		}
		switch n.Tok {
		case token.QUO_ASSIGN, token.REM_ASSIGN:
			w.division(n.Lhs[0], n.Rhs[0])
		case token.SHL_ASSIGN, token.SHR_ASSIGN:
			w.shift(n.Rhs[0])
		}
	case *ast.IncDecStmt:
		w.write(n.X)
	case *ast.RangeStmt:
		if n.Tok == token.ASSIGN {
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e != nil {
					w.write(e)
				}
			}
		}
		switch under(info.TypeOf(n.X)).(type) {
		case *types.Chan:
			w.impure(levelDirect, n.X.Pos(), "receives from channel "+exprString(n.X), true)
		case *types.Signature:
			w.impure(levelDirect, n.X.Pos(), "ranges over function value "+exprString(n.X)+" that cannot be resolved", true)
			w.v.MayPanic = true
		case *types.Pointer:
			w.v.MayPanic = true // a nil *array
		}
	case *ast.SendStmt:
		w.impure(levelDirect, n.Pos(), "sends on channel "+exprString(n.Chan), true)
		w.v.MayPanic = true
	case *ast.SelectStmt:
		w.impure(levelDirect, n.Pos(), "select statement", true)
	case *ast.GoStmt:
		w.impure(levelDirect, n.Pos(), "go statement starts "+exprString(n.Call.Fun), true)
	case *ast.UnaryExpr:
		if n.Op == token.ARROW {
			w.impure(levelDirect, n.Pos(), "receives from channel "+exprString(n.X), true)
		}
	case *ast.CallExpr:
		ce, row := w.call(n)
		if w.record {
			w.s.calls[n] = ce
			if row != "" {
				w.s.rows[n] = row
			}
		}
	case *ast.IndexExpr:
		if IndexMayPanic(info, n, w.s.safeIdx) {
			w.v.MayPanic = true
		}
	case *ast.SliceExpr:
		w.v.MayPanic = true
	case *ast.TypeAssertExpr:
		if n.Type != nil && !w.s.commaOK[n] {
			w.v.MayPanic = true
		}
	case *ast.StarExpr:
		if tv, ok := info.Types[n]; ok && tv.IsValue() && !w.s.fresh.nonNilExpr(n.X, w.fnNode()) {
			w.v.MayPanic = true
		}
	case *ast.SelectorExpr:
		if sel := info.Selections[n]; sel != nil && sel.Indirect() {
			// p.f with p from new or &T{} (never nil) cannot panic; a
			// field behind an embedded pointer can.
			direct := sel.Kind() == types.FieldVal && len(sel.Index()) == 1 && isPointer(info.TypeOf(n.X))
			if !direct || !w.s.fresh.nonNilExpr(n.X, w.fnNode()) {
				w.v.MayPanic = true
			}
		}
	case *ast.BinaryExpr:
		switch n.Op {
		case token.QUO, token.REM:
			w.division(n.X, n.Y)
		case token.SHL, token.SHR:
			w.shift(n.Y)
		}
	}
	return true
}

// division notes that x / y may panic unless it is floating-point or
// complex, or y is a non-zero constant.
func (w *walker) division(x, y ast.Expr) {
	if DivisionMayPanic(w.s.info, x, y) {
		w.v.MayPanic = true
	}
}

// shift notes that x << y may panic when y is a signed non-constant (a
// negative count panics).
func (w *walker) shift(y ast.Expr) {
	tv := w.s.info.Types[y]
	if tv.Value != nil {
		return
	}
	if b, ok := under(tv.Type).(*types.Basic); ok && b.Info()&types.IsUnsigned != 0 {
		return
	}
	w.v.MayPanic = true
}

// write judges an assignment to lhs.
func (w *walker) write(lhs ast.Expr) {
	w.writeValue(lhs, "writes "+exprString(lhs), lhs.Pos())
}

// writeValue judges a write of the storage that e designates; what
// describes the write for the reason.
func (w *walker) writeValue(e ast.Expr, what string, pos token.Pos) {
	info := w.s.info
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if e.Name == "_" {
			return
		}
		v, _ := info.ObjectOf(e).(*types.Var)
		if v == nil {
			return
		}
		switch w.classify(v) {
		case rootGlobal:
			w.impure(levelDirect, pos, "writes package-level variable "+e.Name, true)
		case rootCaptured:
			w.impure(levelDirect, pos, "writes captured variable "+e.Name, true)
		}
	case *ast.SelectorExpr:
		sel := info.Selections[e]
		if sel == nil { // a qualified identifier: pkg.V
			if v, ok := info.Uses[e.Sel].(*types.Var); ok {
				w.impure(levelDirect, pos, "writes package-level variable "+exprString(e)+" of package "+v.Pkg().Path(), true)
			}
			return
		}
		if !sel.Indirect() {
			w.writeValue(e.X, what, pos)
			return
		}
		// Through a pointer: exactly *X when X is a pointer and the field
		// is not behind an embedded pointer.
		w.writeThrough(e.X, isPointer(info.TypeOf(e.X)) && len(sel.Index()) == 1, what, pos)
	case *ast.IndexExpr:
		switch under(info.TypeOf(e.X)).(type) {
		case *types.Array:
			w.writeValue(e.X, what, pos)
			return
		case *types.Map:
			if !w.s.fresh.nonNilExpr(e.X, w.fnNode()) {
				w.v.MayPanic = true
			}
		}
		w.writeThrough(e.X, true, what, pos)
	case *ast.StarExpr:
		w.writeThrough(e.X, true, what, pos)
	default:
		w.impure(levelDirect, pos, what, true)
	}
}

// Kinds of the variable at the root of a written location.
const (
	rootLocal = iota
	rootParam
	rootCaptured
	rootGlobal
)

// classify says where v is declared relative to the body being judged.
func (w *walker) classify(v *types.Var) int {
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return rootGlobal
	}
	if w.n == nil {
		return rootGlobal
	}
	if _, ok := w.n.params[v]; ok {
		return rootParam
	}
	if w.s.fresh.encl[v] == w.n.node() {
		return rootLocal
	}
	return rootCaptured
}

// writeThrough judges a write of memory that base points to (base is a
// pointer, slice or map, or with exact false an expression from which the
// written memory is reachable). Writing fresh memory of the body is free.
func (w *walker) writeThrough(base ast.Expr, exact bool, what string, pos token.Pos) {
	if exact && w.s.fresh.expr(base, w.fnNode()) {
		return
	}
	if u, ok := ast.Unparen(base).(*ast.UnaryExpr); ok && u.Op == token.AND && exact {
		w.writeValue(u.X, what, pos)
		return
	}
	root := rootOf(w.s.info, base)
	if root == nil {
		w.impure(levelDirect, pos, what+", memory not known to be freshly allocated", true)
		return
	}
	switch w.classify(root) {
	case rootParam:
		i := w.n.params[root]
		w.v.WritesArgs = addInt(w.v.WritesArgs, i)
		kind := "parameter "
		if i < 0 {
			kind = "receiver "
		}
		w.impure(levelDirect, pos, what+", memory reachable from "+kind+root.Name(), false)
	case rootGlobal:
		w.impure(levelDirect, pos, what+", memory reachable from package-level variable "+root.Name(), true)
	case rootCaptured:
		w.impure(levelDirect, pos, what+", memory reachable from captured variable "+root.Name(), true)
	default:
		w.impure(levelDirect, pos, what+", memory reachable from local variable "+root.Name()+", which is not known to be freshly allocated", true)
	}
}

// rootOf returns the variable from which e's value is loaded through
// selectors, indexing, dereference and slicing, or nil (a call result).
func rootOf(info *types.Info, e ast.Expr) *types.Var {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ := info.ObjectOf(e).(*types.Var)
		return v
	case *ast.SelectorExpr:
		if info.Selections[e] == nil {
			v, _ := info.Uses[e.Sel].(*types.Var)
			return v
		}
		return rootOf(info, e.X)
	case *ast.IndexExpr:
		return rootOf(info, e.X)
	case *ast.StarExpr:
		return rootOf(info, e.X)
	case *ast.SliceExpr:
		return rootOf(info, e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return rootOf(info, e.X)
		}
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return rootOf(info, e.Args[0])
		}
	}
	return nil
}

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

// exprString formats e for a reason.
func exprString(e ast.Expr) string { return types.ExprString(e) }

// itoa formats i.
func itoa(i int) string { return strconv.Itoa(i) }
