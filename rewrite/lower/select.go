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
	"go/ast"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// selectBudget is the most extra work (selectable's units, about one
// instruction each) a select may do for a dropped element: the branch it
// removes costs a misprediction (about 15-20 cycles on the AMD Zen 4
// 2-core machines) on about half the elements when the predicate is
// unpredictable, and nothing when it is predictable. Calibrated on two
// measured shapes: the sum of squares of positive floats (cost 5: the
// select runs 1.9-2.1x faster than the branch on random signs) and the sum
// of price*qty over orders of one status (cost 7 with 32-byte elements:
// 1.5-2x slower than the branch when the statuses are predictable, and
// about as fast or faster when they are random); see
// examples/sumsqpos/orders.go.
const selectBudget = 6

// selectable reports whether the filter k.SOACs[mi] can become a select:
// see the file comment. Nested filters and scans of kept elements keep the
// branch, and so do materialised outputs whose elements hold references
// (the slots past the kept count would keep garbage alive), and selects
// whose extra work for a dropped element exceeds selectBudget.
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
	// cost is the extra work of a dropped element: the predicate runs
	// for every element in both forms, so only what runs after it counts.
	cost := lw.outputCost(k, flt.Out)
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
			xop, neutral := lw.exactReduce(op.Reduce.Op, op.Reduce.Neutral, t)
			if (xop == nil || !neutral) && !isInteger(t) {
				return false
			}
			cost += lambdaCost(op.Reduce.Op) + 1 // the selected accumulator
			if isFloat(t) && xop != nil && neutral {
				cost += 2 // the element's bits are masked: two moves between register files
			}
			continue
		}
		if !lw.speculable(op.Map) || refs(m.Out) {
			return false
		}
		cost += lambdaCost(op.Map) + lw.outputCost(k, m.Out)
		in[m.Out] = true
	}
	return cost <= selectBudget
}

// lambdaCost counts the operations of a speculable literal's body: each
// arithmetic, comparison or logical operator, field selection, index,
// slice expression and conversion costs 1; a call (a math function or a
// builtin) costs 4.
func lambdaCost(l *ir.Lambda) int {
	if l == nil || l.Lit == nil {
		return 0
	}
	n := 0
	ast.Inspect(l.Lit.Body, func(node ast.Node) bool {
		switch node.(type) {
		case *ast.BinaryExpr, *ast.UnaryExpr, *ast.SelectorExpr, *ast.IndexExpr, *ast.SliceExpr:
			n++
		case *ast.CallExpr:
			n += 4
		}
		return true
	})
	return n
}

// outputCost is the extra work of writing a materialised output v of k
// for every element at the kept count: one store per 8 bytes of its
// element.
func (lw *lowerer) outputCost(k *fusion.Kernel, v *ir.Var) int {
	if !lw.materialised(k, v) {
		return 0
	}
	s, ok := v.Type.Underlying().(*types.Slice)
	if !ok {
		return 0
	}
	return int((gcSizes.Sizeof(s.Elem()) + 7) / 8)
}

// gcSizes are the sizes outputCost uses: the gc compiler's on a 64-bit
// target, whatever machine runs soacgen, so that the output does not
// depend on it.
var gcSizes = types.SizesFor("gc", "amd64")

// isFloat reports whether t is a floating-point type.
func isFloat(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// isInteger reports whether t is an integer type.
func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
