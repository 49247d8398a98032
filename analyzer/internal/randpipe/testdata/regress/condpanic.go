// Regression (found in review): the panic-order check did not see the
// condition of an if that a producer is sunk into (stmtMayPanic did not
// know the fusion engine's view of the if's own expressions), so a Map2
// that panics on unequal lengths was copied into both branches past an
// index that may be out of range: the fused function raised the index
// panic instead of the spec's unequal-lengths panic.

package condpanic

import "github.com/soacgen/soacgen/runtime/soac"

//soac:fuse CondPanic
func condPanicSpec(xs []int64, ys []int64, k int64) int64 {
	p := soac.Map2(xs, ys, func(a, b int64) int64 { return a + b })
	var q int64
	if xs[k&7] > 0 {
		q = soac.Reduce(p, 0, func(a, b int64) int64 { return a + b })
	} else {
		q = soac.Reduce(p, 1, func(a, b int64) int64 { return a * b })
	}
	return q
}
