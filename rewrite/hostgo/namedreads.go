package hostgo

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// readByName reports whether the generated code may read the variable obj
// by its name: a statement that is not a SOAC names it other than as the
// variable an assignment sets, or a SOAC reads it as a scalar operand or
// as an input its kernel does not produce. The spec's code is copied
// into the generated code, except the SOAC calls, whose inputs fusion may
// replace: a consumer fused with its producer reads the producer's value,
// an index read in its lambda the producer's element (lowered.Gather),
// not the variable. Where every read is one fusion replaced, the variable
// is declared and assigned but never read, which Go rejects ("declared
// and not used"): its declaration is then followed by `_ = x`. Where
// unsure, the answer is false: one `_ = x` too many is harmless, one too
// few does not compile. The objects are collected once per spec.
func (f *Func) readByName(obj types.Object) bool {
	if obj == nil {
		return true // not a variable this statement declares (x, y := ... of a declared y)
	}
	if f.readNames == nil {
		f.readNames = f.namedReads()
	}
	return f.readNames[obj]
}

// namedReads returns the objects readByName reports as read.
func (f *Func) namedReads() map[types.Object]bool {
	calls := map[*ast.CallExpr]bool{}
	ir.Walk(f.fn.Body, func(s ir.Stmt) bool {
		if s, ok := s.(*ir.SOAC); ok {
			calls[s.Source()] = true
		}
		return true
	})
	read := map[types.Object]bool{}
	var walk func(b *ir.Block, gathered map[types.Object]bool)
	walk = func(b *ir.Block, gathered map[types.Object]bool) {
		if b == nil {
			return
		}
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *ir.Plain:
				var node ast.Node = s.Node
				if s.Hoisted != nil {
					node = s.Hoisted
				}
				f.addNames(read, node, calls, gathered)
			case *ir.SOAC:
				produced, inner := f.fusedReads(s, gathered)
				for _, v := range s.Inputs() {
					if v.Obj != nil && !produced[v] {
						read[v.Obj] = true
					}
				}
				for _, o := range s.Operands() {
					for _, v := range o.Uses {
						if v.Obj != nil {
							read[v.Obj] = true
						}
					}
				}
				for _, l := range s.Lambdas() {
					if l.Expr != nil && l.Kind != ir.FuncLit {
						// A function value: its variable is read where it
						// is not inlined, and marked used where it is.
						f.addNames(read, l.Expr, calls, nil)
					}
					walk(l.Body, inner)
				}
			default:
				for _, n := range header(s) {
					f.addNames(read, n, calls, gathered)
				}
				for _, nb := range ir.Children(s) {
					walk(nb, gathered)
				}
			}
		}
	}
	walk(f.fn.Body, nil)
	return read
}

// addNames adds to read the objects node names other than as the
// variable an assignment or increment sets, outside the SOAC calls in
// calls, except those in gathered.
func (f *Func) addNames(read map[types.Object]bool, node ast.Node, calls map[*ast.CallExpr]bool, gathered map[types.Object]bool) {
	var inspect func(n ast.Node) bool
	inspect = func(n ast.Node) bool {
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
			if o := f.info.Uses[n]; o != nil && !gathered[o] {
				read[o] = true
			}
		}
		return true
	}
	ast.Inspect(node, inspect)
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
		if e != nil {
			ns = append(ns, e)
		}
	}
	switch s := s.(type) {
	case *ir.If:
		if s.Node.Cond != nil {
			add(s.Node.Cond)
		}
	case *ir.Loop:
		switch n := s.Node.(type) {
		case *ast.ForStmt:
			if n.Cond != nil {
				add(n.Cond)
			}
			if n.Post != nil {
				add(n.Post)
			}
		case *ast.RangeStmt:
			add(n.X)
		}
	case *ir.Switch:
		switch n := s.Node.(type) {
		case *ast.SwitchStmt:
			if n.Tag != nil {
				add(n.Tag)
			}
			ns = append(ns, caseExprs(n.Body)...)
		case *ast.TypeSwitchStmt:
			add(n.Assign)
			ns = append(ns, caseExprs(n.Body)...)
		}
	}
	return ns
}

// caseExprs returns the expressions of the case clauses of a switch body.
func caseExprs(body *ast.BlockStmt) []ast.Node {
	var ns []ast.Node
	for _, c := range body.List {
		if cc, ok := c.(*ast.CaseClause); ok {
			for _, e := range cc.List {
				ns = append(ns, e)
			}
		}
	}
	return ns
}
