package lower

// This file decides whether a filter becomes a select: when the predicate
// and every lambda that reads the kept elements are pure, cannot panic and
// are cheap (speculable), they run for every element, and the predicate
// only decides what their results change: a materialised output is
// written at the kept count, which grows by the predicate; a reduction
// folds the neutral element instead of a dropped element (exactOps), or,
// for integers, folds every element and keeps the new accumulator only if
// the predicate holds. Compilers make these selects conditional moves, so
// the loop has no branch that depends on the data (about 2x on
// unpredictable predicates). It does not render the select: backends do.

import (
	"go/types"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// selectable reports whether the filter k.SOACs[mi] can become a select:
// see the file comment. Nested filters and scans of kept elements keep the
// branch, and so do materialised outputs whose elements hold references
// (the slots past the kept count would keep garbage alive).
func (lw *lowerer) selectable(k *fusion.Kernel, mi int) bool {
	flt := k.SOACs[mi]
	if !lw.speculable(flt.Op.(*ir.Filter).Pred) {
		return false
	}
	refs := func(v *ir.Var) bool {
		if !lw.materialised(k, v) {
			return false
		}
		s, ok := v.Type.Underlying().(*types.Slice)
		return !ok || HasRefs(s.Elem())
	}
	if refs(flt.Out) {
		return false
	}
	in := map[*ir.Var]bool{flt.Out: true}
	for _, m := range k.SOACs[mi+1:] {
		reads := false
		for _, v := range m.Inputs() {
			reads = reads || in[v]
		}
		if !reads {
			continue
		}
		op, ok := m.Op.(*ir.Screma)
		if !ok || op.Scan != nil {
			return false
		}
		if op.Reduce != nil {
			if op.Map != nil || !lw.speculable(op.Reduce.Op) {
				return false
			}
			t := m.TypeArgs[0]
			if xop, neutral := lw.exactReduce(op.Reduce.Op, op.Reduce.Neutral, t); (xop == nil || !neutral) && !isInteger(t) {
				return false
			}
			continue
		}
		if !lw.speculable(op.Map) || refs(m.Out) {
			return false
		}
		in[m.Out] = true
	}
	return true
}

// isInteger reports whether t is an integer type.
func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
