// Regression: fusions refused for a write between the
// passes (through a copy, a sub-slice, an unrelated slice) or a reassigned
// captured variable; each must carry a note (checkEdgeNotes).

package refusals

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse ThroughCopy
func throughCopySpec(xs []int64) int64 {
	p := soac.Map(xs, func(x int64) int64 { return x * 3 })
	c := p
	if len(c) > 0 {
		c[0] = 7
	}
	return soac.Reduce(p, 0, func(a, b int64) int64 { return a + b })
}

//soac:fuse ThroughSubslice
func throughSubsliceSpec(xs []int64) int64 {
	p := soac.Map(xs, func(x int64) int64 { return x - 1 })
	if len(p) > 2 {
		s := p[1:]
		s[0] = 9
	}
	return soac.Reduce(p, 0, func(a, b int64) int64 { return a + b })
}

//soac:fuse Unrelated
func unrelatedSpec(xs, other []int64) int64 {
	p := soac.Map(xs, func(x int64) int64 { return x * 5 })
	if len(other) > 0 {
		other[0] = 1
	}
	return soac.Reduce(p, 0, func(a, b int64) int64 { return a + b })
}

//soac:fuse CapturedReassigned
func capturedReassignedSpec(xs []int64, c int64) int64 {
	p := soac.Map(xs, func(x int64) int64 { return x + c })
	c = 2 * c
	return soac.Reduce(p, c, func(a, b int64) int64 { return a + b })
}
