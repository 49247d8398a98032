package fusion

// This file decides which statements may panic and which have effects a
// caller could observe after a panic, for the panic-order refusal: the spec
// raises its panics in program order, so a SOAC that may panic must not
// move past a statement that may panic itself or that has a visible effect.
// Two members of one kernel whose lambdas may both panic do fuse: the code
// generator re-runs such a kernel's members unfused when its loop panics,
// which raises the spec's first panic (the lambdas are pure and the
// kernel's outputs fresh, so running them again is unobservable).
//
// It does NOT decide purity (analyzer/purity does, into ir.Purity) and it
// looks at types only to tell a builtin from a user's function of the same
// name: it is conservative where the IR does not say.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"runtime"
	"sync"
	"weak"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/analyzer/purity"
)

// soacMayPanic says why evaluating s may panic, or "" if it cannot: unequal
// input lengths of Map2/Map3 (not when the size inference proves them
// equal: Iota(len(xs)) zipped with xs, a Map of xs with xs, ...), a negative Iota or Replicate length, a
// StreamMap chunk of the wrong length, or a lambda that may panic.
func soacMayPanic(info *types.Info, s *ir.SOAC) string {
	if why := lambdaMayPanic(s); why != "" {
		return why
	}
	switch op := s.Op.(type) {
	case *ir.Screma:
		var sp *spaces
		for _, in := range op.Inputs[1:] {
			if in == op.Inputs[0] {
				continue
			}
			if sp == nil {
				sp = newSpaces(posFmt{}, info)
			}
			if sp.ofVar(in) != sp.ofVar(op.Inputs[0]) { // equal spaces: equal lengths (space.go)
				return fmt.Sprintf("%s panics when the lengths of %s and %s differ", s.Name, op.Inputs[0].Name, in.Name)
			}
		}
	case *ir.Iota:
		if !nonNegative(info, op.N) {
			return "Iota panics on a negative length"
		}
	case *ir.Replicate:
		if !nonNegative(info, op.N) {
			return "Replicate panics on a negative length"
		}
	case *ir.Stream:
		if op.Kind == ir.StreamMap {
			return "StreamMap panics when its chunk function returns a chunk of the wrong length"
		}
	}
	return ""
}

// lambdaMayPanic says which lambda of s may panic, or "".
func lambdaMayPanic(s *ir.SOAC) string {
	for _, l := range s.Lambdas() {
		if !l.Purity.Pure || l.Purity.MayPanic {
			return fmt.Sprintf("its lambda %s may panic", exprText(l.Expr))
		}
	}
	return ""
}

// nonNegative reports whether the operand is a length that cannot be
// negative: len of a slice (directly or through a variable n := len(xs),
// see lengthOf) or a non-negative constant.
func nonNegative(info *types.Info, o *ir.Operand) bool {
	if o == nil {
		return false
	}
	if lengthOf(info, o) != nil {
		return true
	}
	if call, ok := ast.Unparen(o.Expr).(*ast.CallExpr); ok && len(call.Args) == 1 {
		// len(e) or cap(e) of any operand is never negative (evaluating
		// e may panic: operandPanic says so).
		if b := predeclared(info, call.Fun); b == "len" || b == "cap" {
			return true
		}
	}
	if o.Const != nil && o.Const.Value != nil {
		if lit, ok := o.Expr.(*ast.BasicLit); ok && lit.Kind == token.INT {
			return true
		}
	}
	return false
}

// observableEffect says what statement s does that a caller could see if a
// panic came after it instead of before it, or "" if nothing: writing
// memory reachable from outside the function, writing package-level state,
// side effects, or a panic of its own.
func observableEffect(fn *ir.Function, s ir.Stmt) string {
	e := s.Effects()
	if e.Impure != "" {
		return "has side effects (" + e.Impure + ")"
	}
	if e.WritesGlobal {
		return "may write package-level state"
	}
	for _, w := range e.Writes {
		if globalReachable(fn, w) {
			return fmt.Sprintf("writes %s, visible to the caller", w.Name)
		}
	}
	if why := stmtMayPanic(scopeOf(fn), s); why != "" {
		return why
	}
	return ""
}

