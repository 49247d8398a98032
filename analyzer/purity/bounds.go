package purity

// This file proves index expressions in range, so that they are not counted
// as may-panic: an index i into xs where the code around it establishes
// 0 <= i < len(xs) and neither i nor xs can change in between:
//
//	for i := range xs { ... xs[i] ... }
//	if i >= 0 && i < len(xs) { ... xs[i] ... }           (also len(xs) > i, 0 <= i)
//	if i < 0 || i >= len(xs) { return }; ... xs[i] ...   (the guard exits)
//
//	if len(xs) > 0 { ... xs[0] ... }                      (constant indices under a length)
//	xs := make([]T, 4); ... xs[3] ...                    (constant lengths of fresh slices)
//	out := make([]T, len(xs)); for i := range xs { ... out[i] ... }
//	                                                      (a fresh slice as long as another)
//
// with i unsigned needing no lower bound. i and xs must be local variables
// (parameters included) that are not assigned in the guarded region, whose
// address is never taken, and that no function literal assigns (a call in
// the region could run it). Bounds do not cross into function literals:
// their bodies may run after the guard no longer holds.
//
// It does NOT reason about arithmetic (xs[i+1] under i < len(xs)-1 stays
// may-panic), about lengths of different slices known equal other than a
// slice made as long as another, or about constant indices (IndexMayPanic
// handles arrays with constant indices directly).

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// SafeIndexes returns the index expressions under root (a file, a function
// declaration or a body) that are proven in range by a range loop or a len
// guard.
func SafeIndexes(info *types.Info, root ast.Node) map[*ast.IndexExpr]bool {
	b := &bounder{info: info, safe: map[*ast.IndexExpr]bool{}, unstable: map[types.Object]bool{}}
	b.findUnstable(root)
	b.walk(root, nil)
	return b.safe
}

// IndexMayPanic reports whether evaluating the index expression e may
// panic: indexing a slice, string or array by a variable not proven in
// range (safe, from SafeIndexes; nil proves nothing). Map reads, generic
// instantiations and constant indices into arrays cannot panic.
func IndexMayPanic(info *types.Info, e *ast.IndexExpr, safe map[*ast.IndexExpr]bool) bool {
	if info == nil {
		return true
	}
	if tv, ok := info.Types[e]; ok && tv.IsType() {
		return false
	}
	switch under(info.TypeOf(e.X)).(type) {
	case *types.Signature, *types.Map:
		return false
	case *types.Array:
		if info.Types[e.Index].Value != nil {
			return false // the type checker rejects a constant index out of range
		}
	}
	return !safe[e]
}

// DivisionMayPanic reports whether x / y (or x % y) may panic: integer
// division by a divisor that is not a non-zero constant.
func DivisionMayPanic(info *types.Info, x, y ast.Expr) bool {
	if info == nil {
		return true
	}
	if b, ok := under(info.TypeOf(x)).(*types.Basic); ok && b.Info()&(types.IsFloat|types.IsComplex) != 0 {
		return false
	}
	if v := info.Types[y].Value; v != nil && constant.Sign(v) != 0 {
		return false
	}
	return true
}

// fact says that 0 <= idx < len(xs) holds, or with idx nil that
// len(xs) >= min, or with same non-nil that len(xs) == len(same).
type fact struct {
	idx, xs types.Object
	min     int64
	same    types.Object
}

// bound is a fact or one half of one, read from a comparison: an upper
// bound idx < len(xs) (idx and xs non-nil), a lower bound idx >= 0 (xs
// nil), or a minimum length len(xs) >= min (idx nil). Its same is nil.
type bound struct {
	idx, xs types.Object
	min     int64
	same    types.Object
}

type bounder struct {
	info *types.Info
	safe map[*ast.IndexExpr]bool
	// unstable holds the variables whose address is taken or that a
	// function literal assigns: no bound on them is trusted.
	unstable map[types.Object]bool
	// gotos holds the function bodies with a goto of their own: a forward
	// goto may skip a guard, so early exits there prove nothing; inGoto
	// says whether the body being walked is one.
	gotos  map[*ast.BlockStmt]bool
	inGoto bool
}

