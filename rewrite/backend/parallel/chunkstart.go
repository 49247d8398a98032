package parallel

// This file holds where the chunks of every kernel start a fold or scan
// whose start is not provably its operator's neutral element
// (lowered.Member.StartNotNeutral): chunk 0 (the chunk at lo == 0) starts
// from the spec's start, the others from the operator's own neutral
// element (identity), so that the start is combined once; that is the
// spec's left fold re-associated, exact for the integer operators and
// within rounding for floats (a float sum starts from -0, which leaves
// every float unchanged).

import (
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/soacgen/soacgen/rewrite/hostgo"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// identity returns the neutral element of m's operator (m.StartOp), where
// a chunk that does not hold m's start begins: 1 for *, -0 for a float +
// (x + -0 == x for every float x, -0 included), else 0.
func identity(f *hostgo.Func, m lowered.Member) jen.Code {
	if m.StartOp == token.MUL {
		return hostgo.Lit(1)
	}
	t := m.SOAC.TypeArgs[0]
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsFloat != 0 && m.StartOp == token.ADD {
		return f.Type(t).Call(f.Qual("math", "math", "Copysign").Call(jen.Lit(0), jen.Lit(-1)))
	}
	return hostgo.Lit(0)
}

// chunkStart returns the declaration of accumulator a of member m in a
// chunk function over [lo, ...): from a's neutral element, or, when m's
// start is not provably neutral, from the operator's identity, and from
// the start in chunk 0 only.
func chunkStart(f *hostgo.Func, a hostgo.LoopAcc, m lowered.Member, lo string) hostgo.Stmts {
	if !m.StartNotNeutral {
		return hostgo.Stmts{hostgo.VarDecl(a.Name, a.Type, a.Neutral)}
	}
	return hostgo.Stmts{
		hostgo.VarDecl(a.Name, a.Type, identity(f, m)),
		jen.If(jen.Id(lo).Op("==").Lit(0)).Add(hostgo.Block(hostgo.Stmts{hostgo.AssignTo(a.Name, a.Neutral)})),
	}
}
