package build

// This file builds the compound statements other than loops (loop.go):
// if, switch, type switch and select statements, and closures; how the
// effects of their blocks add up to theirs, and whether control may leave
// them other than by falling through.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// aggregate adds to eff the effects of the statements of blocks: their
// uses of Vars created before start (those defined outside the compound
// statement), all their writes, global writes and impurity.
func aggregate(eff *ir.Effects, start int, blocks ...*ir.Block) {
	for _, blk := range blocks {
		if blk == nil {
			continue
		}
		for _, s := range blk.Stmts {
			e := s.Effects()
			for _, v := range e.Uses {
				if v.ID < start {
					addUse(eff, v)
				}
			}
			for _, v := range e.Writes {
				addWrite(eff, v)
			}
			eff.WritesGlobal = eff.WritesGlobal || e.WritesGlobal
			setImpure(eff, e.Impure, e.ImpurePos)
		}
	}
}

// snapshot returns a copy of eff that later additions to eff do not change:
// the effects of a compound statement's own expressions, taken before
// aggregate adds those of its blocks.
func snapshot(eff *ir.Effects) ir.Effects {
	own := *eff
	own.Uses = slices.Clone(eff.Uses)
	own.Defs = slices.Clone(eff.Defs)
	own.Writes = slices.Clone(eff.Writes)
	return own
}

// addFiltered adds the uses of scratch created before start, and its other
// effects, to eff.
func addFiltered(eff, scratch *ir.Effects, start int) {
	for _, v := range scratch.Uses {
		if v.ID < start {
			addUse(eff, v)
		}
	}
	for _, v := range scratch.Writes {
		addWrite(eff, v)
	}
	eff.WritesGlobal = eff.WritesGlobal || scratch.WritesGlobal
	setImpure(eff, scratch.Impure, scratch.ImpurePos)
}

// nested builds list as a block owned by parent, starting from a copy of
// env, and returns it with the environment at its end.
func (b *builder) nested(list []ast.Stmt, parent ir.Stmt, env map[types.Object]*ir.Var) (*ir.Block, map[types.Object]*ir.Var) {
	savedEnv, savedCur := b.env, b.cur
	blk := &ir.Block{Parent: parent}
	b.env, b.cur = cloneEnv(env), blk
	b.stmtList(list)
	out := b.env
	b.env, b.cur = savedEnv, savedCur
	return blk, out
}

func (b *builder) ifStmt(s *ast.IfStmt) {
	b.stmt(s.Init)
	node := &ir.If{Node: s, Parent: b.cur}
	c := b.newCtx(s, &node.Eff)
	c.prepare(s.Cond)
	c.expr(s.Cond, "")
	start := len(b.fn.Vars)
	pre := b.env
	var thenEnv, elseEnv map[types.Object]*ir.Var
	node.Then, thenEnv = b.nested(s.Body.List, node, pre)
	elseEnv = pre
	switch e := s.Else.(type) {
	case *ast.BlockStmt:
		node.Else, elseEnv = b.nested(e.List, node, pre)
	case *ast.IfStmt:
		node.Else, elseEnv = b.nested([]ast.Stmt{e}, node, pre)
	}
	node.Own = snapshot(&node.Eff)
	aggregate(&node.Eff, start, node.Then, node.Else)
	node.Eff.Exits = node.Eff.Exits || b.exits(s)
	b.emit(node)
	b.mergeAfter(node, b.changes(pre, start, thenEnv, elseEnv))
}

func (b *builder) switchStmt(s *ast.SwitchStmt) {
	b.stmt(s.Init)
	node := &ir.Switch{Node: s, Parent: b.cur}
	c := b.newCtx(s, &node.Eff)
	c.prepare(s.Tag)
	c.expr(s.Tag, "")
	start := len(b.fn.Vars)
	pre := b.env
	var envs []map[types.Object]*ir.Var
	for _, cl := range s.Body.List {
		cc := cl.(*ast.CaseClause)
		for _, e := range cc.List {
			c.expr(e, reasonCase)
		}
		if cc.List == nil {
			node.Exhaustive = true
		}
		blk, env := b.nested(cc.Body, node, pre)
		node.Cases = append(node.Cases, blk)
		envs = append(envs, env)
	}
	b.finishSwitch(node, s, pre, start, envs)
}

// finishSwitch aggregates, emits and merges a switch or select.
func (b *builder) finishSwitch(node *ir.Switch, s ast.Stmt, pre map[types.Object]*ir.Var, start int, envs []map[types.Object]*ir.Var) {
	node.Own = snapshot(&node.Eff)
	aggregate(&node.Eff, start, node.Cases...)
	node.Eff.Exits = node.Eff.Exits || b.exits(s)
	b.emit(node)
	if !node.Exhaustive {
		envs = append(envs, pre)
	}
	b.mergeAfter(node, b.changes(pre, start, envs...))
}

func (b *builder) typeSwitch(s *ast.TypeSwitchStmt) {
	b.stmt(s.Init)
	node := &ir.Switch{Node: s, Parent: b.cur}
	c := b.newCtx(s, &node.Eff)
	var x ast.Expr
	switch a := s.Assign.(type) {
	case *ast.ExprStmt:
		x = a.X.(*ast.TypeAssertExpr).X
	case *ast.AssignStmt:
		x = a.Rhs[0].(*ast.TypeAssertExpr).X
	}
	c.prepare(x)
	c.expr(x, "")
	srcs, unknown := b.sources(x)
	start := len(b.fn.Vars)
	pre := b.env
	var envs []map[types.Object]*ir.Var
	for _, cl := range s.Body.List {
		cc := cl.(*ast.CaseClause)
		if cc.List == nil {
			node.Exhaustive = true
		}
		env := pre
		if obj := b.info.Implicits[cc]; obj != nil {
			env = cloneEnv(pre)
			v := b.newVar(obj, obj.Name(), obj.Type(), node, cc.Pos())
			b.order[obj] = len(b.order)
			env[obj] = v
			b.joinAll(v, srcs, unknown)
			node.Eff.Defs = append(node.Eff.Defs, v)
		}
		blk, out := b.nested(cc.Body, node, env)
		node.Cases = append(node.Cases, blk)
		envs = append(envs, out)
	}
	b.finishSwitch(node, s, pre, start, envs)
}

