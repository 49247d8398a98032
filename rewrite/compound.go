package rewrite

// This file generates the spec's compound statements (if, switch, type
// switch, select, for, range) whose parts hold SOAC calls or kernels:
// inits hoisted into a block before the statement and declared again by
// its header, and each branch's statements generated in turn. It does not
// generate simple statements (body.go) nor kernels (kernel.go).

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// compound generates an if, switch, select or loop.
func (f *fgen) compound(c *code, s ast.Stmt, items []ir.Stmt, ret *retCtx, label string) error {
	var node ir.Stmt
	var init ast.Stmt
	switch s := s.(type) {
	case *ast.IfStmt:
		init = s.Init
	case *ast.SwitchStmt:
		init = s.Init
	case *ast.TypeSwitchStmt:
		init = s.Init
	case *ast.ForStmt:
		init = s.Init
	}
	var pre, initItems []ir.Stmt
	for _, it := range items {
		switch {
		case it.Pos() == s.Pos() && isNode(it, s):
			node = it
		case init != nil && init.Pos() <= it.Pos() && it.Pos() < init.End():
			initItems = append(initItems, it)
		default:
			pre = append(pre, it)
		}
	}
	if node == nil {
		return fmt.Errorf("internal error: no IR for the statement at %s", f.fset.Position(s.Pos()))
	}
	// The init stays in the header when it is plain code; otherwise it is
	// generated before the statement, inside a block that keeps its scope,
	// and the variables it declares are declared again by the header from
	// the block's (redecl): a for loop's body then gets a fresh copy of
	// them each iteration, as Go 1.22 gives the spec's loop, and an if or
	// switch declares them in its own scope, as the spec's does.
	initInHeader := init != nil && len(initItems) == 0
	if init != nil && len(initItems) == 1 && isFinal(initItems[0], init) {
		initInHeader = true
	}
	wrap := init != nil && !initInHeader
	var redecl *code
	if wrap {
		c.p("{\n")
		if err := f.stmt(c, init, initItems, ret, ""); err != nil {
			return err
		}
		redecl = f.redeclare(init)
	}
	headerInit := func(h *code) bool {
		switch {
		case initInHeader:
			h.add(f.sub(init, f.newSubst(initItems)))
		case redecl != nil:
			h.add(redecl)
		default:
			return false
		}
		return true
	}
	sb := f.newSubst(pre)
	saved := f.cur
	f.cur = sb
	defer func() { f.cur = saved }()
	for _, it := range pre {
		switch it := it.(type) {
		case *ir.Plain:
			f.hoist(c, it, sb)
		case *ir.SOAC:
			if err := f.soacStmt(c, it); err != nil {
				return err
			}
		}
	}
	if label != "" {
		c.p(label + ":\n")
	}
	header := func(open token.Pos) *code {
		h := new(code)
		switch s := s.(type) {
		case *ast.IfStmt:
			h.p("if ")
			if headerInit(h) {
				h.p("; ")
			}
			h.add(f.sub(s.Cond, sb))
		case *ast.SwitchStmt:
			h.p("switch ")
			if headerInit(h) {
				h.p("; ")
			}
			if s.Tag != nil {
				h.add(f.sub(s.Tag, sb))
			}
		case *ast.TypeSwitchStmt:
			h.p("switch ")
			if headerInit(h) {
				h.p("; ")
			}
			h.add(f.sub(s.Assign, sb))
		case *ast.SelectStmt:
			h.p("select")
		case *ast.ForStmt:
			h.p("for ")
			if ic := new(code); headerInit(ic) || s.Post != nil {
				h.add(ic).p("; ")
				if s.Cond != nil {
					h.add(f.sub(s.Cond, sb))
				}
				h.p("; ")
				if s.Post != nil {
					h.add(f.sub(s.Post, sb))
				}
			} else if s.Cond != nil {
				h.add(f.sub(s.Cond, sb))
			}
		case *ast.RangeStmt:
			h.add(f.subRange(s, s.Pos(), s.X.Pos(), sb)).add(f.sub(s.X, sb))
		}
		return h
	}
	switch s := s.(type) {
	case *ast.IfStmt:
		n := node.(*ir.If)
		if err := f.ifChain(c, s, n, header(0), sb, ret); err != nil {
			return err
		}
	case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		n := node.(*ir.Switch)
		c.add(header(0)).p(" {\n")
		var clauses []ast.Stmt
		switch s := s.(type) {
		case *ast.SwitchStmt:
			clauses = s.Body.List
		case *ast.TypeSwitchStmt:
			clauses = s.Body.List
		case *ast.SelectStmt:
			clauses = s.Body.List
		}
		for i, cl := range clauses {
			var body []ast.Stmt
			switch cl := cl.(type) {
			case *ast.CaseClause:
				if cl.List == nil {
					c.p("default:\n")
				} else {
					c.p("case ").add(f.subRange(cl, cl.List[0].Pos(), cl.Colon, sb)).p(":\n")
				}
				body = cl.Body
			case *ast.CommClause:
				if cl.Comm == nil {
					c.p("default:\n")
				} else {
					c.p("case ").add(f.sub(cl.Comm, sb)).p(":\n")
				}
				body = cl.Body
			}
			inner, err := f.stmts(body, n.Cases[i].Stmts, ret)
			if err != nil {
				return err
			}
			c.add(inner)
		}
		c.p("}\n")
	case *ast.ForStmt, *ast.RangeStmt:
		n := node.(*ir.Loop)
		var list []ast.Stmt
		if fs, ok := s.(*ast.ForStmt); ok {
			list = fs.Body.List
		} else {
			list = s.(*ast.RangeStmt).Body.List
		}
		inner, err := f.stmts(list, n.Body.Stmts, ret)
		if err != nil {
			return err
		}
		if rs, ok := s.(*ast.RangeStmt); ok && f.chunkLoops[rs] != nil {
			if !f.rangeHeader(c, rs, f.chunkLoops[rs]) {
				return fmt.Errorf("internal error: chunk loop at %s", f.fset.Position(rs.Pos()))
			}
			c.add(inner).p("}\n")
			break
		}
		c.add(header(0)).p(" {\n").add(inner).p("}\n")
	}
	if wrap {
		c.p("}\n")
	}
	return f.err
}

