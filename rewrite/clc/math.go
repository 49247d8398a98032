package clc

// This file translates calls of package math and the builtins min and
// max. Functions whose special cases (NaN, ±0, ±Inf) OpenCL C's built-in
// shares with Go map onto it; Pow, Max, Min, Mod, Remainder, Dim, Inf,
// NaN, IsInf, Ldexp and the float builtins min and max get helpers that
// follow Go's definitions case by case (OpenCL's fmax and fmin return
// the other operand for a NaN and need not order -0 below +0); the others
// are refused, each with its reason (mathRefused). Accuracy: OpenCL's built-ins are
// within a few ULP of the exact result (the OpenCL specification's table
// for each), Go's within one or two; mathULP states the bound the tests
// hold each function to. It does not translate other packages.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// mathBuiltins maps math functions of float64 arguments onto the OpenCL
// built-in with the same special cases.
var mathBuiltins = map[string]string{
	"Sqrt": "sqrt", "Exp": "exp", "Log": "log", "Abs": "fabs", "Floor": "floor", "Ceil": "ceil",
	"Trunc": "trunc", "Erf": "erf", "Erfc": "erfc", "Sin": "sin", "Cos": "cos", "Tan": "tan",
	"Exp2": "exp2", "Log2": "log2", "Log10": "log10", "Log1p": "log1p", "Expm1": "expm1",
	"Sinh": "sinh", "Cosh": "cosh", "Tanh": "tanh", "Asin": "asin", "Acos": "acos", "Atan": "atan",
	"Atan2": "atan2", "Hypot": "hypot", "Cbrt": "cbrt", "Copysign": "copysign", "Round": "round",
	"RoundToEven": "rint", "Acosh": "acosh", "Asinh": "asinh", "Atanh": "atanh", "Logb": "logb",
	"FMA": "fma",
}

// mathRefused says why the math functions that are not translated are
// not: OpenCL C has no function of Go's semantics, or none at all.
var mathRefused = map[string]string{
	"Ilogb":       "OpenCL's ilogb returns implementation-defined values for 0 and NaN, Go's MinInt32 and MaxInt32",
	"Nextafter":   "OpenCL's nextafter returns y, not x, when x == y (Nextafter(0, -0) is 0 in Go)",
	"Nextafter32": "OpenCL's nextafter returns y, not x, when x == y (Nextafter32(0, -0) is 0 in Go)",
	"Pow10":       "Go's Pow10 is exact; OpenCL's exp10 is within a few ULP",
	"Gamma":       "OpenCL's tgamma is within 16 ULP; Go's Gamma has its own approximation, and no bound between the two is known",
	"Lgamma":      "it returns two results",
	"Frexp":       "it returns two results",
	"Modf":        "it returns two results",
	"Sincos":      "it returns two results",
	"Erfinv":      "OpenCL C has no inverse error function",
	"Erfcinv":     "OpenCL C has no inverse error function",
	"J0":          "OpenCL C has no Bessel functions",
	"J1":          "OpenCL C has no Bessel functions",
	"Jn":          "OpenCL C has no Bessel functions",
	"Y0":          "OpenCL C has no Bessel functions",
	"Y1":          "OpenCL C has no Bessel functions",
	"Yn":          "OpenCL C has no Bessel functions",
}

// goNaN is math.NaN()'s bit pattern.
const goNaN = "as_double(0x7FF8000000000001UL)"

// mathHelpers are Go's definitions of the functions whose special cases
// OpenCL C does not share.
var mathHelpers = map[string]string{
	"Pow": `static inline double soac__pow(const double x, const double y) {
	if (y == 0.0 || x == 1.0) return 1.0;
	if (y == 1.0) return x;
	if (isnan(x) || isnan(y)) return ` + goNaN + `;
	const int odd = fabs(y) < 9007199254740992.0 && rint(y) == y && fmod(y, 2.0) != 0.0;
	if (x == 0.0) {
		if (y < 0.0) return (signbit(x) && odd) ? -INFINITY : INFINITY;
		return (signbit(x) && odd) ? x : 0.0;
	}
	if (isinf(y)) {
		if (x == -1.0) return 1.0;
		return ((fabs(x) < 1.0) == (y > 0.0)) ? 0.0 : INFINITY;
	}
	if (isinf(x)) {
		if (x < 0.0) return y > 0.0 ? (odd ? -INFINITY : INFINITY) : (odd ? -0.0 : 0.0); /* Pow(-0, -y) */
		return y < 0.0 ? 0.0 : INFINITY;
	}
	if (y == 0.5) return sqrt(x);
	if (y == -0.5) return 1.0 / sqrt(x);
	return pow(x, y);
}`,
	"Max": `static inline double soac__max(const double x, const double y) {
	if ((isinf(x) && x > 0.0) || (isinf(y) && y > 0.0)) return INFINITY;
	if (isnan(x) || isnan(y)) return ` + goNaN + `;
	if (x == 0.0 && x == y) return signbit(x) ? y : x;
	return x > y ? x : y;
}`,
	"Min": `static inline double soac__min(const double x, const double y) {
	if ((isinf(x) && x < 0.0) || (isinf(y) && y < 0.0)) return -INFINITY;
	if (isnan(x) || isnan(y)) return ` + goNaN + `;
	if (x == 0.0 && x == y) return signbit(x) ? x : y;
	return x < y ? x : y;
}`,
	// fmod and remainder are exact and share Go's special cases; Go
	// returns NaN() for them, whatever NaN an operand holds.
	"Mod": `static inline double soac__mod(const double x, const double y) {
	if (y == 0.0 || isinf(x) || isnan(x) || isnan(y)) return ` + goNaN + `;
	return fmod(x, y);
}`,
	"Remainder": `static inline double soac__remainder(const double x, const double y) {
	if (y == 0.0 || isinf(x) || isnan(x) || isnan(y)) return ` + goNaN + `;
	return remainder(x, y);
}`,
	// Go's Dim is x - y, or +0 where that is not above 0: NaN for
	// Dim(+Inf, +Inf) (OpenCL's fdim gives +0).
	"Dim": `static inline double soac__dim(const double x, const double y) {
	const double v = x - y;
	return v <= 0.0 ? 0.0 : v;
}`,
	// Go's Ldexp adds the exponent of x to e in wrapping int arithmetic
	// (Ldexp(0.5, MinInt64) is +Inf) and rounds once, as ldexp does.
	"Ldexp": `static inline double soac__ldexp(const double x, const long e) {
	if (x == 0.0 || isinf(x) || isnan(x)) return x;
	const int xe = ilogb(x);
	const long t = (long)((ulong)e + (ulong)(long)xe);
	if (t < -1100L) return copysign((double)0.0, x);
	if (t > 1100L) return copysign((double)INFINITY, x);
	return ldexp(x, (int)(t - xe));
}`,
	"IsInf": `static inline uchar soac__isinf(const double x, const long sign) {
	return (sign >= 0 && isinf(x) && x > 0.0) || (sign <= 0 && isinf(x) && x < 0.0);
}`,
}

