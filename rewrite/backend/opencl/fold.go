package opencl

// This file translates a kernel's folds (Reduce, and a scan's operator)
// for the skeletons: the combining operator as OpenCL C, the neutral
// element (a constant folded into a literal of the element type, a struct
// of constants, or a run-time value passed as a kernel argument), and a
// start that is not the operator's neutral element, which the device
// folds from the operator's own and the host combines once.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/clc"
	"github.com/soacgen/soacgen/rewrite/lowered"
)

// clRed is a fold of the kernel.
type clRed struct {
	clParam
	op, neutral string
	cast        string // prefix that reads a translated struct as the skeleton's
	// commutative lets the skeleton fold elements in any order (the
	// interleaved, coalesced layout on GPUs): lowered.Member.Commutative.
	commutative bool
	// all marks a fold of every element in a filter kernel, whose
	// skeleton folds the kept elements otherwise (skel.Reduction.All).
	all bool
	// neutralArg marks a neutral element given at run time: neutral is
	// the kernel argument holding it (skel.Reduction.NeutralArg).
	neutralArg bool
	// start, when not nil, is the start of a Reduce that is not its
	// operator's neutral element (lowered.Member.StartNotNeutral): the
	// device folds from the operator's own (neutral), and the host
	// combines start startOp result, startOf being the Reduce.
	start   *ir.Operand
	startOp token.Token
	startOf *ir.SOAC
	// first, when not "", is the kernel argument holding the start of a
	// float fold that is not its operator's neutral element: element 0
	// combines it with its value (lowered.Member.StartNotNeutral).
	first, firstCall string // the argument, and the call combining it
	// startIdem, when not "", is the idempotent operator (lowered.Member.
	// IdemStart: "max", "min", "|" or "&") the host combines start with
	// the result by, in place of startOp.
	startIdem string
}

// startCombined returns the result v of fold r combined once with its
// start, when r has one that the device does not fold (clRed.start).
func startCombined(f *spec, r clRed, v *jen.Statement) *jen.Statement {
	switch {
	case r.start == nil:
		return v
	case r.startIdem == "max" || r.startIdem == "min":
		return jen.Id(r.startIdem).Call(f.OperandCode(r.startOf, r.start), v)
	case r.startIdem != "":
		return jen.Parens(f.OperandCode(r.startOf, r.start)).Op(r.startIdem).Add(v)
	}
	return jen.Parens(f.OperandCode(r.startOf, r.start)).Op(r.startOp.String()).Add(v)
}

// idemIdentity returns the C literal, of skel type sk, of the identity
// of idempotent operator op ("max", "min", "|", "&") on integer type t:
// its type's least value for max, greatest for min, 0 for |, every bit
// set for &.
func idemIdentity(op string, t types.Type, sk string) string {
	b := t.Underlying().(*types.Basic)
	bits := uint(goSizes.Sizeof(t) * 8)
	signed := b.Info()&types.IsUnsigned == 0
	one := constant.MakeInt64(1)
	top := constant.Shift(one, token.SHL, bits) // 2^bits
	if signed {
		top = constant.Shift(one, token.SHL, bits-1)
	}
	least, greatest := constant.MakeInt64(0), constant.BinaryOp(top, token.SUB, one)
	if signed {
		least = constant.UnaryOp(token.SUB, top, 0)
	}
	switch op {
	case "max":
		return cLiteral(least, sk)
	case "min":
		return cLiteral(greatest, sk)
	case "&":
		if signed {
			return cLiteral(constant.MakeInt64(-1), sk)
		}
		return cLiteral(greatest, sk)
	}
	return cLiteral(constant.MakeInt64(0), sk)
}

