package rewrite

// This file renders a fold in a select space (package lower decides which
// filters are selects, see rewrite/lower/select.go): the fold runs for
// every element and the predicate only decides what its result changes,
// without a branch. It does not decide anything.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lower"
)

// selectReduce emits acc = o(acc, elem) for an element that counts only
// if keep holds, without a branch: a dropped element is replaced by the
// neutral element (m.NeutralSelect), or, on integers, the new accumulator
// is kept only if keep. It returns why it cannot, or "".
func (f *fgen) selectReduce(c *code, m lower.Member, o *ir.Operator, keep, acc string, elem *code, at token.Pos) string {
	t := m.SOAC.TypeArgs[0]
	if !m.NeutralSelect {
		// Integers: fold every element, keep the result if keep.
		next := f.fresh("next")
		c.pf("var %s ", next).line(f.typeCode(t))
		if why := f.apply(c, o.Op, []*code{txt(acc), elem}, next, at); why != "" {
			return why
		}
		c.pf("if %s {\n%s = %s\n}\n", keep, acc, next)
		return ""
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
		if constant.Sign(constant.ToFloat(o.Neutral.Const.Value)) != 0 {
			c.p(" | ")
			f.qual(c, "math", "math", bits).pf("(%s(", ft).add(f.sub(o.Neutral.Expr, f.cur)).pf(")) &^ %s", mask)
		}
		c.p(")")
		if named {
			c.p(")")
		}
		c.p("\n")
	} else {
		c.pf("if !%s {\n%s = ", keep, v).add(f.operand(m.SOAC, o.Neutral)).p("\n}\n")
	}
	return f.apply(c, o.Op, []*code{txt(acc), txt(v)}, acc, at)
}