// panicScope is what deciding a statement's panics needs: the package's
// types (nil: none known) and the index expressions of the function proven
// in range (purity.SafeIndexes).
type panicScope struct {
	info *types.Info
	safe map[*ast.IndexExpr]bool
	// soacs are the SOAC calls of the function: each is a statement of its
	// own in the IR, evaluated before the syntax that contains it, and its
	// panics are its own (soacMayPanic).
	soacs map[*ast.CallExpr]bool
}

// stmtMayPanic says why statement s may panic, or "". It is conservative:
// indexing not proven in range (purity.IndexMayPanic), slicing, integer
// division by a non-constant, dereference, type assertion or a call that
// purity.CallMayPanic does not clear (conversions, builtins and
// standard-library functions by the purity table; any call when info is
// nil) may panic.
func stmtMayPanic(sc panicScope, s ir.Stmt) string {
	info := sc.info
	switch s := s.(type) {
	case *ir.SOAC:
		if why := soacMayPanic(info, s); why != "" {
			return "may panic itself (" + why + ")"
		}
		if why := operandPanic(sc, s); why != "" {
			return "has an operand that " + why
		}
		return ""
	case *ir.Closure:
		return "" // making a closure runs none of its body
	case ownStmt:
		// The view of an if or switch that a producer entering one of its
		// branches passes: only its own expressions; the branch's
		// statements before the kernel are checked one by one.
		return headerMayPanic(sc, s.Stmt)
	case *ir.Plain:
		if s.Hoisted != nil {
			if sliceRepeated(s) {
				return ""
			}
			return nodeMayPanic(sc, s.Hoisted)
		}
		return nodeMayPanic(sc, s.Node)
	}
	// Compound statements: their own expressions and nested statements.
	for _, b := range ir.Children(s) {
		why := ""
		ir.Walk(b, func(n ir.Stmt) bool {
			if why == "" {
				why = stmtMayPanic(sc, n)
			}
			return why == ""
		})
		if why != "" {
			return why
		}
	}
	return headerMayPanic(sc, s)
}

// sliceRepeated reports whether s evaluates a slice expression x[lo:hi]
// (a SOAC's argument, hoisted) that an earlier statement of its block
// evaluated already on the same values: x, lo and hi variables (or
// constants) of the same Vars. Whenever s runs, that statement ran before
// it without panicking (a panic there would have left the block), and
// its bounds held on the same slice header: s cannot panic either.
func sliceRepeated(s *ir.Plain) bool {
	key, ok := sliceKey(s)
	if !ok {
		return false
	}
	for _, t := range s.Parent.Stmts {
		if t == ir.Stmt(s) {
			return false
		}
		if p, isPlain := t.(*ir.Plain); isPlain && p.Hoisted != nil {
			if k, ok := sliceKey(p); ok && k == key {
				return true
			}
		}
	}
	return false
}

// sliceKey names the hoisted slice expression of p by its text and the
// Vars it reads, when its operands are identifiers and constants only
// (nothing else is evaluated, nothing else may panic).
func sliceKey(p *ir.Plain) (string, bool) {
	se, ok := ast.Unparen(p.Hoisted).(*ast.SliceExpr)
	if !ok {
		return "", false
	}
	for _, e := range []ast.Expr{se.X, se.Low, se.High, se.Max} {
		switch ast.Unparen(e).(type) {
		case nil, *ast.Ident, *ast.BasicLit:
		default:
			return "", false
		}
	}
	key := types.ExprString(se)
	for _, u := range p.Eff.Uses {
		key += fmt.Sprintf("|%d", u.ID)
	}
	return key, true
}