// fold adds the reduction of fold m.
func (ck *clKernel) fold(m *ir.SOAC, outs map[*ir.Var]string) string {
	op := m.Op.(*ir.Screma)
	operator := op.Reduce
	if operator == nil {
		operator = op.Scan
	}
	if op.Map != nil || operator == nil {
		return fmt.Sprintf("%s: a fold or scan with a map lambda is not rendered", soacPos(ck.f, m))
	}
	mem := ck.lk.Members[slices.IndexFunc(ck.lk.Members, func(x lowered.Member) bool { return x.SOAC == m })]
	t := m.TypeArgs[0]
	r := clRed{clParam: clParam{c: fmt.Sprintf("red__%d", len(ck.reds)), skel: skelScalar(t), v: m.Out, goElem: t}, commutative: op.Reduce != nil && mem.Commutative}
	startPure := operator.Neutral != nil && pureExpr(ck.f.Info(), operator.Neutral.Expr)
	float := r.skel == "Float32" || r.skel == "Float64"
	// first makes the start a kernel argument that element 0 combines
	// with its value (clRed.first): the start is leftmost, as in the
	// spec, whose association a fold by one work-item keeps.
	first := func() string {
		name := fmt.Sprintf("start__%d", len(ck.args))
		ct, err := ck.unit.Type(t)
		if err != nil {
			return fmt.Sprintf("%s folds %s: %v", soacPos(ck.f, m), t, err)
		}
		ck.args = append(ck.args, clArg{name: name, params: []string{fmt.Sprintf("const %s %s", ct.C, name)}, start: operator.Neutral, startOf: m})
		r.first = name
		return ""
	}
	switch {
	case mem.StartNotNeutral:
		// The device folds from the operator's own neutral element: 0,
		// 1, or -0 for a float sum (x + -0 == x for every x). The start
		// is combined once: by the host with a Reduce's result, where +,
		// * and ^ commute and wrap alike in Go on integers; by element 0
		// for a float Reduce (reassociated, docs/contract.md: within
		// rounding) and for a scan (every element holds it).
		if r.skel == "" || !startPure || float && op.Reduce != nil && ck.compact != lowered.Root {
			return fmt.Sprintf("%s: its start is not provably its operator's neutral element: every work-group would combine it again (the start is combined once when it is a number given by an expression without effects, and, for a float Reduce, not in a filter kernel): fold from the operator's neutral element and combine the start with the result after the call", soacPos(ck.f, m))
		}
		r.neutral = cLiteral(constant.MakeInt64(map[token.Token]int64{token.ADD: 0, token.MUL: 1, token.XOR: 0}[mem.StartOp]), r.skel)
		if float && mem.StartOp == token.ADD {
			r.neutral = "(-" + r.neutral + ")"
		}
		if !float && op.Reduce != nil {
			r.start, r.startOp, r.startOf = operator.Neutral, mem.StartOp, m
			break
		}
		if why := first(); why != "" {
			return why
		}
	case mem.IdemStart != "" && op.Scan != nil && r.skel != "" && startPure:
		// A scan of max, min, | or & on integers from a variable: from
		// the operator's identity, element 0 combining the start.
		r.neutral = idemIdentity(mem.IdemStart, t, r.skel)
		if why := first(); why != "" {
			return why
		}
	case mem.IdemStart != "" && op.Reduce != nil && r.skel != "" && startPure && (mem.IdemStart == "|" || mem.IdemStart == "&" || ck.f.LookupAt(mem.IdemStart, ck.lk.Src.At.Pos()) == types.Universe.Lookup(mem.IdemStart)):
		// A Reduce of max, min, | or & on integers from a variable: the
		// device folds from the operator's identity, the host combines
		// the start once (exact: the operator is associative,
		// commutative and idempotent).
		r.neutral, r.start, r.startIdem, r.startOf = idemIdentity(mem.IdemStart, t, r.skel), operator.Neutral, mem.IdemStart, m
	}
	var ct *clc.Type // the translated struct type, for a struct fold
	if r.skel == "" {
		if ct = ck.structInput(t); ct == nil {
			return fmt.Sprintf("%s folds %s: the skeletons reduce float32, float64, int32, int64, int, uint32, uint64, uint, and structs of those (of structs of those too, where their fields, flattened, keep the struct's layout)", soacPos(ck.f, m), t)
		}
		r.fields = ck.fieldTypes(t)
	}
	ne := operator.Neutral
	switch {
	case r.start != nil || r.first != "":
	case ct != nil && zeroLiteral(ne):
		r.neutral = "{0}"
	case ct != nil:
		// A composite literal of constants: an initializer of the
		// skeleton's struct, its fields flattened.
		if r.neutral = ck.structNeutral(ne, t); r.neutral == "" {
			return fmt.Sprintf("%s: its neutral element is not the zero value %s{} nor a literal of constant fields (the skeletons build it into the program): write it as a literal of constants, math.Inf or math.NaN", soacPos(ck.f, m), t)
		}
	case ne == nil:
		return fmt.Sprintf("%s: it has no neutral element", soacPos(ck.f, m))
	case ne.Const != nil && ne.Const.Value != nil:
		if r.neutral = cLiteral(ne.Const.Value, r.skel); r.neutral == "" {
			return fmt.Sprintf("%s: its neutral element %s is not a %s constant", soacPos(ck.f, m), ne.Const.Value, t)
		}
	default:
		// A known value (math.Inf, math.NaN, ...) is built in; any
		// other is a kernel argument.
		if r.neutral = scalarNeutral(ck.f.Info(), ne.Expr, r.skel); r.neutral == "" {
			if why := ck.neutralArg(m, &r, startPure); why != "" {
				return why
			}
		}
	}
	fn, why := ck.lambda(m, operator.Op)
	if why != "" {
		return why
	}
	if len(fn.Captures) > 0 {
		return fmt.Sprintf("the operator of %s captures %s: the skeletons' combine takes no arguments; fold without it and apply it to the result, or make it a constant", soacPos(ck.f, m), fn.Captures[0].Var.Name())
	}
	if r.first != "" {
		r.firstCall = fn.Call([]string{r.first, r.c}, "", "&e")
	}
	if ct == nil {
		r.op = fmt.Sprintf("int e = 0;\nr = %s;", fn.Call([]string{"a", "b"}, "", "&e"))
	} else {
		// The skeleton's struct and the translated one have one layout.
		r.op = fmt.Sprintf("int e = 0;\n%[1]s t = %[2]s;\nr = *(%[3]s *)&t;", ct.C, fn.Call([]string{fmt.Sprintf("*(const %s *)&a", ct.C), fmt.Sprintf("*(const %s *)&b", ct.C)}, "", "&e"), r.c+"__t")
		r.cast = "*(const " + r.c + "__t *)&"
	}
	ck.reds = append(ck.reds, r)
	ck.fp64 = ck.fp64 || r.skel == "Float64" || slices.Contains(r.fields, "Float64")
	return ""
}

