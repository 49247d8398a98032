package lower

// This file holds what the generator knows about operators beyond what the
// spec promises: which reduction operators are exact enough to be
// evaluated in another way than the spec's left-to-right fold (a select
// of the neutral element for a filtered-out element, several
// accumulators), and which lambdas are cheap and safe enough to be
// evaluated for elements a filter drops (speculation).

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// exactOp is an operator written as a OP b (or b OP a), or as a call
// min(a, b) or max(a, b), on the two parameters of a reduction's lambda,
// on one class of basic types.
type exactOp struct {
	tok  token.Token
	call string // the builtin called instead of tok

	floats bool // on floating-point types (else on integer types)
	// neutral reports whether combining any accumulator the fold can reach
	// with ne leaves it bit-for-bit unchanged: then a dropped element may
	// be replaced by ne (a select instead of a branch), and several
	// accumulators may each start from ne.
	neutral func(ne constant.Value, t *types.Basic) bool
	// idempotent operators (x OP x == x) allow several accumulators to
	// start from any ne: ne OP ne OP ... == ne.
	idempotent bool
}

func isZero(ne constant.Value, _ *types.Basic) bool {
	return constant.Sign(ne) == 0
}

func isOne(ne constant.Value, _ *types.Basic) bool {
	return constant.Compare(ne, token.EQL, constant.MakeInt64(1))
}

// isAllOnes reports whether ne has every bit of t set: -1 for a signed
// type, the maximum for an unsigned one.
func isAllOnes(ne constant.Value, t *types.Basic) bool {
	if t.Info()&types.IsUnsigned == 0 {
		return constant.Compare(ne, token.EQL, constant.MakeInt64(-1))
	}
	var bits uint
	switch t.Kind() {
	case types.Uint8:
		bits = 8
	case types.Uint16:
		bits = 16
	case types.Uint32:
		bits = 32
	default:
		bits = 64
	}
	max := constant.Shift(constant.MakeUint64(1), token.SHL, bits)
	max = constant.BinaryOp(max, token.SUB, constant.MakeInt64(1))
	return constant.Compare(ne, token.EQL, max)
}

// exactOps are the operators the generator evaluates other than left to
// right. Integer +, *, ^ wrap and |, & are bitwise: all are exactly
// associative and commutative. For floats only the neutral-element select
// is exact: x + 0 == x for every x the fold can reach from ne == +0 (a sum
// is -0 only if both terms are; Go constants have no -0) and x * 1 == x;
// several float accumulators would reassociate, so floats never get them.
var exactOps = []exactOp{
	{tok: token.ADD, neutral: isZero},
	{tok: token.MUL, neutral: isOne},
	{tok: token.XOR, neutral: isZero},
	{tok: token.OR, neutral: isZero, idempotent: true},
	{tok: token.AND, neutral: isAllOnes, idempotent: true},
	{tok: token.ADD, floats: true, neutral: isZero},
	{tok: token.MUL, floats: true, neutral: isOne},
	{call: "min", neutral: never, idempotent: true},
	{call: "max", neutral: never, idempotent: true},
}

// maxUnrolledSize bounds the syntax nodes of a kernel's lambdas that the
// generator repeats four times when it splits a reduction.
const maxUnrolledSize = 120

// never: the operator's neutral element is not a constant the generator
// checks (min and max on integers: the type's extremes).
func never(constant.Value, *types.Basic) bool { return false }

// unrollFactor is the number of accumulators the reductions of kernel k
// that splittable accepts are split over (the loop is unrolled as many
// times), or 1: k has none, or has a filter or scan, whose order the
// unrolled copies would have to carry between them.
func (lw *lowerer) unrollFactor(k *fusion.Kernel) int {
	split := false
	size := 0
	for _, m := range k.SOACs {
		// Each copy repeats every inlined lambda: only small loop bodies
		// without loops of their own are unrolled.
		for _, l := range m.Lambdas() {
			if l.Lit == nil {
				size += 4 // a call
				continue
			}
			n, ok := bodySize(l.Lit)
			if !ok {
				return 1
			}
			size += n
		}
		switch op := m.Op.(type) {
		case *ir.Filter:
			return 1
		case *ir.Screma:
			if op.Scan != nil {
				return 1
			}
			split = split || op.Reduce != nil && lw.splittable(m)
		}
	}
	if !split || size > maxUnrolledSize {
		return 1
	}
	return 4
}