// headerMayPanic inspects the expressions a compound statement evaluates
// itself: an if's init and condition, a switch tag and case expressions, a
// range operand.
func headerMayPanic(sc panicScope, s ir.Stmt) string {
	var nodes []ast.Node
	switch s := s.(type) {
	case *ir.If:
		if s.Node.Init != nil {
			nodes = append(nodes, s.Node.Init)
		}
		nodes = append(nodes, s.Node.Cond)
	case *ir.Switch:
		switch n := s.Node.(type) {
		case *ast.SwitchStmt:
			if n.Init != nil {
				nodes = append(nodes, n.Init)
			}
			if n.Tag != nil {
				nodes = append(nodes, n.Tag)
			}
			if n.Body != nil {
				for _, cl := range n.Body.List {
					for _, e := range cl.(*ast.CaseClause).List {
						nodes = append(nodes, e)
					}
				}
			}
		case *ast.TypeSwitchStmt:
			nodes = append(nodes, n.Assign)
		}
	case *ir.Loop:
		switch n := s.Node.(type) {
		case *ast.ForStmt:
			for _, x := range []ast.Node{n.Init, n.Cond, n.Post} {
				if x != nil {
					nodes = append(nodes, x)
				}
			}
		case *ast.RangeStmt:
			nodes = append(nodes, n.X)
		}
	}
	for _, n := range nodes {
		if why := nodeMayPanic(sc, n); why != "" {
			return why
		}
	}
	return ""
}

// nodeMayPanic says why evaluating the syntax n may panic, or "". Function
// literals inside n are not evaluated by it and are skipped.
func nodeMayPanic(sc panicScope, n ast.Node) string {
	info := sc.info
	why := ""
	ast.Inspect(n, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IndexExpr:
			if purity.IndexMayPanic(info, n, sc.safe) {
				why = "may panic (indexing)"
			}
		case *ast.IndexListExpr:
			why = "may panic (indexing)"
		case *ast.SliceExpr:
			why = "may panic (slicing)"
		case *ast.StarExpr:
			why = "may panic (dereference)"
		case *ast.TypeAssertExpr:
			if n.Type != nil {
				why = "may panic (type assertion)"
			}
		case *ast.BinaryExpr:
			switch {
			case (n.Op == token.QUO || n.Op == token.REM) && purity.DivisionMayPanic(info, n.X, n.Y):
				why = "may panic (division)"
			case (n.Op == token.SHL || n.Op == token.SHR) && shiftMayPanic(info, n.Y):
				why = "may panic (negative shift count)"
			}
		case *ast.AssignStmt:
			switch {
			case (n.Tok == token.QUO_ASSIGN || n.Tok == token.REM_ASSIGN) && purity.DivisionMayPanic(info, n.Lhs[0], n.Rhs[0]):
				why = "may panic (division)"
			case (n.Tok == token.SHL_ASSIGN || n.Tok == token.SHR_ASSIGN) && shiftMayPanic(info, n.Rhs[0]):
				why = "may panic (negative shift count)"
			}
		case *ast.CallExpr:
			if sc.soacs[n] {
				return false
			}
			if purity.CallMayPanic(info, n) {
				why = "may panic (a call)"
			}
		}
		return true
	})
	return why
}

// shiftMayPanic reports whether a shift by count may panic: a count of a
// signed type that is not a constant may be negative. Without type
// information every count may.
func shiftMayPanic(info *types.Info, count ast.Expr) bool {
	if info == nil {
		return true
	}
	tv, ok := info.Types[count]
	if !ok {
		return true
	}
	if tv.Value != nil {
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return !ok || b.Info()&types.IsUnsigned == 0
}

// exprText renders a lambda expression briefly for a reason.
func exprText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.FuncLit:
		return "func literal"
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprText(e.X) + "." + e.Sel.Name
	}
	return "value"
}

// scopes caches scopeOf per function: the legality checks ask for it at
// every statement a producer moves past, and purity.SafeIndexes walks the
// whole declaration each time (most of an optimal method's replays).
// Entries are keyed weakly and dropped when their function is collected;
// an entry whose function has a new declaration, body or type info since
// is computed again.
var scopes = struct {
	sync.Mutex
	m map[weak.Pointer[ir.Function]]scopeEntry
}{m: map[weak.Pointer[ir.Function]]scopeEntry{}}

// scopeEntry holds fn's declaration, info and body weakly too: the global
// map must not keep a function alive.
type scopeEntry struct {
	decl weak.Pointer[ast.FuncDecl]
	info weak.Pointer[types.Info]
	body weak.Pointer[ir.Block]
	sc   panicScope
}

