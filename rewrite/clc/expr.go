package clc

// This file translates expressions: constants (folded by the type
// checker), variables and captures, operators with Go's semantics (see
// ops.go), conversions, field and index expressions with bounds checks,
// composite literals and calls. An expression that needs statements (a
// nested SOAC loop, the right operand of && holding one, an array
// literal) writes them before the statement that uses it. It does not
// translate statements (func.go), math calls (math.go) or SOACs (soac.go).

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
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

// selector translates a field access.
func (f *fn) selector(e *ast.SelectorExpr) val {
	sel := f.info.Selections[e]
	if sel == nil {
		obj := f.info.Uses[e.Sel]
		if v, ok := obj.(*types.Var); ok {
			return f.varRef(v, e.Pos())
		}
		f.fail(e.Pos(), "reference to "+e.Sel.Name, "functions are translated only when called")
		return val{"0", scalars[types.Int64]}
	}
	if sel.Kind() != types.FieldVal {
		f.fail(e.Pos(), "method value "+e.Sel.Name, "methods are translated only when called")
		return val{"0", scalars[types.Int64]}
	}
	if sel.Indirect() {
		f.fail(e.Pos(), "field of a pointer", "pointers are not translated")
		return val{"0", scalars[types.Int64]}
	}
	x := f.expr(e.X)
	c, t := f.fieldPath(x.c, x.t, sel.Index(), e.Pos())
	return val{c, t}
}

// fieldPath follows a field index path (embedded fields included).
func (f *fn) fieldPath(base string, t *Type, path []int, pos token.Pos) (string, *Type) {
	for _, i := range path {
		if t.Kind != Struct || i >= len(t.Fields) {
			return f.fail(pos, "field selection", "not a struct value"), scalars[types.Int64]
		}
		base = base + "." + t.Fields[i].C
		t = t.Fields[i].Type
	}
	return base, t
}

// arrayIndex returns the C index expression of a local array, checked
// unless it is a constant (which Go checked at compile time).
func (f *fn) arrayIndex(ix val, t *Type, ie ast.Expr, pos token.Pos) string {
	if tv := f.info.Types[ie]; tv.Value != nil {
		return ix.c
	}
	f.u.helper("soac__panic", panicHelper)
	f.u.helper("soac__ix", "static inline long soac__ix(const long i, const long n, int *e, const int site) { if ((ulong)i >= (ulong)n) { soac__panic(e, site); return 0; } return i; }")
	return fmt.Sprintf("soac__ix((long)(%s), %d, soac__err, %d)", ix.c, t.Len, f.u.site(pos, "index out of range"))
}

// sliceOf returns the view type of the rows of a Slice2.
func (f *fn) sliceOf(t *Type) *Type {
	return f.typ(t.Go.Underlying().(*types.Slice).Elem(), token.NoPos)
}

