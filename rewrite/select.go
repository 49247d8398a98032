package rewrite

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
	"github.com/soacgen/soacgen/rewrite/lower"
)

// selectReduce emits acc = o(acc, elem) for an element that counts only
// if keep holds, without a branch: a dropped element is replaced by the
// neutral element (m.NeutralSelect), or, on integers, the new accumulator
// is kept only if keep. It returns why it cannot, or "".
func (f *fgen) selectReduce(c *stmts, m lower.Member, o *ir.Operator, keep, acc string, elem jen.Code, at token.Pos) string {
	t := m.SOAC.TypeArgs[0]
	if !m.NeutralSelect {
		// Integers: fold every element, keep the result if keep.
		next := f.fresh("next")
		c.add(varDecl(next, f.typeCode(t), nil))
		if why := f.apply(c, o.Op, []jen.Code{id(acc), elem}, id(next), at); why != "" {
			return why
		}
		c.add(jen.If(id(keep)).Add(block(stmts{assignTo(acc, id(next))})))
		return ""
	}
	v := f.fresh("v")
	c.add(varDecl(v, f.typeCode(t), elem))
	if b := t.Underlying().(*types.Basic); b.Info()&types.IsFloat != 0 {
		// Go has no conditional move of floats: select the bits.
		bits, from, ut, ft := "Float64bits", "Float64frombits", "uint64", "float64"
		if b.Kind() == types.Float32 {
			bits, from, ut, ft = "Float32bits", "Float32frombits", "uint32", "float32"
		}
		mask := f.fresh("mask")
		c.add(varDecl(mask, id(ut), nil))
		c.add(jen.If(id(keep)).Add(block(stmts{assignTo(mask, jen.Op("^").Id(ut).Call(lit(0)))})))
		named := !types.Identical(t, types.Typ[b.Kind()])
		val := id(v)
		if named {
			val = jen.Id(ft).Call(id(v))
		}
		fromQ := f.qual("math", "math", from)
		sel := f.qual("math", "math", bits).Call(val).Op("&").Id(mask)
		if constant.Sign(constant.ToFloat(o.Neutral.Const.Value)) != 0 {
			sel.Op("|").Add(f.qual("math", "math", bits).Call(jen.Id(ft).Call(f.sub(o.Neutral.Expr, f.cur)))).Op("&^").Id(mask)
		}
		value := fromQ.Call(sel)
		if named {
			value = f.typeCode(t).Call(value)
		}
		c.add(assignTo(v, value))
	} else {
		c.add(jen.If(jen.Op("!").Id(keep)).Add(block(stmts{assignTo(v, f.operand(m.SOAC, o.Neutral))})))
	}
	return f.apply(c, o.Op, []jen.Code{id(acc), id(v)}, id(acc), at)
}
