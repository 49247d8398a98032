// Regression specs: in a loop, a Map or Scan assigns its own input
// variable and a Reduce reads the new value; the generated code ran the
// Reduce on the value from before the loop in every round (Halve of
// {8, 8} in 3 rounds: 8, not 2), or did not write the Scan's result back.

package reassignloop

import "github.com/soacgen/soacgen/runtime/soac"

// halveSpec has shapes loop-counted, reassign-read.
//
//soac:fuse Halve
func halveSpec(xs []float64, k int64) float64 {
	s := 0.0
	for it := int64(0); it < k; it++ {
		xs = soac.Map(xs, func(x float64) float64 { return x * 0.5 })
		s = soac.Reduce(xs, 0.0, func(a, b float64) float64 { return a + b })
	}
	return s
}

// scanLoopSpec has shapes loop-counted, reassign-read.
//
//soac:fuse ScanLoop
func scanLoopSpec(xs []int64, k int64) ([]int64, int64) {
	s := int64(0)
	for it := int64(0); it < k; it++ {
		xs = soac.Scan(xs, 0, func(x, y int64) int64 { return x + y })
		s = soac.Reduce(xs, 0, func(x, y int64) int64 { return x + y })
	}
	return xs, s
}

// carrySpec has shapes loop-counted, loop-carried, reassign-read.
//
//soac:fuse Carry
func carrySpec(xs []int64, k int64) ([]int64, int64) {
	s := int64(1)
	for it := int64(0); it < k; it++ {
		xs = soac.Map(xs, func(x int64) int64 { return x + s })
		s = soac.Reduce(xs, 0, func(a, b int64) int64 { return a ^ b })
	}
	return xs, s
}
