package build

// This file builds loops: the for and range statements, the Vars their
// entry defines for every variable the loop may assign, the effects of
// their headers, and the values that leave their bodies (Flows).

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// loopEntry defines, at the entry of loop node, a fresh Var for every
// variable visible before it that the loop may assign: assigned in its
// header or body, and, if the body may call impure code or write through a
// pointer, every escaped and package-level variable. It returns the
// variables in order.
func (b *builder) loopEntry(node *ir.Loop, parts ...ast.Node) []types.Object {
	set := make(map[types.Object]bool)
	effects := false
	note := func(e ast.Expr) {
		if id := valueRoot(b.info, e); id != nil {
			if obj := b.info.ObjectOf(id); obj != nil && b.env[obj] != nil {
				set[obj] = true
			}
		} else {
			effects = true
		}
	}
	for _, part := range parts {
		if part == nil || (part == ast.Node((*ast.BlockStmt)(nil))) {
			continue
		}
		ast.Inspect(part, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					note(l)
				}
			case *ast.IncDecStmt:
				note(n.X)
			case *ast.RangeStmt:
				if n.Key != nil {
					note(n.Key)
				}
				if n.Value != nil {
					note(n.Value)
				}
				effects = true
			case *ast.ValueSpec:
				for _, id := range n.Names {
					note(id)
				}
			case *ast.CallExpr:
				if b.effectful(n) || b.soacName(n) != "" {
					effects = true
				}
			case *ast.UnaryExpr:
				if n.Op == token.ARROW || n.Op == token.AND {
					effects = true
				}
			case *ast.SendStmt, *ast.SelectStmt, *ast.GoStmt, *ast.DeferStmt:
				effects = true
			}
			return true
		})
	}
	if effects {
		for obj := range b.sc.escaped {
			if b.env[obj] != nil {
				set[obj] = true
			}
		}
		for _, g := range b.sc.globals {
			if b.env[g] != nil {
				set[g] = true
			}
		}
	}
	objs := b.sortedObjs(set)
	for _, obj := range objs {
		old := b.env[obj]
		addUse(&node.Eff, old)
		v := b.define(obj, node, node.Pos())
		b.joinRef(v, old)
		node.Eff.Defs = append(node.Eff.Defs, v)
	}
	return objs
}

// finishLoop builds the body of a loop whose entry Vars are defined, adds
// the effects of the header (scratch), emits the loop and defines the
// variables' Vars after it.
func (b *builder) finishLoop(node *ir.Loop, s ast.Stmt, body *ast.BlockStmt, entry []types.Object, pre map[types.Object]*ir.Var, start int, post func(*ectx), scratch *ir.Effects) {
	entryEnv := b.env
	var out map[types.Object]*ir.Var
	node.Body, out = b.nested(body.List, node, entryEnv)
	if post != nil {
		saved := b.env
		b.env = out
		c := b.newCtx(s, scratch)
		post(c)
		b.env = saved
	}
	inEntry := make(map[types.Object]bool)
	for _, obj := range entry {
		inEntry[obj] = true
	}
	for obj, v := range out {
		if e, ok := entryEnv[obj]; ok && e != v && !inEntry[obj] {
			if _, visible := pre[obj]; visible {
				b.internal = append(b.internal, b.position(s.Pos())+": loop body changes "+obj.Name()+", which the loop entry does not redefine")
			}
		}
	}
	end := len(b.fn.Vars)
	for _, obj := range entry {
		b.joinInner(entryEnv[obj], obj, start, end)
	}
	if jumps(body) {
		// A break or continue may leave the body with any value the
		// variable has inside it, not only its last.
		for _, obj := range entry {
			for _, w := range b.fn.Vars[start:end] {
				if w.Obj == obj && w.Def != ir.Stmt(node) {
					addFlow(&node.Eff, w)
				}
			}
		}
	}
	aggregate(&node.Eff, start, node.Body)
	addFiltered(&node.Eff, scratch, start)
	node.Eff.Exits = node.Eff.Exits || b.exits(s)
	b.env = pre
	b.emit(node)
	var ms []merge
	for _, obj := range entry {
		ms = append(ms, merge{obj: obj, pre: entryEnv[obj], outs: []*ir.Var{out[obj]}, start: start, end: end})
	}
	b.mergeAfter(node, ms)
}

