package vector

// This file translates operators, conversions and calls to archsimd
// methods by the rules of ops.go.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/dave/jennifer/jen"
)

// binary translates x op y.
func (sc *scope) binary(e *ast.BinaryExpr) (val, string) {
	fm, k := sc.fm, sc.fm.k
	if e.Op == token.SHL || e.Op == token.SHR {
		return sc.shift(e)
	}
	x, why := sc.expr(e.X)
	if why != "" {
		return val{}, why
	}
	y, why := sc.expr(e.Y)
	if why != "" {
		return val{}, why
	}
	switch e.Op {
	case token.LAND, token.LOR:
		if !x.mask || !y.mask {
			return val{}, fmt.Sprintf("%s: %s of values that are not comparisons", k.pos(e.Pos()), e.Op)
		}
		m := "And"
		if e.Op == token.LOR {
			m = "Or"
		}
		return val{c: jen.Add(x.c).Dot(m).Call(y.c), l: x.l, mask: true, refs: from(x, y)}, ""
	}
	if x.mask || y.mask {
		return val{}, fmt.Sprintf("%s: %s of booleans has no vector form", k.pos(e.Pos()), e.Op)
	}
	if r, ok := compareRules[e.Op]; ok {
		if why := fm.use(r, x.l, e.Op.String()); why != "" {
			return val{}, fmt.Sprintf("%s: %s", k.pos(e.Pos()), why)
		}
		return val{c: jen.Add(x.c).Dot(r.method).Call(y.c), l: x.l, mask: true, refs: from(x, y)}, ""
	}
	if e.Op == token.AND_NOT {
		if why := fm.use(binaryRules[token.AND], x.l, "&^"); why != "" {
			return val{}, fmt.Sprintf("%s: %s", k.pos(e.Pos()), why)
		}
		fm.chainedBits("&^", x, y, val{bits: true})
		return val{c: jen.Add(x.c).Dot("And").Call(jen.Add(y.c).Dot("Not").Call()), l: x.l, refs: from(x, y), bits: true}, ""
	}
	r, ok := binaryRules[e.Op]
	if !ok {
		return val{}, fmt.Sprintf("%s: operator %s has no vector form", k.pos(e.Pos()), e.Op)
	}
	if why := fm.use(r, x.l, e.Op.String()); why != "" {
		if e.Op == token.QUO {
			why = "integer division may panic and has no vector instruction"
		}
		return val{}, fmt.Sprintf("%s: %s", k.pos(e.Pos()), why)
	}
	bits := r.method == "And" || r.method == "Or" || r.method == "Xor"
	if bits {
		fm.chainedBits(e.Op.String(), x, y)
	}
	return val{c: jen.Add(x.c).Dot(r.method).Call(y.c), l: x.l, refs: from(x, y), bits: bits}, ""
}

// shift translates x << c and x >> c, c a constant.
func (sc *scope) shift(e *ast.BinaryExpr) (val, string) {
	fm, k := sc.fm, sc.fm.k
	cv := k.info.Types[e.Y].Value
	if cv == nil {
		return val{}, fmt.Sprintf("%s: a shift by a count that is not a constant", k.pos(e.Pos()))
	}
	n, exact := constant.Uint64Val(constant.ToInt(cv))
	if !exact {
		return val{}, fmt.Sprintf("%s: a shift count out of range", k.pos(e.Pos()))
	}
	x, why := sc.expr(e.X)
	if why != "" {
		return val{}, why
	}
	r, ok := shiftRules[e.Op][x.l.class]
	if !ok || x.mask {
		return val{}, fmt.Sprintf("%s: a shift of %s has no vector form", k.pos(e.Pos()), x.l.t)
	}
	if why := fm.use(r, x.l, e.Op.String()); why != "" {
		return val{}, fmt.Sprintf("%s: %s", k.pos(e.Pos()), why)
	}
	if n > 255 {
		n = 255 // every count of the lane's width or more gives the same
	}
	cnt := fm.broadcast(x.l, jen.Id(basicName(x.l)).Call(jen.Lit(int(n))), fmt.Sprint(n))
	return val{c: jen.Add(x.c).Dot(r.method).Call(cnt.c), l: x.l, refs: from(x, cnt)}, ""
}

