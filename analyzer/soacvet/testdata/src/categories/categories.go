// Package categories has findings of several categories; the test selects
// some with -categories.
package categories

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b float64) float64 { return a + b }

func sumSquares(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0, add)
}

func ratio(xs []float64) []float64 {
	pos := soac.Filter(xs, func(x float64) bool { return x > 0 })
	return soac.Map2(pos, xs, func(p, x float64) float64 { return p / x })
}

//soac:fuse WriteBetween
func writeBetween(xs []float64) float64 {
	ys := soac.Map(xs, func(x float64) float64 { return x * x })
	ys[0] = 100
	return soac.Reduce(ys, 0, add)
}