// scopeOf returns the panic scope of fn: its package's types and the index
// expressions proven in range in its declaration. The scope is read only,
// so callers may share it.
func scopeOf(fn *ir.Function) panicScope {
	key := weak.Make(fn)
	scopes.Lock()
	e, ok := scopes.m[key]
	scopes.Unlock()
	if ok && e.decl == weak.Make(fn.Decl) && e.info == weak.Make(fn.Info) && e.body == weak.Make(fn.Body) {
		return e.sc
	}
	sc := computeScope(fn)
	scopes.Lock()
	if _, seen := scopes.m[key]; !seen {
		runtime.AddCleanup(fn, func(k weak.Pointer[ir.Function]) {
			scopes.Lock()
			delete(scopes.m, k)
			scopes.Unlock()
		}, key)
	}
	scopes.m[key] = scopeEntry{weak.Make(fn.Decl), weak.Make(fn.Info), weak.Make(fn.Body), sc}
	scopes.Unlock()
	return sc
}

func computeScope(fn *ir.Function) panicScope {
	sc := panicScope{info: fn.Info, soacs: map[*ast.CallExpr]bool{}}
	if fn.Decl != nil && fn.Info != nil {
		sc.safe = purity.SafeIndexes(fn.Info, fn.Decl)
	}
	ir.Walk(fn.Body, func(s ir.Stmt) bool {
		if soac, ok := s.(*ir.SOAC); ok && soac.Call != nil {
			sc.soacs[soac.Source()] = true
		}
		return true
	})
	return sc
}

// operandPanic says why evaluating one of s's operands (a neutral element,
// a length, a replicated value) may panic, or "".
func operandPanic(sc panicScope, s *ir.SOAC) string {
	for _, o := range s.Operands() {
		if o != nil && o.Expr != nil {
			if why := nodeMayPanic(sc, o.Expr); why != "" {
				return why
			}
		}
	}
	return ""
}

// operandOrder says why members (in program order) cannot share a kernel,
// or nil: a kernel evaluates every member's operands before its loop, so
// an operand that may panic must not follow a member that may panic (its
// panic comes first in the spec).
func operandOrder(fn *ir.Function, p posFmt, members []*ir.SOAC) *Refusal {
	var first *ir.SOAC
	var why string
	var sc *panicScope
	for _, m := range members {
		if first != nil {
			if sc == nil {
				s := scopeOf(fn)
				sc = &s
			}
			if w := operandPanic(*sc, m); w != "" {
				return &Refusal{Rule: RefPanicOrder, Pos: m.Pos(), Consumer: m,
					Reason: fmt.Sprintf("%s may panic (%s) and an operand of %s %s: the kernel evaluates its operands before its loop, so that panic would come first", p.soac(first), why, p.soac(m), w)}
			}
		}
		if first == nil {
			if w := soacMayPanic(fn.Info, m); w != "" {
				first, why = m, w
			}
		}
	}
	return nil
}

// samePanic reports whether generators a and b panic under the same
// condition with the same message: both Iota, or both Replicate, of one
// length variable (or constant), with operands that cannot panic. Which
// of them panics first is then unobservable, so they may be reordered.
func samePanic(fn *ir.Function, a *ir.SOAC, b ir.Stmt) bool {
	bs, ok := b.(*ir.SOAC)
	if !ok || a.Name != bs.Name || !a.IsGenerator() || !bs.IsGenerator() {
		return false
	}
	if sc := scopeOf(fn); operandPanic(sc, a) != "" || operandPanic(sc, bs) != "" {
		return false
	}
	n := func(s *ir.SOAC) *ir.Operand {
		switch op := s.Op.(type) {
		case *ir.Iota:
			return op.N
		case *ir.Replicate:
			return op.N
		}
		return nil
	}
	na, nb := n(a), n(bs)
	if na == nil || nb == nil {
		return false
	}
	ia, ok1 := ast.Unparen(na.Expr).(*ast.Ident)
	ib, ok2 := ast.Unparen(nb.Expr).(*ast.Ident)
	return ok1 && ok2 && len(na.Uses) == 1 && len(nb.Uses) == 1 && na.Uses[0] == nb.Uses[0] && ia.Name == ib.Name
}
