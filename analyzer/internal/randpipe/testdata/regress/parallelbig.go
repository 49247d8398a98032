// Regression spec (random, seed 440242, spec3, reduced): a Filter of a
// float Scan against a threshold its running totals reach exactly (3.75)
// at three indices of the harness's 1e5 inputs (package seed 12, the
// floats drawn after xs). The parallel backend's chunks re-associate the
// scan, as the contract allows: on inputs that are multiples of 1/40 the
// spec's totals rounded above the threshold there and the chunks' below,
// so the filter kept 3 more elements and the harness reported a mismatch
// that was rounding. The harness's large inputs are multiples of 1/32,
// whose sums are exact in any order (harness.go, rpLarge).

package parallelbig

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse Fused3
func spec3(xs []int64, fs []float64, k int64) []float64 {
	a3 := soac.Scan(fs, 0, func(a, b float64) float64 { return a + b })
	return soac.Filter(a3, func(x float64) bool { return x < 3.75 })
}
