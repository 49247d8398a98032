// Package none asks for opencl, parallel and cpu, and every kernel runs
// on the backend asked for: no fallback finding.
package none

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse SumSquares backend=opencl
func sumSquaresSpec(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0.0, func(a, b float64) float64 { return a + b })
}

//soac:fuse Doubled backend=parallel
func doubledSpec(xs []int) []int {
	return soac.Map(xs, func(x int) int { return 2 * x })
}

//soac:fuse Halved
func halvedSpec(xs []float64) []float64 {
	return soac.Map(xs, func(x float64) float64 { return x / 2 })
}
