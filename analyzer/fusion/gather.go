package fusion

// This file finds index reads (Futhark's "ys[i] over iota"):
// a Map or Filter whose function literal reads a captured array ys only
// as ys[p], p the parameter bound to the element of an Iota input, with
// len(ys) provably the Iota's length. Such a read is the element of ys
// at the iteration index, so ys flows into the consumer as if it were an
// element-wise input: the graph records it as an ArrayFlow use (and drops
// the reads inside the literal), and ys's producer may fuse into the
// consumer by the rule table (tag TagIndexRead). The generated loop puts
// the producer's element where each ys[p] is; the reference calls still
// compute ys and pass the literal that reads it.
//
// It does NOT decide moves; it only says which reads are index reads.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// Gather is an index read: the function literal Lambda of consumer SOAC
// reads captured array Var only as Var[p], p its parameter number Param,
// bound to the element of an Iota input of the same length as Var.
type Gather struct {
	SOAC   *ir.SOAC
	Lambda *ir.Lambda
	Var    *ir.Var
	Param  int
	// Reads are the index expressions Var[p], in source order.
	Reads []*ast.IndexExpr
}

// indexReads returns the index reads of every SOAC of fn, by consumer.
func indexReads(fn *ir.Function, sp *spaces, soacs []*ir.SOAC) map[*ir.SOAC][]Gather {
	out := map[*ir.SOAC][]Gather{}
	for _, s := range soacs {
		var l *ir.Lambda
		switch op := s.Op.(type) {
		case *ir.Screma:
			if op.Scan == nil && op.Reduce == nil {
				l = op.Map
			}
		case *ir.Filter:
			l = op.Pred
		}
		if l == nil || l.Kind != ir.FuncLit || l.Lit == nil || l.Body == nil || fn.Info == nil {
			continue
		}
		for j, in := range s.Inputs() {
			gen, ok := in.Def.(*ir.SOAC)
			if !ok || gen.Out != in {
				continue
			}
			if _, isIota := gen.Op.(*ir.Iota); !isIota {
				continue
			}
			p := paramObj(fn.Info, l.Lit, j)
			if p == nil || assigned(fn.Info, l.Lit.Body, p) {
				continue
			}
			for _, v := range l.Free {
				if v.Obj == nil || v.Global || !assignedOnce(fn, v) || slices.ContainsFunc(out[s], func(g Gather) bool { return g.Var == v }) {
					continue
				}
				if _, isSlice := v.Type.Underlying().(*types.Slice); !isSlice {
					continue
				}
				prod, ok := v.Def.(*ir.SOAC)
				if !ok || prod.Out != v || prod == s || sp.ofVar(v) != sp.ofVar(in) {
					continue
				}
				if reads := onlyIndexed(fn.Info, l.Lit.Body, v.Obj, p); reads != nil {
					out[s] = append(out[s], Gather{SOAC: s, Lambda: l, Var: v, Param: j, Reads: reads})
				}
			}
		}
	}
	return out
}

// assignedOnce reports whether v's Go variable has no other Var: it is
// never reassigned, so no copy of it (Kernel.Copies) or later version
// stands for the array the kernel computes.
func assignedOnce(fn *ir.Function, v *ir.Var) bool {
	for _, w := range fn.Vars {
		if w != nil && w != v && w.Obj == v.Obj {
			return false
		}
	}
	return true
}

// paramObj returns the object of parameter j of lit, or nil when it is
// unnamed or blank.
func paramObj(info *types.Info, lit *ast.FuncLit, j int) types.Object {
	i := 0
	for _, f := range lit.Type.Params.List {
		if len(f.Names) == 0 {
			i++
			continue
		}
		for _, id := range f.Names {
			if i == j {
				if id.Name == "_" {
					return nil
				}
				return info.Defs[id]
			}
			i++
		}
	}
	return nil
}

// assigned reports whether body assigns obj, increments it or takes its
// address: then obj is not the iteration index everywhere.
func assigned(info *types.Info, body ast.Node, obj types.Object) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == obj
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			found = found || slices.ContainsFunc(n.Lhs, is)
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && is(n.X)
		case *ast.RangeStmt:
			found = found || n.Key != nil && is(n.Key) || n.Value != nil && is(n.Value)
		}
		return !found
	})
	return found
}

// onlyIndexed returns the expressions ys[p] of body when every mention of
// ys (object ys) is such a read, none is written, address-taken or inside
// a nested function literal; nil otherwise.
func onlyIndexed(info *types.Info, body ast.Node, ys, p types.Object) []*ast.IndexExpr {
	refers := func(e ast.Expr, obj types.Object) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == obj
	}
	var reads []*ast.IndexExpr
	ok := true
	ok2 := map[*ast.Ident]bool{} // the ys identifiers of accepted reads
	written := map[ast.Expr]bool{}
	var walk func(n ast.Node, inLit bool) bool
	walk = func(n ast.Node, inLit bool) bool {
		ast.Inspect(n, func(n ast.Node) bool {
			if !ok {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				walk(n.Body, true)
				return false
			case *ast.AssignStmt:
				for _, e := range n.Lhs {
					written[ast.Unparen(e)] = true
				}
			case *ast.IncDecStmt:
				written[ast.Unparen(n.X)] = true
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					written[ast.Unparen(n.X)] = true
				}
			case *ast.IndexExpr:
				if refers(n.X, ys) {
					if inLit || written[n] || !refers(n.Index, p) {
						ok = false
						return false
					}
					reads = append(reads, n)
					ok2[ast.Unparen(n.X).(*ast.Ident)] = true
				}
			case *ast.Ident:
				if info.Uses[n] == ys && !ok2[n] {
					ok = false
				}
			}
			return true
		})
		return ok
	}
	walk(body, false)
	if !ok || len(reads) == 0 {
		return nil
	}
	return reads
}

// gatherUses drops from g.Uses the reads of each index-read array inside
// its consumer's literal and records the consumer's ArrayFlow use.
func (g *Graph) gatherUses() {
	for s, gs := range g.Gathers {
		for _, gt := range gs {
			var keep []Use
			for _, u := range g.Uses[gt.Var] {
				if u.Stmt != ir.Stmt(s) && insideLambda(u.Stmt, gt.Lambda) {
					continue
				}
				keep = append(keep, u)
			}
			g.Uses[gt.Var] = keep
			g.addUse(gt.Var, Use{s, ArrayFlow, s.Pos()})
		}
	}
}

// insideLambda reports whether statement s lies in the body of l.
func insideLambda(s ir.Stmt, l *ir.Lambda) bool {
	for s != nil {
		b := s.Block()
		if b == nil {
			return false
		}
		if b == l.Body {
			return true
		}
		s = b.Parent
	}
	return false
}

// FlowInputs returns the arrays s reads element by element: its inputs,
// then its index-read arrays.
func (g *Graph) FlowInputs(s *ir.SOAC) []*ir.Var {
	in := s.Inputs()
	if gs := g.Gathers[s]; len(gs) > 0 {
		in = slices.Clone(in)
		for _, gt := range gs {
			in = append(in, gt.Var)
		}
	}
	return in
}
