// Regression spec: v4 captures v3 and could fuse with the kernel of v0
// and v1; v6's Map captures v1. The plan ran a kernel before the scalar
// it captures was computed, and the generated code panicked slicing an
// array not yet made.

package crosscapture

import "github.com/soacgen/soacgen/runtime/soac"

// parSpec has shapes cross-capture.
//
//soac:fuse Par
func parSpec(xs []int64) (int64, []int64) {
	v0 := soac.Map(xs, func(x int64) int64 { return x + 1 })
	v1 := soac.Reduce(v0, 0, func(a, b int64) int64 { return a + b })
	v3 := soac.Reduce(xs, 0, func(a, b int64) int64 { return a + b })
	v4 := soac.Map(v0, func(v int64) int64 { return v - v3 })
	v6 := soac.Reduce(soac.Map(v0, func(v int64) int64 { return v + v1 }), 0, func(a, b int64) int64 { return a + b })
	return v6, v4
}
