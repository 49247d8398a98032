package clc

// This file translates expressions: constants (folded by the type
// checker), variables and captures, operators with Go's semantics (see
// ops.go) and conversions; field and index expressions with bounds checks
// and composite literals are aggregate.go's, calls call.go's. An
// expression that needs statements (a nested SOAC loop, the right operand
// of && holding one, an array literal) writes them before the statement
// that uses it. It does not translate statements (func.go), math calls
// (math.go) or SOACs (soac.go).

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
	"strings"
)

// val is a translated expression: C text and type. t is nil for a call
// without result.
type val struct {
	c string
	t *Type
}

var simple = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*|[-+]?[0-9][0-9A-Za-z.+-]*|\(\([a-z]+\)-?[0-9]+\))$`)

// spill binds v to a temporary unless it is a name or a literal, so that
// it can be used twice without being evaluated twice.
func (f *fn) spill(v val) val {
	if v.t == nil || simple.MatchString(v.c) {
		return v
	}
	t := f.temp()
	f.w.line("const %s %s = %s;", v.t.C, t, v.c)
	return val{t, v.t}
}

// defaultType is the type of an untyped constant where Go gives it its
// default type.
func defaultType(t types.Type) types.Type {
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		return types.Default(t)
	}
	return t
}

// expr translates an expression.
func (f *fn) expr(e ast.Expr) val {
	if f.failed() {
		return val{"0", scalars[types.Int64]}
	}
	if tv, ok := f.info.Types[e]; ok && tv.Value != nil {
		t := f.typ(defaultType(tv.Type), e.Pos())
		return val{f.literal(tv.Value, t, e.Pos()), t}
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return f.expr(e.X)
	case *ast.Ident:
		return f.ident(e)
	case *ast.BinaryExpr:
		return f.binaryExpr(e)
	case *ast.UnaryExpr:
		return f.unary(e)
	case *ast.CallExpr:
		return f.call(e)
	case *ast.SelectorExpr:
		return f.selector(e)
	case *ast.IndexExpr:
		return f.index(e)
	case *ast.SliceExpr:
		return f.slice(e)
	case *ast.CompositeLit:
		return f.composite(e)
	case *ast.StarExpr:
		f.fail(e.Pos(), "pointer indirection", "pointers into Go memory are not translated")
	case *ast.TypeAssertExpr:
		f.fail(e.Pos(), "type assertion", "interfaces are not translated")
	case *ast.FuncLit:
		f.fail(e.Pos(), "function literal", "closures are translated only as the function argument of a SOAC call")
	case *ast.IndexListExpr:
		f.fail(e.Pos(), "generic instantiation", "generic functions are not translated")
	default:
		f.fail(e.Pos(), fmt.Sprintf("expression %T", e), "not in the translated subset")
	}
	return val{"0", scalars[types.Int64]}
}

// literal writes a constant of type t.
func (f *fn) literal(v constant.Value, t *Type, pos token.Pos) string {
	switch {
	case t.Kind == Bool:
		if constant.BoolVal(v) {
			return "1"
		}
		return "0"
	case t.IsInteger():
		if t.IsSigned() {
			n, _ := constant.Int64Val(constant.ToInt(v))
			min := map[Kind]int64{Int8: -1 << 7, Int16: -1 << 15, Int32: -1 << 31, Int64: -1 << 63}[t.Kind]
			s := strconv.FormatInt(n, 10)
			if n == min {
				s = fmt.Sprintf("(%d - 1)", n+1)
			}
			switch t.Kind {
			case Int64:
				if n == min {
					return "(-9223372036854775807L - 1L)"
				}
				if n < 0 {
					return "(" + s + "L)"
				}
				return s + "L"
			case Int32:
				if n < 0 {
					return "(" + s + ")"
				}
				return s
			}
			return fmt.Sprintf("((%s)%s)", t.C, s)
		}
		n, _ := constant.Uint64Val(constant.ToInt(v))
		switch t.Kind {
		case Uint64:
			return strconv.FormatUint(n, 10) + "UL"
		case Uint32:
			return strconv.FormatUint(n, 10) + "U"
		}
		return fmt.Sprintf("((%s)%d)", t.C, n)
	case t.IsFloat():
		bits := 64
		if t.Kind == Float32 {
			bits = 32
		}
		x, _ := constant.Float64Val(constant.ToFloat(v))
		s := strconv.FormatFloat(x, 'g', -1, bits)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		if bits == 32 {
			s += "f"
		}
		if s[0] == '-' {
			return "(" + s + ")"
		}
		return s
	}
	return f.fail(pos, "constant of type "+t.C, "not translated")
}

// ident translates a variable reference.
func (f *fn) ident(e *ast.Ident) val {
	obj := f.info.Uses[e]
	switch obj := obj.(type) {
	case *types.Var:
		return f.varRef(obj, e.Pos())
	case *types.Nil:
		f.fail(e.Pos(), "nil", "pointers, slices made in Go and interfaces are not translated")
	case *types.Func:
		f.fail(e.Pos(), "function value "+e.Name, "functions are translated only when called")
	default:
		f.fail(e.Pos(), "identifier "+e.Name, "not a translatable variable")
	}
	return val{"0", scalars[types.Int64]}
}

// varRef returns the C name of a variable: a local, or a capture.
func (f *fn) varRef(v *types.Var, pos token.Pos) val {
	if c, ok := f.locals[v]; ok {
		return val{c, f.typ(v.Type(), pos)}
	}
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		f.fail(pos, "package-level variable "+v.Name(), "it may change between launches; pass it as a parameter or capture a local copy")
		return val{"0", scalars[types.Int64]}
	}
	if !f.lambda {
		f.fail(pos, "free variable "+v.Name(), "only lambdas capture variables")
		return val{"0", scalars[types.Int64]}
	}
	t := f.typ(v.Type(), pos)
	c := f.captureName(v.Name())
	f.locals[v] = c
	f.capIdx[v] = len(f.caps)
	f.caps = append(f.caps, Capture{Var: v, C: c, Type: t, Pos: f.u.fset.Position(pos)})
	return val{c, t}
}

// convertTo converts v to type t where Go converts implicitly (untyped
// constants were typed by the checker; named and unnamed types share C
// types), so only the C text of v is needed.
func (f *fn) convertTo(v val, t *Type) string {
	if v.t == nil || t == nil || v.t.C == t.C || !v.t.IsScalar() || !t.IsScalar() {
		return v.c
	}
	return f.conversion(v, t)
}

// conversion translates T(x) between scalar types.
func (f *fn) conversion(v val, t *Type) string {
	switch {
	case v.t.C == t.C:
		return v.c
	case v.t.IsFloat() && t.IsInteger():
		return f.floatToInt(v.t, t, v.c)
	}
	return fmt.Sprintf("((%s)(%s))", t.C, v.c)
}

// binaryExpr translates a binary expression.
func (f *fn) binaryExpr(e *ast.BinaryExpr) val {
	if e.Op == token.LAND || e.Op == token.LOR {
		return f.logical(e)
	}
	rt := f.typ(defaultType(f.info.TypeOf(e)), e.Pos())
	x := f.expr(e.X)
	y := f.expr(e.Y)
	switch e.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		ot := x.t
		if _, isConst := f.info.Types[e.X]; isConst && f.info.Types[e.X].Value != nil {
			ot = y.t
		}
		return val{f.binary(e.Op, x, y, ot, e.Y, e.OpPos), rt}
	}
	return val{f.binary(e.Op, x, y, rt, e.Y, e.OpPos), rt}
}

// logical translates && and ||. When the right operand needs statements,
// they run only when Go would evaluate it.
func (f *fn) logical(e *ast.BinaryExpr) val {
	b := scalars[types.Bool]
	x := f.expr(e.X)
	pre, y := f.capture(func() string { return f.expr(e.Y).c })
	op := "&&"
	if e.Op == token.LOR {
		op = "||"
	}
	if pre == "" {
		return val{fmt.Sprintf("(%s %s %s)", x.c, op, y), b}
	}
	t := f.temp()
	f.w.line("uchar %s = %s;", t, x.c)
	if e.Op == token.LAND {
		f.w.open("if (%s) {", t)
	} else {
		f.w.open("if (!%s) {", t)
	}
	f.w.raw(pre)
	f.w.line("%s = %s;", t, y)
	f.w.close("}")
	return val{t, b}
}

// binary returns x op y where t is the operands' type (the left one's
// for shifts). ye is the right operand's syntax, for constant divisors
// and shift counts.
func (f *fn) binary(op token.Token, x, y val, t *Type, ye ast.Expr, pos token.Pos) string {
	cmp := map[token.Token]string{token.EQL: "==", token.NEQ: "!=", token.LSS: "<", token.LEQ: "<=", token.GTR: ">", token.GEQ: ">="}
	if c, ok := cmp[op]; ok {
		a, b := f.convertTo(x, t), f.convertTo(y, t)
		if t.Kind == Struct || t.Kind == Array {
			s := equalOf(t, a, b)
			if op == token.NEQ {
				s = "(!" + s + ")"
			}
			return s
		}
		if t.IsView() {
			return f.fail(pos, "slice comparison", "slices compare only with nil")
		}
		return fmt.Sprintf("(%s %s %s)", a, c, b)
	}
	if op == token.SHL || op == token.SHR {
		var tv types.TypeAndValue
		if ye != nil {
			tv = f.info.Types[ye]
		}
		if tv.Value != nil {
			if c, ok := constant.Uint64Val(constant.ToInt(tv.Value)); ok && c < uint64(t.Bits()) {
				u, _ := wide(t)
				if op == token.SHL {
					return fmt.Sprintf("((%s)((%s)(%s) << %d))", t.C, u, f.convertTo(x, t), c)
				}
				return fmt.Sprintf("((%s)(%s >> %d))", t.C, f.convertTo(x, t), c)
			}
		}
		return f.shift(t, op.String(), f.convertTo(x, t), f.shiftCount(y.t, y.c, tv.Value != nil, pos))
	}
	a, b := f.convertTo(x, t), f.convertTo(y, t)
	if t.IsFloat() {
		switch op {
		case token.ADD, token.SUB, token.MUL, token.QUO:
			if op == token.QUO && t.Kind == Float32 {
				f.u.f32div = true
			}
			return fmt.Sprintf("(%s %s %s)", a, op, b)
		}
	}
	if t.IsInteger() {
		switch op {
		case token.ADD, token.SUB, token.MUL:
			return wrap(t, op.String(), a, b)
		case token.QUO, token.REM:
			var c *int64
			if ye == nil {
				n := int64(1)
				c = &n
			} else if tv := f.info.Types[ye]; tv.Value != nil {
				if n, ok := constant.Int64Val(constant.ToInt(tv.Value)); ok {
					c = &n
				}
			}
			return f.divide(t, op.String(), a, b, c, pos)
		case token.AND, token.OR, token.XOR:
			return fmt.Sprintf("((%s)(%s %s %s))", t.C, a, op, b)
		case token.AND_NOT:
			return fmt.Sprintf("((%s)(%s & ~%s))", t.C, a, b)
		}
	}
	return f.fail(pos, "operator "+op.String()+" on "+t.C, "not translated")
}

// unary translates -x, +x, !x and ^x.
func (f *fn) unary(e *ast.UnaryExpr) val {
	switch e.Op {
	case token.AND:
		f.fail(e.Pos(), "address-of operator", "pointers are not translated")
		return val{"0", scalars[types.Int64]}
	case token.ARROW:
		f.fail(e.Pos(), "channel receive", "channels are not translated")
		return val{"0", scalars[types.Int64]}
	}
	x := f.expr(e.X)
	t := f.typ(defaultType(f.info.TypeOf(e)), e.Pos())
	switch e.Op {
	case token.ADD:
		return x
	case token.NOT:
		return val{"(!" + x.c + ")", t}
	case token.SUB:
		if t.IsFloat() {
			return val{"(-" + x.c + ")", t}
		}
		return val{wrap(t, "-", "0", x.c), t}
	case token.XOR:
		return val{fmt.Sprintf("((%s)~%s)", t.C, x.c), t}
	}
	f.fail(e.Pos(), "operator "+e.Op.String(), "not translated")
	return x
}
