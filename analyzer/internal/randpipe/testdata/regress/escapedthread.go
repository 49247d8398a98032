// Regression spec (random, seed 320306, spec9): a1, assigned by a closure,
// escapes; the impure Reduce at s5 reads its current value and defines its
// next (the same value), which the Maps and the Scan after it read. The
// kernel computing a1 kept it internal: they read an empty slice.

package escapedthread

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// spec9 has shapes reassign-read, double-buffer, closure-assign.
//
//soac:fuse Fused9
func spec9(xs []int64, fs []float64, k int64) ([]int64, int64, []float64, []int64, int64, int64, []int64) {
	a1 := soac.Map(xs, func(x int64) int64 {
		return soac.Reduce(soac.Map(soac.Iota(2), func(i int) int64 { return x }), math.MinInt64, func(a, b int64) int64 { return max(a, b) })
	})
	a2 := soac.StreamMap(a1, func(ch []int64) []int64 { return soac.Map(ch, func(v int64) int64 { return ((k >> 1) + (v ^ k)) }) })
	cnt3 := int64(0)
	s5 := soac.Reduce(soac.Map(a2, func(x int64) int64 { cnt3++; return ((-x) >> 1) }), math.MaxInt64, func(a, b int64) int64 { return min(a, b) })
	var a6 []float64
	a6 = soac.Map(a1, func(x int64) float64 { return float64((s5 >> 1)) })
	a7 := soac.Scan(a1, 0, func(a, b int64) int64 { return a ^ b })
	a8 := soac.Map(a7, func(x int64) int64 { t := int64(((1 % 7) ^ ((-2) - x))); t = t + k; return ((7 + s5) >> 1) })
	s9 := int64(0)
	s10 := soac.Reduce(a7, 0, func(a, b int64) int64 { return a ^ b })
	upd11 := func() { a1 = soac.Map(a1, func(x int64) int64 { return 8 }) }
	f12 := func(x int64) int64 { return (k + s9) }
	a1 = soac.Map(a1, f12)
	for range 2 {
		upd11()
	}
	a1, a8 = a8, a1
	a13 := soac.Scan(a8, math.MinInt64, func(a, b int64) int64 { return max(a, b) })
	return a1, cnt3, a6, a7, s9, s10, a13
}