// index translates x[i] on arrays, slice views and views of rows.
func (f *fn) index(e *ast.IndexExpr) val {
	if v, ok := f.reads[e]; ok {
		return v // an index read: the element the caller passes
	}
	if tv, ok := f.info.Types[e.X]; ok && tv.Type != nil {
		if _, isSig := tv.Type.Underlying().(*types.Signature); isSig {
			f.fail(e.Pos(), "generic instantiation", "generic functions are not translated")
			return val{"0", scalars[types.Int64]}
		}
	}
	xt := f.info.TypeOf(e.X)
	switch u := xt.Underlying().(type) {
	case *types.Map:
		f.fail(e.Pos(), "map index", "maps are not translated")
		return val{"0", scalars[types.Int64]}
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			f.fail(e.Pos(), "string index", "strings are not translated")
			return val{"0", scalars[types.Int64]}
		}
	case *types.Pointer:
		f.fail(e.Pos(), "index through a pointer", "pointers are not translated")
		return val{"0", scalars[types.Int64]}
	}
	t := f.typ(xt, e.X.Pos())
	x := f.expr(e.X)
	ix := f.expr(e.Index)
	if f.failed() {
		return val{"0", scalars[types.Int64]}
	}
	switch t.Kind {
	case Array:
		x = f.spillArray(x)
		return val{fmt.Sprintf("%s.a[%s]", x.c, f.arrayIndex(ix, t, e.Index, e.Lbrack)), t.Elem}
	case Slice:
		name := "soac__ld_" + t.Elem.C
		f.u.helper("soac__panic", panicHelper)
		f.u.helper(name, fmt.Sprintf("static inline %[1]s %[2]s(const %[3]s v, const long i, int *e, const int site) { if ((ulong)i >= (ulong)v.n) { soac__panic(e, site); return %[4]s; } return v.p[i]; }", t.Elem.C, name, t.C, zeroOf(t.Elem)))
		return val{fmt.Sprintf("%s(%s, (long)(%s), soac__err, %d)", name, x.c, ix.c, f.u.site(e.Lbrack, "index out of range")), t.Elem}
	case Slice2:
		row := f.sliceOf(t)
		name := "soac__row_" + t.Elem.C
		f.u.helper("soac__panic", panicHelper)
		f.u.helper(name, fmt.Sprintf("static inline %[1]s %[2]s(const %[3]s v, const long i, int *e, const int site) { if ((ulong)i >= (ulong)v.n) { soac__panic(e, site); return %[1]s__mk(v.p, 0); } return %[1]s__mk(v.p + v.off[i], v.off[i + 1] - v.off[i]); }", row.C, name, t.C))
		return val{fmt.Sprintf("%s(%s, (long)(%s), soac__err, %d)", name, x.c, ix.c, f.u.site(e.Lbrack, "index out of range")), row}
	}
	f.fail(e.Pos(), "index of "+xt.String(), "not translated")
	return val{"0", scalars[types.Int64]}
}

