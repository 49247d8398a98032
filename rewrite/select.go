package rewrite

// This file turns a filter into a select: when the predicate and every
// lambda that reads the kept elements are pure, cannot panic and are cheap
// (speculable), they run for every element, and keep only decides what
// their results change: a materialised output is written at the kept
// count, which grows by keep; a reduction folds the neutral element
// instead of a dropped element (exactOps), or, for integers, folds every
// element and keeps the new accumulator only if keep. The compiler makes
// these selects conditional moves, so the loop has no branch that depends
// on the data (about 2x on unpredictable predicates).

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// selectBudget is the most extra work (selectable's units, about one
// instruction each) a select may do for a dropped element: the branch it
// removes costs a misprediction (about 15-20 cycles on the Zen 4 machines
// of ANCHORS.md) on about half the elements when the predicate is
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
func (f *fgen) selectable(k *fusion.Kernel, mi int, outs map[*ir.Var]string) bool {
	flt := k.SOACs[mi]
	if !f.speculable(flt.Op.(*ir.Filter).Pred) {
		return false
	}
	refs := func(v *ir.Var) bool {
		n, ok := outs[v]
		if !ok || n == "_" {
			return false
		}
		s, ok := v.Type.Underlying().(*types.Slice)
		return !ok || hasRefs(s.Elem())
	}
	if refs(flt.Out) {
		return false
	}
	// cost is the extra work of a dropped element: the predicate runs
	// for every element in both forms, so only what runs after it counts.
	cost := f.outputCost(flt.Out, outs)
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
			if op.Map != nil || !f.speculable(op.Reduce.Op) {
				return false
			}
			t := m.TypeArgs[0]
			xop, neutral := f.exactReduce(op.Reduce.Op, op.Reduce.Neutral, t)
			if (xop == nil || !neutral) && !isInteger(t) {
				return false
			}
			cost += lambdaCost(op.Reduce.Op) + 1 // the selected accumulator
			if isFloat(t) && xop != nil && neutral {
				cost += 2 // the element's bits are masked: two moves between register files
			}
			continue
		}
		if !f.speculable(op.Map) || refs(m.Out) {
			return false
		}
		cost += lambdaCost(op.Map) + f.outputCost(m.Out, outs)
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

// outputCost is the extra work of writing a materialised output v for
// every element at the kept count: one store per 8 bytes of its element.
func (f *fgen) outputCost(v *ir.Var, outs map[*ir.Var]string) int {
	if n, ok := outs[v]; !ok || n == "_" {
		return 0
	}
	s, ok := v.Type.Underlying().(*types.Slice)
	if !ok {
		return 0
	}
	return int((gcSizes.Sizeof(s.Elem()) + 7) / 8)
}

// selectReduce emits acc = o(acc, elem) for an element that counts only
// if keep holds, without a branch.
func (f *fgen) selectReduce(c *code, m *ir.SOAC, o *ir.Operator, keep, acc string, elem *code, at token.Pos) bool {
	t := m.TypeArgs[0]
	xop, neutral := f.exactReduce(o.Op, o.Neutral, t)
	if xop == nil || !neutral {
		// Integers: fold every element, keep the result if keep.
		next := f.fresh("next")
		c.pf("var %s ", next).line(f.typeCode(t))
		if !f.apply(c, o.Op, []*code{txt(acc), elem}, next, at) {
			return false
		}
		c.pf("if %s {\n%s = %s\n}\n", keep, acc, next)
		return true
	}
	v := f.fresh("v")
	c.pf("var %s ", v).add(f.typeCode(t)).p(" = ").line(elem)
	if b := t.Underlying().(*types.Basic); b.Info()&types.IsFloat != 0 {
		// Go has no conditional move of floats: select the bits.
		bits, from, ut, ft := "Float64bits", "Float64frombits", "uint64", "float64"
		if b.Kind() == types.Float32 {
			bits, from, ut, ft = "Float32bits", "Float32frombits", "uint32", "float32"
		}
		mask := f.fresh("mask")
		c.pf("var %s %s\nif %s {\n%s = ^%s(0)\n}\n", mask, ut, keep, mask, ut)
		named := !types.Identical(t, types.Typ[b.Kind()])
		val := txt(v)
		if named {
			val = txtf("%s(%s)", ft, v)
		}
		c.pf("%s = ", v)
		if named {
			c.add(f.typeCode(t)).p("(")
		}
		f.qual(c, "math", "math", from).p("(")
		f.qual(c, "math", "math", bits).p("(").add(val).pf(") & %s", mask)
		if !isZero(constant.ToFloat(o.Neutral.Const.Value), b) {
			c.p(" | ")
			f.qual(c, "math", "math", bits).pf("(%s(", ft).add(f.sub(o.Neutral.Expr, f.cur)).pf(")) &^ %s", mask)
		}
		c.p(")")
		if named {
			c.p(")")
		}
		c.p("\n")
	} else {
		c.pf("if !%s {\n%s = ", keep, v).add(f.operand(m, o.Neutral)).p("\n}\n")
	}
	return f.apply(c, o.Op, []*code{txt(acc), txt(v)}, acc, at)
}

// isInteger reports whether t is an integer type.
func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// gcSizes are the sizes outputCost uses: the gc compiler's on a 64-bit
// target, whatever machine runs soacgen, so that the output does not
// depend on it.
var gcSizes = types.SizesFor("gc", "amd64")