// neutralArg makes the neutral element of fold m, a value known only at
// run time, the kernel argument r folds from (skel.Reduction.NeutralArg),
// or says why it cannot be one: only a map-reduce skeleton takes it, and
// the host evaluates it once more when the kernel falls back, so it must
// be an expression without effects.
func (ck *clKernel) neutralArg(m *ir.SOAC, r *clRed, pure bool) string {
	ne := m.Op.(*ir.Screma)
	start := ne.Reduce
	what := "Reduce"
	if start == nil {
		start, what = ne.Scan, "Scan"
	}
	expr := types.ExprString(start.Neutral.Expr)
	switch {
	case what == "Scan" || ck.compact != lowered.Root:
		return fmt.Sprintf("%s: its neutral element %s is known only at run time, and the scan and filter skeletons build theirs into the program: write it as a constant expression (a literal, -math.MaxFloat64, math.Inf(-1))", soacPos(ck.f, m), expr)
	case !pure:
		return fmt.Sprintf("%s: its neutral element %s is a call or has effects, and a kernel argument is evaluated again when the kernel falls back: assign it to a variable first, or write it as a constant expression", soacPos(ck.f, m), expr)
	}
	name := fmt.Sprintf("ne__%d", len(ck.args))
	ct, err := ck.unit.Type(m.TypeArgs[0])
	if err != nil {
		return fmt.Sprintf("%s folds %s: %v", soacPos(ck.f, m), m.TypeArgs[0], err)
	}
	ck.args = append(ck.args, clArg{name: name, params: []string{fmt.Sprintf("const %s %s", ct.C, name)}, start: start.Neutral, startOf: m})
	r.neutral, r.neutralArg = name, true
	return ""
}

// structNeutral returns the C initializer, of the skeleton's struct of
// the flattened fields (flatFields), of a struct fold's neutral element
// ne of type t written as a composite literal whose fields are constants
// or math.Inf of a constant (an omitted field being zero, a struct
// field a literal of those too); "" for any other expression.
func (ck *clKernel) structNeutral(ne *ir.Operand, t types.Type) string {
	if ne == nil || len(ne.Uses) > 0 {
		return ""
	}
	info := ck.f.Info()
	var vals []string
	var walk func(e ast.Expr, t types.Type) bool
	walk = func(e ast.Expr, t types.Type) bool {
		st := t.Underlying().(*types.Struct)
		var cl *ast.CompositeLit
		if e != nil {
			var ok bool
			if cl, ok = ast.Unparen(e).(*ast.CompositeLit); !ok {
				return false
			}
		}
		elts := make([]ast.Expr, st.NumFields())
		if cl != nil {
			for i, el := range cl.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					elts[i] = el
					continue
				}
				for j := range st.NumFields() {
					if id, ok := kv.Key.(*ast.Ident); ok && st.Field(j).Name() == id.Name {
						elts[j] = kv.Value
					}
				}
			}
		}
		for i := range st.NumFields() {
			ft := st.Field(i).Type()
			sk := skelScalar(ft)
			if sk == "" {
				if !walk(elts[i], ft) {
					return false
				}
				continue
			}
			v := scalarNeutral(info, elts[i], sk)
			if v == "" {
				return false
			}
			vals = append(vals, v)
		}
		return true
	}
	if !walk(ne.Expr, t) {
		return ""
	}
	return "{" + strings.Join(vals, ", ") + "}"
}

