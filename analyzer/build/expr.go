package build

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// ectx walks the expressions of one source statement in Go's evaluation
// order, accumulating their effects into eff and emitting, ahead of the
// statement, the SOAC statements, hoisted expressions and closures they
// contain.
type ectx struct {
	b    *builder
	stmt ast.Stmt    // the source statement
	eff  *ir.Effects // where uses, writes and impurity go
	self ast.Expr    // the hoisted expression being walked, if any
	sh   *shared
}

// shared is the part of an ectx common to a statement and its
// subexpressions.
type shared struct {
	// hoist are the calls evaluated before a SOAC call of the statement
	// that is not their ancestor: they are bound to temporaries first.
	hoist map[ast.Expr]bool
	// unsup are SOAC calls that cannot be hoisted, with the reason.
	unsup map[*ast.CallExpr]string
	// bind maps a SOAC call assigned directly to a variable to it.
	bind map[*ast.CallExpr]types.Object
	// bound are the Vars of those variables, made when the SOAC is built.
	bound map[types.Object]*ir.Var
	// defs are the definitions made by the statement, applied to the
	// environment when it is finished.
	defs []def
}

func (sh *shared) setBind(call *ast.CallExpr, obj types.Object) {
	if sh.bind == nil {
		sh.bind = make(map[*ast.CallExpr]types.Object)
	}
	sh.bind[call] = obj
}

func (sh *shared) setBound(obj types.Object, v *ir.Var) {
	if sh.bound == nil {
		sh.bound = make(map[types.Object]*ir.Var)
	}
	sh.bound[obj] = v
}

type def struct {
	obj types.Object
	v   *ir.Var
}

func (b *builder) newCtx(stmt ast.Stmt, eff *ir.Effects) *ectx {
	return &ectx{b: b, stmt: stmt, eff: eff, sh: &shared{}}
}

// sub returns a context sharing c's statement state, accumulating into eff.
func (c *ectx) sub(eff *ir.Effects, self ast.Expr) *ectx {
	return &ectx{b: c.b, stmt: c.stmt, eff: eff, self: self, sh: c.sh}
}

// Conditional-evaluation reasons: a SOAC call found in such a position is
// not hoisted.
const (
	reasonAnd      = "the right operand of && is evaluated only when the left one is true"
	reasonOr       = "the right operand of || is evaluated only when the left one is false"
	reasonForCond  = "a for loop's condition is evaluated before every iteration"
	reasonForPost  = "a for loop's post statement is evaluated after every iteration"
	reasonCase     = "a case expression is evaluated only when no earlier case matched"
	reasonSelect   = "the operands of a select case are evaluated when the select runs, in an order the IR does not model"
	reasonDefer    = "a deferred call runs when the function returns"
	reasonGo       = "a call in a go statement runs concurrently"
	reasonAfterArg = "a call before it in the same statement is evaluated conditionally (at %s), so it cannot be hoisted above it"
)

func orCond(cond, reason string) string {
	if cond != "" {
		return cond
	}
	return reason
}

// event is a call or receive of a statement, in evaluation order.
type event struct {
	e    ast.Expr
	soac bool
	cond string
}