func (b *builder) forStmt(s *ast.ForStmt) {
	b.stmt(s.Init)
	node := &ir.Loop{Node: s, Parent: b.cur}
	pre := b.env
	start := len(b.fn.Vars)
	b.env = cloneEnv(pre)
	var parts []ast.Node
	if s.Cond != nil {
		parts = append(parts, s.Cond)
	}
	if s.Post != nil {
		parts = append(parts, s.Post)
	}
	parts = append(parts, s.Body)
	entry := b.loopEntry(node, parts...)
	var scratch ir.Effects
	if s.Cond != nil {
		b.newCtx(s, &scratch).expr(s.Cond, reasonForCond)
	}
	var post func(*ectx)
	if s.Post != nil {
		post = func(c *ectx) { c.headerStmt(s.Post, reasonForPost) }
	}
	b.finishLoop(node, s, s.Body, entry, pre, start, post, &scratch)
}

// headerStmt walks a simple statement evaluated as part of a loop header
// (its post statement): every SOAC call in it is unsupported, and its
// assignments are covered by the loop's entry Vars.
func (c *ectx) headerStmt(s ast.Stmt, reason string) {
	switch s := s.(type) {
	case *ast.ExprStmt:
		c.expr(s.X, reason)
	case *ast.IncDecStmt:
		c.expr(s.X, reason)
		c.headerTarget(s.X)
	case *ast.AssignStmt:
		for _, l := range s.Lhs {
			if _, ok := ast.Unparen(l).(*ast.Ident); !ok {
				c.expr(l, reason)
			}
		}
		for _, r := range s.Rhs {
			c.expr(r, reason)
		}
		for _, l := range s.Lhs {
			c.headerTarget(l)
		}
	case *ast.SendStmt:
		c.expr(s.Chan, reason)
		c.expr(s.Value, reason)
		c.escape(s.Value)
		setImpure(c.eff, "sends on a channel", s.Arrow)
	}
	c.sh.defs = nil
}

// headerTarget records the writes of assigning to l in a loop header.
func (c *ectx) headerTarget(l ast.Expr) {
	if valueRoot(c.b.info, l) != nil {
		return // a variable: redefined at loop entry
	}
	base := indirectBase(c.b.info, l)
	srcs, unknown := c.b.sources(base)
	if base == nil || unknown {
		c.eff.WritesGlobal = true
	}
	for _, w := range srcs {
		addWrite(c.eff, w)
	}
}

func (b *builder) rangeStmt(s *ast.RangeStmt) {
	node := &ir.Loop{Node: s, Parent: b.cur}
	c := b.newCtx(s, &node.Eff)
	c.prepare(s.X)
	c.expr(s.X, "")
	xsrcs, xunknown := b.sources(s.X)
	if t := b.info.TypeOf(s.X); t != nil {
		switch t.Underlying().(type) {
		case *types.Signature:
			setImpure(&node.Eff, "ranges over a function iterator", s.X.Pos())
		case *types.Chan:
			setImpure(&node.Eff, "receives from a channel", s.X.Pos())
			xunknown = true
		}
	}
	pre := b.env
	start := len(b.fn.Vars)
	b.env = cloneEnv(pre)
	var parts []ast.Node
	if s.Tok == token.ASSIGN {
		if s.Key != nil {
			parts = append(parts, &ast.AssignStmt{Lhs: []ast.Expr{s.Key}, Tok: token.ASSIGN})
		}
		if s.Value != nil {
			parts = append(parts, &ast.AssignStmt{Lhs: []ast.Expr{s.Value}, Tok: token.ASSIGN})
		}
	}
	parts = append(parts, s.Body)
	entry := b.loopEntry(node, parts...)
	var scratch ir.Effects
	for i, kv := range []ast.Expr{s.Key, s.Value} {
		if kv == nil {
			continue
		}
		id, isIdent := ast.Unparen(kv).(*ast.Ident)
		switch {
		case isIdent && id.Name == "_":
		case isIdent && s.Tok == token.DEFINE:
			if obj := b.info.Defs[id]; obj != nil {
				v := b.define(obj, node, id.Pos())
				if i == 1 {
					b.joinAll(v, xsrcs, xunknown)
				}
				node.Eff.Defs = append(node.Eff.Defs, v)
			}
		case isIdent:
			if i == 1 {
				if v := b.env[b.info.ObjectOf(id)]; v != nil {
					b.joinAll(v, xsrcs, xunknown)
				}
			}
		default:
			hc := b.newCtx(s, &scratch)
			hc.expr(kv, "")
			hc.headerTarget(kv)
		}
	}
	b.finishLoop(node, s, s.Body, entry, pre, start, nil, &scratch)
}

// jumps reports whether body holds a break, continue or goto outside
// function literals: control may then leave an iteration before its end.
func jumps(body ast.Node) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if n.Tok != token.FALLTHROUGH {
				found = true
			}
		}
		return !found
	})
	return found
}