// redeclare returns the init of a compound statement, generated before
// it, as the header's init: "a, b := a, b" for the variables a short
// variable declaration declares (each now a variable of the wrapping
// block), nil when it declares none.
func (f *fgen) redeclare(init ast.Stmt) *code {
	as, ok := init.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE {
		return nil
	}
	var names []string
	for _, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name != "_" && f.info.Defs[id] != nil {
			names = append(names, f.localName(id))
		}
	}
	if len(names) == 0 {
		return nil
	}
	list := strings.Join(names, ", ")
	return txtf("%s := %s", list, list)
}

// ifChain generates an if statement with its else branches.
func (f *fgen) ifChain(c *code, s *ast.IfStmt, n *ir.If, header *code, sb *subst, ret *retCtx) error {
	then, err := f.stmts(s.Body.List, n.Then.Stmts, ret)
	if err != nil {
		return err
	}
	c.add(header).p(" {\n").add(then).p("}")
	switch e := s.Else.(type) {
	case *ast.BlockStmt:
		els, err := f.stmts(e.List, n.Else.Stmts, ret)
		if err != nil {
			return err
		}
		c.p(" else {\n").add(els).p("}")
	case *ast.IfStmt:
		els, err := f.stmts([]ast.Stmt{e}, n.Else.Stmts, ret)
		if err != nil {
			return err
		}
		if t := strings.TrimSpace(els.String()); strings.HasPrefix(t, "if ") && len(n.Else.Stmts) == 1 {
			c.p(" else ").add(els)
			return nil
		}
		c.p(" else {\n").add(els).p("}")
	}
	c.p("\n")
	return nil
}

// isNode reports whether IR statement it is the compound statement s.
func isNode(it ir.Stmt, s ast.Stmt) bool {
	switch it := it.(type) {
	case *ir.If:
		return ast.Stmt(it.Node) == s
	case *ir.Switch:
		return it.Node == s
	case *ir.Loop:
		return it.Node == s
	}
	return false
}
