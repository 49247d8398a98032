package hostgo

// This file generates the spec's compound statements (if, switch, type
// switch, select, for, range) whose parts hold SOAC calls or kernels:
// inits hoisted into a block before the statement and declared again by
// its header, and each branch's statements generated in turn. It does not
// generate simple statements (body.go) nor kernels (kernel.go).

import (
	"fmt"
	"go/ast"
	"go/token"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// compound generates an if, switch, select or loop.
func (f *Func) compound(c *Stmts, s ast.Stmt, items []ir.Stmt, ret *retCtx, label string) error {
	init, node, initItems, pre := compoundParts(s, items)
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
	var redecl *jen.Statement
	if wrap {
		// The statement goes into a block of its own, which outer is
		// then given.
		outer := c
		c = new(Stmts)
		defer func() { outer.Add(Block(*c)) }()
		if err := f.stmt(c, init, initItems, ret, ""); err != nil {
			return err
		}
		redecl = f.redeclare(init)
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
		c.Add(labelStmt(label))
	}
	h := &compoundHeader{f: f, s: s, sb: sb, init: init, initItems: initItems, initInHeader: initInHeader, redecl: redecl}
	switch s := s.(type) {
	case *ast.IfStmt:
		st, err := f.ifChain(s, node.(*ir.If), h.header(), ret)
		if err != nil {
			return err
		}
		c.Add(st)
	case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		body, err := f.switchClauses(s, node.(*ir.Switch), sb, ret)
		if err != nil {
			return err
		}
		c.Add(h.header().Add(Block(body)))
	case *ast.ForStmt, *ast.RangeStmt:
		loop, err := f.loopStmt(s, node.(*ir.Loop), h, ret)
		if err != nil {
			return err
		}
		c.Add(loop)
	}
	return f.err
}

// compoundParts returns the init of compound statement s (nil when it
// has none) and sorts s's IR statements items: node, the statement
// itself (nil when none is), those of its init, and those evaluated
// before it (pre).
func compoundParts(s ast.Stmt, items []ir.Stmt) (init ast.Stmt, node ir.Stmt, initItems, pre []ir.Stmt) {
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
	return init, node, initItems, pre
}

// compoundHeader is the header of compound statement s, built where the
// statement is generated, after its parts (header): its init is the
// spec's (initInHeader: plain code, copied with initItems) or redecl (the
// variables of an init generated before the statement declared again),
// and its other parts are copied with sb, the statement's substitution.
type compoundHeader struct {
	f            *Func
	s            ast.Stmt
	sb           *subst
	init         ast.Stmt
	initItems    []ir.Stmt
	initInHeader bool
	redecl       *jen.Statement
}

// headerInit returns the init of the statement's header, or nil.
func (h *compoundHeader) headerInit() *jen.Statement {
	switch {
	case h.initInHeader:
		return h.f.sub(h.init, h.f.newSubst(h.initItems))
	case h.redecl != nil:
		return h.redecl
	}
	return nil
}

// clauses returns the header's clauses: the init (when there is one) and
// then the others.
func (h *compoundHeader) clauses(others ...jen.Code) []jen.Code {
	if init := h.headerInit(); init != nil {
		return append([]jen.Code{init}, others...)
	}
	return others
}

// optional returns the copy of a header part, or an empty clause.
func (h *compoundHeader) optional(e ast.Node) *jen.Statement {
	if e == nil {
		return jen.Empty()
	}
	return h.f.sub(e, h.sb)
}

// header returns the statement's header: "if init; cond", "for init;
// cond; post", "switch init; tag", ..., "for k, v := range x".
func (h *compoundHeader) header() *jen.Statement {
	f, sb := h.f, h.sb
	switch s := h.s.(type) {
	case *ast.IfStmt:
		return jen.If(h.clauses(f.sub(s.Cond, sb))...)
	case *ast.SwitchStmt:
		return jen.Switch(h.clauses(h.optional(s.Tag))...)
	case *ast.TypeSwitchStmt:
		return jen.Switch(h.clauses(f.sub(s.Assign, sb))...)
	case *ast.SelectStmt:
		return jen.Select()
	case *ast.ForStmt:
		init := h.headerInit()
		if init == nil && s.Post == nil {
			return jen.For(h.optional(s.Cond))
		}
		if init == nil {
			init = jen.Empty()
		}
		post := jen.Empty()
		if s.Post != nil {
			post = f.sub(s.Post, sb)
		}
		return jen.For(init, h.optional(s.Cond), post)
	case *ast.RangeStmt:
		return f.subRange(s, s.Pos(), s.X.Pos(), sb).Add(f.sub(s.X, sb))
	}
	return nil
}

// switchClauses generates the body of a switch, type switch or select s
// whose IR is n: each clause's case (copied with sb) and statements.
func (f *Func) switchClauses(s ast.Stmt, n *ir.Switch, sb *subst, ret *retCtx) (Stmts, error) {
	var body Stmts
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
		var list []ast.Stmt
		switch cl := cl.(type) {
		case *ast.CaseClause:
			if cl.List == nil {
				body.Add(jen.Default())
			} else {
				body.Add(jen.Case(f.subRange(cl, cl.List[0].Pos(), cl.Colon, sb)))
			}
			list = cl.Body
		case *ast.CommClause:
			if cl.Comm == nil {
				body.Add(jen.Default())
			} else {
				body.Add(jen.Case(f.sub(cl.Comm, sb)))
			}
			list = cl.Body
		}
		inner, err := f.stmts(list, n.Cases[i].Stmts, ret)
		if err != nil {
			return nil, err
		}
		body.Add(inner...)
	}
	return body, nil
}

