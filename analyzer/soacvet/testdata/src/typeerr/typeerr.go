// Package typeerr has a type error: soacvet analyses it as far as its
// types allow.
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

// brokenPipeline has a type error inside a pipeline's lambda.
func brokenPipeline(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * undefinedScale }), 0, add)
}

// brokenInput passes an undefined array to a pipeline.
func brokenInput() []float64 {
	return soac.Map(soac.Filter(undefinedSlice, func(x float64) bool { return x > 0 }), func(x float64) float64 { return -x })
}
