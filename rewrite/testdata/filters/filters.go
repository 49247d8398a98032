// Package filters holds filter chains, filter->redomap and filter->map.
package filters

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse FilterChain
func filterChainSpec(xs []int) []int {
	pos := soac.Filter(xs, func(x int) bool { return x > 0 })
	return soac.Filter(pos, func(x int) bool { return x%2 == 0 })
}

//soac:fuse SumPositive
func sumPositiveSpec(xs []float64) float64 {
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	sq := soac.Map(pos, func(x float64) float64 { return x * x })
	return soac.Reduce(sq, 0.0, func(a, b float64) float64 { return a + b })
}

//soac:fuse FilterMap
func filterMapSpec(xs []int) []int {
	small := soac.Filter(xs, func(x int) bool { return x < 50 })
	return soac.Map(small, func(x int) int { return x * 10 })
}

//soac:fuse MapFilter
func mapFilterSpec(xs []int) []int {
	ys := soac.Map(xs, func(x int) int { return x * 3 })
	return soac.Filter(ys, func(y int) bool { return y%2 == 0 })
}

//soac:fuse FilterMax
func filterMaxSpec(xs []float64, lo float64) (float64, int) {
	above := soac.Filter(xs, func(x float64) bool { return x > lo })
	m := soac.Reduce(above, lo, func(a, b float64) float64 { return max(a, b) })
	return m, len(above)
}

const sumPositiveSpecAllocs = 0