// mathCall translates a call of a math function.
func (f *fn) mathCall(name string, e *ast.CallExpr) val {
	args := make([]val, len(e.Args))
	for i, a := range e.Args {
		args[i] = f.expr(a)
	}
	return f.mathApply(name, args, e.Pos())
}

// mathApply applies math function name to translated arguments.
func (f *fn) mathApply(name string, args []val, pos token.Pos) val {
	d := f.typ(types.Typ[types.Float64], pos)
	b := scalars[types.Bool]
	cs := make([]string, len(args))
	for i, a := range args {
		cs[i] = a.c
	}
	if c, ok := mathBuiltins[name]; ok {
		return val{fmt.Sprintf("%s(%s)", c, strings.Join(cs, ", ")), d}
	}
	if h, ok := mathHelpers[name]; ok {
		f.u.helper("soac__"+strings.ToLower(name), h)
		t := d
		switch name {
		case "IsInf":
			t = b
			cs[1] = "(long)(" + cs[1] + ")"
		case "Ldexp":
			cs[1] = "(long)(" + cs[1] + ")"
		}
		return val{fmt.Sprintf("soac__%s(%s)", strings.ToLower(name), strings.Join(cs, ", ")), t}
	}
	switch name {
	case "Inf":
		return val{fmt.Sprintf("((%s) >= 0 ? as_double(0x7FF0000000000000UL) : as_double(0xFFF0000000000000UL))", cs[0]), d}
	case "NaN":
		return val{goNaN, d}
	case "IsNaN":
		return val{fmt.Sprintf("((uchar)(isnan(%s) != 0))", cs[0]), b}
	case "Signbit":
		return val{fmt.Sprintf("((uchar)(signbit(%s) != 0))", cs[0]), b}
	case "Float64bits":
		return val{fmt.Sprintf("as_ulong(%s)", cs[0]), scalars[types.Uint64]}
	case "Float64frombits":
		return val{fmt.Sprintf("as_double(%s)", cs[0]), d}
	case "Float32bits":
		return val{fmt.Sprintf("as_uint(%s)", cs[0]), scalars[types.Uint32]}
	case "Float32frombits":
		return val{fmt.Sprintf("as_float(%s)", cs[0]), scalars[types.Float32]}
	}
	why, ok := mathRefused[name]
	if !ok {
		why = "not among the translated math functions"
	}
	f.fail(pos, "call of math."+name, why)
	return val{"0", d}
}

// minMax translates the builtins min and max: OpenCL's integer min and
// max, and for floats Go's definition (a NaN operand gives NaN, -0 is
// below +0), folded left to right over the arguments.
func (f *fn) minMax(name string, e *ast.CallExpr) val {
	t := f.typ(defaultType(f.info.TypeOf(e)), e.Pos())
	acc := f.convertTo(f.expr(e.Args[0]), t)
	for _, a := range e.Args[1:] {
		y := f.convertTo(f.expr(a), t)
		switch {
		case t.IsInteger():
			acc = fmt.Sprintf("%s(%s, %s)", name, acc, y)
		case t.IsFloat():
			h := "soac__f" + name + "_" + t.C
			ut := "ulong"
			if t.Kind == Float32 {
				ut = "uint"
			}
			cmp, bits := "<", "|"
			if name == "max" {
				cmp, bits = ">", "&"
			}
			f.u.helper(h, fmt.Sprintf(`static inline %[1]s %[2]s(const %[1]s x, const %[1]s y) {
	if (isnan(y) || y %[3]s x) return y;
	if (isnan(x) || x %[3]s y || x != 0) return x;
	return as_%[1]s(as_%[4]s(x) %[5]s as_%[4]s(y));
}`, t.C, h, cmp, ut, bits))
			acc = fmt.Sprintf("%s(%s, %s)", h, acc, y)
		default:
			f.fail(e.Pos(), "builtin "+name+" of "+t.C, "strings are not translated")
		}
	}
	return val{acc, t}
}
