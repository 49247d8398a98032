// Regression (found by randpipe seed 5010, spec7): a Map2 that panics on
// unequal lengths was fused into its consumer below a write to another
// argument, so the fused function wrote xs before panicking while the spec
// panics first and leaves xs unchanged.

package panicwrite

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse PanicPastWrite
func panicPastWriteSpec(xs []int64, ys []int64, zs []int64) []int64 {
	a := soac.Map2(ys, zs, func(y, z int64) int64 { return y + z })
	if len(xs) > 0 {
		xs[0] = 99
	}
	b := soac.Map(a, func(v int64) int64 { return v * 2 })
	return b
}