// prepare decides which calls of roots (evaluated in order) must be
// hoisted: every effectful call evaluated before a hoistable SOAC call that
// is not its ancestor, so that hoisting the SOAC keeps the order of calls.
func (c *ectx) prepare(roots ...ast.Expr) {
	b := c.b
	if b.noSOAC != "" {
		return
	}
	var evs []event
	var rec func(n ast.Node, cond string)
	rec = func(n ast.Node, cond string) {
		switch n := n.(type) {
		case nil:
			return
		case *ast.FuncLit:
			return
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				rec(n.X, cond)
				r := reasonAnd
				if n.Op == token.LOR {
					r = reasonOr
				}
				rec(n.Y, orCond(cond, r))
				return
			}
		case *ast.CallExpr:
			if inner, _, _ := c.seeThrough(n); b.soacName(n) != "" || inner != nil {
				for _, a := range n.Args {
					rec(a, cond)
				}
				evs = append(evs, event{e: n, soac: true, cond: cond})
				return
			}
			rec(n.Fun, cond)
			for _, a := range n.Args {
				rec(a, cond)
			}
			if b.effectful(n) {
				evs = append(evs, event{e: n, cond: cond})
			}
			return
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				rec(n.X, cond)
				evs = append(evs, event{e: n, cond: cond})
				return
			}
		}
		ast.Inspect(n, func(m ast.Node) bool {
			if m == n {
				return true
			}
			if m != nil {
				rec(m, cond)
			}
			return false
		})
	}
	for _, r := range roots {
		if r != nil {
			rec(r, "")
		}
	}
	causes := make(map[ast.Expr][]ast.Expr)
	for j, s := range evs {
		if !s.soac || s.cond != "" {
			continue
		}
		for _, ev := range evs[:j] {
			// An earlier SOAC is hoisted in its turn, unless it is
			// evaluated conditionally: then it is a conditional call.
			if (ev.soac && ev.cond == "") || contains(s.e, ev.e) {
				continue
			}
			if ev.cond != "" {
				if c.sh.unsup == nil {
					c.sh.unsup = make(map[*ast.CallExpr]string)
				}
				c.sh.unsup[s.e.(*ast.CallExpr)] = fmt.Sprintf(reasonAfterArg, b.position(ev.e.Pos()))
				continue
			}
			causes[ev.e] = append(causes[ev.e], s.e)
		}
	}
	if len(causes) == 0 {
		return
	}
	c.sh.hoist = make(map[ast.Expr]bool)
	for e, ss := range causes {
		// A call inside another hoisted call needs its own temporary only
		// if a SOAC that forces it lies inside that call too.
		var anc ast.Expr
		for a := range causes {
			if a != e && contains(a, e) && (anc == nil || contains(anc, a)) {
				anc = a
			}
		}
		keep := anc == nil
		for _, s := range ss {
			if anc != nil && contains(anc, s) {
				keep = true
			}
		}
		if keep {
			c.sh.hoist[e] = true
		}
	}
}

// contains reports whether a's source range contains b's.
func contains(a, b ast.Node) bool { return a.Pos() <= b.Pos() && b.End() <= a.End() }

// expr walks e. cond is non-empty inside conditionally evaluated operands
// and says why.
func (c *ectx) expr(e ast.Expr, cond string) {
	b := c.b
	if e == nil {
		return
	}
	if c.sh.hoist[e] && e != c.self {
		addUse(c.eff, c.hoisted(e))
		return
	}
	switch e := e.(type) {
	case *ast.Ident:
		obj := b.info.Uses[e]
		if combinatorName(obj) != "" {
			b.unsupportedValue(e)
			return
		}
		if v := b.lookup(obj); v != nil {
			addUse(c.eff, v)
		}
	case *ast.SelectorExpr:
		if combinatorName(b.info.Uses[e.Sel]) != "" {
			b.unsupportedValue(e)
			return
		}
		if sel := b.info.Selections[e]; sel != nil {
			if sel.Kind() != types.MethodExpr {
				c.expr(e.X, cond)
			}
			return
		}
		if v := b.lookup(b.info.Uses[e.Sel]); v != nil { // qualified identifier
			addUse(c.eff, v)
		}
	case *ast.IndexExpr:
		if id := calleeIdent(e); id != nil && combinatorName(b.info.Uses[id]) != "" {
			b.unsupportedValue(e)
			return
		}
		c.expr(e.X, cond)
		c.expr(e.Index, cond)
	case *ast.IndexListExpr:
		if id := calleeIdent(e); id != nil && combinatorName(b.info.Uses[id]) != "" {
			b.unsupportedValue(e)
			return
		}
		c.expr(e.X, cond)
	case *ast.CallExpr:
		c.call(e, cond)
	case *ast.FuncLit:
		c.closure(e)
	case *ast.BinaryExpr:
		c.expr(e.X, cond)
		switch e.Op {
		case token.LAND:
			c.expr(e.Y, orCond(cond, reasonAnd))
		case token.LOR:
			c.expr(e.Y, orCond(cond, reasonOr))
		default:
			c.expr(e.Y, cond)
		}
	case *ast.UnaryExpr:
		c.expr(e.X, cond)
		if e.Op == token.ARROW {
			setImpure(c.eff, "receives from a channel", e.Pos())
		}
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			c.expr(el, cond)
		}
	case *ast.KeyValueExpr:
		c.expr(e.Key, cond)
		c.expr(e.Value, cond)
	case *ast.ParenExpr:
		c.expr(e.X, cond)
	case *ast.StarExpr:
		c.expr(e.X, cond)
	case *ast.TypeAssertExpr:
		c.expr(e.X, cond)
	case *ast.SliceExpr:
		c.expr(e.X, cond)
		c.expr(e.Low, cond)
		c.expr(e.High, cond)
		c.expr(e.Max, cond)
	}
}

