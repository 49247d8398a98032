// Regression spec: a1 is read by kernels in the loop and by the Filter
// after it; the opencl backend's code for the Filter named the device
// handle of a1 that the loop's code declared and released in its scope
// (the handle was known to the generator past its last reader).
// devLoopReducedSpec is the smallest spec found that did the same.

package opencldev

import (
	"math"

	"github.com/soacgen/soacgen/runtime/soac"
)

// devLoopSpec has shapes loop-range, loop-carried, reassign-read.
//
//soac:fuse DevLoop
func devLoopSpec(xs []int64, k int64) ([]int64, []int64, int64, []float64) {
	a1 := soac.Map(xs, func(x int64) int64 { return x * 3 })
	a2 := a1
	a3 := soac.Scan(a2, 0, func(a, b int64) int64 { return a + b })
	s4 := int64(3)
	for range int(k & 3) {
		a2 = soac.Map(a1, func(x int64) int64 { return (-x) % 7 })
		a2 = soac.Scan(a1, -1, func(a, b int64) int64 { return a & b })
		s4 = soac.Reduce(soac.Map(a2, func(v int64) int64 { return v*2 - s4 + 1 }), math.MaxInt64, func(a, b int64) int64 { return min(a, b) })
	}
	a5 := soac.Filter(a1, func(x int64) bool { return -s4 != x })
	cnt6 := int64(0)
	p7 := soac.Map(xs, func(x int64) int64 { cnt6++; return x + cnt6 })
	q8 := soac.Map(p7, func(v int64) int64 { return v*2 + cnt6 })
	a9 := soac.Map2(q8, a3, func(x int64, y int64) float64 { return float64(x) - 0.5 + float64(s4) })
	return a2, a5, cnt6, a9
}

// devLoopReducedSpec has shapes loop-range, loop-carried.
//
//soac:fuse DevLoopReduced
func devLoopReducedSpec(xs []int64, k int64) ([]int64, []int64, int64) {
	a1 := soac.Map(xs, func(x int64) int64 { return x * 3 })
	a1 = soac.Scan(a1, 0, func(a, b int64) int64 { return a + b })
	a2 := a1
	s4 := int64(3)
	for range int(k & 3) {
		a2 = soac.Map(a1, func(x int64) int64 { return (-x) % 7 })
		a2 = soac.Scan(a1, -1, func(a, b int64) int64 { return a & b })
		s4 = soac.Reduce(soac.Map(a2, func(v int64) int64 { return v*2 - s4 + 1 }), math.MaxInt64, func(a, b int64) int64 { return min(a, b) })
	}
	a5 := soac.Filter(a1, func(x int64) bool { return -s4 != x })
	return a2, a5, s4
}
