// Regression (found in review): the panic-order check took make and a shift
// by a variable count for statements that cannot panic, so a Map2 that
// panics on unequal lengths moved past make([]int64, k) or 1 << k: with
// unequal lengths and a negative k, the fused function panicked with
// "makeslice: len out of range" or "negative shift amount" instead of the
// spec's unequal-lengths panic.

package panicmake

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse MakePastPanic
func makePastPanicSpec(xs []int64, ys []int64, k int64) (int64, int64) {
	p := soac.Map2(xs, ys, func(a, b int64) int64 { return a + b })
	buf := make([]int64, k)
	q := soac.Reduce(p, 0, func(a, b int64) int64 { return a + b })
	return q, int64(len(buf))
}

//soac:fuse ShiftPastPanic
func shiftPastPanicSpec(xs []int64, ys []int64, k int64) (int64, int64) {
	p := soac.Map2(xs, ys, func(a, b int64) int64 { return a + b })
	s := int64(1) << k
	q := soac.Reduce(p, 0, func(a, b int64) int64 { return a + b })
	return q, s
}