// findUnstable fills unstable.
func (b *bounder) findUnstable(root ast.Node) {
	var lits []*ast.FuncLit
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
					b.unstable[b.info.ObjectOf(id)] = true
				}
			}
		case *ast.FuncLit:
			lits = append(lits, n)
		}
		return true
	})
	b.gotos = map[*ast.BlockStmt]bool{}
	ast.Inspect(root, func(n ast.Node) bool {
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			body = n.Body
		case *ast.FuncLit:
			body = n.Body
		}
		if body != nil {
			ast.Inspect(body, func(m ast.Node) bool {
				if _, ok := m.(*ast.FuncLit); ok {
					return false
				}
				if br, ok := m.(*ast.BranchStmt); ok && br.Tok == token.GOTO {
					b.gotos[body] = true
				}
				return true
			})
		}
		return true
	})
	for _, l := range lits {
		for obj := range b.assigned(l.Body) {
			b.unstable[obj] = true
		}
	}
}

// assigned returns the variables that the statements under n assign
// (not counting their declarations).
func (b *bounder) assigned(n ast.Node) map[types.Object]bool {
	out := map[types.Object]bool{}
	mark := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if obj := b.info.Uses[id]; obj != nil {
				out[obj] = true
			}
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				mark(l)
			}
		case *ast.IncDecStmt:
			mark(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				if n.Key != nil {
					mark(n.Key)
				}
				if n.Value != nil {
					mark(n.Value)
				}
			}
		}
		return true
	})
	return out
}

// local returns the local variable (or parameter) e names, or nil.
func (b *bounder) local(e ast.Expr) types.Object {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := b.info.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || b.unstable[v] {
		return nil
	}
	return v
}

// indexable reports whether obj is a slice, array or string.
func indexable(obj types.Object) bool {
	switch t := under(obj.Type()).(type) {
	case *types.Slice, *types.Array:
		return true
	case *types.Basic:
		return t.Info()&types.IsString != 0
	}
	return false
}

// lenOf returns the variable x of the builtin call len(x), or nil.
func (b *bounder) lenOf(e ast.Expr) types.Object {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return nil
	}
	id, ok := ast.Unparen(c.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	if bi, ok := b.info.Uses[id].(*types.Builtin); !ok || bi.Name() != "len" {
		return nil
	}
	xs := b.local(c.Args[0])
	if xs == nil || !indexable(xs) {
		return nil
	}
	return xs
}

// bounds returns the bounds that cond establishes when it evaluates to
// holds: the conjuncts of a true &&, the disjuncts of a false ||,
// comparisons of a local integer with len of a local slice, array or
// string, or with 0.
func (b *bounder) bounds(cond ast.Expr, holds bool) []bound {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return b.bounds(e.X, !holds)
		}
	case *ast.BinaryExpr:
		switch {
		case e.Op == token.LAND && holds, e.Op == token.LOR && !holds:
			return append(b.bounds(e.X, holds), b.bounds(e.Y, holds)...)
		}
		op, x, y := e.Op, e.X, e.Y
		if !holds {
			op = negate(op)
		}
		if xs := b.lenOf(y); xs != nil && b.info.Types[x].Value != nil {
			op, x, y = mirror(op), y, x
		}
		if xs := b.lenOf(x); xs != nil {
			if c, ok := b.intConst(y); ok {
				if m, ok := minLength(op, c); ok {
					return []bound{{nil, xs, m, nil}}
				}
				return nil
			}
		}
		// Put the index on the left: len(xs) > i is i < len(xs).
		if b.local(x) == nil || b.lenOf(x) != nil {
			op, x, y = mirror(op), y, x
		}
		i := b.local(x)
		if i == nil || !isInteger(i.Type()) {
			return nil
		}
		if xs := b.lenOf(y); xs != nil && op == token.LSS {
			return []bound{{i, xs, 0, nil}}
		}
		if c, ok := b.intConst(y); ok && (op == token.GEQ && c == 0 || op == token.GTR && c == -1) {
			return []bound{{i, nil, 0, nil}}
		}
	}
	return nil
}

// minLength returns m such that len(xs) op c implies len(xs) >= m.
func minLength(op token.Token, c int64) (int64, bool) {
	switch op {
	case token.GTR:
		return c + 1, c < 1<<62
	case token.GEQ, token.EQL:
		return c, true
	case token.NEQ:
		return 1, c == 0
	}
	return 0, false
}

