package clc

// The functions of this file are translated by TestDifferential (which
// parses and type-checks this file) and compared, on the same inputs,
// with their compiled Go versions. The file imports only math, so that it
// type-checks on its own.

import "math"

func addI8(a, b int8) int8      { return a + b }
func subU8(a, b uint8) uint8    { return a - b }
func mulI16(a, b int16) int16   { return a * b }
func mulU16(a, b uint16) uint16 { return a * b }
func mulI32(a, b int32) int32   { return a * b }
func addI64(a, b int64) int64   { return a + b }
func mulU64(a, b uint64) uint64 { return a * b }
func negI32(a int32) int32      { return -a }
func negI64(a int) int          { return -a }
func divI8(a, b int8) int8      { return a / b }
func remI8(a, b int8) int8      { return a % b }
func divI32(a, b int32) int32   { return a / b }
func remI32(a, b int32) int32   { return a % b }
func divI64(a, b int) int       { return a / b }
func remI64(a, b int) int       { return a % b }
func divU32(a, b uint32) uint32 { return a / b }
func remU64(a, b uint64) uint64 { return a % b }
func divConst(a int) int        { return a/7 + a%-3 }
func shlI8(a int8, s uint) int8 { return a << s }
func shrI8(a int8, s uint) int8 { return a >> s }
func shrU8(a uint8, s int) uint8 {
	return a >> s
}
func shlI32(a int32, s int32) int32 { return a << s }
func shrI32(a int32, s uint8) int32 { return a >> s }
func shrU32(a uint32, s uint) uint32 {
	return a >> s
}
func shlI64(a int, s int) int        { return a << s }
func shrI64(a int, s uint64) int     { return a >> s }
func shlU64(a uint64, s uint) uint64 { return a << s }
func shrU64(a uint64, s int16) uint64 {
	return a >> s
}
func constShifts(a int16) int16 { return a<<3 ^ a>>15 ^ int16(uint16(a)>>1) }
func bits(a, b uint32) uint32   { return a&b | a ^ b&^(b>>3) ^ ^a }
func bitsI(a, b int16) int16    { return a&b | a ^ b&^(b>>3) ^ ^a }

func cmp(a, b int) bool        { return a < b || a == b+1 && !(a >= 5) }
func cmpU(a, b uint64) bool    { return a <= b != (a > b>>1) }
func cmpF(a, b float64) bool   { return a < b || a == b || a != a }
func cmpF32(a, b float32) bool { return a >= b && b > -1 }

func f2i8(x float64) int8     { return int8(x) }
func f2u8(x float64) uint8    { return uint8(x) }
func f2i16(x float64) int16   { return int16(x) }
func f2u16(x float64) uint16  { return uint16(x) }
func f2i32(x float64) int32   { return int32(x) }
func f2u32(x float64) uint32  { return uint32(x) }
func f2i64(x float64) int64   { return int64(x) }
func f2u64(x float64) uint64  { return uint64(x) }
func f32i32(x float32) int32  { return int32(x) }
func f32u32(x float32) uint32 { return uint32(x) }
func f32i64(x float32) int64  { return int64(x) }
func f32u64(x float32) uint64 { return uint64(x) }
func f32i8(x float32) int8    { return int8(x) }
func i2f(x int64) float64     { return float64(x) }
func u2f(x uint64) float64    { return float64(x) }
func u2f32(x uint64) float32  { return float32(x) }
func i2f32(x int64) float32   { return float32(x) }
func i8u64(x int8) uint64     { return uint64(x) }
func u64i16(x uint64) int16   { return int16(x) }
func d2f(x float64) float32   { return float32(x) }
func f2d(x float32) float64   { return float64(x) }

func arithF(a, b float64) float64   { return a*b + a/b - (a - b) }
func arithF32(a, b float32) float32 { return a*b + a/b - (a - b) }
func negF(a float64) float64        { return -a }
func fmaLike(a, b float64) float64  { return a*b + 1e-17 }