// loopStmt generates a for or range statement s whose IR is n: its body,
// under h's header, or, for a range loop over a chunk, the loop over the
// chunk's input indices (chunkloop.go).
func (f *Func) loopStmt(s ast.Stmt, n *ir.Loop, h *compoundHeader, ret *retCtx) (*jen.Statement, error) {
	var list []ast.Stmt
	if fs, ok := s.(*ast.ForStmt); ok {
		list = fs.Body.List
	} else {
		list = s.(*ast.RangeStmt).Body.List
	}
	inner, err := f.stmts(list, n.Body.Stmts, ret)
	if err != nil {
		return nil, err
	}
	if rs, ok := s.(*ast.RangeStmt); ok && f.chunkLoops[rs] != nil {
		loop, ok := f.rangeLoop(rs, f.chunkLoops[rs], inner)
		if !ok {
			return nil, fmt.Errorf("internal error: chunk loop at %s", f.fset.Position(rs.Pos()))
		}
		return loop, nil
	}
	return h.header().Add(Block(inner)), nil
}

// redeclare returns the init of a compound statement, generated before
// it, as the header's init: "a, b := a, b" for the variables a short
// variable declaration declares (each now a variable of the wrapping
// block), nil when it declares none.
func (f *Func) redeclare(init ast.Stmt) *jen.Statement {
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
	return jen.List(Ids(names...)...).Op(":=").List(Ids(names...)...)
}

// ifChain generates an if statement with its else branches.
func (f *Func) ifChain(s *ast.IfStmt, n *ir.If, header *jen.Statement, ret *retCtx) (*jen.Statement, error) {
	then, err := f.stmts(s.Body.List, n.Then.Stmts, ret)
	if err != nil {
		return nil, err
	}
	c := header.Add(Block(then))
	switch e := s.Else.(type) {
	case *ast.BlockStmt:
		els, err := f.stmts(e.List, n.Else.Stmts, ret)
		if err != nil {
			return nil, err
		}
		c.Else().Add(Block(els))
	case *ast.IfStmt:
		els, err := f.stmts([]ast.Stmt{e}, n.Else.Stmts, ret)
		if err != nil {
			return nil, err
		}
		if len(els) == 1 && len(n.Else.Stmts) == 1 {
			// The else branch is the if statement alone (its IR is
			// the If, with nothing evaluated before it): else if.
			c.Else().Add(els[0])
			break
		}
		c.Else().Add(Block(els))
	}
	return c, nil
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