// spillArray binds an array value that is not a name to a temporary, since
// C cannot index the member of a function's result.
func (f *fn) spillArray(x val) val {
	if simple.MatchString(x.c) || strings.HasSuffix(x.c, "]") || regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`).MatchString(x.c) {
		return x
	}
	return f.spill(x)
}

// slice translates xs[lo:hi] of a slice view. The capacity of a captured
// slice is not passed to the device, so hi is checked against its length:
// a slice up to the capacity beyond the length is flagged as a panic,
// and the host's re-run on the CPU gives Go's result.
func (f *fn) slice(e *ast.SliceExpr) val {
	t := f.typ(f.info.TypeOf(e.X), e.X.Pos())
	if t.Kind != Slice || e.Slice3 {
		f.fail(e.Pos(), "slice expression on "+f.info.TypeOf(e.X).String(), "only two-index slices of slices are translated")
		return val{"0", scalars[types.Int64]}
	}
	x := f.spill(f.expr(e.X))
	lo, hi := "0", x.c+".n"
	if e.Low != nil {
		lo = "(long)(" + f.expr(e.Low).c + ")"
	}
	if e.High != nil {
		hi = "(long)(" + f.expr(e.High).c + ")"
	}
	name := "soac__sub_" + t.Elem.C
	f.u.helper("soac__panic", panicHelper)
	f.u.helper(name, fmt.Sprintf("static inline %[1]s %[2]s(const %[1]s v, const long lo, const long hi, int *e, const int site) { if ((ulong)hi > (ulong)v.n || (ulong)lo > (ulong)hi) { soac__panic(e, site); return %[1]s__mk(v.p, 0); } return %[1]s__mk(v.p + lo, hi - lo); }", t.C, name))
	return val{fmt.Sprintf("%s(%s, %s, %s, soac__err, %d)", name, x.c, lo, hi, f.u.site(e.Lbrack, "slice bounds out of range")), t}
}

// composite translates struct and array literals.
func (f *fn) composite(e *ast.CompositeLit) val {
	gt := f.info.TypeOf(e)
	t := f.typ(gt, e.Pos())
	if f.failed() {
		return val{"0", t}
	}
	switch t.Kind {
	case Struct:
		args := make([]string, len(t.Fields))
		for i, fl := range t.Fields {
			args[i] = zeroOf(fl.Type)
		}
		st := gt.Underlying().(*types.Struct)
		for i, el := range e.Elts {
			k := i
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				name := kv.Key.(*ast.Ident).Name
				for j := range st.NumFields() {
					if st.Field(j).Name() == name {
						k = j
					}
				}
				el = kv.Value
			}
			args[k] = f.convertTo(f.expr(el), t.Fields[k].Type)
		}
		return val{fmt.Sprintf("%s__mk(%s)", t.C, strings.Join(args, ", ")), t}
	case Array:
		tmp := f.temp()
		f.w.line("%s %s = %s;", t.C, tmp, zeroOf(t))
		idx := int64(0)
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				n, _ := constant.Int64Val(constant.ToInt(f.info.Types[kv.Key].Value))
				idx = n
				el = kv.Value
			}
			f.w.line("%s.a[%d] = %s;", tmp, idx, f.convertTo(f.expr(el), t.Elem))
			idx++
		}
		return val{tmp, t}
	}
	f.fail(e.Pos(), "composite literal of "+gt.String(), "only struct and array literals are translated")
	return val{"0", t}
}

// call translates conversions, builtins, math functions, nested SOACs and
// calls of translatable functions and methods.
func (f *fn) call(e *ast.CallExpr) val {
	if tv, ok := f.info.Types[e.Fun]; ok && tv.IsType() {
		t := f.typ(tv.Type, e.Pos())
		x := f.expr(e.Args[0])
		if f.failed() {
			return val{"0", t}
		}
		if !t.IsScalar() || !x.t.IsScalar() {
			return val{x.c, t}
		}
		return val{f.conversion(x, t), t}
	}
	if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok {
		if b, ok := f.info.Uses[id].(*types.Builtin); ok {
			return f.builtin(b.Name(), e)
		}
	}
	callee := typeutil.Callee(f.info, e)
	fn, ok := callee.(*types.Func)
	if !ok {
		if _, lit := ast.Unparen(e.Fun).(*ast.FuncLit); lit {
			f.fail(e.Pos(), "call of a function literal", "write the code inline")
		} else {
			f.fail(e.Pos(), "call of function value "+types.ExprString(e.Fun), "only calls of declared functions are translated")
		}
		return val{"0", scalars[types.Int64]}
	}
	if fn.Pkg() != nil {
		switch fn.Pkg().Path() {
		case "math":
			return f.mathCall(fn.Name(), e)
		case soacPath:
			return f.nested(fn.Name(), e)
		}
	}
	sig := fn.Signature()
	if sig.Recv() != nil {
		if _, isIface := sig.Recv().Type().Underlying().(*types.Interface); isIface {
			f.fail(e.Pos(), "call of interface method "+fn.Name(), "interfaces are not translated")
			return val{"0", scalars[types.Int64]}
		}
	}
	tf, err := f.u.declared(fn, e.Pos())
	if err != nil {
		f.w.fail(err)
		return val{"0", scalars[types.Int64]}
	}
	if tf.Result != nil && tf.Result.IsView() {
		f.fail(e.Pos(), "call of "+fn.FullName(), "a called function returning a slice is not translated")
		return val{"0", scalars[types.Int64]}
	}
	var args []string
	if sig.Recv() != nil {
		sel := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if s := f.info.Selections[sel]; s != nil && (s.Indirect() || len(s.Index()) > 1) {
			f.fail(e.Pos(), "call of promoted or pointer method "+fn.Name(), "not translated")
			return val{"0", scalars[types.Int64]}
		}
		args = append(args, f.expr(sel.X).c)
	}
	off := len(args) // the receiver is the first parameter of a method
	for i, a := range e.Args {
		args = append(args, f.convertTo(f.expr(a), tf.Params[off+i].Type))
	}
	args = append(args, "soac__err")
	return val{fmt.Sprintf("%s(%s)", tf.Name, strings.Join(args, ", ")), tf.Result}
}

// builtin translates len, min and max; other builtins are refused.
func (f *fn) builtin(name string, e *ast.CallExpr) val {
	switch name {
	case "len":
		x := f.expr(e.Args[0])
		switch x.t.Kind {
		case Array:
			return val{fmt.Sprint(x.t.Len), scalars[types.Int]}
		case Slice, Slice2:
			return val{x.c + ".n", scalars[types.Int]}
		}
	case "min", "max":
		return f.minMax(name, e)
	}
	f.fail(e.Pos(), "builtin "+name, "not translated (allocation, maps, channels, complex numbers and capacities are not available on the device)")
	return val{"0", scalars[types.Int64]}
}
