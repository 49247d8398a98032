package fusion

// This file finds the consumers a producer reaches only through a write:
// ys := Map(xs, f); p := &ys; (*p)[0] = 7; Reduce(ys, ...). The IR gives
// the written array a new Var (ys#2), so the graph has no array-flow edge
// from the Map to the Reduce, yet in the source the Reduce consumes the
// Map's output and the two are not fused because of the write. The driver
// notes each such edge (write-between), so that every producer-consumer
// edge it does not fuse has a note. It does not decide any fusion.

import (
	"fmt"
	"go/ast"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// DerivedByWrites reports whether v is x, or a later version of x's Go
// variable that writes derived from x: each version in between is defined
// by a non-SOAC statement that reads the previous one (a write through an
// alias, which the IR models as a new definition of the variable), not by
// an assignment of another value.
func DerivedByWrites(v, x *ir.Var) bool {
	for seen := 0; v != nil && seen < 1000; seen++ { // bounded: versions form a chain
		if v == x {
			return true
		}
		if x.Obj == nil || v.Obj != x.Obj || v.Def == nil {
			return false
		}
		if _, isSOAC := v.Def.(*ir.SOAC); isSOAC {
			return false
		}
		var prev *ir.Var
		for _, u := range v.Def.Effects().Uses {
			if u.Obj == v.Obj && u != v {
				prev = u
			}
		}
		v = prev
	}
	return false
}

// noteWrittenConsumers records a write-between note for each SOAC that
// reads a version of P's output x derived from it by writes (not x
// itself): the write sits between producer and consumer, so they are
// never fused.
func (st *state) noteWrittenConsumers(P *ir.SOAC, x *ir.Var) {
	if x.Obj == nil {
		return
	}
	for _, c := range st.g.SOACs {
		if c == P {
			continue
		}
		for _, v := range c.Inputs() {
			if v == x || !DerivedByWrites(v, x) {
				continue
			}
			st.refuse(P, x, st.mergedRefusal(x, v, c))
			break
		}
	}
}

// mergedRefusal says why P's output x is not fused into consumer c,
// which reads v, a later version of x's variable: a loop that assigns the
// variable again defines v as the merge of its values (the consumer reads
// x in the first iteration only), else a write through an alias, in the
// loop or elsewhere, defines it.
func (st *state) mergedRefusal(x, v *ir.Var, c *ir.SOAC) *Refusal {
	for w := v; w != nil && w != x; {
		if l, ok := w.Def.(*ir.Loop); ok && st.assignsAgain(l, x) {
			return &Refusal{Rule: RefLoopBoundary, Pos: l.Pos(), Consumer: c, Var: x,
				Reason: fmt.Sprintf("the loop at %s assigns %s again: %s reads its value before the loop in the first iteration only, and the value the iteration before left in the others", st.p.at(l.Pos()), x.Name, st.p.soac(c))}
		}
		var prev *ir.Var
		for _, u := range w.Def.Effects().Uses {
			if u.Obj == w.Obj && u != w {
				prev = u
			}
		}
		w = prev
	}
	return &Refusal{Rule: RefWriteBetween, Pos: v.Def.Pos(), Consumer: c, Var: x,
		Reason: fmt.Sprintf("%s is written at %s before %s reads it, so %s must be complete before the write", x.Name, st.p.at(v.Def.Pos()), st.p.soac(c), x.Name)}
}

// assignsAgain reports whether the body of loop l gives x's Go variable
// another value: a SOAC's result, or an assignment naming it.
func (st *state) assignsAgain(l *ir.Loop, x *ir.Var) bool {
	found := false
	ir.Walk(l.Body, func(s ir.Stmt) bool {
		switch s := s.(type) {
		case *ir.SOAC:
			if s.Out != nil && s.Out.Obj == x.Obj {
				found = true
			}
		case *ir.Plain:
			if as, ok := s.Node.(*ast.AssignStmt); ok && s.Hoisted == nil && st.fn.Info != nil {
				for _, l := range as.Lhs {
					if id, ok := ast.Unparen(l).(*ast.Ident); ok && st.fn.Info.ObjectOf(id) == x.Obj {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}