// goNaNC is math.NaN()'s bits in C.
const goNaNC = "as_double(0x7FF8000000000001UL)"

// scalarNeutral returns the C literal of a neutral element e of skeleton
// type sk, or of a field of a struct's: 0 when e is nil (omitted), a
// constant, ±infinity for math.Inf of a constant, NaN for math.NaN(),
// each converted to the type or not, negated or not; "" otherwise.
func scalarNeutral(info *types.Info, e ast.Expr, sk string) string {
	if e == nil {
		if sk == "Float32" || sk == "Float64" {
			return cLiteral(constant.MakeInt64(0), sk)
		}
		return "0"
	}
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		if tv.Value.Kind() == constant.Bool {
			if constant.BoolVal(tv.Value) {
				return "1"
			}
			return "0"
		}
		return cLiteral(tv.Value, sk)
	}
	float := sk == "Float32" || sk == "Float64"
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && float && (u.Op == token.SUB || u.Op == token.ADD) {
		v := scalarNeutral(info, u.X, sk) // -math.Inf(1); -math.NaN() flips the sign bit, as in Go
		if v == "" || u.Op == token.ADD {
			return v
		}
		return "(-" + v + ")"
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || !float {
		return ""
	}
	if fn, isFn := typeutil.Callee(info, call).(*types.Func); isFn && len(call.Args) == 0 && fn.Pkg() != nil && fn.Pkg().Path() == "math" && fn.Name() == "NaN" {
		if sk == "Float32" {
			return "((float)" + goNaNC + ")"
		}
		return goNaNC
	}
	if len(call.Args) != 1 {
		return ""
	}
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		if skelScalar(tv.Type) == sk {
			return scalarNeutral(info, call.Args[0], sk) // float32(math.Inf(-1))
		}
		return ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	arg, ok2 := info.Types[call.Args[0]]
	if !ok || !ok2 || fn.Pkg() == nil || fn.Pkg().Path() != "math" || fn.Name() != "Inf" || arg.Value == nil {
		return ""
	}
	if constant.Sign(arg.Value) >= 0 {
		return "INFINITY"
	}
	return "(-INFINITY)"
}

// zeroLiteral reports whether ne is written T{}: a struct's zero value.
func zeroLiteral(ne *ir.Operand) bool {
	if ne == nil {
		return false
	}
	cl, ok := ast.Unparen(ne.Expr).(*ast.CompositeLit)
	return ok && len(cl.Elts) == 0
}

// cLiteral returns the OpenCL C literal of constant v as skel type st, or
// "" when v is not representable.
func cLiteral(v constant.Value, st string) string {
	switch st {
	case "Float32", "Float64":
		x, ok := constant.Float64Val(constant.ToFloat(v))
		if !ok && constant.ToFloat(v).Kind() != constant.Float {
			return ""
		}
		if st == "Float32" {
			x = float64(float32(x))
			return strconv.FormatFloat(x, 'x', -1, 32) + "f"
		}
		return strconv.FormatFloat(x, 'x', -1, 64)
	}
	iv := constant.ToInt(v)
	if iv.Kind() != constant.Int {
		return ""
	}
	switch st {
	case "Int32", "Int64":
		x, ok := constant.Int64Val(iv)
		if !ok || st == "Int32" && int64(int32(x)) != x {
			return ""
		}
		// -x-1 spelled so that the most negative value is no overflow.
		if x < 0 {
			return fmt.Sprintf("(-%dL-1)", -(x + 1))
		}
		return fmt.Sprintf("%dL", x)
	default:
		x, ok := constant.Uint64Val(iv)
		if !ok || st == "Uint32" && uint64(uint32(x)) != x {
			return ""
		}
		return fmt.Sprintf("%dUL", x)
	}
}
