package hostgo

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// readByName reports whether the generated code may read the variable obj
// by its name: a statement that is not a SOAC names it other than as the
// variable an assignment sets, or a SOAC reads it as a scalar operand or
// as an input its kernel does not produce. The spec's code is copied
// into the generated code, except the SOAC calls, whose inputs fusion may
// replace: a consumer fused with its producer reads the producer's value,
// an index read in its lambda the producer's element (fusion.Gather),
// not the variable. Where every read is one fusion replaced, the variable
// is declared and assigned but never read, which Go rejects ("declared
// and not used"): its declaration is then followed by `_ = x`. Where
// unsure, the answer is false: one `_ = x` too many is harmless, one too
// few does not compile.
func (f *Func) readByName(obj types.Object) bool {
	calls := map[*ast.CallExpr]bool{}
	ir.Walk(f.fn.Body, func(s ir.Stmt) bool {
		if s, ok := s.(*ir.SOAC); ok {
			calls[s.Call] = true
		}
		return true
	})
	found := false
	var walk func(b *ir.Block, gathered map[types.Object]bool)
	walk = func(b *ir.Block, gathered map[types.Object]bool) {
		if b == nil || found || gathered[obj] {
			return
		}
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *ir.Plain:
				var node ast.Node = s.Node
				if s.Hoisted != nil {
					node = s.Hoisted
				}
				found = found || f.namesVar(node, obj, calls)
			case *ir.SOAC:
				produced, inner := f.fusedReads(s, gathered)
				for _, v := range s.Inputs() {
					if v.Obj == obj && !produced[v] {
						found = true
					}
				}
				for _, o := range s.Operands() {
					for _, v := range o.Uses {
						if v.Obj == obj {
							found = true
						}
					}
				}
				for _, l := range s.Lambdas() {
					if l.Expr != nil && l.Kind != ir.FuncLit {
						// A function value: its variable is read where it
						// is not inlined, and marked used where it is.
						found = found || f.namesVar(l.Expr, obj, calls)
					}
					walk(l.Body, inner)
				}
			default:
				for _, n := range header(s) {
					found = found || f.namesVar(n, obj, calls)
				}
				for _, nb := range ir.Children(s) {
					walk(nb, gathered)
				}
			}
		}
	}
	walk(f.fn.Body, nil)
	return found
}

// namesVar reports whether node names obj other than as the variable an
// assignment or increment sets, outside the SOAC calls in calls.
func (f *Func) namesVar(node ast.Node, obj types.Object, calls map[*ast.CallExpr]bool) bool {
	found := false
	var inspect func(n ast.Node) bool
	inspect = func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			return !calls[n]
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if _, ok := l.(*ast.Ident); !ok || n.Tok == token.DEFINE {
					ast.Inspect(l, inspect)
				}
			}
			for _, r := range n.Rhs {
				ast.Inspect(r, inspect)
			}
			return false
		case *ast.IncDecStmt:
			if _, ok := n.X.(*ast.Ident); ok {
				return false
			}
		case *ast.Ident:
			if f.info.Uses[n] == obj {
				found = true
			}
		}
		return true
	}
	ast.Inspect(node, inspect)
	return found
}

// fusedReads returns the inputs of SOAC s that a member of one of its
// kernels produces (the generated code reads the member's value), and
// gathered extended with the arrays its kernels read at the index in its
// lambdas (the generated code reads the producer's element).
func (f *Func) fusedReads(s *ir.SOAC, gathered map[types.Object]bool) (produced map[*ir.Var]bool, inner map[types.Object]bool) {
	produced = map[*ir.Var]bool{}
	inner = map[types.Object]bool{}
	for o := range gathered {
		inner[o] = true
	}
	for _, k := range f.kOf[s] {
		for _, m := range k.SOACs {
			if m != s {
				produced[m.Out] = true
			}
		}
		for _, g := range k.Gathers {
			if g.SOAC == s && g.Var.Obj != nil {
				inner[g.Var.Obj] = true
			}
		}
	}
	return produced, inner
}

// header returns the parts of compound statement s that are not its
// blocks: an if's condition, a loop's condition and post statement or
// range expression, a switch's tag and case expressions (an init
// statement is a statement of the block before s).
func header(s ir.Stmt) []ast.Node {
	var ns []ast.Node
	add := func(e ast.Node) {
		if e != nil && !reflect.ValueOf(e).IsNil() {
			ns = append(ns, e)
		}
	}
	switch s := s.(type) {
	case *ir.If:
		add(s.Node.Cond)
	case *ir.Loop:
		switch n := s.Node.(type) {
		case *ast.ForStmt:
			add(n.Cond)
			add(n.Post)
		case *ast.RangeStmt:
			add(n.X)
		}
	case *ir.Switch:
		var body *ast.BlockStmt
		switch n := s.Node.(type) {
		case *ast.SwitchStmt:
			add(n.Tag)
			body = n.Body
		case *ast.TypeSwitchStmt:
			add(n.Assign)
			body = n.Body
		}
		if body != nil {
			for _, c := range body.List {
				if cc, ok := c.(*ast.CaseClause); ok {
					for _, e := range cc.List {
						add(e)
					}
				}
			}
		}
	}
	return ns
}
