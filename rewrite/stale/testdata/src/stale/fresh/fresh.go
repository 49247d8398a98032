// Package fresh's generated files are what soacgen generates now: no
// stale finding. A spec calls another spec's generated function, and a
// caller in another file uses one, so the analysed package's view of those
// functions (the generated code) differs from soacgen's (stubs).
package fresh

import "github.com/soacgen/soacgen/runtime/soac"

func add(a, b float64) float64 { return a + b }

// sumSqSpec sums the squares of xs.
//
//soac:fuse SumSq
func sumSqSpec(xs []float64) float64 {
	return soac.Reduce(soac.Map(xs, func(x float64) float64 { return x * x }), 0, add)
}

// sumOfSumSqsSpec sums the sums of squares of the rows of xss.
//
//soac:fuse SumOfSumSqs
func sumOfSumSqsSpec(xss [][]float64) float64 {
	return soac.Reduce(soac.Map(xss, SumSq), 0, add)
}