// intConst returns the value of e if it is an integer constant that fits
// in an int64.
func (b *bounder) intConst(e ast.Expr) (int64, bool) {
	v := b.info.Types[e].Value
	if v == nil || v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// negate returns the comparison that holds when x op y does not.
func negate(op token.Token) token.Token {
	switch op {
	case token.EQL:
		return token.NEQ
	case token.NEQ:
		return token.EQL
	case token.LSS:
		return token.GEQ
	case token.GEQ:
		return token.LSS
	case token.GTR:
		return token.LEQ
	case token.LEQ:
		return token.GTR
	}
	return token.ILLEGAL
}

// mirror returns op' with y op' x equivalent to x op y.
func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

func isInteger(t types.Type) bool {
	bt, ok := under(t).(*types.Basic)
	return ok && bt.Info()&types.IsInteger != 0
}

func isUnsigned(t types.Type) bool {
	bt, ok := under(t).(*types.Basic)
	return ok && bt.Info()&types.IsUnsigned != 0
}

// facts combines the bounds of cond (when it evaluates to holds) into
// facts, keeping those whose variables region does not assign.
func (b *bounder) facts(cond ast.Expr, holds bool, region []ast.Stmt) []fact {
	bs := b.bounds(cond, holds)
	var out []fact
	for _, u := range bs {
		if u.idx == nil {
			if !b.assignedIn(region, u.xs) {
				out = append(out, fact(u))
			}
			continue
		}
		if u.xs == nil {
			continue
		}
		ok := isUnsigned(u.idx.Type())
		for _, l := range bs {
			if l.xs == nil && l.idx == u.idx {
				ok = true
			}
		}
		if ok && !b.assignedIn(region, u.idx, u.xs) {
			out = append(out, fact(u))
		}
	}
	return out
}

// assignedIn reports whether a statement of region assigns one of objs.
func (b *bounder) assignedIn(region []ast.Stmt, objs ...types.Object) bool {
	for _, s := range region {
		as := b.assigned(s)
		for _, o := range objs {
			if as[o] {
				return true
			}
		}
	}
	return false
}

// walk records the safe index expressions under n, given the facts that
// hold where n is evaluated.
func (b *bounder) walk(n ast.Node, facts []fact) {
	switch n := n.(type) {
	case nil:
		return
	case *ast.FuncLit:
		b.body(n.Body)
		return
	case *ast.FuncDecl:
		if n.Body != nil {
			b.body(n.Body)
		}
		return
	case *ast.BlockStmt:
		b.block(n.List, facts)
		return
	case *ast.CaseClause:
		for _, e := range n.List {
			b.walk(e, facts)
		}
		b.block(n.Body, facts)
		return
	case *ast.CommClause:
		b.walk(n.Comm, facts)
		b.block(n.Body, facts)
		return
	case *ast.IfStmt:
		b.walk(n.Init, facts)
		b.walk(n.Cond, facts)
		b.walk(n.Body, append(facts[:len(facts):len(facts)], b.facts(n.Cond, true, n.Body.List)...))
		if n.Else != nil {
			b.walk(n.Else, append(facts[:len(facts):len(facts)], b.facts(n.Cond, false, []ast.Stmt{n.Else})...))
		}
		return
	case *ast.ForStmt:
		b.walk(n.Init, facts)
		b.walk(n.Cond, facts)
		b.walk(n.Post, facts)
		inner := facts
		if n.Cond != nil {
			// The condition holds whenever the body starts.
			inner = append(facts[:len(facts):len(facts)], b.facts(n.Cond, true, n.Body.List)...)
			// The counter's lower bound comes from its Init and Post.
			if i := b.counter(n); i != nil {
				for _, u := range b.bounds(n.Cond, true) {
					if u.idx == i && u.xs != nil && !b.assignedIn(n.Body.List, i, u.xs) {
						inner = append(inner, fact(u))
					}
				}
			}
		}
		b.walk(n.Body, inner)
		return
	case *ast.RangeStmt:
		b.walk(n.X, facts)
		inner := facts
		if n.Tok == token.DEFINE && n.Key != nil {
			i, xs := b.local(n.Key), b.local(n.X)
			if i != nil && xs != nil && indexable(xs) && !b.assignedIn(n.Body.List, i, xs) {
				inner = append(facts[:len(facts):len(facts)], fact{i, xs, 0, nil})
			}
		}
		b.walk(n.Body, inner)
		return
	case *ast.IndexExpr:
		i, xs := b.local(n.Index), b.local(n.X)
		c, isConst := b.intConst(n.Index)
		for _, f := range facts {
			if i != nil && f.idx == i && xs != nil && (f.xs == xs || sameLength(facts, f.xs, xs)) || isConst && f.idx == nil && f.same == nil && xs != nil && f.xs == xs && c >= 0 && c < f.min {
				b.safe[n] = true
			}
		}
	}
	ast.Inspect(n, func(m ast.Node) bool {
		if m == n {
			return true
		}
		if m != nil {
			b.walk(m, facts)
		}
		return false
	})
}

// counter returns the loop's counter i when the loop is
// `for i := c; ...; i++` (or i += k) with constants c >= 0 and
// 0 <= k <= 2^20, so that
// i >= 0 holds in its body as long as the body does not assign i; nil
// otherwise.
func (b *bounder) counter(n *ast.ForStmt) types.Object {
	init, ok := n.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return nil
	}
	i := b.local(init.Lhs[0])
	if i == nil || !isInteger(i.Type()) || !b.nonNegConst(init.Rhs[0]) || b.assignedIn(n.Body.List, i) {
		return nil
	}
	switch p := n.Post.(type) {
	case *ast.IncDecStmt:
		if p.Tok == token.INC && b.local(p.X) == i {
			return i
		}
	case *ast.AssignStmt:
		// A small step: i < len(xs) then keeps i + k from overflowing.
		if k, ok := b.intConst(p.Rhs[0]); ok && p.Tok == token.ADD_ASSIGN && b.local(p.Lhs[0]) == i && k >= 0 && k <= 1<<20 {
			return i
		}
	}
	return nil
}

