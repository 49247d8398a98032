package hostgo

// This file renders a fold in a select space (package lower decides which
// filters are selects, see rewrite/lower/select.go): the fold runs for
// every element and the predicate only decides what its result changes,
// without a branch. It does not decide anything.

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// selectReduce emits acc = o(acc, elem) for an element that counts only
// if keep holds, without a branch: a dropped element is replaced by the
// neutral element (m.NeutralSelect), or, on integers, the new accumulator
// is kept only if keep. It returns why it cannot, or "".
func (f *Func) selectReduce(c *Stmts, m lowered.Member, o *ir.Operator, keep, acc string, elem jen.Code, at token.Pos) string {
	t := m.SOAC.TypeArgs[0]
	if !m.NeutralSelect {
		// Integers: fold every element, keep the result if keep.
		next := f.Fresh("next")
		c.Add(VarDecl(next, f.Type(t), nil))
		if why := f.Apply(c, o.Op, []jen.Code{Id(acc), elem}, Id(next), at); why != "" {
			return why
		}
		c.Add(jen.If(Id(keep)).Add(Block(Stmts{AssignTo(acc, Id(next))})))
		return ""
	}
	v := f.Fresh("v")
	c.Add(VarDecl(v, f.Type(t), elem))
	if b := t.Underlying().(*types.Basic); b.Info()&types.IsFloat != 0 {
		// Go has no conditional move of floats: select the bits.
		bits, from, ut, ft := "Float64bits", "Float64frombits", "uint64", "float64"
		if b.Kind() == types.Float32 {
			bits, from, ut, ft = "Float32bits", "Float32frombits", "uint32", "float32"
		}
		mask := f.Fresh("mask")
		c.Add(VarDecl(mask, Id(ut), nil))
		c.Add(jen.If(Id(keep)).Add(Block(Stmts{AssignTo(mask, jen.Op("^").Id(ut).Call(Lit(0)))})))
		named := !types.Identical(t, types.Typ[b.Kind()])
		val := Id(v)
		if named {
			val = jen.Id(ft).Call(Id(v))
		}
		fromQ := f.Qual("math", "math", from)
		sel := f.Qual("math", "math", bits).Call(val).Op("&").Id(mask)
		if constant.Sign(constant.ToFloat(o.Neutral.Const.Value)) != 0 {
			sel.Op("|").Add(f.Qual("math", "math", bits).Call(jen.Id(ft).Call(f.sub(o.Neutral.Expr, f.cur)))).Op("&^").Id(mask)
		}
		value := fromQ.Call(sel)
		if named {
			value = f.Type(t).Call(value)
		}
		c.Add(AssignTo(v, value))
	} else {
		c.Add(jen.If(jen.Op("!").Id(keep)).Add(Block(Stmts{AssignTo(v, f.operand(m.SOAC, o.Neutral))})))
	}
	return f.Apply(c, o.Op, []jen.Code{Id(acc), Id(v)}, Id(acc), at)
}
