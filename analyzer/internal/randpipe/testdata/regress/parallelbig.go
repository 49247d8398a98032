// Regression spec (random, seed 440242, spec3, reduced): a Filter of a
// float Scan against a threshold its running totals reach exactly (3.75)
// at some indices of the harness's inputs (three of the 1e5 of package
// seed 12). The parallel backend's chunks re-associate the scan, as the
// contract allows, and so do the opencl backend's work-groups (at 1000
// elements too): on inputs that are multiples of 1/40 the spec's totals
// rounded above the threshold there and the chunks' below, the filter
// kept more elements, and the harness reported a mismatch that was
// rounding. Where the harness compares within rounding its inputs are
// multiples of 1/32, whose sums are exact in any order (harness.go,
// floatDen).

package parallelbig

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse Fused3
func spec3(xs []int64, fs []float64, k int64) []float64 {
	a3 := soac.Scan(fs, 0, func(a, b float64) float64 { return a + b })
	return soac.Filter(a3, func(x float64) bool { return x < 3.75 })
}
