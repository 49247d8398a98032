package hostgo

// This file generates what a placed kernel needs (the fusion engine ran
// it at an earlier member than its last, fusion's place.go; the lowered
// kernel's Later lists the members written after it): their operands are
// evaluated where the kernel runs, their results computed there into
// temporaries, and their own statements assign those temporaries to the
// variables the spec assigns.
//
// It does NOT decide where a kernel runs (the engine does, and checks
// that the members commute with every statement they move past) nor
// render kernels (the backends).

import (
	"slices"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// evalLater evaluates, where s is written, the operands of the members
// of the kernels running at s that are written after s.
func (f *Func) evalLater(c *Stmts, s *ir.SOAC) {
	for _, k := range sortedKernels(f.atK[s]) {
		for _, m := range f.low.Of[k].Later {
			if !f.direct(m) {
				f.evalOperands(c, m)
			}
		}
	}
}

// laterOutput declares a temporary for output v of kernel k when the
// member computing it is written after k's position, and reports whether
// it did: the kernel assigns the temporary, and the member's statement
// assigns it to the spec's variable (assignLater, unbind).
func (f *Func) laterOutput(c *Stmts, k *lowered.PlanKernel, v *ir.Var) bool {
	d, ok := v.Def.(*ir.SOAC)
	if !ok || !slices.Contains(f.low.Of[k].Later, d) {
		return false
	}
	if f.later == nil {
		f.later = map[*ir.Var]string{}
	}
	f.later[v] = f.Name(v) // the spec's name, assigned where d is written
	t := f.Fresh("t")
	c.Add(VarDecl(t, f.Type(v.Type), nil))
	f.names[v] = t
	if f.cur != nil {
		if _, ok := f.cur.calls[d.Source()]; ok {
			f.cur.calls[d.Source()] = Id(t)
		}
	}
	return true
}

// assignLater assigns, where member s is written, the temporary its
// kernel computed it into to the spec's variable, when s's statement is
// the assignment itself (no other expression evaluates it).
func (f *Func) assignLater(c *Stmts, s *ir.SOAC) {
	if s.Out == nil || s.Out.Obj == nil {
		return
	}
	if n, ok := f.later[s.Out]; ok {
		// Kernels after this read the temporary: the variable may have no
		// other reader.
		c.Add(AssignTo(n, Id(f.Name(s.Out))), AssignTo("_", Id(n)))
	}
}