// unary translates -x, ^x and !x (+x is x).
func (sc *scope) unary(e *ast.UnaryExpr) (val, string) {
	fm, k := sc.fm, sc.fm.k
	x, why := sc.expr(e.X)
	if why != "" {
		return val{}, why
	}
	switch {
	case e.Op == token.ADD && !x.mask:
		return x, ""
	case e.Op == token.NOT && x.mask:
		// A mask is negated as its integer vector: all ones, all zeros.
		iv := x.l.ints()
		fm.use(rule{on: integers}, iv, "!")
		return val{c: jen.Add(x.c).Dot("To" + iv.vec(fm.width)).Call().Dot("Not").Call().Dot("ToMask").Call(), l: x.l, mask: true, refs: x.refs}, ""
	case e.Op == token.XOR && !x.mask && x.l.class != floating:
		fm.use(rule{on: integers}, x.l, "^")
		fm.chainedBits("^", x)
		return val{c: jen.Add(x.c).Dot("Not").Call(), l: x.l, refs: x.refs, bits: true}, ""
	case e.Op == token.SUB && !x.mask && x.l.class != floating:
		zero := fm.broadcast(x.l, jen.Id(basicName(x.l)).Call(jen.Lit(0)), "0")
		fm.use(binaryRules[token.SUB], x.l, "-")
		return val{c: jen.Add(zero.c).Dot("Sub").Call(x.c), l: x.l, refs: from(zero, x)}, ""
	case e.Op == token.SUB && !x.mask:
		// -x flips the sign bit (0 - x would give +0 for +0).
		return fm.signBits(x, "Xor", true), ""
	}
	return val{}, fmt.Sprintf("%s: operator %s has no vector form here", k.pos(e.Pos()), e.Op)
}

// signBits applies bit operation op to float x with a mask of its sign
// bit (sign) or of every bit but it (!sign): Xor flips the sign, And with
// the complement clears it.
func (fm *form) signBits(x val, op string, sign bool) val {
	u := x.l.uints()
	bits := uint64(1) << (x.l.bits - 1)
	if !sign {
		bits--
	}
	if x.l.bits == 32 {
		bits &= 1<<32 - 1
	}
	m := fm.broadcast(u, jen.Id(basicName(u)).Call(jen.Lit(bits)), fmt.Sprint(bits))
	fm.use(rule{on: integers}, u, op)
	asU := jen.Add(x.c).Dot("As" + u.vec(fm.width)).Call()
	fm.chainedBits(op, x)
	return val{c: asU.Dot(op).Call(m.c).Dot("As" + x.l.vec(fm.width)).Call(), l: x.l, refs: from(x, m), bits: true}
}

// call translates a conversion, math.Sqrt, math.Abs or a min or max of
// integers.
func (sc *scope) call(e *ast.CallExpr) (val, string) {
	fm, k := sc.fm, sc.fm.k
	if tv := k.info.Types[e.Fun]; tv.IsType() {
		if len(e.Args) != 1 {
			return val{}, fmt.Sprintf("%s: a conversion of %d values", k.pos(e.Pos()), len(e.Args))
		}
		return sc.convert(e, tv.Type)
	}
	if e.Ellipsis.IsValid() {
		return val{}, fmt.Sprintf("%s: a call with ...", k.pos(e.Pos()))
	}
	var args []val
	for _, a := range e.Args {
		v, why := sc.expr(a)
		if why != "" {
			return val{}, why
		}
		if v.mask {
			return val{}, fmt.Sprintf("%s: a call with a boolean argument", k.pos(a.Pos()))
		}
		args = append(args, v)
	}
	switch fn := k.callee(e).(type) {
	case *types.Builtin:
		r, ok := builtinRules[fn.Name()]
		if !ok || len(args) < 1 {
			return val{}, fmt.Sprintf("%s: builtin %s has no vector form", k.pos(e.Pos()), fn.Name())
		}
		if args[0].l.class == floating {
			v := args[0]
			for _, a := range args[1:] {
				v = fm.floatMinMax(fn.Name(), v, a)
			}
			return v, ""
		}
		if why := fm.use(r, args[0].l, fn.Name()); why != "" {
			return val{}, fmt.Sprintf("%s: %s", k.pos(e.Pos()), why)
		}
		v := args[0]
		for _, a := range args[1:] {
			v = val{c: jen.Add(v.c).Dot(r.method).Call(a.c), l: v.l, refs: from(v, a)}
		}
		return v, ""
	case *types.Func:
		if fn.Pkg() != nil && fn.Pkg().Path() == "math" && len(args) == 1 {
			if fn.Name() == "Abs" {
				return fm.signBits(args[0], "And", false), ""
			}
			if r, ok := mathRules[fn.Name()]; ok {
				if why := fm.use(r, args[0].l, "math."+fn.Name()); why != "" {
					return val{}, fmt.Sprintf("%s: %s", k.pos(e.Pos()), why)
				}
				return val{c: jen.Add(args[0].c).Dot(r.method).Call(), l: args[0].l, refs: args[0].refs}, ""
			}
			return val{}, fmt.Sprintf("%s: math.%s has no vector form proven to give its bits", k.pos(e.Pos()), fn.Name())
		}
		return val{}, fmt.Sprintf("%s: a call of %s", k.pos(e.Pos()), fn.FullName())
	}
	return val{}, fmt.Sprintf("%s: a call of a function value", k.pos(e.Pos()))
}

