package hostgo

// This file renders the index reads of a kernel (lowered.PlanKernel.Gathers,
// the engine's tag index-read): in the kernel's loop the producer's
// element at the iteration index replaces each read ys[p] of the
// consumer's inlined literal; wherever the consumer is called as the spec
// calls it (Unfused: the rerun guard, length asserts, Sequence kernels,
// the reference fallback) the array is computed and the literal reads it
// under the name it has there.

import (
	"fmt"
	"go/ast"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// gathersOf returns the index reads of consumer s in its kernels.
func (f *Func) gathersOf(s *ir.SOAC) []lowered.Gather {
	var gs []lowered.Gather
	for _, k := range f.kOf[s] {
		for _, g := range k.Gathers {
			if g.SOAC == s {
				gs = append(gs, g)
			}
		}
	}
	return gs
}

// withGathers runs emit with each index read of member s in gs replaced
// by the element elem returns for its array; it returns emit's reason,
// or why the reads cannot be replaced (the lambda is called through a
// function value, whose body the loop does not see).
func (f *Func) withGathers(gs []lowered.Gather, s *ir.SOAC, elem func(*ir.Var) jen.Code, emit func() string) string {
	var set []ast.Node
	defer func() {
		for _, n := range set {
			delete(f.exprRepl, n)
		}
	}()
	for _, g := range gs {
		if g.SOAC != s {
			continue
		}
		if f.funText[g.Lambda] != nil {
			return fmt.Sprintf("the function at %s reads %s at the iteration index but is called through a function value, whose body the loop cannot give the element", f.fset.Position(g.Lambda.Expr.Pos()), g.Var.Name)
		}
		for _, r := range g.Reads {
			f.exprRepl[r] = jen.Parens(elem(g.Var))
			set = append(set, r)
		}
	}
	return emit()
}

// gatherNames makes the literal of each index read of kernel k's members
// name its array by the name names gives it (the temporaries of Unfused)
// while emit runs: for a literal bound to a function value where its SOAC
// is written (bindGathers), the variable it reads is assigned first.
func (f *Func) gatherNames(c *Stmts, k *lowered.PlanKernel, m *ir.SOAC, emit func()) {
	type prev struct {
		name string
		had  bool
	}
	saved := map[*ast.Ident]prev{}
	for _, g := range k.Gathers {
		if g.SOAC != m {
			continue
		}
		if v := f.gatherVar[gatherKey{g.Lambda, g.Var}]; v != "" {
			c.Add(AssignTo(v, Id(f.Name(g.Var))))
			continue
		}
		for _, r := range g.Reads {
			id := ast.Unparen(r.X).(*ast.Ident)
			if _, ok := saved[id]; !ok {
				n, had := f.renameIdent[id]
				saved[id] = prev{n, had}
			}
			f.renameIdent[id] = f.Name(g.Var)
		}
	}
	emit()
	for id, p := range saved {
		if p.had {
			f.renameIdent[id] = p.name
		} else {
			delete(f.renameIdent, id)
		}
	}
}

// gatherKey is an index read's literal and array.
type gatherKey struct {
	l *ir.Lambda
	v *ir.Var
}

// bindGathers declares, before literal l of SOAC s is bound to a function
// value where s is written, a variable for each array l reads at the
// iteration index, and makes the literal read it: the array is computed
// later, by the kernel's reference calls, which assign the variable.
func (f *Func) bindGathers(c *Stmts, s *ir.SOAC, l *ir.Lambda) {
	for _, g := range f.gathersOf(s) {
		key := gatherKey{g.Lambda, g.Var}
		if g.Lambda != l || f.gatherVar[key] != "" {
			continue
		}
		v := f.Fresh(g.Var.Name)
		c.Add(VarDecl(v, f.Type(g.Var.Type), nil))
		f.gatherVar[key] = v
		for _, r := range g.Reads {
			f.renameIdent[ast.Unparen(r.X).(*ast.Ident)] = v
		}
	}
}