func sqrt(x float64) float64      { return math.Sqrt(x) }
func exp(x float64) float64       { return math.Exp(x) }
func log(x float64) float64       { return math.Log(x) }
func pow(x, y float64) float64    { return math.Pow(x, y) }
func abs(x float64) float64       { return math.Abs(x) }
func floor(x float64) float64     { return math.Floor(x) }
func ceil(x float64) float64      { return math.Ceil(x) }
func trunc(x float64) float64     { return math.Trunc(x) }
func erf(x float64) float64       { return math.Erf(x) }
func sin(x float64) float64       { return math.Sin(x) }
func cos(x float64) float64       { return math.Cos(x) }
func inf(s int) float64           { return math.Inf(s) }
func nan(x float64) float64       { return math.NaN() + x }
func mmax(x, y float64) float64   { return math.Max(x, y) }
func mmin(x, y float64) float64   { return math.Min(x, y) }
func bmax(x, y float64) float64   { return max(x, y) }
func bmin(x, y float64) float64   { return min(x, y) }
func bmax32(x, y float32) float32 { return max(x, y, 0.5) }
func bmin32(x, y float32) float32 { return min(x, y) }
func imax(x, y int16) int16       { return max(x, y, -3) }
func umin(x, y uint64) uint64     { return min(x, y) }
func isnan(x float64) bool        { return math.IsNaN(x) }
func isinf(x float64, s int) bool {
	return math.IsInf(x, s)
}
func signbit(x float64) bool         { return math.Signbit(x) }
func fbits(x float64) uint64         { return math.Float64bits(x) ^ uint64(math.Float32bits(float32(x))) }
func copysign(x, y float64) float64  { return math.Copysign(x, y) }
func mod(x, y float64) float64       { return math.Mod(x, y) }
func remainder(x, y float64) float64 { return math.Remainder(x, y) }
func dim(x, y float64) float64       { return math.Dim(x, y) }
func ldexp(x float64, e int) float64 { return math.Ldexp(x, e) }
func logb(x float64) float64         { return math.Logb(x) }
func fma(x, y, z float64) float64    { return math.FMA(x, y, z) }
func acosh(x float64) float64        { return math.Acosh(x) }
func asinh(x float64) float64        { return math.Asinh(x) }
func atanh(x float64) float64        { return math.Atanh(x) }

// control flow

func collatz(n uint64) int {
	steps := 0
	for n > 1 && steps < 1000 {
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		steps++
	}
	return steps
}

func loops(n int) int {
	s := 0
outer:
	for i := range n % 50 {
		for j := 0; j < 10; j++ {
			switch {
			case j == i:
				continue outer
			case j > 7:
				break outer
			case j == 3:
				continue
			}
			s += i*j - 1
		}
	}
	return s
}

func sw(x int32) int32 {
	var r int32
	switch y := x % 5; y {
	case 0, 1:
		r = 10
	case 2:
		if x > 100 {
			break
		}
		r = 20
	default:
		r = y * 3
	}
	return r
}

type vec struct {
	X, Y float64
	N    int32
	OK   bool
}

func (v vec) dot(w vec) float64 { return v.X*w.X + v.Y*w.Y }

func structs(a float64, n int32) vec {
	v := vec{X: a, Y: -a, N: n}
	w := vec{a * 2, 1, n + 1, true}
	v.OK = v.dot(w) > 0 && v != w
	arr := [3]int32{n, 2 * n, 3}
	arr[int(n)&1] += 5
	v.N = arr[0] + arr[1] + arr[2]
	return v
}

func index(i int) int32 {
	arr := [4]int32{1, 2, 3, 4}
	return arr[i]
}

func named(x int) (r int) {
	if x > 3 {
		r = x * 2
		return
	}
	return x - 1
}

func explicitPanic(x int) int {
	if x == 13 {
		panic("thirteen")
	}
	return x
}

func swap(a, b int) int {
	a, b = b, a+b
	var c, d = b, a
	return a*3 + b - c*d
}

// Functions of several results are translated as callees.

func divmod(a, b int) (q, r int) {
	q = a / b
	r = a % b
	return
}

func twoRes(a int) (int, bool) { return a * 2, a > 0 }

func useMulti(a, b int) int {
	q, r := divmod(a, b)
	d, ok := twoRes(q)
	var e, g = twoRes(r)
	if ok && g {
		return d + e
	}
	return q - r
}