// floatMinMax is Go's min or max (op) of floats x and y, which no one
// instruction computes: the instruction's where x and y are ordered and
// differ; where they are equal, the AND (max) or OR (min) of their bits,
// so that max(-0, +0) is +0 and min is -0; where either is a NaN, a NaN
// (x + y).
func (fm *form) floatMinMax(op string, x, y val) val {
	x, y = fm.bind(x), fm.bind(y)
	method, bitOp := "Max", "And"
	if op == "min" {
		method, bitOp = "Min", "Or"
	}
	u := x.l.uints()
	fm.use(rule{on: floats}, x.l, op)
	fm.use(rule{on: integers}, u, op)
	ordered := val{c: jen.Add(x.c).Dot(method).Call(y.c), l: x.l, refs: from(x, y)}
	eq := val{c: jen.Add(x.c).Dot("Equal").Call(y.c), l: x.l, mask: true, refs: from(x, y)}
	fm.chainedBits(op, x, y)
	bits := val{c: jen.Add(x.c).Dot("As" + u.vec(fm.width)).Call().Dot(bitOp).Call(jen.Add(y.c).Dot("As" + u.vec(fm.width)).Call()).Dot("As" + x.l.vec(fm.width)).Call(), l: x.l, refs: from(x, y), bits: true}
	r := val{c: jen.Add(bits.c).Dot("Merge").Call(ordered.c, eq.c), l: x.l, refs: from(bits, ordered, eq)}
	nan := val{c: jen.Add(x.c).Dot("IsNaN").Call().Dot("Or").Call(jen.Add(y.c).Dot("IsNaN").Call()), l: x.l, mask: true, refs: from(x, y)}
	sum := val{c: jen.Add(x.c).Dot("Add").Call(y.c), l: x.l, refs: from(x, y)}
	r = fm.bind(r)
	return fm.bind(val{c: jen.Add(sum.c).Dot("Merge").Call(r.c, nan.c), l: x.l, refs: from(sum, nan, r)})
}

// convert translates T(x).
func (sc *scope) convert(e *ast.CallExpr, to types.Type) (val, string) {
	fm, k := sc.fm, sc.fm.k
	x, why := sc.expr(e.Args[0])
	if why != "" {
		return val{}, why
	}
	tl, why := laneOf(to)
	if why != "" || x.mask {
		return val{}, fmt.Sprintf("%s: a conversion to %s", k.pos(e.Pos()), to)
	}
	if tl.bits != x.l.bits {
		return val{}, fmt.Sprintf("%s: a conversion from %s to %s changes the lane width", k.pos(e.Pos()), x.l.t, to)
	}
	if tl.class == x.l.class {
		// The same lanes (a rounding conversion, or a named type).
		return val{c: x.c, l: tl, refs: x.refs}, ""
	}
	r, ok := convertRules[[2]class{x.l.class, tl.class}]
	if !ok {
		return val{}, fmt.Sprintf("%s: a conversion from %s to %s (Go leaves out-of-range results to the implementation)", k.pos(e.Pos()), x.l.t, to)
	}
	if why := fm.use(r, x.l, "conversion"); why != "" {
		return val{}, fmt.Sprintf("%s: %s", k.pos(e.Pos()), why)
	}
	method := r.method + tl.stem() // ConvertToFloat64
	if r.method == "As" {
		method = r.method + tl.vec(fm.width) // AsUint64x8
	}
	return val{c: jen.Add(x.c).Dot(method).Call(), l: tl, refs: x.refs}, ""
}
