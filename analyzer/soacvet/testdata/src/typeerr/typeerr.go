// Package typeerr has a type error: soacvet skips it.
package typeerr

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b float64) float64 { return a + b }

// SumSquares is well typed and would fuse.
func SumSquares(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0, add)
}

// broken does not type-check.
func broken() int {
	return undefinedName
}
