package clc

// This file emits the OpenCL C of Go's operators where C differs: integer
// arithmetic that wraps (C's signed overflow is undefined), division and
// remainder that panic on a zero divisor and wrap on MinInt / -1, shifts
// by counts of the operand's width or more (OpenCL masks the count),
// negative shift counts, and float-to-integer conversions as amd64 Go
// computes them (CVTTSD2SL / CVTTSD2SQ: out-of-range and NaN give the
// minimum integer). It does not choose operand types; expr.go does.

import (
	"fmt"
	"go/token"
)

// wide returns the unsigned C type integer arithmetic on t is done in:
// uint for types of 32 bits or less (C promotes them to int, whose
// overflow is undefined), ulong for 64-bit types.
func wide(t *Type) (string, int) {
	if t.Size == 8 {
		return "ulong", 64
	}
	return "uint", 32
}

// panicHelper is the helper every panic site calls.
const panicHelper = "static inline void soac__panic(int *e, const int site) { if (*e == 0) *e = site; }"

// wrap returns a op b on integer type t, wrapping on overflow.
func wrap(t *Type, op, a, b string) string {
	u, _ := wide(t)
	return fmt.Sprintf("((%s)((%s)(%s) %s (%s)(%s)))", t.C, u, a, op, u, b)
}

// divide returns a / b or a % b on integer type t. A constant divisor
// other than 0 and -1 needs no checks.
func (f *fn) divide(t *Type, op string, a, b string, constDiv *int64, pos token.Pos) string {
	if constDiv != nil && *constDiv != 0 && *constDiv != -1 {
		return fmt.Sprintf("((%s)((%s) %s (%s)))", t.C, a, op, b)
	}
	u, _ := wide(t)
	name := "soac__div_" + t.C
	what := "a / b"
	minus := fmt.Sprintf("return (%s)((%s)0 - (%s)a);", t.C, u, u)
	if op == "%" {
		name = "soac__rem_" + t.C
		what = "a % b"
		minus = "return 0;"
	}
	if !t.IsSigned() {
		minus = ""
	} else {
		minus = "if (b == -1) " + minus + " "
	}
	f.u.helper("soac__panic", panicHelper)
	f.u.helper(name, fmt.Sprintf("static inline %[1]s %[2]s(const %[1]s a, const %[1]s b, int *e, const int site) { if (b == 0) { soac__panic(e, site); return 0; } %[3]sreturn (%[1]s)(%[4]s); }",
		t.C, name, minus, what))
	return fmt.Sprintf("%s(%s, %s, soac__err, %d)", name, a, b, f.u.site(pos, "integer divide by zero"))
}

// shift returns a << s or a >> s on integer type t with Go's semantics.
// count is the C expression of the count already converted to ulong.
func (f *fn) shift(t *Type, op, a, count string) string {
	u, w := wide(t)
	var name, body string
	if op == "<<" {
		name = "soac__shl_" + t.C
		body = fmt.Sprintf("return s >= %d ? (%s)0 : (%s)((%s)a << s);", w, t.C, t.C, u)
	} else if t.IsSigned() {
		name = "soac__shr_" + t.C
		body = fmt.Sprintf("return (%s)(a >> (s >= %d ? %d : s));", t.C, w, w-1)
	} else {
		name = "soac__shr_" + t.C
		body = fmt.Sprintf("return s >= %d ? (%s)0 : (%s)(a >> s);", w, t.C, t.C)
	}
	f.u.helper(name, fmt.Sprintf("static inline %s %s(const %s a, const ulong s) { %s }", t.C, name, t.C, body))
	return fmt.Sprintf("%s(%s, %s)", name, a, count)
}

// shiftCount converts a shift count of type t to ulong, recording a
// panic for a negative signed count.
func (f *fn) shiftCount(t *Type, c string, constant bool, pos token.Pos) string {
	if !t.IsSigned() || constant {
		return "(ulong)(" + c + ")"
	}
	name := "soac__shc_" + t.C
	f.u.helper("soac__panic", panicHelper)
	f.u.helper(name, fmt.Sprintf("static inline ulong %s(const %s c, int *e, const int site) { if (c < 0) { soac__panic(e, site); return 0; } return (ulong)c; }", name, t.C))
	return fmt.Sprintf("%s(%s, soac__err, %d)", name, c, f.u.site(pos, "negative shift amount"))
}

// floatToInt converts float expression x of type from to integer type to
// as amd64 Go does: int8 to int32 and uint8, uint16 through a 32-bit
// truncating conversion, uint32 and int64 through a 64-bit one (both give
// the minimum integer for NaN and out-of-range values), and uint64 by
// subtracting 2^63 from values of at least 2^63 (or NaN) and setting the
// top bit.
func (f *fn) floatToInt(from, to *Type, x string) string {
	s := "d"
	lit := ""
	if from.Kind == Float32 {
		s, lit = "f", "f"
	}
	c32 := "soac__cvt32" + s
	c64 := "soac__cvt64" + s
	f.u.helper(c32, fmt.Sprintf("static inline int %s(const %s x) { return (x > -2147483649.0%s && x < 2147483648.0%s) ? (int)x : (int)0x80000000; }", c32, from.C, lit, lit))
	f.u.helper(c64, fmt.Sprintf("static inline long %s(const %s x) { return (x >= -9223372036854775808.0%s && x < 9223372036854775808.0%s) ? (long)x : (long)0x8000000000000000UL; }", c64, from.C, lit, lit))
	switch to.Kind {
	case Int64:
		return fmt.Sprintf("%s(%s)", c64, x)
	case Uint32:
		return fmt.Sprintf("((uint)%s(%s))", c64, x)
	case Uint64:
		cu := "soac__cvtu64" + s
		f.u.helper(cu, fmt.Sprintf("static inline ulong %s(const %s x) { return x < 9223372036854775808.0%s ? (ulong)%s(x) : ((ulong)%s(x - 9223372036854775808.0%s) | 0x8000000000000000UL); }", cu, from.C, lit, c64, c64, lit))
		return fmt.Sprintf("%s(%s)", cu, x)
	}
	return fmt.Sprintf("((%s)%s(%s))", to.C, c32, x)
}
