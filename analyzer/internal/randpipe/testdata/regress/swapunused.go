// Regression specs: in `a, b = b, soac.Map(a, f)` the Map fuses into
// the kernel that computes a, so no statement of the generated function
// reads a after it is declared: "declared and not used: a".

package swapunused

import "github.com/soacgen/soacgen/runtime/soac"

// swapUnusedSpec has shapes double-buffer.
//
//soac:fuse SwapUnused
func swapUnusedSpec(xs []float64) float64 {
	a := soac.Map(xs, func(x float64) float64 { return x + 1 })
	b := soac.Map(xs, func(x float64) float64 { return x * 2 })
	a, b = b, soac.Map(a, func(x float64) float64 { return x - 1 })
	return soac.Reduce(b, 0, func(x, y float64) float64 { return x + y })
}