// splittable reports whether reduction m can fold its elements into
// several accumulators, each from the neutral element, combined at the
// end: an integer exactOp (exactly associative and commutative) whose
// neutral element is the operator's, or which is idempotent. Floating-point
// reductions keep one accumulator (backend cpu is bit-identical).
func (lw *lowerer) splittable(m *ir.SOAC) bool {
	op, ok := m.Op.(*ir.Screma)
	if !ok || op.Reduce == nil || op.Map != nil || !isInteger(m.TypeArgs[0]) {
		return false
	}
	xop, neutral := lw.exactReduce(op.Reduce.Op, op.Reduce.Neutral, m.TypeArgs[0])
	return xop != nil && (neutral || xop.idempotent)
}

// exactReduce returns the exactOp a reduction's operator l is, with
// neutral element ne of type t, or nil. withNeutral reports whether ne is
// the operator's neutral element (not only a starting value).
func (lw *lowerer) exactReduce(l *ir.Lambda, ne *ir.Operand, t types.Type) (op *exactOp, withNeutral bool) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok || l.Lit == nil || ne == nil || ne.Const == nil || ne.Const.Value == nil {
		return nil, false
	}
	isFloat := b.Info()&types.IsFloat != 0
	if !isFloat && b.Info()&types.IsInteger == 0 {
		return nil, false
	}
	params := l.Lit.Type.Params.List
	var names []*ast.Ident
	for _, p := range params {
		names = append(names, p.Names...)
	}
	if len(names) != 2 || len(l.Lit.Body.List) != 1 {
		return nil, false
	}
	ret, ok := l.Lit.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil, false
	}
	var tok token.Token
	var call string
	var ex, ey ast.Expr
	switch e := ast.Unparen(ret.Results[0]).(type) {
	case *ast.BinaryExpr:
		tok, ex, ey = e.Op, e.X, e.Y
	case *ast.CallExpr:
		b, isB := lw.info.Uses[identOf(e.Fun)].(*types.Builtin)
		if !isB || len(e.Args) != 2 || e.Ellipsis.IsValid() {
			return nil, false
		}
		call, ex, ey = b.Name(), e.Args[0], e.Args[1]
	default:
		return nil, false
	}
	x, xok := ast.Unparen(ex).(*ast.Ident)
	y, yok := ast.Unparen(ey).(*ast.Ident)
	if !xok || !yok {
		return nil, false
	}
	a, c := lw.info.Defs[names[0]], lw.info.Defs[names[1]]
	ux, uy := lw.info.Uses[x], lw.info.Uses[y]
	if a == nil || c == nil || !(ux == a && uy == c || ux == c && uy == a) {
		return nil, false
	}
	for i := range exactOps {
		o := &exactOps[i]
		if o.tok == tok && o.call == call && o.floats == isFloat {
			v := constant.ToFloat(ne.Const.Value)
			if !isFloat {
				v = constant.ToInt(ne.Const.Value)
			}
			return o, v.Kind() != constant.Unknown && o.neutral(v, b)
		}
	}
	return nil, false
}

// startNotNeutral reports whether a fold's start ne is not provably its
// operator's neutral element while the operator is one exactOps knows and
// is not idempotent (see Member.StartNotNeutral). A start that is not a
// constant counts as not neutral; an operator exactOps does not know
// (a named function, a struct combine) is taken at the caller's promise
// (docs/contract.md: op is associative with neutral element ne). When it is
// not, op is the operator's token (token.ADD, token.MUL or token.XOR,
// the exactOps that are not idempotent), whose own neutral element a
// partial fold that does not hold the start begins from
// (Member.StartOp).
func (lw *lowerer) startNotNeutral(l *ir.Lambda, ne *ir.Operand, t types.Type) (notNeutral bool, op token.Token) {
	if ne != nil && ne.Const != nil && ne.Const.Value != nil {
		xop, neutral := lw.exactReduce(l, ne, t)
		if xop != nil && !neutral && !xop.idempotent {
			return true, xop.tok
		}
		return false, token.ILLEGAL
	}
	// Recognise the operator with a stand-in constant start.
	probe := &ir.Operand{Const: &types.TypeAndValue{Type: t, Value: constant.MakeInt64(0)}}
	xop, _ := lw.exactReduce(l, probe, t)
	if xop != nil && !xop.idempotent {
		return true, xop.tok
	}
	return false, token.ILLEGAL
}