// nonNegConst reports whether e is an integer constant >= 0.
func (b *bounder) nonNegConst(e ast.Expr) bool {
	v := b.info.Types[e].Value
	return v != nil && v.Kind() == constant.Int && constant.Sign(v) >= 0
}

// body walks a function body with no facts.
func (b *bounder) body(body *ast.BlockStmt) {
	outer := b.inGoto
	b.inGoto = b.gotos[body]
	b.walk(body, nil)
	b.inGoto = outer
}

// block walks a statement list: after an if without else whose body
// cannot fall through, the negation of its condition holds for the rest.
func (b *bounder) block(list []ast.Stmt, facts []fact) {
	for k, s := range list {
		b.walk(s, facts)
		if is, ok := s.(*ast.IfStmt); ok && is.Else == nil && is.Init == nil && !b.inGoto && b.exits(is.Body) {
			facts = append(facts[:len(facts):len(facts)], b.facts(is.Cond, false, list[k+1:])...)
		}
		if f, ok := b.allocated(s); ok && !b.assignedIn(list[k+1:], f.xs) && (f.same == nil || !b.assignedIn(list[k+1:], f.same)) {
			facts = append(facts[:len(facts):len(facts)], f)
		}
	}
}

// sameLength reports whether facts say that len(a) == len(b).
func sameLength(facts []fact, a, b types.Object) bool {
	for _, f := range facts {
		if f.same != nil && (f.xs == a && f.same == b || f.xs == b && f.same == a) {
			return true
		}
	}
	return false
}

// allocated returns the minimum-length fact of a definition xs :=
// make([]T, c) (with any capacity) or xs := []T{e1, ..., ek} (no keys)
// with a constant length, and the equal-length fact of xs :=
// make([]T, len(ys)) with ys a local slice, array or string.
func (b *bounder) allocated(s ast.Stmt) (fact, bool) {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return fact{}, false
	}
	xs := b.local(as.Lhs[0])
	if xs == nil {
		return fact{}, false
	}
	if _, ok := under(xs.Type()).(*types.Slice); !ok {
		return fact{}, false
	}
	switch r := ast.Unparen(as.Rhs[0]).(type) {
	case *ast.CallExpr:
		if builtinName(b.info, r.Fun) == "make" && len(r.Args) >= 2 {
			if c, ok := b.intConst(r.Args[1]); ok && c >= 0 {
				return fact{nil, xs, c, nil}, true
			}
			if ys := b.lenOf(r.Args[1]); ys != nil && ys != xs {
				return fact{nil, xs, 0, ys}, true
			}
		}
	case *ast.CompositeLit:
		for _, e := range r.Elts {
			if _, ok := e.(*ast.KeyValueExpr); ok {
				return fact{}, false
			}
		}
		return fact{nil, xs, int64(len(r.Elts)), nil}, true
	}
	return fact{}, false
}

// exits reports whether the block's last statement leaves the statement
// list it is in for good: return, break, continue or a call of the builtin
// panic (not goto, which may jump forward within the list).
func (b *bounder) exits(body *ast.BlockStmt) bool {
	if len(body.List) == 0 {
		return false
	}
	switch s := body.List[len(body.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.BREAK || s.Tok == token.CONTINUE
	case *ast.ExprStmt:
		if c, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
				bi, ok := b.info.Uses[id].(*types.Builtin)
				return ok && bi.Name() == "panic"
			}
		}
	}
	return false
}
