// Package basic holds lambdas of scalar arithmetic for the translator's
// golden tests.
package basic

import "github.com/soacgen/soacgen/runtime/soac"

func ints(xs []int, k int) []int {
	return soac.Map(xs, func(x int) int {
		y := x*3 + k
		y -= x / k
		y %= 7
		y <<= uint(k)
		y = y>>2 | x&^k ^ -x
		y++
		return y
	})
}

func small(xs []int8) []uint16 {
	return soac.Map(xs, func(x int8) uint16 {
		a := x * x
		b := uint16(a) << 3
		c := int16(x) / -1
		return b + uint16(c) + ^uint16(x)>>1
	})
}

func floats(xs []float32) []int32 {
	return soac.Map(xs, func(x float32) int32 {
		y := x/3 + 0.5
		return int32(y) + int32(float64(y)*2)
	})
}

func conversions(xs []float64) []uint64 {
	return soac.Map(xs, func(x float64) uint64 {
		return uint64(x) + uint64(uint32(x)) + uint64(int8(x))
	})
}

func bools(xs []int) []int {
	return soac.Filter(xs, func(x int) bool { return x > 0 && x%2 == 0 || x == -7 })
}

// scaler's methods as lambdas: method values, their receiver a capture
// (by value, also through a pointer).
type scaler struct {
	k   float64
	off int32
}

func (s scaler) apply(x float64) float64 { return x*s.k + float64(s.off) }

func methodValues(xs []float64, s scaler, p *scaler) float64 {
	return soac.Reduce(soac.Map(soac.Map(xs, s.apply), p.apply), 0, func(a, b float64) float64 { return a + b })
}