// operator returns the exactOp operator l is on elements of type t, as
// Member.Operator names it ("+", "min", ...), or "".
func (lw *lowerer) operator(l *ir.Lambda, t types.Type) string {
	probe := &ir.Operand{Const: &types.TypeAndValue{Type: t, Value: constant.MakeInt64(0)}}
	xop, _ := lw.exactReduce(l, probe, t)
	switch {
	case xop == nil:
		return ""
	case xop.call != "":
		return xop.call
	}
	return xop.tok.String()
}

// idemStart returns, for a fold whose start ne is not a constant and
// whose operator l is one exactOps knows as idempotent, the operator:
// its builtin ("max", "min") or token ("|", "&"); else ""
// (Member.IdemStart).
func (lw *lowerer) idemStart(l *ir.Lambda, ne *ir.Operand, t types.Type) string {
	if ne == nil || ne.Const != nil && ne.Const.Value != nil {
		return ""
	}
	probe := &ir.Operand{Const: &types.TypeAndValue{Type: t, Value: constant.MakeInt64(0)}}
	xop, _ := lw.exactReduce(l, probe, t)
	switch {
	case xop == nil || !xop.idempotent:
		return ""
	case xop.call != "":
		return xop.call
	}
	return xop.tok.String()
}

// commutative reports whether the reduction operator l on t is one
// exactOps knows, all of which are commutative (Member.Commutative).
func (lw *lowerer) commutative(l *ir.Lambda, t types.Type) bool {
	probe := &ir.Operand{Const: &types.TypeAndValue{Type: t, Value: constant.MakeInt64(0)}}
	xop, _ := lw.exactReduce(l, probe, t)
	return xop != nil
}

// speculable reports whether l may run for an element the spec never
// passes it (a select instead of a branch): it has no effect, cannot
// panic, and is cheap — no loops, no closures and no calls but builtins,
// conversions and package math.
func (lw *lowerer) speculable(l *ir.Lambda) bool {
	if l == nil {
		return true
	}
	if !l.Purity.Pure || l.Purity.MayPanic || l.Lit == nil {
		return false
	}
	if n, ok := bodySize(l.Lit); !ok || n > 64 {
		return false
	}
	ok := true
	ast.Inspect(l.Lit.Body, func(n ast.Node) bool {
		call, isCall := n.(*ast.CallExpr)
		if !ok || !isCall {
			return ok
		}
		fun := ast.Unparen(call.Fun)
		if tv, isT := lw.info.Types[fun]; isT && tv.IsType() {
			return true
		}
		var obj types.Object
		switch fn := fun.(type) {
		case *ast.Ident:
			obj = lw.info.Uses[fn]
		case *ast.SelectorExpr:
			obj = lw.info.Uses[fn.Sel]
		}
		switch obj := obj.(type) {
		case *types.Builtin:
			switch obj.Name() {
			case "min", "max", "len", "cap", "real", "imag", "complex":
				return true
			}
		case *types.Func:
			if obj.Pkg() != nil && obj.Pkg().Path() == "math" {
				return true
			}
		}
		ok = false
		return false
	})
	return ok
}

// bodySize returns the number of syntax nodes of lit's body, and false
// when the body loops, makes closures or starts goroutines: code that is
// neither cheap to run for every element nor small to repeat.
func bodySize(lit *ast.FuncLit) (int, bool) {
	n, ok := 0, true
	ast.Inspect(lit.Body, func(node ast.Node) bool {
		switch node.(type) {
		case nil:
			return false
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt, *ast.SelectStmt, *ast.SendStmt:
			ok = false
		}
		n++
		return ok
	})
	return n, ok
}