func (b *builder) selectStmt(s *ast.SelectStmt) {
	node := &ir.Switch{Node: s, Parent: b.cur}
	setImpure(&node.Eff, "select statement", s.Pos())
	c := b.newCtx(s, &node.Eff)
	start := len(b.fn.Vars)
	pre := b.env
	var envs []map[types.Object]*ir.Var
	for _, cl := range s.Body.List {
		cc := cl.(*ast.CommClause)
		env := pre
		switch comm := cc.Comm.(type) {
		case nil:
			node.Exhaustive = true
		case *ast.SendStmt:
			c.expr(comm.Chan, reasonSelect)
			c.expr(comm.Value, reasonSelect)
			c.escape(comm.Value)
		case *ast.ExprStmt:
			c.expr(comm.X, reasonSelect)
		case *ast.AssignStmt:
			for _, r := range comm.Rhs {
				c.expr(r, reasonSelect)
			}
			env = cloneEnv(pre)
			for _, l := range comm.Lhs {
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok {
					c.expr(l, reasonSelect)
					var scratch ir.Effects
					sub := c.sub(&scratch, nil)
					sub.assignTo(l, comm.Rhs[0], nil)
					node.Eff.WritesGlobal = true
					for _, w := range scratch.Writes {
						addWrite(&node.Eff, w)
					}
					continue
				}
				if id.Name == "_" {
					continue
				}
				obj := b.info.ObjectOf(id)
				v := b.newVar(obj, obj.Name(), obj.Type(), node, id.Pos())
				if _, ok := b.order[obj]; !ok {
					b.order[obj] = len(b.order)
				}
				b.markGlobal(v) // received from a channel
				env[obj] = v
				node.Eff.Defs = append(node.Eff.Defs, v)
			}
			c.sh.defs = nil
		}
		blk, out := b.nested(cc.Body, node, env)
		node.Cases = append(node.Cases, blk)
		envs = append(envs, out)
	}
	b.finishSwitch(node, s, pre, start, envs)
}

// closure builds a function literal that is not a SOAC's lambda as a
// Closure statement, emitted now, before the statement holding it.
func (c *ectx) closure(lit *ast.FuncLit) {
	b := c.b
	node := &ir.Closure{Lit: lit, Parent: b.cur}
	caps := b.capturedObjs(lit)
	pre := b.env
	for _, obj := range caps {
		v := b.lookup(obj)
		addUse(&node.Eff, v)
		addUse(c.eff, v)
	}
	start := len(b.fn.Vars)
	savedCur := b.cur
	b.env = cloneEnv(pre)
	blk := &ir.Block{Parent: node}
	b.cur = blk
	// The body runs at any later time: a captured variable that can
	// change has an unknown value there.
	for _, obj := range caps {
		if b.sc.defs[obj] > 1 || b.sc.escaped[obj] || isPackageLevel(obj) {
			v := b.define(obj, node, lit.Pos())
			b.joinRef(v, pre[obj])
			node.Eff.Defs = append(node.Eff.Defs, v)
		}
	}
	node.Eff.Defs = append(node.Eff.Defs, b.funcParams(lit.Type, node)...)
	entry := cloneEnv(b.env)
	leave := b.enterLit(lit)
	b.stmtList(lit.Body.List)
	leave()
	node.Body = blk
	post := b.env
	b.env, b.cur = pre, savedCur
	aggregate(&node.Eff, start, blk)
	b.emit(node)
	ms := b.changes(entry, start, post)
	for i := range ms {
		ms[i].pre = pre[ms[i].obj]
	}
	b.mergeAfter(node, ms)
}

// exits reports whether control may leave s other than by falling through:
// a return, a goto, a break or continue to a statement enclosing s, a call
// of panic or of a function that never returns. Function literals are not
// entered.
func (b *builder) exits(s ast.Stmt) bool {
	found := false
	var inner []ast.Stmt // breakable statements inside s, innermost last
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		case *ast.BranchStmt:
			switch n.Tok {
			case token.GOTO:
				found = true
			case token.BREAK, token.CONTINUE:
				if n.Label != nil {
					if l, ok := b.info.Uses[n.Label].(*types.Label); !ok || !within(l.Pos(), s) && b.labels[s] != l {
						found = true
					}
					break
				}
				ok := false
				for _, st := range inner {
					switch st.(type) {
					case *ast.ForStmt, *ast.RangeStmt:
						ok = true
					case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
						ok = ok || n.Tok == token.BREAK
					}
				}
				if !ok {
					found = true
				}
			}
		case *ast.CallExpr:
			if b.builtin(n) == "panic" {
				found = true
			} else if b.builtin(n) == "" && b.soacName(n) == "" {
				if tv, ok := b.info.Types[n.Fun]; !ok || !tv.IsType() {
					if b.pur.Call(n).NoReturn {
						found = true
					}
				}
			}
		case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			inner = append(inner, n.(ast.Stmt))
			ast.Inspect(n, func(m ast.Node) bool {
				if m == n {
					return true
				}
				return visit(m)
			})
			inner = inner[:len(inner)-1]
			return false
		}
		return true
	}
	ast.Inspect(s, visit)
	return found
}
