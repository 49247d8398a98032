package purity

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// This file judges one function body: its writes, channel operations and
// panics, and, through callsite.go, its calls, given the current summaries
// of the functions it calls. It does not order the evaluation of bodies
// (analyzer.go does) nor know the standard library (table.go does).

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

// exprString formats e for a reason.
func exprString(e ast.Expr) string { return types.ExprString(e) }

// itoa formats i.
func itoa(i int) string { return strconv.Itoa(i) }