// redefine records that the statement gives the variable obj a new value
// derived from its old one.
func (c *ectx) redefine(obj types.Object, pos token.Pos) {
	b := c.b
	old := b.lookup(obj)
	if old == nil {
		return
	}
	addUse(c.eff, old)
	v := b.newVar(obj, obj.Name(), obj.Type(), nil, pos)
	b.joinRef(v, old)
	c.sh.defs = append(c.sh.defs, def{obj, v})
}

// hoisted binds e to a temporary in a Plain statement of its own, emitted
// now, and returns the temporary.
func (c *ectx) hoisted(e ast.Expr) *ir.Var {
	b := c.b
	h := &ir.Plain{Node: c.stmt, Hoisted: e, Parent: b.cur}
	sub := &ectx{b: b, stmt: c.stmt, eff: &h.Eff, self: e, sh: &shared{hoist: c.sh.hoist, unsup: c.sh.unsup}}
	sub.expr(e, "")
	srcs, unknown := b.sources(e)
	tmp := b.temp(false, b.info.TypeOf(e), h, e.Pos())
	b.joinAll(tmp, srcs, unknown)
	b.exprVar[e] = tmp
	h.Eff.Defs = append(h.Eff.Defs, tmp)
	sub.finish(h)
	return tmp
}

// finish applies the statement's definitions, redefines escaped and
// package-level variables if it may have changed them, and emits s.
func (c *ectx) finish(s ir.Stmt) {
	b := c.b
	eff := s.Effects()
	var done map[types.Object]bool
	if len(c.sh.defs) > 0 {
		done = make(map[types.Object]bool, len(c.sh.defs))
	}
	for _, d := range c.sh.defs {
		if d.v.Def == nil {
			d.v.Def = s
			eff.Defs = append(eff.Defs, d.v)
		}
		b.setEnv(d.obj, d.v)
		done[d.obj] = true
	}
	c.sh.defs = nil
	b.clobber(s, done)
	b.emit(s)
}

// clobber gives escaped variables (and, when s may write package-level
// memory, package-level variables) new Vars defined by s, when s calls
// code that is not known pure or writes through a pointer.
func (b *builder) clobber(s ir.Stmt, done map[types.Object]bool) {
	eff := s.Effects()
	if eff.Impure == "" && !eff.WritesGlobal && len(eff.Writes) == 0 {
		return
	}
	if len(b.sc.escaped) == 0 && (!eff.WritesGlobal || len(b.sc.globals) == 0) {
		return
	}
	set := make(map[types.Object]bool)
	for obj := range b.sc.escaped {
		if b.env[obj] != nil && !done[obj] {
			set[obj] = true
		}
	}
	if eff.WritesGlobal {
		for _, g := range b.sc.globals {
			if b.env[g] != nil && !done[g] {
				set[g] = true
			}
		}
	}
	for _, obj := range b.sortedObjs(set) {
		old := b.env[obj]
		addUse(eff, old)
		v := b.define(obj, s, s.Pos())
		b.joinRef(v, old)
		eff.Defs = append(eff.Defs, v)
	}
}

// unsupportedValue records a combinator used other than by calling it.
func (b *builder) unsupportedValue(e ast.Expr) {
	b.fn.Unsupported = append(b.fn.Unsupported, ir.Unsupported{
		Expr:   e,
		Reason: fmt.Sprintf("combinator %s is used as a value; calls through a function value are not analysed", types.ExprString(e)),
	})
}

func addUse(eff *ir.Effects, v *ir.Var) {
	if v == nil {
		return
	}
	for _, u := range eff.Uses {
		if u == v {
			return
		}
	}
	eff.Uses = append(eff.Uses, v)
}

func addWrite(eff *ir.Effects, v *ir.Var) {
	if v == nil {
		return
	}
	for _, u := range eff.Writes {
		if u == v {
			return
		}
	}
	eff.Writes = append(eff.Writes, v)
}

func setImpure(eff *ir.Effects, reason string, pos token.Pos) {
	if eff.Impure == "" {
		eff.Impure, eff.ImpurePos = reason, pos
	}
}
