// Regression specs: a2's first value is dead; its second, a Scan, stays
// on the device for the Map and the Filter that read it (opencl, auto),
// or fuses into them (every backend), so the generated code declares the
// Go variable a2 and never reads it: "declared and not used: a2".

package deadfirst

import "github.com/soacgen/soacgen/runtime/soac"

// deadFirstSpec has shapes reassign-read.
//
//soac:fuse DeadFirst
func deadFirstSpec(xs []int64, k int64) ([]int64, []int64) {
	a2 := soac.Map(xs, func(x int64) int64 { return 1 })
	a2 = soac.Scan(xs, 0, func(a, b int64) int64 { return a + b })
	a1 := soac.Map(a2, func(x int64) int64 { return x ^ k })
	a4 := soac.Filter(a2, func(x int64) bool { return x > k })
	return a1, a4
}

// deadFirst2Spec has shapes reassign-read.
//
//soac:fuse DeadFirst2
func deadFirst2Spec(xs []int64) []float64 {
	a1 := soac.Map(xs, func(x int64) int64 { return x + 1 })
	a1 = soac.Scan(xs, 0, func(a, b int64) int64 { return a ^ b })
	a4 := soac.Map(a1, func(x int64) float64 { return float64(x) })
	return soac.Filter(a4, func(x float64) bool { return x > 0 })
}
